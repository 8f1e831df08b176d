#!/usr/bin/env bash
# Measures the CPU sample the viewer offers: the local llama.cpp server (8 slots, continuous
# batching, 1 thread) serving the random-weight 8×768 Llama, at concurrency 1, 2, 4 and 8.
#   scripts/engine/sample.sh   (writes public/samples/cpu-llamacpp-sweep.tpsview.json)
# Run it on an otherwise idle machine: a compile beside it halves the server's speed.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q --release -p tpsview-cli
source scripts/engine/lib.sh
engine_start 8
target/release/tpsview bench --url "http://127.0.0.1:$port" --model tiny-random-llama-8x768 \
  --label "llama.cpp on 2 CPU cores · random 8×768 Llama (measured)" \
  --concurrency 1,2,4,8 --requests-per-level 24 --max-tokens 64 --prompt-tokens 32 --ignore-eos \
  --timeout 120 -o public/samples/cpu-llamacpp-sweep.tpsview.json
