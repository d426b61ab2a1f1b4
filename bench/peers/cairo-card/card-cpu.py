#!/usr/bin/env python3
"""Whole-process CPU (user + system, from wait4's rusage) of `silk snapshot card` against the
cairo + Pango program drawing the same card, and of each one's start-up (reaching main and
returning: `silk --version`, `cairo_card --noop`). Rounds alternate who goes first; medians.

  card-cpu.py SILK CAIRO_CARD ASSETS [ROUNDS]"""
import os, statistics, subprocess, sys, tempfile

silk, cairo, assets = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 15
out = tempfile.mkdtemp(prefix="card-cpu-")
env = dict(os.environ, SILK_ASSETS=assets, SILK_NO_FADE="1")

def cpu_ms(cmd):
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"card-cpu: {' '.join(cmd)} failed: {p.stderr.read().decode()[-400:]}")
    return (ru.ru_utime + ru.ru_stime) * 1000

cmds = {
    "silk snapshot card": [silk, "snapshot", "card", "--out", os.path.join(out, "silk.png")],
    "cairo + Pango card": [cairo, os.path.join(assets, "photos", "ladybird.jpg"), os.path.join(out, "cairo.png")],
    "silk start-up (--help)": [silk, "--help"],
    "cairo_card start-up (--noop)": [cairo, "--noop"],
}
times = {k: [] for k in cmds}
for r in range(rounds):
    order = list(cmds) if r % 2 == 0 else list(reversed(list(cmds)))
    for k in order:
        times[k].append(cpu_ms(cmds[k]))
med = {k: statistics.median(v) for k, v in times.items()}
print(f"whole-process CPU, median of {rounds} interleaved runs (ms; range in brackets); load {os.getloadavg()[0]:.1f}")
print("| | Silk | cairo + Pango | Silk ÷ cairo |")
print("|---|---|---|---|")
for name, a, b in (("card: decode, blur, text, PNG", "silk snapshot card", "cairo + Pango card"),
                   ("start-up: reach main and exit", "silk start-up (--help)", "cairo_card start-up (--noop)")):
    ra = f"{min(times[a]):.1f}–{max(times[a]):.1f}"; rb = f"{min(times[b]):.1f}–{max(times[b]):.1f}"
    print(f"| {name} | {med[a]:.1f} ({ra}) | {med[b]:.1f} ({rb}) | {med[a] / med[b]:.2f}× |")
print(f"PNGs: {out}/silk.png ({os.path.getsize(os.path.join(out, 'silk.png'))} bytes), "
      f"{out}/cairo.png ({os.path.getsize(os.path.join(out, 'cairo.png'))} bytes)")
