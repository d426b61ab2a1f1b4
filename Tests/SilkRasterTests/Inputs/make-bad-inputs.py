#!/usr/bin/env python3
"""Makes the damaged and oversized decoder inputs in this folder (run from this folder).

base.jpg / base.png: `convert -seed 7 -size 40x30 plasma:red-blue -strip [-quality 90] base.{jpg,png}`
(ImageMagick 6.9), passed as arguments: python3 make-bad-inputs.py base.jpg base.png
"""
import struct, sys, zlib

jpg = open(sys.argv[1], "rb").read()
png = open(sys.argv[2], "rb").read()

def write(name, data):
    open(name, "wb").write(data)

write("empty.jpg", b"")
write("text.png", b"This is a text file that someone renamed to .png.\n")
write("truncated.jpg", jpg[: len(jpg) // 2])
write("truncated.png", png[: len(png) // 2])

# A valid JPEG header (everything up to and including the SOS segment), then deterministic
# garbage where the entropy-coded scan should be, then EOI.
sos = jpg.index(b"\xff\xda")
sos_end = sos + 2 + struct.unpack(">H", jpg[sos + 2 : sos + 4])[0]
seed, junk = 1, bytearray()
for _ in range(600):
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    b = (seed >> 16) & 0xFF
    junk.append(0x00 if b == 0xFF else b)  # no accidental markers
write("garbage-after-header.jpg", jpg[:sos_end] + bytes(junk) + b"\xff\xd9")

# A PNG whose IDAT data has one byte flipped: the chunk CRC no longer matches.
idat = png.index(b"IDAT")
bad = bytearray(png)
bad[idat + 4 + 10] ^= 0x55
write("corrupt.png", bytes(bad))

# A JPEG whose frame header claims 10000 x 10000 (the rest is the small image's data).
sof = jpg.index(b"\xff\xc0")
big = bytearray(jpg)
big[sof + 5 : sof + 9] = struct.pack(">HH", 10000, 10000)
write("huge-header.jpg", bytes(big))

# A real, complete 10000 x 10000 (100 MPx) PNG: 1-bit grey, all white, compresses to ~12 KB.
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
row = b"\x00" + b"\xff" * (10000 // 8)
raw = zlib.compressobj(9)
body = b"".join(raw.compress(row) for _ in range(10000)) + raw.flush()
write("huge-100mpx.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 10000, 10000, 1, 0, 0, 0, 0))
      + chunk(b"IDAT", body) + chunk(b"IEND", b""))

# 16-bit PNGs with no gAMA/sRGB chunk (libpng's simplified API would take them as linear):
# mid-grey RGB, and mid-grey RGBA at half alpha.
raw = b"".join(b"\x00" + struct.pack(">HHH", 32768, 32768, 32768) * 4 for _ in range(2))
write("rgb16-midgrey.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 2, 16, 2, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
raw = b"".join(b"\x00" + struct.pack(">HHHH", 32768, 32768, 32768, 32768) * 4 for _ in range(2))
write("rgba16-half.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 2, 16, 6, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
