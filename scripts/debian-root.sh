#!/usr/bin/env bash
# debian-root.sh — Debian roots (chroots) that build and run Silk with another Debian release's
# Swift and libraries, for `make test-portability` and `make test-arm64` (docs/portability.md).
#
#   debian-root.sh path   SUITE ARCH          prints the root's folder
#   debian-root.sh ensure SUITE ARCH          creates it on first use (mmdebstrap), reuses it after
#   debian-root.sh run    SUITE ARCH CMD…     runs CMD inside it (private mount namespace: /proc,
#                                             /dev and the binds below vanish when CMD ends)
#   debian-root.sh source NAME                copies the checkout's files (tracked and untracked,
#                                             not ignored: no .build) to $SILK_ROOTS/work/NAME/src,
#                                             keeping modification times (incremental builds), and
#                                             prints that folder; NAME/build is for build products
#
# SUITE is trixie or sid (Debian's `swiftlang`: 6.0.3 in trixie, 6.2.3 in sid; bookworm has
# none); ARCH is amd64 or arm64. Roots live in $SILK_ROOTS (default /var/cache/silk-roots),
# outside the checkout: each is 2-4 GB. They are made with `mmdebstrap --variant=extract`: the
# packages are unpacked, no maintainer script runs, so no emulation is needed even for arm64
# (~1-3 minutes each, depending on the network). A root is recreated when its package list below
# changes (the list's hash is stored in ROOT/.silk-root). Only the Debian archive the host
# already uses is contacted; the host's apt sources and state are never touched.
#
# `run` binds into the root: /opt/swift-packages (read-only; the host's SwiftPM mirror, through
# the host's /etc/gitconfig `insteadOf`, copied in) and every SILK_ROOT_BIND="HOSTDIR:ROOTDIR …".
# Needs root (chroot, mount) and mmdebstrap.
set -euo pipefail

SILK_ROOTS=${SILK_ROOTS:-/var/cache/silk-roots}

usage() { echo "usage: $0 path|ensure|run SUITE ARCH [CMD…] | source NAME" >&2; exit 2; }
if [ "${1:-}" = source ] && [ $# -eq 2 ]; then
  checkout=$(cd "$(dirname "$0")/.." && pwd) dest=$SILK_ROOTS/work/$2
  mkdir -p "$dest/build"; rm -rf "$dest/src.new"; mkdir -p "$dest/src.new"
  (cd "$checkout" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r ls -d 2>/dev/null |
     tar -c --no-recursion -T -) | tar -x -C "$dest/src.new"
  rm -rf "$dest/src"; mv "$dest/src.new" "$dest/src"; echo "$dest/src"; exit 0
fi
[ $# -ge 3 ] || usage
cmd=$1 suite=$2 arch=$3; shift 3
case "$suite" in trixie|sid) ;; *) echo "debian-root: suite '$suite' has no swiftlang (trixie or sid)" >&2; exit 2 ;; esac
case "$arch" in amd64|arm64) ;; *) echo "debian-root: architecture '$arch' is not amd64 or arm64" >&2; exit 2 ;; esac
root=$SILK_ROOTS/$suite-$arch

# What every root carries. --variant=extract installs no Essential packages, so the shell tools
# SwiftPM and the scripts call are listed.
base=(dash bash coreutils findutils grep sed tar gzip diffutils)
# The toolchain and Silk's build packages (scripts/ensure-packages.sh build). trixie and sid name
# FreeType's package libfreetype-dev (libfreetype6-dev is only virtual there). `gcc` brings the C
# runtime files (crtbegin.o, libgcc) clang links with.
build=(swiftlang libswiftlang libc6-dev gcc pkg-config libwayland-dev wayland-protocols
  libxkbcommon-dev libpixman-1-dev libfreetype-dev libharfbuzz-dev libfribidi-dev libfontconfig-dev
  libpng-dev libjpeg62-turbo-dev libturbojpeg0-dev libcurl4-openssl-dev libssl-dev
  # The KMS presenter's libraries (issue 22, branch kms): present so a root made today builds it.
  libdrm-dev libseat-dev libinput-dev
  # Paths and SVG (cairo, librsvg), GIF and WebP (giflib, libwebp): SilkRaster links them.
  libcairo2-dev librsvg2-dev libgif-dev libwebp-dev
  # libdbus (CDBus): the AT-SPI2 accessibility bridge (SilkAccessibility).
  libdbus-1-dev
  # rlottie (CRlottie): Lottie animations in SilkRaster.
  librlottie-dev
  # GStreamer (CGStreamer, CSilkGStreamer): SilkVideo's playbin and appsink.
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev)
# What the unit tests read: fonts (ensure-packages.sh test; bookworm's fonts-kacst is
# fonts-kacst-one since trixie) and XKB / Compose data.
testdata=(fonts-dejavu-core fonts-wqy-microhei fonts-kacst-one fonts-freefont-ttf fonts-noto-color-emoji
  xkb-data libx11-data
  # The video tests make VP8/WebM clips with gst-launch-1.0 and play them (ensure-packages.sh
  # build and test): without these they are skipped.
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-tools)
extra=()
# amd64: git for SwiftPM's dependencies. trixie's amd64 root also provides qemu-user 10 (a static
# binary that runs on bookworm; bookworm's 7.2 crashes the Swift driver) for aarch64 binaries.
[ "$arch" = amd64 ] && extra+=(git)
[ "$arch-$suite" = amd64-trixie ] && extra+=(qemu-user)
# arm64: a static busybox and Debian's arm64 kernel for the emulated boards' initramfs.
[ "$arch" = arm64 ] && extra+=(busybox-static linux-image-arm64)
packages=("${base[@]}" "${build[@]}" "${testdata[@]}" "${extra[@]}")
want=$(printf '%s\n' "$suite" "$arch" "${packages[@]}" | sha256sum | cut -c1-16)

