#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo form --backend fbdev` with the on-screen keyboard
forced on (SILK_OSK=always) and the us(intl) layout, whose apostrophe is a dead acute (see fbdev.sh).

Usage: fbdev_form_check.py WORKDIR REFERENCE.png
  1. the on-screen keyboard shows, and prints where its keys are;
  2. taps on its keys (QEMU's virtio tablet: QEMU 7.2 has no multitouch device, so a tap is an
     absolute pointer press, which Silk treats as a touch) type "Ada" into the name field;
  3. QMP send-key: Tab, then z o ' e (dead acute + e → é) @ x . o r g into the e-mail field;
  4. Tab, then taps on the symbols page type the PIN 1234;
  5. the screendump matches the headless reference of the same form filled from code;
  6. Enter submits; SIGTERM restores the console and the app exits 0.
Prints PASS/FAIL lines; the exit status is 0 when every check passed. (The helpers repeat
fbdev_check.py's, which runs its checks at import.)"""
import json, os, re, socket, struct, sys, time, zlib

work, reference = sys.argv[1], sys.argv[2]
serial = os.path.join(work, 'serial.log')
results = []

def check(name, ok, detail=''):
    results.append(ok)
    print(('PASS ' if ok else 'FAIL ') + name + (f' ({detail})' if detail else ''), flush=True)

def log_text():
    try:
        return open(serial, errors='replace').read()
    except FileNotFoundError:
        return ''

def wait_for(text, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if text in log_text(): return True
        time.sleep(0.1)
    return False

def read_png(path):
    data = open(path, 'rb').read()
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT': idat += body
    raw = zlib.decompress(idat); stride = w * bpp; prev = bytearray(stride); rows = []; o = 0
    for _ in range(h):
        f = raw[o]; line = bytearray(raw[o + 1:o + 1 + stride]); o += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
    return w, h, b''.join(rows)

def read_ppm(path):
    parts = open(path, 'rb').read().split(b'\n', 3)
    w, h = map(int, parts[1].split())
    return w, h, parts[3][:w * h * 3]

q = None
def qmp(cmd, **args):
    f = q.makefile('rw')
    f.write(json.dumps({'execute': cmd, 'arguments': args}) + '\n'); f.flush()
    while True:
        r = json.loads(f.readline())
        if 'return' in r or 'error' in r: return r

shots = 0
def screendump():
    global shots
    shots += 1
    path = os.path.join(work, f'form{shots}.ppm')
    if os.path.exists(path): os.remove(path)
    time.sleep(0.3)
    qmp('screendump', filename=path)
    for _ in range(50):
        if os.path.exists(path) and os.path.getsize(path) > 0: break
        time.sleep(0.05)
    qmp('screendump', filename=path[:-4] + '.png', format='png')
    return read_ppm(path)

def differing(a, b, tolerance=24):
    n, total, bad = len(a) // 3, 0, 0
    for i in range(n):
        worst = max(abs(a[3 * i + c] - b[3 * i + c]) for c in range(3))
        total += sum(abs(a[3 * i + c] - b[3 * i + c]) for c in range(3))
        if worst > tolerance: bad += 1
    return bad, total / (3 * n)

def key_map():
    """The newest 'form: keys label=x,y …' line as {label: (x, y)}."""
    lines = [l for l in log_text().splitlines() if 'form: keys ' in l]
    if not lines: return {}
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(r'(\S+)=(\d+),(\d+)', lines[-1])}

W, H = 1024, 768
def tap(label, keys):
    x, y = keys[label]
    ev = lambda axis, v: {'type': 'abs', 'data': {'axis': axis, 'value': v}}
    qmp('input-send-event', events=[ev('x', x * 32767 // W), ev('y', y * 32767 // H)])
    time.sleep(0.1)
    qmp('input-send-event', events=[{'type': 'btn', 'data': {'down': True, 'button': 'left'}}])
    time.sleep(0.1)
    qmp('input-send-event', events=[{'type': 'btn', 'data': {'down': False, 'button': 'left'}}])
    time.sleep(0.45)   # longer than a double tap: each tap is a first tap

def send(*keys):
    qmp('send-key', keys=[{'type': 'qcode', 'data': k} for k in keys])
    time.sleep(0.12)

shown = wait_for('form: keys ', 45)
check('on-screen keyboard shown on /dev/fb0 with the name field focused',
      shown and 'form: keyboard shown' in log_text() and 'form: editing name' in log_text())
if not shown:
    print('\n'.join(log_text().splitlines()[-30:])); sys.exit(1)
q = socket.socket(socket.AF_UNIX); q.connect(os.path.join(work, 'qmp.sock')); q.makefile('r').readline()
qmp('qmp_capabilities')

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
tap('symbols', keys)
end = time.time() + 5
while '1' not in key_map() and time.time() < end: time.sleep(0.1)
digits = key_map()
for k in ['1', '2', '3', '4']:
    if k in digits: tap(k, digits)
tap('letters', digits)
ok = focused and wait_for('form: pin 4 digits', 5)
check('Tab to the PIN, taps on the symbols page type 4 digits', ok,
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

c = socket.socket(socket.AF_UNIX); c.connect(os.path.join(work, 'ctl.sock')); c.sendall(b'term\n')
restored = wait_for('back in text mode (KD_TEXT)', 10)
exited = wait_for('INIT app exit=', 10)
status = next((l.split('=')[1].strip() for l in log_text().splitlines() if 'INIT app exit=' in l), '?')
check('SIGTERM restores the console and the form exits 0', restored and exited and status == '0', f'exit status {status}')
sys.exit(0 if all(results) else 1)
