#!/usr/bin/env bash
# End-to-end test of `tpsview bench` against a real llama.cpp server with continuous batching
# (xllamacpp from PyPI, CPU, bound to 127.0.0.1) serving a random-weight GGUF this script writes.
# Bounded: 3 levels × 8 requests × 32 tokens, every step under `timeout`. Checks: the report
# validates, every request's token count is the server's usage (32, EOS never wins), system T/s at
# concurrency 4 beats concurrency 1, and `summarize` reads the report back. With the server's own
# metrics (`--server-metrics`, llama.cpp's /metrics, 4 slots): tokens per decode call ≈ 1 at
# concurrency 1 and between 3 and 4 at 4 (4 streams share each call; the calls that take a
# joining request's prompt make fewer: 3.91 over 16 requests on 2026-12-02), at 8 at most 4
# running and some waiting, and the server's generation T/s within 5 % of the client's system T/s.
# Then noise (issue 32): the same server benchmarked twice with --repeat 5 is within noise, and
# the server restarted with 1 slot is a regression at concurrency 4 (about 100 s more).
# Then sessions (issue 43): 8 × 4 turns on a 192-word shared prefix, the client's cached prompt
# tokens against the server's own counters, later turns' TTFT below first turns' (about 65 s more).
#   scripts/engine-e2e.sh [TPSVIEW_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/tpsview}"
source scripts/engine/lib.sh
engine_start 4
timeout 300 "$bin" bench --url "http://127.0.0.1:$port" --model tiny-random-llama --concurrency 1,4,8 \
  --requests-per-level 8 --max-tokens 32 --prompt-tokens 16 --ignore-eos --timeout 60 --server-metrics \
  -o "$work/report.json" >"$work/bench.out" 2>"$work/bench.err"
"$bin" validate "$work/report.json"
"$bin" summarize --json "$work/report.json" >"$work/summary.json"
python3 - "$work/report.json" "$work/summary.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
summary = json.load(open(sys.argv[2]))
run = report["runs"][0]
assert "token_counts" not in run["meta"]["labels"], "the server sent usage for every request"
assert run["meta"]["labels"]["server_models"], "the /v1/models answer is kept"
for p in run["points"]:
    req = p["requests"]
    assert req["output_tokens"] == [32] * 8, req["output_tokens"]
    assert not req.get("errors"), req.get("errors")
    assert len(req["chunk_counts"]) == 8
pts = {p["concurrency"]: p for p in summary["runs"][0]["points"]}
s1, s4 = pts[1.0]["system_tps"], pts[4.0]["system_tps"]
p1, p4 = pts[1.0]["per_stream_tps"], pts[4.0]["per_stream_tps"]
assert s4 > s1, (s1, s4)
srv = {c: p["server"] for c, p in pts.items()}
for c, p in pts.items():
    s = srv[c]
    assert s["generation_tps"] is not None, (c, s["undefined"])
    assert abs(s["generation_tps"] / p["system_tps"] - 1) <= 0.05, (c, s["generation_tps"], p["system_tps"])
assert 0.9 <= srv[1.0]["tokens_per_decode_step"] <= 1.1, srv[1.0]
assert 3.0 <= srv[4.0]["tokens_per_decode_step"] <= 4.0, srv[4.0]
assert srv[8.0]["running"]["max"] <= 4 and srv[8.0]["waiting"]["max"] > 0, srv[8.0]
print("engine e2e: tokens per decode call " + ", ".join(f"{srv[c]['tokens_per_decode_step']:.2f} at {c:g}" for c in sorted(srv)) + f"; at 8 up to {srv[8.0]['waiting']['max']:g} waiting")
print(f"engine e2e: system T/s {s1:.1f} at 1 -> {s4:.1f} at 4; per-stream {p1:.1f} -> {p4:.1f}")
PY

# Issue 32 on the real engine: the same server benchmarked twice is within noise, and one with
# fewer slots (1 instead of 4: at concurrency 4 requests queue) is a regression. Each bench is the
# sweep five times (--repeat 5), so every figure is judged over repeats: run to run this server
# drifts by up to ~4 % in TPOT at concurrency 4 (measured 2026-12-02) while an interval over one
# run's requests is ±1 %, so over requests alone the same server "regressed". The threshold is
# 10 %, not the default 2 %, because a CI check must not flake on a shared machine (a core kept
# busy beside it). How much 4 slots gain over 1 depends on the CPU: ~60 % on 2026-12-02, ~20 % on
# 2026-12-04 (system T/s 100.7 at 1, 123.9 at 4), where 3 repeats each with a core kept busy gave
# −18.6 % (−41.2 … +4.0): not beyond noise at 99 % (t at Welch's few degrees of freedom is large).
# Five repeats each narrow it (t falls from ~6 to ~3.5, and √(2/5) against √(2/3)).
noise() { timeout 300 "$bin" bench --url "http://127.0.0.1:$port" --model tiny-random-llama --concurrency 1,4 \
  --requests-per-level 8 --max-tokens 32 --prompt-tokens 16 --ignore-eos --timeout 60 --repeat 5 \
  -o "$work/$1.json" >"$work/$1.out" 2>"$work/$1.err"; }
