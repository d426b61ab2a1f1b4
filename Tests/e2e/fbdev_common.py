"""What the QEMU guest checkers (fbdev_check.py, fbdev_form_check.py, fbdev_bench_check.py) share:
PASS/FAIL bookkeeping, the guest's serial log, QMP (screendump, key and pointer events) and a
dependency-free PNG/PPM reader for comparing screendumps with headless references."""
import json, os, socket, struct, time, zlib


class Guest:
    """One VM's working directory (serial.log, qmp.sock, ctl.sock) as fbdev.sh lays it out.

    give_up_on_exit: wait_for stops waiting once the init script logged the app's exit (unless
    that line is what it waits for) — for checkers whose app must still be running."""

    def __init__(self, work, shot_prefix='shot', give_up_on_exit=False):
        self.work, self.shot_prefix, self.give_up_on_exit = work, shot_prefix, give_up_on_exit
        self.serial = os.path.join(work, 'serial.log')
        self.results, self.shots, self.q = [], 0, None

    def check(self, name, ok, detail=''):
        self.results.append(ok)
        print(('PASS ' if ok else 'FAIL ') + name + (f' ({detail})' if detail else ''), flush=True)

    def all_passed(self):
        return bool(self.results) and all(self.results)

    def log_text(self):
        try:
            return open(self.serial, errors='replace').read()
        except FileNotFoundError:
            return ''

    def wait_for(self, text, timeout):
        end = time.time() + timeout
        while time.time() < end:
            t = self.log_text()
            if text in t: return True
            if self.give_up_on_exit and 'INIT app exit' in t and 'INIT app exit' not in text: return False
            time.sleep(0.1)
        return False

    def connect_qmp(self):
        self.q = socket.socket(socket.AF_UNIX)
        self.q.connect(os.path.join(self.work, 'qmp.sock'))
        self.q.makefile('r').readline()   # the greeting
        self.qmp('qmp_capabilities')

    def qmp(self, cmd, **args):
        f = self.q.makefile('rw')
        f.write(json.dumps({'execute': cmd, 'arguments': args}) + '\n'); f.flush()
        while True:
            r = json.loads(f.readline())
            if 'return' in r or 'error' in r: return r

    def screendump(self):
        """The guest's screen as (w, h, RGB bytes); a PNG copy is kept beside the PPM."""
        self.shots += 1
        path = os.path.join(self.work, f'{self.shot_prefix}{self.shots}.ppm')
        if os.path.exists(path): os.remove(path)
        time.sleep(0.3)  # DRM's fbdev emulation flushes dirty pages to the display lazily
        self.qmp('screendump', filename=path)
        for _ in range(50):
            if os.path.exists(path) and os.path.getsize(path) > 0: break
            time.sleep(0.05)
        self.qmp('screendump', filename=path[:-4] + '.png', format='png')
        return read_ppm(path)

    def line_with(self, text):
        """The first serial-log line containing `text` (stripped), or a note that there is none."""
        return next((l.strip() for l in self.log_text().splitlines() if text in l), f'no "{text}" line')

    def tablet_click(self, x, y, w, h):
        """A left click of the virtio tablet at panel pixel (x, y) of a w×h screen (0…32767 axes)."""
        self.qmp('input-send-event', events=[tablet_event('x', x * 32767 // w), tablet_event('y', y * 32767 // h)])
        time.sleep(0.2)
        self.qmp('input-send-event', events=[button_event(True)])
        time.sleep(0.15)
        self.qmp('input-send-event', events=[button_event(False)])

    def terminate_app(self):
        """Asks the guest's init (ctl.sock) to send the app SIGTERM."""
        self.send_ctl('term')

    def send_ctl(self, word):
        """Writes one line to the guest's second serial port, where its init reads commands.

        The guest's 16550 takes 16 bytes at a time and QEMU drops what it has not read yet when
        the socket closes at once (seen: "tap 50 1drag 259term"), so the socket stays open for a
        second after the line."""
        c = socket.socket(socket.AF_UNIX); c.connect(os.path.join(self.work, 'ctl.sock')); c.sendall(word.encode() + b'\n')
        time.sleep(1.0)
        c.close()

    def vtouch(self, cmd, timeout=10):
        """Has the guest's vtouch (Tests/e2e/tools/vtouch.c) replay one command ("tap X Y",
        "drag X0 Y0 X1 Y1 STEPS MS"); True once it says it is done."""
        n = self.log_text().count('vtouch: done ')
        self.send_ctl(cmd)
        end = time.time() + timeout
        while time.time() < end and self.log_text().count('vtouch: done ') <= n: time.sleep(0.1)
        return self.log_text().count('vtouch: done ') > n

    def check_terminated(self, name, console=False, crtc=False, timeout=15):
        """The checkers' common tail: SIGTERM to the app, then one check named `name` that it exits
        with status 0 — after its console is back in text mode (`console`: the KD_TEXT line) and
        with the previous CRTC restored (`crtc`: the KMS log line). Returns whether it passed."""
        self.terminate_app()
        restored = self.wait_for('back in text mode (KD_TEXT)', timeout) if console else True
        exited = self.wait_for('INIT app exit=', timeout)
        status = self.app_exit_status()
        crtc_ok = not crtc or 'kms: restored CRTC' in self.log_text()
        detail = f'exit status {status}'
        if console and not restored: detail += '; console not back in text mode'
        if crtc: detail += '; ' + self.line_with('kms: restored CRTC')[:150]
        ok = restored and exited and status == '0' and crtc_ok
        self.check(name, ok, detail)
        return ok

    def app_exit_status(self):
        return next((l.split('=')[1].strip() for l in self.log_text().splitlines() if 'INIT app exit=' in l), '?')


def check_bench_json(guest, work, root, backend, timeout=85, tag='bench'):
    """Waits for the guest's `silk bench --json` output between the INIT markers (`INIT TAG exit=`,
    `INIT TAG json begin` … `end`; a guest running several benchmarks tags each), checks its exit
    status and validates it against docs/benchmark.schema.json; returns the parsed report (or
    None). The caller checks the figures."""
    import subprocess, sys
    check, log_text = guest.check, guest.log_text
    end = time.time() + timeout
    while time.time() < end and f'INIT {tag} json end' not in log_text():
        time.sleep(0.2)
    text = log_text()
    exit_line = next((l for l in text.splitlines() if l.startswith(f'INIT {tag} exit=')), '')
    check(f'silk bench --backend {backend} exits 0 in the VM', exit_line == f'INIT {tag} exit=0', exit_line or 'no exit line')
    report = None
    if f'INIT {tag} json begin' in text and f'INIT {tag} json end' in text:
        body = text.split(f'INIT {tag} json begin', 1)[1].split(f'INIT {tag} json end', 1)[0].strip()
        path = os.path.join(work, f'{tag}.json')
        open(path, 'w').write(body)
        try:
            report = json.loads(body)
        except ValueError as e:
            check('bench JSON parses', False, str(e))
        if report is not None:
            v = subprocess.run([sys.executable, os.path.join(root, 'scripts/validate-bench-json.py'), path],
                               capture_output=True, text=True)
            check('bench JSON validates against docs/benchmark.schema.json', v.returncode == 0,
                  (v.stdout + v.stderr).strip().splitlines()[-1] if (v.stdout + v.stderr).strip() else '')
    return report


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
    parts = open(path, 'rb').read().split(b'\n', 3)  # P6 / W H / 255 / data
    w, h = map(int, parts[1].split())
    return w, h, parts[3][:w * h * 3]


def differing(a, b, quantise=False, tolerance=24):
    """(pixels whose largest channel difference exceeds tolerance, mean absolute difference).
    quantise compares at RGB565 precision (a 16-bit framebuffer against a 32-bit reference)."""
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


def tablet_event(axis, v):
    """A virtio-tablet absolute axis event for QMP input-send-event (0…32767 over the screen)."""
    return {'type': 'abs', 'data': {'axis': axis, 'value': v}}


def button_event(down):
    return {'type': 'btn', 'data': {'down': down, 'button': 'left'}}
