#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo signage --backend fbdev` (see fbdev.sh, app=signage):
GStreamer's plugins, their libraries and the registry scanner are in the image (/gst), the clip in /tmp.

Usage: fbdev_signage_check.py WORKDIR
  1. the demo lays out for the framebuffer's size (its 'signage: layout WxH' line = the screendump's);
  2. GStreamer decodes the clip in the VM ('signage: video playing', no video error line);
  3. the video's rectangle shows frames, not the black poster, and two screendumps a second and
     a half apart differ there (the bars move 2 px a frame: real frames keep coming);
     (the photo wall is not waited for: under TCG the demo's in-process server takes minutes to
     make its 1200-pixel photos and second banner);
  4. SIGTERM ends the app with exit status 0.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import re, sys, time
from fbdev_common import Guest

work = sys.argv[1]
guest = Guest(work, shot_prefix='signage', give_up_on_exit=True)
check, log_text, wait_for, screendump = guest.check, guest.log_text, guest.wait_for, guest.screendump


def region(shot, rect):
    """The RGB bytes of rect (x, y, w, h) of a screendump, row by row."""
    w, _, px = shot
    x, y, rw, rh = rect
    return b''.join(px[3 * ((y + j) * w + x):3 * ((y + j) * w + x + rw)] for j in range(rh))


def lit_fraction(px):
    """The share of pixels with a channel above 40: the SMPTE bars are mostly lit, the poster is black."""
    n = len(px) // 3
    return sum(1 for i in range(n) if max(px[3 * i:3 * i + 3]) > 40) / max(1, n)


playing = wait_for('signage: video playing', 120)
text = log_text()
layouts = re.findall(r'signage: layout (\d+)x(\d+), video at (\d+),(\d+) (\d+)x(\d+)', text)
errors = [l for l in text.splitlines() if 'silk: signage video' in l]
check('GStreamer plays the clip in the VM (plugins, scanner and registry from the image)', playing and not errors,
      (errors or [l for l in text.splitlines() if 'signage: video playing' in l] or ['no video line'])[0].strip())
if not playing or not layouts:
    # Stop the app so that the init prints GStreamer's warnings after its exit line.
    guest.terminate_app(); wait_for('INIT app exit', 20); time.sleep(2)
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
guest.connect_qmp()
# Past the first frame: let a few more reach the screen (TCG decodes slowly).
time.sleep(1.5)
a = screendump()
time.sleep(1.5)
b = screendump()
lw, lh, vx, vy, vw, vh = map(int, layouts[-1])
check('the signage screen is laid out for the framebuffer', (lw, lh) == (a[0], a[1]),
      f'layout {lw}x{lh}, screen {a[0]}x{a[1]}')
# Inside the video's rectangle, away from its edges.
rect = (vx + 8, vy + 8, max(1, min(vw, a[0] - vx) - 16), max(1, min(vh, a[1] - vy) - 16))
ra, rb = region(a, rect), region(b, rect)
lit = lit_fraction(ra)
check('the video shows frames, not its black poster', lit > 0.3, f'{lit:.0%} of {rect} lit')
changed = sum(1 for i in range(0, len(ra), 3) if ra[i:i + 3] != rb[i:i + 3]) / max(1, len(ra) // 3)
check('the video moves (two screendumps 1.5 s apart differ in its rectangle)', changed > 0.02,
      f'{changed:.1%} of its pixels changed')
guest.check_terminated('SIGTERM ends the demo with exit status 0', timeout=20)
sys.exit(0 if guest.all_passed() else 1)
