#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo controls --backend fbdev` driven by a real kernel
touchscreen: Tests/e2e/tools/vtouch.c registers a multitouch device through /dev/uinput in the
guest and replays the taps and drags this checker writes to the guest's second serial port
(see fbdev.sh, app=controls).

Usage: fbdev_controls_check.py WORKDIR
  1. Silk's evdev reader classifies the uinput device as a touchscreen; the gallery prints where
     its controls are (window points, 1:1 with the 1024x768 panel);
  2. a tap on switch 0 turns it on: the app says so, and the switch's pixels turn blue;
  3. a drag along slider 0 raises its value: the app says so, and the blue fill ends further right
     (the thumb moved) in the screendump;
  4. the app logs no error; SIGTERM restores the console and the app exits 0.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import re, sys, time
from fbdev_common import Guest

work = sys.argv[1]
guest = Guest(work, shot_prefix='controls', give_up_on_exit=True)
check, log_text, wait_for = guest.check, guest.log_text, guest.wait_for
W, H = 1024, 768

shown = wait_for('controls: displayed;', 70)
check('silk demo controls displayed on /dev/fb0', shown)
if not shown:
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
touch_line = guest.line_with("'Silk e2e vtouch'")
check('the uinput device is read as a touchscreen', touch_line.endswith(': touchscreen') or ': touchscreen,' in touch_line, touch_line)
where = {m.group(1): (int(m.group(2)), int(m.group(3)))
         for m in re.finditer(r'(\w+)=(\d+),(\d+)', guest.line_with('controls: displayed;'))}
guest.connect_qmp()


def is_blue(px):   # the accent (filled track, switch on): strongly blue, little red
    r, g, b = px
    return b > 170 and r < 110 and b - r > 100


def pixel(shot, x, y):
    i = 3 * (y * W + x)
    return shot[i], shot[i + 1], shot[i + 2]


def blue_in(shot, x0, y0, x1, y1):
    return sum(is_blue(pixel(shot, x, y)) for y in range(y0, y1) for x in range(x0, x1))


def fill_end(shot, y, x0, x1):
    """The rightmost blue pixel of row y between x0 and x1 (the slider's fill ends at the thumb)."""
    return max((x for x in range(x0, x1) if is_blue(pixel(shot, x, y))), default=-1)


sx, sy = where['switch0']
lx, ly = where['slider0']
w, h, before = guest.screendump()
if (w, h) != (W, H):
    check('screendump is 1024x768', False, f'{w}x{h}'); sys.exit(1)
box = (sx - 26, sy - 16, sx + 26, sy + 16)
blue0, end0 = blue_in(before, *box), fill_end(before, ly, lx - 300, lx + 300)

replayed = guest.vtouch(f'tap {sx} {sy}')
ok = replayed and wait_for('controls: switch 0 on', 10)
check('a touch tap on switch 0 turns it on', ok, guest.line_with('controls: switch 0'))
time.sleep(0.6)   # the switch's animation
_, _, after_tap = guest.screendump()
blue1 = blue_in(after_tap, *box)
check("switch 0's pixels turn to the accent colour", blue1 > blue0 + 300, f'blue pixels {blue0} → {blue1} of {52 * 32}')

# From the thumb's region to 200 px right, in 20 steps: a finger's drag, not a jump.
start = max(end0, lx - 250)
replayed = guest.vtouch(f'drag {start} {ly} {start + 200} {ly} 20 30')
values = re.findall(r'controls: slider 0 ([0-9.]+)', log_text())
ok = replayed and wait_for('controls: slider 0 ', 10)
values = re.findall(r'controls: slider 0 ([0-9.]+)', log_text())
check('a touch drag along slider 0 raises its value from 0.40', ok and values and float(values[-1]) > 0.6,
      f'values {values[:3]}…{values[-1:]}' if values else 'no slider line')
time.sleep(0.4)
_, _, after_drag = guest.screendump()
end1 = fill_end(after_drag, ly, lx - 300, lx + 300)
check("slider 0's fill (its thumb) ends further right on screen", end0 > 0 and end1 > end0 + 100, f'fill ends at x {end0} → {end1}')

errors = [l.strip() for l in log_text().splitlines()
          if re.search(r'error|fatal|cannot|failed', l, re.I) and not l.startswith('INIT')]
check('the app logs no error', not errors, '; '.join(errors[:3]))

guest.check_terminated('SIGTERM restores the console and the app exits 0', console=True)
sys.exit(0 if guest.all_passed() else 1)
