#!/usr/bin/env python3
"""Expected figures of every file of the corpus, computed from the file itself without tpsview.

Python's standard library plus PyYAML (for YAML files). For each case (a folder of the corpus,
read together as a user would drop it; a console report alone) this writes, per point, the
figures the file itself states (under `reported.<the tool's key>` and, where the tool defines a
figure as tpsview does, under tpsview's name) and, where the file holds per-request data, the
figures docs/metrics.md defines: requests completed, output tokens, mean TTFT and TPOT, and
system T/s = sum of output tokens / duration. `crates/tpsview-cli/tests/wild.rs` runs
`tpsview summarize --json` on each case and compares within 0.5 %.

Usage: python3 tests/wild/expected.py > expected.json   (paths relative to tests/wild/)
"""

import glob
import json
import math
import re
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


def num(v):
    """A number as a tool writes it (a number, or a numeric string)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.replace(",", ""))
        except ValueError:
            return None
    return None


def finite(v):
    return v is not None and math.isfinite(v)


def json_objects(path):
    """The JSON values of a file: one document, or one per line (JSON lines, appended results)."""
    text = open(path, encoding="utf-8").read()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def source(name, k, n):
    return name if n == 1 else f"{name}#{k + 1}"


def stated(obj, keys):
    out = {}
    for k in keys:
        v = num(obj.get(k))
        if finite(v):
            out["reported." + k] = v
    return out


# --- vLLM bench serve and SGLang bench_serving ------------------------------------------------

SERVE_KEYS = ["output_throughput", "request_throughput", "mean_ttft_ms", "mean_tpot_ms",
              "median_ttft_ms", "p99_ttft_ms", "completed"]


def per_request_serve(o, sglang):
    """tpsview's definitions over a result's per-request lists (vLLM --save-detailed, SGLang
    --output-details): requests with no error and at least one output token count."""
    ttfts, outs = o.get("ttfts"), o.get("output_lens")
    if not isinstance(ttfts, list) or not isinstance(outs, list) or not ttfts:
        return None
    errors = o.get("errors") or [""] * len(ttfts)
    itls = o.get("itls") or [[] for _ in ttfts]
    lats = o.get("latencies")
    starts = o.get("start_times")
    ok = []
    for i, t in enumerate(ttfts):
        out = outs[i] if i < len(outs) else 0
        if (errors[i] if i < len(errors) else "") or not out or t is None or not finite(num(t)):
            continue
        e2e = lats[i] if isinstance(lats, list) and i < len(lats) else t + sum(itls[i] or [])
        ok.append((i, float(t), float(e2e), int(out)))
    if not ok:
        return {"requests_ok": 0}
    figs = {
        "requests_ok": len(ok),
        "output_tokens": sum(r[3] for r in ok),
        "ttft_ms.mean": mean(r[1] for r in ok) * 1000,
    }
    tpots = [(r[2] - r[1]) / (r[3] - 1) for r in ok if r[3] >= 2]
    if tpots:
        figs["tpot_ms.mean"] = mean(tpots) * 1000
    if isinstance(starts, list) and len(starts) == len(ttfts) and not sglang:
        first = min(starts[r[0]] for r in ok)
        last = max(starts[r[0]] + r[2] for r in ok)
        duration = last - first
    else:
        duration = num(o.get("duration"))
    if finite(duration) and duration > 0:
        figs["system_tps"] = figs["output_tokens"] / duration
    return figs


def serve(path, name, sglang=False):
    objs = json_objects(path)
    if len(objs) == 1 and isinstance(objs[0], list):
        objs = objs[0]
    points = []
    for k, o in enumerate(objs):
        figs = stated(o, SERVE_KEYS)
        raw = per_request_serve(o, sglang)
        if raw is not None:
            figs.update(raw)
        else:
            # As reported: the figures the tool defines as tpsview does.
            for ours, theirs in [("system_tps", "output_throughput"), ("ttft_ms.mean", "mean_ttft_ms"),
                                 ("tpot_ms.mean", "mean_tpot_ms")]:
                v = num(o.get(theirs))
                if finite(v) and v > 0:
                    figs[ours] = v
        points.append({"source": source(name, k, len(objs)), "figures": figs})
    return points


def vllm_sweep_csv(path, name):
    """`vllm bench sweep`'s summary.csv: pandas' index first, a row per run; the figures as
    reported (tpsview's system T/s, mean TTFT and TPOT are vLLM's own)."""
    import csv
    points = []
    with open(path, encoding="utf-8", newline="") as fh:
        for k, row in enumerate(csv.DictReader(fh)):
            figs = {}
            for ours, theirs in [("system_tps", "output_throughput"), ("ttft_ms.mean", "mean_ttft_ms"),
                                 ("tpot_ms.mean", "mean_tpot_ms"), ("concurrency", "max_concurrency")]:
                v = num(row.get(theirs))
                if finite(v) and v > 0:
                    figs[ours] = v
            points.append({"source": f"{name}#{k + 1}", "figures": figs})
    return points


# --- vLLM bench latency / throughput ----------------------------------------------------------

def vllm_latency(path, name):
    o = json_objects(path)[0]
    return [{"source": name, "figures": stated(o, ["avg_latency"])}]


def vllm_throughput(path, name):
    o = json_objects(path)[0]
    return [{"source": name, "figures": stated(o, ["elapsed_time", "requests_per_second", "tokens_per_second"])}]


# --- SGLang bench_one_batch --------------------------------------------------------------------

def one_batch(path, name):
    objs = json_objects(path)
    points = []
    for k, o in enumerate(objs):
        figs = stated(o, ["prefill_latency", "median_decode_latency", "overall_throughput",
                          "median_decode_throughput", "latency", "output_throughput",
                          "last_gen_throughput"])
        step = num(o.get("median_decode_latency"))
        batch = num(o.get("batch_size"))
        figs["concurrency"] = batch
        if finite(step) and step > 0:
            figs["per_stream_tps"] = 1 / step
            figs["system_tps"] = batch / step
        # Always the line's number: the reader numbers every line.
        points.append({"source": f"{name}#{k + 1}", "figures": figs})
    return points


# --- llama-bench ------------------------------------------------------------------------------

def llama_bench(path, name):
    objs = json_objects(path)
    if len(objs) == 1 and isinstance(objs[0], list):
        objs = objs[0]
    points = []
    for k, o in enumerate(objs):
        np_, ng = num(o.get("n_prompt")), num(o.get("n_gen"))
        key = "avg_ts" if not np_ and ng else ("prefill_avg_ts" if np_ and not ng else "mixed_avg_ts")
        figs = {"reported." + key: num(o["avg_ts"])}
        if key == "avg_ts":
            figs["system_tps"] = num(o["avg_ts"])
            figs["per_stream_tps"] = num(o["avg_ts"])
        # Always the index in the file: llama-bench's reader numbers every test.
        points.append({"source": f"{name}#{k + 1}", "figures": figs,
                       "label": o.get("model_type") or o.get("model_filename")})
    return points


# --- LLMPerf ----------------------------------------------------------------------------------

LLMPERF_KEYS = ["results_ttft_s_mean", "results_mean_output_throughput_token_per_s",
                "results_num_completed_requests", "results_end_to_end_latency_s_mean"]


def llmperf_summary_figs(o):
    figs = stated(o, LLMPERF_KEYS)
    v = num(o.get("results_mean_output_throughput_token_per_s"))
    if finite(v):
        figs["system_tps"] = v
    c = num(o.get("num_concurrent_requests"))
    if finite(c):
        figs["concurrency"] = c
    return figs


def llmperf(folder, files):
    """A summary (and its individual_responses, when beside it: one point of the responses)."""
    points = []
    summaries = [f for f in files if f.endswith("_summary.json")]
    responses = [f for f in files if f.endswith("_individual_responses.json")]
    for f in files:
        if f in summaries or f in responses:
            continue
        # A wrapper's file of summaries keyed by concurrency (philschmid/llmperf-bench).
        o = json_objects(os.path.join(HERE, f))[0]
        keys = sorted(o, key=lambda k: float(k)) if all(k.isdigit() for k in o) else []
        for i, k in enumerate(keys):
            points.append({"source": f"{os.path.basename(f)}#{i + 1}", "file": f,
                           "figures": llmperf_summary_figs(o[k]), "label": o[k].get("model")})
    for s in summaries:
        o = json_objects(os.path.join(HERE, s))[0]
        figs = llmperf_summary_figs(o)
        pair = [r for r in responses if r[: -len("_individual_responses.json")] == s[: -len("_summary.json")]]
        src = s
        if len(pair) == 1:
            src = pair[0]
            rs = json_objects(os.path.join(HERE, src))[0]
            ok = [r for r in rs if not r.get("error_code") and (r.get("number_output_tokens") or 0) > 0]
            figs["requests_ok"] = len(ok)
            figs["output_tokens"] = sum(r["number_output_tokens"] for r in ok)
            figs["ttft_ms.mean"] = mean(r["ttft_s"] for r in ok) * 1000
            tp = [(r["end_to_end_latency_s"] - r["ttft_s"]) / (r["number_output_tokens"] - 1)
                  for r in ok if r["number_output_tokens"] >= 2]
            if tp:
                figs["tpot_ms.mean"] = mean(tp) * 1000
        points.append({"source": os.path.basename(src), "file": src, "figures": figs,
                       "label": o.get("model")})
    return points


# --- GenAI-Perf and AIPerf summaries ----------------------------------------------------------

def metric_stat(o, metric, stat):
    m = o.get(metric)
    if not isinstance(m, dict):
        return None
    v = num(m.get(stat))
    if v is None:
        return None
    unit = (m.get("unit") or "").lower()
    return v / 1e6 if unit == "ns" else v


def tag_records(o):
    """AIPerf's summary of late 2025: metric objects under `records`, keyed by tag (`ttft`)."""
    r = o.get("records")
    return isinstance(r, dict) and any(isinstance(v, dict) and "tag" in v for v in r.values())


