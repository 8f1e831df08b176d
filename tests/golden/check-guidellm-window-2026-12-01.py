#!/usr/bin/env python3
"""Recounts the recorded case summarize__guidellm__benchmarks-v0.5-warmup.json.json from its
fixture's request list, without running tpsview: GuideLLM's measurement window (a request counts
when it ends at or after scheduler_metrics.measure_start_time and starts at or before
measure_end_time), then the counted requests' TTFT / E2E / TPOT statistics (numpy-linear
percentiles), output tokens, duration (first counted start -> last counted last token) and system
T/s. Run from the repository root."""
import json
import math

f = json.load(open('tests/fixtures/guidellm/benchmarks-v0.5-warmup.json'))['benchmarks'][0]
g = json.load(open('tests/golden/summarize__guidellm__benchmarks-v0.5-warmup.json.json'))
p = g['runs'][0]['points'][0]
lo = f['scheduler_metrics']['measure_start_time']
hi = f['scheduler_metrics']['measure_end_time']


def inside(r):
    t = r['info']['timings']
    return t['request_end'] >= lo and t['request_start'] <= hi


ok = [r['info']['timings'] for r in f['requests']['successful'] if inside(r)]
bad = [r for r in f['requests']['errored'] if inside(r)]
left_out = len(f['requests']['successful']) + len(f['requests']['errored']) - len(ok) - len(bad)


def pct(v, q):
    s = sorted(v)
    k = (len(s) - 1) * q / 100
    a, b = math.floor(k), math.ceil(k)
    return s[a] + (s[b] - s[a]) * (k - a)


def close(a, b):
    # Epoch-second timestamps carry 2.4e-7 s per last bit, and tpsview's JSON reader may round
    # the last bit otherwise than Python does: 1e-6 relative.
    assert abs(a - b) <= 1e-6 * abs(b), (a, b)


outs = [r['output_tokens'] for r in f['requests']['successful'] if inside(r)]
ttft = [(t['first_token_iteration'] - t['request_start']) * 1e3 for t in ok]
e2e = [(t['last_token_iteration'] - t['request_start']) * 1e3 for t in ok]
tpot = [(e - a) / (n - 1) for a, e, n in zip(ttft, e2e, outs)]
assert (p['requests_ok'], p['requests_failed'], p['output_tokens']) == (len(ok), len(bad), sum(outs))
for name, v in (('ttft_ms', ttft), ('e2e_ms', e2e), ('tpot_ms', tpot)):
    close(p[name]['mean'], sum(v) / len(v))
    for q in (50, 90, 99):
        close(p[name][f'p{q}'], pct(v, q))
dur = max(t['last_token_iteration'] for t in ok) - min(t['request_start'] for t in ok)
close(p['duration_s'], dur)
close(p['system_tps'], sum(outs) / dur)
assert [d['tool_metric'] for d in p['discrepancies']] == ['duration']
note = next(d for d in g['diagnostics'] if 'measurement window' in d['message'])
assert note['message'].startswith(f'{left_out} of ')
print(f'ok: {len(ok)} of {len(f["requests"]["successful"])} successful requests inside the window, '
      f'{left_out} listed requests left out; the recorded case agrees')
