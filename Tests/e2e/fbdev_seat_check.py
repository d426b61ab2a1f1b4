#!/usr/bin/env python3
"""Checks the kms-seatd guest (see fbdev.sh): seatd runs as root, the kiosk runs as the
unprivileged user `silk` (uid 1000, no access to /dev/dri/card0 or /dev/input/event*) on
`--backend kms --seat libseat`, opening the card and the input devices through seatd.

Usage: fbdev_seat_check.py WORKDIR REFERENCE.png
  1. the kiosk is displayed through `seatd seat0` by uid 1000 and matches the headless snapshot;
  2. a key (→, QMP send-key) reaches it (input opened through the seat);
  3. `chvt 2` (the guest's init, on the host's word): the app logs that it paused, and the screen
     shows tty2's console text instead of the kiosk;
  4. `chvt 1`: the app sets the mode again and repaints: the screen equals the kiosk after step 2;
  5. SIGTERM: exit status 0, the CRTC restored.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import sys
from fbdev_common import Guest, read_png, differing, count_changed

work, reference = sys.argv[1], sys.argv[2]
guest = Guest(work, shot_prefix='shot', give_up_on_exit=True)
check, log_text, wait_for, qmp, screendump = guest.check, guest.log_text, guest.wait_for, guest.qmp, guest.screendump

line_with = guest.line_with

# --wait-for-display before the seat: a connector bochs lacks is waited for, and SIGTERM ends it.
wait_for('INIT wait exit=', 90)
wait_for('INIT seatd socket', 30)   # the wait line is complete
wline = line_with('INIT wait exit=')
check('--wait-for-display waits for a connector that is not there (one line) and SIGTERM ends the wait',
      'waiting-lines=1' in wline and 'INIT wait exit=0 ' not in wline and 'waiting for a display (signal 15)' in wline, wline[:300])

ready = wait_for('silk demo: kiosk displayed', 120)
check('kiosk displayed through the seat', ready, line_with('backend: '))
if not ready:
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
line = line_with('backend: ')
check('the card is opened through seatd seat0, atomic modesetting (start-up report)', 'backend: kms /dev/dri/card0 (through seatd seat0)' in line
      and 'seat: seatd seat0' in line and 'atomic modesetting' in line, line[:300])
wait_for('INIT seat app uid=', 10)
uid = line_with('INIT seat app uid=')
check('the app runs as the unprivileged user (uid 1000, no access to the card or input nodes)',
      'uid=1000' in uid and 'direct=denied' in uid, uid)

guest.connect_qmp()
rw, rh, ref = read_png(reference)
def matches(expected, tries=6):
    best = None
    for _ in range(tries):
        w, h, shot = screendump()
        if (w, h) != (rw, rh): return False, f'{w}x{h} vs {rw}x{rh}', shot
        bad, mean = differing(shot, expected)
        best = (bad, mean, shot)
        if bad <= w * h // 200 and mean < 2: return True, f'{bad} pixels differ, mean {mean:.3f}', shot
    return False, f'{best[0]} of {rw * rh} pixels differ by > 24, mean |diff| {best[1]:.3f}', best[2]

ok, detail, first = matches(ref)
check('screendump matches the headless snapshot', ok, detail)

qmp('send-key', keys=[{'type': 'qcode', 'data': 'right'}])
seen = wait_for('kiosk: Selected: Monsoon leaves', 15)
_, _, second = screendump()
changed = count_changed(first, second)
check('key → reaches the app through the seat and changes the screen', seen and changed > 1000,
      f'{changed} pixels changed, selection logged: {seen}')

guest.send_ctl('chvt2')
paused = wait_for('seat: switched away', 20)
check('chvt 2: the app pauses rendering and input (acknowledged to seatd)', paused, line_with('seat: switched away'))
wait_for('INIT chvt 2 done', 10)
_, _, away = screendump()
changed = count_changed(second, away)
black = sum(1 for i in range(0, len(away), 3) if max(away[i:i + 3]) < 40)
check('chvt 2: the screen shows the console (tty2), not the kiosk', changed > rw * rh // 2 and black > rw * rh * 0.8,
      f'{changed} pixels differ from the kiosk, {black} black')

guest.send_ctl('chvt1')
back = wait_for('seat: active again', 20)
check('chvt 1: the app is enabled again and sets the mode', back and 'kms: seat enabled: mode' in log_text(),
      line_with('seat: active again'))
ok, detail, again = matches(second, tries=10)
check('chvt 1: the kiosk is repainted (screendump equals the one before the switch)', ok, detail)

qmp('send-key', keys=[{'type': 'qcode', 'data': 'right'}])
seen = wait_for('kiosk: Selected: Leaf veins', 15)   # the tile after Monsoon leaves
check('after switching back, input reaches the app again (devices reopened through the seat)', seen,
      line_with('kiosk: Selected: Leaf veins'))

guest.check_terminated('SIGTERM: exit status 0 and the CRTC restored', crtc=True)
sys.exit(0 if guest.all_passed() else 1)
