"""Recount, from the files alone (it does not run tpsview), what AIPerf's companion exports give a
level, and compare with `summarize --json` outputs given as arguments (the recorded cases).

1. tests/fixtures/aiperf/companions-c4/: the records' window is the first send to the last
   response, on the records' clock (origin: the first send, epoch ns); each scrape of
   server_metrics_export.jsonl goes onto that clock; gauges over the scrapes inside the window; the
   token counter's rise from the last scrape at or before the window's start to the last scrape
   (at or after its end), over the window's length. GPU telemetry: the DCGM counter's max − min
   (MJ → J), the mean power, J per output token = that energy ÷ the level's output tokens.
2. tests/fixtures/aiperf/telemetry-c1/gpu_telemetry_export.jsonl (AIPerf's real fixture): each
   exporter's counter rise and mean power, printed for the reader's unit test.
3. tests/fixtures/llm-d/observed-c8_benchmark_report.yaml and genai-perf/telemetry_genai_perf.json
   are checked by hand-worked values in crates/tpsview-core/tests/fixtures.rs.

Usage: check-companions-2026-12-03.py <summarize --json of companions-c4/>"""
import json
import statistics
import sys

root = "tests/fixtures/aiperf/"
recs = [json.loads(l) for l in open(root + "companions-c4/profile_export.jsonl")]
t0 = min(r["metadata"]["request_start_ns"] for r in recs)
start = [(r["metadata"]["request_start_ns"] - t0) / 1e9 for r in recs]
e2e = [r["metrics"]["request_latency"]["value"] / 1e3 for r in recs]
tokens = sum(r["metrics"]["output_sequence_length"]["value"] for r in recs)
first, last = min(start), max(s + e for s, e in zip(start, e2e))
scr = sorted((json.loads(l) for l in open(root + "companions-c4/server_metrics_export.jsonl")), key=lambda s: s["timestamp_ns"])
t = [(s["timestamp_ns"] - t0) / 1e9 for s in scr]
val = lambda s, k: sum(x["value"] for x in s["metrics"][k])
inside = [i for i, x in enumerate(t) if first <= x <= last]
want = {}
for key, name in (("running", "vllm:num_requests_running"), ("waiting", "vllm:num_requests_waiting"),
                  ("kv_cache_usage", "vllm:kv_cache_usage_perc")):
    v = [val(scr[i], name) for i in inside]
    want[key] = {"mean": sum(v) / len(v), "p50": statistics.median(v), "max": max(v), "samples": len(v)}
opening = max(i for i, x in enumerate(t) if x <= first)
assert t[-1] >= last
span = last - first
want["generation_tps"] = (val(scr[-1], "vllm:generation_tokens") - val(scr[opening], "vllm:generation_tokens")) / span
want["client_system_tps"] = tokens / span
gpu = sorted((json.loads(l) for l in open(root + "companions-c4/gpu_telemetry_export.jsonl")), key=lambda s: s["timestamp_ns"])
e = [g["telemetry_data"]["energy_consumption"] for g in gpu]
p = [g["telemetry_data"]["gpu_power_usage"] for g in gpu]
joules = (max(e) - min(e)) * 1e6
energy = {"joules": joules, "mean_power_w": sum(p) / len(p), "joules_per_output_token": joules / tokens}
window = (gpu[-1]["timestamp_ns"] - gpu[0]["timestamp_ns"]) / 1e9
print(f"companions-c4: {len(recs)} requests, window {span:.4f} s, {len(inside)} scrapes inside; "
      f"running mean {want['running']['mean']:.4f}, server {want['generation_tps']:.4f} T/s, "
      f"client {want['client_system_tps']:.4f} T/s; {joules:.2f} J over {window:.2f} s, "
      f"{energy['joules_per_output_token']:.4f} J/token")

checked = 0
if len(sys.argv) > 1:
    got = json.load(open(sys.argv[1]))["runs"][0]["points"][0]
    g = got["server"]
    for key in ("running", "waiting", "kv_cache_usage"):
        for k, v in want[key].items():
            assert abs(g[key][k] - v) <= 1e-9 * max(1, abs(v)), (key, k, g[key][k], v)
            checked += 1
    for key in ("generation_tps", "client_system_tps"):
        assert abs(g[key] - want[key]) <= 1e-9 * want[key], (key, g[key], want[key])
        checked += 1
    for key, v in energy.items():
        assert abs(got["energy"][key] - v) <= 1e-9 * v, (key, got["energy"][key], v)
        checked += 1
    assert f"{window:.1f} s" in got["energy"]["window"], got["energy"]["window"]
    print(f"{checked} figures agree")

real = [json.loads(l) for l in open(root + "telemetry-c1/gpu_telemetry_export.jsonl")]
for url in sorted({r["dcgm_url"] for r in real}):
    rows = sorted((r for r in real if r["dcgm_url"] == url), key=lambda r: r["timestamp_ns"])
    e = [r["telemetry_data"]["energy_consumption"] for r in rows]
    p = [r["telemetry_data"]["gpu_power_usage"] for r in rows]
    print(f"telemetry-c1 {url}: {len(rows)} samples, counter rise {(e[-1] - e[0]) * 1e6:.3f} J, mean power {sum(p) / len(p):.4f} W")
ts = [r["timestamp_ns"] for r in real]
first_send = min(json.loads(l)["metadata"]["request_start_ns"] for l in open(root + "telemetry-c1/profile_export.jsonl"))
print(f"telemetry-c1: samples span {(max(ts) - min(ts)) / 1e9:.9f} s, ending {(first_send - max(ts)) / 1e9:.3f} s before the first request")
