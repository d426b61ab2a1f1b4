#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo controls --backend wayland` as a client of sway, touched
through a real kernel touchscreen (issue 17: the controls usable by touch under Wayland). In the
guest (fbdev.sh, app=wltouch) udevd tags the uinput touchscreen of Tests/e2e/tools/vtouch.c, seatd
gives sway's libinput backend the device, sway runs with WLR_BACKENDS=headless,libinput (one
1024x768 headless output, the touchscreen mapped onto it) and the demo is its client with
SILK_WAYLAND_DEBUG=1 (every input event it receives is a line). This checker writes taps and drags
in output pixels to the guest's second serial port; vtouch replays them, so they travel kernel →
libinput → sway → wl_touch → WaylandSeat → InputDispatcher → the control.

Usage: fbdev_wltouch_check.py WORKDIR
  1. sway's libinput backend takes the uinput device as a touch device (swaymsg -t get_inputs);
  2. the gallery is displayed as sway's client and prints where its controls are (window points);
  3. sway's tree has the demo's window fullscreen on the 1024x768 output: window points map to
     output pixels by the window's origin (read from the tree, not assumed);
  4. taps turn switch 0 on and off again, check checkbox 0, pick the segmented control's middle
     segment, set slider 1 (0…10 in steps) to 5 and switch to the dark theme; a drag along
     slider 0 raises it step by step; each as the demo's printed `controls: KIND INDEX VALUE` line;
  5. the events reached Silk as wl_touch (touchDown/touchMove/touchUp), not as pointer events
     (sway simulates a pointer for surfaces that do not take touch);
  6. the app logs no error, and SIGTERM ends it with status 0.
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import json, re, sys, time
from fbdev_common import Guest

work = sys.argv[1]
guest = Guest(work, shot_prefix='wltouch', give_up_on_exit=True)
check, log_text, wait_for = guest.check, guest.log_text, guest.wait_for
W, H = 1024, 768


def fail_hard(why):
    """Ends the run loudly: one FAIL line, sway's log from the guest and the serial log's tail."""
    check(why, False)
    guest.send_ctl('swaylog')
    time.sleep(2)
    print('\n'.join('    ' + l for l in log_text().splitlines()[-40:]))
    sys.exit(1)


# 1. sway started.
if not wait_for('INIT sway started', 60):
    fail_hard('sway started in the guest (no socket within 60 s)')
# 2. The demo displayed as sway's client.
shown = wait_for('controls: displayed;', 90)
backend = guest.line_with('backend:')
check('silk demo controls is displayed as a Wayland client of sway', shown and 'wayland' in backend, backend[:200])
if not shown:
    fail_hard('the controls gallery never said it was displayed')

# 3. sway's input devices: the touchscreen is there (sway adds libinput's devices some seconds
# after its socket appears under TCG; the demo binds wl_touch when the seat says it has touch).
def touch_device():
    n = log_text().count('INIT sway inputs end')
    guest.send_ctl('inputs')
    wait_for_count('INIT sway inputs end', n + 1, 15)
    block = log_text().split('INIT sway inputs end')[n]   # this answer's lines
    listed = ' | '.join(l.split('INIT sway input:', 1)[1].strip() for l in block.splitlines() if 'INIT sway input:' in l)
    m = re.search(r'Input device: Silk e2e vtouch \| Type: ([\w ]+?)(?: \||$)', listed)
    return (m.group(1) if m else None), listed


def wait_for_count(text, count, timeout):
    end = time.time() + timeout
    while time.time() < end and log_text().count(text) < count: time.sleep(0.1)
    return log_text().count(text) >= count


end = time.time() + 40
kind, listed = touch_device()
while kind is None and time.time() < end:
    time.sleep(1); kind, listed = touch_device()
check("sway's libinput backend takes the uinput touchscreen as a touch device", (kind or '').lower() == 'touch',
      listed[:300] or guest.line_with('INIT udev tagged'))
time.sleep(1)   # the seat's new capability reaches the demo, which binds wl_touch

where = {m.group(1): (int(m.group(2)), int(m.group(3)))
         for m in re.finditer(r'(\w+)=(\d+),(\d+)', guest.line_with('controls: displayed;'))}

# 4. Where the window is: sway's tree (window points are output pixels at scale 1 plus its origin).
guest.send_ctl('tree')
wait_for('INIT tree json end', 15)
body = log_text().split('INIT tree json begin', 1)[-1].split('INIT tree json end', 1)[0].strip()
views = []
try:
    def walk(n):
        if n.get('pid') and n.get('type') in ('con', 'floating_con'): views.append(n)
        for c in n.get('nodes', []) + n.get('floating_nodes', []): walk(c)
    walk(json.loads(body))
except ValueError as e:
    check("sway's tree parses (swaymsg -r -t get_tree)", False, f'{e}: {body[:200]!r}')
