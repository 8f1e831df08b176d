#!/usr/bin/env bash
# Prints the web app's size and speed figures against their budgets (benchmarks, never tests):
# wasm + JS bytes (raw and gzip), navigation → first chart, redraw after hover and toggle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh --browser
source scripts/env.sh
trunk build --release --offline
scripts/size.sh
node scripts/budgets.mjs