def summary_json(path, name, aiperf):
    o = json_objects(path)[0]
    if tag_records(o):
        lifted = {k: v for k, v in o.items() if k != "records"}
        for tag, m in o["records"].items():
            lifted.setdefault({"ttft": "time_to_first_token"}.get(tag, tag), m)
        o = lifted
    figs = {}
    for metric in ["time_to_first_token", "request_throughput", "output_token_throughput",
                   "request_latency"]:
        v = metric_stat(o, metric, "avg")
        if finite(v):
            figs[f"reported.{metric}.avg"] = v
    v = metric_stat(o, "time_to_first_token", "avg")
    if finite(v):
        figs["ttft_ms.mean"] = v
    v = metric_stat(o, "output_token_throughput", "avg")
    if finite(v):
        figs["system_tps"] = v
    cfg = o.get("input_config") or {}
    c = (cfg.get("loadgen") or {}).get("concurrency") if aiperf else None
    if c is None:
        c = (((cfg.get("perf_analyzer") or {}).get("stimulus") or {}).get("concurrency")
             or cfg.get("concurrency"))
    if num(c) is not None:
        figs["concurrency"] = num(c)
    endpoint = cfg.get("endpoint") if isinstance(cfg.get("endpoint"), dict) else {}
    model = (endpoint.get("model_names") or cfg.get("model_names")
             or cfg.get("model") or [None])
    model = model[0] if isinstance(model, list) else model
    return [{"source": name, "figures": figs, "label": model}]


