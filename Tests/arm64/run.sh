#!/usr/bin/env bash
# run.sh — `make test-arm64`: Silk for aarch64, built and tested on this x86-64 machine
# (docs/portability.md has the whole story and the measured timings).
#
#   1. roots   Debian trixie roots for amd64 and arm64 (scripts/debian-root.sh; swiftlang 6.0.3,
#              the libraries of Raspberry Pi OS 13), created on first use, reused afterwards.
#   2. binfmt  trixie's qemu-user 10 (static, from the amd64 root) registered in binfmt_misc as
#              `silk-aarch64` (flags PF) for aarch64 ELF files while this script runs, removed at
#              exit. No other entry is changed: the kernel tries the newest entry first, so an
#              existing qemu-aarch64 entry (bookworm's 7.2 crashes the Swift driver) is only
#              shadowed. binfmt_misc is mounted if it was not.
#   3. cross   the amd64 root's Swift cross-compiles Silk for aarch64-unknown-linux-gnu against
#              the arm64 root (--sdk, -resource-dir, lld): the tests and `silk` (debug);
#      release `silk` in release.
#              Compiling under emulation instead takes well over an hour.
#   4. unit    `swift test --skip-build` on aarch64, in the arm64 root under qemu-user.
#   5. native  the same sources built natively in the amd64 root (debug): x86-64 with the same
#              Swift and libraries, to compare with.
#   6. scenes  every `silk snapshot` scene at scale 1 and 2 (ARM64_SCALES), made on aarch64
#              (debug, and release when built) and on x86-64 (debug), compared pixel for pixel
#              (Tests/arm64/compare.py).
#   7. boards  QEMU's Raspberry Pi 3B (simple-framebuffer, 32 and 16 bpp) and the `virt` board
#              (virtio-gpu-pci) boot Debian's arm64 kernel with an initramfs holding the aarch64
#              release `silk`; the kiosk demo on fbdev, and on virt also on KMS (--backend kms),
#              must equal `silk snapshot kiosk` in every pixel; virt also runs `silk bench` on
#              fbdev and KMS (Tests/arm64/boards.sh).
# Steps 3-7 overlap where they do not depend on each other (diagram below); compiling and the
# emulated test run are niced. Each step logs "STEP: done in N s".
# ARM64_STEPS=cross,release,unit,… runs only those steps (roots and binfmt always). One run at a
# time: each run refreshes the source copy that the roots build and test. Exits non-zero on any
# failure; prints "arm64 [time] …" lines. Needs root, mmdebstrap, qemu-system-arm,
# device-tree-compiler, cpio, python3 and xz-utils on the host.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DR=$ROOT/scripts/debian-root.sh
SILK_ROOTS=${SILK_ROOTS:-/var/cache/silk-roots}; export SILK_ROOTS
SUITE=trixie
STEPS=${ARM64_STEPS:-cross,release,unit,native,scenes,boards}
T0=$SECONDS
log() { echo "arm64 $(printf '[%4ds]' $((SECONDS - T0))) $*"; }
step() { [[ ",$STEPS," == *",$1,"* ]]; }
[ "$(id -u)" -eq 0 ] || { echo "arm64: needs root (chroot, mount, binfmt_misc); run: sudo make test-arm64"; exit 2; }
for t in mmdebstrap qemu-system-aarch64 dtc cpio python3 xz; do
  command -v $t >/dev/null || { echo "arm64: $t missing (apt-get install mmdebstrap qemu-system-arm device-tree-compiler cpio python3 xz-utils)"; exit 2; }
done

# 1. Roots (in parallel: extraction only, no emulation).
log "roots in $SILK_ROOTS"
"$DR" ensure $SUITE amd64 & a=$!
"$DR" ensure $SUITE arm64 & b=$!
wait $a; wait $b
AMD=$("$DR" path $SUITE amd64) ARM=$("$DR" path $SUITE arm64)
log "roots ready"

# 2. binfmt_misc: aarch64 ELF executables → the amd64 root's static qemu-aarch64 10.
QEMU_USER=$AMD/usr/bin/qemu-aarch64
[ -x "$QEMU_USER" ] || { echo "arm64: $QEMU_USER missing (the root lacks qemu-user)"; exit 2; }
if [ "$("$ROOT/Tests/arm64/binfmt.sh" register "$QEMU_USER")" = registered ]; then
  trap '"$ROOT/Tests/arm64/binfmt.sh" unregister' EXIT
fi
log "binfmt: $("$DR" run $SUITE arm64 uname -m) via $("$QEMU_USER" --version | head -1)"

