#!/usr/bin/env python3
"""Checks the recorded GuideLLM cases against numpy, to the bit, after 2026-12-01's change of
JSON number reading (serde_json's `float_roundtrip`: every number read as Python's float() reads
it). GuideLLM files time requests in epoch seconds (~1.76e9, where one last bit is 2.4e-7 s), so a
timestamp read one bit off moves a TTFT by 0.24 µs. This script does not run tpsview: it reads
each fixture with Python's json, computes every request's TTFT, E2E (start -> last token) and TPOT
((E2E - TTFT) / (output tokens - 1)) in seconds, their numpy mean and percentiles (np.percentile,
linear; tpsview's are numpy's to the bit since the change after this one), scales to ms, and
compares each with the recorded value: exactly with the recorded case (argv[1] = the folder of
recorded cases, default tests/golden). With argv[2], a folder of the cases as recorded before the
change, it also says how many of those figures were off, and checks that every other recorded
case changed only in numbers, each by less than 1e-13 of itself (last bits: a value read one bit
otherwise, or a difference of two such values). Run from the repository root with a Python that
has numpy (e.g. target/engine-venv/bin/python)."""
import json
import os
import sys

import numpy as np

from json_diff import differences

CASES = ['bad-requests', 'benchmarks-v0.2', 'benchmarks-v0.5-sampled', 'benchmarks-v0.5-warmup']


def timing(r, new, old):
    t = r.get('info', {}).get('timings', {})
    v = t.get(new, r.get(old))
    return v if isinstance(v, (int, float)) else None


def expected(bench):
    window = bench.get('scheduler_metrics', {})
    lo, hi = window.get('measure_start_time'), window.get('measure_end_time')
    ttft, e2e, tpot = [], [], []
    for r in bench['requests']['successful']:
        s = timing(r, 'request_start', 'start_time')
        f = timing(r, 'first_token_iteration', 'first_token_time')
        last = timing(r, 'last_token_iteration', 'last_token_time')
        if lo is not None and not (timing(r, 'request_end', 'end_time') >= lo and s <= hi):
            continue
        if None in (s, f, last):
            continue
        n = r.get('output_tokens')
        # Unusable, as tpsview counts them (bad-requests.json): a token count that is not a
        # number, a first token before the start.
        if not isinstance(n, (int, float)) or f < s or last < f:
            continue
        ttft.append(f - s)
        e2e.append(last - s)
        if isinstance(n, (int, float)) and n > 1:
            tpot.append((last - s - (f - s)) / (n - 1))
    out = {}
    for name, v in (('ttft_ms', ttft), ('e2e_ms', e2e), ('tpot_ms', tpot)):
        a = np.array(v, dtype=np.float64)
        out[name] = {'mean': float(np.mean(a)) * 1e3}
        for q in (50, 90, 99):
            out[name][f'p{q}'] = float(np.percentile(a, q)) * 1e3
    return out


def figures(folder):
    got = {}
    for case in CASES:
        g = json.load(open(f'{folder}/summarize__guidellm__{case}.json.json'))
        for k, p in enumerate(g['runs'][0]['points']):
            for name in ('ttft_ms', 'e2e_ms', 'tpot_ms'):
                for stat, value in p[name].items():
                    got[(case, k, name, stat)] = value
    return got


want = {}
for case in CASES:
    benches = json.load(open(f'tests/fixtures/guidellm/{case}.json'))['benchmarks']
    for k, b in enumerate(benches):
        for name, stats in expected(b).items():
            for stat, value in stats.items():
                want[(case, k, name, stat)] = value

recorded = figures(sys.argv[1] if len(sys.argv) > 1 else 'tests/golden')
assert set(recorded) == set(want), set(recorded) ^ set(want)
wrong = [(k, recorded[k], want[k]) for k in want if recorded[k] != want[k]]
assert not wrong, wrong[:5]
print(f'ok: {len(want)} TTFT / E2E / TPOT figures of {len(CASES)} GuideLLM cases equal numpy\'s, bit for bit')
if len(sys.argv) > 2:
    before = figures(sys.argv[2])
    off = [k for k in want if before[k] != want[k]]
    worst = max((abs(before[k] - want[k]) / abs(want[k]) for k in off), default=0)
    print(f'{sys.argv[2]}: {len(off)} of {len(want)} off (the largest by {worst:.1e} of itself)')


if len(sys.argv) > 2:
    changed = 0
    for name in sorted(os.listdir(sys.argv[1])):
        if not name.endswith('.json') or 'guidellm' in name:
            continue
        before, after = (open(f'{d}/{name}', 'rb').read() for d in (sys.argv[2], sys.argv[1]))
        if before == after:
            continue
        out = differences(json.loads(before), json.loads(after))
        bad = [(p, a, b) for p, a, b in out
               if not (type(a) is float and type(b) is float and abs(a - b) < 1e-13 * abs(b))]
        assert not bad, (name, bad[:3])
        changed += bool(out)
    print(f'every other case: {changed} changed, only in last bits')