def genai_export(path, name):
    """GenAI-Perf's raw profile export: per request, the first and last response after the
    request's timestamp (ns); output tokens are counted by the reader, so only TTFT, E2E and the
    request count are checked here."""
    o = json_objects(path)[0]
    points = []
    exps = o.get("experiments") or []
    for e, exp in enumerate(exps):
        reqs = exp.get("requests") or []
        ttft = []
        for r in reqs:
            ts = r.get("response_timestamps") or []
            if ts:
                ttft.append((ts[0] - r["timestamp"]) / 1e6)
        figs = {}
        if ttft:
            figs["requests_ok"] = len(ttft)
            figs["ttft_ms.mean"] = mean(ttft)
        points.append({"source": source(name, e, len(exps)), "figures": figs})
    return points


# --- GuideLLM ----------------------------------------------------------------------------------

def guidellm(path, name):
    o = json_objects(path)[0]
    points = []
    for b, bench in enumerate(o.get("benchmarks") or []):
        metrics = bench.get("metrics") or {}
        figs = {}
        for key in ["output_tokens_per_second", "time_to_first_token_ms", "requests_per_second"]:
            succ = (metrics.get(key) or {}).get("successful") or {}
            v = num(succ.get("mean"))
            if finite(v):
                figs[f"reported.{key}.mean"] = v
        points.append({"source": f"{name}#{b + 1}", "figures": figs})
    return points


# --- llm-d benchmark reports (v0.1 and v0.2, YAML) --------------------------------------------

TO_MS = {"s": 1e3, "ms": 1.0, "s/token": 1e3, "ms/token": 1.0}


def llmd(path, name):
    import yaml  # PyYAML: only for the YAML files of the corpus

    o = yaml.safe_load(open(path, encoding="utf-8"))
    v01 = str(o.get("version", "")).startswith("0.1")
    agg = o["metrics"] if v01 else o["results"]["request_performance"]["aggregate"]
    figs = {}
    for metric, ours in [("time_to_first_token", "ttft_ms"), ("time_per_output_token", "tpot_ms"),
                         ("inter_token_latency", "itl_ms"), ("request_latency", "e2e_ms")]:
        block = agg["latency"].get(metric) or {}
        f = TO_MS.get(block.get("units"))
        if f and finite(num(block.get("mean"))):
            figs[f"{ours}.mean"] = num(block["mean"]) * f
    req = agg.get("requests") or {}
    figs["requests_ok"] = num(req["total"]) - num(req.get("failures") or 0) - num(req.get("incomplete") or 0)
    figs["requests_failed"] = num(req.get("failures") or 0)
    label = None
    if v01:
        t = agg["throughput"]
        figs["system_tps"] = num(t["output_tokens_per_sec"])
        figs["request_throughput"] = num(t["requests_per_sec"])
        figs["reported.throughput.output_tokens_per_sec"] = figs["system_tps"]
        figs["duration_s"] = num(agg["time"]["duration"])
        load = o["scenario"]["load"]
        stage = load["args"]["load"]["stages"][load["metadata"]["stage"]]
        if stage.get("rate") is not None:
            figs["request_rate"] = num(stage["rate"])
        if stage.get("concurrency_level") is not None:
            figs["concurrency"] = num(stage["concurrency_level"])
        model = (o["scenario"].get("model") or {}).get("name")
        label = model if model and model != "unknown" else load["args"]["server"]["model_name"]
    else:
        t = agg["throughput"]
        figs["system_tps"] = num(t["output_token_rate"]["mean"])
        figs["request_throughput"] = num(t["request_rate"]["mean"])
        figs["reported.throughput.output_token_rate.mean"] = figs["system_tps"]
        std = o["scenario"]["load"]["standardized"]
        if std.get("rate_qps") is not None:
            figs["request_rate"] = num(std["rate_qps"])
    return [{"source": name, "figures": figs, "label": label}]


# --- MLPerf LoadGen ---------------------------------------------------------------------------

def mlperf_summary(path, name):
    figs = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        if ":" not in line:
            continue
        k, v = line.split(":", 1)
        k = k.strip()
        if k in ("Completed samples per second", "Samples per second", "Completed tokens per second",
                 "Tokens per second"):
            n = num(v.strip())
            if finite(n):
                figs["reported." + k] = n
    return [{"source": name, "figures": figs}]


# --- trtllm-bench's console report -----------------------------------------------------------

def trtllm_console(path, name):
    """Each `= PERFORMANCE OVERVIEW` section (its concurrency from the REQUEST DETAILS before it);
    without section headers, each group of `label: value` lines that starts at `Request
    Throughput (req/sec)`."""
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()

    def value(line):
        label, _, v = line.rpartition(":")
        try:
            return label.strip(), float(v.strip())
        except ValueError:
            return None

    reports = []
    if any(l.strip() == "= PERFORMANCE OVERVIEW" for l in lines):
        section, concurrency, current = None, None, None
        for l in lines:
            t = l.strip()
            if t.startswith("= "):
                if current is not None:
                    reports.append(current)
                    current = None
                section = t[2:]
                if section == "PERFORMANCE OVERVIEW":
                    current = {"concurrency": concurrency}
                continue
            kv = value(t)
            if kv and section == "REQUEST DETAILS" and kv[0] == "Number of concurrent requests":
                concurrency = kv[1]
            if kv and current is not None:
                current[kv[0]] = kv[1]
        if current is not None:
            reports.append(current)
    else:
        i = 0
        while i < len(lines):
            kv = value(lines[i].strip())
            if kv and kv[0] == "Request Throughput (req/sec)":
                rep = {"concurrency": None}
                while i < len(lines) and value(lines[i].strip()):
                    k, v = value(lines[i].strip())
                    rep[k] = v
                    i += 1
                reports.append(rep)
            i += 1
    points = []
    for k, r in enumerate(reports):
        figs = {}
        # 0.16 printed the output tokens over the total latency as `Token Throughput`.
        out = r.get("Total Output Throughput (tokens/sec)", r.get("Token Throughput (tokens/sec)"))
        if out is not None:
            figs["system_tps"] = out
            figs["reported.performance.system_output_throughput_tok_s"] = out
        if "Request Throughput (req/sec)" in r:
            figs["reported.performance.request_throughput_req_s"] = r["Request Throughput (req/sec)"]
        if "Average request latency (ms)" in r:
            figs["e2e_ms.mean"] = r["Average request latency (ms)"]
        if r["concurrency"] is not None:
            figs["concurrency"] = r["concurrency"]
        points.append({"source": source(name, k, len(reports)), "figures": figs})
    return points


