"""Recount the server figures of tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json
from the file's own arrays (it does not run tpsview), and compare them with a `summarize --json`
output given as the second argument (the recorded case).

The definitions (docs/metrics.md, "What the server saw"): the window is the level's first send to
its last response; gauges over the polls inside it; a counter's rise from the last poll at or
before the window's start to the level's last poll (at or after its end), over the window's length;
tokens per decode step = Δ tokens ÷ Δ decode calls between the same polls; the client's system T/s
= Σ output tokens ÷ the window's length."""
import json
import statistics
import sys

report = json.load(open(sys.argv[1]))
out = json.load(open(sys.argv[2]))
checked = 0
for point, got in zip(report["runs"][0]["points"], out["runs"][0]["points"]):
    r, s = point["requests"], point["server"]
    first = min(r["start_s"])
    last = max(a + b for a, b in zip(r["start_s"], r["e2e_s"]))
    t = s["t_s"]
    inside = [i for i, x in enumerate(t) if first <= x <= last]
    want = {}
    for key in ("running", "waiting"):
        v = [s["values"][key][i] for i in inside if s["values"][key][i] is not None]
        want[key] = {"mean": sum(v) / len(v), "max": max(v), "p50": statistics.median(v), "samples": len(v)}
    opening = max(i for i, x in enumerate(t) if x <= first)
    closing = len(t) - 1
    assert t[closing] >= last
    def rise(key):
        v = s["values"][key]
        return v[closing] - v[opening]
    tokens, calls = rise("generation_tokens_total"), rise("decode_calls_total")
    span = last - first
    want["generation_tps"] = tokens / span
    want["tokens_per_decode_step"] = tokens / calls
    want["client_system_tps"] = sum(r["output_tokens"]) / span
    g = got["server"]
    for key in ("running", "waiting"):
        for k, v in want[key].items():
            assert abs(g[key][k] - v) <= 1e-9 * max(1, abs(v)), (point["concurrency"], key, k, g[key][k], v)
            checked += 1
    for key in ("generation_tps", "tokens_per_decode_step", "client_system_tps"):
        assert abs(g[key] - want[key]) <= 1e-9 * abs(want[key]), (point["concurrency"], key, g[key], want[key])
        checked += 1
    assert g["audit"] is None and abs(g["difference_pct"]) < 5
    print(f"concurrency {point['concurrency']:g}: running mean {want['running']['mean']:.4f}, "
          f"waiting max {want['waiting']['max']:g}, server {want['generation_tps']:.3f} T/s, "
          f"client {want['client_system_tps']:.3f} T/s, {want['tokens_per_decode_step']:.4f} tokens/step")
print(f"{checked} figures agree")
