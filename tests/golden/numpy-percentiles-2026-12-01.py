#!/usr/bin/env python3
"""Writes tests/fixtures/numpy-percentiles.json: numpy's own percentiles (np.percentile, its
default linear method) of the float64 arrays of numpy-sums-2026-12-01.py (the same formulas,
which tpsview's tests regenerate), so that `stats::percentile_sorted`, `stats::percentiles` and
`stats::dist_in_place` are checked bit for bit against numpy without running tpsview. The sizes
cross tpsview's selection methods (a copy below 2^16 values, the histogram above, split over two
cores from 2^20). Run from the repository root with numpy installed (the engine e2e's venv has it):
    target/engine-venv/bin/python tests/golden/numpy-percentiles-2026-12-01.py"""
import json

import numpy as np

from numpy_families import family

PS = [0.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 100.0]
SIZES = list(range(1, 22)) + [63, 64, 100, 127, 128, 129, 1000, 8191, 65535, 65536, 65537,
                              100003, (1 << 20) + 7, 2000001]
cases = []
for name in ['gaps', 'order', 'zeros', 'wide']:
    for n in SIZES:
        a = np.array(family(name, n), dtype=np.float64)
        cases.append({'family': name, 'n': n,
                      'p': [float(np.percentile(a, p)).hex() for p in PS]})
json.dump({'numpy': np.__version__, 'ps': PS, 'cases': cases},
          open('tests/fixtures/numpy-percentiles.json', 'w'), indent=0)
print(len(cases), 'cases, numpy', np.__version__)
