#!/usr/bin/env python3
"""Checks one QEMU guest running `silk bench --backend fbdev --quick` on its /dev/fb0 (fbdev.sh).

Usage: fbdev_bench_check.py WORKDIR REPO_ROOT
Prints PASS/FAIL lines; the exit status is 0 when every check passed."""
import json, os, subprocess, sys, time
from fbdev_common import Guest

work, root = sys.argv[1], sys.argv[2]
guest = Guest(work)
check, log_text = guest.check, guest.log_text

end = time.time() + 85
while time.time() < end and 'INIT bench json end' not in log_text():
    time.sleep(0.2)
text = log_text()
exit_line = next((l for l in text.splitlines() if l.startswith('INIT bench exit=')), '')
check('silk bench --backend fbdev exits 0 in the VM', exit_line == 'INIT bench exit=0', exit_line or 'no exit line')
report = None
if 'INIT bench json begin' in text and 'INIT bench json end' in text:
    body = text.split('INIT bench json begin', 1)[1].split('INIT bench json end', 1)[0].strip()
    path = os.path.join(work, 'bench.json')
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
if report is not None:
    scenes = {s['name']: s for s in report.get('scenes', [])}
    ok = report.get('backend') == 'fbdev' and all(
        scenes.get(n, {}).get('status') == 'ok' and scenes[n]['modes']['async']['frames'] > 0
        and scenes[n]['modes']['async']['presentMs']['p50'] > 0
        for n in ('layers-scroll', 'rainforest-scroll'))
    detail = ', '.join(f"{n}: {scenes[n]['modes']['async']['frames']} frames, present p50 "
                       f"{scenes[n]['modes']['async']['presentMs']['p50']:.2f} ms"
                       for n in ('layers-scroll', 'rainforest-scroll') if n in scenes and 'modes' in scenes[n])
    check('frames presented on /dev/fb0 with present times', ok, detail + f", size {report.get('size')}")
sys.exit(0 if guest.all_passed() else 1)