origin = None
if len(views) == 1:
    v = views[0]; r = v['rect']
    wr = v.get('window_rect') or {'x': 0, 'y': 0, 'width': r['width'], 'height': r['height']}
    origin = (r['x'] + wr['x'], r['y'] + wr['y'])
    size = (wr['width'], wr['height'])
    check("the demo's window is fullscreen on the 1024x768 headless output",
          v.get('fullscreen_mode') == 1 and size == (W, H) and origin == (0, 0),
          f"app_id {v.get('app_id')!r}, origin {origin}, size {size[0]}x{size[1]}, fullscreen_mode {v.get('fullscreen_mode')}")
else:
    check("sway's tree holds exactly one window (the demo)", False, f'{len(views)} windows')
if origin is None:
    fail_hard('no window to touch')


def screen(name, dx=0):
    """Output pixel of a control's centre (dx points to its right), from the window's origin."""
    x, y = where[name]
    return min(max(origin[0] + x + dx, 0), W - 1), min(max(origin[1] + y, 0), H - 1)


def lines(prefix):
    return [l.strip() for l in log_text().splitlines() if l.strip().startswith(prefix)]


def tap_expect(name, prefix, want, label, dx=0):
    """Taps control `name`'s centre; passes when a new `prefix …` line says `want`."""
    before = len(lines(prefix))
    x, y = screen(name, dx)
    replayed = guest.vtouch(f'tap {x} {y}')
    end = time.time() + 10
    while time.time() < end and len(lines(prefix)) <= before: time.sleep(0.1)
    new = lines(prefix)[before:]
    ok = replayed and bool(new) and new[-1] == f'{prefix} {want}'.strip()
    check(label, ok, f'tap at {x},{y}: ' + ('; '.join(new) if new else ('no new "' + prefix + '" line' if replayed else 'vtouch did not replay it')))
    time.sleep(0.4)   # the switch's slide and the toast; the next tap is a new gesture
    return ok


missing = [k for k in ('switch0', 'checkbox0', 'segmented', 'slider0', 'slider1', 'theme') if k not in where]
if missing:
    fail_hard(f'the displayed line names no {", ".join(missing)}')

# 5. Taps and a drag, each answered by the demo's own line.
tap_expect('switch0', 'controls: switch 0', 'on', 'a tap on switch 0 turns it on')
tap_expect('switch0', 'controls: switch 0', 'off', 'a second tap on switch 0 turns it off again')
tap_expect('checkbox0', 'controls: checkbox 0', 'checked', 'a tap on checkbox 0 (Wi-Fi) checks it')
tap_expect('segmented', 'controls: segmented 0', 'Week', "a tap on the segmented control's middle segment picks Week")
tap_expect('slider1', 'controls: slider 1', '5.00', 'a tap at the middle of slider 1 (0…10, steps of 1) sets it to 5')

before = len(lines('controls: slider 0'))
x0, y0 = screen('slider0')
replayed = guest.vtouch(f'drag {x0} {y0} {min(x0 + 200, W - 1)} {y0} 20 40', timeout=15)
time.sleep(0.5)
values = [float(l.split()[-1]) for l in lines('controls: slider 0')[before:]]
rising = len(values) >= 3 and all(b >= a for a, b in zip(values, values[1:])) and values[-1] > values[0]
check('a touch drag along slider 0 moves it step by step to above 0.6', replayed and rising and values[-1] > 0.6,
      f'{len(values)} values: {values[:3]}…{values[-1:]}' if values else 'no "controls: slider 0" line')

tap_expect('theme', 'controls: theme', 'dark', 'a tap on the theme switch turns the gallery dark')

# 6. As wl_touch, not a simulated pointer.
events = lines('wayland input:')
downs = sum('touchDown' in l for l in events)
moves = sum('touchMove' in l for l in events)
ups = sum('touchUp' in l for l in events)
presses = sum('pointerDown' in l or 'pointerUp' in l for l in events)
check('the events reached Silk as wl_touch (down, motion, up), not as a pointer sway simulates',
      downs >= 7 and ups == downs and moves >= 10 and presses == 0,
      f'touchDown {downs}, touchMove {moves}, touchUp {ups}, pointer presses {presses}')

# 7. Clean run and exit.
errors = [l.strip() for l in log_text().splitlines()
          if re.search(r'error|fatal|cannot|failed', l, re.I) and not l.startswith('INIT')]
check('the app logs no error', not errors, '; '.join(errors[:3]))
guest.check_terminated('SIGTERM ends the app with status 0')
if not guest.all_passed():   # the init prints the end of sway's log once the app is gone
    wait_for('INIT done', 30)
    print('\n'.join('    ' + l for l in log_text().splitlines() if 'INIT sway' in l))
sys.exit(0 if guest.all_passed() else 1)
