#!/usr/bin/env bash
# Fuzzes every importer with cargo-fuzz (libFuzzer), seeded with that format's fixtures.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Needs a nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly --profile minimal && cargo install cargo-fuzz --locked
# Prints, per target, the executions run and whether a crash was found (fuzz/artifacts/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
shift || true
declare -A seeds=(
  [tpsview]="public/samples docs/examples"
  [vllm_serve]="tests/fixtures/vllm" [vllm_latency]="tests/fixtures/vllm-latency"
  [vllm_throughput]="tests/fixtures/vllm-throughput" [sglang_serve]="tests/fixtures/sglang"
  [sglang_one_batch]="tests/fixtures/sglang" [genai_perf_export]="tests/fixtures/genai-perf"
  [genai_perf_summary]="tests/fixtures/genai-perf" [genai_perf_csv]="tests/fixtures/genai-perf"
  [aiperf_records]="tests/fixtures/aiperf" [aiperf_summary]="tests/fixtures/aiperf"
  [trtllm_report]="tests/fixtures/trtllm" [trtllm_requests]="tests/fixtures/trtllm"
  [llama_bench]="tests/fixtures/llama-bench" [llmperf_summary]="tests/fixtures/llmperf"
  [llmperf_responses]="tests/fixtures/llmperf" [guidellm]="tests/fixtures/guidellm"
  [inference_benchmarker]="tests/fixtures/inference-benchmarker"
)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(grep '^name = ' fuzz/Cargo.toml | tail -n +2 | cut -d'"' -f2))
fi
cargo +nightly fuzz build -O >/dev/null
for t in "${targets[@]}"; do
  corpus="fuzz/corpus/$t"
  mkdir -p "$corpus"
  for d in ${seeds[$t]}; do
    # libFuzzer keeps inputs up to -max_len; big fixtures are seeds too.
    find "$d" -maxdepth 1 -type f -size -2M -exec cp -n {} "$corpus/" \; 2>/dev/null || true
  done
  log="fuzz/$t.log"
  if cargo +nightly fuzz run -O "$t" "$corpus" -- -max_total_time="$secs" -max_len=262144 \
      -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1; then
    result="no crash"
  else
    result="CRASH (see $log, fuzz/artifacts/$t/)"
  fi
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  [ "$execs" = "?" ] && execs=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
  printf '%-24s %10s execs  %s\n' "$t" "$execs" "$result"
done
