#!/usr/bin/env python3
"""Checks the recorded outputs rewritten when tpsview's means became numpy's (2026-12-01): sums
are taken as np.add.reduce takes them (pairwise) instead of in order. It does not run tpsview.
For every case of cases.jsonl it compares the output recorded before (at the git revision given,
default HEAD) with the one recorded now: the same JSON but for numbers, and every number that
changed is a mean or a figure derived from one (per-stream T/s = 1 / mean TPOT; the gap
explanation's ideal T/s, factors and shares) and moved by less than 1e-12 of itself. For the two
built-in samples, whose per-request data are at hand, it recomputes with numpy every level's
TTFT, TPOT, E2E and pooled ITL means (ms) and per-stream T/s, and requires the new output to be
those numbers exactly — and checks that each new ITL mean is within 1e-15 of the exact mean
(math.fsum) where the old one was not always.
Run from the repository root with numpy (the engine e2e's venv has it):
    target/engine-venv/bin/python tests/golden/numpy-means-2026-12-01.py [REV]"""
import json
import math
import subprocess
import sys

import numpy as np

rev = sys.argv[1] if len(sys.argv) > 1 else 'HEAD'
DERIVED = {'mean', 'per_stream_tps', 'ideal_tps', 'factor', 'share_of_gap'}


def walk(a, b, path, diffs):
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        for k in a:
            walk(a[k], b[k], f'{path}.{k}', diffs)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f'{path}[{i}]', diffs)
    elif isinstance(a, float) and isinstance(b, float):
        if a != b:
            diffs.append((path, a, b))
    else:
        assert a == b and type(a) is type(b), (path, a, b)


changed = 0
numbers = 0
for line in open('tests/golden/cases.jsonl'):
    case = json.loads(line)
    name = f"tests/golden/{case['name']}.json"
    old = subprocess.run(['git', 'show', f'{rev}:{name}'], capture_output=True, text=True,
                         check=True).stdout
    new = open(name).read()
    if old == new:
        continue
    changed += 1
    diffs = []
    walk(json.loads(old), json.loads(new), '', diffs)
    assert diffs, f'{name}: only formatting changed'
    for path, a, b in diffs:
        field = path.split('.')[-1].split('[')[0]
        assert field in DERIVED, (name, path)
        assert abs(a - b) <= 1e-12 * max(abs(a), abs(b)), (name, path, a, b)
        numbers += 1

exact_better = 0
for sample, case in [('public/samples/h100-llama70b-fp8.tpsview.json', 'summarize__sample__h100'),
                     ('public/samples/cpu-llamacpp-sweep.tpsview.json', 'summarize__sample__cpu')]:
    data = json.load(open(sample))
    new = json.load(open(f'tests/golden/{case}.json'))
    old = json.loads(subprocess.run(['git', 'show', f'{rev}:tests/golden/{case}.json'],
                                    capture_output=True, text=True, check=True).stdout)
    for run, out_run, old_run in zip(data['runs'], new['runs'], old['runs']):
        for point, out, was in zip(run['points'], out_run['points'], old_run['points']):
            r = point['requests']
            assert 'outcome' not in r and all(n >= 1 for n in r['output_tokens'])
            ttft = np.array(r['ttft_s'])
            e2e = np.array(r['e2e_s'])
            n = np.array(r['output_tokens'], dtype=np.float64)
            tpot = ((e2e - ttft) / (n - 1))[n >= 2]
            itl = np.array(r['chunk_gaps_s'])
            for key, v in [('ttft_ms', ttft), ('e2e_ms', e2e), ('tpot_ms', tpot), ('itl_ms', itl)]:
                want = float(np.mean(v)) * 1000
                assert out[key]['mean'] == want, (case, key, out[key]['mean'], want)
            assert out['per_stream_tps'] == 1 / float(np.mean(tpot)), case
            exact = math.fsum(r['chunk_gaps_s']) / len(r['chunk_gaps_s']) * 1000
            assert abs(out['itl_ms']['mean'] - exact) <= 1e-15 * exact * 4, (case, exact)
            exact_better += abs(was['itl_ms']['mean'] - exact) > abs(out['itl_ms']['mean'] - exact)
print(f'{changed} recorded outputs changed, {numbers} numbers, each a mean or derived from one, '
      f'by < 1e-12 of itself; the samples\' means are numpy\'s exactly; the new ITL mean is closer '
      f'to the exact one than the old at {exact_better} levels')
