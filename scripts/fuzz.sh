#!/usr/bin/env bash
# fuzz.sh SECONDS [NAME…] — builds and runs Silk's libFuzzer targets one after another.
#
# Each fuzzer (Fuzz/Sources/Fuzz<Name>) is built with AddressSanitizer (leak detection on) and
# libFuzzer's coverage instrumentation into .build-fuzz, then runs for SECONDS on a working corpus
# in .build-fuzz/corpus/NAME seeded from the committed Fuzz/corpus/NAME (which is replayed first,
# so every committed regression input is re-checked). A crash, sanitizer report, leak, timeout or
# out-of-memory fails the run; the input is saved as .build-fuzz/artifacts/NAME-crash-… and the
# command to replay it is printed. A summary line per fuzzer gives its runs and time.
# Names: png jpeg text layout evdev feed request svg animated lottie (default: all). FUZZ_NICE=10 runs them under `nice -n 10`.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SECONDS_EACH=${1:?usage: fuzz.sh SECONDS [png jpeg text layout evdev feed request svg animated lottie]}; shift
NAMES=("$@"); [ ${#NAMES[@]} -gt 0 ] || NAMES=(png jpeg text layout evdev feed request svg animated lottie)
SCRATCH=.build-fuzz
SUMMARY=$SCRATCH/summary.txt
mkdir -p "$SCRATCH/artifacts"; : >"$SUMMARY"

product() { case $1 in png) echo FuzzPNG;; jpeg) echo FuzzJPEG;; text) echo FuzzText;; layout) echo FuzzLayout;; evdev) echo FuzzEvdev;; feed) echo FuzzFeed;; request) echo FuzzRequest;; svg) echo FuzzSVG;; animated) echo FuzzAnimatedImage;; lottie) echo FuzzLottie;; *) return 1;; esac; }
maxlen()  { case $1 in png|jpeg|animated) echo 65536;; feed|svg|lottie) echo 16384;; *) echo 4096;; esac; }

# The fuzzers unwind allocation stacks by frame pointers (ASan's default, fast_unwind_on_malloc=1),
# so a stack ends at the first system library built without them: the same suppressions as
# `make test-asan`'s default (lsan.supp plus lsan-fast-unwind.supp, which says why each is safe).
# Without them the CI smoke failed on the svg fuzzer's first input with <text>: Pango's first
# layout loads fontconfig's configuration and its font map caches the matched patterns, about
# 37 KB in 1,300 allocations whose stacks end in libfontconfig.so.
cat scripts/lsan.supp scripts/lsan-fast-unwind.supp > "$SCRATCH/lsan.supp"

failed=0
for name in "${NAMES[@]}"; do
  p=$(product "$name") || { echo "fuzz: unknown fuzzer '$name' (png jpeg text layout evdev feed request svg animated lottie)"; exit 2; }
  SILK_FUZZ=1 swift build --scratch-path "$SCRATCH" --sanitize=address -Xswiftc -sanitize=fuzzer --product "$p" 2>&1 \
    | grep -v -e "Cannot export local symbol" -e '^\[' || true
  bin=$SCRATCH/debug/$p
  [ -x "$bin" ] || { echo "fuzz: $p did not build"; exit 2; }
  work=$SCRATCH/corpus/$name; mkdir -p "$work"
  extra=(); [ "$name" = layout ] && extra=(-dict=Fuzz/layout.dict)
  [ "$name" = lottie ] && extra=(-dict=Fuzz/lottie.dict)
  log=$SCRATCH/$name.log
  echo "fuzz: $name for ${SECONDS_EACH}s (log: $log)"
  # The Swift runtime's own crash reporter would run inside ASan and obscure the report.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    LSAN_OPTIONS=suppressions=$ROOT/$SCRATCH/lsan.supp:print_suppressions=0 \
    nice -n "${FUZZ_NICE:-0}" "$bin" "$work" "Fuzz/corpus/$name" -max_total_time="$SECONDS_EACH" \
    -max_len="$(maxlen "$name")" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$SCRATCH/artifacts/$name-" "${extra[@]}" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "fuzz: $name ok: ${runs:-?} runs in ${secs:-?} s, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) files" | tee -a "$SUMMARY"
  else
    failed=1
    art=$(ls -t "$SCRATCH/artifacts/$name-"* 2>/dev/null | head -1)
    echo "fuzz: $name FAILED (status $rc) after ${runs:-?} runs; input: ${art:-none}" | tee -a "$SUMMARY"
    grep -E "ERROR|SUMMARY|Fatal error|failure" "$log" | head -5
    [ -n "$art" ] && echo "fuzz: replay with: SWIFT_BACKTRACE=enable=no $bin $art"
  fi
done
exit $failed
