#!/usr/bin/env bash
# Fuzzes every importer with cargo-fuzz (libFuzzer), seeded with that format's fixtures and its
# real files from tests/wild/, into fuzz/corpus/<target>/, then minimizes each corpus
# (`cargo fuzz cmin`), which is committed and replayed by CI (scripts/fuzz-replay.sh).
#   scripts/fuzz.sh [RUNS_PER_TARGET] [TARGET...]     (default 100000 executions a target)
#   FUZZ_MAX_SECONDS=N caps each target's run at N seconds (a slow target then needs more runs:
#   its corpus carries over, and the executions of its runs add up).
#   FUZZ_MAX_LEN=N caps the inputs at N bytes (default 262144). With a small cap the run starts
#   from the committed corpus alone (no seeds, nothing from fuzz/corpus-large/): the real files
#   seeded the first runs; later ones mutate what those kept, at thousands of executions a second
#   instead of tens.
# Needs a nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly --profile minimal && cargo install cargo-fuzz --locked
# Prints, per target, the executions run, libFuzzer's coverage (cov: edges, ft: features) and
# whether a crash was found (fuzz/artifacts/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-100000}"
shift || true
declare -A seeds=(
  [tpsview]="public/samples docs/examples"
  [vllm_serve]="tests/fixtures/vllm tests/wild/vllm" [vllm_latency]="tests/fixtures/vllm-latency tests/wild/vllm-latency"
  [vllm_throughput]="tests/fixtures/vllm-throughput tests/wild/vllm-throughput"
  [vllm_sweep_csv]="tests/fixtures/vllm-sweep tests/wild/vllm-sweep"
  [sglang_serve]="tests/fixtures/sglang tests/wild/sglang"
  [sglang_one_batch]="tests/fixtures/sglang tests/wild/sglang" [genai_perf_export]="tests/fixtures/genai-perf tests/wild/genai-perf"
  [genai_perf_summary]="tests/fixtures/genai-perf tests/wild/genai-perf" [genai_perf_csv]="tests/fixtures/genai-perf tests/wild/genai-perf"
  [aiperf_records]="tests/fixtures/aiperf tests/wild/aiperf" [aiperf_summary]="tests/fixtures/aiperf tests/wild/aiperf"
  [aiperf_sweep]="tests/fixtures/aiperf"
  [aiperf_server_metrics]="tests/fixtures/aiperf" [aiperf_gpu_telemetry]="tests/fixtures/aiperf"
  [aiperf_server_stats]="tests/fixtures/aiperf"
  [trtllm_report]="tests/fixtures/trtllm" [trtllm_requests]="tests/fixtures/trtllm"
  [trtllm_console]="tests/wild/trtllm"
  [llama_bench]="tests/fixtures/llama-bench tests/wild/llama-bench" [llama_bench_table]="tests/wild/llama-bench"
  [llmperf_summary]="tests/fixtures/llmperf tests/wild/llmperf"
  [llmperf_responses]="tests/fixtures/llmperf tests/wild/llmperf" [guidellm]="tests/fixtures/guidellm tests/wild/guidellm"
  [inference_benchmarker]="tests/fixtures/inference-benchmarker"
  [inferencex]="tests/fixtures/inferencex" [llmd_report]="tests/fixtures/llm-d tests/wild/llm-d"
  [mlperf_summary]="tests/fixtures/mlperf tests/wild/mlperf" [mlperf_detail]="tests/fixtures/mlperf tests/wild/mlperf"
  [mlperf_system]="tests/fixtures/mlperf"
  [serving_console]="tests/wild/vllm tests/wild/sglang"
  [inference_perf]="tests/wild/inference-perf" [genai_bench]="tests/wild/genai-bench"
  [evalscope]="tests/wild/evalscope" [ollama]="tests/wild/ollama" [llama_benchy]="tests/wild/llama-benchy" [optimum_benchmark]="tests/fixtures/optimum-benchmark" [llama_server]="tests/wild/llama-server"
  [mapping]="tests/wild/genai-bench tests/wild/inference-perf tests/fixtures/vllm-sweep"
  [parse_any]="tests/fixtures tests/wild" [redact]="tests/wild/aiperf tests/fixtures/vllm"
)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(grep '^name = ' fuzz/Cargo.toml | tail -n +2 | cut -d'"' -f2))
fi
max_len="${FUZZ_MAX_LEN:-262144}"
# FUZZ_NO_BUILD=1 runs the binaries built before (sources may be mid-edit meanwhile).
[ -n "${FUZZ_NO_BUILD:-}" ] || cargo +nightly fuzz build -O >/dev/null
bin="fuzz/target/x86_64-unknown-linux-gnu/release"
for t in "${targets[@]}"; do
  corpus="fuzz/corpus/$t"
  mkdir -p "$corpus" "fuzz/artifacts/$t"
  [ "$max_len" -ge 262144 ] && for d in ${seeds[$t]:-}; do
    # Seeds up to libFuzzer's -max_len; each copied under its content's hash, as libFuzzer names
    # what it keeps, so a seed is never taken twice.
    find "$d" -type f -size -256k 2>/dev/null | while read -r f; do
      cp -n "$f" "$corpus/$(sha1sum "$f" | cut -c1-40)"
    done
  done
  # The long inputs a previous run kept aside (see below) seed this one too.
  [ "$max_len" -ge 262144 ] && [ -d "fuzz/corpus-large/$t" ] && find "fuzz/corpus-large/$t" -type f -exec cp -n {} "$corpus/" \;
  log="fuzz/$t.log"
  # The binary built above, run directly: a source edited meanwhile does not rebuild it mid-sweep.
  if "$bin/$t" -artifact_prefix="fuzz/artifacts/$t/" -runs="$runs" -max_total_time="${FUZZ_MAX_SECONDS:-0}" \
      -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$corpus" >"$log" 2>&1; then
    result="no crash"
  else
    result="CRASH (see $log, fuzz/artifacts/$t/)"
  fi
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  # Minimized as `cargo fuzz cmin` does (libFuzzer's merge into an emptied corpus), by the same
  # binary; on failure the corpus is put back as it was.
  old="$(mktemp -d)"
  find "$corpus" -type f -exec mv -t "$old" {} +
  if ! "$bin/$t" -merge=1 -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 "$corpus" "$old" >"fuzz/$t.cmin.log" 2>&1; then
    find "$old" -type f -exec mv -n -t "$corpus" {} +
  fi
  rm -rf "$old"
  # What is committed stays small: inputs over 3 KB (seeds, long mutations) move to
  # fuzz/corpus-large/<target>/ (not committed; the next run seeds from both).
  mkdir -p "fuzz/corpus-large/$t"
  find "$corpus" -type f -size +3k -exec mv {} "fuzz/corpus-large/$t/" \;
  printf '%-24s %10s execs  %-22s %5s inputs kept  %s\n' "$t" "$execs" "$cov" "$(ls "$corpus" | wc -l)" "$result"
done