# Sources: one copy of the working tree, built by both roots at the same paths (/src, /xbuild),
# so the tests built by the amd64 root's cross compiler run in the arm64 root. (/xbuild, not
# /build: SwiftPM's lock is named after the scratch path, in the root's /tmp, and the native
# x86-64 build of step 5 uses /build in the same root.)
HEAVY="nice -n 10"
W=$SILK_ROOTS/work/$SUITE-cross-arm64
src=$("$DR" source $SUITE-cross-arm64); build=$W/build
export SILK_ROOT_BIND="$src:/src $build:/xbuild $ARM:/sysroot:ro"
cross() {  # cross [swift build options…]
  $HEAVY "$DR" run $SUITE amd64 sh -c '
    cd /src
    export PKG_CONFIG_SYSROOT_DIR=/sysroot PKG_CONFIG_LIBDIR=/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot/usr/share/pkgconfig
    export PKG_CONFIG_PATH=$PKG_CONFIG_LIBDIR
    exec swift build --scratch-path /xbuild "$@" --triple aarch64-unknown-linux-gnu --sdk /sysroot \
      -Xswiftc -sdk -Xswiftc /sysroot -Xswiftc -resource-dir -Xswiftc /sysroot/usr/lib/swift \
      -Xswiftc -use-ld=lld -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker /usr/lib/swift/linux' sh "$@"
}

# The stages overlap where they do not depend on each other (the machine is shared: the wall
# time is what a run costs; the CPU time is the same either way):
#   cross debug ──► cross release ──┬──► unit tests under qemu-user ─────┐
#                                   ├──► scenes ──► boards ─────────────┴──► done
#   native x86-64 build ────────────┘
# Compiling and the emulated test run are niced (10): they are long and other work shares the
# machine. The boards are not: their VMs boot under a time budget. Each stage logs its time.
NW=$SILK_ROOTS/work/$SUITE-amd64
FAILS=$W/failed.list; : > "$FAILS"
fail() { echo "$1" >> "$FAILS"; log "FAIL $1"; }
timed() {  # timed NAME: logs "NAME done in N s" (for the docs' table of timings)
  log "$1: done in $(( SECONDS - $2 )) s"
}

native_stage() {
  local t=$SECONDS
  log "native: x86-64 build in the amd64 root (debug)"
  nsrc=$("$DR" source $SUITE-amd64)
  if SILK_ROOT_BIND="$nsrc:/src $NW/build:/build" $HEAVY "$DR" run $SUITE amd64 sh -c \
       'cd /src && swift build --scratch-path /build --product silk' > $NW/native.log 2>&1; then timed native $t
  else fail "native x86-64 build: $NW/native.log"; grep -E 'error:' $NW/native.log | head -20 || true; fi
}

unit_stage() {
  local t=$SECONDS rc=0
  log "unit: swift test on aarch64 (qemu-user)"
  $HEAVY "$DR" run $SUITE arm64 sh -c 'cd /src && SILK_TEST_TIMEOUT_SCALE=10 swift test --skip-build --scratch-path /xbuild' > $W/unit-tests.log 2>&1 || rc=$?
  if ! "$ROOT/Tests/portability/summarize.py" "$SUITE arm64" $W/unit-tests.log $rc $W/unit-failed.txt; then
    # As in test-portability: timing-sensitive tests get one more run, alone (emulation is slow).
    if [ -s $W/unit-failed.txt ]; then
      filter=$(paste -sd'|' $W/unit-failed.txt); rc=0
      log "unit: running the failed tests again, alone: $filter"
      $HEAVY "$DR" run $SUITE arm64 sh -c "cd /src && SILK_TEST_TIMEOUT_SCALE=10 swift test --skip-build --scratch-path /xbuild --filter '$filter'" > $W/unit-retry.log 2>&1 || rc=$?
      "$ROOT/Tests/portability/summarize.py" "$SUITE arm64 (again)" $W/unit-retry.log $rc || fail "unit tests on aarch64: $W/unit-tests.log, $W/unit-retry.log"
    else fail "unit tests on aarch64: $W/unit-tests.log"; fi
  fi
  timed unit $t
}

SILK_DEBUG=/xbuild/aarch64-unknown-linux-gnu/debug/silk
SILK_RELEASE=/xbuild/aarch64-unknown-linux-gnu/release/silk
PIDS=()
# 5 (early). The x86-64 side of the comparison: the same sources, Swift and libraries, natively
# (another root and scratch folder, so it runs beside the cross builds).
NATIVE_PID=""
if step native; then native_stage & NATIVE_PID=$!; fi

# 3. Cross build: the tests (debug), then `silk` (release). One scratch folder: SwiftPM's lock
# would serialise them anyway.
debug_ok=yes
if step cross; then
  t=$SECONDS
  log "cross: tests (debug) for aarch64"
  if cross --build-tests > $W/cross-debug.log 2>&1; then timed "cross debug" $t
  else debug_ok=no; fail "cross-build (debug): $W/cross-debug.log"; grep -E 'error:' $W/cross-debug.log | head -20 || true; fi
