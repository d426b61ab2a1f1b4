#!/usr/bin/env python3
"""mkdtb.py IN.dtb OUT.dtb WIDTH HEIGHT BPP — the Raspberry Pi 3B device tree with the
`simple-framebuffer` node the Pi firmware adds on a real board, for QEMU's bcm2835-fb.

QEMU's raspi3b (1 GiB RAM, 64 MiB of it for the VideoCore) puts the framebuffer at the VC RAM
base + 1 MiB = 0x3c100000 after reset. The node goes under /chosen, which also needs
#address-cells, #size-cells and ranges, else simplefb does not probe. 32 bpp is x8r8g8b8
(QEMU's bcm2835-fb.pixo=0), 16 bpp r5g6b5. Needs dtc (device-tree-compiler)."""
import os, subprocess, sys, tempfile

src, out, w, h, bpp = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
fmt = {32: 'x8r8g8b8', 16: 'r5g6b5'}.get(bpp) or sys.exit(f'mkdtb: {bpp} bpp: 32 or 16')
stride = w * bpp // 8
dts = subprocess.run(['dtc', '-q', '-I', 'dtb', '-O', 'dts', src], check=True, capture_output=True, text=True).stdout
node = f'''
\t\tframebuffer@3c100000 {{
\t\t\tcompatible = "simple-framebuffer";
\t\t\treg = <0x3c100000 {hex(stride * h)}>;
\t\t\twidth = <{w}>; height = <{h}>; stride = <{stride}>;
\t\t\tformat = "{fmt}";
\t\t\tstatus = "okay";
\t\t}};
'''
start = dts.index('\tchosen {')
end = dts.index('\t};', start)
dts = dts[:end] + node + dts[end:]
dts = dts.replace('\tchosen {\n', '\tchosen {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <1>;\n\t\tranges;\n', 1)
with tempfile.NamedTemporaryFile('w', suffix='.dts', delete=False) as f:
    f.write(dts)
try:
    subprocess.run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', out, f.name], check=True)
finally:
    os.unlink(f.name)
