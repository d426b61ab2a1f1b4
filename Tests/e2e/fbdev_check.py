#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo kiosk --backend fbdev` (see fbdev.sh).

Usage: fbdev_check.py WORKDIR REFERENCE.png bochs|vesa [DETAIL-REFERENCE.png]
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import os, sys, time
from fbdev_common import Guest, read_png, differing, count_changed, tablet_event, button_event

work, reference, mode = sys.argv[1], sys.argv[2], sys.argv[3]
detail_reference = sys.argv[4] if len(sys.argv) > 4 else None
guest = Guest(work, shot_prefix='shot', give_up_on_exit=True)
check, log_text, wait_for, qmp, screendump = guest.check, guest.log_text, guest.wait_for, guest.qmp, guest.screendump

ready = wait_for('silk demo: kiosk displayed', 45)
check('kiosk displayed on /dev/fb0', ready, '' if ready else 'no "kiosk displayed" line')
text = log_text()
want = 'XRGB8888' if mode == 'bochs' else 'RGB565'
line = next((l for l in text.splitlines() if 'backend: ' in l), '')
check(f'start-up report names the {want} format, pacing and console', want in line and 'paced by' in line and 'console: /dev/tty' in line, line.strip()[:300])
if not ready:
    print('\n'.join(text.splitlines()[-30:])); sys.exit(1)

guest.connect_qmp()

rw, rh, ref = read_png(reference)
best = None
for attempt in range(4):
    w, h, first = screendump()
    if (w, h) != (rw, rh): break
    bad, mean = differing(first, ref, quantise=(mode == 'vesa'))
    best = (bad, mean)
    if bad <= w * h // 200 and mean < 2: break
    time.sleep(1)
ok = (w, h) == (rw, rh) and best is not None and best[0] <= w * h // 200 and best[1] < 2
detail = f'{w}x{h} vs {rw}x{rh}' if (w, h) != (rw, rh) else f'{best[0]} of {w * h} pixels differ by > 24, mean |diff| {best[1]:.3f}'
check('screendump matches the headless snapshot' + (' (quantised to RGB565)' if mode == 'vesa' else ''), ok, detail)

# A key: → selects the next tile.
qmp('send-key', keys=[{'type': 'qcode', 'data': 'right'}])
seen = wait_for('kiosk: Selected: Monsoon leaves', 10)
_, _, second = screendump()
changed = count_changed(first, second)
check('key → (QMP send-key) changes the screen', seen and changed > 1000, f'{changed} pixels changed, selection logged: {seen}')

# A click on the fourth tile (virtio tablet: absolute 0…32767 over the screen).
x, y = 506, 536
qmp('input-send-event', events=[tablet_event('x', x * 32767 // w), tablet_event('y', y * 32767 // h)])
time.sleep(0.2)
qmp('input-send-event', events=[button_event(True)])
time.sleep(0.15)
qmp('input-send-event', events=[button_event(False)])
seen = wait_for('kiosk: Selected: Sunflower daisy', 10)
_, _, third = screendump()
changed = count_changed(second, third)
check('pointer click (QMP input-send-event) on a tile changes the screen', seen and changed > 1000, f'{changed} pixels changed, selection logged: {seen}')

def click(x, y):
    qmp('input-send-event', events=[tablet_event('x', x * 32767 // w), tablet_event('y', y * 32767 // h)])
    time.sleep(0.2)
    qmp('input-send-event', events=[button_event(True)])
    time.sleep(0.15)
    qmp('input-send-event', events=[button_event(False)])

def settle_match(expected, seconds):
    """Screendumps until one matches `expected` (the slide takes 0.3 s); returns the last."""
    deadline = time.time() + seconds
    while True:
        _, _, shot = screendump()
        bad, mean = differing(shot, expected, quantise=(mode == 'vesa'))
        if (bad <= w * h // 200 and mean < 2) or time.time() > deadline:
            return shot, bad, mean
        time.sleep(0.5)

# Navigation: Details pushes the fourth exhibit's screen; Escape pops back to the home screen.
if detail_reference and os.path.exists(detail_reference):
    click(433, 732)
    pushed = wait_for('kiosk: screen detail: Sunflower daisy', 10)
    _, _, dref = read_png(detail_reference)
    shot, bad, mean = settle_match(dref, 8)
    check('a tap on Details pushes the exhibit screen (matches the headless reference, differs from home)',
          pushed and bad <= w * h // 200 and mean < 2 and count_changed(third, shot) > 1000,
          f'pushed logged: {pushed}; {bad} of {w * h} pixels differ, mean |diff| {mean:.3f}')
    qmp('send-key', keys=[{'type': 'qcode', 'data': 'esc'}])
    home = wait_for('kiosk: screen home', 10)
    shot, bad, mean = settle_match(third, 8)
    check('Escape pops back to the home screen as it was', home and bad <= w * h // 200 and mean < 2,
          f'home logged: {home}; {bad} of {w * h} pixels differ, mean |diff| {mean:.3f}')

# SIGTERM: the console must come back in text mode, and the app exit cleanly.
guest.terminate_app()
restored = wait_for('back in text mode (KD_TEXT)', 10)
check('SIGTERM restores the console (serial log)', restored and 'console restored after terminated' in log_text(),
      next((l.strip() for l in log_text().splitlines() if 'console restored' in l), 'no "console restored" line'))
exited = wait_for('INIT app exit=', 10)
status = guest.app_exit_status()
check('app exits with status 0 after SIGTERM', exited and status == '0', f'exit status {status}')
sys.exit(0 if guest.all_passed() else 1)
