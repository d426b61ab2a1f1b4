#!/usr/bin/env bash
# End-to-end checks of the `silk` command as a user runs it: scenes render to PNGs of the right
# size, and bad input gets one clear line on stderr and exit status 2 — never a crash or a hang.
# Usage: Tests/cli/run.sh PATH/TO/silk     Prints "cli: N passed, M failed"; exits 1 on failure.
set -uo pipefail
silk=${1:?usage: run.sh PATH/TO/silk}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# png_size FILE -> "W H" from the IHDR chunk
png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print(*struct.unpack(">II", d[16:24]))' "$1"; }

# expect_png NAME EXPECTED_W EXPECTED_H -- ARGS…: silk must exit 0 and write a PNG of that size
expect_png() {
  local name=$1 w=$2 h=$3; shift 4
  local out="$tmp/$name.png"
  if timeout 60 "$silk" "$@" --out "$out" >"$tmp/log" 2>&1 && [ "$(png_size "$out" 2>/dev/null)" = "$w $h" ]; then ok
  else bad "$name: expected a ${w}x${h} PNG from: silk $* ($(head -c 300 "$tmp/log"))"; fi
}

# expect_error NAME NEEDLE -- ARGS…: exit 2, exactly one stderr line that mentions NEEDLE, no crash
expect_error() {
  local name=$1 needle=$2; shift 3
  timeout 60 "$silk" "$@" --out "$tmp/never.png" >"$tmp/stdout" 2>"$tmp/stderr"; local rc=$?
  local lines; lines=$(wc -l <"$tmp/stderr")
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$needle" "$tmp/stderr" && [ ! -e "$tmp/never.png" ]; then ok
  else bad "$name: expected exit 2 and one stderr line naming '$needle'; got rc=$rc: $(head -c 300 "$tmp/stderr")"; fi
}

# --- scenes render ---------------------------------------------------------------------------
expect_png shapes-1x 640 480 -- snapshot shapes
expect_png shapes-2x 1280 960 -- snapshot shapes --scale 2
expect_png shapes-size 300 200 -- snapshot shapes --size 300x200
expect_png card 360 420 -- snapshot card --size 360x420
expect_png card-2x 720 840 -- snapshot card --size 360x420 --scale 2
expect_png text 800 900 -- snapshot text --size 800x900
# The feed: a local demo server, JSON over HTTP, avatars and photos through NetworkImageNode.
expect_png feed 360 560 -- snapshot feed --size 360x560
# Every standard control in its states, light and dark (docs/controls.md).
expect_png controls 960 1300 -- snapshot controls
expect_png controls-2x 640 400 -- snapshot controls --size 320x200 --scale 2

