#!/usr/bin/python3
"""boards_check.py WORKDIR REFERENCE.png MODE — checks one emulated ARM board (boards.sh) running
`silk demo kiosk`. MODE: fbdev-32 | fbdev-16 (Raspberry Pi 3B), virt-fbdev | virt-kms (virt).

1. the kiosk reports itself displayed (serial log), with the expected pixel format;
2. a QMP screendump equals the reference in every pixel (fbdev-16: the reference quantised to
   RGB565 as the framebuffer stores it);
3. virt (virtio keyboard): → moves the selection to the next tile and changes the screen.
Prints PASS/FAIL lines; exit status 0 when every check passed."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
from fbdev_common import Guest, count_changed
from PIL import Image

work, reference, mode = sys.argv[1], sys.argv[2], sys.argv[3]
guest = Guest(work, shot_prefix='shot', give_up_on_exit=True)
check = guest.check

ready = guest.wait_for('silk demo: kiosk displayed', 120)
text = guest.log_text()
init = next((l.strip() for l in text.splitlines() if l.startswith('INIT ')), 'no INIT line')
check('kiosk displayed', ready, init[:200])
if not ready:
    print('\n'.join(text.splitlines()[-30:])); sys.exit(1)
line = next((l.strip() for l in text.splitlines() if 'backend: ' in l), '')
want = {'fbdev-32': 'XRGB8888', 'fbdev-16': 'RGB565', 'virt-fbdev': 'XRGB8888'}.get(mode)
if want:
    check(f'start-up report names {want}', want in line, line[:300])

guest.connect_qmp()
ref = Image.open(reference).convert('RGB')
rw, rh = ref.size
ref = ref.tobytes()
if mode == 'fbdev-16':   # what RGB565 keeps (top 5/6/5 bits); QEMU's screendump shifts them back up
    ref = bytes(v & (0xFC if i % 3 == 1 else 0xF8) for i, v in enumerate(ref))
best = None
for attempt in range(6):
    w, h, shot = guest.screendump()
    if (w, h) != (rw, rh): break
    bad = count_changed(shot, ref)
    best = bad if best is None else min(best, bad)
    if bad == 0: break
    time.sleep(1)
if (w, h) != (rw, rh):
    check('screendump equals the snapshot', False, f'{w}x{h} vs {rw}x{rh}')
else:
    check('screendump equals the snapshot' + (' (RGB565)' if mode == 'fbdev-16' else ''), best == 0,
          f'{best} of {w * h} pixels differ')

if mode.startswith('virt'):
    guest.qmp('send-key', keys=[{'type': 'qcode', 'data': 'right'}])
    seen = guest.wait_for('kiosk: Selected: Monsoon leaves', 20)
    time.sleep(1)
    _, _, after = guest.screendump()
    changed = count_changed(shot, after)
    check('key → (virtio keyboard) moves the selection', seen and changed > 1000,
          f'{changed} pixels changed, selection logged: {seen}')
sys.exit(0 if guest.all_passed() else 1)