fi
if step release; then
  t=$SECONDS
  log "cross: silk (release) for aarch64"
  if cross -c release --product silk > $W/cross-release.log 2>&1; then timed "cross release" $t
  else fail "cross-build (release): $W/cross-release.log"; grep -E 'error:' $W/cross-release.log | head -20 || true; fi
fi
# 4. Unit tests on aarch64 under qemu-user, beside everything after this point (not beside the
# release build: SwiftPM's build database in /xbuild is locked while that runs).
if step unit; then
  if [ $debug_ok = yes ]; then unit_stage & PIDS+=($!)
  else fail "unit tests on aarch64: not run (the debug cross build failed)"; fi
fi
[ -f "$build${SILK_RELEASE#/xbuild}" ] && log "silk for aarch64: $(file -b "$build${SILK_RELEASE#/xbuild}" | cut -d, -f1-2)"
# The scenes need the native build.
[ -z "$NATIVE_PID" ] || wait "$NATIVE_PID" || true

# 6. Scenes: aarch64 (debug, release) against x86-64 (debug), every scene at scale 1 and 2.
if step scenes; then
  t=$SECONDS
  log "scenes: snapshots on aarch64 and x86-64"
  S=$W/scenes; rm -rf "$S"; mkdir -p "$S"/{arm64-debug,arm64-release,amd64-debug}
  scenes=$(python3 - "$src/Tools/SilkScenes/SceneName.swift" <<'P'
import re, sys
body = open(sys.argv[1]).read().split('enum SceneName', 1)[1].split('var defaultSize', 1)[0]
print(' '.join(re.findall(r'^\s*case (\w+)\s*$', body, re.M)))
P
)
  # The image scene draws a file: a JPEG (libjpeg-turbo) and a PNG (libpng) from the assets.
  # The settle limit is an hour: the debug rainforest at scale 2 needs 24 s on an idle x86-64
  # core, and ran past the default 300 s under qemu-user beside the unit tests.
  shoot='cd /tmp && export SILK_ASSETS=/src/assets SILK_KIOSK_CLOCK=09:41:00 SILK_SNAPSHOT_SETTLE_SECONDS=3600
    snap() { name=$1; shift; $silk snapshot "$@" --out /out/$name.png >/dev/null 2>>/out/errors.log || echo "$name: exit $?" >> /out/errors.log; }
    silk=$0
    for s in '"$scenes"'; do for k in '"${ARM64_SCALES:-1 2}"'; do
      if [ $s = image ]; then
        snap image-jpeg@${k}x image --scale $k --image /src/assets/photos/dune.jpg
        snap image-png@${k}x image --scale $k --image /src/assets/photos/debian-logo.png
      else snap $s@${k}x $s --scale $k; fi
    done; done'
  SILK_ROOT_BIND="$src:/src $build:/xbuild $S/arm64-debug:/out" $HEAVY "$DR" run $SUITE arm64 sh -c "$shoot" $SILK_DEBUG &
  p1=$!
  p2=""
  if [ -f "$build${SILK_RELEASE#/xbuild}" ]; then
    SILK_ROOT_BIND="$src:/src $build:/xbuild $S/arm64-release:/out" $HEAVY "$DR" run $SUITE arm64 sh -c "$shoot" $SILK_RELEASE &
    p2=$!
  else rmdir "$S/arm64-release"; log "scenes: no release build for aarch64 (step release): debug only"; fi
  SILK_ROOT_BIND="$src:/src $NW/build:/build $S/amd64-debug:/out" $HEAVY "$DR" run $SUITE amd64 sh -c "$shoot" /build/debug/silk
  wait $p1 $p2 || true
  /usr/bin/python3 "$ROOT/Tests/arm64/compare.py" "$S/amd64-debug" "$S"/arm64-* || fail "scenes differ between x86-64 and aarch64"
  timed scenes $t
fi

# 7. Emulated boards.
if step boards; then
  t=$SECONDS
  log "boards: Raspberry Pi 3B and virt"
  # The release build (as a board would run); ARM64_BOARDS_CONFIG=debug uses the debug one.
  bsilk=$build/aarch64-unknown-linux-gnu/${ARM64_BOARDS_CONFIG:-release}/silk
  if [ -f "$bsilk" ]; then
    "$ROOT/Tests/arm64/boards.sh" "$ARM" "$bsilk" "$W/boards" || fail "emulated boards"
  else fail "emulated boards: $bsilk missing (step release, or ARM64_BOARDS_CONFIG=debug)"; fi
  timed boards $t
fi

# The unit tests, if still running.
for p in "${PIDS[@]}"; do wait "$p" || true; done
mapfile -t FAILED < "$FAILS"
log "done in $SECONDS s: ${#FAILED[@]} failed${FAILED:+: ${FAILED[*]}}"
[ ${#FAILED[@]} -eq 0 ]
