#!/usr/bin/env python3
"""Generates the grid layout corpus: random CSS grids laid out by headless Chromium.

Like Yoga's gentest for flexbox: every case is a tree of <div>s with the corpus's style keys
(schema: Tests/SilkLayoutTests/Fixtures/README.md plus the grid keys of docs/layout.md "Grid"),
rendered in one HTML page with the same base style as Yoga's fixtures (every div a flex column,
`box-sizing: border-box`, `min-width/height: 0`, `flex-shrink: 0`), and each node's border box
measured with getBoundingClientRect relative to its parent's. The JSON written is an ordinary
corpus file that `silk layout` evaluates; the tests use the committed copy.

Each case is a root flex column (absolute, fixed width) holding one grid container, whose items
are either sized boxes or auto-sized boxes holding a fixed-size block (so their content size
is known): fixed, percentage, fr, auto and minmax() tracks, repeat(), gaps, explicit lines,
spans, negative lines, row/column auto-flow (sparse and dense), implicit tracks, item and
content alignment, auto margins, padding and border on the grid, and RTL (a case-level
`direction`).

Usage: chromium_grid.py [--seed N] [--cases N] [--chromium PATH] OUT.json
Needs Debian's `chromium` (only for generating; not a test dependency).
"""
import argparse
import html
import json
import os
import random
import re
import subprocess
import tempfile

BASE_CSS = """
body { margin: 0; }
div { box-sizing: border-box; position: relative; display: flex; flex-direction: column;
      align-items: stretch; align-content: flex-start; justify-content: flex-start; flex-shrink: 0;
      border: 0 solid black; margin: 0; padding: 0; min-width: 0; min-height: 0; }
"""

CSS_NAMES = {
    "positionType": "position", "flexDirection": "flex-direction", "flexWrap": "flex-wrap",
    "flexGrow": "flex-grow", "flexShrink": "flex-shrink", "flexBasis": "flex-basis",
    "aspectRatio": "aspect-ratio", "boxSizing": "box-sizing",
    "marginLeft": "margin-left", "marginRight": "margin-right", "marginTop": "margin-top",
    "marginBottom": "margin-bottom", "paddingLeft": "padding-left", "paddingRight": "padding-right",
    "paddingTop": "padding-top", "paddingBottom": "padding-bottom", "borderLeft": "border-left-width",
    "borderRight": "border-right-width", "borderTop": "border-top-width", "borderBottom": "border-bottom-width",
    "minWidth": "min-width", "maxWidth": "max-width", "minHeight": "min-height", "maxHeight": "max-height",
    "gridTemplateColumns": "grid-template-columns", "gridTemplateRows": "grid-template-rows",
    "gridAutoColumns": "grid-auto-columns", "gridAutoRows": "grid-auto-rows", "gridAutoFlow": "grid-auto-flow",
    "justifyItems": "justify-items", "alignItems": "align-items", "justifyContent": "justify-content",
    "alignContent": "align-content", "rowGap": "row-gap", "columnGap": "column-gap", "gridColumn": "grid-column",
    "gridRow": "grid-row", "justifySelf": "justify-self", "alignSelf": "align-self",
}


def css_value(v):
    if isinstance(v, (int, float)):
        return f"{v}px"
    return v


UNITLESS = {"flexGrow", "flexShrink", "aspectRatio"}


def css(style):
    out = []
    for k, v in style.items():
        name = CSS_NAMES.get(k, k)
        out.append(f"{name}: {v if k in UNITLESS else css_value(v)}")
    return "; ".join(out)


def track(r, allow_fr=True):
    kind = r.choice(["px", "px", "pct", "fr", "fr", "auto", "auto", "minmax"] if allow_fr else ["px", "pct", "auto"])
    if kind == "px":
        return f"{r.randint(10, 120)}px"
    if kind == "pct":
        return f"{r.choice([10, 20, 25, 30, 50])}%"
    if kind == "fr":
        return f"{r.choice([1, 1, 1, 2, 3])}fr"
    if kind == "auto":
        return "auto"
    lo = r.choice([f"{r.randint(10, 60)}px", "auto", "0px"])
    hi = r.choice([f"{r.randint(60, 160)}px", "1fr", "2fr", "auto", "30%"])
    return f"minmax({lo}, {hi})"