# GLib's compiled settings schemas: --variant=extract runs no maintainer scripts, so the root
# lacks gschemas.compiled and GIO aborts the process ("No GSettings schemas are installed") as
# soon as GStreamer's souphttpsrc asks for a proxy. The compiled file is the same on every
# architecture, so the host's glib-compile-schemas makes it.
compile_schemas() {
  local dir="$1/usr/share/glib-2.0/schemas"
  [ -d "$dir" ] && [ ! -f "$dir/gschemas.compiled" ] || return 0
  command -v glib-compile-schemas >/dev/null || { echo "debian-root: glib-compile-schemas missing (apt-get install libglib2.0-bin)" >&2; exit 2; }
  glib-compile-schemas "$dir"
}

ensure() {
  if [ -f "$root/.silk-root" ] && [ "$(cat "$root/.silk-root")" = "$want" ]; then compile_schemas "$root"; return 0; fi
  command -v mmdebstrap >/dev/null || { echo "debian-root: mmdebstrap missing (apt-get install mmdebstrap)" >&2; exit 2; }
  mkdir -p "$SILK_ROOTS"
  # One creator at a time per root; a second caller waits, then finds it made.
  exec 9>"$root.lock"; flock 9
  if [ -f "$root/.silk-root" ] && [ "$(cat "$root/.silk-root")" = "$want" ]; then return 0; fi
  local t0=$SECONDS uri
  # The archive the host uses (deb822 sources first, then sources.list), default deb.debian.org.
  uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1=="deb"{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  uri=${uri:-http://deb.debian.org/debian}
  echo "debian-root: creating $root ($suite $arch, ${#packages[@]} packages from $uri)…" >&2
  rm -rf "$root.new"
  # sid's Release file can look expired on a machine whose clock is ahead of the mirror snapshot.
  mmdebstrap --arch="$arch" --variant=extract --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="$(IFS=,; echo "${packages[*]}")" "$suite" "$root.new" "deb $uri $suite main"
  # Merged /usr and the links maintainer scripts would have made.
  local d; for d in bin lib sbin; do [ -e "$root.new/$d" ] || ln -s usr/$d "$root.new/$d"; done
  [ "$arch" = amd64 ] && { [ -e "$root.new/lib64" ] || ln -s usr/lib64 "$root.new/lib64"; }
  [ -e "$root.new/usr/bin/sh" ] || ln -s dash "$root.new/usr/bin/sh"
  mkdir -p "$root.new"/{proc,dev,sys,tmp,src,build}; chmod 1777 "$root.new/tmp"
  compile_schemas "$root.new"
  echo "$want" > "$root.new/.silk-root"
  rm -rf "$root"; mv "$root.new" "$root"
  echo "debian-root: $root ready in $((SECONDS - t0)) s ($(du -shx "$root" | cut -f1))" >&2
}

run() {
  [ -f "$root/.silk-root" ] || { echo "debian-root: $root missing (run: $0 ensure $suite $arch)" >&2; exit 2; }
  # The SwiftPM mirror the host resolves github.com through (git's url.insteadOf), read-only.
  local binds=() mirror
  mirror=$(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | awk '{print $1; exit}' | sed 's/^url\.//; s/\.insteadof$//; s:/$::')
  if [ -n "$mirror" ] && [ -d "$mirror" ]; then binds+=("$mirror:$mirror:ro"); cp /etc/gitconfig "$root/etc/gitconfig"; fi
  # Swift 6.0 (trixie) cannot use the mirror's only swift-log release (tools 6.2): a copy it can
  # build stands in for the older release GitHub would offer (scripts/swift-log-for-swift-6.0.sh).
  if [ "$suite" = trixie ] && [ -n "$mirror" ] && [ -d "$mirror/apple/swift-log.git" ]; then
    "$(dirname "$0")/swift-log-for-swift-6.0.sh" "$mirror/apple/swift-log.git" "$SILK_ROOTS/work/compat-mirror/apple/swift-log.git"
    binds+=("$SILK_ROOTS/work/compat-mirror:/compat-mirror:ro")
    printf '[url "/compat-mirror/apple/swift-log.git"]\n\tinsteadOf = https://github.com/apple/swift-log\n' >> "$root/etc/gitconfig"
  fi
  local b; for b in ${SILK_ROOT_BIND:-}; do binds+=("$b"); done
  unshare --mount --propagation private -- /bin/bash -euc '
    root=$1; shift; n=$1; shift
    mount -t proc proc "$root/proc"; mount --rbind /dev "$root/dev"; mount -t sysfs sys "$root/sys"
    for ((i = 0; i < n; i++)); do
      IFS=: read -r from to mode <<< "$1"; shift
      mkdir -p "$root$to"; mount --bind "$from" "$root$to"
      [ "$mode" = ro ] && mount -o remount,bind,ro "$root$to"
    done
    exec chroot "$root" /usr/bin/env -i HOME=/tmp LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/libexec/swift/bin:/usr/bin:/usr/sbin "$@"
  ' bash "$root" "${#binds[@]}" "${binds[@]}" "$@"
}

case "$cmd" in
  path) echo "$root" ;;
  ensure) ensure ;;
  run) [ $# -gt 0 ] || usage; run "$@" ;;
  *) usage ;;
esac
