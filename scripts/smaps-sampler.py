#!/usr/bin/env python3
"""Samples a process's resident memory by kind of mapping, from /proc/PID/smaps, until it exits.

    silk bench --scene feed-10k --json OUT.json & python3 scripts/smaps-sampler.py $! OUT.smaps

One line per sample (about every 0.15 s): seconds, total MiB, then MiB per kind — file (code,
fonts, files), heap (malloc's main arena), arena (glibc's thread arenas: anonymous mappings on
a 64 MiB boundary), stack (thread stacks: anonymous maps of about 8 MiB), mapped_big (other
anonymous maps of 1 MiB or more: photo and cell bitmaps, malloc's own mmapped blocks) and
mapped_small (the rest). It says which kind a peak of VmRSS is made of (docs/benchmark.md).
"""
import re
import sys
import time

pid = int(sys.argv[1]); out = open(sys.argv[2], 'w')
t0 = time.time()
hdr = re.compile(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$')
while True:
    try:
        f = open(f'/proc/{pid}/smaps').read()
    except Exception:
        break
    cat = {'file':0,'heap':0,'arena':0,'stack':0,'mapped_small':0,'mapped_big':0}
    cur = None
    for line in f.split('\n'):
        m = hdr.match(line)
        if m:
            s, e, perm, name = int(m.group(1),16), int(m.group(2),16), m.group(3), m.group(4).strip()
            size = e - s
            if name.startswith('/'): cur='file'
            elif name == '[heap]': cur='heap'
            elif name.startswith('[stack'): cur='stack'
            elif name: cur='file'
            elif s % (64<<20) == 0: cur='arena'
            elif size >= (8<<20) - (1<<20): cur='stack'
            elif size >= (1<<20): cur='mapped_big'
            else: cur='mapped_small'
        elif line.startswith('Rss:') and cur:
            cat[cur] += int(line.split()[1])
    tot = sum(cat.values())
    out.write('%.2f %d %s\n' % (time.time()-t0, tot//1024, ' '.join('%s=%d'%(k,v//1024) for k,v in cat.items())))
    out.flush()
    time.sleep(0.15)
