#!/usr/bin/env bash
# binfmt.sh register QEMU | unregister — the `silk-aarch64` binfmt_misc entry: aarch64 ELF
# executables run by QEMU (trixie's static qemu-aarch64 10, from the amd64 root), flags PF
# (P: keep argv[0], which the Swift driver needs; F: open the interpreter at registration, so it
# works inside a chroot). No other entry is touched: the kernel tries the newest entry first,
# so an existing qemu-aarch64 entry is only shadowed while this one exists. Mounts binfmt_misc
# if it is not mounted. `register` prints "registered" or "present" (already there).
set -euo pipefail
BM=/proc/sys/fs/binfmt_misc
[ -e $BM/register ] || mount -t binfmt_misc binfmt_misc $BM
case "${1:-}" in
  register)
    [ -e $BM/silk-aarch64 ] && { echo present; exit 0; }
    [ -x "${2:-}" ] || { echo "binfmt: ${2:-(no interpreter)} is not executable" >&2; exit 2; }
    magic='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
    echo ":silk-aarch64:M:0:$magic:$mask:$2:PF" > $BM/register
    echo registered ;;
  unregister) [ ! -e $BM/silk-aarch64 ] || echo -1 > $BM/silk-aarch64 ;;
  *) echo "usage: $0 register QEMU | unregister" >&2; exit 2 ;;
esac
