#!/usr/bin/env python3
"""Checks one QEMU guest running `silk demo kiosk --backend fbdev` (see fbdev.sh).

Usage: fbdev_check.py WORKDIR REFERENCE.png bochs|vesa [DETAIL-REFERENCE.png]
       fbdev_check.py WORKDIR REFERENCE.png kms REPO_ROOT   (the kiosk on --backend kms, see fbdev.sh)
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import os, sys, time
from fbdev_common import Guest, read_png, differing, count_changed, tablet_event, button_event, check_bench_json

work, reference, mode = sys.argv[1], sys.argv[2], sys.argv[3]
detail_reference = sys.argv[4] if len(sys.argv) > 4 and mode != 'kms' else None
guest = Guest(work, shot_prefix='shot', give_up_on_exit=True)
check, log_text, wait_for, qmp, screendump = guest.check, guest.log_text, guest.wait_for, guest.qmp, guest.screendump

if mode == 'kms':
    # --backend auto without WAYLAND_DISPLAY chooses KMS (before fbdev) and says why.
    wait_for('INIT auto exit=', 90)
    wait_for('INIT badmode exit=', 60)  # the auto line is complete (a long line reaches the serial log in pieces)
    line = next((l for l in log_text().splitlines() if l.startswith('INIT auto exit=')), '')
    check('--backend auto picks kms before fbdev and says why', line.startswith('INIT auto exit=0 ')
          and 'chose: WAYLAND_DISPLAY is not set; kms /dev/dri/card0' in line, line.strip()[:300] or 'no "INIT auto" line')
    # Bad input before the app: a mode the connector lacks is one line on stderr and exit 2.
    wait_for('INIT badmode exit=', 60)
    line = next((l for l in log_text().splitlines() if l.startswith('INIT badmode exit=')), '')
    check('--mode the connector lacks: exit 2 with one line naming the mode', line.startswith('INIT badmode exit=2 lines=1 ')
          and 'no mode 123x45' in line, line.strip()[:300])

ready = wait_for('silk demo: kiosk displayed', 45)
check('kiosk displayed on ' + ('/dev/dri/card0' if mode == 'kms' else '/dev/fb0'), ready, '' if ready else 'no "kiosk displayed" line')
text = log_text()
want = 'RGB565' if mode == 'vesa' else 'XRGB8888'
line = next((l for l in text.splitlines() if 'backend: ' in l), '')
if mode == 'kms':
    check('the backend is kms on /dev/dri/card0 with page flips', 'backend: kms /dev/dri/card0' in line and 'page flips' in line, line.strip()[:300])
    check('bochs-drm offers atomic modesetting: --kms-api auto uses it', 'atomic modesetting (primary plane' in line, line.strip()[:300])
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
guest.tablet_click(506, 536, w, h)
seen = wait_for('kiosk: Selected: Sunflower daisy', 10)
_, _, third = screendump()
changed = count_changed(second, third)
check('pointer click (QMP input-send-event) on a tile changes the screen', seen and changed > 1000, f'{changed} pixels changed, selection logged: {seen}')

def click(x, y):
    guest.tablet_click(x, y, w, h)

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

if mode == 'kms':
    check('SIGTERM restores the previous CRTC (serial log)', 'kms: restored CRTC' in log_text(),
          next((l.strip() for l in log_text().splitlines() if 'kms: restored CRTC' in l), 'no "restored CRTC" line'))
    # The console's own picture is back: mostly black, with tty1's light text in the top rows.
    def console_shown(what):
        aw, ah, after = screendump()
        black = sum(1 for i in range(0, len(after), 3) if max(after[i:i + 3]) < 40)
        top = after[:aw * 3 * 300]
        lit = sum(1 for i in range(0, len(top), 3) if min(top[i:i + 3]) > 120)
        check(f'screendump {what} shows the console text again at 1024x768', (aw, ah) == (1024, 768)
              and black > aw * ah * 0.8 and lit > 2000, f'{aw}x{ah}, {black} of {aw * ah} pixels black, {lit} light pixels in the top 300 rows')
    console_shown('after SIGTERM')
    guest.give_up_on_exit = False
    guest.send_ctl('bench')
    report = check_bench_json(guest, work, sys.argv[4], 'kms')
    if report is not None:
        scenes = {s['name']: s for s in report.get('scenes', [])}
        rows = []
        ok = report.get('backend') == 'kms'
        for n in ('layers-scroll',):
            m = scenes.get(n, {}).get('modes', {}).get('async', {})
            f = m.get('pageFlips')
            ok = ok and scenes.get(n, {}).get('status') == 'ok' and f is not None and f['flipsCompleted'] > 0 \
                and abs(f['framesPresented'] - f['flipsCompleted']) <= 1 and f['flipTimeouts'] == 0
            if f:
                rows.append(f"{n}: {m['frames']} frames, {f['framesPresented']} presented / {f['flipsCompleted']} flips, "
                            f"interval p50 {f['intervalMs']['p50']:.2f} ms, flip latency p50 {f['flipLatencyMs']['p50']:.3f} ms, "
                            f"vblank {f['vblankPaced']}")
        check('frames presented by page flips, every flip completed', ok, '; '.join(rows) + f", size {report.get('size')}")
    # The benchmark (which leaves the console in text mode) set the connector's preferred mode,
    # 1280x800 on bochs; each presenter's shutdown puts the console's mode back.
    bw, bh, _ = screendump()
    check("the console's 1024x768 mode is back after the benchmark used the preferred mode",
          (bw, bh) == (1024, 768) and report is not None and report.get('size') != [1024, 768], f"{bw}x{bh}, bench ran at {report.get('size') if report else '?'}")
    guest.send_ctl('kiosk')  # the guest waits for this word before starting the next kiosk
    # The kiosk at the preferred mode on three buffers (buffer age over three): the screen equals
    # the snapshot at 1280x800. Then a crash (SIGSEGV): the C guard restores the CRTC.
    shown = wait_for('INIT crash kiosk displayed', 60)
    rw2, rh2, ref2 = read_png(os.path.join(os.path.dirname(reference), 'reference-1280x800.png'))
    best = None
    for attempt in range(4):
        kw, kh, kiosk = screendump()
        if (kw, kh) != (rw2, rh2): break
        best = differing(kiosk, ref2)
        if best[0] <= kw * kh // 200 and best[1] < 2: break
        time.sleep(1)
    check('three buffers at the preferred 1280x800: screendump matches the snapshot', shown and best is not None
          and best[0] <= kw * kh // 200 and best[1] < 2,
          f'{kw}x{kh}' + (f', {best[0]} pixels differ by > 24, mean |diff| {best[1]:.3f}' if best else ''))
    guest.send_ctl('segv')
    wait_for('INIT crash exit=', 60)
    text = log_text()
    status = next((l.split('=')[1].strip() for l in text.splitlines() if l.startswith('INIT crash exit=')), '?')
    check('SIGSEGV: the fatal-signal guard restores the CRTC and the signal still kills the app',
          'INIT crash log: kms: previous CRTC restored after a fatal signal' in text and 'INIT crash log: silk demo: kiosk displayed' in text
          and status == '139', f'exit status {status}')
    check('--kms-api legacy: the three-buffer kiosk used legacy modesetting', 'dumb buffers, legacy modesetting, page flips' in text,
          next((l.strip() for l in text.splitlines() if 'INIT crash log: silk demo: backend:' in l), 'no backend line')[:300])
    cw, ch, _ = screendump()
    check("the console's 1024x768 mode is back after the crash", (cw, ch) == (1024, 768), f'{cw}x{ch}')
sys.exit(0 if guest.all_passed() else 1)
