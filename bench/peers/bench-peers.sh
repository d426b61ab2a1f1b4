#!/usr/bin/env bash
# make bench-peers: Silk against its peers, interleaved (not part of make test; ~4 minutes).
#   bench/peers/bench-peers.sh SILK OUTDIR        (ROUNDS=5 rainforest rounds, CARD_ROUNDS=15, TEXT_ROUNDS=5)
# 1. rainforest-scroll: Silk async (and sync) against the Qt Quick software peer (qtquick-scroll/,
#    built with cmake into OUTDIR/qtscroll-build), ROUNDS interleaved rounds; the table with the
#    Silk ÷ Qt ratio column (qtquick-scroll/summarize.py).
# 2. `silk snapshot card` against the cairo + Pango program drawing the same card (cairo-card/),
#    whole-process CPU and start-up, CARD_ROUNDS interleaved runs.
# 3. The card's title and description shaped and drawn, in process: `silk raster-bench --only
#    card` against `cairo_card --time-text`, cold and warm, TEXT_ROUNDS interleaved rounds
#    (cairo-card/text-cpu.py; the definitions are in cairo_card.c's time_text).
# The Debian packages: scripts/ensure-packages.sh peers (make bench-peers runs it).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SILK=${1:-.build/release/silk}
OUT=${2:-out/bench-peers}
ROUNDS=${ROUNDS:-5}
CARD_ROUNDS=${CARD_ROUNDS:-15}
TEXT_ROUNDS=${TEXT_ROUNDS:-5}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
echo "== bench-peers: $(date -u +%FT%TZ), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== rainforest-scroll: Silk against Qt Quick (software renderer), $ROUNDS interleaved rounds"
rm -f "$OUT"/rainforest/silk-*.json "$OUT"/rainforest/qt-*.json "$OUT"/rainforest/uptime.txt
BUILD="$OUT/qtscroll-build" SILK="$SILK" QT_VARIANTS="${QT_VARIANTS-}" GTK=0 \
  "$HERE/qtquick-scroll/run.sh" "$ROUNDS" "$OUT/rainforest"

echo "== silk snapshot card against cairo + Pango"
CAIRO_CARD="$OUT/cairo_card"
if [ ! -x "$CAIRO_CARD" ] || [ "$HERE/cairo-card/cairo_card.c" -nt "$CAIRO_CARD" ]; then
  gcc -O2 -o "$CAIRO_CARD" "$HERE/cairo-card/cairo_card.c" $(pkg-config --cflags --libs pangocairo cairo libturbojpeg)
fi
python3 "$HERE/cairo-card/card-cpu.py" "$SILK" "$CAIRO_CARD" "${SILK_ASSETS:-assets}" "$CARD_ROUNDS" | tee "$OUT/card.md"

echo "== the card's text in process: Silk against Pango"
python3 "$HERE/cairo-card/text-cpu.py" "$SILK" "$CAIRO_CARD" "${SILK_ASSETS:-assets}" "$TEXT_ROUNDS" | tee "$OUT/card-text.md"
