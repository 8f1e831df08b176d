#!/usr/bin/env python3
"""Re-derive field identities in the staged InferenceX bmk_agentic JSONs (stdlib only)."""
import json, glob, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
HALF_ULP5 = 5.000001e-6  # nested files: every float rounded to 5 decimals (round_floats)

def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-12)

def nested(path, d):
    lat = d["request_metrics"]["latency"]; tp = d["request_metrics"]["throughput"]
    tok = d["request_metrics"]["tokens"]; n = d["num_requests_successful"]
    gpus = d["tp"] * d.get("pcp_size", 1)  # _gpu_shape(): tp*pcp (af224d6c); later tp*pp*pcp
    out = []
    for k in ("mean", "p50", "p75", "p90", "p95"):
        x = lat["itl"][k]
        # both sides rounded to 5 dp: |err| <= 5e-6 + 5e-6/x^2 (propagated through 1/x)
        out.append((f"intvty.{k} == 1/itl.{k}", lat["intvty"][k], 1 / x, 5e-6 + 5e-6 / x**2 * 1.01))
    out.append(("itl == tpot (whole dict)", float(lat["itl"] == lat["tpot"]), 1.0))
    out.append(("total tps == input + output", tp["total"]["tokens_per_second"],
                tp["input"]["tokens_per_second"] + tp["output"]["tokens_per_second"]))
    for k_pg, k in (("total_tput_tps", "total"), ("output_tput_tps", "output"), ("input_tput_tps", "input")):
        out.append((f"per_gpu.{k_pg} == {k}/{gpus}", tp["per_gpu"][k_pg], tp[k]["tokens_per_second"] / gpus))
    out.append(("output tps*duration ~= mean(output_actual)*n", tp["output"]["tokens_per_second"] * tp["duration_seconds"],
                tok["output_actual"]["mean"] * n))
    out.append(("input tps*duration ~= mean(input)*n", tp["input"]["tokens_per_second"] * tp["duration_seconds"],
                tok["input"]["mean"] * n))
    ra = d["request_accounting"]
    out.append(("records_total - records_profiled == records_dropped_total",
                ra["records_total"] - ra["records_profiled"], ra["records_dropped_total"]))
    out.append(("num_requests_successful == records_profiled", n, ra["records_profiled"]))
    sm = d["server_metrics"]; src = sm["tokens"]["prompt_by_source"]["raw"]
    if src:
        s = sum(src.values())
        out.append(("gpu_cache_hit_rate == local_cache_hit/sum(raw)", sm["cache"]["gpu_cache_hit_rate"], src["local_cache_hit"] / s))
        if "external_kv_transfer" in src:
            out.append(("cpu_cache_hit_rate == external_kv_transfer/sum(raw)", sm["cache"]["cpu_cache_hit_rate"], src["external_kv_transfer"] / s))
        out.append(("overall == (local_hit+external)/sum(raw)", sm["cache"]["overall_cache_hit_rate"],
                    (src["local_cache_hit"] + src.get("external_kv_transfer", 0)) / s))
        out.append(("prompt_total == sum(raw)", sm["tokens"]["prompt_total"], s))
    out.append(("sources[0].prefix_cache_hit_rate == prefix_cache_hits/queries",
                sm["sources"][0]["prefix_cache_hit_rate"], sm["cache"]["prefix_cache_hits"] / sm["cache"]["prefix_cache_queries"]))
    return out

def flat(path, d):
    n = d["num_requests_successful"]; g = d["tp"]
    out = [
        ("total_tput_tps == input + output", d["total_tput_tps"], d["input_tput_tps"] + d["output_tput_tps"]),
        (f"tput_per_gpu == total/{g}", d["tput_per_gpu"], d["total_tput_tps"] / g),
        (f"output_tput_per_gpu == output/{g}", d["output_tput_per_gpu"], d["output_tput_tps"] / g),
        (f"input_tput_per_gpu == input/{g}", d["input_tput_per_gpu"], d["input_tput_tps"] / g),
        ("output tps*duration == mean_output_tokens_actual*n", d["output_tput_tps"] * d["duration_seconds"], d["mean_output_tokens_actual"] * n),
        ("input tps*duration == mean_input_tokens*n", d["input_tput_tps"] * d["duration_seconds"], d["mean_input_tokens"] * n),
        ("derived interactivity 1/median_itl (tok/s/user; not a stored field)", 1 / d["median_itl"], 1 / d["median_itl"]),
    ]
    return out

def main():
    bad = 0
    for path in sorted(glob.glob(os.path.join(HERE, "*", "*.json"))):
        d = json.load(open(path))
        kind = "nested" if "request_metrics" in d else "flat"
        print(f"\n## {os.path.relpath(path, HERE)}  [{kind}]")
        for item in (nested if kind == "nested" else flat)(path, d):
            name, got, want = item[:3]
            if len(item) == 4:
                tol = item[3]                       # explicit absolute tolerance
            elif kind == "flat":
                tol = 1e-9 * max(abs(want), 1)      # unrounded floats: float noise only
            elif "~=" in name:
                tol = 1e-6 * abs(want)              # products of rounded values
            else:
                tol = 3 * HALF_ULP5                 # sums/ratios of rounded values
            err = abs(got - want)
            ok = err <= tol
            bad += not ok
            print(f"  {'OK ' if ok else 'BAD'} {name}: stored={got!r} derived={want!r} abs_err={err:.2e} tol={tol:.1e}")
    print(f"\n{bad} failing identities")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
