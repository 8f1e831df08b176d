#!/usr/bin/env bash
# The Parquet hand-off read by another engine: `tpsview convert --to parquet` on every fixture with
# per-request data, read back with DuckDB (its Python package, pinned, in target/duckdb-venv), which
# recomputes each level's system T/s, mean TTFT and median E2E from the request rows and finds
# them equal to `summarize --json` (tests/parquet/check_duckdb.py).
#   scripts/parquet-duckdb.sh [TPSVIEW_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/tpsview}"
venv=target/duckdb-venv
duckdb_version=2.0.1
if ! "$venv/bin/python" -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$duckdb_version')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "duckdb==$duckdb_version"
fi
"$venv/bin/python" tests/parquet/check_duckdb.py "$bin"
