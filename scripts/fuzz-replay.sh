#!/usr/bin/env bash
# Replays every committed fuzz corpus (fuzz/corpus/<target>/, grown and minimized by
# scripts/fuzz.sh) once through its target (libFuzzer's -runs=0 runs each input once), so that a
# crash once found stays found. Needs a nightly toolchain: where none is installed this says so
# and skips; cargo-fuzz is installed from crates.io when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz replay skipped: no nightly toolchain (rustup toolchain install nightly --profile minimal)"
  exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "[fuzz] installing cargo-fuzz from crates.io"
  cargo install cargo-fuzz --locked
fi
cargo +nightly fuzz build -O
failed=0
for dir in fuzz/corpus/*/; do
  [ -d "$dir" ] || continue
  t=$(basename "$dir")
  n=$(ls "$dir" | wc -l)
  log=$(mktemp)
  if cargo +nightly fuzz run -O "$t" "$dir" -- -runs=0 -max_len=262144 -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1; then
    printf '%-24s %5d inputs replayed, no crash\n' "$t" "$n"
  else
    printf '%-24s CRASH replaying its corpus:\n' "$t"
    tail -40 "$log"
    failed=1
  fi
  rm -f "$log"
done
exit "$failed"
