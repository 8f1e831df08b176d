#!/usr/bin/env bash
# Runs every test of tpsview on a fresh machine: installs what is missing, then formatting and
# lints, native tests (core, plot, CLI), component tests in headless Chromium
# (wasm-bindgen-test), the release web build, and the Playwright end-to-end tests against dist/.
# Screenshots land in target/e2e/. Then `tpsview bench` against a real llama.cpp server on CPU
# (scripts/engine-e2e.sh), and `convert --to parquet` read back by DuckDB (scripts/parquet-duckdb.sh).
# Prints the bundle sizes at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh --browser
source scripts/env.sh

# One build of each crate, no incremental caches: the run is one-shot, and a CI machine's disk is
# not ours to fill (see Cargo.toml's [profile.dev]). Each step prints the space left.
export CARGO_INCREMENTAL=0
step() {
  printf '\n\033[1m== %s\033[0m   (disk: %s free, target/ %s)\n' "$*" \
    "$(df -h --output=avail . | tail -1 | tr -d ' ')" "$(du -sh target 2>/dev/null | cut -f1)"
}

step "format"
cargo fmt --all -- --check

step "clippy (native and wasm32)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown -p tpsview-web -p tpsview-components --all-targets -- -D warnings

step "native tests"
cargo test --workspace --exclude tpsview-components
# The components rendered to HTML natively (leptos `ssr`); their other tests run in the browser.
cargo test -p tpsview-components --test native

step "component tests in headless Chromium (wasm-bindgen-test)"
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown -p tpsview-components

step "release web build (trunk)"
trunk build --release --offline

step "end-to-end tests in headless Chromium (playwright-core)"
# target/debug/tpsview as the native tests built it (`cargo build -p tpsview-cli` alone would
# unify features differently and build every dependency a second time).
cargo test --workspace --exclude tpsview-components --no-run -q
node --test tests/e2e/

step "the Parquet hand-off read by DuckDB"
scripts/parquet-duckdb.sh target/debug/tpsview

step "tpsview bench against a real llama.cpp server (xllamacpp, CPU, 127.0.0.1)"
scripts/engine-e2e.sh target/debug/tpsview

step "fuzz corpora replayed (each committed input once through its target)"
scripts/fuzz-replay.sh

step "bundle size"
scripts/size.sh
step "done"
