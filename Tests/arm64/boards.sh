#!/usr/bin/env bash
# boards.sh ARM64ROOT SILK WORKDIR — the aarch64 `silk demo kiosk` on emulated ARM boards.
#
# Boots the arm64 root's Debian kernel (linux-image-arm64) in qemu-system-aarch64 (TCG) with a
# busybox initramfs holding SILK (an aarch64 build), the shared libraries it links (resolved by
# the root's dynamic loader under qemu-user), the assets, fonts and XKB data:
#   raspi3b-32bpp  QEMU's Raspberry Pi 3B: its bcm2835 framebuffer appears as /dev/fb0 through a
#   raspi3b-16bpp  `simple-framebuffer` device-tree node, as the Pi firmware adds on a real board
#                  (mkdtb.py); XRGB8888 and RGB565.
#   virt-fbdev     `-M virt` with virtio-gpu-pci: a DRM device whose fbdev emulation is /dev/fb0;
#                  virtio keyboard and tablet for input.
#   virt-kms       the same virt board with `--backend kms` on virtio-gpu's /dev/dri/card0 (page
#                  flips instead of /dev/fb0).
#   virt-bench     the virt board runs `silk bench --backend fbdev`, then `--backend kms` (scene
#                  layers-scroll, 3 s per mode); boards_check.py validates both JSON reports from
#                  the serial log and prints the present interval, frames vs flips and the flip
#                  latency (TCG: these measure the emulator, not a board).
# In each VM `silk demo kiosk --backend fbdev --clock 09:41:00` runs; boards_check.py compares a
# QMP screendump with `silk snapshot kiosk` rendered by the same binary in the arm64 root
# (qemu-user): every pixel must be equal (16 bpp: the reference quantised to RGB565). On virt
# a key (→) must also move the selection. BOARDS_ONLY=name,… runs only those.
# Prints "boards NAME: PASS/FAIL …" and "boards: N passed, M failed"; exits non-zero on failure.
set -euo pipefail
A=$1 SILK=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
# Commands in the arm64 root (under qemu-user, with /proc and /dev): scripts/debian-root.sh.
name=$(basename "$A"); export SILK_ROOTS; SILK_ROOTS=$(dirname "$A")
inroot() { SILK_ROOT_BIND="" "$HERE/../../scripts/debian-root.sh" run "${name%-*}" "${name##*-}" "$@"; }
# qemu-user for those (Tests/arm64/binfmt.sh), unless run.sh registered it already.
QEMU_USER=$SILK_ROOTS/${name%-*}-amd64/usr/bin/qemu-aarch64
OWN_BINFMT=no; [ "$("$HERE/binfmt.sh" register "$QEMU_USER")" = registered ] && OWN_BINFMT=yes
BUDGET=${BOARDS_TIMEOUT:-300}   # seconds per VM: TCG boots of an arm64 kernel take 20-65 s here, loaded
W_=1024 H_=768
T0=$SECONDS
log() { echo "boards $(printf '[%4ds]' $((SECONDS - T0))) $*"; }
rm -rf "$WORK"; mkdir -p "$WORK"