# --- images: good and bad --------------------------------------------------------------------
photo=$(ls "$(dirname "$0")"/../../assets/photos/*.jpg 2>/dev/null | head -1)
if [ -n "$photo" ]; then
  expect_png image-jpeg 320 240 -- snapshot image --image "$photo" --size 320x240
  head -c $(( $(stat -c %s "$photo") / 2 )) "$photo" >"$tmp/half.jpg"
  expect_error truncated-jpeg "half.jpg" -- snapshot image --image "$tmp/half.jpg"
else
  bad "no photo in assets/photos to test JPEG decoding with"
fi
printf 'not an image at all\n' >"$tmp/text.png"
expect_error text-as-png "text.png" -- snapshot image --image "$tmp/text.png"
: >"$tmp/empty.jpg"
expect_error empty-file "empty.jpg" -- snapshot image --image "$tmp/empty.jpg"
expect_error missing-file "does-not-exist.png" -- snapshot image --image "$tmp/does-not-exist.png"
# corrupt: a real PNG header followed by garbage
python3 - "$tmp" <<'PY'
import struct, zlib, sys, os
d = sys.argv[1]
def png(w, h, rows, depth=8, color=0):
    def chunk(t, b): return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
open(os.path.join(d, "corrupt.png"), "wb").write(png(64, 64, os.urandom(300)))
# 100 MPx (10000 x 10000, 1-bit grey): tiny on disk, 400 MB if decoded; must be refused up front.
row = b"\x00" + b"\x00" * (10000 // 8)
open(os.path.join(d, "huge.png"), "wb").write(png(10000, 10000, zlib.compress(row * 10000, 9), depth=1))
# A JPEG whose SOF claims 10000 x 10000.
sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 10000, 10000, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
open(os.path.join(d, "huge.jpg"), "wb").write(b"\xff\xd8" + sof + b"\xff\xd9")
PY
expect_error corrupt-png "corrupt.png" -- snapshot image --image "$tmp/corrupt.png"
expect_error huge-png "huge.png" -- snapshot image --image "$tmp/huge.png"
expect_error huge-jpeg "huge.jpg" -- snapshot image --image "$tmp/huge.jpg"
expect_error image-without-path "--image" -- snapshot image
# SVG (librsvg): an icon renders at any size; hostile documents end in one line naming the file.
icon=$(dirname "$0")/../../assets/icons/gauge.svg
expect_png svg-icon 96 96 -- snapshot image --image "$icon" --size 48x48 --scale 2
printf '<svg xmlns="http://www.w3.org/2000/svg"><rect' >"$tmp/cut.svg"
expect_error svg-truncated "cut.svg" -- snapshot image --image "$tmp/cut.svg"
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
open(d + "/deep.svg", "w").write('<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 5000 + "</g>" * 5000 + "</svg>")
open(d + "/many.svg", "w").write('<svg xmlns="http://www.w3.org/2000/svg">' + '<rect width="1" height="1"/>' * 60000 + "</svg>")
PY
expect_error svg-deep "deep.svg" -- snapshot image --image "$tmp/deep.svg"
expect_error svg-many-elements "many.svg" -- snapshot image --image "$tmp/many.svg"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1e6" height="1e6" viewBox="0 0 1000000 1000000"><circle cx="5e5" cy="5e5" r="4e5"/></svg>' >"$tmp/vast.svg"
expect_png svg-huge-viewbox 200 100 -- snapshot image --image "$tmp/vast.svg" --size 200x100
# Lottie (rlottie): the first frame; hostile documents are refused before rlottie sees them.
spinner=$(dirname "$0")/../../assets/lottie/spinner.json
expect_png lottie-first-frame 240 240 -- snapshot image --image "$spinner" --size 120x120 --scale 2
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
head = '{"v":"5","fr":%s,"ip":0,"op":%s,"w":%s,"h":%s,"layers":[%s]}'
rect = '{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":4}}'
layer = '{"ty":4,"ind":1,"ip":0,"op":60,"st":0,"ks":{},"shapes":[%s]}'
deep = '{"ty":"gr","it":[' * 100000 + rect + ']}' * 100000
open(d + "/deep.json", "w").write(head % (30, 60, 100, 100, layer % deep))
open(d + "/cut.json", "w").write((head % (30, 60, 100, 100, layer % rect))[:70])
open(d + "/vast.json", "w").write(head % (30, 60, 1000000, 1000000, ""))
open(d + "/fast.json", "w").write(head % (1000000, 60, 100, 100, ""))
open(d + "/long.json", "w").write(head % (30, "1e15", 100, 100, ""))
rep = '{"ty":"rp","c":{"a":0,"k":5000},"o":{"a":0,"k":0},"tr":{"ty":"tr"}}'
open(d + "/repeat.json", "w").write(head % (30, 60, 100, 100, layer % (rect + "," + rep)))
open(d + "/big.json", "w").write('{"pad":"' + "x" * (9 << 20) + '"}')
PY
expect_error lottie-deep "deep.json" -- snapshot image --image "$tmp/deep.json"
expect_error lottie-truncated "cut.json" -- snapshot image --image "$tmp/cut.json"
expect_error lottie-huge-size "vast.json" -- snapshot image --image "$tmp/vast.json"
expect_error lottie-absurd-frame-rate "fast.json" -- snapshot image --image "$tmp/fast.json"
expect_error lottie-huge-frame-count "long.json" -- snapshot image --image "$tmp/long.json"
expect_error lottie-repeater-bomb "repeat.json" -- snapshot image --image "$tmp/repeat.json"
expect_error lottie-too-large "big.json" -- snapshot image --image "$tmp/big.json"
# GIF and WebP (first frame), and hostile ones: huge canvases, a cut LZW stream, a bad chunk size.
animated="$(dirname "$0")/../SilkRasterTests/Inputs/animated"
expect_png image-gif 64 48 -- snapshot image --image "$animated/disposal.gif" --size 64x48
expect_png image-webp 64 48 -- snapshot image --image "$animated/anim.webp" --size 64x48
expect_png image-webp-still 64 48 -- snapshot image --image "$animated/still.webp" --size 64x48
python3 - "$tmp" "$animated" <<'PY'
import struct, sys, os
d, a = sys.argv[1], sys.argv[2]
gif = open(os.path.join(a, "disposal.gif"), "rb").read()
# 65535 x 65535 logical screen: 17 GB of canvas if believed.
open(os.path.join(d, "huge.gif"), "wb").write(gif[:6] + struct.pack("<HH", 65535, 65535) + gif[10:])
# Cut inside the first frame's LZW data.
open(os.path.join(d, "cut.gif"), "wb").write(gif[:900])
webp = bytearray(open(os.path.join(a, "anim.webp"), "rb").read())
k = webp.index(b"VP8X")
huge = bytearray(webp); huge[k + 12:k + 18] = b"\xff\x3f\x00\xff\x3f\x00"  # 16384 x 16384 canvas
open(os.path.join(d, "huge.webp"), "wb").write(huge)
bad = bytearray(webp); j = bad.index(b"ANMF"); bad[j + 4:j + 8] = b"\xff\xff\xff\x7f"  # chunk past the end
open(os.path.join(d, "badchunk.webp"), "wb").write(bad)
open(os.path.join(d, "riff.webp"), "wb").write(bytes(webp[:10]))
# 10^5 frames with zero delays: a 1x1 GIF frame (LZW clear, index 0, end at 3 bits) repeated, and
# anim.webp's first ANMF chunk repeated with its duration set to 0 (RIFF size fixed up).
frame = b"\x21\xf9\x04\x00\x00\x00\x00\x00" + b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + b"\x00" + b"\x02\x02\x44\x01\x00"
loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
many = b"GIF89a" + struct.pack("<HHBBB", 2, 2, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff" + loop + frame * 100000 + b"\x3b"
open(os.path.join(d, "many.gif"), "wb").write(many)
j = webp.index(b"ANMF"); n = struct.unpack("<I", webp[j + 4:j + 8])[0]
chunk = bytearray(webp[j:j + 8 + n + (n & 1)]); chunk[8 + 12:8 + 15] = b"\x00\x00\x00"
body = bytes(webp[12:j]) + bytes(chunk) * 100000
open(os.path.join(d, "many.webp"), "wb").write(b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body)
PY
expect_error huge-gif "huge.gif" -- snapshot image --image "$tmp/huge.gif"
expect_error cut-gif "cut.gif" -- snapshot image --image "$tmp/cut.gif"
expect_error huge-webp "huge.webp" -- snapshot image --image "$tmp/huge.webp"
expect_error badchunk-webp "badchunk.webp" -- snapshot image --image "$tmp/badchunk.webp"
expect_error cut-riff "riff.webp" -- snapshot image --image "$tmp/riff.webp"
expect_png image-gif-100k-frames 64 48 -- snapshot image --image "$tmp/many.gif" --size 64x48
expect_png image-webp-100k-frames 64 48 -- snapshot image --image "$tmp/many.webp" --size 64x48
# Signage: animated GIF banners and a multiplex photo wall from the demo server, headless.
expect_png demo-signage 480 270 -- demo signage --backend headless --size 480x270 --seconds 3

# --- text files: any bytes -------------------------------------------------------------------
printf 'Hello \xff\xfe invalid \xc3\x28 UTF-8 \xe2\x82 and a NUL \x00 byte.\n' >"$tmp/invalid.txt"
expect_png text-invalid-utf8 400 300 -- snapshot text --text-file "$tmp/invalid.txt" --size 400x300
head -c 200000 /dev/urandom >"$tmp/random.bin"
expect_png text-random-bytes 400 300 -- snapshot text --text-file "$tmp/random.bin" --size 400x300
expect_error text-missing "nope.txt" -- snapshot text --text-file "$tmp/nope.txt"

# --- absurd sizes and scales -----------------------------------------------------------------
for bad_size in 0x0 -5x10 nanxnan 100000x100000; do
  if timeout 20 "$silk" snapshot shapes --size "$bad_size" --out "$tmp/x.png" >/dev/null 2>&1; then bad "size $bad_size accepted"; else ok; fi
done
for bad_scale in 0 -1 nan 1e9; do
  if timeout 20 "$silk" snapshot shapes --scale "$bad_scale" --out "$tmp/x.png" >/dev/null 2>&1; then bad "scale $bad_scale accepted"; else ok; fi
done
timeout 20 "$silk" snapshot shapes --out /proc/silk.png >/dev/null 2>"$tmp/stderr"; rc=$?
if [ $rc -eq 2 ] && grep -qF "/proc/silk.png" "$tmp/stderr"; then ok; else bad "unwritable --out: rc=$rc $(cat "$tmp/stderr")"; fi
# Faults (docs/reliability.md): a full disk, and a bitmap the allocator refuses (a 1 GB canvas
# under a 800 MB address-space limit) — one clear line and exit 2, never a crash.
timeout 20 "$silk" snapshot shapes --out /dev/full >/dev/null 2>"$tmp/stderr"; rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$tmp/stderr")" = "silk: /dev/full: No space left on device" ]; then ok; else bad "full disk: rc=$rc $(cat "$tmp/stderr")"; fi
(ulimit -v 800000; timeout 20 "$silk" snapshot shapes --size 16000x16000 --out "$tmp/x.png") >/dev/null 2>"$tmp/stderr"; rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$tmp/stderr")" = "silk: could not allocate 1024000000 bytes for a bitmap" ] && [ ! -e "$tmp/x.png" ]; then ok
else bad "allocation failure: rc=$rc $(cat "$tmp/stderr")"; fi

# --- hostile command lines (issue 23): one line naming the option, exit 2, never a crash or hang --
# expect_refusal NAME NEEDLE -- ARGS…: like expect_error, for commands without --out
expect_refusal() {
  local name=$1 needle=$2; shift 3
  # limit_kb=N before the call: an address-space limit (ulimit -v) for this command only.
  ( if [ -n "${limit_kb:-}" ]; then ulimit -v "$limit_kb"; fi; exec timeout 20 "$silk" "$@" ) >"$tmp/stdout" 2>"$tmp/stderr"; local rc=$?
  local lines; lines=$(wc -l <"$tmp/stderr")
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$needle" "$tmp/stderr"; then ok
  else bad "$name: expected exit 2 and one stderr line naming '$needle'; got rc=$rc: $(head -c 300 "$tmp/stderr")"; fi
}
expect_refusal arg-size-0x0 "'0x0'" -- snapshot shapes --size 0x0
expect_refusal arg-size-negative "'-5x10'" -- snapshot shapes --size -5x10
expect_refusal arg-scale-negative "--scale" -- snapshot shapes --scale -1
expect_refusal arg-scale-tiny "--scale" -- snapshot shapes --scale 1e-9
expect_refusal arg-rotate "--rotate 45" -- demo --rotate 45
expect_refusal arg-refresh "--refresh" -- demo --refresh 0
expect_refusal arg-frames-0 "--frames 0" -- demo --frames 0
expect_refusal arg-seconds-negative "--seconds" -- demo --seconds -1
expect_refusal arg-touch-garbage "--touch-calibration" -- demo --touch-calibration "1 0 x 0 1 0 0"
expect_refusal arg-unknown-scene "'nosuch'" -- snapshot nosuch
expect_refusal raster-bench-only "--only bogus" -- raster-bench --only bogus
expect_refusal fbdev-bench-frames "--frames 0" -- fbdev-bench --frames 0
expect_refusal soak-sample-huge "--sample-every" -- soak --sample-every 1e12
expect_refusal soak-sample-tiny "--sample-every" -- soak --sample-every 1e-12
expect_refusal soak-seconds-huge "--seconds" -- soak --seconds 1e300
expect_refusal soak-mutations "--mutations-per-second" -- soak --mutations-per-second 1e6
expect_refusal netimage-photos "--photos -3" -- bench-netimage --photos=-3
expect_refusal demo-window-budget "MPx" -- demo layers --backend headless --size 16384x16384
expect_refusal bench-window-budget "MPx" -- bench --size 16384x16384
expect_refusal bench-no-present-copy "only for --backend headless" -- bench --backend fbdev --no-present-copy --quick --scene layers-scroll
expect_refusal soak-window-budget "MPx" -- soak --size 16384x16384 --seconds 1
expect_refusal out-empty "empty path" -- snapshot shapes --out ""
SILK_ASSETS="$tmp/no-assets" timeout 20 "$silk" snapshot card --out "$tmp/card-no-assets.png" >/dev/null 2>"$tmp/stderr"; rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$tmp/stderr")" = "silk: SILK_ASSETS=$tmp/no-assets: no such folder" ] && [ ! -e "$tmp/card-no-assets.png" ]; then ok
else bad "broken SILK_ASSETS: rc=$rc $(cat "$tmp/stderr")"; fi
# --help still prints the help and exits 0.
if timeout 20 "$silk" snapshot --help >"$tmp/stdout" 2>&1 && grep -q "USAGE" "$tmp/stdout"; then ok; else bad "snapshot --help: $(head -c 300 "$tmp/stdout")"; fi
# A bad output folder is reported before the work, not after it.
printf '{"cases": []}\n' >"$tmp/empty-corpus.json"
expect_refusal layout-emit-unwritable "--emit $tmp/empty-corpus.json/x.json" -- layout "$tmp/empty-corpus.json" --emit "$tmp/empty-corpus.json/x.json"
expect_refusal soak-csv-unwritable "--csv" -- soak --seconds 1 --csv "$tmp/empty-corpus.json/x.csv"
t0=$(date +%s%N)
expect_refusal demo-out-unwritable "--out $tmp/empty-corpus.json/x.png" -- demo layers --backend headless --seconds 30 --out "$tmp/empty-corpus.json/x.png"
[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 10000 ] && ok || bad "demo --out: the bad path was reported only after the run"
# demo --script: a bad line is refused before the demo starts, naming the line; a good one plays.
printf 'wait 10\n# a comment\n\ntap 10 10\nfling 1 2\n' >"$tmp/bad-verb.script"
expect_refusal script-bad-verb "--script $tmp/bad-verb.script: line 5: unknown command 'fling'" -- demo layers --backend headless --script "$tmp/bad-verb.script"
printf 'tap 10\n' >"$tmp/bad-args.script"
expect_refusal script-bad-args "line 1: tap takes X Y" -- demo layers --backend headless --script "$tmp/bad-args.script"
printf 'wait 5\nwait -3\n' >"$tmp/bad-wait.script"
expect_refusal script-negative-wait "line 2: wait: -3.0 ms is outside" -- demo layers --backend headless --script "$tmp/bad-wait.script"
printf 'drag 0 0 nan 4 100\n' >"$tmp/bad-nan.script"
expect_refusal script-nan "line 1: drag: 'nan' is not a finite number" -- demo layers --backend headless --script "$tmp/bad-nan.script"
printf 'key hyper\n' >"$tmp/bad-key.script"
expect_refusal script-bad-key "line 1: key: unknown key name 'hyper'" -- demo layers --backend headless --script "$tmp/bad-key.script"
expect_refusal script-missing "cannot read $tmp/none.script" -- demo layers --backend headless --script "$tmp/none.script"
printf 'type hi\nkey backspace\ntap 180 76   # the button\ndrag 600 500 500 400 100\nwait 50\n' >"$tmp/good.script"
if timeout 60 env -u WAYLAND_DISPLAY "$silk" demo input --backend headless --seconds 2 --script "$tmp/good.script" --out "$tmp/script.png" >"$tmp/log" 2>&1 \
   && grep -q "button clicked (1)" "$tmp/log" && grep -q 'typed "hi"' "$tmp/log" && grep -q 'typed "h"$' "$tmp/log"; then ok
else bad "demo --script (good script): $(tail -3 "$tmp/log")"; fi
# The kiosk app, scripted: Details pushes the exhibit screen, a tab, About, a tap outside the
# dialog, then an edge swipe back: the last frame is the home screen, identical to the snapshot.
printf 'tap 433 684\nwait 700\ntap 640 692\nwait 300\ntap 1199 36\nwait 600\ntap 50 300\nwait 600\ndrag 3 300 900 300 300\nwait 800\n' >"$tmp/tour.script"
SILK_KIOSK_CLOCK=09:41:00 timeout 60 "$silk" snapshot kiosk --out "$tmp/kiosk-home.png" >/dev/null 2>&1
if timeout 60 env -u WAYLAND_DISPLAY "$silk" demo kiosk --backend headless --clock 09:41:00 --seconds 6 --script "$tmp/tour.script" --out "$tmp/tour.png" >"$tmp/log" 2>&1 \
   && grep -q "kiosk: screen detail: Seven-spot ladybird" "$tmp/log" && grep -q "kiosk: screen about" "$tmp/log" \
   && grep -q "kiosk: screen home" "$tmp/log" && cmp -s "$tmp/tour.png" "$tmp/kiosk-home.png"; then ok
else bad "demo kiosk --script (tour): $(grep kiosk: "$tmp/log" | tail -4)"; fi
# Right to left (--rtl): the kiosk demo's screen is the mirrored Hebrew snapshot; the rainforest
# snapshot mirrors; other scenes and demos refuse the flag.
SILK_KIOSK_CLOCK=09:41:00 timeout 60 "$silk" snapshot kiosk --rtl --out "$tmp/kiosk-rtl.png" >/dev/null 2>&1
if timeout 60 env -u WAYLAND_DISPLAY "$silk" demo kiosk --rtl --backend headless --clock 09:41:00 --seconds 4 --out "$tmp/kiosk-rtl-demo.png" >"$tmp/log" 2>&1 \
   && grep -q "kiosk displayed" "$tmp/log" && cmp -s "$tmp/kiosk-rtl-demo.png" "$tmp/kiosk-rtl.png" && ! cmp -s "$tmp/kiosk-rtl.png" "$tmp/kiosk-home.png"; then ok
else bad "demo kiosk --rtl: $(tail -2 "$tmp/log")"; fi
timeout 60 "$silk" snapshot rainforest --out "$tmp/rf.png" >/dev/null 2>&1
if timeout 60 "$silk" snapshot rainforest --rtl --out "$tmp/rf-rtl.png" >/dev/null 2>&1 && [ -s "$tmp/rf-rtl.png" ] && ! cmp -s "$tmp/rf.png" "$tmp/rf-rtl.png"; then ok
else bad "snapshot rainforest --rtl"; fi
if timeout 60 env -u WAYLAND_DISPLAY SILK_NO_FADE=1 "$silk" demo rainforest --rtl --no-scroll --backend headless --seconds 3 --out "$tmp/rf-rtl-demo.png" >"$tmp/log" 2>&1 \
   && [ -s "$tmp/rf-rtl-demo.png" ]; then ok
else bad "demo rainforest --rtl: $(tail -2 "$tmp/log")"; fi
expect_refusal rtl-snapshot-card "--rtl: only rainforest and kiosk have a right-to-left version, not card" -- snapshot card --rtl
expect_refusal rtl-demo-layers "--rtl: only rainforest and kiosk have a right-to-left version, not layers" -- demo layers --rtl --backend headless
# silk layout: a million children are refused before the memory is spent; a 2 MB bad value is
# quoted as an excerpt.
python3 - "$tmp" <<'PY'
import sys, os
d = sys.argv[1]
open(os.path.join(d, "wide.json"), "w").write('{"cases": [{"name": "wide", "root": {"children": [' + ",".join(["{}"] * 1000000) + ']}}]}')
open(os.path.join(d, "long-value.json"), "w").write('{"cases": [{"name": "x", "root": {"style": {"width": "' + "A" * 2000000 + '"}}}]}')
PY
limit_kb=1500000 expect_refusal layout-million-children "nodes" -- layout "$tmp/wide.json"
if [ "$(tail -1 "$tmp/stderr" | wc -c)" -lt 400 ]; then ok; else bad "layout-million-children: long message"; fi
expect_refusal layout-long-value "width has an invalid value" -- layout "$tmp/long-value.json"
# An overlay corpus ("base") names a file next to it, nothing else; a grid track list is checked.
printf '{"base": "../etc/passwd", "cases": []}\n' >"$tmp/overlay.json"
expect_refusal layout-overlay-path "next to the overlay" -- layout "$tmp/overlay.json"
printf '{"cases": [{"name": "g", "root": {"children": [{"style": {"display": "grid", "gridTemplateColumns": "1fr minmax(2fr, 1px)"}}]}}]}\n' >"$tmp/bad-grid.json"
expect_refusal layout-bad-grid "gridTemplateColumns has an invalid value" -- layout "$tmp/bad-grid.json"
if [ "$(wc -c <"$tmp/stderr")" -lt 400 ]; then ok; else bad "layout-long-value: the error echoed $(wc -c <"$tmp/stderr") bytes"; fi
# FIFOs: as input they are refused at once (open(2) would wait for a writer forever); as output
# without a reader refused, with a reader written in place (never renamed over).
mkfifo "$tmp/fifo"
expect_refusal fifo-image "not a regular file" -- snapshot image --image "$tmp/fifo" --out "$tmp/x.png"
expect_refusal fifo-text "not a regular file" -- snapshot text --text-file "$tmp/fifo" --out "$tmp/x.png"
expect_refusal fifo-layout "not a regular file" -- layout "$tmp/fifo"
expect_refusal fifo-out "FIFO" -- snapshot shapes --out "$tmp/fifo"
(cat "$tmp/fifo" >"$tmp/fifo.json") & reader=$!
if timeout 60 "$silk" bench --quick --scene layout --json "$tmp/fifo" >/dev/null 2>"$tmp/stderr" && wait $reader \
   && grep -q '"scenes"' "$tmp/fifo.json" && [ -p "$tmp/fifo" ]; then ok
else bad "bench --json FIFO: $(head -c 300 "$tmp/stderr")"; kill $reader 2>/dev/null; fi
# Framebuffer paths: an existing file is not Silk's to truncate or delete; a tty is not a
# framebuffer (it used to say "does not exist").
printf 'keep me\n' >"$tmp/not-a-framebuffer"
expect_refusal fbdev-existing-file "not a framebuffer" -- bench --backend fbdev --device "$tmp/not-a-framebuffer" --quick --scene layers-scroll
if [ "$(cat "$tmp/not-a-framebuffer")" = "keep me" ]; then ok; else bad "fbdev --device: an existing file was changed or deleted"; fi
expect_refusal fbdev-tty "is not a framebuffer device" -- demo --backend fbdev --device /dev/tty --no-console
# KMS without a DRM device: a regular file, a character device that is not DRM, a missing card,
# a malformed --mode (a mode the connector lacks and a card without connectors: Tests/e2e/fbdev.sh).
expect_refusal kms-regular-file "is not a DRM/KMS device (it is a regular file)" -- demo --backend kms --device "$tmp/not-a-framebuffer"
if [ "$(cat "$tmp/not-a-framebuffer")" = "keep me" ]; then ok; else bad "kms --device: an existing file was changed"; fi
expect_refusal kms-not-drm "/dev/null is not a DRM/KMS device" -- demo --backend kms --device /dev/null --no-console
expect_refusal kms-missing "/dev/dri/card97 does not exist" -- demo kiosk --backend kms --device /dev/dri/card97
expect_refusal kms-bench-not-drm "is not a DRM/KMS device" -- bench --backend kms --device /dev/null --quick --scene layers-scroll
expect_refusal kms-mode-malformed "--mode '1024x'" -- demo --backend kms --mode 1024x
expect_refusal kms-mode-rate "--mode '640x480@0'" -- bench --backend kms --mode 640x480@0
expect_refusal kms-buffers "--buffers 5" -- demo --backend kms --buffers 5
expect_refusal kms-seat-bogus "--seat" -- demo --backend kms --seat sometimes
expect_refusal kms-api-bogus "--kms-api" -- demo --backend kms --kms-api fast
expect_refusal input-driver-bogus "--input" -- demo --backend fbdev --input udev
# --seat libseat with no seat daemon to reach (a socket path that does not exist): one line, exit 2.
SEATD_SOCK=/nonexistent/seatd.sock LIBSEAT_BACKEND= XDG_SESSION_ID= expect_refusal kms-seat-missing "no seat to open the display through" -- demo --backend kms --seat libseat --device /dev/null
# Through libseat's noop backend (no daemon) a non-DRM device is still refused by name.
LIBSEAT_BACKEND=noop expect_refusal kms-seat-not-drm "/dev/null is not a DRM/KMS device" -- demo --backend kms --seat libseat --device /dev/null --no-console
# No permission: a DRM-numbered node (major 226) that only root may open, tried as nobody (needs
# root for mknod and setpriv; skipped otherwise).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && mkdir -m 755 /tmp/silk-cli-kms-$$ \
   && mknod -m 600 /tmp/silk-cli-kms-$$/card0 c 226 0 2>/dev/null; then
  timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups "$silk" demo --backend kms --device /tmp/silk-cli-kms-$$/card0 \
    >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q "card0: permission denied — the node belongs to group root" "$tmp/stderr"; then ok
  else bad "kms-permission: expected exit 2 and one line naming the group; got rc=$rc: $(head -c 300 "$tmp/stderr")"; fi
fi
rm -rf /tmp/silk-cli-kms-$$

# --- the kiosk says when it is displayed (Window.whenDisplayed; the framebuffer e2e waits for
# the line) and then sits idle: a spec that re-set its tiles' styles used to relayout on every
# loop iteration at full CPU, so the line never came.
/usr/bin/time -f "%U %S" -o "$tmp/kiosk-cpu" timeout 30 env -u WAYLAND_DISPLAY "$silk" demo kiosk --backend headless \
  --clock 09:41:00 --seconds 4 --out "$tmp/kiosk.png" >"$tmp/log" 2>&1
cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmp/kiosk-cpu" 2>/dev/null || echo 99999)
if grep -q "kiosk displayed" "$tmp/log" && [ "$cpu" -lt 2500 ]; then ok
else bad "demo kiosk: displayed line $(grep -c "kiosk displayed" "$tmp/log"), ${cpu} ms CPU in 4 s: $(tail -3 "$tmp/log")"; fi
# --- the app loop: demo runs on headless and stops in order on SIGTERM / SIGINT -----------------
if timeout 30 env -u WAYLAND_DISPLAY "$silk" demo layers --frames 30 --out "$tmp/frames.png" >"$tmp/log" 2>&1 \
   && grep -q "using headless" "$tmp/log" && [ "$(png_size "$tmp/frames.png")" = "1280 720" ]; then ok
else bad "demo --frames 30: $(cat "$tmp/log")"; fi
for sig in TERM INT; do
  env -u WAYLAND_DISPLAY "$silk" demo layers --out "$tmp/sig.png" >"$tmp/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q "running" "$tmp/log" && break; sleep 0.1; done
  sleep 0.3
  kill -s "$sig" "$pid"
  start=$(date +%s%N)
  wait "$pid"; rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  reason=$([ "$sig" = TERM ] && echo terminated || echo interrupted)
  if [ $rc -eq 0 ] && [ $ms -lt 1000 ] && grep -q "stopped ($reason)" "$tmp/log" && [ -s "$tmp/sig.png" ]; then ok
  else bad "SIG$sig: rc=$rc after ${ms} ms: $(cat "$tmp/log")"; fi
  rm -f "$tmp/sig.png"
done
# SIGHUP, SIGQUIT and SIGUSR1 end the app in order too (they used to kill it without the exit
# observers, or — SIGQUIT — print a crash report and leave it alive); SIGPIPE is ignored.
for sig in HUP QUIT USR1; do
  env -u WAYLAND_DISPLAY "$silk" demo layers --out "$tmp/sig.png" >"$tmp/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q "running" "$tmp/log" && break; sleep 0.1; done
  sleep 0.3
  kill -s PIPE "$pid"; sleep 0.2
  kill -s "$sig" "$pid"
  ( sleep 10; kill -KILL "$pid" 2>/dev/null ) & guard=$!
  wait "$pid"; rc=$?
  kill "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
  if [ $rc -eq 0 ] && grep -q "stopped (" "$tmp/log" && [ -s "$tmp/sig.png" ] && ! grep -q "Backtracing\|crashed" "$tmp/log"; then ok
  else bad "SIG$sig: rc=$rc: $(tail -3 "$tmp/log")"; fi
  rm -f "$tmp/sig.png"
done
# SIGQUIT to a command without an event loop quits it at once (the runtime's backtracer used to
# take it as a crash and keep the process alive for more than a minute).
# (In a subshell whose stderr is dropped: bash reports the job's "Quit" there.)
read -r rc ms < <( {
  ( ulimit -c 0; exec "$silk" raster-bench --runs 1000 ) >/dev/null 2>&1 &
  pid=$!
  sleep 1
  kill -QUIT "$pid"; t0=$(date +%s%N)
  ( sleep 10; kill -KILL "$pid" 2>/dev/null ) & guard=$!
  wait "$pid"; rc=$?
  echo "$rc $(( ($(date +%s%N) - t0) / 1000000 ))"
  kill "$guard" 2>/dev/null
} 2>/dev/null )
if [ "$rc" = 131 ] && [ "$ms" -lt 3000 ]; then ok; else bad "SIGQUIT to raster-bench: rc=$rc after ${ms} ms"; fi
# The sign-in form on headless, with the on-screen keyboard forced on: it says what it shows.
if SILK_OSK=always timeout 120 env -u WAYLAND_DISPLAY "$silk" demo form --frames 3 --size 800x600 --out "$tmp/form.png" >"$tmp/log" 2>&1 \
   && grep -q "form: editing name" "$tmp/log" && grep -q "form: keyboard shown" "$tmp/log" \
   && [ "$(png_size "$tmp/form.png")" = "800 600" ]; then ok
else bad "demo form --frames 3: $(cat "$tmp/log")"; fi
# The form with xkb keyboard layouts (docs/editing.md); unknown or malformed names are refused.
if SILK_OSK=always timeout 120 env -u WAYLAND_DISPLAY -u XKB_DEFAULT_LAYOUT "$silk" demo form --frames 3 --size 800x600 --keyboard-layouts de,ru,he \
     --out "$tmp/form.png" >"$tmp/log" 2>&1 && grep -q "form: keyboard layouts de,ru,he" "$tmp/log" && grep -q "form: keys .*ß=" "$tmp/log"; then ok
else bad "demo form --keyboard-layouts de,ru,he: $(cat "$tmp/log")"; fi
expect_refusal form-layout-unknown '"xx" is unknown to xkb' -- demo form --backend headless --keyboard-layouts de,xx
expect_refusal form-layout-malformed "--keyboard-layouts" -- demo form --backend headless --keyboard-layouts "de,,ru"
expect_refusal form-layout-too-many "at most 16" -- demo form --backend headless --keyboard-layouts "$(printf 'xx%d,' $(seq 1 5000))xx"
# SIGTERM mid-frame (docs/reliability.md): the rainforest scrolling, its display queues busy
# decoding and blurring photos; the app stops in order, writes its last frame and exits 0.
env -u WAYLAND_DISPLAY "$silk" demo rainforest --size 640x480 --out "$tmp/term.png" >"$tmp/log" 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q "running" "$tmp/log" && break; sleep 0.05; done
sleep 0.5
kill -TERM "$pid"
( sleep 10; kill -KILL "$pid" 2>/dev/null ) & guard=$!
wait "$pid"; rc=$?
kill "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
if [ $rc -eq 0 ] && grep -q "stopped (terminated)" "$tmp/log" && [ "$(png_size "$tmp/term.png")" = "640 480" ]; then ok
else bad "SIGTERM mid-frame (rainforest): rc=$rc $(tail -3 "$tmp/log")"; fi
if timeout 120 env -u WAYLAND_DISPLAY "$silk" demo rainforest --frames 3 --no-scroll --size 640x480 --out "$tmp/rf.png" >"$tmp/log" 2>&1 \
   && grep -q "frames presented" "$tmp/log" && [ "$(png_size "$tmp/rf.png")" = "640 480" ]; then ok
else bad "demo rainforest --frames 3 --no-scroll: $(cat "$tmp/log")"; fi
# The feed demo starts its own server, loads its first page by batch fetching and shows photos.
if timeout 120 env -u WAYLAND_DISPLAY "$silk" demo feed --backend headless --no-scroll --seconds 6 --size 640x480 --out "$tmp/feed-demo.png" >"$tmp/log" 2>&1 \
   && grep -q "feed: 20 posts" "$tmp/log" && grep -q "feed: photos shown" "$tmp/log" \
   && [ "$(png_size "$tmp/feed-demo.png")" = "640 480" ]; then ok
else bad "demo feed --no-scroll --seconds 6: $(cat "$tmp/log")"; fi
# No compositor: one clear message naming the socket, a non-zero exit, at once.
t0=$(date +%s%N)
if timeout 10 env WAYLAND_DISPLAY=silk-cli-no-such-socket "$silk" demo layers --backend wayland >"$tmp/log" 2>&1; then
  bad "--backend wayland without a compositor should fail"
elif grep -q "wl_display_connect(silk-cli-no-such-socket)" "$tmp/log" && [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 1000 ]; then ok
else bad "--backend wayland without a compositor: $(cat "$tmp/log")"; fi

# A compositor that accepts the connection and never answers (a listening socket nobody reads):
# --seconds bounds the wait, the error names the socket, and SIGTERM ends the wait at once.
mkdir -p "$tmp/xdg" && chmod 700 "$tmp/xdg"
python3 -c 'import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); time.sleep(120)' "$tmp/xdg/silent-0" & silent=$!
for _ in $(seq 50); do [ -S "$tmp/xdg/silent-0" ] && break; sleep 0.1; done
t0=$(date +%s%N)
timeout 30 env XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY=silent-0 "$silk" demo layers --backend wayland --seconds 2 >"$tmp/log" 2>"$tmp/stderr"; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $ms -lt 6000 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q "silent-0 did not answer within 2 s" "$tmp/stderr"; then ok
else bad "silent compositor, --seconds 2: rc=$rc after ${ms} ms: $(cat "$tmp/stderr")"; fi
env XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY=silent-0 "$silk" demo layers --backend wayland >"$tmp/log" 2>"$tmp/stderr" &
pid=$!
sleep 1
kill -TERM "$pid"; t0=$(date +%s%N)
( sleep 10; kill -KILL "$pid" 2>/dev/null ) & guard=$!
wait "$pid"; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
if [ $rc -ne 137 ] && [ $ms -lt 1000 ] && grep -q "stopped by SIGTERM while waiting for the compositor on silent-0" "$tmp/stderr"; then ok
else bad "silent compositor, SIGTERM: rc=$rc after ${ms} ms: $(cat "$tmp/stderr")"; fi
kill "$silent" 2>/dev/null; wait "$silent" 2>/dev/null

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
