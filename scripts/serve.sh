#!/usr/bin/env bash
# Builds the web app and serves it on http://127.0.0.1:8080 with the built-in example open.
# Installs what is missing first. Usage: scripts/serve.sh [port]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
source scripts/env.sh
port="${1:-8080}"
echo "tpsview: building, then serving on http://127.0.0.1:$port/ (Ctrl-C stops)"
exec trunk serve --release --offline --address 127.0.0.1 --port "$port"
