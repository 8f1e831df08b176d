#!/usr/bin/env bash
# Prints the raw and gzip sizes of the built app's wasm and JS (dist/), against the budget in
# pkg-config/size-budget.txt. A figure, not a test: it never fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=$(cat pkg-config/size-budget.txt)
raw=0; gz=0
for f in dist/*.wasm dist/*.js; do
  r=$(stat -c %s "$f"); g=$(gzip -9c "$f" | wc -c)
  printf '%-48s %9d bytes raw %9d gzip\n' "$(basename "$f")" "$r" "$g"
  raw=$((raw + r)); gz=$((gz + g))
done
printf 'wasm + js: %d bytes raw, %d gzip (budget %d gzip: %s)\n' "$raw" "$gz" "$budget" \
  "$([ "$gz" -le "$budget" ] && echo within || echo OVER)"
