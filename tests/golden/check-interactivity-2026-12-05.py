"""Check the recorded `summarize --json` outputs of 2026-12-05 (issue 43): every change against the
outputs before it (git's HEAD~ version, or the directory given) is an added `interactivity` block on
a recomputed level, and each block's figures are recounted here from that level's requests.

An AIPerf records file whose records carry `time_to_first_output_token` also gains `ttfvt_ms`: its
mean, p50, p90, p99 (ms) over the level's usable records, recounted here from the file's lines.

The requests: `tpsview convert` of the case's inputs gives each level's per-request columns
(`ttft_s`, `e2e_s`, `output_tokens`: what the reader read; this script does no arithmetic of
tpsview's); the level's own `excluded` list in the recorded output says which requests are left
out. Then, with the standard library alone (docs/metrics.md):
- e2e_normalized pN = 1 / pN(e2e / output_tokens) over the usable requests with e2e > 0, pN
  numpy's linear percentile (its `_lerp`: up from the lower value below one half, down from the
  upper one from one half on);
- aggregate = Σ output_tokens / Σ e2e over the same requests, summed in request order;
- per_stream_tps = the level's own `per_stream_tps`.

Usage: check-interactivity-2026-12-05.py OLD_DIR (the recorded outputs before the change)
Run from the repository root, with target/debug/tpsview built."""
import json
import os
import subprocess
import sys
import tempfile

old_dir = sys.argv[1]
golden = "tests/golden"


def pct(xs, p):
    xs = sorted(xs)
    h = (len(xs) - 1) * (p / 100)
    lo = int(h)
    if lo >= len(xs) - 1:
        return xs[-1]
    a, b, t = xs[lo], xs[lo + 1], h - lo
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def close(a, b):
    return a is None and b is None or (a is not None and b is not None and abs(a - b) <= 1e-12 * abs(b))


def without(o, key):
    if isinstance(o, dict):
        return {k: without(v, key) for k, v in o.items() if k != key}
    if isinstance(o, list):
        return [without(v, key) for v in o]
    return o


cases = [json.loads(line) for line in open(f"{golden}/cases.jsonl")]
checked = blocks = 0
for case in cases:
    name, args = case["name"], case["args"]
    path = f"{golden}/{name}.json"
    old_path = f"{old_dir}/{name}.json"
    if not os.path.exists(old_path) or args[0] != "summarize":
        continue
    new = json.load(open(path)) if os.path.getsize(path) else None
    old = json.load(open(old_path)) if os.path.getsize(old_path) else None
    if new is None or old is None:
        assert new == old, name
        continue
    assert without(without(new, "interactivity"), "ttfvt_ms") == old, f"{name}: changed beyond interactivity"
    inputs = [a for a in args[1:] if os.path.exists(a)]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.tpsview.json")
        subprocess.run(["target/debug/tpsview", "convert", *inputs, "-o", out], check=True,
                       capture_output=True)
        conv = json.load(open(out))
    for run, crun in zip(new["runs"], conv["runs"]):
        assert len(run["points"]) == len(crun["points"]), name
        for p, cp in zip(run["points"], crun["points"]):
            got = p.get("interactivity")
            if p["basis"] != "recomputed" or "requests" not in cp:
                assert got is None, f"{name}: interactivity on a level without requests"
                continue
            r = cp["requests"]
            left = {e["index"] for e in p["excluded"]}
            use = [i for i in range(len(r["e2e_s"])) if i not in left and r["e2e_s"][i] > 0]
            if not use:
                assert got is None, name
                continue
            x = [r["e2e_s"][i] / r["output_tokens"][i] for i in use]
            osl, e2e = 0, 0.0
            for i in use:
                osl += r["output_tokens"][i]
                e2e += r["e2e_s"][i]
            want = {f"p{q}": 1 / pct(x, q) for q in (50, 90, 99)}
            assert got["per_stream_tps"] == p["per_stream_tps"], name
            for k, v in want.items():
                assert close(got["e2e_normalized"][k], v), (name, k, got, v)
            assert close(got["aggregate"], osl / e2e), (name, got, osl / e2e)
            blocks += 1
            if "ttfvt_ms" in p:
                src = p["source_file"]
                assert src.endswith("profile_export.jsonl"), name
                recs = [json.loads(line) for line in open(src) if line.strip()]
                recs = [x for x in recs if x["metadata"].get("benchmark_phase") != "warmup"]
                ms = [recs[i]["metrics"]["time_to_first_output_token"]["value"]
                      for i in range(len(recs)) if i not in left]
                assert all(recs[0]["metrics"]["time_to_first_output_token"]["unit"] == "ms" for _ in ms)
                want = {"mean": sum(ms) / len(ms), **{f"p{q}": pct(ms, q) for q in (50, 90, 99)}}
                for k, v in want.items():
                    assert close(p["ttfvt_ms"][k], v), (name, k, p["ttfvt_ms"], v)
                blocks += 1
    checked += 1
print(f"{checked} outputs checked, {blocks} blocks recounted (interactivity, ttfvt_ms); nothing else changed")
