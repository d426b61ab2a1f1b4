#!/usr/bin/env python3
"""Medians over the rounds of run.sh: Silk (async and sync) against the Qt Quick software peer
(and its variants) and the GTK 4 cairo peer. Usage: summarize.py OUTDIR"""
import glob, json, os, re, statistics, sys

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/peer-scroll-results"

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")

def rng(xs):
    xs = [x for x in xs if x is not None]
    return f"{min(xs):.2f}–{max(xs):.2f}" if xs else "-"

rows = []  # (label, runs: list of dicts with fps, cpuPerFrame, mainP50, mainP99, rss, missed, extra)

def silk_runs(mode, prefix="silk"):
    runs = []
    for p in sorted(glob.glob(os.path.join(out, prefix + "-[0-9]*.json"))):
        d = json.load(open(p))
        m = d["scenes"][0]["modes"][mode]
        runs.append(dict(fps=m["fps"], cpu=m["cpuMs"] / max(1, m["frames"]), p50=m["mainBusyMs"]["p50"],
                         p99=m["mainBusyMs"]["p99"], rss=m["peakRSSMB"], missed=m["missedFrames"],
                         frames=m["frames"], comp=m["compositeMs"]["p50"], frame50=m["frameMs"]["p50"],
                         frame99=m["frameMs"]["p99"], load=d["machine"].get("loadAverage")))
    return runs

def peer_runs(prefix):
    runs = []
    for p in sorted(glob.glob(os.path.join(out, prefix + "-[0-9]*.json"))):
        d = json.load(open(p))
        runs.append(dict(fps=d["fps"], cpu=d["cpuMsPerFrame"], p50=d["mainBusyMs"]["p50"], p99=d["mainBusyMs"]["p99"],
                         rss=d["peakRSSMB"], missed=d["missedFrames"], frames=d["frames"],
                         comp=d.get("renderMs", {}).get("p50"), frame50=None, frame99=None,
                         gui=d.get("guiThreadCpuMsPerFrame"), extra=d.get("extraRenders"), load=d.get("loadAverage")))
    return runs

silk_a, silk_copy, qt_p = silk_runs("async"), silk_runs("async", "silk-copy"), peer_runs("qt-plain")
series = [("Silk async (its design)", silk_a), ("Silk sync (display on main)", silk_runs("sync")),
          ("Silk async, presenter copies each frame", silk_copy),
          ("Qt Quick software, basic loop", qt_p),
          ("Qt Quick sw, cache: false", peer_runs("qt-nocache")),
          ("Qt Quick sw, layer.enabled cards", peer_runs("qt-layer")),
          ("Qt Quick sw, threaded loop", peer_runs("qt-threaded")),
          ("GTK 4, GSK_RENDERER=cairo", peer_runs("gtk"))]

print(f"results in {out}; medians over rounds (range in brackets)\n")
print("| scene | runs | fps | CPU ms/frame (process) | main-thread ms/frame p50 | p99 | GUI-thread CPU ms/frame (all) | paint ms p50 | peak RSS MiB | missed @60 Hz |")
print("|---|---|---|---|---|---|---|---|---|---|")
for label, runs in series:
    if not runs:
        continue
    g = lambda k: [r.get(k) for r in runs]
    gui = med(g("gui")) if any(r.get("gui") is not None for r in runs) else None
    print(f"| {label} | {len(runs)} | {med(g('fps')):.1f} | {med(g('cpu')):.2f} ({rng(g('cpu'))}) | "
          f"{med(g('p50')):.2f} ({rng(g('p50'))}) | {med(g('p99')):.2f} ({rng(g('p99'))}) | "
          f"{'-' if gui is None else f'{gui:.2f}'} | {med(g('comp')):.2f} | {med(g('rss')):.0f} | {med(g('missed')):.0f} ({rng(g('missed'))}) |")
print()
# Issue 21's table: Silk async against the plain Qt peer, medians, and their ratio.
if silk_a and qt_p:
    print("| rainforest-scroll, medians | Silk async | Qt Quick software | Silk ÷ Qt |")
    print("|---|---|---|---|")
    for name, key in (("CPU ms per frame (process)", "cpu"), ("main-thread ms per frame p50", "p50"),
                      ("main-thread ms per frame p99", "p99"), ("peak RSS MiB", "rss"), ("fps", "fps"),
                      ("missed frames @60 Hz", "missed")):
        a, b = med([r.get(key) for r in silk_a]), med([r.get(key) for r in qt_p])
        ratio = f"{a / b:.2f}×" if b else "-"
        print(f"| {name} | {a:.2f} | {b:.2f} | {ratio} |")
    print()
    if silk_copy:
        c, b = med([r["cpu"] for r in silk_copy]), med([r["cpu"] for r in qt_p])
        print(f"Silk async with its headless presenter copying each frame's damage (silk bench's default; Qt's "
              f"offscreen platform copies nothing): {c:.2f} ms CPU per frame, {c / b:.2f}× Qt\n")
for label, runs in series:
    ex = [r.get("extra") for r in runs if r.get("extra") is not None]
    if ex:
        print(f"{label}: extra renders between slots (median) {med(ex):.0f}")
# Where the CPU goes. Silk: the frame path (main busy + composite + present, means) and the rest of
# the process CPU (display queues rasterizing cards as they enter the range, and anything else).
for mode in ("async", "sync"):
    fp, rest = [], []
    for p in sorted(glob.glob(os.path.join(out, "silk-[0-9]*.json"))):
        m = json.load(open(p))["scenes"][0]["modes"][mode]
        path = m["mainBusyMs"]["mean"] + m["compositeMs"]["mean"] + m["presentMs"]["mean"]
        fp.append(path); rest.append(m["cpuMs"] / max(1, m["frames"]) - path)
    if fp:
        print(f"Silk {mode}: frame path (main + composite + present, mean) {med(fp):.2f} ms/frame; "
              f"rest of process CPU (display queues etc.) {med(rest):.2f} ms/frame")
for prefix in ("qt-plain", "qt-nocache", "qt-layer", "qt-threaded", "gtk"):
    per = {}
    for p in sorted(glob.glob(os.path.join(out, prefix + "-[0-9]*.json"))):
        d = json.load(open(p))
        for t in d.get("threads", []):
            if t["cpuMs"] > 0:
                per.setdefault(t["name"], []).append(t["cpuMs"] / max(1, d["frames"]))
    if per:
        print(f"{prefix} threads, CPU ms/frame (median): " + ", ".join(f"{n} {med(v):.2f}" for n, v in per.items()))
silk = silk_runs("async")
if silk:
    print("Silk load averages at start of its runs:", ", ".join(f"{r['load']:.2f}" for r in silk))
up = os.path.join(out, "uptime.txt")
if os.path.exists(up):
    print("\nuptime per round:\n" + open(up).read())