# --- vLLM's and SGLang's console block --------------------------------------------------------

def serving_console(path, name):
    """Each `Serving Benchmark Result` block: its printed throughput, TTFT and TPOT."""
    blocks, current = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        t = line.strip()
        if "Serving Benchmark Result" in t:
            current = {}
            continue
        if current is None:
            continue
        if t.startswith("=========="):
            blocks.append(current)
            current = None
            continue
        label, _, v = t.partition(":")
        try:
            current[label.strip()] = float(v.strip())
        except ValueError:
            pass
    blocks = [b for b in blocks if "Output token throughput (tok/s)" in b]
    points = []
    for k, b in enumerate(blocks):
        figs = {"system_tps": b["Output token throughput (tok/s)"],
                "reported.output_throughput": b["Output token throughput (tok/s)"]}
        for ours, label in [("ttft_ms.mean", "Mean TTFT (ms)"), ("tpot_ms.mean", "Mean TPOT (ms)")]:
            if b.get(label, 0) > 0:
                figs[ours] = b[label]
        for key, label in [("completed", "Successful requests"), ("request_throughput", "Request throughput (req/s)")]:
            if label in b:
                figs["reported." + key] = b[label]
        points.append({"source": source(name, k, len(blocks)), "figures": figs})
    return points


# --- llama-bench's Markdown table ---------------------------------------------------------------

def llama_table(path, name):
    """Each row of a `| model | … | test | t/s |` table: its rate, as printed."""
    points, header, k = [], None, 0
    for line in open(path, encoding="utf-8", errors="replace"):
        t = line.strip()
        if not (t.startswith("|") and t.endswith("|")):
            if not t.startswith("|"):
                header = header if t == "" else None
            continue
        cells = [c.strip() for c in t.strip("|").split("|")]
        if cells[0] == "model" and "test" in cells:
            header = cells
            continue
        if header is None or set("".join(cells)) <= set("-:"):
            continue
        row = dict(zip(header, cells))
        mean = float(row["t/s"].split("±")[0])
        test = row["test"].split("@")[0].strip()
        key = "avg_ts" if test.startswith("tg") else ("prefill_avg_ts" if "+" not in test else "mixed_avg_ts")
        figs = {"reported." + key: mean}
        if key == "avg_ts":
            figs["system_tps"] = mean
        k += 1
        points.append({"source": f"{name}#{k}", "figures": figs, "label": row["model"]})
    return points


# --- llama-benchy's Markdown table -------------------------------------------------------------

def llama_benchy(path, name):
    """Each pp row with the tg row after it (same model, depth, concurrency) as one level: the tg
    row's `t/s` / `t/s (total)` as system T/s, the pp row's ttfr as mean TTFT, as printed."""
    rows, header = [], None
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        t = line.strip()
        if not (t.startswith("|") and t.endswith("|")):
            header = None
            continue
        cells = [c.strip() for c in t[1:-1].split("|")]
        if cells[:2] == ["model", "test"]:
            header = cells
            continue
        if header is None or set("".join(cells)) <= set("-:"):
            continue
        row = dict(zip(header, cells))
        m = re.fullmatch(r"(pp|tg)(\d+)(?: @ d(\d+))?(?: \(c(\d+)\))?", row["test"])
        if not m:
            continue
        val = lambda col: float(row[col].split("±")[0]) if row.get(col, "").strip() not in ("", "—") else None
        rows.append({"line": n, "model": row["model"], "kind": m.group(1), "depth": int(m.group(3) or 0),
                     "c": int(m.group(4) or 1),
                     "ts": val("t/s (total)") if "t/s (total)" in row else val("t/s"),
                     "ttfr": val("ttfr (ms)")})
    points, i = [], 0
    while i < len(rows):
        r = rows[i]
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        pair = (r["kind"] == "pp" and nxt is not None and nxt["kind"] == "tg" and nxt["model"] == r["model"]
                and nxt["depth"] == r["depth"] and nxt["c"] == r["c"])
        pp = r if r["kind"] == "pp" else None
        tg = nxt if pair else (r if r["kind"] == "tg" else None)
        i += 2 if pair else 1
        figs = {"concurrency": float(r["c"])}
        if tg is not None and tg["ts"] is not None:
            figs["system_tps"] = tg["ts"]
            figs["reported.tg_ts_total"] = tg["ts"]
        if pp is not None and pp["ts"] is not None:
            figs["reported.pp_ts_total"] = pp["ts"]
        if pp is not None and pp["ttfr"] is not None:
            figs["ttft_ms.mean"] = pp["ttfr"]
            figs["reported.ttfr_ms"] = pp["ttfr"]
        points.append({"source": f"{name}:{r['line']}", "figures": figs, "label": r["model"]})
    return points


def llama_benchy_json(path, name):
    """Each entry of `benchmarks`: its tg throughput's mean as system T/s, its ttfr's as mean TTFT."""
    o = json_objects(path)[0]
    points = []
    for i, b in enumerate(o["benchmarks"]):
        figs = {"concurrency": float(b.get("concurrency") or 1)}
        mean = lambda k: (b.get(k) or {}).get("mean")
        if mean("tg_throughput") is not None:
            figs["system_tps"] = mean("tg_throughput")
            figs["reported.tg_ts_total"] = mean("tg_throughput")
        if mean("pp_throughput") is not None:
            figs["reported.pp_ts_total"] = mean("pp_throughput")
        if mean("ttfr") is not None:
            figs["ttft_ms.mean"] = mean("ttfr")
        points.append({"source": f"{name}#{i + 1}", "figures": figs, "label": o.get("model")})
    return points


