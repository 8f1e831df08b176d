#!/usr/bin/env python3
"""Writes tests/fixtures/numpy-sums.json: numpy's own sums and means (np.add.reduce, np.mean) of
float64 arrays that tpsview's tests regenerate from the same integer formulas, so that
`stats::sum` and `stats::mean` are checked bit for bit against numpy without running tpsview.
The families: chunk gaps of ~20 ms with six decimals; sums whose rounding depends on the order
(1e16 + 1 is lost); negative zeros; values over six orders of magnitude of both signs. The sizes
cross numpy's pairwise thresholds (8, 128, its halving) and tpsview's two-core split (2^20).
Run from the repository root with numpy installed (the engine e2e's venv has it):
    target/engine-venv/bin/python tests/golden/numpy-sums-2026-12-01.py"""
import json

import numpy as np

from numpy_families import family

SIZES = list(range(0, 21)) + [63, 64, 127, 128, 129, 130, 135, 136, 255, 256, 257, 1000, 8191,
                              8192, 8193, 65536, 100003, (1 << 20) + 7, 2000001]
cases = []
for name in ['gaps', 'order', 'zeros', 'wide']:
    for n in SIZES:
        a = np.array(family(name, n), dtype=np.float64)
        s = float(np.add.reduce(a))
        m = float(np.mean(a)) if n else None
        cases.append({'family': name, 'n': n, 'sum': s.hex(), 'mean': m.hex() if m is not None else None})
json.dump({'numpy': np.__version__, 'cases': cases}, open('tests/fixtures/numpy-sums.json', 'w'), indent=0)
print(len(cases), 'cases, numpy', np.__version__)
