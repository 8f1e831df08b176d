#!/usr/bin/env bash
# Ingest speed of the native CLI against a plain Python reader (a benchmark that prints figures,
# not a test): both read the same generated vLLM --save-detailed file (10,000 requests × 1,000
# chunk gaps, ~105 MB) and compute the same figures (TTFT, TPOT, ITL, E2E mean/p50/p90/p99, system
# T/s). Python: `json.load` + numpy (from the engine test's venv). Median of 3 runs each, wall clock
# including reading the file and starting the process.
#   scripts/ingest-vs-python.sh [REQUESTS] [GAPS]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"
g="${2:-1000}"
mkdir -p target/ingest
file=target/ingest/vllm-detailed-$n-$g.json
cargo build -q --release -p tpsview-cli
[ -f "$file" ] || TPSVIEW_WRITE="$file" cargo run -q --release -p tpsview-core --example profile_ingest "$n" "$g"
py=target/engine-venv/bin/python
if ! "$py" -c "import numpy" 2>/dev/null; then
  python3 -m venv target/engine-venv && target/engine-venv/bin/pip install -q numpy
fi
cat >target/ingest/plain.py <<'PY'
import json, sys
import numpy as np
d = json.load(open(sys.argv[1]))
ok = [i for i, e in enumerate(d["errors"]) if not e]
ttft = np.array([d["ttfts"][i] for i in ok])
out = np.array([d["output_lens"][i] for i in ok], dtype=float)
lat = np.array([d["ttfts"][i] + sum(d["itls"][i]) for i in ok])
tpot = (lat - ttft)[out > 1] / (out[out > 1] - 1)
itl = np.fromiter((g for i in ok for g in d["itls"][i]), dtype=float)
start = np.array([d["start_times"][i] for i in ok])
duration = (start + lat).max() - min(d["start_times"])
stats = lambda a: [float(a.mean())] + [float(x) for x in np.percentile(a, [50, 90, 99])]
print(json.dumps({"ttft": stats(ttft), "tpot": stats(tpot), "itl": stats(itl), "e2e": stats(lat),
                  "system_tps": float(out.sum() / duration)}))
PY
python3 - "$file" "$py" <<'PY'
import os, subprocess, sys, time
file, py = sys.argv[1], sys.argv[2]
mb = os.path.getsize(file) / 1e6
def median_time(cmd):
    ts = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t)
    return sorted(ts)[1]
rust = median_time(["target/release/tpsview", "summarize", "--json", file])
plain = median_time([py, "target/ingest/plain.py", file])
print(f"{mb:.1f} MB vLLM detailed file")
print(f"tpsview summarize --json: {rust:.2f} s = {mb / rust:.0f} MB/s")
print(f"python3 json + numpy:     {plain:.2f} s = {mb / plain:.0f} MB/s")
print(f"ratio: tpsview is {plain / rust:.1f}x the Python reader")
PY
