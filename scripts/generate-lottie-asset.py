#!/usr/bin/env python3
"""Writes assets/lottie/spinner.json: a small Lottie animation made for Silk's tests and demos
(same licence as Silk). 120x120 points, 30 fps, 60 frames (2 s), looping: a blue arc that turns
once per loop around a pulsing orange dot, with a dashed grey ring. Run from the repository root."""
import json

FR, OP, W, H = 30, 60, 120, 120

def static(v):
    return {"a": 0, "k": v}

def keyframes(*frames):
    # frames: (t, value); linear easing between consecutive keys.
    # Each keyframe but the last names its end value ("e"): rlottie 0.1 (Debian 12) needs it.
    def arr(v):
        return v if isinstance(v, list) else [v]
    ks = []
    for n, (t, v) in enumerate(frames):
        k = {"t": t, "s": arr(v)}
        if n + 1 < len(frames):
            k.update({"e": arr(frames[n + 1][1]), "i": {"x": [0.5], "y": [0.5]}, "o": {"x": [0.5], "y": [0.5]}})
        ks.append(k)
    return {"a": 1, "k": ks}

def transform(position, rotation=static(0), scale=static([100, 100]), opacity=static(100)):
    return {"o": opacity, "r": rotation, "p": position, "a": static([0, 0]), "s": scale}

def group_transform():
    return {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
            "r": static(0), "o": static(100)}

def layer(ind, name, ks, shapes):
    return {"ddd": 0, "ind": ind, "ty": 4, "nm": name, "sr": 1, "ks": ks, "ao": 0,
            "shapes": shapes, "ip": 0, "op": OP, "st": 0, "bm": 0}

ring = layer(1, "ring", transform(static([60, 60])), [
    {"ty": "gr", "nm": "ring", "it": [
        {"ty": "el", "p": static([0, 0]), "s": static([96, 96])},
        {"ty": "st", "c": static([0.6, 0.63, 0.68, 1]), "o": static(100), "w": static(3), "lc": 2, "lj": 2,
         "d": [{"n": "d", "nm": "dash", "v": static(6)}, {"n": "g", "nm": "gap", "v": static(6)},
               {"n": "o", "nm": "offset", "v": keyframes((0, 0), (OP, 24))}]},
        group_transform()]}])

arc = layer(2, "arc", transform(static([60, 60]), rotation=keyframes((0, 0), (OP, 360))), [
    {"ty": "gr", "nm": "arc", "it": [
        {"ty": "el", "p": static([0, 0]), "s": static([76, 76])},
        {"ty": "tm", "s": static(0), "e": keyframes((0, 20), (OP / 2, 70), (OP, 20)), "o": static(0), "m": 1},
        {"ty": "st", "c": static([0.16, 0.42, 0.92, 1]), "o": static(100), "w": static(8), "lc": 2, "lj": 2},
        group_transform()]}])

dot = layer(3, "dot", transform(static([60, 60]),
                                scale=keyframes((0, [70, 70]), (OP / 2, [110, 110]), (OP, [70, 70]))), [
    {"ty": "gr", "nm": "dot", "it": [
        {"ty": "el", "p": static([0, 0]), "s": static([36, 36])},
        {"ty": "fl", "c": keyframes((0, [0.98, 0.55, 0.1, 1]), (OP / 2, [0.95, 0.3, 0.2, 1]), (OP, [0.98, 0.55, 0.1, 1])),
         "o": static(100), "r": 1},
        group_transform()]}])

doc = {"v": "5.7.4", "fr": FR, "ip": 0, "op": OP, "w": W, "h": H, "nm": "spinner", "ddd": 0,
       "assets": [], "layers": [dot, arc, ring]}
with open("assets/lottie/spinner.json", "w") as f:
    json.dump(doc, f, separators=(",", ":"))
    f.write("\n")