# --- llama-server's answers with their `timings` ------------------------------------------------

def timings_of(v, model=None, depth=0):
    """Every (timings, model) under v: a `timings` object with predicted_ms, and the model the
    object holding it (or one around it) names."""
    out = []
    if depth > 8:
        return out
    if isinstance(v, dict):
        model = v.get("model") if isinstance(v.get("model"), str) else model
        t = v.get("timings")
        if isinstance(t, dict) and "predicted_ms" in t:
            out.append((t, model))
        for k, x in v.items():
            if k != "timings":
                out += timings_of(x, model, depth + 1)
    elif isinstance(v, list):
        for x in v:
            out += timings_of(x, model, depth + 1)
    return out


def llama_server(path, name):
    """Each timings a request: TTFT = prompt_ms, E2E = prompt_ms + predicted_ms, TPOT =
    predicted_ms / (predicted_n - 1); a run per model at concurrency 1."""
    groups = {}
    for t, model in timings_of(json_objects(path)):
        groups.setdefault(model or "llama-server", []).append(t)
    points = []
    for k, (model, ts) in enumerate(groups.items()):
        ok = [t for t in ts if all(isinstance(t.get(x), (int, float)) for x in ("prompt_ms", "predicted_ms", "predicted_n"))]
        figs = {"concurrency": 1.0, "requests_ok": len(ok),
                "ttft_ms.mean": mean([t["prompt_ms"] for t in ok]),
                "e2e_ms.mean": mean([t["prompt_ms"] + t["predicted_ms"] for t in ok])}
        tpots = [t["predicted_ms"] / (t["predicted_n"] - 1) for t in ok if t["predicted_n"] > 1]
        if tpots:
            figs["tpot_ms.mean"] = mean(tpots)
        points.append({"source": f"{name}#{k + 1}" if len(groups) > 1 else name, "figures": figs, "label": model})
    return points


# --- Ollama's timings (ollama run --verbose, llm_benchmark) ------------------------------------

OLLAMA_LABELS = ("total duration", "load duration", "prompt eval count", "prompt eval duration",
                 "prompt eval rate", "eval count", "eval duration", "eval rate")


def go_seconds(s):
    """A Go time.Duration string (1m17.28s, 85.96ms, 45.2µs) in seconds."""
    parts = re.findall(r"([0-9.]+)(h|ms|m|s|us|µs|μs|ns)", s)
    if not parts or "".join(a + b for a, b in parts) != s:
        return None
    scale = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9}
    return sum(float(a) * scale[b] for a, b in parts)


def ollama(path, name):
    """Each model's verbose blocks as requests (TTFT = total − eval duration, E2E = total, TPOT =
    eval duration / (eval count − 1)), and llm_benchmark's average as printed; a model named by
    `ollama run X` or `model_name = X`, else a one-word heading; the same model after its
    average is another run."""
    groups, model, head, section, block = [], None, None, None, {}

    def group(m):
        for g in reversed(groups):
            if g["model"] == m and g["avg"] is None:
                return g
        groups.append({"model": m, "section": section, "rows": [], "rates": [], "avg": None})
        return groups[-1]

    def close():
        nonlocal block
        if block:
            g = group(model or head or "")
            if "eval rate" in block:
                g["rates"].append(block["eval rate"])
            if "eval count" in block and "eval duration" in block and "total duration" in block:
                g["rows"].append((block["total duration"], block["eval duration"], block["eval count"]))
        block = {}

    text = open(path, encoding="utf-8", errors="replace").read()
    for raw in text.splitlines():
        segs = [x for x in raw.split("\r") if x.strip()]
        line = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", "", segs[-1] if segs else "")
        line = re.sub("[\u2800-\u28ff]", "", line).strip()
        label, _, value = line.partition(":")
        if label.strip() in OLLAMA_LABELS and _:
            label = label.strip()
            if label in ("total duration", "eval count", "eval rate") and label in block:
                close()
            first = (value.split() or [""])[0]
            block[label] = go_seconds(first) if "duration" in label else float(first)
            continue
        close()
        if line.startswith("Average of eval rate:"):
            group(model or head or "")["avg"] = float(line.split(":", 1)[1].split()[0])
        elif "ollama run " in line and not line.split("ollama run ", 1)[1].split()[0].startswith("-"):
            model = line.split("ollama run ", 1)[1].split()[0]
        elif re.match(r"^model_name\s*=", line):
            model = line.split("=", 1)[1].strip()
        elif line.startswith("#") or (len(line) > 6 and line.startswith("===") and line.endswith("===")):
            h = line.strip("#=").strip().strip("*`").strip()
            if h:
                if not re.search(r"\s", h) and not h.endswith(":"):
                    head = h
                section = h
    close()
    groups = [g for g in groups if g["rows"] or g["avg"] is not None]
    points = []
    for k, g in enumerate(groups):
        figs = {"concurrency": 1.0}
        rows = [r for r in g["rows"] if r[0] >= r[1] > 0]
        if rows:
            figs["requests_ok"] = len(rows)
            figs["ttft_ms.mean"] = mean([(t - d) * 1e3 for t, d, n in rows])
            figs["e2e_ms.mean"] = mean([t * 1e3 for t, d, n in rows])
            tpots = [d / (n - 1) * 1e3 for t, d, n in rows if n > 1]
            if tpots:
                figs["tpot_ms.mean"] = mean(tpots)
                figs["per_stream_tps"] = 1e3 / mean(tpots)
        if g["avg"] is not None:
            figs["reported.average_eval_rate"] = g["avg"]
            if not rows:
                figs["per_stream_tps"] = g["avg"]
        points.append({"source": f"{name}#{k + 1}" if len(groups) > 1 else name,
                       "figures": figs, "label": g["model"] or None})
    return points


