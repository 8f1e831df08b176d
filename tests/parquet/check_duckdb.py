#!/usr/bin/env python3
"""The Parquet hand-off, read by another engine: `tpsview convert --to parquet` on every fixture with
per-request data (and the built-in samples), read with DuckDB, must give back what
`tpsview summarize --json` prints for the same files and options:

- from requests.parquet, recomputed in SQL: each level's system T/s (output tokens of the completed
  requests / (last token of a completed request - first send of a request that was not invalid)),
  its mean TTFT and its median E2E (quantile_cont: the numpy-linear percentile tpsview uses), and
  its completed and failed counts;
- points.parquet: each column equal to the summary's figure (null where the summary has null),
  the SLO and cost columns included, and those of issue 43 (tokens/s per user, the first visible
  token, reasoning, the prefix cache, sessions);
- from the request rows' facts (the sessions fixture): each level's cache hit rate (Σ cached / Σ
  prompt tokens), its reasoning tokens and its session count, recomputed in SQL.

Usage: check_duckdb.py TPSVIEW_BINARY (run by scripts/parquet-duckdb.sh in a venv with duckdb).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import duckdb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = sys.argv[1]
FILES = [
    "public/samples/h100-llama70b-fp8.tpsview.json",
    "public/samples/cpu-llamacpp-sweep.tpsview.json",
    "tests/fixtures/vllm/detailed-small.json",
    "tests/fixtures/vllm/goodput-ttft250-tpot33.json",
    "tests/fixtures/sglang/bench-serving-details.jsonl",
    "tests/fixtures/genai-perf/profile_export.json",
    "tests/fixtures/aiperf/profile_export.jsonl",
    "tests/fixtures/trtllm/concurrency8-requests.json",
    "tests/fixtures/llmperf/llama-3-8b_550_150_individual_responses.json",
    "tests/fixtures/guidellm/benchmarks-v0.2.json",
    "tests/fixtures/guidellm/benchmarks-v0.5-warmup.json",
    "tests/fixtures/guidellm/bad-requests.json",
    "tests/fixtures/sessions/two-sessions.tpsview.json",
]
OPTS = ["--slo", "ttft_ms=250,tpot_ms=35", "--gpu-hour-usd", "2.5", "--gpus", "8"]


def close(a, b, what, rel=1e-12):
    if a is None or b is None:
        assert a is None and b is None, f"{what}: {a!r} vs {b!r}"
        return
    assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-12), f"{what}: {a!r} vs {b!r}"


with tempfile.TemporaryDirectory() as out:
    run = subprocess.run([BIN, "convert", "--to", "parquet", "-o", out, *FILES, *OPTS],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(subprocess.run([BIN, "summarize", "--json", *FILES, *OPTS], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout)
    points = duckdb.sql(f"""
        SELECT * FROM read_parquet('{out}/points.parquet', file_row_number = true)
        ORDER BY file_row_number""")
    cols = points.columns
    rows = [dict(zip(cols, r)) for r in points.fetchall()]
    levels = [(ri, li, p) for ri, r in enumerate(summary["runs"]) for li, p in enumerate(r["points"])]
    assert len(rows) == len(levels), (len(rows), len(levels))
    recomputed = {
        (r[0], r[1]): r[2:]
        for r in duckdb.sql(f"""
            SELECT run_id, level,
                   sum(output_tokens) FILTER (WHERE ok AND output_tokens > 0),
                   max(start_s + e2e_s) FILTER (WHERE ok AND output_tokens > 0)
                     - min(start_s) FILTER (WHERE status <> 'invalid'),
                   avg(ttft_s) FILTER (WHERE ok AND output_tokens > 0),
                   quantile_cont(e2e_s, 0.5) FILTER (WHERE ok AND output_tokens > 0),
                   count(*) FILTER (WHERE ok AND output_tokens > 0),
                   count(*) FILTER (WHERE status = 'failed')
            FROM '{out}/requests.parquet' GROUP BY run_id, level""").fetchall()
    }
    checked = 0
    for row, (ri, li, p) in zip(rows, levels):
        where = f"{row['run_id']} level {li}"
        run_ = summary["runs"][ri]
        assert row["run"] == run_["label"] and row["level"] == li, where
        for key in ("concurrency", "duration_s", "system_tps", "per_stream_tps", "request_throughput",
                    "concurrency_achieved", "requests_ok", "requests_failed", "output_tokens"):
            close(row[key], p[key], f"{where}: {key}")
        for series in ("ttft", "tpot", "itl", "e2e"):
            for stat in ("mean", "p50", "p90", "p99"):
                close(row[f"{series}_{stat}_ms"], p[f"{series}_ms"][stat], f"{where}: {series} {stat}")
        slo = p.get("slo") or {}
        for key in ("attainment", "goodput_rps", "goodput_tps"):
            close(row["slo_attainment" if key == "attainment" else key], slo.get(key), f"{where}: {key}")
        assert row["slo_met"] == slo.get("met"), where
        close(row["usd_per_million_output_tokens"], p.get("usd_per_million_output_tokens"), f"{where}: cost")
        i = p.get("interactivity") or {"e2e_normalized": {}}
        for q in ("p50", "p90", "p99"):
            close(row[f"interactivity_e2e_{q}"], i["e2e_normalized"].get(q), f"{where}: interactivity {q}")
        close(row["interactivity_aggregate"], i.get("aggregate"), f"{where}: interactivity aggregate")
        ttfvt = p.get("ttfvt_ms") or {}
        for stat in ("mean", "p50", "p90", "p99"):
            close(row[f"ttfvt_{stat}_ms"], ttfvt.get(stat), f"{where}: ttfvt {stat}")
        for key in ("reasoning_tokens", "visible_system_tps", "input_tokens", "cached_prompt_tokens",
                    "cache_hit_rate"):
            close(row[key], p.get(key), f"{where}: {key}")
        s_ = p.get("sessions") or {}
        close(row["sessions"], s_.get("count"), f"{where}: sessions")
        close(row["ttft_first_turn_mean_ms"], (s_.get("ttft_first_turn_ms") or {}).get("mean"), where)
        got = recomputed.get((row["run_id"], li))
        if got is None or p["duration_as_reported"] or p["basis"] != "recomputed":
            continue
        tokens, duration, ttft, e2e_p50, ok, failed = got
        # No send times (LLMPerf's responses): no duration in either, so no system T/s.
        tps = tokens / duration if duration is not None else None
        close(tps, p["system_tps"], f"{where}: system T/s from the request rows")
        close(ttft * 1e3, p["ttft_ms"]["mean"], f"{where}: mean TTFT from the request rows", 1e-9)
        close(e2e_p50 * 1e3, p["e2e_ms"]["p50"], f"{where}: median E2E from the request rows", 1e-9)
        assert (ok, failed) == (p["requests_ok"], p["requests_failed"]), where
        checked += 1
    assert checked >= 15, checked
    facts = duckdb.sql(f"""
        SELECT run_id, level, sum(cached_prompt_tokens) / sum(input_tokens), sum(reasoning_tokens),
               count(DISTINCT session)
        FROM '{out}/requests.parquet'
        WHERE ok AND cached_prompt_tokens IS NOT NULL GROUP BY run_id, level""").fetchall()
    assert len(facts) == 1, facts
    (run_id, li, hit, reasoning, sessions), = facts
    row = next(r for r in rows if r["run_id"] == run_id and r["level"] == li)
    close(hit, row["cache_hit_rate"], "cache hit rate from the request rows")
    assert (reasoning, sessions) == (row["reasoning_tokens"], row["sessions"]), (reasoning, sessions)
    n = duckdb.sql(f"SELECT count(*) FROM '{out}/requests.parquet'").fetchall()[0][0]
    print(f"ok: {len(rows)} levels in points.parquet equal summarize --json; {checked} levels' system T/s, "
          f"mean TTFT, median E2E and counts recomputed by DuckDB from {n} request rows")
