#!/usr/bin/env bash
# fbdev.sh [SILK] — end-to-end test of Silk's framebuffer presenter on a real /dev/fb0 in QEMU.
#
# Boots Debian's kernel (TCG, no KVM) with a busybox initramfs holding the release `silk` binary
# (built with --static-swift-stdlib), the shared libraries it links (copied with ldd), the assets,
# fonts and XKB data, twice: bochs-drm at 32 bpp and vesafb at 16 bpp (RGB565). In each VM it runs
# `silk demo kiosk --backend fbdev --clock 09:41:00` and checks, through QMP:
#   1. the screendump matches `silk snapshot kiosk` of the same size (16 bpp: both quantised to 565);
#   2. a key (→) injected with send-key changes the screen (selection moves to the next tile);
#   3. a pointer click (virtio tablet) on the fourth tile changes the screen again; a click on
#      Details pushes the exhibit screen (matches a headless `--script` run of the same taps), and
#      Escape (send-key) pops back to the home screen as it was;
#   4. SIGTERM ends the app with the console restored to KD_TEXT (the app's line in the serial log,
#      and the exit status).
# A VM on bochs-drm runs the same kiosk checks on `--backend kms` (/dev/dri/card0, page flips), plus:
# a `--mode` the connector lacks exits 2 with one line; after SIGTERM the CRTC is restored (log
# line) and a screendump shows the console's text again; then `silk bench --backend kms --quick`
# reports its page flips (JSON validated against the schema); the kiosk on three buffers at the
# preferred 1280x800 matches its snapshot; a SIGSEGV of it restores the CRTC from the
# fatal-signal guard.
# A VM on bochs-drm (kms-seatd) runs seatd and the kiosk as an unprivileged user through libseat,
# then switches VTs (chvt 2, chvt 1) and checks the pause and the repaint (fbdev_seat_check.py).
# A VM on bochs-drm (kms-libinput) runs the kiosk on `--backend kms --input libinput --rotate 180`:
# first without udev (libinput takes no device: one line, the app goes on), then with systemd-udevd
# (libinput needs udev's ID_INPUT tags); the screendump must equal the snapshot turned 180° (bochs
# has no plane rotation: the software fallback, logged), a key and a tablet tap must change it
# (fbdev_libinput_check.py).
# A third VM (bochs) runs `silk demo form` with the on-screen keyboard forced on and checks typing
# by taps on it and by send-key, dead keys included (Tests/e2e/fbdev_form_check.py).
# A VM on bochs (controls-bochs) runs `silk demo controls --backend fbdev` with a real kernel
# touchscreen made through /dev/uinput (Tests/e2e/tools/vtouch.c; QEMU 7.2 has no multitouch
# device): a tap turns a switch on, a drag moves a slider's thumb (fbdev_controls_check.py).
# A VM on bochs (wayland-touch) runs the same gallery as a Wayland client of sway: udevd tags a
# vtouch touchscreen, seatd gives sway's libinput backend the device, sway runs headless
# (WLR_BACKENDS=headless,libinput, one 1024x768 output) as an unprivileged user, and taps and a
# drag through the touchscreen must reach the controls as wl_touch (fbdev_wltouch_check.py).
# A fourth (signage-bochs) runs `silk demo signage --backend fbdev`: GStreamer's plugins (dlopen'd,
# so copied by name with their ldd libraries), its registry scanner and the demo's clip are in the
# image; the video's rectangle must show moving frames, not the poster (fbdev_signage_check.py).
# Prints "fbdev-e2e: N passed, M failed"; exits non-zero on any failure. Everything runs under
# `timeout`, QEMU is killed by a trap. Needs qemu-system-x86, cpio, busybox-static, python3, gcc,
# seatd, udev and sway (copied into the image with their libraries) and
# either an installed linux-image-amd64 or apt access to download it (cached in $WORK/cache).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SILK=${1:-$ROOT/.build/release/silk}
WORK=${FBDEV_E2E_DIR:-$ROOT/.build/e2e-fbdev}
BUDGET=${FBDEV_E2E_TIMEOUT:-55}   # seconds per VM (boot, start-up, checks)
mkdir -p "$WORK/cache"
T0=$(date +%s.%N)
log() { awk -v a="$T0" -v b="$(date +%s.%N)" -v m="$*" 'BEGIN{printf "fbdev-e2e [%5.1fs] %s\n", b-a, m}'; }
[ -x "$SILK" ] || { echo "fbdev-e2e: $SILK not found (build with: swift build -c release --static-swift-stdlib)"; exit 2; }
for t in qemu-system-x86_64 cpio python3; do
  command -v $t >/dev/null || { echo "fbdev-e2e: $t missing (scripts/ensure-packages.sh test installs it)"; exit 2; }
