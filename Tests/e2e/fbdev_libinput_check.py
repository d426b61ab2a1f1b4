#!/usr/bin/env python3
"""Checks the kms-libinput guest (see fbdev.sh): the kiosk on `--backend kms --input libinput
--rotate 180`, libinput on the path backend with systemd-udevd's device tags.

Usage: fbdev_libinput_check.py WORKDIR REFERENCE.png
  1. before udevd ran, libinput takes no device: one line saying why, and the app still runs (exit 0);
  2. with udevd: the keyboard and the tablet are opened by libinput (log lines), the start-up
     line names libinput, and the rotation line says software (bochs-drm's plane has no
     rotation property);
  3. the screendump equals the headless snapshot turned 180°;
  4. a key (→, QMP send-key) and a tap (virtio tablet, at the device point under the fourth tile of
     the turned picture) each change the screen and select what they should;
  5. SIGTERM: exit status 0, the CRTC restored.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import sys, time
from fbdev_common import Guest, read_png, differing, count_changed

work, reference = sys.argv[1], sys.argv[2]
guest = Guest(work, shot_prefix='shot', give_up_on_exit=True)
check, log_text, wait_for, qmp, screendump = guest.check, guest.log_text, guest.wait_for, guest.qmp, guest.screendump

line_with = guest.line_with

wait_for('INIT noudev exit=', 90)
wait_for('INIT udev tagged', 30)   # the noudev line is complete
line = line_with('INIT noudev exit=')
check('without udev libinput takes no device: one line naming udev, the app goes on (exit 0)',
      line.startswith('INIT noudev exit=0 lines=1 ') and 'not tagged by udev' in line, line[:300])
tagged = line_with('INIT udev tagged')
check('systemd-udevd tagged the input nodes (ID_INPUT=1)', 'tagged 0 ' not in tagged and 'no "' not in tagged, tagged)

ready = wait_for('silk demo: kiosk displayed', 90)
check('kiosk displayed on --input libinput', ready, line_with('backend: ')[:300])
if not ready:
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
text = log_text()
check('the start-up report names libinput as the input stack', 'input: libinput, xkbcommon layout' in text, line_with('input: libinput, ')[:200])
check("libinput opened the virtio keyboard and tablet through Silk's seam",
      "'QEMU Virtio Keyboard': keyboard (libinput" in text and "'QEMU Virtio Tablet': pointer (libinput" in text,
      '; '.join(l.strip() for l in text.splitlines() if '(libinput' in l)[:300])
check('--rotate 180 on bochs-drm: software rotation, one line saying why',
      text.count('kms: rotation 180°: in software (the primary plane has no rotation property)') == 1,
      line_with('kms: rotation')[:200])

guest.connect_qmp()
rw, rh, ref = read_png(reference)
turned = b''.join(ref[i:i + 3] for i in range(len(ref) - 3, -1, -3))  # 180°: the pixels in reverse order
best = None
for attempt in range(4):
    w, h, first = screendump()
    if (w, h) != (rw, rh): break
    best = differing(first, turned)
    if best[0] <= w * h // 200 and best[1] < 2: break
    time.sleep(1)
ok = (w, h) == (rw, rh) and best is not None and best[0] <= w * h // 200 and best[1] < 2
check('screendump equals the headless snapshot turned 180°', ok,
      f'{w}x{h} vs {rw}x{rh}' if (w, h) != (rw, rh) else f'{best[0]} of {w * h} pixels differ by > 24, mean |diff| {best[1]:.3f}')

qmp('send-key', keys=[{'type': 'qcode', 'data': 'right'}])
seen = wait_for('kiosk: Selected: Monsoon leaves', 10)
_, _, second = screendump()
changed = count_changed(first, second)
check('key → through libinput changes the screen', seen and changed > 1000, f'{changed} pixels changed, selection logged: {seen}')

# The fourth tile is at (506, 536) in the window; turned 180°, the panel shows it at (w-506, h-536).
x, y = w - 506, h - 536
guest.tablet_click(x, y, w, h)
seen = wait_for('kiosk: Selected: Sunflower daisy', 10)
_, _, third = screendump()
changed = count_changed(second, third)
check('a tablet tap through libinput (turned with the picture) selects the tile under it', seen and changed > 1000,
      f'{changed} pixels changed, selection logged: {seen}')

guest.check_terminated('SIGTERM: exit 0 and the CRTC restored', crtc=True)
sys.exit(0 if guest.all_passed() else 1)
