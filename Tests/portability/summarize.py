#!/usr/bin/env python3
"""summarize.py LABEL TEST.LOG STATUS [FAILED.TXT] — one `swift test` run in a Debian root, summarised.

Prints the XCTest and swift-testing totals and every failing test. A failure listed in
Tests/portability/known-differences.txt for this LABEL's suite (first word: trixie, sid) is
reported as known (with the file's reason) and does not fail the run unless PORTABILITY_STRICT=1;
any other failure, a crash or a non-zero STATUS without failures named does. A crash is a runner
(XCTest, swift-testing) that printed its start line but not its final summary: a run that
aborts in swift-testing after XCTest's totals is one (GIO's abort on aarch64 once looked green);
the swift-testing tests that started and never finished are then named as failures.
Exit status 0 when nothing unexpected failed. FAILED.TXT receives the unexpected failures' names
(regular expressions for `swift test --filter`, one a line)."""
import os, re, sys

label, log, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
failed_out = sys.argv[4] if len(sys.argv) > 4 else None
suite = label.split()[0]
text = open(log, errors='replace').read()
known = {}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'known-differences.txt')):
    line = line.split('#', 1)[0].strip()
    if not line: continue
    suites, name, reason = line.split(None, 2)
    if suite in suites.split(','): known[name] = reason

xc = re.findall(r'Executed (\d+) tests?, with (\d+) failures?', text)
st = re.findall(r'Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed)(?: after [\d.]+ seconds?)?(?: with (\d+) issues?)?', text)
failing = set(re.findall(r"Test Case '-?\[?([\w.]+[ .]\w+)\]?' failed", text))
failing |= set(re.findall(r'✘ Test ("[^"]+"|\S+) (?:recorded an issue|failed)', text))
failing = {n.strip('"') for n in failing}
def short(n): return n if ' ' in n else n.split('.')[-1]
unexpected = sorted(n for n in failing if short(n) not in known and n not in known)
expected = sorted(n for n in failing if short(n) in known or n in known)
xc_started = re.search(r"Test Suite '(?:All|Selected) tests' started", text)
xc_ended = re.search(r"Test Suite '(?:All|Selected) tests' (?:passed|failed) at", text)
st_started = re.search(r'Test run started\.', text)
crashed = [n for n, a, b in (('XCTest', xc_started, xc_ended), ('swift-testing', st_started, st))
           if a and not b]
# A run that crashed or was killed: the swift-testing tests that had started and not finished
# (one of them hung or crashed the process; each is retried alone with the failures).
unfinished = []
if 'swift-testing' in crashed:
    # SwiftPM's own crash line can land inside a line of the test output.
    text = re.sub(r'error: Exited with unexpected signal code \d+\n', '', text)
    ended = set(re.findall(r'[✔✘] Test (\S+?)\(.*?(?:passed|failed|skipped)', text))
    unfinished = [n + '()' for n in dict.fromkeys(re.findall(r'◇ Test (\S+?)\(.*? started', text)) if n not in ended]
    unexpected = sorted(set(unexpected) | set(unfinished))
tot = []
if xc: tot.append(f'XCTest {xc[-1][0]} tests, {xc[-1][1]} failures')
if st: tot.append(f'swift-testing {st[-1][0]} tests {st[-1][1]}' + (f' ({st[-1][2]} issues)' if st[-1][2] else ''))
print(f'portability {label}: ' + ('; '.join(tot) if tot else 'no test totals in the log (crashed?)'))
for n in crashed:
    print(f'portability {label}: FAIL {n} started but printed no final summary (crashed?)')
for n in unfinished:
    print(f'portability {label}: FAIL {n} started and never finished (hung, or running when the process crashed)')
for n in expected:
    print(f'portability {label}: known difference: {n}: {known.get(short(n)) or known.get(n)}')
for n in unexpected:
    print(f'portability {label}: FAIL {n}')
if failed_out:
    with open(failed_out, 'w') as f:
        for n in unexpected: f.write('/' + re.escape(n.split('(')[0]) + r'\(' + '\n')
strict = os.environ.get('PORTABILITY_STRICT') == '1'
ok = bool(tot) and not crashed and not unexpected and not (strict and expected) and (status == 0 or failing)
if not ok and not unexpected:
    print(f'portability {label}: FAIL swift test ended with status {status}; last lines of {log}:')
    print('\n'.join('    ' + l for l in text.splitlines()[-15:]))
sys.exit(0 if ok else 1)
