#!/usr/bin/env python3
"""Validates a `silk bench --json` report against docs/benchmark.schema.json (JSON Schema 2020-12).

    scripts/validate-bench-json.py REPORT.json [SCHEMA.json]

Exits 0 when the report validates and no scene failed; prints every schema error otherwise.
Also checks what the schema cannot say: every scene of the catalogue appears once (an
unavailable one as "unavailable", never left out). No timing is checked: CI runs this on
`silk bench --quick`, whose figures mean nothing on a shared machine.
Needs python3-jsonschema (scripts/ensure-packages.sh test installs it).
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate-bench-json: python3-jsonschema is not installed (scripts/ensure-packages.sh test)")

EXPECTED = ["layers-scroll", "rainforest-scroll", "feed-scroll", "kiosk-idle", "text-heavy",
            "many-layers", "image-decode", "layout", "startup"]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    here = os.path.dirname(os.path.abspath(__file__))
    schema_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", "docs", "benchmark.schema.json")
    try:
        report = json.load(open(sys.argv[1], encoding="utf-8"))
    except (OSError, ValueError) as e:
        sys.exit(f"validate-bench-json: {sys.argv[1]}: {e}")
    schema = json.load(open(schema_path, encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    problems = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                for e in sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))]
    if not problems:
        names = [s["name"] for s in report["scenes"]]
        if not report["command"].count("--scene"):
            missing = [n for n in EXPECTED if n not in names]
            problems += [f"scenes: {n} is missing (list it as unavailable instead)" for n in missing]
        problems += [f"scenes: {n} appears {names.count(n)} times" for n in set(names) if names.count(n) > 1]
        problems += [f"scenes/{s['name']}: failed: {s.get('reason', '')}" for s in report["scenes"] if s["status"] == "failed"]
    for p in problems:
        print(f"validate-bench-json: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    ok = sum(s["status"] == "ok" for s in report["scenes"])
    print(f"validate-bench-json: {sys.argv[1]} validates ({ok} scenes ok, "
          f"{len(report['scenes']) - ok} unavailable)")


if __name__ == "__main__":
    main()
