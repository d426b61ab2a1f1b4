#!/usr/bin/env python3
"""ime_check.py BEFORE.ppm PREEDIT.ppm COMMITTED.ppm — checks the input-method screenshots of
Tests/e2e/wayland.sh (grim -t ppm of the sign-in form under sway):

- the pre-edit shows: PREEDIT differs from BEFORE (the empty field) inside the name field, and
  the changed pixels hold dark glyph pixels (the CJK text) and a row whose dark pixels cover at
  least 85 % of the glyphs' width (the underline under the whole pre-edit; the caret, drawn over
  it, breaks it for a pixel or two);
- the commit keeps the text and drops the underline: COMMITTED differs from BEFORE in the same
  place, its glyphs cover about the same width as the pre-edit's, and no row there is covered
  that far (measured here: CJK strokes cover at most ~60 % of a row of three glyphs).
Prints what it measured; exits 1 when a check fails, 2 on unreadable input."""
import sys


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h * 3]
    if len(pixels) != w * h * 3:
        raise ValueError(f"{path}: truncated")
    return w, h, pixels


def dark(px, i):
    # The field's text colour is #0f172a on white: every channel well below 128.
    return px[i] < 110 and px[i + 1] < 110 and px[i + 2] < 110


def changed_box(a, b, w, h):
    xs, ys = [], []
    for y in range(h):
        row = y * w * 3
        ra, rb = a[row:row + w * 3], b[row:row + w * 3]
        if ra == rb:
            continue
        for x in range(w):
            i = x * 3
            if ra[i:i + 3] != rb[i:i + 3]:
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def measure(px, w, box):
    """Width of the dark pixels' columns in box, and the most dark pixels in one row there."""
    x0, y0, x1, y1 = box
    cols, fullest = set(), 0
    for y in range(y0, y1):
        row = [x for x in range(x0, x1) if dark(px, (y * w + x) * 3)]
        cols.update(row)
        fullest = max(fullest, len(row))
    width = (max(cols) - min(cols) + 1) if cols else 0
    return width, fullest


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    try:
        (w, h, before), (w2, h2, pre), (w3, h3, com) = (read_ppm(p) for p in sys.argv[1:])
    except (OSError, ValueError) as e:
        print(f"ime_check: {e}")
        return 2
    if (w, h) != (w2, h2) or (w, h) != (w3, h3):
        print("ime_check: screenshots differ in size")
        return 2
    failures = 0
    box_pre = changed_box(before, pre, w, h)
    box_com = changed_box(before, com, w, h)
    if not box_pre or not box_com:
        print(f"ime_check: no change on screen (pre-edit box {box_pre}, committed box {box_com})")
        return 1
    # The caret's movement is part of the change: measure over both boxes' union.
    box = (min(box_pre[0], box_com[0]), min(box_pre[1], box_com[1]), max(box_pre[2], box_com[2]), max(box_pre[3], box_com[3]))
    pre_width, pre_run = measure(pre, w, box)
    com_width, com_run = measure(com, w, box)
    print(f"ime_check: changed area {box}; pre-edit: glyphs {pre_width} px wide, fullest row {pre_run} dark px; "
          f"committed: glyphs {com_width} px wide, fullest row {com_run} dark px")
    if pre_width < 40:
        print("FAIL: the pre-edit shows no text (fewer than 40 px of dark glyph columns)")
        failures += 1
    if pre_run < 0.85 * pre_width:
        print("FAIL: no underline under the pre-edit (no row 85 % dark across its width)")
        failures += 1
    if abs(com_width - pre_width) > 0.2 * pre_width:
        print("FAIL: the committed text does not cover the pre-edit's width")
        failures += 1
    if com_run >= 0.8 * com_width:
        print("FAIL: the committed text is still underlined")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