# Kernel, the Pi 3B device tree and the modules virt needs, from the root's linux-image-arm64.
VMLINUZ=$(ls "$A"/boot/vmlinuz-* | sort -V | tail -1); KVER=${VMLINUZ##*/vmlinuz-}
MODS=$A/usr/lib/modules/$KVER
DTB=$(ls "$A"/usr/lib/linux-image-$KVER/broadcom/bcm2837-rpi-3-b.dtb)
log "kernel $KVER"

# The reference, rendered by the same binary and libraries (in the background).
cp "$SILK" "$A/tmp/silk-boards"
rm -rf "$A/tmp/silk-assets"; cp -r "$HERE/../../assets" "$A/tmp/silk-assets"
inroot sh -c "cd /tmp && SILK_ASSETS=/tmp/silk-assets SILK_KIOSK_CLOCK=09:41:00 /tmp/silk-boards snapshot kiosk --size ${W_}x${H_} --out /tmp/kiosk-boards.png" > "$WORK/reference.log" 2>&1 &
REF=$!

# The initramfs: busybox, silk, its libraries, data, and the virt board's modules (unpacked:
# busybox's insmod reads no .ko.xz).
R=$WORK/initramfs; mkdir -p "$R"/{bin,proc,sys,dev,tmp,etc,var/cache/fontconfig,usr/lib,modules}
ln -s usr/lib "$R/lib"
cp "$A/usr/bin/busybox" "$R/bin/busybox"
cp "$SILK" "$R/silk"
inroot /usr/lib/ld-linux-aarch64.so.1 --list /tmp/silk-boards | awk '{print ($3 ~ /^\//) ? $3 : $1}' | grep '^/' | sort -u |
while read -r l; do
  real=$(chroot "$A" readlink -f "$l"); mkdir -p "$R$(dirname "$real")" "$R$(dirname "$l")"
  cp -L "$A$real" "$R$real"; [ -e "$R$l" ] || cp -L "$A$real" "$R$l"
done
mkdir -p "$R/assets" "$R/usr/share/X11/locale" "$R/usr/share/fonts/truetype"
cp -r "$A/tmp/silk-assets/fonts" "$A/tmp/silk-assets/photos" "$R/assets/"
cp -a "$A/etc/fonts" "$R/etc/"; cp -a "$A/usr/share/fontconfig" "$R/usr/share/" 2>/dev/null || true
cp -rL "$A/usr/share/fonts/truetype/dejavu" "$R/usr/share/fonts/truetype/"
cp -rL "$A/usr/share/X11/xkb" "$R/usr/share/X11/"
for f in compose.dir locale.alias locale.dir en_US.UTF-8; do cp -rL "$A/usr/share/X11/locale/$f" "$R/usr/share/X11/locale/"; done
# Modules in load order (dependencies first, from each module's .modinfo `depends=`); those
# built into the kernel have no file and are skipped.
python3 - "$MODS" virtio_gpu virtio_pci virtio_input evdev > "$WORK/modules.order" <<'PY'
import lzma, os, re, sys
root = sys.argv[1]
idx = {}
for r, _, fs in os.walk(root):
    for f in fs:
        if f.endswith(('.ko', '.ko.xz')): idx[f.split('.ko')[0].replace('-', '_')] = os.path.join(r, f)
seen, out = set(), []
def visit(n):
    n = n.replace('-', '_')
    if n in seen or n not in idx: return
    seen.add(n); p = idx[n]
    data = lzma.open(p).read() if p.endswith('.xz') else open(p, 'rb').read()
    m = re.search(rb'\x00depends=([^\x00]*)', data)
    for d in (m.group(1).decode().split(',') if m and m.group(1) else []): visit(d)
    out.append(p)
for n in sys.argv[2:]: visit(n)
print('\n'.join(out))
PY
i=0
while read -r p; do
  i=$((i + 1)); o=$R/modules/$(printf %02d $i)-$(basename "${p%.xz}")
  case "$p" in *.xz) xz -dc "$p" > "$o" ;; *) cp "$p" "$o" ;; esac
