#!/usr/bin/env bash
# The client's own overhead, measured (a benchmark that prints figures, not a test): the hidden
# stub server streams one chunk every 20 ms; `tpsview bench` reads 256 concurrent streams from it.
# Any excess of the measured TPOT over 20 ms is the client's (and loopback's) doing; the CPU the
# client burns per streamed event says how far it is from saturating.
#   scripts/bench-overhead.sh [STREAMS] [INTERVAL_MS]
set -euo pipefail
cd "$(dirname "$0")/.."
streams="${1:-256}"
interval="${2:-20}"
cargo build -q --release -p tpsview-cli
bin=target/release/tpsview
mkdir -p target/overhead
"$bin" stub-server --port 0 --interval-ms "$interval" >target/overhead/stub.out &
stub=$!
trap 'kill $stub 2>/dev/null || true' EXIT
timeout 10 bash -c 'until grep -q listening target/overhead/stub.out; do sleep 0.1; done'
url=$(sed -n 's/^listening on //p' target/overhead/stub.out)
python3 - "$bin" "$url" "$streams" "$interval" <<'PY'
import json, resource, subprocess, sys
bin, url, streams, interval = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
stderr = ""
for level, n in ((1, 16), (streams, streams * 2)):
    out = f"target/overhead/report-{level}.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([bin, "bench", "--url", url, "--model", "stub", "--concurrency", str(level),
                        "--requests-per-level", str(n), "--max-tokens", "50", "--warmup", "0",
                        "-o", out], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert p.returncode == 0, p.stderr
    stderr = p.stderr
    u, s_ = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    s = json.loads(subprocess.run([bin, "summarize", "--json", out], capture_output=True, text=True).stdout)
    pt = s["runs"][0]["points"][0]
    ev = pt["requests_ok"] * 52  # 50 content chunks, a usage chunk and [DONE]
    tpot = pt["tpot_ms"]["mean"]
    print(f"{level:>4} streams: {pt['requests_ok']} ok, {pt['requests_failed']} failed; "
          f"TPOT mean {tpot:.3f} ms, p99 {pt['tpot_ms']['p99']:.3f} ms vs the stub's {interval} ms "
          f"(excess {tpot - interval:+.3f} ms, {100 * (tpot - interval) / interval:+.2f} %); "
          f"system {pt['system_tps']:.0f} T/s; client CPU {u + s_:.2f} s = {1e6 * (u + s_) / ev:.1f} µs per event")
line = [l for l in stderr.splitlines() if l.startswith("client overhead")]
print(f"at {streams} streams, {line[0] if line else ''}")
PY
