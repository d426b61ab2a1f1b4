#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo kiosk --backend fbdev` (see fbdev.sh).

Usage: fbdev_check.py WORKDIR REFERENCE.png bochs|vesa
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import json, os, socket, struct, sys, time, zlib

work, reference, mode = sys.argv[1], sys.argv[2], sys.argv[3]
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
        t = log_text()
        if text in t: return True
        if 'INIT app exit' in t and 'INIT app exit' not in text: return False
        time.sleep(0.1)
    return False

def read_png(path):
    """8-bit RGB/RGBA non-interlaced PNG → (w, h, rows of RGB bytes)."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
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
    d = open(path, 'rb').read()
    parts = d.split(b'\n', 3)  # P6 / W H / 255 / data
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
    path = os.path.join(work, f'shot{shots}.ppm')
    if os.path.exists(path): os.remove(path)
    time.sleep(0.3)  # DRM's fbdev emulation flushes dirty pages to the display lazily
    qmp('screendump', filename=path)
    for _ in range(50):
        if os.path.exists(path) and os.path.getsize(path) > 0: break
        time.sleep(0.05)
    qmp('screendump', filename=path[:-4] + '.png', format='png')
    return read_ppm(path)

def differing(a, b, quantise=False, tolerance=24):
    """(pixels whose largest channel difference exceeds tolerance, mean absolute difference)."""
    n, total, bad = len(a) // 3, 0, 0
    shifts = (3, 2, 3) if quantise else (0, 0, 0)
    for i in range(n):
        worst = 0
        for c in range(3):
            x, y = a[3 * i + c] >> shifts[c], b[3 * i + c] >> shifts[c]
            dd = abs(x - y) << shifts[c]
            total += dd
            if dd > worst: worst = dd
        if worst > tolerance: bad += 1
    return bad, total / (3 * n)

def count_changed(a, b):
    return sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])

ready = wait_for('silk demo: kiosk displayed', 45)
check('kiosk displayed on /dev/fb0', ready, '' if ready else 'no "kiosk displayed" line')
text = log_text()
want = 'XRGB8888' if mode == 'bochs' else 'RGB565'
line = next((l for l in text.splitlines() if 'backend: ' in l), '')
check(f'start-up report names the {want} format, pacing and console', want in line and 'paced by' in line and 'console: /dev/tty' in line, line.strip()[:300])
if not ready:
    print('\n'.join(text.splitlines()[-30:])); sys.exit(1)

q = socket.socket(socket.AF_UNIX); q.connect(os.path.join(work, 'qmp.sock')); q.makefile('r').readline()
qmp('qmp_capabilities')

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
def abs_event(axis, v): return {'type': 'abs', 'data': {'axis': axis, 'value': v}}
qmp('input-send-event', events=[abs_event('x', x * 32767 // w), abs_event('y', y * 32767 // h)])
time.sleep(0.2)
qmp('input-send-event', events=[{'type': 'btn', 'data': {'down': True, 'button': 'left'}}])
time.sleep(0.15)
qmp('input-send-event', events=[{'type': 'btn', 'data': {'down': False, 'button': 'left'}}])
seen = wait_for('kiosk: Selected: Sunflower daisy', 10)
_, _, third = screendump()
changed = count_changed(second, third)
check('pointer click (QMP input-send-event) on a tile changes the screen', seen and changed > 1000, f'{changed} pixels changed, selection logged: {seen}')

# SIGTERM: the console must come back in text mode, and the app exit cleanly.
c = socket.socket(socket.AF_UNIX); c.connect(os.path.join(work, 'ctl.sock')); c.sendall(b'term\n')
restored = wait_for('back in text mode (KD_TEXT)', 10)
check('SIGTERM restores the console (serial log)', restored and 'console restored after terminated' in log_text(),
      next((l.strip() for l in log_text().splitlines() if 'console restored' in l), 'no "console restored" line'))
exited = wait_for('INIT app exit=', 10)
status = next((l.split('=')[1].strip() for l in log_text().splitlines() if 'INIT app exit=' in l), '?')
check('app exits with status 0 after SIGTERM', exited and status == '0', f'exit status {status}')
sys.exit(0 if all(results) else 1)