def track_list(r, n, allow_fr=True):
    tracks = [track(r, allow_fr) for _ in range(n)]
    if n >= 2 and r.random() < 0.15:
        return f"repeat({n}, {tracks[0]})"
    return " ".join(tracks)


def placement(r, explicit):
    k = r.random()
    if k < 0.45:
        return None
    if k < 0.6:
        return f"span {r.randint(2, 3)}"
    if k < 0.75:
        return str(r.randint(1, max(1, explicit + 1)))
    if k < 0.85:
        return f"{r.randint(1, max(1, explicit))} / span {r.randint(1, 2)}"
    if k < 0.93:
        return "1 / -1"
    a = r.randint(1, max(1, explicit))
    return f"{a} / {a + r.randint(1, 2)}"


def item(r, columns_explicit, rows_explicit):
    style = {}
    children = []
    if r.random() < 0.5:
        style["width"] = r.choice([r.randint(10, 90), r.randint(10, 90), "50%", "100%"])
    if r.random() < 0.5:
        style["height"] = r.choice([r.randint(10, 90), r.randint(10, 90), "50%"])
    if "width" not in style or "height" not in style or r.random() < 0.3:
        children.append({"style": {"width": r.randint(5, 100), "height": r.randint(5, 80)}, "children": []})
    for key, p in (("gridColumn", columns_explicit), ("gridRow", rows_explicit)):
        v = placement(r, p)
        if v:
            style[key] = v
    if r.random() < 0.25:
        style["justifySelf"] = r.choice(["start", "end", "center", "stretch"])
    if r.random() < 0.25:
        style["alignSelf"] = r.choice(["start", "end", "center", "stretch"])
    if r.random() < 0.2:
        side = r.choice(["marginLeft", "marginRight", "marginTop", "marginBottom"])
        style[side] = r.choice([r.randint(1, 12), "auto"])
    if r.random() < 0.1:
        style["maxWidth"] = r.randint(20, 60)
    return {"style": style, "children": children}


def case(r, index):
    ncols = r.randint(0, 5)
    nrows = r.randint(0, 4)
    grid = {"display": "grid"}
    if ncols:
        grid["gridTemplateColumns"] = track_list(r, ncols)
    if nrows:
        # Rows of an auto-height grid: fr and percentages behave as auto there.
        grid["gridTemplateRows"] = track_list(r, nrows)
    if r.random() < 0.3:
        grid["gridAutoRows"] = track(r, allow_fr=False)
    if r.random() < 0.2:
        grid["gridAutoColumns"] = r.choice(["40px", "auto", "60px"])
    if r.random() < 0.35:
        grid["gridAutoFlow"] = r.choice(["row", "column", "row dense", "column dense"])
    if r.random() < 0.5:
        grid["columnGap"] = r.choice([0, 4, 10])
    if r.random() < 0.5:
        grid["rowGap"] = r.choice([0, 5, 8])
    for key in ("justifyItems", "alignItems"):
        if r.random() < 0.3:
            grid[key] = r.choice(["start", "end", "center", "stretch"])
    for key in ("justifyContent", "alignContent"):
        if r.random() < 0.3:
            grid[key] = r.choice(["start", "end", "center", "stretch", "space-between", "space-around",
                                  "space-evenly"])
    if r.random() < 0.5:
        grid["height"] = r.randint(100, 400)
    if r.random() < 0.25:
        grid["width"] = r.randint(150, 400)
    if r.random() < 0.25:
        for side in ("paddingLeft", "paddingTop", "paddingRight", "paddingBottom"):
            grid[side] = r.randint(0, 12)
    if r.random() < 0.15:
        for side in ("borderLeft", "borderTop", "borderRight", "borderBottom"):
            grid[side] = r.randint(0, 4)
    items = [item(r, ncols, nrows) for _ in range(r.randint(1, 9))]
    root = {"style": {"positionType": "absolute", "width": r.randint(250, 500)},
            "children": [{"style": grid, "children": items}]}
    if r.random() < 0.4:
        root["style"]["alignItems"] = r.choice(["flex-start", "stretch"])
    c = {"name": f"grid_{index}", "available": [None, None], "root": root}
    if r.random() < 0.25:
        c["direction"] = "rtl"
    return c


