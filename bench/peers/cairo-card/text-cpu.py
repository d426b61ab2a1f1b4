#!/usr/bin/env python3
"""The card's two texts, shaped and drawn in process, Silk against Pango: `silk raster-bench
--only card --runs RUNS` (its title and description pieces) and `cairo_card --time-text RUNS`,
thread CPU time, cold (fonts open, no glyph rasterized) and warm (glyphs cached), as both define
it (RasterBenchCommand.cardFigures, cairo_card.c's time_text). ROUNDS interleaved rounds
alternating who goes first; each figure is the median over rounds of each round's median.

  text-cpu.py SILK CAIRO_CARD ASSETS [ROUNDS] [RUNS]"""
import os, re, statistics, subprocess, sys

silk, cairo, assets = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 51
env = dict(os.environ, SILK_ASSETS=assets, SILK_NO_FADE="1")
pair = re.compile(r"(title|description)[^:]*cold / warm glyphs:\s*([\d.]+) / ([\d.]+) ms")

def figures(cmd):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"text-cpu: {' '.join(cmd)} failed: {p.stderr[-400:]}")
    found = {}
    for name, cold, warm in pair.findall(p.stdout):
        found[(name, "cold")] = float(cold); found[(name, "warm")] = float(warm)
    if len(found) != 4:
        sys.exit(f"text-cpu: no title/description figures in the output of {' '.join(cmd)}:\n{p.stdout}")
    return found

cmds = {"silk": [silk, "raster-bench", "--only", "card", "--runs", str(runs)],
        "pango": [cairo, "--time-text", str(runs)]}
seen = {k: [] for k in cmds}
for r in range(rounds):
    for k in (list(cmds) if r % 2 == 0 else list(reversed(list(cmds)))):
        seen[k].append(figures(cmds[k]))
print(f"card text, in-process thread CPU: median over {rounds} interleaved rounds of medians of {runs} runs "
      f"(ms); load {os.getloadavg()[0]:.1f}")
print("| text | Silk | Pango | Silk ÷ Pango |")
print("|---|---|---|---|")
for name in ("title", "description"):
    for state in ("cold", "warm"):
        s = statistics.median(f[(name, state)] for f in seen["silk"])
        p = statistics.median(f[(name, state)] for f in seen["pango"])
        print(f"| {name}, {state} | {s:.3f} | {p:.3f} | {s / p:.2f}× |")
