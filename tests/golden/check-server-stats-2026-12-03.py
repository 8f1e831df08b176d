"""Recount, from the files alone (it does not run tpsview), the server figures AIPerf's two
default server-metrics files give a level, and compare with `summarize --json` outputs given as
arguments (the recorded cases).

The rule (docs/metrics.md, "What the server saw"; crates/tpsview-formats/src/formats/aiperf_exports/
stats.rs): per family tpsview knows, AIPerf's statistics summed over its series (KV-cache usage
averaged); a gauge's p50 and max only where one series has them; the server's generation T/s =
the counter's `rate` (summed); the audit = (server − client) ÷ client × 100, the client's system
T/s being the summary's output_token_throughput (a summary-only level) or the records' output
tokens over their first send to last response.

1. tests/fixtures/aiperf/server-stats-c8/: server_metrics_export.csv (read with Python's csv
   module, its sections split at blank lines) beside profile_export_aiperf.json alone.
2. tests/fixtures/aiperf/server-stats-json-c4/: server_metrics_export.json (two replicas) beside
   profile_export.jsonl.

Usage: check-server-stats-2026-12-03.py [<summarize --json of 1.> <summarize --json of 2.>]"""
import csv
import io
import json
import sys

root = "tests/fixtures/aiperf/"
FAMILIES = {"vllm:num_requests_running": "running", "vllm:num_requests_waiting": "waiting",
            "vllm:kv_cache_usage_perc": "kv_cache_usage", "vllm:generation_tokens": "generation"}


def figures(series):
    """{key: [stats of each series]} → the level's server figures."""
    want = {}
    for key in ("running", "waiting", "kv_cache_usage"):
        s = series.get(key)
        if not s:
            continue
        avg = [x["avg"] for x in s]
        mean = sum(avg) / len(avg) if key == "kv_cache_usage" else sum(avg)
        one = len(s) == 1
        want[key] = {"mean": mean, "p50": s[0]["p50"] if one else None,
                     "max": s[0]["max"] if one else None, "samples": None}
    want["generation_tps"] = sum(x["rate"] for x in series["generation"])
    return want


def from_csv(path):
    series = {}
    for block in open(path).read().split("\n\n"):
        lines = [l for l in block.splitlines() if l and not l.startswith("#")]
        for row in csv.DictReader(io.StringIO("\n".join(lines))):
            key = FAMILIES.get(row.get("Metric"))
            if key:
                series.setdefault(key, []).append({k: float(v) for k, v in row.items()
                                                   if k in ("avg", "p50", "max", "rate") and v})
    return series


def from_json(path):
    doc = json.load(open(path))
    return {FAMILIES[name]: [s["stats"] for s in fam["series"]]
            for name, fam in doc["metrics"].items() if name in FAMILIES}


c8 = figures(from_csv(root + "server-stats-c8/server_metrics_export.csv"))
c8["client_system_tps"] = json.load(open(root + "server-stats-c8/profile_export_aiperf.json"))["output_token_throughput"]["avg"]
c4 = figures(from_json(root + "server-stats-json-c4/server_metrics_export.json"))
recs = [json.loads(l) for l in open(root + "server-stats-json-c4/profile_export.jsonl")]
t0 = min(r["metadata"]["request_start_ns"] for r in recs)
start = [(r["metadata"]["request_start_ns"] - t0) / 1e9 for r in recs]
end = [s + r["metrics"]["request_latency"]["value"] / 1e3 for s, r in zip(start, recs)]
c4["client_system_tps"] = sum(r["metrics"]["output_sequence_length"]["value"] for r in recs) / (max(end) - min(start))
for want in (c8, c4):
    want["difference_pct"] = (want["generation_tps"] - want["client_system_tps"]) / want["client_system_tps"] * 100
for name, want in (("server-stats-c8", c8), ("server-stats-json-c4", c4)):
    print(f"{name}: running mean {want['running']['mean']:.4f} (p50 {want['running']['p50']}, max {want['running']['max']}), "
          f"waiting mean {want['waiting']['mean']:.4f}, server {want['generation_tps']:.4f} T/s, "
          f"client {want['client_system_tps']:.4f} T/s, {want['difference_pct']:+.3f} %")

checked = 0
c8["concurrency"] = json.load(open(root + "server-stats-c8/profile_export_aiperf.json"))["input_config"]["loadgen"]["concurrency"]
# Records state no level: the statistics' copy of the run's configuration gives it.
c4["concurrency"] = json.load(open(root + "server-stats-json-c4/server_metrics_export.json"))["input_config"]["loadgen"]["concurrency"]
for path, want in zip(sys.argv[1:], (c8, c4)):
    point = json.load(open(path))["runs"][0]["points"][0]
    assert point["concurrency"] == want["concurrency"], (path, point["concurrency"])
    checked += 1
    g = point["server"]
    assert g["window_s"] is None and g["polls"] is None, g
    for key in ("running", "waiting", "kv_cache_usage"):
        for k, v in want[key].items():
            got = g[key][k]
            assert (got is None and v is None) or abs(got - v) <= 1e-9 * max(1, abs(v)), (path, key, k, got, v)
            checked += 1
    for key in ("generation_tps", "client_system_tps", "difference_pct"):
        assert abs(g[key] - want[key]) <= 1e-9 * max(1, abs(want[key])), (path, key, g[key], want[key])
        checked += 1
    assert g["audit"] is None, g["audit"]
if checked:
    print(f"{checked} figures agree")
