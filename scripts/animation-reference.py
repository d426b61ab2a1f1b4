#!/usr/bin/env python3
"""Reference values for Tests/SilkRenderTests/AnimationCurveTests.swift, computed independently
of Silk's closed-form solutions: springs by integrating m·x'' = −k·x − c·x' with classical
Runge-Kutta (RK4, 10 µs steps) from x(0) = 1, x'(0) = −v0; cubic Béziers by bisecting x(s) = t
(200 halvings) on the Bernstein form. Run: python3 scripts/animation-reference.py"""

def spring(m, k, c, v0, times, dt=1e-5, threshold=1e-3, horizon=12.0):
    def acc(x, v):
        return (-k * x - c * v) / m
    x, v, t = 1.0, -v0, 0.0
    out, last_out_of_band = {}, 0.0
    targets = sorted(times)
    i = 0
    steps = int(round(horizon / dt))
    for n in range(steps + 1):
        t = n * dt
        while i < len(targets) and abs(t - targets[i]) < dt / 2:
            out[targets[i]] = 1 - x
            i += 1
        if abs(x) >= threshold:
            last_out_of_band = t
        k1x, k1v = v, acc(x, v)
        k2x, k2v = v + dt / 2 * k1v, acc(x + dt / 2 * k1x, v + dt / 2 * k1v)
        k3x, k3v = v + dt / 2 * k2v, acc(x + dt / 2 * k2x, v + dt / 2 * k2v)
        k4x, k4v = v + dt * k3v, acc(x + dt * k3x, v + dt * k3v)
        x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    return out, last_out_of_band

def bezier(x1, y1, x2, y2, t):
    def bx(s): return 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s ** 2 * x2 + s ** 3
    def by(s): return 3 * (1 - s) ** 2 * s * y1 + 3 * (1 - s) * s ** 2 * y2 + s ** 3
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if bx(mid) < t: lo = mid
        else: hi = mid
    return by((lo + hi) / 2)

if __name__ == "__main__":
    times = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8]
    for (m, k, c, v0) in [(1, 100, 10, 0), (1, 100, 20, 0), (1, 100, 40, 0), (2, 300, 5, 3)]:
        vals, settle = spring(m, k, c, v0, times)
        print(f"spring m={m} k={k} c={c} v0={v0}: settling {settle:.4f} s")
        print("  " + ", ".join(f"({t}, {vals[t]:.9f})" for t in times))
    for (x1, y1, x2, y2) in [(0.25, 0.1, 0.25, 1), (0.42, 0, 0.58, 1), (0.68, -0.55, 0.27, 1.55)]:
        ts = [0.1, 0.25, 0.5, 0.75, 0.9]
        print(f"bezier {x1},{y1},{x2},{y2}: " + ", ".join(f"({t}, {bezier(x1, y1, x2, y2, t):.9f})" for t in ts))
