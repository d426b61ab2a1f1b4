#!/usr/bin/env bash
# demo.sh SILK OUT — the flagship demo on the best available backend.
# With a Wayland compositor or a framebuffer, `silk demo rainforest` runs there until closed
# (Ctrl-C stops it). Otherwise it runs headless for a few seconds, writes PNG frames, and the
# snapshot scenes are rendered too; the paths are printed.
set -euo pipefail
silk=$1; out=$2
mkdir -p "$out"
if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -e /dev/fb0 ]; then
  echo "Silk demo: the rainforest demo on $( [ -n "${WAYLAND_DISPLAY:-}" ] && echo "Wayland ($WAYLAND_DISPLAY)" || echo /dev/fb0 ) (Ctrl-C to stop)."
  exec "$silk" demo rainforest --backend auto --out "$out/demo-last-frame.png" --capture-every 30 --frames-dir "$out/frames"
fi
echo "Silk demo: no Wayland compositor (WAYLAND_DISPLAY unset) and no /dev/fb0: running headless."
rm -rf "$out/frames"
"$silk" demo rainforest --backend headless --seconds 6 --capture-every 30 --frames-dir "$out/frames" --out "$out/demo-last-frame.png"
# The photo feed (its own local HTTP server, pages by batch fetching, photos over HTTP).
rm -rf "$out/feed-frames"
"$silk" demo feed --backend headless --seconds 4 --capture-every 30 --frames-dir "$out/feed-frames" --out "$out/feed-last-frame.png" >/dev/null
for scene in card rainforest text shapes; do
  "$silk" snapshot "$scene" --out "$out/$scene.png"
  "$silk" snapshot "$scene" --scale 2 --out "$out/$scene@2x.png"
done
echo
echo "The scrolling demo's frames are in $(cd "$out" && pwd)/frames/ (every 30th frame, about 0.5 s apart),"
echo "its last frame is $(cd "$out" && pwd)/demo-last-frame.png, and the snapshot scenes are beside it."
echo "The feed demo's frames are in $(cd "$out" && pwd)/feed-frames/ (silk demo feed: a photo feed from a local HTTP server)."
