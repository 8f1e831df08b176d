#!/usr/bin/env bash
# Ingest speed, printed (a benchmark, never a test): tpsview's browser path (worker + wasm) against
# a plain JavaScript viewer (JSON.parse + the same figures) in one headless Chromium, then the
# native CLI against python3 (json + numpy), on the same generated ~105 MB vLLM detailed file; then
# a ~525 MB file through the browser path (time, peak memory per MB). See scripts/bench-ingest.mjs.
#   scripts/bench-ingest.sh [--no-500]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh --browser
source scripts/env.sh
trunk build --release --offline
cargo build -q --release -p tpsview-cli
py=target/engine-venv/bin/python
if ! "$py" -c "import numpy" 2>/dev/null; then
  python3 -m venv target/engine-venv && target/engine-venv/bin/pip install -q numpy
fi
node scripts/bench-ingest.mjs "$@"