done

# 1. Kernel and modules: the installed Debian kernel, else linux-image-amd64's package unpacked.
KDIR=""
for v in /boot/vmlinuz-*; do
  ver=${v#/boot/vmlinuz-}
  if [ -r "$v" ] && [ -d "/lib/modules/$ver/kernel/drivers/gpu" ]; then KDIR=/; KVER=$ver; VMLINUZ=$v; fi
done
if [ -z "$KDIR" ]; then
  KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
  [ -n "$KPKG" ] || { echo "fbdev-e2e: cannot resolve linux-image-amd64 (apt-get update?)"; exit 2; }
  KDIR=$WORK/cache/$KPKG
  if [ ! -d "$KDIR/boot" ]; then
    ( cd "$WORK/cache" && { ls ${KPKG}_*.deb >/dev/null 2>&1 || apt-get download "$KPKG" >/dev/null 2>&1; } )
    mkdir -p "$KDIR"
    dpkg-deb --fsys-tarfile "$WORK/cache/${KPKG}"_*.deb | tar -x -C "$KDIR" --wildcards './boot/vmlinuz-*' \
      './lib/modules/*/kernel/drivers/gpu/*' './lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/drivers/input/*' \
      './lib/modules/*/kernel/drivers/video/*'
  fi
  VMLINUZ=$(ls "$KDIR"/boot/vmlinuz-* | head -1); KVER=${VMLINUZ##*/vmlinuz-}
fi
BUSYBOX=/bin/busybox
if ! ldd "$BUSYBOX" 2>&1 | grep -q "not a dynamic"; then
  ( cd "$WORK/cache" && { ls busybox-static_*.deb >/dev/null 2>&1 || apt-get download busybox-static >/dev/null 2>&1; } && dpkg-deb -x busybox-static_*.deb bb )
  BUSYBOX=$WORK/cache/bb/bin/busybox
fi
log "kernel $KVER"

# 2. Reference screens on the host (in the background while the initramfs is packed).
W_=1024; H_=768
SILK_KIOSK_CLOCK=09:41:00 "$SILK" snapshot kiosk --size ${W_}x${H_} --out "$WORK/reference.png" >/dev/null &
REFPID=$!
# bochs-drm's preferred mode, where the KMS VM runs the kiosk with three buffers.
SILK_KIOSK_CLOCK=09:41:00 "$SILK" snapshot kiosk --size 1280x800 --out "$WORK/reference-1280x800.png" >/dev/null &
REF2PID=$!
# The exhibit screen the checker's taps open (the fourth tile, then Details), played headless.
printf 'tap 506 536\nwait 200\ntap 433 732\nwait 1000\n' >"$WORK/detail.script"
"$SILK" demo kiosk --backend headless --size ${W_}x${H_} --clock 09:41:00 --seconds 3 --script "$WORK/detail.script" \
  --out "$WORK/detail-reference.png" >/dev/null &
DETAILREFPID=$!
SILK_OSK=always SILK_CARET_BLINK=0 "$SILK" demo form --backend headless --size ${W_}x${H_} --seconds 1 \
  --form-fill "Ada|zoé@x.org|1234" --form-focus pin --out "$WORK/form-reference.png" >/dev/null &
FORMREFPID=$!
# The signage demo's video clip, made by the demo itself (GStreamer, in its temporary directory) on
# the host and shipped in the image's /tmp, where the VM's demo finds it. Kept in the cache.
if ! ls "$WORK/cache/signage"/silk-signage-*.webm >/dev/null 2>&1; then
  mkdir -p "$WORK/cache/signage"
  TMPDIR=$WORK/cache/signage/ "$SILK" demo signage --backend headless --size ${W_}x${H_} --seconds 8 \
    --out "$WORK/signage-headless.png" >"$WORK/signage-headless.log" 2>&1 &
  SIGNAGEPID=$!
fi

# 3. The initramfs: busybox, modules (dependencies from .modinfo), silk + its libraries, data.
R=$WORK/root; rm -rf "$R"; mkdir -p "$R"/{bin,proc,sys,dev,tmp,etc,var/cache/fontconfig}
cp "$BUSYBOX" "$R/bin/busybox"
strip -o "$R/silk" "$SILK" 2>/dev/null || cp "$SILK" "$R/silk"
copy_libs() { ldd "$1" | grep -oE '/[^ ]+' | sort -u | while read -r l; do cp -L --parents "$l" "$R/"; done; }  # FILE's libraries
copy_libs "$SILK"
# kms-seatd: seatd (the seat daemon) and util-linux's setpriv (busybox's cannot change uid), with their libraries.
# kms-libinput: udevd (udevadm run as systemd-udevd) with the rule that tags input devices.
# wayland-touch: sway (and swaymsg, its IPC client) with their libraries, and a config for them.
for b in /usr/sbin/seatd /usr/bin/setpriv /bin/udevadm /usr/bin/sway /usr/bin/swaymsg; do
  [ -x "$b" ] || { echo "fbdev-e2e: $b missing (scripts/ensure-packages.sh test installs it; the VMs that use it will fail)"; continue; }
  cp "$b" "$R/bin/"; copy_libs "$b"
done
if [ -x "$R/bin/udevadm" ]; then
  ln -s udevadm "$R/bin/systemd-udevd"
  mkdir -p "$R/lib/udev/rules.d"; cp /lib/udev/rules.d/60-input-id.rules "$R/lib/udev/rules.d/"
fi
if [ -x "$R/bin/sway" ]; then
  # One headless output the size of vtouch's panel, the touchscreen mapped onto it; no borders, no
  # X11, no background (sway would start swaybg for one).
  cat > "$R/etc/sway-e2e.conf" <<'SWAYCONF'
output HEADLESS-1 resolution 1024x768 position 0 0
input type:touch map_to_output HEADLESS-1
default_border none
default_floating_border none
focus_follows_mouse no
xwayland disable
SWAYCONF
fi
# controls-bochs: vtouch (Tests/e2e/tools/vtouch.c), a uinput touchscreen, built static so it needs no libraries.
cc -O2 -static -o "$R/bin/vtouch" "$ROOT/Tests/e2e/tools/vtouch.c" || echo "fbdev-e2e: building vtouch failed (controls-bochs will fail)"
# libinput's quirks database (its libraries come with silk's ldd list above).
[ -d /usr/share/libinput ] && cp -r --parents /usr/share/libinput "$R/"
mkdir -p "$R/assets"; cp -r "$ROOT/assets/fonts" "$ROOT/assets/photos" "$R/assets/"
# signage-bochs: GStreamer loads its elements from plugin files with dlopen, so ldd of silk does not
# list them. The seven the signage video needs (which plugins a run loads, seen on the host with
# GST_DEBUG=GST_PLUGIN_LOADING:4: filesrc/queue/capsfilter, playbin, appsink, typefind, the WebM
# demuxer, VP8, convert+scale), with their libraries, the registry scanner, and the clip, made on the
# host (encoding it under TCG would take most of the VM's budget). About 2 MB of the gzipped image.
GSTLIB=$(ldd "$SILK" | grep -oE '/[^ ]+/libgstreamer-1\.0\.so\.0' | head -1); GSTLIB=${GSTLIB%/*}
mkdir -p "$R/gst/plugins"
for p in coreelements playback app typefindfunctions matroska vpx videoconvertscale; do
  f=$GSTLIB/gstreamer-1.0/libgst$p.so
  # GStreamer before 1.22 has videoconvert and videoscale as two plugins.
  [ $p != videoconvertscale ] || [ -e "$f" ] || f="$GSTLIB/gstreamer-1.0/libgstvideoconvert.so $GSTLIB/gstreamer-1.0/libgstvideoscale.so"
  for g in $f; do
    [ -e "$g" ] || { echo "fbdev-e2e: $g missing (gstreamer1.0-plugins-base/-good; scripts/ensure-packages.sh)"; continue; }
    cp "$g" "$R/gst/plugins/"; copy_libs "$g"
  done
done
SCANNER=$GSTLIB/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner
if [ -x "$SCANNER" ]; then
  cp "$SCANNER" "$R/gst/"; copy_libs "$SCANNER"
fi
# The Compose table for dead keys (xkbcommon-compose finds it through compose.dir).
for f in compose.dir locale.alias locale.dir en_US.UTF-8; do
  [ -e /usr/share/X11/locale/$f ] && cp -rL --parents /usr/share/X11/locale/$f "$R/"
done
for d in /etc/fonts /usr/share/fonts/truetype/dejavu /usr/share/X11/xkb; do [ -d "$d" ] && cp -rL --parents "$d" "$R/"; done
python3 - "$KDIR/lib/modules/$KVER" bochs evdev virtio_pci virtio_input uinput > "$R/modules.order" <<'PY'
import os, re, sys
root = sys.argv[1]
idx = {f[:-3].replace('-', '_'): os.path.join(r, f) for r, _, fs in os.walk(root) for f in fs if f.endswith('.ko')}
seen, out = set(), []
def visit(n):
    n = n.replace('-', '_')
    if n in seen or n not in idx: return      # not a module: built into vmlinuz
    seen.add(n); m = re.search(rb'\x00depends=([^\x00]*)', open(idx[n], 'rb').read())
    for d in (m.group(1).decode().split(',') if m and m.group(1) else []): visit(d)
    out.append(idx[n])
for n in sys.argv[2:]: visit(n)
print('\n'.join(out))
PY
mkdir -p "$R/modules"; i=0
while read -r p; do i=$((i+1)); cp "$p" "$R/modules/$(printf %02d $i)-$(basename "$p")"; done < "$R/modules.order"
cat > "$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc p /proc; mount -t sysfs s /sys; mount -t devtmpfs d /dev
FB=$(sed -n 's/.*fbmode=\([a-z]*\).*/\1/p' /proc/cmdline)
for m in /modules/*.ko; do
  case "$m" in *bochs*) [ "$FB" = bochs ] || continue ;; esac
  insmod "$m" 2>/dev/null
done
i=0; while { [ ! -e /dev/fb0 ] || [ ! -e /dev/input/event1 ]; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
echo "INIT fb=$(cat /proc/fb | tr '\n' ' ') inputs=$(ls /dev/input | tr '\n' ' ')"
export SILK_ASSETS=/assets HOME=/tmp XDG_CACHE_HOME=/tmp
if grep -q "app=bench" /proc/cmdline; then
  # The benchmark presenting on the real /dev/fb0 (issue 9's `--backend fbdev`): quick run of the
  # scroll scenes; the JSON goes to the serial log between markers for the host to validate.
  /silk bench --backend fbdev --quick --scene layers-scroll,rainforest-scroll --json /tmp/bench.json
  echo "INIT bench exit=$?"
  echo "INIT bench json begin"; cat /tmp/bench.json; echo; echo "INIT bench json end"
  echo "INIT done"; while :; do sleep 60; done
fi
if grep -q "app=seat" /proc/cmdline; then
  # Seats without root: seatd as root, the kiosk as user silk (uid 1000) through libseat. The card
  # and input nodes are root's alone (0600), so only the seat can open them for the app.
  i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  for n in 1 2 3 4 5 6 7 8; do echo "SILK SEAT E2E TTY2 LINE $n ################################" > /dev/tty2; done
  # --wait-for-display with a connector bochs lacks: it waits (one line), and SIGTERM ends the wait.
  /silk demo kiosk --backend kms --seat direct --connector HDMI-A-1 --wait-for-display >/tmp/wait.log 2>&1 &
  W=$!; i=0; while ! grep -q "waiting for a display" /tmp/wait.log && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done
  sleep 1; kill -TERM $W; wait $W; rc=$?
  echo "INIT wait exit=$rc waiting-lines=$(grep -c 'waiting for a display to be connected' /tmp/wait.log) last: $(tail -1 /tmp/wait.log | head -c 240)"
  echo 'silk:x:1000:1000::/tmp:/bin/sh' >> /etc/passwd; echo 'silk:x:1000:' >> /etc/group
  chmod 1777 /tmp; chmod 0600 /dev/dri/card0 /dev/input/event*; mkdir -p /run
  /bin/seatd -g silk >/tmp/seatd.log 2>&1 &
  i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  echo "INIT seatd socket: $(ls -l /run/seatd.sock)"
  /bin/setpriv --reuid=1000 --regid=1000 --clear-groups /silk demo kiosk --backend kms --seat libseat --mode 1024x768@60 --clock 09:41:00 &
  PID=$!
  i=0; while ! grep -q "^Uid:" /proc/$PID/status 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done
  sleep 1
  direct=$(/bin/setpriv --reuid=1000 --regid=1000 --clear-groups /bin/busybox sh -c '{ [ -r /dev/dri/card0 ] || [ -r /dev/input/event0 ]; } && echo allowed || echo denied')
  echo "INIT seat app uid=$(awk '/^Uid:/{print $2}' /proc/$PID/status) direct=$direct"
  read -r cmd < /dev/ttyS1; chvt 2; echo "INIT chvt 2 done ($cmd)"
  read -r cmd < /dev/ttyS1; chvt 1; echo "INIT chvt 1 done ($cmd)"
  read -r cmd < /dev/ttyS1
  echo "INIT sending SIGTERM ($cmd)"; kill -TERM $PID; wait $PID; echo "INIT app exit=$?"
  sed 's/^/INIT seatd: /' /tmp/seatd.log | tail -5
  echo "INIT done"; while :; do sleep 60; done
fi
if grep -q "app=signage" /proc/cmdline; then
  # Digital signage: a GStreamer video (the plugins in /gst, registry in /tmp), GIF banners and a
  # photo wall from the demo's own HTTP server on the loopback interface.
  ifconfig lo 127.0.0.1 up
  export GST_PLUGIN_SYSTEM_PATH=/gst/plugins GST_PLUGIN_SCANNER=/gst/gst-plugin-scanner GST_REGISTRY=/tmp/gst-registry.bin
  # GStreamer's warnings go to a file the init prints after the app (a failing run's diagnosis).
  export GST_DEBUG=2 GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=/tmp/gst.log
  /silk demo signage --backend fbdev &
elif grep -q "app=controls" /proc/cmdline; then
  # The controls gallery driven by a real kernel touchscreen: vtouch registers a multitouch device
  # through /dev/uinput (before the app, which must classify it as a touchscreen) and replays the
  # taps and drags the host writes to the second serial port; "term" ends the app.
  mkfifo /tmp/touch
  /bin/vtouch 1024 768 < /tmp/touch &
  exec 3>/tmp/touch
  i=0; while ! grep -q "Silk e2e vtouch" /sys/class/input/event*/device/name 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  /silk demo controls --backend fbdev &
  PID=$!
  trap '' PIPE   # a vtouch that failed must not take the init (and the kernel) down with SIGPIPE
  exec 4</dev/ttyS1
  while read -r cmd <&4; do
    case "$cmd" in term) break ;; *) echo "$cmd" >&3 ;; esac
  done
  echo "INIT sending SIGTERM ($cmd)"; kill -TERM $PID; wait $PID; echo "INIT app exit=$?"
  echo quit >&3; exec 3>&-
  echo "INIT done"; while :; do sleep 60; done
elif grep -q "app=wltouch" /proc/cmdline; then
  # The controls gallery as a Wayland client of sway, touched through a real kernel touchscreen:
  # udevd tags vtouch's uinput device (ID_INPUT_TOUCHSCREEN, libinput takes nothing untagged),
  # seatd hands sway's libinput backend the device, sway (a headless 1024x768 output, the libinput
  # backend for input, pixman) runs as user silk and the demo as root on its socket. The host's
  # commands: "tree" prints sway's tree (where the window is), "term" ends the app, others go to vtouch.
  mkdir -p /run/udev; /bin/systemd-udevd --daemon >/tmp/udevd.log 2>&1
  mkfifo /tmp/touch
  /bin/vtouch 1024 768 < /tmp/touch &
  exec 3>/tmp/touch
  i=0; while ! grep -q "Silk e2e vtouch" /sys/class/input/event*/device/name 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  /bin/udevadm trigger --action=add --subsystem-match=input; /bin/udevadm settle --timeout=10
  echo "INIT udev tagged $(cat /run/udev/data/c13:* 2>/dev/null | grep -c 'ID_INPUT_TOUCHSCREEN=1') input nodes as a touchscreen"
  echo 'silk:x:1000:1000::/tmp:/bin/sh' >> /etc/passwd; echo 'silk:x:1000:' >> /etc/group
  mkdir -p /run /tmp/xdg; chown 1000:1000 /tmp/xdg; chmod 0700 /tmp/xdg
  # wlroots makes its buffers and keymaps with shm_open, in /dev/shm (not in devtmpfs).
  mkdir -p /dev/shm; mount -t tmpfs -o mode=1777 shm /dev/shm
  /bin/seatd -g silk >/tmp/seatd.log 2>&1 &
  i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  # Not WLR_LIBINPUT_NO_DEVICES=1: with it wlroots 0.15 leaves libinput's device-added events
  # queued until the first input event, so the first tap arrives before the seat has touch (seen:
  # sway simulated a pointer for it) — and without it a missing touchscreen stops sway at once.
  /bin/setpriv --reuid=1000 --regid=1000 --clear-groups /bin/env -i PATH=/bin HOME=/tmp/xdg XDG_RUNTIME_DIR=/tmp/xdg \
    LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman \
    WLR_HEADLESS_OUTPUTS=1 /bin/sway -c /etc/sway-e2e.conf >/tmp/sway.log 2>&1 &
  SWAY=$!
  i=0; while ! { [ -S /tmp/xdg/wayland-1 ] && ls /tmp/xdg/sway-ipc.*.sock >/dev/null 2>&1; } && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  export SWAYSOCK=$(ls /tmp/xdg/sway-ipc.*.sock 2>/dev/null | head -1)
  echo "INIT sway runtime dir: $(ls /tmp/xdg | tr '\n' ' ')"
  [ -n "$SWAYSOCK" ] || tail -n 30 /tmp/sway.log | sed 's/^/INIT sway log: /'
  echo "INIT sway started at $(cut -d' ' -f1 /proc/uptime) s"
  XDG_RUNTIME_DIR=/tmp/xdg WAYLAND_DISPLAY=wayland-1 SILK_WAYLAND_DEBUG=1 \
    /silk demo controls --backend wayland --size 1024x768 --fullscreen &
  PID=$!
  trap '' PIPE   # a vtouch that failed must not take the init (and the kernel) down with SIGPIPE
  exec 4</dev/ttyS1
  while read -r cmd <&4; do
    case "$cmd" in
      term) break ;;
      tree) echo "INIT tree json begin"; /bin/swaymsg -r -t get_tree; echo; echo "INIT tree json end" ;;
      # Sway's input devices, as the human-readable list (swaymsg waits 3 s for an answer).
      inputs) /bin/swaymsg -p -t get_inputs 2>&1 | sed 's/^/INIT sway input: /'; echo "INIT sway inputs end at $(cut -d' ' -f1 /proc/uptime) s" ;;
      swaylog) tail -n 40 /tmp/sway.log | sed 's/^/INIT sway log: /' ;;
      *) echo "$cmd" >&3 ;;
    esac
  done
  echo "INIT sending SIGTERM ($cmd)"; kill -TERM $PID; wait $PID; echo "INIT app exit=$?"
  echo quit >&3; exec 3>&-
  kill -TERM $SWAY; wait $SWAY; echo "INIT sway exit=$?"
  grep -v '^$' /tmp/sway.log | tail -n 60 | sed 's/^/INIT sway log: /'
  echo "INIT done"; while :; do sleep 60; done
