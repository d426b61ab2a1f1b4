#!/usr/bin/env bash
# ensure-packages.sh build|test|demo|peers|portability — makes sure the Debian packages Silk needs are installed.
# As root it installs what is missing with apt-get; otherwise it prints the exact apt-get line
# and exits 1. On a system without dpkg it only warns (install the equivalents yourself).
set -euo pipefail

build_pkgs=(pkg-config libwayland-dev wayland-protocols libxkbcommon-dev libpixman-1-dev
  # libfreetype-dev, not libfreetype6-dev: that name is transitional in bookworm and only virtual
  # in trixie (Raspberry Pi OS 13), where dpkg never reports it installed.
  libfreetype-dev libharfbuzz-dev libfribidi-dev libfontconfig-dev libpng-dev
  libjpeg62-turbo-dev libturbojpeg0-dev fonts-dejavu-core
  # FoundationNetworking (SilkNetworkImage) links libcurl; a static-stdlib build needs libcurl.so.
  libcurl4-openssl-dev
  # libcrypto (CCrypto): SHA-256 names the image cache's files.
  libssl-dev
  # libdrm (CDRM): the KMS presenter (SilkKMS) — modesetting, dumb buffers, page flips.
  libdrm-dev
  # libseat (CSeat): the KMS backend opens the card and input devices through seatd/logind.
  libseat-dev
  # libinput (CLibinput): `--input libinput` on the fbdev and KMS backends (touchpads, tablets, quirks).
  libinput-dev
  # cairo draws vector paths into Silk's bitmaps; librsvg renders SVG images (through cairo).
  libcairo2-dev librsvg2-dev
  # GIF and WebP decoding, still and animated (CGIF, CWebP; docs/images.md).
  libgif-dev libwebp-dev
  # libdbus (CDBus): the AT-SPI2 accessibility bridge (SilkAccessibility, docs/accessibility.md).
  libdbus-1-dev
  # rlottie renders Lottie animations (CRlottie; docs/drawing.md).
  librlottie-dev
  # Video (SilkVideo, docs/video.md): GStreamer's headers, and the plugins a user installs to play
  # files: -base (playbin, appsink, videoconvert), -good (VP8/VP9 decode and encode, WebM/Matroska,
  # MP4 demux, HTTP) — the demo's and benchmark's clips are VP8 made by vp8enc at run time.
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base gstreamer1.0-plugins-good)
# Fonts the demo's text scene shows (CJK and colour emoji; Debian 12 ships only DejaVu): wanted
# by `make demo`, which goes on without them (saying which package would fix the boxes) when it
# cannot install them.
demo_fonts=(fonts-wqy-microhei fonts-noto-color-emoji)
# Fonts the text tests rely on (CJK, Arabic, Hebrew, colour emoji); small enough for CI.
test_pkgs=(fonts-wqy-microhei fonts-kacst fonts-freefont-ttf fonts-noto-color-emoji
  # The framebuffer end-to-end test: QEMU, an initramfs (cpio, a static busybox) and XKB data;
  # Tests/e2e/fbdev.sh downloads Debian's kernel package itself unless linux-image-amd64 is installed.
  qemu-system-x86 cpio busybox-static xkb-data
  # The KMS end-to-end case kms-seatd copies seatd into the VM (the kiosk as an unprivileged user);
  # wayland-touch copies it too, for sway's libinput backend.
  seatd
  # The libinput end-to-end cases (kms-libinput, wayland-touch) run systemd-udevd in the VM:
  # libinput takes only devices udev tagged ID_INPUT_* (its input_id builtin).
  udev
  # Compose tables for dead keys (xkbcommon-compose reads /usr/share/X11/locale).
  libx11-data wl-clipboard
  # Wayland end-to-end tests: compositors (cage needs xwayland), screenshots, virtual keyboard,
  # a C compiler for Tests/e2e/tools (libpng-dev and libwayland-dev are build packages). sway and
  # swaymsg (with their libraries) are also copied into the fbdev VM for its wayland-touch case.
  weston sway cage xwayland grim wtype gcc libc6-dev
  # The benchmark smoke test validates `silk bench --json` against docs/benchmark.schema.json.
  python3-jsonschema
  # The accessibility end-to-end test: a private accessibility bus and registry (at-spi2-core,
  # dbus-run-session from dbus-bin) and the pyatspi client (Tests/e2e/accessibility.sh).
  at-spi2-core dbus-bin dbus-daemon python3-pyatspi
  # Talk-back's end-to-end test: espeak-ng (loaded at run time) and its voices, sox to measure
  # the speech it writes.
  libespeak-ng1 espeak-ng-data sox
  # The video tests make their clips with gst-launch-1.0 (videotestsrc ! vp8enc ! webmmux).
  gstreamer1.0-tools)

# make bench-peers (not make test): the Qt Quick peer of rainforest-scroll (bench/peers/qtquick-scroll,
# Qt 6 software scene graph, built with cmake) and the cairo + Pango card (bench/peers/cairo-card).
peer_pkgs=(qt6-base-dev qt6-declarative-dev qml6-module-qtquick qml6-module-qtquick-window
  qml6-module-qtqml-workerscript cmake g++ libcairo2-dev libpango1.0-dev)

# make test-portability / test-arm64 (docs/portability.md): Debian roots (mmdebstrap), the emulated
# ARM boards (QEMU, the Pi 3B device tree, initramfs tools) and the pixel comparisons (PIL).
portability_pkgs=(mmdebstrap qemu-system-arm device-tree-compiler cpio xz-utils python3-pil)

want=("${build_pkgs[@]}")
optional=()
case "${1:-build}" in
  build) ;;
  demo) optional=("${demo_fonts[@]}") ;;
  test) want+=("${test_pkgs[@]}") ;;
  peers) want+=("${peer_pkgs[@]}") ;;
  portability) want=("${portability_pkgs[@]}") ;;
  *) echo "usage: $0 build|test|demo|peers|portability" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "ensure-packages: no dpkg here; make sure these (or your distribution's equivalents) are installed: ${want[*]}" >&2
  exit 0
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${want[@]}"; do installed "$p" || missing+=("$p"); done
missing_optional=()
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done
if [ ${#missing_optional[@]} -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "Silk demo: the text scene's CJK and emoji lines show boxes without ${missing_optional[*]};" >&2
  echo "           install them with:  sudo apt-get install ${missing_optional[*]}" >&2
else
  missing+=("${missing_optional[@]}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "Silk needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:  sudo $line" >&2
  exit 1
fi
echo "ensure-packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null || true
# Some images remove downloaded archives between dpkg runs; a second attempt then succeeds.
$line || $line
