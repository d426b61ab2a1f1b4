#!/usr/bin/env python3
"""Cuts a failing corpus case down to a minimal tree on which Chromium and Silk still disagree.

Each round makes every variant with one node, one style key or the case's `rtl` removed, lays
them all out in one headless Chromium page (chromium_grid.py's render and measure script) and
with `silk layout`, and keeps the first variant that still fails; it stops when none does. Prints
the minimal case (with Chromium's frames as `expected`) and Silk's failure line. This is how
docs/layout.md's minimal cases of 2026-12-04 were found.

Usage: chromium_minimize.py CORPUS.json CASE_NAME   (SILK=path/to/silk, default .build/debug/silk)
Needs Debian's `chromium`.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_grid import measure_in_chromium, write_corpus  # noqa: E402

SILK = os.environ.get('SILK', '.build/debug/silk')
if len(sys.argv) != 3:
    sys.exit(__doc__)
src, name = sys.argv[1], sys.argv[2]
case = [c for c in json.load(open(src))['cases'] if c['name'] == name][0]
def strip(n):
    n.pop('expected', None); n.setdefault('children', [])
    for ch in n['children']: strip(ch)
strip(case['root'])
def nodes(n, path=()):
    yield path, n
    for i, ch in enumerate(n['children']): yield from nodes(ch, path + (i,))
def get(root, path):
    for i in path: root = root['children'][i]
    return root
def variants(c):
    out = []
    for path, n in nodes(c['root']):
        if path:
            v = copy.deepcopy(c); p = get(v['root'], path[:-1]); del p['children'][path[-1]]; out.append(v)
        for k in list(n.get('style', {})):
            if path == () and k == 'positionType': continue
            v = copy.deepcopy(c); del get(v['root'], path)['style'][k]; out.append(v)
    if c.get('direction') == 'rtl':
        v = copy.deepcopy(c); v['direction'] = 'ltr'; out.append(v)
    return out
def evaluate(cases):
    for i, c in enumerate(cases): c['name'] = f'v{i}'
    frames, version = measure_in_chromium('chromium', cases)
    def attach(n, it):
        f = next(it); n['expected'] = dict(zip(('left','top','width','height'), (round(x, 2) for x in f)))
        for ch in n['children']: attach(ch, it)
    cs = copy.deepcopy(cases)
    for c in cs:
        attach(c['root'], iter(frames[c['name']])); c['root']['expected']['left'] = 0; c['root']['expected']['top'] = 0
        def clean(n):
            for ch in n['children']: clean(ch)
            if not n['children']: del n['children']
        clean(c['root'])
    fd, path = tempfile.mkstemp(suffix='.json'); os.close(fd)
    with open(os.devnull, 'w') as quiet:
        saved, sys.stdout = sys.stdout, quiet
        try:
            write_corpus(path, {'about': 'min', 'direction': 'ltr', 'cases': cs})
        finally:
            sys.stdout = saved
    out = subprocess.run([SILK, 'layout', path], capture_output=True, text=True).stdout
    os.unlink(path)
    fails = {}
    for line in out.splitlines():
        if line.startswith('FAIL '):
            n = line.split()[1].rstrip(':'); fails[int(n[1:])] = line
    return cs, fails
cur = case
cs, fails = evaluate([copy.deepcopy(cur)])
if 0 not in fails:
    sys.exit(f'{name} does not fail')
while True:
    vs = variants(cur)
    if not vs: break
    cs, fails = evaluate(copy.deepcopy(vs))
    if not fails: break
    i = min(fails)
    cur = vs[i]
    sys.stderr.write(f'{len(vs)} variants, {len(fails)} fail; keep {i}\n')
final, line = evaluate([copy.deepcopy(cur)])
final[0]['name'] = name + '_min'
print(json.dumps(final[0]))
print(list(line.values())[0])
