#!/usr/bin/env python3
"""Fails when a public or open symbol of an app-facing Silk module has no doc comment.

Reads the symbol graphs the compiler emits (`swift package dump-symbol-graph`), not the sources:
what counts is what DocC sees. `make docs` runs it before building the documentation.

    scripts/check-doc-coverage.py [--symbol-graphs DIR] [--todo FILE] [--list]

Without --symbol-graphs it runs `swift package dump-symbol-graph` (which builds the package in
debug first) and reads the directory that command names.

A symbol counts as documented when its symbol-graph entry carries a doc comment. The compiler
gives a member that implements a protocol requirement or overrides a superclass member the doc
comment of what it implements when it has none of its own (DocC shows that text too), so such
members count as documented exactly when the requirement or overridden member is.

Members the compiler synthesizes (`hashValue`, `!=`, the SetAlgebra methods of an option set)
are not counted. Exempt, and only these — the first six because a protocol of the standard
library fixes their meaning, so a comment could only repeat the protocol's:
  * `description` / `debugDescription` of a type conforming to CustomStringConvertible /
    CustomDebugStringConvertible;
  * `==` of an Equatable type, `<` of a Comparable type, `hash(into:)` of a Hashable type;
  * `init(rawValue:)` and `rawValue` of a RawRepresentable type (enums with raw values,
    option sets);
  * `init(from:)` / `encode(to:)` of a Decodable / Encodable type;
  * `next()` of an IteratorProtocol or RandomNumberGenerator, `makeIterator()` of a Sequence;
  * an enum case without associated values of an enum that has a doc comment itself (`top`,
    `center`, `leftToRight`, `png`): such a case is a word of the vocabulary the enum's comment
    defines. A case with associated values (`character(_:)`, `spring(target:)`) must say what
    its values mean, so it is not exempt.
(The compiler already hands the first six the standard library's text, as it does for any
requirement; the rule keeps the check stable where it does not.) Everything else — types,
properties, methods, initializers, protocol requirements themselves, open override points —
must have a doc comment.

The todo file (default scripts/doc-coverage-todo.txt) lists symbols, one `Module Path.to.symbol`
a line (`#` starts a comment), that are known to lack a doc comment and are being written; they do
not fail the check. The file is meant to end up empty. A listed symbol that is documented by now
is reported so that its line can be removed.
"""

import argparse
import json
import os
import re
import subprocess
import sys

MODULES = ["Silk", "SilkGeometry", "SilkRaster", "SilkLayout", "SilkInput", "SilkNodes",
           "SilkRender", "SilkRunLoop", "SilkNetworkImage", "SilkAccessibility", "SilkVideo"]

# member name -> the standard-library protocols that fix its meaning
OBVIOUS_MEMBERS = {
    "description": {"CustomStringConvertible", "LosslessStringConvertible"},
    "debugDescription": {"CustomDebugStringConvertible"},
    "==(_:_:)": {"Equatable", "Hashable", "Comparable"},
    "<(_:_:)": {"Comparable"},
    "hash(into:)": {"Hashable"},
    "init(rawValue:)": {"RawRepresentable", "OptionSet"},
    "rawValue": {"RawRepresentable", "OptionSet"},
    "init(from:)": {"Decodable", "Codable"},
    "encode(to:)": {"Encodable", "Codable"},
    "next()": {"IteratorProtocol", "RandomNumberGenerator"},
    "makeIterator()": {"Sequence"},
}


def dump_symbol_graphs(package_dir):
    out = subprocess.run(["swift", "package", "dump-symbol-graph"], cwd=package_dir,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        sys.exit("check-doc-coverage: swift package dump-symbol-graph failed")
    # The last line says "Files written to <dir>".
    match = re.search(r"Files written to (\S+)", out.stdout + out.stderr)
    if not match:
        sys.exit("check-doc-coverage: could not find the symbol graph folder in:\n" + out.stdout)
    return match.group(1)


def load(directory):
    """Symbols and relationships of the app-facing modules, from `Module.symbols.json` and the
    extension graphs `Module@Other.symbols.json` (members a module adds to another's types)."""
    symbols, relationships = {}, []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"):
            continue
        module = name[:-len(".symbols.json")].split("@")[0]
        if module not in MODULES:
            continue
        with open(os.path.join(directory, name)) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            symbol["_module"] = module
            symbols[symbol["identifier"]["precise"]] = symbol
        relationships += graph.get("relationships", [])
    return symbols, relationships


def has_doc(symbol):
    lines = (symbol.get("docComment") or {}).get("lines", [])
    return any(line.get("text", "").strip() for line in lines)


def key(symbol):
    return symbol["_module"] + " " + ".".join(symbol["pathComponents"])


def where(symbol):
    location = symbol.get("location")
    if not location:
        return ""
    path = location["uri"].replace("file://", "")
    path = os.path.relpath(path) if path.startswith("/") else path
    return "%s:%d" % (path, location["position"]["line"] + 1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--symbol-graphs", help="folder of *.symbols.json (default: dump them)")
    parser.add_argument("--todo", default=os.path.join(here, "doc-coverage-todo.txt"))
    parser.add_argument("--list", action="store_true",
                        help="print every undocumented symbol as a todo line, then exit 0")
    args = parser.parse_args()

    directory = args.symbol_graphs or dump_symbol_graphs(os.path.dirname(here))
    symbols, relationships = load(directory)
    if not symbols:
        sys.exit("check-doc-coverage: no symbols of %s in %s" % (", ".join(MODULES), directory))

    parent, conforms = {}, {}
    for r in relationships:
        if r["kind"] in ("memberOf", "requirementOf", "optionalRequirementOf"):
            parent.setdefault(r["source"], r["target"])
        elif r["kind"] == "conformsTo":
            target = symbols.get(r["target"])
            name = target["names"]["title"] if target else r.get("targetFallback", "").split(".")[-1]
            conforms.setdefault(r["source"], set()).add(name)

    def exempt(usr, symbol):
        title = symbol["names"]["title"]
        owner = parent.get(usr)
        if title in OBVIOUS_MEMBERS and owner and conforms.get(owner, set()) & OBVIOUS_MEMBERS[title]:
            return True
        if symbol["kind"]["identifier"] == "swift.enum.case" and "(" not in title:
            return owner in symbols and has_doc(symbols[owner])
        return False

    missing = {}
    for usr, symbol in symbols.items():
        if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in usr:
            continue
        if has_doc(symbol) or exempt(usr, symbol):
            continue
        missing.setdefault(key(symbol), symbol)

    if args.list:
        for k in sorted(missing):
            print(k)
        return 0

    todo = set()
    if os.path.exists(args.todo):
        with open(args.todo) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    todo.add(" ".join(line.split()))

    failing = sorted(k for k in missing if k not in todo)
    stale = sorted(todo - set(missing))
    counted = sum(1 for u, s in symbols.items()
                  if s.get("accessLevel") in ("public", "open") and "::SYNTHESIZED::" not in u)
    print("check-doc-coverage: %d public symbols in %d modules, %d undocumented "
          "(%d in %s), %d failing" % (counted, len(MODULES), len(missing), len(missing) - len(failing),
                                      os.path.relpath(args.todo), len(failing)))
    if stale:
        print("check-doc-coverage: documented now, remove from %s:" % os.path.relpath(args.todo))
        for k in stale:
            print("  " + k)
    if failing:
        print("check-doc-coverage: public symbols without a doc comment:")
        for k in failing:
            print("  %-70s %s" % (k, where(missing[k])))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
