#!/usr/bin/env bash
# The example apps as a user builds them: each is its own SwiftPM package depending on Silk by
# path (`import Silk` only). Builds both, runs each headless with --screenshot and compares the
# PNG with its golden (Tests/examples/Golden, imgdiff's default tolerance), and checks that a
# bad command line gives one line and exit 2. Each package has its own build folder under
# .build-examples: sharing one between two root packages saved a Silk build but, after a change
# to Silk, could leave the second example's binary unlinked and stale (seen locally).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-out}/examples
SCRATCH_ROOT=${EXAMPLES_SCRATCH:-.build-examples}
mkdir -p "$OUT"
pass=0; fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

cc -O2 -o "$OUT/imgdiff" Tests/e2e/tools/imgdiff.c -lpng || { echo "examples: cannot build imgdiff"; exit 1; }

for example in HelloKiosk Rainforest; do
    lower=$(echo "$example" | tr 'A-Z' 'a-z'); golden=Tests/examples/Golden/${lower%kiosk}.png
    [ "$example" = Rainforest ] && golden=Tests/examples/Golden/rainforest.png
    [ "$example" = HelloKiosk ] && golden=Tests/examples/Golden/hello.png
    SCRATCH=$SCRATCH_ROOT/$example
    if ! swift build --package-path "Examples/$example" --scratch-path "$SCRATCH" >"$OUT/$example-build.log" 2>&1; then
        bad "$example: swift build (see $OUT/$example-build.log)"; tail -20 "$OUT/$example-build.log"; continue
    fi
    ok "$example builds as its own package with import Silk"
    bin=$(swift build --package-path "Examples/$example" --scratch-path "$SCRATCH" --show-bin-path)/$example
    shot=$OUT/$example.png
    rm -f "$shot"
    if timeout 120 "$bin" --backend headless --screenshot "$shot" >"$OUT/$example-run.log" 2>&1 && [ -s "$shot" ]; then
        ok "$example runs headless and writes its screenshot"
        if verdict=$("$OUT/imgdiff" "$shot" "$golden"); then ok "$example matches its golden ($verdict)"
        else bad "$example differs from $golden ($verdict; see $shot)"; fi
    else
        bad "$example --backend headless --screenshot (see $OUT/$example-run.log)"; cat "$OUT/$example-run.log"
    fi
    # A window that cannot be opened (over the 40 MPx budget) is one line and exit 2, not the
    # crash a top-level `try` would give.
    msg=$("$bin" --backend headless --size 16384x16384 2>&1); rc=$?
    if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] && printf '%s' "$msg" | grep -q "over the limit"; then
        ok "$example: a window it cannot open is one line, exit 2"
    else bad "$example --size 16384x16384: exit $rc, output: $(printf '%s' "$msg" | head -3)"; fi
    msg=$("$bin" --frobnicate 2>&1); rc=$?
    if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]; then ok "$example: a bad option is one line, exit 2"
    else bad "$example --frobnicate: exit $rc, output: $msg"; fi
done
# The README's first app is the hello example, word for word.
if python3 - <<'PY'
import sys
code = open("Examples/HelloKiosk/Sources/HelloKiosk/main.swift").read()
sys.exit(0 if code in open("README.md").read() else 1)
PY
then ok "README shows Examples/HelloKiosk's code as it is"; else bad "README's hello code differs from Examples/HelloKiosk/Sources/HelloKiosk/main.swift"; fi
echo "examples: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