noise same-a
noise same-b
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
engine_start 1
noise one-slot
names=(--run-name "$work/same-a.json=4 slots" --run-name "$work/same-b.json=4 slots again" --run-name "$work/one-slot.json=1 slot")
# The same server is judged on the figures a CI gate on throughput names (system and per-stream
# T/s, mean TPOT and E2E), not on every figure: at 99 % each, some 40 judged figures flag one by
# chance about a third of the time, and two did so in CI on this server (TTFT at concurrency 1 is
# a few ms, +16.9 % with a core kept busy; a p99 over 8 requests is their maximum, +19.6 %).
same_metrics=system_tps,per_stream_tps,tpot_mean_ms,e2e_mean_ms
"$bin" compare "$work/same-a.json" "$work/same-b.json" "${names[@]}" --threshold 10 --fail-on-regression \
  --metrics "$same_metrics" --json >"$work/same.json"
set +e
"$bin" compare "$work/same-a.json" "$work/one-slot.json" "${names[@]}" --threshold 10 --fail-on-regression \
  --json >"$work/slower.json" 2>"$work/slower.err"
rc=$?
set -e
[ "$rc" = 1 ] || { echo "engine e2e: one slot against four: exit $rc, not 1"; cat "$work/slower.err"; exit 1; }
python3 - "$work/same.json" "$work/slower.json" <<'PY'
import json, sys
same, slower = (json.load(open(p))["verdicts"] for p in sys.argv[1:3])
def of(vs, run, c, key):
    return [v for v in vs if v["run"].startswith(run) and v["concurrency"] == c and v["metric"] == key]
# The figures named of the other setup judged over the 5 repeats of each, none beyond noise.
judged = [v for v in same if v["run"].startswith("4 slots again") and v.get("verdict")]
assert judged and all(v.get("repeats") == [5, 5] for v in judged), judged
assert {v["metric"] for v in judged} == {"system_tps", "per_stream_tps", "tpot_mean_ms", "e2e_mean_ms"}, judged
assert all(v["verdict"] != "regression" for v in same), [v for v in same if v["verdict"] == "regression"]
# One slot queues the other three requests at concurrency 4: their wait is in TTFT, whatever the
# CPU, so TTFT is the regression the gate must catch (it makes the exit code 1). What batching
# gains in system T/s depends on the CPU and its load (60 %, 20 %, and 16 % on a CI machine on
# 2026-12-05, where five repeats each gave −15.8 % (−31.9 … +0.3): not beyond noise at 99 %), so
# system T/s may not be judged an improvement, but need not clear the interval (that it rises with
# concurrency on 4 slots is checked above).
# (Each repeat of the setup carries the same verdict, judged over the 5 repeats of each.)
ttft4 = of(slower, "1 slot", 4.0, "ttft_mean_ms")
assert ttft4 and all(v["verdict"] == "regression" and v["repeats"] == [5, 5] for v in ttft4), ttft4
sys4 = of(slower, "1 slot", 4.0, "system_tps")
assert sys4 and all(v["repeats"] == [5, 5] and v["verdict"] != "improvement" for v in sys4), sys4
sys1 = of(slower, "1 slot", 1.0, "system_tps")
assert sys1 and all(v["verdict"] == "within_noise" for v in sys1), sys1
ttft4, sys4 = ttft4[0], sys4[0]
sys_same = of(same, "4 slots again", 4.0, "system_tps")[0]["change"]
sys_slow = of(slower, "1 slot", 4.0, "system_tps")[0]["change"]
fmt = lambda c: f"{c['change_pct']:+.1f} % ({c['low_pct']:+.1f} … {c['high_pct']:+.1f})"
print(f"engine e2e: at 4 over 5 repeats each: system T/s same server {fmt(sys_same)} within noise, one slot {fmt(sys_slow)} {sys4['verdict']}; mean TTFT one slot {fmt(ttft4['change'])} regression")
PY

