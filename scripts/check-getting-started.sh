#!/bin/sh
# The getting-started article's code is the hello example: the first ```swift block of
# Sources/Silk/Silk.docc/GettingStarted.md must equal Examples/HelloKiosk/Sources/HelloKiosk/main.swift,
# which `make test` builds and runs, so the article's code is known to compile and work.
# `make docs` runs this; change both files together.
set -eu
article=Sources/Silk/Silk.docc/GettingStarted.md
example=Examples/HelloKiosk/Sources/HelloKiosk/main.swift
if [ ! -f "$example" ]; then
    echo "check-getting-started: $example is missing" >&2
    exit 1
fi
code=$(mktemp)
trap 'rm -f "$code"' EXIT
awk '/^```swift$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' "$article" > "$code"
if ! diff -u "$example" "$code" > /dev/null; then
    echo "check-getting-started: the code in $article differs from $example:" >&2
    diff -u --label "$example" --label "$article" "$example" "$code" >&2 || true
    exit 1
fi
echo "check-getting-started: $article shows $example"