elif grep -q "app=form" /proc/cmdline; then
  # The sign-in form with the on-screen keyboard forced on (the VM has a keyboard device), a still
  # caret, and the us(intl) layout, whose apostrophe is a dead acute.
  SILK_OSK=always SILK_CARET_BLINK=0 XKB_DEFAULT_LAYOUT=us XKB_DEFAULT_VARIANT=intl /silk demo form --backend fbdev &
elif grep -q "app=libinput" /proc/cmdline; then
  # libinput through the path backend: without udev's tags it takes no device (one line, the app
  # goes on without input); then udevd tags the devices and the kiosk runs turned 180°.
  i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  /silk demo kiosk --backend kms --input libinput --seconds 2 >/tmp/noudev.log 2>&1
  echo "INIT noudev exit=$? lines=$(grep -c 'libinput opened no input device' /tmp/noudev.log) $(grep 'libinput opened no' /tmp/noudev.log | head -c 300)"
  mkdir -p /run/udev; /bin/systemd-udevd --daemon >/tmp/udevd.log 2>&1
  /bin/udevadm trigger --action=add --subsystem-match=input; /bin/udevadm settle --timeout=10
  echo "INIT udev tagged $(cat /run/udev/data/c13:* 2>/dev/null | grep -c 'ID_INPUT=1') input nodes"
  /silk demo kiosk --backend kms --input libinput --rotate 180 --mode 1024x768@60 --clock 09:41:00 &
