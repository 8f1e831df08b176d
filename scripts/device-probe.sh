#!/usr/bin/env bash
# The probe's CUDA path on a GPU machine (issue 31: NVML power), as one short run: a release
# `tpsview` (built here, or carried as target/release/tpsview), bf16 weights of 1 GB, batches 1 to
# 64; prints the power line and each level's J per token, and checks that NVML was read and that
# the energy per token falls with the batch (each step reads the weights once for the whole
# batch). Writes $OUT/probe-cuda.json (or ./probe-cuda.json). Exit 0 when both hold.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${TPSVIEW:-target/release/tpsview}"
[ -x "$bin" ] || cargo build --release -q -p tpsview-cli
out="${OUT:-.}/probe-cuda.json"
"$bin" probe --backend cuda --dtype bf16 --weights-mb 1024 --batch 1,4,16,64 -o "$out" 2>&1 | tee "${out%.json}.log"
python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
run = r["runs"][0]
power = run["meta"]["labels"].get("power", "")
jpt = [(p["concurrency"], p["reported"]["figures"].get("energy_j_per_token")) for p in run["points"]]
print("power:", power or "(none)")
for c, j in jpt:
    print(f"  batch {c:g}: {j} J per token")
assert power.startswith("NVML"), "NVML was not read"
vals = [j for _, j in jpt]
assert all(v is not None and v > 0 for v in vals), "a level without energy"
assert vals[-1] < vals[0] / 4, "J per token did not fall with the batch"
print("NVML read; J per token falls", f"{vals[0] / vals[-1]:.1f} x from batch 1 to {jpt[-1][0]:g}")
PY
