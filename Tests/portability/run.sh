#!/usr/bin/env bash
# run.sh [SUITE…] — `make test-portability`: builds Silk and runs its unit tests with another
# Debian release's Swift and libraries, in a Debian root (scripts/debian-root.sh):
#   trixie: swiftlang 6.0.3, libwayland 1.23, the base of Raspberry Pi OS 13;
#   sid:    swiftlang 6.2.3, libwayland 1.26 (2026-11).
# Default: both. The working tree's files are copied into $SILK_ROOTS/work/SUITE-amd64/src and
# built in …/build (incremental on later runs); nothing is written to the checkout.
# The unit tests' text goldens were recorded with bookworm's fonts; a root's fonts differ (other
# FreeType, HarfBuzz and font versions), so those comparisons are listed by name as known
# differences and do not fail the run (PORTABILITY_STRICT=1 makes them fail); every other
# failure does. Prints "portability SUITE: …" lines; exits non-zero on any failure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DR=$ROOT/scripts/debian-root.sh
SILK_ROOTS=${SILK_ROOTS:-/var/cache/silk-roots}; export SILK_ROOTS
[ "$(id -u)" -eq 0 ] || { echo "portability: needs root (chroot, mount); run: sudo make test-portability"; exit 2; }
T0=$SECONDS
log() { echo "portability $(printf '[%4ds]' $((SECONDS - T0))) $*"; }
failed=0
for suite in ${*:-trixie sid}; do
  "$DR" ensure "$suite" amd64
  src=$("$DR" source "$suite-amd64"); build=$SILK_ROOTS/work/$suite-amd64/build
  export SILK_ROOT_BIND="$src:/src $build:/build"
  log "$suite: $("$DR" run "$suite" amd64 swift --version 2>&1 | head -1)"
  # sid's swiftlang 6.2.3 ships _Testing_Foundation.swiftmodule (Swift Testing's Foundation
  # overlay, which every test importing both modules links) without lib_Testing_Foundation.so:
  # an empty stand-in lets the tests link; Silk's tests use none of the overlay's symbols.
  extra="" lib=$("$DR" path "$suite" amd64)/usr/lib/swift/linux
  if [ -e "$lib/_Testing_Foundation.swiftmodule" ] && [ ! -e "$lib/lib_Testing_Foundation.so" ]; then
    "$DR" run "$suite" amd64 sh -c 'mkdir -p /build/stub && clang -shared -o /build/stub/lib_Testing_Foundation.so -x c /dev/null'
    extra="-Xlinker -L/build/stub -Xlinker -rpath -Xlinker /build/stub"
    log "$suite: lib_Testing_Foundation.so missing from the toolchain: linking the tests with an empty stand-in"
  fi
  if ! "$DR" run "$suite" amd64 sh -c "cd /src && swift build --build-tests --scratch-path /build $extra" \
       > "$build/../build.log" 2>&1; then
    log "$suite: FAIL build (log: $build/../build.log)"; grep -E 'error:' "$build/../build.log" | head -20
    failed=1; continue
  fi
  log "$suite: built (with tests)"
  rc=0
  "$DR" run "$suite" amd64 sh -c "cd /src && swift test --skip-build --scratch-path /build $extra" \
    > "$build/../test.log" 2>&1 || rc=$?
  if ! "$ROOT/Tests/portability/summarize.py" "$suite" "$build/../test.log" "$rc" "$build/../failed.txt"; then
    # Timing-sensitive tests (network timeouts, frame timelines) can fail on a loaded machine:
    # the failed ones run once more, alone; the run fails only if they fail again.
    if [ -s "$build/../failed.txt" ]; then
      filter=$(paste -sd'|' "$build/../failed.txt")
      log "$suite: running the failed tests again, alone: $filter"
      rc=0
      "$DR" run "$suite" amd64 sh -c "cd /src && swift test --skip-build --scratch-path /build $extra --filter '$filter'" \
        > "$build/../retry.log" 2>&1 || rc=$?
      "$ROOT/Tests/portability/summarize.py" "$suite (again)" "$build/../retry.log" "$rc" || failed=1
    else failed=1; fi
  fi
  log "$suite: done"
done
exit $failed