elif grep -q "app=kms" /proc/cmdline; then
  # KMS on bochs-drm's /dev/dri/card0. Text on tty1 first, so that a screendump after the app
  # shows whether the console came back; then a mode the connector lacks (one line, exit 2).
  i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  for n in 1 2 3 4 5 6 7 8; do echo "SILK KMS E2E CONSOLE LINE $n ################################" > /dev/tty1; done
  /silk demo layers --backend auto --seconds 1 --no-scroll >/tmp/auto.log 2>&1
  echo "INIT auto exit=$? chose: $(grep 'backend:' /tmp/auto.log | sed 's/.*backend: //')"
  /silk demo kiosk --backend kms --mode 123x45 --seconds 5 >/tmp/badmode.out 2>/tmp/badmode.err
  echo "INIT badmode exit=$? lines=$(wc -l < /tmp/badmode.err) $(head -c 300 /tmp/badmode.err)"
  /silk demo kiosk --backend kms --mode 1024x768@60 --clock 09:41:00 &
else
  /silk demo kiosk --backend fbdev --clock 09:41:00 &
fi
PID=$!
# The harness writes "term" to the second serial port when it wants the app stopped.
read -r cmd < /dev/ttyS1
echo "INIT sending SIGTERM ($cmd)"; kill -TERM $PID; wait $PID; echo "INIT app exit=$?"
[ ! -s /tmp/gst.log ] || { echo "INIT gstreamer: $(ls /tmp/gst-registry.bin 2>&1)"; tail -15 /tmp/gst.log | sed 's/^/INIT gstreamer: /'; }
if grep -q "app=kms" /proc/cmdline; then
  # After the host's screendump of the console: the benchmark presenting by page flips.
  read -r cmd < /dev/ttyS1
  /silk bench --backend kms --quick --scene layers-scroll --json /tmp/bench.json
  echo "INIT bench exit=$?"
  echo "INIT bench json begin"; cat /tmp/bench.json; echo; echo "INIT bench json end"
  # The kiosk at the preferred mode with three buffers (the host compares a screendump), then
  # a crash: SIGSEGV on the host's word; the fatal-signal guard puts the CRTC (and the console's
  # 1024x768 mode) back before the process dies. It starts on the host's word, after the host's
  # screendump of the console (started at once, it raced that screendump on a loaded host).
  read -r cmd < /dev/ttyS1
  /silk demo kiosk --backend kms --kms-api legacy --buffers 3 --clock 09:41:00 >/tmp/crash.log 2>&1 &
  P=$!; i=0; while ! grep -q "kiosk displayed" /tmp/crash.log && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  echo "INIT crash kiosk displayed"
  read -r cmd < /dev/ttyS1
  kill -SEGV $P; wait $P; rc=$?; grep -E "^kms: |displayed|backend: " /tmp/crash.log | sed 's/^/INIT crash log: /'; echo "INIT crash exit=$rc"