# --- dispatch ---------------------------------------------------------------------------------

# --- AIPerf profile_export.jsonl (per-request records) ----------------------------------------

def pct(xs, p):
    """numpy's linear percentile (within the 0.5 % the comparison allows, the plain formula)."""
    xs = sorted(xs)
    h = (len(xs) - 1) * p / 100
    lo = int(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (h - lo)


def aiperf_records(path, name):
    """AIPerf's records (any version: before 0.1 a record's send time is `timestamp_ns`, its phase
    `credit_phase`, its TTFT `ttft`): warm-up left out; an `error` or a cancellation is a failed
    request; the others with a TTFT, a latency and output count. Times in ms unless a unit says."""
    scale = {"ns": 1e-9, "us": 1e-6, "s": 1.0, "sec": 1.0}

    def sec(m, *keys):
        for k in keys:
            v = m.get(k)
            if isinstance(v, dict) and finite(num(v.get("value"))):
                return num(v["value"]) * scale.get(v.get("unit"), 1e-3)
        return None

    def value(m, *keys):
        for k in keys:
            v = m.get(k)
            if isinstance(v, dict) and finite(num(v.get("value"))):
                return num(v["value"])
        return None

    ok, failed, sends = [], 0, []
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        meta, m = r.get("metadata") or {}, r.get("metrics") or {}
        if (meta.get("benchmark_phase") or meta.get("credit_phase")) == "warmup":
            continue
        sent = meta.get("request_start_ns", meta.get("timestamp_ns"))
        if r.get("error") is not None or meta.get("was_cancelled"):
            failed += 1
            sends.append(sent)
            continue
        ttft, e2e = sec(m, "time_to_first_token", "ttft"), sec(m, "request_latency")
        osl = value(m, "output_sequence_length", "output_token_count")
        if ttft is None or e2e is None or not osl:
            continue
        sends.append(sent)
        ok.append((sent * 1e-9, ttft, e2e, osl, value(m, "reasoning_token_count")))
    figs = {"requests_ok": len(ok), "requests_failed": failed}
    if not ok:
        return [{"source": name, "figures": figs}]
    t0 = min(sends) * 1e-9
    duration = max(s + e for s, _, e, _, _ in ok) - t0
    out = sum(r[3] for r in ok)
    figs.update({
        "output_tokens": out,
        "ttft_ms.mean": mean(r[1] for r in ok) * 1000,
        "e2e_ms.mean": mean(r[2] for r in ok) * 1000,
        "system_tps": out / duration,
        # Tokens per second per user over the whole request, its p90 on the slow tail.
        "interactivity.e2e_normalized.p90": 1 / pct([r[2] / r[3] for r in ok], 90),
        "interactivity.aggregate": out / sum(r[2] for r in ok),
    })
    if all(r[4] is not None for r in ok):
        reasoning = sum(r[4] for r in ok)
        figs["reasoning_tokens"] = reasoning
        figs["visible_system_tps"] = (out - reasoning) / duration
    return [{"source": name, "figures": figs}]


# --- inference-perf (kubernetes-sigs) lifecycle reports ------------------------------------

def inference_perf_model(path):
    """The model its config.yaml beside it names (`server.model_name`), if any."""
    cfg = os.path.join(os.path.dirname(path), "config.yaml")
    if not os.path.exists(cfg):
        return None
    import yaml  # PyYAML

    return ((yaml.safe_load(open(cfg, encoding="utf-8")) or {}).get("server") or {}).get("model_name")


def inference_perf(path, name):
    """A stage or summary report: aggregates in seconds, shown as reported. Its TPOT and ITL are
    left out where the ITL median is under 1/20 of its mean (timestamps per streamed line)."""
    o = json_objects(path)[0]
    succ, load = o["successes"], o.get("load_summary") or {}
    lat = succ["latency"]
    figs = {
        "requests_ok": succ["count"],
        "requests_failed": (o.get("failures") or {}).get("count", 0),
        "system_tps": succ["throughput"]["output_tokens_per_sec"],
        "request_throughput": succ["throughput"]["requests_per_sec"],
        "ttft_ms.mean": lat["time_to_first_token"]["mean"] * 1e3,
        "ttft_ms.p90": lat["time_to_first_token"]["p90"] * 1e3,
        "e2e_ms.mean": lat["request_latency"]["mean"] * 1e3,
        "reported.successes.throughput.output_tokens_per_sec": succ["throughput"]["output_tokens_per_sec"],
    }
    itl = lat["inter_token_latency"]
    if itl["median"] < itl["mean"] / 20:
        figs["tpot_ms.mean"] = None
        figs["itl_ms.mean"] = None
    else:
        figs["tpot_ms.mean"] = lat["time_per_output_token"]["mean"] * 1e3
        figs["itl_ms.mean"] = itl["mean"] * 1e3
    if "concurrency" in load:
        figs["concurrency"] = load["concurrency"]
    elif "requested_rate" in load:
        figs["request_rate"] = load["requested_rate"]
    model = inference_perf_model(path)
    point = {"source": name, "figures": figs}
    if model:
        point["label"] = model if "requested_rate" in load else model + " · all stages"
    return [point]


# --- genai-bench (sgl-project) ----------------------------------------------------------------

def genai_bench(path, name):
    """One run's file: tpsview's figures from its per-request records (times in `_time_unit`),
    over every completed request; system T/s over the file's run_duration (no send times)."""
    o = json_objects(path)[0]
    agg = o["aggregated_metrics"]
    to_s = 1e-3 if o.get("_time_unit") == "ms" else 1.0
    ok = [r for r in o["individual_request_metrics"]
          if r.get("error_code") is None and r.get("num_output_tokens")]
    out = sum(r["num_output_tokens"] for r in ok)
    tpots = [(r["e2e_latency"] - r["ttft"]) / (r["num_output_tokens"] - 1) for r in ok if r["num_output_tokens"] >= 2]
    figs = {
        "concurrency": agg["batch_size"] if agg.get("iteration_type") == "batch_size" else agg["num_concurrency"],
        "requests_ok": len(ok),
        "requests_failed": len([r for r in o["individual_request_metrics"] if r.get("error_code") is not None]),
        "output_tokens": out,
        "ttft_ms.mean": mean(r["ttft"] for r in ok) * to_s * 1e3,
        "e2e_ms.mean": mean(r["e2e_latency"] for r in ok) * to_s * 1e3,
        "tpot_ms.mean": mean(tpots) * to_s * 1e3,
        "system_tps": out / agg["run_duration"],
        "reported.aggregated_metrics.mean_output_throughput_tokens_per_s": agg["mean_output_throughput_tokens_per_s"],
        "reported.aggregated_metrics.stats.ttft.mean": agg["stats"]["ttft"]["mean"] * to_s,
    }
    point = {"source": name, "figures": figs}
    meta = os.path.join(os.path.dirname(path), "experiment_metadata.json")
    if os.path.exists(meta):
        m = json_objects(meta)[0]
        point["label"] = m.get("api_model_name") or m.get("model")
    return [point]


# --- evalscope perf (ModelScope) -----------------------------------------------------------

def evalscope(path, name):
    """A benchmark_summary.json: its means as stated (before v1.7: seconds), the model from the
    benchmark_args.json beside it."""
    o = json_objects(path)[0]
    figs = {
        "concurrency": o.get("Number of concurrency", o.get("Concurrency")),
        "requests_ok": o["Succeed requests"],
        "requests_failed": o["Failed requests"],
        "system_tps": o["Output token throughput (tok/s)"],
        "duration_s": o["Time taken for tests (s)"],
        "ttft_ms.mean": o["Average time to first token (s)"] * 1e3,
        "tpot_ms.mean": o["Average time per output token (s)"] * 1e3,
        "e2e_ms.mean": o["Average latency (s)"] * 1e3,
        "reported.Output token throughput (tok/s)": o["Output token throughput (tok/s)"],
    }
    point = {"source": name, "figures": figs}
    args = os.path.join(os.path.dirname(path), "benchmark_args.json")
    if os.path.exists(args):
        a = json_objects(args)[0]
        point["label"] = (a.get("model_id") or a.get("model")).rstrip("/").rsplit("/", 1)[-1]
    return [point]


def kind(path):
    """Which tool wrote a file, from what the file itself holds."""
    base = os.path.basename(path)
    if base.startswith("mlperf_log_summary"):
        return "mlperf-summary"
    if base.startswith("mlperf_log_detail"):
        return "mlperf-detail"
    if base.endswith((".md", ".log", ".txt", ".csv", ".yaml", ".yml")):
        text = open(path, encoding="utf-8", errors="replace").read()
        if base.endswith((".yaml", ".yml")) and "request_lifecycle:" in text and "model_name:" in text:
            return "inference-perf-config"
        if base.endswith((".yaml", ".yml")) and ("request_performance:" in text or (
                "output_tokens_per_sec:" in text and "scenario:" in text)):
            return "llmd"
        if "Request Throughput (req/sec):" in text and (
                "Total Output Throughput (tokens/sec):" in text
                or ("= PERFORMANCE OVERVIEW" in text and "Token Throughput (tokens/sec):" in text)):
            return "trtllm-console"
        if "Serving Benchmark Result" in text and "Output token throughput (tok/s):" in text:
            return "serving-console"
        if "| model" in text and "ttfr (ms)" in text and "est_ppt (ms)" in text:
            return "llama-benchy"
        if "| model" in text and " test |" in text and "t/s |" in text:
            return "llama-table"
        if "eval rate:" in text and ("eval count:" in text or "Average of eval rate:" in text):
            return "ollama"
        header = text.split("\n", 1)[0]
        if base.endswith(".csv") and "run_number" in header.split(",") and "output_throughput" in header.split(","):
            return "vllm-sweep-csv"
        return "text"
    try:
        objs = json_objects(path)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return "text"
    o = objs[0][0] if isinstance(objs[0], list) and objs[0] else objs[0]
    if not isinstance(o, dict):
        return "unknown"
    if "Output token throughput (tok/s)" in o:
        return "evalscope"
    if "Percentiles" in o or "log_every_n_query" in o:
        return "evalscope-companion"
    if "load_summary" in o and "successes" in o:
        return "inference-perf"
    if "aggregated_metrics" in o and "individual_request_metrics" in o:
        return "genai-bench"
    if "traffic_scenario" in o and "benchmark_version" in o:
        return "genai-bench-metadata"
    if "input_config" in o and tag_records(o):
        return "aiperf"
    if "metadata" in o and "metrics" in o:
        return "aiperf-records"
    if "experiments" in o:
        return "genai-export"
    if "aiperf_version" in o or "schema_version" in o:
        return "aiperf"
    if "time_to_first_token" in o and "input_config" in o:
        return "genai"
    if '"timings"' in open(path, encoding="utf-8", errors="replace").read() and timings_of(objs):
        return "llama-server"
    if isinstance(o.get("benchmarks"), list) and any(
            isinstance(b, dict) and "tg_throughput" in b for b in o["benchmarks"]):
        return "llama-benchy-json"
    if "benchmarks" in o:
        return "guidellm"
    if "avg_ts" in o and "n_gen" in o:
        return "llama-bench"
    if "batch_size" in o and ("prefill_latency" in o or "last_gen_throughput" in o):
        return "one-batch"
    if "avg_latency" in o and "latencies" in o:
        return "vllm-latency"
    if "elapsed_time" in o and "tokens_per_second" in o:
        return "vllm-throughput"
    if "total_output_tokens_retokenized" in o or ("mean_e2e_latency_ms" in o and "concurrency" in o):
        return "sglang"
    if "mean_ttft_ms" in o or "output_throughput" in o:
        return "vllm"
    if "results_ttft_s_mean" in o or all(k.isdigit() for k in o):
        return "llmperf"
    return "unknown"


SELECTED = (".json", ".jsonl", ".csv", ".yaml", ".yml")


def selected(files):
    """What tpsview reads of a dropped folder (`vllm::sweep::select`): benchmark files by
    extension and MLPerf's logs, less a CSV whose JSON twin is beside it (the same figures)."""
    out = []
    for f in files:
        base = os.path.basename(f)
        if base.startswith("mlperf_log_") and base.endswith(".txt"):
            out.append(f)
        elif base.endswith(SELECTED) and not (base.endswith(".csv") and f[:-4] + ".json" in files):
            if base in ("summary.json", "warmup.json") and any(
                    os.path.basename(g).startswith("run=") and os.path.dirname(g) == os.path.dirname(f)
                    for g in files):
                continue  # a sweep's summary repeats its run=N.json files
            if base == "summary.csv" and any(
                    os.path.basename(g).startswith("run=")
                    and os.path.dirname(g).startswith(os.path.dirname(f) + os.sep) for g in files):
                continue  # a sweep's top-level summary repeats the run=N.json files under it
            out.append(f)
    return out


def file_points(f, folder_files, folder=None):
    path = os.path.join(HERE, f)
    # A file in a folder of the case's own (a sweep's per-setting folders) is named by its path
    # inside the case: the same name (run=0.json) stands in each.
    name = os.path.relpath(f, folder) if folder else os.path.basename(f)
    k = kind(path)
    if k == "mlperf-summary" and os.path.join(os.path.dirname(f), "mlperf_log_detail.txt") in folder_files:
        # Paired with its detail log: one point, the detail's.
        return [dict(p, source="mlperf_log_detail.txt") for p in mlperf_summary(path, name)]
    if k in ("genai", "aiperf"):
        # A summary pairs with the one raw export beside it: one point, the export's.
        exports = [g for g in folder_files if g != f and kind(os.path.join(HERE, g)) == "genai-export"]
        if len(exports) == 1 and k == "genai":
            # tpsview's own figures then come from the raw data (checked there); the tool's stay.
            return [dict(p, source=os.path.basename(exports[0]),
                         figures={k2: v for k2, v in p["figures"].items()
                                  if k2.startswith("reported.") or k2 == "concurrency"})
                    for p in summary_json(path, name, False)]
    if k == "genai-export" and any(kind(os.path.join(HERE, g)) == "genai" for g in folder_files if g != f):
        # Its figures are checked under the summary's expectations (the same point): only the count.
        return [{"source": name, "figures": genai_export(path, name)[0]["figures"]}]
    if k == "mlperf-detail" and os.path.join(os.path.dirname(f), "mlperf_log_summary.txt") in folder_files:
        return []
    fn = {
        "vllm": lambda: serve(path, name),
        "sglang": lambda: serve(path, name, sglang=True),
        "vllm-latency": lambda: vllm_latency(path, name),
        "vllm-throughput": lambda: vllm_throughput(path, name),
        "one-batch": lambda: one_batch(path, name),
        "llama-bench": lambda: llama_bench(path, name),
        "aiperf": lambda: summary_json(path, name, True),
        "aiperf-records": lambda: aiperf_records(path, name),
        "genai": lambda: summary_json(path, name, False),
        "genai-export": lambda: genai_export(path, name),
        "guidellm": lambda: guidellm(path, name),
        "llmd": lambda: llmd(path, name),
        "mlperf-summary": lambda: mlperf_summary(path, name),
        "trtllm-console": lambda: trtllm_console(path, name),
        "serving-console": lambda: serving_console(path, name),
        "llama-table": lambda: llama_table(path, name),
        "llama-benchy": lambda: llama_benchy(path, name),
        "llama-benchy-json": lambda: llama_benchy_json(path, name),
        "llama-server": lambda: llama_server(path, name),
        "ollama": lambda: ollama(path, name),
        "vllm-sweep-csv": lambda: vllm_sweep_csv(path, name),
        "inference-perf": lambda: inference_perf(path, name),
        "genai-bench": lambda: genai_bench(path, name),
        # A run's configuration: no point of its own (its runs take its model).
        "inference-perf-config": lambda: [],
        "genai-bench-metadata": lambda: [],
        "evalscope": lambda: evalscope(path, name),
        "evalscope-companion": lambda: [],
    }.get(k)
    # A file without a reader here (console reports, detail logs alone): it must give a point.
    return fn() if fn else [{"source": name, "figures": {}}]


def cases_of(folder):
    """The folder read as a user drops it, and each file it leaves out (console reports) alone."""
    files = sorted(os.path.relpath(f, HERE) for f in glob.glob(os.path.join(HERE, folder, "**", "*"), recursive=True)
                   if os.path.isfile(f))
    read = selected(files)
    alone = [f for f in files if f not in read and not (f.endswith(".csv") and f[:-4] + ".json" in files)]
    out = []
    if read:
        points = llmperf(folder, read) if folder.startswith("llmperf/") else [
            p for f in read for p in [dict(q, file=q.get("file", f)) for q in file_points(f, read, folder)]]
        out.append({"case": folder, "args": [folder], "files": read, "points": points})
    for f in alone:
        out.append({"case": f, "args": [f], "files": [f],
                    "points": [dict(q, file=f) for q in file_points(f, [f])]})
    for c in out:
        for p in c["points"]:
            if p.get("label") is None:
                p.pop("label", None)
    return out


def main():
    cases = []
    for folder in sorted(glob.glob(os.path.join(HERE, "*", "*"))):
        if os.path.isdir(folder):
            cases.extend(cases_of(os.path.relpath(folder, HERE)))
    json.dump({"cases": cases}, sys.stdout, indent=1, allow_nan=False, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
