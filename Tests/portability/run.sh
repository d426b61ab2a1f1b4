#!/usr/bin/env bash
# run.sh [SUITE…] — `make test-portability`: builds Silk and runs its unit tests with another
# Debian release's Swift and libraries, in a Debian root (scripts/debian-root.sh):
#   trixie: swiftlang 6.0.3, libwayland 1.23, the base of Raspberry Pi OS 13;
#   sid:    swiftlang 6.2.3, libwayland 1.24 or newer.
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
  if ! "$DR" run "$suite" amd64 sh -c 'cd /src && swift build --build-tests --scratch-path /build' \
       > "$build/../build.log" 2>&1; then
    log "$suite: FAIL build (log: $build/../build.log)"; grep -E 'error:' "$build/../build.log" | head -20
    failed=1; continue
  fi
  log "$suite: built (with tests)"
  rc=0
  "$DR" run "$suite" amd64 sh -c 'cd /src && swift test --skip-build --scratch-path /build' \
    > "$build/../test.log" 2>&1 || rc=$?
  "$ROOT/Tests/portability/summarize.py" "$suite" "$build/../test.log" "$rc" || failed=1
  log "$suite: done"
done
exit $failed