fi
echo "INIT done"; while :; do sleep 60; done
INIT
chmod +x "$R/init"
[ -z "${SIGNAGEPID:-}" ] || wait $SIGNAGEPID || echo "fbdev-e2e: the signage clip run failed ($WORK/signage-headless.log)"
cp "$WORK/cache/signage"/silk-signage-*.webm "$R/tmp/" 2>/dev/null || echo "fbdev-e2e: no signage clip ($WORK/signage-headless.log)"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$WORK/initrd.gz"
wait $REFPID
wait $REF2PID
wait $FORMREFPID || echo "fbdev-e2e: the form reference did not render"
wait $DETAILREFPID || echo "fbdev-e2e: the exhibit-screen reference did not render"
log "initramfs $(du -h "$WORK/initrd.gz" | cut -f1); reference rendered"

PASSED=0; FAILED=0
QEMUPID=""
cleanup() { [ -n "$QEMUPID" ] && kill "$QEMUPID" 2>/dev/null || true; }
trap cleanup EXIT

run_vm() {  # name fbmode kernel-args [checker args…]; FBDEV_E2E_ONLY=name,… runs only those
  [ -z "${FBDEV_E2E_ONLY:-}" ] || [[ ",$FBDEV_E2E_ONLY," == *",$1,"* ]] || return 0
  local name=$1 mode=$2 kargs=$3 d=$WORK/$1
  local checker=("${@:4}")
  [ ${#checker[@]} -gt 0 ] || checker=("$ROOT/Tests/e2e/fbdev_check.py" "$d" "$WORK/reference.png" "$mode" "$WORK/detail-reference.png")
  rm -rf "$d"; mkdir -p "$d"
  qemu-system-x86_64 -accel tcg -m 768 -smp 1 -display none -no-reboot -vga std \
    -device virtio-keyboard-pci -device virtio-tablet-pci \
    -kernel "$VMLINUZ" -initrd "$WORK/initrd.gz" -serial file:"$d/serial.log" \
    -chardev socket,id=ctl,path="$d/ctl.sock",server=on,wait=off -device isa-serial,chardev=ctl \
    -qmp unix:"$d/qmp.sock",server=on,wait=off -pidfile "$d/qemu.pid" -daemonize \
    -append "console=ttyS0 quiet panic=-1 fbmode=$mode $kargs"
  QEMUPID=$(cat "$d/qemu.pid")
  local out rc=0
  out=$(timeout "$BUDGET" python3 "${checker[@]}") || rc=$?
  echo "$out" | sed "s/^/fbdev-e2e $name: /"
  kill "$QEMUPID" 2>/dev/null || true; QEMUPID=""
  local p f; p=$(echo "$out" | grep -c '^PASS' || true); f=$(echo "$out" | grep -c '^FAIL' || true)
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "fbdev-e2e $name: FAIL checker ended with status $rc (timeout: 124)"; fi
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
  if [ "$f" -ne 0 ]; then echo "fbdev-e2e $name: serial log:"; sed 's/^/    /' "$d/serial.log" | tail -40; fi
  log "$name done"
}

run_vm bochs-32bpp bochs "video=${W_}x${H_}"
run_vm vesafb-16bpp vesa "vga=0x317"
BUDGET=${FBDEV_E2E_BENCH_TIMEOUT:-90} run_vm bench-bochs bochs "video=${W_}x${H_} app=bench" "$ROOT/Tests/e2e/fbdev_bench_check.py" "$WORK/bench-bochs" "$ROOT"
BUDGET=${FBDEV_E2E_KMS_TIMEOUT:-180} run_vm kms-bochs bochs "video=${W_}x${H_} app=kms" "$ROOT/Tests/e2e/fbdev_check.py" "$WORK/kms-bochs" "$WORK/reference.png" kms "$ROOT"
BUDGET=${FBDEV_E2E_SEAT_TIMEOUT:-150} run_vm kms-seatd bochs "video=${W_}x${H_} app=seat" "$ROOT/Tests/e2e/fbdev_seat_check.py" "$WORK/kms-seatd" "$WORK/reference.png"
BUDGET=${FBDEV_E2E_LIBINPUT_TIMEOUT:-120} run_vm kms-libinput bochs "video=${W_}x${H_} app=libinput" "$ROOT/Tests/e2e/fbdev_libinput_check.py" "$WORK/kms-libinput" "$WORK/reference.png"
BUDGET=${FBDEV_E2E_CONTROLS_TIMEOUT:-100} run_vm controls-bochs bochs "video=${W_}x${H_} app=controls" "$ROOT/Tests/e2e/fbdev_controls_check.py" "$WORK/controls-bochs"
BUDGET=${FBDEV_E2E_WLTOUCH_TIMEOUT:-150} run_vm wayland-touch bochs "video=${W_}x${H_} app=wltouch" "$ROOT/Tests/e2e/fbdev_wltouch_check.py" "$WORK/wayland-touch"
BUDGET=${FBDEV_E2E_FORM_TIMEOUT:-80} run_vm form-bochs bochs "video=${W_}x${H_} app=form" "$ROOT/Tests/e2e/fbdev_form_check.py" "$WORK/form-bochs" "$WORK/form-reference.png"
BUDGET=${FBDEV_E2E_SIGNAGE_TIMEOUT:-180} run_vm signage-bochs bochs "video=${W_}x${H_} app=signage" "$ROOT/Tests/e2e/fbdev_signage_check.py" "$WORK/signage-bochs"
echo "fbdev-e2e: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