def render(node, path):
    style = dict(node["style"])
    if style.get("positionType") == "absolute":
        style["positionType"] = "absolute"
    attrs = f' data-path="{path}" style="{html.escape(css(style))}"'
    inner = "".join(render(c, f"{path}/{i}") for i, c in enumerate(node["children"]))
    return f"<div{attrs}>{inner}</div>"


MEASURE = """
<script>
const out = {};
for (const root of document.querySelectorAll('[data-case]')) {
  const frames = [];
  const walk = (e, parent) => {
    const b = e.getBoundingClientRect();
    const p = parent ? parent.getBoundingClientRect() : b;
    frames.push([b.left - p.left, b.top - p.top, b.width, b.height]);
    for (const c of e.children) walk(c, e);
  };
  walk(root.firstElementChild, null);
  out[root.getAttribute('data-case')] = frames;
}
document.body.setAttribute('data-out', JSON.stringify(out));
</script>
"""


def measure_in_chromium(chromium, cases):
    """Lays every case out in one headless Chromium page; returns ({case name: [[left, top,
    width, height] per node, depth first]}, Chromium's version line)."""
    body = []
    for c in cases:
        root_html = render(c["root"], "")
        if c.get("direction") == "rtl":
            root_html = root_html.replace('style="', 'style="direction: rtl; ', 1)
        body.append(f'<section data-case="{c["name"]}" style="position: relative; display: block">{root_html}</section>')
    page = f"<!DOCTYPE html><html><head><style>{BASE_CSS}</style></head><body>{''.join(body)}{MEASURE}</body></html>"
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(page)
        path = f.name
    try:
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                              f"file://{path}"], capture_output=True, text=True, timeout=300).stdout
    finally:
        os.unlink(path)
    m = re.search(r'data-out="([^"]*)"', dom)
    if not m:
        raise SystemExit("chromium produced no measurements")
    version = subprocess.run([chromium, "--version"], capture_output=True, text=True).stdout.strip()
    return json.loads(html.unescape(m.group(1))), version


def write_corpus(out, doc):
    """Writes a corpus document: its keys one per line, then one case per line (small diffs)."""
    cases = doc["cases"]
    with open(out, "w") as f:
        f.write("{" + ",\n".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in doc.items() if k != "cases"))
        f.write(',\n"cases":[\n' + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "\n]}\n")
    print(f"{len(cases)} cases -> {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("out")
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = [case(r, i) for i in range(args.cases)]
    frames, version = measure_in_chromium(args.chromium, cases)

    def attach(node, it):
        f = next(it)
        node["expected"] = {"left": round(f[0], 3), "top": round(f[1], 3), "width": round(f[2], 3),
                            "height": round(f[3], 3)}
        for c in node["children"]:
            attach(c, it)
    def compact(node):
        # Small fixtures: no empty child lists, whole numbers without ".0".
        for k, v in node["expected"].items():
            if v == int(v):
                node["expected"][k] = int(v)
        if not node["children"]:
            del node["children"]
        for c in node.get("children", []):
            compact(c)
    for c in cases:
        attach(c["root"], iter(frames[c["name"]]))
        c["root"]["expected"]["left"] = 0
        c["root"]["expected"]["top"] = 0
        compact(c["root"])
        del c["available"]
    doc = {"about": f"Random CSS grids laid out by headless {version} (Tools/layout-corpus/chromium_grid.py "
                    f"--seed {args.seed} --cases {args.cases}); frames are border boxes relative to the "
                    "parent's, from getBoundingClientRect. Every div has Yoga's fixture base style (flex column, "
                    "border-box, min-width/height 0, flex-shrink 0); grid keys are in docs/layout.md, \"Grid\".",
           "direction": "ltr", "cases": cases}
    write_corpus(args.out, doc)


if __name__ == "__main__":
    main()
