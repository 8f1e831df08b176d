#!/usr/bin/env bash
# Installs what building and testing tpsview needs, skipping whatever is already there:
# the wasm32 target, Trunk 0.21.14, wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen version,
# the npm packages in tests/e2e (playwright-core, binaryen's wasm-opt, axe-core) and, with --browser,
# Debian's chromium and chromedriver; PyYAML for tests/wild/expected.py (the corpus's YAML
# files). Nothing downloads browsers or binaries from elsewhere.
# Usage: scripts/install-tools.sh [--browser]
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

say() { printf '\033[1m[install]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Trunk 0.22 needs rustc >= 1.96.1; 0.21.14 is the version seen working here.
if [ "$(trunk --version 2>/dev/null || true)" != "trunk 0.21.14" ]; then
  say "installing trunk 0.21.14 (takes ~10 minutes on 2 cores)"
  cargo install trunk --version =0.21.14 --locked
fi

# wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock. Without --locked: its own lock pins
# a webpki-roots version the registry no longer has.
wbg=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $wbg" ]; then
  say "installing wasm-bindgen-cli $wbg"
  cargo install wasm-bindgen-cli --version "=$wbg"
fi

if [ ! -x tests/e2e/node_modules/.bin/wasm-opt ] || [ ! -d tests/e2e/node_modules/playwright-core ] \
  || [ ! -f tests/e2e/node_modules/axe-core/axe.min.js ]; then
  say "installing npm packages in tests/e2e (playwright-core, binaryen, axe-core)"
  (cd tests/e2e && npm ci --no-audit --no-fund)
fi

if [ "$want_browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  say "installing Debian's chromium and chromedriver"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver
fi
# The bench's end-to-end test runs a real llama.cpp server from PyPI in a virtual environment.
if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
  say "installing Debian's python3-venv"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-venv
fi
# tests/wild/expected.py reads the corpus's YAML files (llm-d reports) with PyYAML.
# From PyPI for the python3 on PATH; where pip may not install (Debian's own python3, PEP 668),
# Debian's package.
if ! python3 -c "import yaml" 2>/dev/null; then
  say "installing PyYAML"
  if ! python3 -m pip install --quiet pyyaml 2>/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-yaml
  fi
  python3 -c "import yaml"
fi
say "tools ready"
