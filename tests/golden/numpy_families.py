"""The float64 arrays of the numpy fixtures (numpy-sums-2026-12-01.py, numpy-percentiles-2026-12-01.py),
from integer formulas that tpsview's tests repeat (crates/tpsview-model/src/stats/numpy_fixture.rs):
chunk gaps of ~20 ms with six decimals; sums whose rounding depends on the order (1e16 + 1 is
lost), with many repeated values; negative zeros; values over six orders of magnitude of both
signs."""

SCALE = [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3]


def family(name, n):
    if name == 'gaps':
        return [float((i * 7919 + 13) % 10007) * 1e-6 + 0.018 for i in range(n)]
    if name == 'order':
        return [1e16 if i % 4 == 0 else 1.0 if i % 4 in (1, 2) else -1e16 + float(i % 7)
                for i in range(n)]
    if name == 'zeros':
        return [-0.0] * n
    if name == 'wide':
        return [float((i * 48271) % 2147483647 - 1073741823) * SCALE[i % 7] for i in range(n)]
    raise ValueError(name)
