#!/usr/bin/env bash
# End-to-end test of the AT-SPI2 bridge: a private session bus (dbus-run-session) with its own
# accessibility bus (at-spi-bus-launcher, which activates at-spi2-registryd), the kiosk demo on
# the headless backend, and Tests/e2e/atspi_check.py — a python3-pyatspi client that finds the
# demo, walks its tree, presses "Next" through the Action interface and checks the events, and
# sees the Tab presses of the demo's input script as focus events; then talk-back (espeak-ng into
# a WAV file) speaks a touched button and activates it on a double tap. About fifteen seconds.
#
#   Tests/e2e/accessibility.sh [PATH/TO/silk]        (default .build/debug/silk; from the repo root)
#
# Installs nothing (make deps-test does). Prints "accessibility-e2e: passed" or the failures
# and exits 1. Artifacts (the demo's log): $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
SILK=$(realpath "${1:-.build/debug/silk}")
OUT=$(realpath -m "${OUT:-out/e2e-accessibility}")
rm -rf "$OUT"; mkdir -p "$OUT"
for tool in dbus-run-session /usr/libexec/at-spi-bus-launcher /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (make deps-test installs at-spi2-core, python3-pyatspi)"; exit 1; }
done
/usr/bin/python3 -c "import pyatspi" 2>/dev/null || { echo "FAIL: python3-pyatspi is not installed (make deps-test)"; exit 1; }
[ -x "$SILK" ] || { echo "FAIL: no silk binary at $SILK"; exit 1; }

# Tab every 0.7 s from 1.5 s on: the client counts focus events whenever it starts listening.
{ echo "wait 1500"; for _ in $(seq 1 40); do echo "key tab"; echo "wait 700"; done; } > "$OUT/tabs.txt"

export SILK OUT
timeout 90 dbus-run-session -- bash -c '
  /usr/libexec/at-spi-bus-launcher --launch-immediately 2>"$OUT/bus.log" &
  BUS=$!
  "$SILK" demo kiosk --backend headless --seconds 60 --clock 09:41:00 --out "$OUT/kiosk.png" --script "$OUT/tabs.txt" \
    >"$OUT/kiosk.log" 2>&1 &
  APP=$!
  /usr/bin/python3 Tests/e2e/atspi_check.py silk
  rc=$?
  kill -TERM $APP 2>/dev/null; wait $APP 2>/dev/null
  kill -TERM $BUS 2>/dev/null; wait $BUS 2>/dev/null
  exit $rc
' 2>"$OUT/session.log"
rc=$?
[ $rc -eq 0 ] || echo "FAIL: the AT-SPI client (logs in $OUT)"

# Talk-back (SILK_TALKBACK=1) writing to a WAV file: a touch on "Next ▶" (its centre at 1280x720:
# x 16+186+75, y 658+26) speaks its label; a double tap there activates it. The audio must not be
# silent (sox's RMS amplitude) and must last as long as speech does.
tb_fail=0
tbad() { tb_fail=1; echo "FAIL: talkback: $*"; }
if ! command -v sox >/dev/null; then tbad "sox is not installed (make deps-test)"; else
  printf 'wait 800\ntap 277 684\nwait 700\ntap 277 684\nwait 120\ntap 277 684\nwait 1500\n' > "$OUT/talkback.txt"
  SILK_TALKBACK=1 SILK_TALKBACK_WAV="$OUT/talkback.wav" SILK_TALKBACK_RATE=220 SILK_ACCESSIBILITY=0 timeout 60 \
    "$SILK" demo kiosk --backend headless --seconds 6 --clock 09:41:00 --out "$OUT/talkback.png" \
    --script "$OUT/talkback.txt" >"$OUT/talkback.log" 2>&1
  grep -q "talkback: Next ▶, button" "$OUT/talkback.log" && echo "ok:   talkback: touching Next speaks \"Next ▶, button\"" \
    || tbad "no 'talkback: Next ▶, button' in $OUT/talkback.log"
  # Three taps without talk-back would select three times; with it only the double tap acts.
  selections=$(grep -c "kiosk: Selected:" "$OUT/talkback.log")
  [ "$selections" = 1 ] && grep -q "kiosk: Selected: Monsoon leaves" "$OUT/talkback.log" \
    && echo "ok:   talkback: single taps only speak; the double tap activates Next once" \
    || tbad "expected exactly one selection (Monsoon leaves) from the double tap, saw $selections"
  if [ -s "$OUT/talkback.wav" ]; then
    stat=$(sox "$OUT/talkback.wav" -n stat 2>&1)
    rms=$(echo "$stat" | awk '/RMS +amplitude/ {print $3}')
    len=$(echo "$stat" | awk '/Length \(seconds\)/ {print $3}')
    if awk -v r="$rms" -v l="$len" 'BEGIN { exit !(r > 0.01 && l > 0.4) }'; then
      echo "ok:   talkback: the WAV holds speech ($len s, RMS $rms)"
    else tbad "the WAV is silent or short ($len s, RMS $rms)"; fi
  else tbad "no WAV written at $OUT/talkback.wav"; fi
fi

if [ $rc -eq 0 ] && [ $tb_fail -eq 0 ]; then echo "accessibility-e2e: passed"; else echo "accessibility-e2e: FAILED (logs in $OUT)"; exit 1; fi
