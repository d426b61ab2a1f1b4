#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo form --backend fbdev` with the on-screen keyboard
forced on (SILK_OSK=always) and the us(intl) layout, whose apostrophe is a dead acute (see fbdev.sh).

Usage: fbdev_form_check.py WORKDIR REFERENCE.png
  1. the on-screen keyboard shows, and prints where its keys are;
  2. taps on its keys (QEMU's virtio tablet: QEMU 7.2 has no multitouch device, so a tap is an
     absolute pointer press, which Silk treats as a touch) type "Ada" into the name field;
  3. QMP send-key: Tab, then z o ' e (dead acute + e → é) @ x . o r g into the e-mail field;
  4. Tab, then taps on the PIN pad the PIN field asks for type 1234;
  5. the screendump matches the headless reference of the same form filled from code;
  6. Enter submits; SIGTERM restores the console and the app exits 0.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import re, sys, time
from fbdev_common import Guest, read_png, differing, tablet_event, button_event

work, reference = sys.argv[1], sys.argv[2]
guest = Guest(work, shot_prefix='form')
check, log_text, wait_for, qmp, screendump = guest.check, guest.log_text, guest.wait_for, guest.qmp, guest.screendump

def key_map():
    """The newest 'form: keys label=x,y …' line as {label: (x, y)}."""
    lines = [l for l in log_text().splitlines() if 'form: keys ' in l]
    if not lines: return {}
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(r'(\S+)=(\d+),(\d+)', lines[-1])}

W, H = 1024, 768
def tap(label, keys):
    x, y = keys[label]
    qmp('input-send-event', events=[tablet_event('x', x * 32767 // W), tablet_event('y', y * 32767 // H)])
    time.sleep(0.1)
    qmp('input-send-event', events=[button_event(True)])
    time.sleep(0.1)
    qmp('input-send-event', events=[button_event(False)])
    time.sleep(0.45)   # longer than a double tap: each tap is a first tap

def send(*keys):
    qmp('send-key', keys=[{'type': 'qcode', 'data': k} for k in keys])
    time.sleep(0.12)

shown = wait_for('form: keys ', 45)
check('on-screen keyboard shown on /dev/fb0 with the name field focused',
      shown and 'form: keyboard shown' in log_text() and 'form: editing name' in log_text())
if not shown:
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
guest.connect_qmp()

keys = key_map()
for k in ['shift', 'a', 'd', 'a']: tap(k, keys)
ok = wait_for('form: name "Ada"', 5)
check('taps on the on-screen keyboard (shift, a, d, a) type "Ada"', ok,
      next((l for l in reversed(log_text().splitlines()) if 'form: name' in l), 'no name line'))

send('tab')
for k in ['z', 'o', 'apostrophe', 'e']: send(k)
send('shift', '2')
for k in ['x', 'dot', 'o', 'r', 'g']: send(k)
ok = wait_for('form: editing email', 3) and wait_for('form: email "zoé@x.org"', 5)
check("QMP send-key: Tab, then z o ' e @ x . o r g types zoé@x.org (dead acute composed)", ok,
      next((l for l in reversed(log_text().splitlines()) if 'form: email' in l), 'no e-mail line'))

send('tab')
focused = wait_for('form: editing pin', 3)
# The PIN field asks for the PIN pad (its key map, with digits, is printed when it shows); a
# keyboard without one would need its symbols page first.
end = time.time() + 5
while '1' not in key_map() and time.time() < end: time.sleep(0.1)
if '1' not in key_map() and 'symbols' in keys:
    tap('symbols', keys)
    end = time.time() + 5
    while '1' not in key_map() and time.time() < end: time.sleep(0.1)
digits = key_map()
for k in ['1', '2', '3', '4']:
    if k in digits: tap(k, digits)
if 'letters' in digits: tap('letters', digits)
ok = focused and wait_for('form: pin 4 digits', 5)
check('Tab to the PIN, taps on the PIN pad type 4 digits', ok,
      next((l for l in reversed(log_text().splitlines()) if 'form: pin' in l), 'no pin line'))

rw, rh, ref = read_png(reference)
best = None
for attempt in range(4):
    w, h, shot = screendump()
    if (w, h) != (rw, rh): break
    best = differing(shot, ref)
    if best[0] <= w * h // 200 and best[1] < 2: break
    time.sleep(1)
ok = (w, h) == (rw, rh) and best is not None and best[0] <= w * h // 200 and best[1] < 2
detail = f'{w}x{h} vs {rw}x{rh}' if (w, h) != (rw, rh) else f'{best[0]} of {w * h} pixels differ by > 24, mean |diff| {best[1]:.3f}'
check('screendump (typed text, keyboard) matches the headless reference filled from code', ok, detail)

send('ret')
ok = wait_for('form: submitted name="Ada" email="zoé@x.org" pin=4 digits', 5)
check('Enter (send-key) in the PIN submits the form', ok)

guest.check_terminated('SIGTERM restores the console and the form exits 0', console=True, timeout=10)
sys.exit(0 if guest.all_passed() else 1)