done < "$WORK/modules.order"
cat > "$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc p /proc; mount -t sysfs s /sys; mount -t devtmpfs d /dev
arg() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" /proc/cmdline; }
for m in /modules/*.ko; do insmod "$m" 2>/dev/null; done
i=0; while [ ! -e /dev/fb0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo "INIT $(uname -m) fb=$(cat /proc/fb | tr '\n' ' ') size=$(cat /sys/class/graphics/fb0/virtual_size 2>/dev/null) bpp=$(cat /sys/class/graphics/fb0/bits_per_pixel 2>/dev/null) dri=$(ls /dev/dri 2>/dev/null | tr '\n' ' ') inputs=$(ls /dev/input 2>/dev/null | tr '\n' ' ')"
export SILK_ASSETS=/assets HOME=/tmp XDG_CACHE_HOME=/tmp
if [ "$(arg app)" = bench ]; then
  # The benchmark on both presenters of the same virtio-gpu, fbdev first (the KMS run's exit puts
  # the console's CRTC back); each JSON report goes to the serial log between markers.
  for b in fbdev kms; do
    /silk bench --backend $b --scene layers-scroll --warmup 0.5 --seconds 3 --json /tmp/bench-$b.json
    echo "INIT bench-$b exit=$?"
    echo "INIT bench-$b json begin"; cat /tmp/bench-$b.json; echo; echo "INIT bench-$b json end"
  done
  echo "INIT done"; while :; do sleep 60; done
fi
# virt-kms boots with backend=kms: the same kiosk on /dev/dri/card0 (virtio-gpu) by page flips.
/silk demo kiosk --backend "$(arg backend)" --clock 09:41:00 &
PID=$!
wait $PID; echo "INIT app exit=$?"
while :; do sleep 60; done
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$WORK/initrd.gz"
wait $REF || { cat "$WORK/reference.log"; echo "boards: FAIL the reference snapshot did not render"; exit 1; }
cp "$A/tmp/kiosk-boards.png" "$WORK/reference.png"; rm -rf "$A/tmp/silk-boards" "$A/tmp/silk-assets" "$A/tmp/kiosk-boards.png"
log "initramfs $(du -h "$WORK/initrd.gz" | cut -f1) ($(wc -l < "$WORK/modules.order") modules); reference rendered"

PASSED=0 FAILED=0 QEMUPID=""
trap '[ -n "$QEMUPID" ] && kill $QEMUPID 2>/dev/null; [ $OWN_BINFMT = yes ] && "$HERE/binfmt.sh" unregister; true' EXIT
run_board() {  # name checker-mode qemu-args…
  [ -z "${BOARDS_ONLY:-}" ] || [[ ",$BOARDS_ONLY," == *",$1,"* ]] || return 0
  local name=$1 mode=$2 d=$WORK/$1; shift 2
  mkdir -p "$d"
  local t=$SECONDS
  qemu-system-aarch64 "$@" -initrd "$WORK/initrd.gz" -display none -no-reboot \
    -serial file:"$d/serial.log" -qmp unix:"$d/qmp.sock",server=on,wait=off -pidfile "$d/qemu.pid" -daemonize
  QEMUPID=$(cat "$d/qemu.pid")
  local out rc=0
  out=$(timeout "$BUDGET" /usr/bin/python3 "$HERE/boards_check.py" "$d" "$WORK/reference.png" "$mode") || rc=$?
  echo "$out" | sed "s/^/boards $name: /"
  kill "$QEMUPID" 2>/dev/null || true; QEMUPID=""
  local p f; p=$(echo "$out" | grep -c '^PASS' || true); f=$(echo "$out" | grep -c '^FAIL' || true)
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "boards $name: FAIL checker ended with status $rc (timeout: 124)"; fi
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
  if [ "$f" -ne 0 ]; then echo "boards $name: serial log:"; sed 's/^/    /' "$d/serial.log" | tail -30; fi
  log "$name done in $((SECONDS - t)) s"
}

APPEND="console=ttyAMA0,115200 rdinit=/init quiet panic=-1"
for bpp in 32 16; do
  "$HERE/mkdtb.py" "$DTB" "$WORK/raspi3b-$bpp.dtb" $W_ $H_ $bpp
  G=(-global bcm2835-fb.xres=$W_ -global bcm2835-fb.yres=$H_ -global bcm2835-fb.bpp=$bpp)
  [ $bpp = 32 ] && G+=(-global bcm2835-fb.pixo=0)   # the firmware's default is BGR order
  run_board raspi3b-${bpp}bpp fbdev-$bpp -M raspi3b -m 1G -kernel "$VMLINUZ" -dtb "$WORK/raspi3b-$bpp.dtb" \
    -append "$APPEND backend=fbdev" "${G[@]}"
done
VIRT=(-M virt -cpu cortex-a53 -m 1G -smp 1 -kernel "$VMLINUZ"
  -device virtio-gpu-pci,xres=$W_,yres=$H_ -device virtio-keyboard-pci -device virtio-tablet-pci)
run_board virt-fbdev virt-fbdev "${VIRT[@]}" -append "$APPEND backend=fbdev"
# virtio-gpu is also a DRM/KMS device (/dev/dri/card0): the same checks on --backend kms.
run_board virt-kms virt-kms "${VIRT[@]}" -append "$APPEND backend=kms"
# The benchmark runs much longer than a kiosk check under TCG.
BUDGET=${BOARDS_BENCH_TIMEOUT:-480} run_board virt-bench virt-bench "${VIRT[@]}" -append "$APPEND app=bench"
echo "boards: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