# Issue 43 on the real engine: sessions and its prefix cache. 8 sessions × 4 turns, 4 in flight on
# 4 slots, each turn the conversation so far after a 192-word system prefix every session shares;
# each slot holds 3,072 tokens so that a whole session fits (the random model's tokenizer spends
# several tokens per word). No warm-up, so that the server's counters over the run are the run's:
# llama.cpp counts cached prompt tokens in `llamacpp:prompt_tokens_cached_total` and computed ones
# in `llamacpp:prompt_tokens_total`, and says each request's cached part in
# `usage.prompt_tokens_details.cached_tokens` — the client's sum must be the first counter's
# change, its prompt tokens less cached the second's; and later turns, their history cached,
# reach their first token sooner than first turns (61 s on 2026-12-05: 49,128 of 62,000 prompt
# tokens cached, TTFT 7.0 s first turns, 2.3 s later). The server's hit rate from its counters,
# polled through the level, is the summary's `server.prefix_cache_hit_rate`: the client's exactly.
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
engine_start 4 3072
scrape() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "http://127.0.0.1:$port/metrics"; }
scrape >"$work/sessions-before.prom"
timeout 300 "$bin" bench --url "http://127.0.0.1:$port" --model tiny-random-llama --concurrency 4 \
  --sessions 8 --turns 4 --shared-prefix-tokens 192 --warmup 0 --max-tokens 16 --prompt-tokens 16 \
  --ignore-eos --timeout 120 --server-metrics -o "$work/sessions.json" >"$work/sessions.out" 2>"$work/sessions.err"
scrape >"$work/sessions-after.prom"
"$bin" validate "$work/sessions.json"
"$bin" summarize --json "$work/sessions.json" >"$work/sessions-summary.json"
python3 - "$work/sessions.json" "$work/sessions-summary.json" "$work/sessions-before.prom" "$work/sessions-after.prom" <<'PY'
import json, sys
report, summary = (json.load(open(p)) for p in sys.argv[1:3])
def counter(path, name):
    for line in open(path):
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise SystemExit(f"{path}: no {name}")
delta = {n: counter(sys.argv[4], n) - counter(sys.argv[3], n)
         for n in ("llamacpp:prompt_tokens_cached_total", "llamacpp:prompt_tokens_total")}
req = report["runs"][0]["points"][0]["requests"]
assert not req.get("errors"), req.get("errors")
assert len(req["session"]) == 32 and len(set(req["session"])) == 8, req["session"]
assert sorted(req["turn"]) == sorted([0, 1, 2, 3] * 8), req["turn"]
cached, prompt = sum(req["cached_prompt_tokens"]), sum(req["input_tokens"])
assert cached == delta["llamacpp:prompt_tokens_cached_total"], (cached, delta)
assert prompt - cached == delta["llamacpp:prompt_tokens_total"], (prompt, cached, delta)
first = [t for t, k in zip(req["ttft_s"], req["turn"]) if k == 0]
later = [t for t, k in zip(req["ttft_s"], req["turn"]) if k > 0]
mean = lambda v: sum(v) / len(v)
assert mean(later) < mean(first), (mean(first), mean(later))
# The summary's figures are the same requests' (computed here from the report's own columns).
p = summary["runs"][0]["points"][0]
s = p["sessions"]
assert s["count"] == 8 and s["turns_mean"] == 4, s
assert abs(p["cache_hit_rate"] - cached / prompt) < 1e-12, (p["cache_hit_rate"], cached / prompt)
assert abs(s["ttft_first_turn_ms"]["mean"] - mean(first) * 1e3) < 1e-6 * mean(first) * 1e3, s
# The server's own hit rate from the counters polled through the level (--server-metrics): the
# same tokens, so the same rate, and no audit note.
srv = p["server"]
assert abs(srv["prefix_cache_hit_rate"] - cached / prompt) < 1e-9, (srv.get("prefix_cache_hit_rate"), cached / prompt)
assert "cache_audit" not in srv, srv["cache_audit"]
print(f"engine e2e: sessions 8 × 4: {cached:.0f} of {prompt:.0f} prompt tokens cached (the server's counters: "
      f"+{delta['llamacpp:prompt_tokens_cached_total']:.0f} cached, +{delta['llamacpp:prompt_tokens_total']:.0f} computed); "
      f"TTFT first turns {mean(first) * 1e3:.0f} ms, later {mean(later) * 1e3:.0f} ms; the server's hit rate {srv['prefix_cache_hit_rate']:.4f} = the client's")
PY
