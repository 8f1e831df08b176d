#!/usr/bin/env python3
"""Recounts the recorded case summarize__vllm__goodput-ttft250-tpot33.json.json from its fixture's
arrays (vLLM's goodput rule: a request that did not fail, TTFT <= 250 ms and TPOT <= 33 ms, a
one-token request's TPOT counting as 0), without running tpsview. Run from the repository root."""
import json

f = json.load(open('tests/fixtures/vllm/goodput-ttft250-tpot33.json'))
g = json.load(open('tests/golden/summarize__vllm__goodput-ttft250-tpot33.json.json'))
p = g['runs'][0]['points'][0]
n = len(f['ttfts'])
good = tok = 0
for i in range(n):
    if f['errors'][i]:
        continue
    k = f['output_lens'][i]
    tpot = (f['latencies'][i] - f['ttfts'][i]) / (k - 1) if k > 1 else 0.0
    if f['ttfts'][i] <= 0.250 and tpot <= 0.033:
        good += 1
        tok += k
ok = [i for i in range(n) if not f['errors'][i]]
d = max(f['start_times'][i] + f['latencies'][i] for i in ok) - min(f['start_times'])
assert abs(p['slo']['attainment'] - good / n) < 1e-12
assert abs(p['slo']['goodput_rps'] - good / d) < 1e-9
assert abs(p['slo']['goodput_tps'] - tok / d) < 1e-9
assert p['slo']['met'] == (good / n >= 0.9)
assert abs(p['usd_per_million_output_tokens'] - 2.5 / (sum(f['output_lens']) / d * 3600) * 1e6) < 1e-9
assert p['slo']['tool_goodput']['agrees'] is True
assert g['runs'][0]['slo_capacity'] is None
print(f'ok: {good} of {n} requests meet the targets; the recorded case agrees')
