#!/usr/bin/env bash
# End-to-end test of `tpsview bench` against a real llama.cpp server with continuous batching
# (xllamacpp from PyPI, CPU, bound to 127.0.0.1) serving a random-weight GGUF this script writes.
# Bounded: 2 levels × 8 requests × 32 tokens, every step under `timeout`. Checks: the report
# validates, every request's token count is the server's usage (32, EOS never wins), system T/s at
# concurrency 4 beats concurrency 1, and `summarize` reads the report back.
#   scripts/engine-e2e.sh [TPSVIEW_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/tpsview}"
source scripts/engine/lib.sh
engine_start 4
timeout 300 "$bin" bench --url "http://127.0.0.1:$port" --model tiny-random-llama --concurrency 1,4 \
  --requests-per-level 8 --max-tokens 32 --prompt-tokens 16 --ignore-eos --timeout 60 \
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
print(f"engine e2e: system T/s {s1:.1f} at 1 -> {s4:.1f} at 4; per-stream {p1:.1f} -> {p4:.1f}")
PY
