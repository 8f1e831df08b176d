#!/usr/bin/env python3
"""Checks the recorded outputs rewritten when percentiles became numpy's to the bit (2026-12-01):
tpsview now places a percentile at numpy's virtual index (n - 1) * (p / 100) and interpolates as
numpy's _lerp does (back down from the upper value when the fraction is 1/2 or more). It does not
run tpsview. For every case of cases.jsonl it compares the output recorded at the git revision
given (argv[1], default HEAD: the outputs before the change) with the one in tests/golden: only
p50 / p90 / p99 fields may differ, each by less than 1e-15 of itself. For the vLLM fixtures among
the changed cases it recomputes each level's TTFT, E2E, TPOT and pooled ITL percentiles with
np.percentile from the file's own arrays and requires the recorded output to equal them exactly.
Run from the repository root with numpy (the engine e2e's venv has it):
    target/engine-venv/bin/python tests/golden/numpy-percentile-outputs-2026-12-01.py [REV]"""
import json
import subprocess
import sys

import numpy as np

from json_diff import differences

rev = sys.argv[1] if len(sys.argv) > 1 else 'HEAD'


changed = []
for line in open('tests/golden/cases.jsonl'):
    name = json.loads(line)['name']
    before = subprocess.run(['git', 'show', f'{rev}:tests/golden/{name}.json'],
                            capture_output=True, check=True).stdout
    after = open(f'tests/golden/{name}.json', 'rb').read()
    if before == after:
        continue
    for path, a, b in differences(json.loads(before), json.loads(after)):
        assert path.rsplit('.', 1)[-1] in ('p50', 'p90', 'p99'), (name, path)
        assert type(a) is float and type(b) is float and abs(a - b) < 1e-15 * abs(b), (name, path, a, b)
    changed.append(name)

checked = 0
for name in changed:
    case = next(json.loads(l) for l in open('tests/golden/cases.jsonl') if json.loads(l)['name'] == name)
    files = [a for a in case['args'] if a.startswith('tests/fixtures/vllm/')]
    if not name.startswith('summarize__') or len(files) != 1 or 'negative' in files[0]:
        continue
    f = json.load(open(files[0]))
    if 'latencies' not in f:
        continue
    ok = [i for i, e in enumerate(f['errors']) if not e]
    ttft = np.array([f['ttfts'][i] for i in ok])
    lat = np.array([f['latencies'][i] for i in ok])
    n = np.array([f['output_lens'][i] for i in ok], dtype=float)
    many = n > 1
    tpot = (lat[many] - ttft[many]) / (n[many] - 1)
    itl = np.array([g for i in ok for g in f['itls'][i]])
    point = json.load(open(f'tests/golden/{name}.json'))['runs'][0]['points'][0]
    for key, v in (('ttft_ms', ttft), ('e2e_ms', lat), ('tpot_ms', tpot), ('itl_ms', itl)):
        for q in (50, 90, 99):
            want = float(np.percentile(v, q)) * 1e3
            assert point[key][f'p{q}'] == want, (name, key, q, point[key][f'p{q}'], want)
            checked += 1
print(f'ok: {len(changed)} recorded outputs changed, only in percentiles\' last bits; '
      f'{checked} vLLM percentiles equal numpy\'s exactly')
