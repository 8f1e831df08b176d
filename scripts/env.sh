# Sourced by the scripts: puts the npm wasm-opt (binaryen 132) before Debian's older one, and the
# cargo-installed tools on PATH.
TPSVIEW_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$TPSVIEW_ROOT/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_OFFLINE=true
