#!/usr/bin/env python3
"""Generates random flexbox trees laid out by headless Chromium (issue 19's differential test).

Every case is a small tree of <div>s using the corpus's style keys (schema:
Tests/SilkLayoutTests/Fixtures/README.md), rendered in one HTML page with the base style of
Yoga's fixtures (every div a flex column, `box-sizing: border-box`, `min-width/height: 0`,
`flex-shrink: 0`) by chromium_grid.py's `render` and measure script, so the expected frames are
the browser's, not Yoga's. The trees use the features where Yoga and the browser may disagree:
wrap and wrap-reverse with align-content, margins (auto ones too), padding, borders, min/max
sizes, flex-basis/grow/shrink, percentages, gaps, relative and absolute children with insets,
and `direction: rtl` (on the case or on a node).

Leaves are fixed-size boxes or empty boxes (no text), so both engines know their content size.

Usage: chromium_flex.py [--seed N] [--cases N] [--chromium PATH] OUT.json
       chromium_flex.py --input CASES.json OUT.json   (lays out given trees: minimal cases)
Needs Debian's `chromium` (only for generating; not a test dependency).
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_grid import measure_in_chromium, write_corpus  # noqa: E402


def length(r, lo, hi, pct=0.2):
    if r.random() < pct:
        return f"{r.choice([10, 20, 25, 30, 50, 75, 100])}%"
    return r.randint(lo, hi)


def edges(r, style, prefix, lo, hi, allow_auto=False, allow_pct=True):
    for side in ("Left", "Top", "Right", "Bottom"):
        if r.random() < 0.5:
            if allow_auto and r.random() < 0.2:
                style[prefix + side] = "auto"
            elif allow_pct and r.random() < 0.15:
                style[prefix + side] = f"{r.choice([2, 5, 10])}%"
            else:
                style[prefix + side] = r.randint(lo, hi)


def node(r, depth, parent_row):
    """A flex item (and container): style keys as the corpus spells them."""
    s = {}
    if depth < 2 and r.random() < 0.5:
        kids = r.randint(1, 3)
    else:
        kids = 0
    # Sizes: leaves mostly fixed, containers mostly auto.
    if kids == 0 or r.random() < 0.3:
        if r.random() < 0.8:
            s["width"] = length(r, 5, 120)
        if r.random() < 0.8:
            s["height"] = length(r, 5, 90)
    if r.random() < 0.15:
        s["minWidth" if r.random() < 0.5 else "minHeight"] = length(r, 10, 80)
    if r.random() < 0.15:
        s["maxWidth" if r.random() < 0.5 else "maxHeight"] = length(r, 20, 120)
    if r.random() < 0.35:
        s["flexGrow"] = r.choice([1, 1, 2, 0.5])
    if r.random() < 0.3:
        s["flexShrink"] = r.choice([1, 1, 2])
    if r.random() < 0.25:
        s["flexBasis"] = length(r, 0, 100, pct=0.3)
    if r.random() < 0.4:
        edges(r, s, "margin", 0, 15, allow_auto=True)
    if r.random() < 0.15:
        s["alignSelf"] = r.choice(["flex-start", "flex-end", "center", "stretch"])
    if r.random() < 0.12:
        s["positionType"] = "absolute"
        for side in ("left", "top", "right", "bottom"):
            if r.random() < 0.4:
                s[side] = length(r, 0, 40)
    elif r.random() < 0.1:
        side = r.choice(["left", "top", "right", "bottom"])
        s[side] = r.randint(-10, 20)
    if r.random() < 0.08:
        s["direction"] = r.choice(["rtl", "ltr"])
    children = []
    if kids:
        container(r, s)
        row = s.get("flexDirection", "column").startswith("row")
        children = [node(r, depth + 1, row) for _ in range(kids)]
    return {"style": s, "children": children}


def container(r, s):
    if r.random() < 0.7:
        s["flexDirection"] = r.choice(["row", "row", "column", "row-reverse", "column-reverse"])
    if r.random() < 0.45:
        s["flexWrap"] = r.choice(["wrap", "wrap", "wrap-reverse"])
    if r.random() < 0.4:
        s["justifyContent"] = r.choice(["flex-start", "flex-end", "center", "space-between", "space-around",
                                        "space-evenly"])
    if r.random() < 0.4:
        s["alignItems"] = r.choice(["flex-start", "flex-end", "center", "stretch"])
    if s.get("flexWrap") and r.random() < 0.7:
        s["alignContent"] = r.choice(["flex-start", "flex-end", "center", "stretch", "space-between",
                                      "space-around", "space-evenly"])
    if r.random() < 0.35:
        edges(r, s, "padding", 0, 12)
    if r.random() < 0.2:
        edges(r, s, "border", 0, 5, allow_pct=False)
    if r.random() < 0.15:
        s["columnGap" if r.random() < 0.5 else "rowGap"] = r.choice([4, 10])


def case(r, index):
    root = {"positionType": "absolute", "width": r.randint(120, 400)}
    if r.random() < 0.6:
        root["height"] = r.randint(80, 300)
    container(r, root)
    # The root's percentages would resolve against the page, not an owner the corpus knows:
    # the root takes them as points.
    for k, v in list(root.items()):
        if isinstance(v, str) and v.endswith("%"):
            root[k] = int(v[:-1])
    row = root.get("flexDirection", "column").startswith("row")
    children = [node(r, 1, row) for _ in range(r.randint(1, 4))]
    c = {"name": f"flex_{index}", "root": {"style": root, "children": children}}
    if r.random() < 0.3:
        c["direction"] = "rtl"
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--cases", type=int, default=250)
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--input", help="a corpus file whose trees to lay out instead of random ones")
    ap.add_argument("out")
    args = ap.parse_args()
    if args.input:
        with open(args.input) as f:
            cases = json.load(f)["cases"]
        def strip(n):
            n.pop("expected", None)
            n.setdefault("children", [])
            for ch in n["children"]:
                strip(ch)
        for c in cases:
            strip(c["root"])
    else:
        r = random.Random(args.seed)
        cases = [case(r, i) for i in range(args.cases)]
    frames, version = measure_in_chromium(args.chromium, cases)

    def attach(n, it):
        f = next(it)
        n["expected"] = {k: (int(v) if v == int(v) else v)
                         for k, v in zip(("left", "top", "width", "height"), (round(x, 2) for x in f))}
        for ch in n["children"]:
            attach(ch, it)
        if not n["children"]:
            del n["children"]
    for c in cases:
        attach(c["root"], iter(frames[c["name"]]))
        c["root"]["expected"]["left"] = 0
        c["root"]["expected"]["top"] = 0
    source = f"--input {os.path.basename(args.input)}" if args.input else f"--seed {args.seed} --cases {args.cases}"
    doc = {"about": f"Random flexbox trees laid out by headless {version} (Tools/layout-corpus/chromium_flex.py "
                    f"{source}); frames are border boxes relative to the "
                    "parent's, from getBoundingClientRect. Every div has Yoga's fixture base style (flex column, "
                    "border-box, min-width/height 0, flex-shrink 0).",
           "direction": "ltr", "cases": cases}
    write_corpus(args.out, doc)


if __name__ == "__main__":
    main()
