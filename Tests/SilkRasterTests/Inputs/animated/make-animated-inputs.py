#!/usr/bin/python3
"""Makes the animated-image fixtures in this folder and their reference frames (run here with
Debian's python3-pil: /usr/bin/python3 make-animated-inputs.py).

disposal.gif is written byte by byte (own LZW, 9-bit codes with a clear code every 250 pixels)
so every frame's rectangle, transparency, interlacing and disposal is exactly what the test
needs; its expected frames are computed by the model below (the browsers' rules) and checked
against Pillow's reading of the file before they are written as disposal-N.png. anim.webp is
encoded by Pillow (libwebp's WebPAnimEncoder picks blend/dispose per frame); its reference
frames are the encoder's inputs, checked against Pillow's decode. still.webp and still.gif are one-frame files.
"""
import struct
from PIL import Image, ImageSequence

W, H = 32, 24
PALETTE = [(0, 0, 0), (255, 0, 0), (0, 0, 255), (0, 200, 0), (255, 255, 0), (255, 255, 255)]
TRANSPARENT = 5  # index used as the transparent colour

def lzw(indices):
    out, acc, nbits = bytearray(), 0, 0
    def emit(code):
        nonlocal acc, nbits
        acc |= code << nbits; nbits += 9
        while nbits >= 8:
            out.append(acc & 0xFF); acc >>= 8; nbits -= 8
    emit(256)
    for i, v in enumerate(indices):
        if i and i % 250 == 0: emit(256)
        emit(v)
    emit(257)
    if nbits: out.append(acc & 0xFF)
    blocks = bytearray([8])
    for k in range(0, len(out), 255):
        chunk = out[k:k + 255]; blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")

def gif(frames, loop):
    table = b"".join(bytes(c) for c in PALETTE) + b"\x00" * (768 - 3 * len(PALETTE))
    data = b"GIF89a" + struct.pack("<HHBBB", W, H, 0xF7, 0, 0) + table
    if loop is not None:
        data += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for f in frames:
        x, y, w, h = f["rect"]
        flags = (f["dispose"] << 2) | (1 if f.get("transparent") else 0)
        data += b"\x21\xF9\x04" + struct.pack("<BHB", flags, f["delay"], TRANSPARENT) + b"\x00"
        data += b"\x2C" + struct.pack("<HHHHB", x, y, w, h, 0x40 if f.get("interlace") else 0)
        rows = [[f["pixel"](i, j) for i in range(w)] for j in range(h)]
        order = list(range(h))
        if f.get("interlace"):
            order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
        data += lzw([v for j in order for v in rows[j]])
    return data + b"\x3B"

def checker(a, b):
    return lambda i, j: a if (i + j) % 2 == 0 else b

FRAMES = [
    {"rect": (0, 0, W, H), "dispose": 1, "delay": 10, "transparent": True, "pixel": lambda i, j: 1 if i < W // 2 else 2},
    {"rect": (4, 4, 12, 10), "dispose": 2, "delay": 5, "transparent": True, "pixel": checker(3, TRANSPARENT), "interlace": True},
    {"rect": (16, 8, 10, 9), "dispose": 3, "delay": 3, "transparent": True, "pixel": lambda i, j: 4},
    {"rect": (8, 12, 20, 12), "dispose": 1, "delay": 0, "transparent": True, "pixel": checker(TRANSPARENT, 0)},
]

def model():
    """Browser compositing: RGBA canvas, transparent start; disposal 2 clears the frame's
    rectangle to transparent, 3 restores the canvas from before the frame."""
    canvas = [[(0, 0, 0, 0)] * W for _ in range(H)]
    out, previous = [], None
    for f in FRAMES:
        if previous is not None:
            pf, saved = previous
            px, py, pw, ph = pf["rect"]
            if pf["dispose"] == 2:
                for j in range(py, py + ph):
                    for i in range(px, px + pw): canvas[j][i] = (0, 0, 0, 0)
            elif pf["dispose"] == 3:
                canvas = [row[:] for row in saved]
        saved = [row[:] for row in canvas]
        x, y, w, h = f["rect"]
        for j in range(h):
            for i in range(w):
                v = f["pixel"](i, j)
                if f.get("transparent") and v == TRANSPARENT: continue
                canvas[y + j][x + i] = PALETTE[v] + (255,)
        out.append([row[:] for row in canvas])
        previous = (f, saved)
    return out

def to_image(rows):
    im = Image.new("RGBA", (W, H))
    im.putdata([p for row in rows for p in row])
    return im

open("disposal.gif", "wb").write(gif(FRAMES, loop=2))
expected = model()
pillow = [fr.convert("RGBA") for fr in ImageSequence.Iterator(Image.open("disposal.gif"))]
assert len(pillow) == len(expected)
for n, (mine, theirs) in enumerate(zip(expected, pillow)):
    a, b = list(to_image(mine).getdata()), list(theirs.getdata())
    # Pillow and the model agree on every pixel that is opaque in either.
    diff = [k for k in range(len(a)) if (a[k][3] or b[k][3]) and a[k] != b[k]]
    assert not diff, f"frame {n}: model and Pillow differ at {len(diff)} pixels, first {diff[0]}: {a[diff[0]]} vs {b[diff[0]]}"
    to_image(mine).save(f"disposal-{n}.png")
open("still.gif", "wb").write(gif(FRAMES[:1], loop=None))

# WebP: three lossless frames with transparency, 40 ms, 80 ms and 0 ms (clamped to 100 ms), loop 3.
frames = []
for n, color in enumerate([(255, 0, 0, 255), (0, 0, 255, 255), (0, 200, 0, 255)]):
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    for j in range(4 + n * 4, 14 + n * 4):
        for i in range(2 + n * 8, 14 + n * 8):
            im.putpixel((i, j), color)
    frames.append(im)
frames[0].save("anim.webp", save_all=True, append_images=frames[1:], duration=[40, 80, 0], loop=3, lossless=True)
# WebPAnimEncoder guarantees the decoded canvas equals each input frame, so the inputs are the
# reference; Pillow's decode must agree on the colour of every pixel the input paints (Pillow
# reads this file as RGB, dropping the transparency, so alpha is not compared).
decoded = [fr.convert("RGBA") for fr in ImageSequence.Iterator(Image.open("anim.webp"))]
assert len(decoded) == len(frames)
for n, (mine, theirs) in enumerate(zip(frames, decoded)):
    a, b = list(mine.getdata()), list(theirs.getdata())
    assert all(a[k][:3] == b[k][:3] for k in range(len(a)) if a[k][3]), f"webp frame {n}"
    mine.save(f"anim-{n}.png")
Image.new("RGBA", (W, H), (10, 120, 240, 255)).save("still.webp", lossless=True)
print("ok")
