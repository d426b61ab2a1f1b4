#!/usr/bin/env python3
"""Derives the right-to-left half of the Yoga flexbox corpus.

Yoga's generated tests (javascript/tests/generated/*.test.ts, made by its gentest tool from
Chrome) lay every tree out twice: `Direction.LTR` and `Direction.RTL`. The shared corpus
(yoga-flexbox.json) kept only LTR and resolved Yoga's logical edges (Start/End) to physical
LTR ones. This script reads the same tests again and writes an *overlay* corpus: for every case
kept in the base file, the RTL frames of every node (pre-order), plus, for nodes that used
Start/End edges, their style with logical keys (`marginStart`, `paddingEnd`, `borderStart`,
`start`, `end`, …) in place of the LTR-resolved physical ones. `silk layout` and the tests
merge it with the base file (schema: docs/layout.md, "Corpus files").

Checks made while extracting (the script stops on any mismatch): the LTR frames parsed from the
tests equal the base file's, and the logical style resolved for LTR equals the base style.

Usage: yoga_rtl.py YOGA_CHECKOUT BASE_CORPUS OUT
  YOGA_CHECKOUT  a checkout of github.com/facebook/yoga at the base file's `yogaCommit`
"""
import json
import os
import re
import sys

EDGE_FAMILIES = {"Margin": "margin", "Padding": "padding", "Border": "border", "Position": ""}
PHYSICAL = ["Left", "Top", "Right", "Bottom"]


def parse_value(raw):
    raw = raw.strip()
    if raw.startswith(("'", '"')):
        s = raw[1:-1]
        return s if s.endswith("%") or s == "auto" else float(s)
    v = float(raw)
    return int(v) if v == int(v) else v


def edge_key(family, edge):
    prefix = EDGE_FAMILIES[family]
    if prefix == "":
        return edge[0].lower() + edge[1:]        # left, top, right, bottom, start, end
    return prefix + edge                           # marginLeft, paddingStart, …


def resolve(edges):
    """Yoga's precedence for one family's edges set in a test: physical LTR values, plus the
    logical ones kept as they are. Returns a dict of style keys (without the family prefix)."""
    out = {}
    allv = edges.get("All")
    horiz = edges.get("Horizontal", allv)
    vert = edges.get("Vertical", allv)
    for side, fallback in (("Left", horiz), ("Right", horiz), ("Top", vert), ("Bottom", vert)):
        v = edges.get(side, fallback)
        if v is not None:
            out[side] = v
    for side in ("Start", "End"):
        if side in edges:
            out[side] = edges[side]
    return out


def parse_tests(text):
    tests = {}
    for m in re.finditer(r"^test(\.skip)?\('([^']+)', \(\) => \{\n(.*?)^\}\);", text, re.S | re.M):
        name, body = m.group(2), m.group(3)
        nodes, children, edges = [], {}, {}
        frames = {"LTR": {}, "RTL": {}}
        phase = None
        for line in body.splitlines():
            line = line.strip()
            if mm := re.match(r"const (\w+) = Yoga\.Node\.create\(config\);", line):
                nodes.append(mm.group(1)); children[mm.group(1)] = []; edges[mm.group(1)] = {}
            elif mm := re.match(r"(\w+)\.insertChild\((\w+), (\d+)\);", line):
                children[mm.group(1)].insert(int(mm.group(3)), mm.group(2))
            elif mm := re.match(r"(\w+)\.set(Margin|Padding|Border|Position)(Auto)?\(Edge\.(\w+)(?:, (.+))?\);", line):
                var, fam, auto, edge, val = mm.groups()
                edges[var].setdefault(fam, {})[edge] = "auto" if auto else parse_value(val)
            elif mm := re.match(r"\w+\.calculateLayout\(.*Direction\.(LTR|RTL)\);", line):
                phase = mm.group(1)
            elif mm := re.match(r"expect\((\w+)\.getComputed(Left|Top|Width|Height)\(\)\)\.toBe\((.+)\);", line):
                frames[phase].setdefault(mm.group(1), {})[mm.group(2).lower()] = float(mm.group(3))
        tests[name] = {"nodes": nodes, "children": children, "edges": edges, "frames": frames}
    return tests


def preorder(test):
    out = []

    def walk(var, path):
        out.append((var, path))
        for i, c in enumerate(test["children"][var]):
            walk(c, f"{path}/{i}" if path else str(i))
    walk("root", "")
    return out


def base_nodes(root):
    out = []

    def walk(n):
        out.append(n)
        for c in n.get("children", []):
            walk(c)
    walk(root)
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    yoga, base_path, out_path = sys.argv[1:]
    base = json.load(open(base_path))
    gen = os.path.join(yoga, "javascript/tests/generated")
    tests = {}
    for f in sorted(os.listdir(gen)):
        if f.endswith(".test.ts"):
            for name, t in parse_tests(open(os.path.join(gen, f)).read()).items():
                tests[(f.replace(".test.ts", ""), name)] = t
    cases = []
    logical_nodes = 0
    for case in base["cases"]:
        src = os.path.basename(case["source"]).replace(".test.ts", "")
        t = tests[(src, case["name"])]
        order = preorder(t)
        nodes = base_nodes(case["root"])
        assert len(order) == len(nodes), case["name"]
        expected, styles = [], {}
        for (var, path), node in zip(order, nodes):
            ltr = t["frames"]["LTR"][var]
            want = node["expected"]
            assert all(abs(ltr[k] - want[k]) < 1e-9 for k in ltr), (case["name"], var, ltr, want)
            rtl = t["frames"]["RTL"][var]
            expected.append([rtl["left"], rtl["top"], rtl["width"], rtl["height"]])
            fams = t["edges"][var]
            if not any("Start" in e or "End" in e for e in fams.values()):
                continue
            style = dict(node["style"])
            ltr_check = {}
            for fam, e in fams.items():
                r = resolve(e)
                for side in PHYSICAL:
                    style.pop(edge_key(fam, side), None)
                for side, v in r.items():
                    style[edge_key(fam, side)] = v
                # What the LTR resolution gives (Start > Left, End > Right), to check the base.
                for side, logical in (("Left", "Start"), ("Right", "End")):
                    v = r.get(logical, r.get(side))
                    if v is not None:
                        ltr_check[edge_key(fam, side)] = v
                for side in ("Top", "Bottom"):
                    if side in r:
                        ltr_check[edge_key(fam, side)] = r[side]
            for k, v in ltr_check.items():
                assert node["style"].get(k) == v, (case["name"], var, k, v, node["style"].get(k))
            styles[path] = style
            logical_nodes += 1
        entry = {"name": case["name"], "expected": expected}
        if styles:
            entry["styles"] = styles
        cases.append(entry)
    doc = {
        "about": "Right-to-left half of the Yoga flexbox corpus: an overlay on `base`. Each case names a base "
                 "case, gives the RTL frame of every node in pre-order as [left, top, width, height], and, for "
                 "nodes that used Yoga's Start/End edges, the node's style with logical keys. Extracted by "
                 "Tools/layout-corpus/yoga_rtl.py from Yoga's generated tests (their Direction.RTL half).",
        "licence": base["licence"],
        "yogaCommit": base["yogaCommit"],
        "base": os.path.basename(base_path),
        "direction": "rtl",
        "cases": cases,
    }
    with open(out_path, "w") as f:
        f.write("{")
        head = [f"{json.dumps(k)}:{json.dumps(doc[k])}" for k in doc if k != "cases"]
        f.write(",\n".join(head) + ',\n"cases":[\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    print(f"{len(cases)} cases, {logical_nodes} nodes with logical edges -> {out_path}")


if __name__ == "__main__":
    main()
