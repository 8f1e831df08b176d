//! The file formats tpsview reads, as a typed id: each one's stable id (a report's
//! `source_format`, the command line's `--format`) and its name. Which bytes are which format and
//! how they are read is the readers' (`tpsview_formats::formats::SPECS`, in [`Format::ALL`]'s
//! order); this is what the analysis and the page may name without linking a reader.

/// The file formats tpsview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// tpsview's own report format, `tpsview/1`.
    Tpsview,
    /// vLLM `bench serve` / `benchmark_serving.py` result files.
    VllmServe,
    /// vLLM `bench latency --output-json`.
    VllmLatency,
    /// vLLM `bench throughput --output-json`.
    VllmThroughput,
    /// SGLang `bench_serving` JSONL.
    SglangServe,
    /// SGLang `bench_one_batch` JSONL.
    SglangOneBatch,
    /// GenAI-Perf `profile_export.json` (raw per-request timestamps).
    GenaiPerfExport,
    /// GenAI-Perf `profile_export_genai_perf.json` (summary).
    GenaiPerfSummary,
    /// GenAI-Perf `profile_export_genai_perf.csv` (summary).
    GenaiPerfCsv,
    /// AIPerf `profile_export.jsonl` (per-request records).
    AiperfRecords,
    /// AIPerf `profile_export_aiperf.json` (summary).
    AiperfSummary,
    /// AIPerf `server_metrics_export.jsonl` (a companion of a level's records).
    AiperfServerMetrics,
    /// AIPerf `gpu_telemetry_export.jsonl` (a companion of a level's records).
    AiperfGpuTelemetry,
    /// AIPerf `server_metrics_export.json` / `.csv`: its statistics of the server's metrics over
    /// a level (a companion of the level's records or summary).
    AiperfServerStats,
    /// TensorRT-LLM `trtllm-bench --report_json`.
    TrtllmReport,
    /// TensorRT-LLM `trtllm-bench --request_json`.
    TrtllmRequests,
    /// trtllm-bench's console report, pasted into a log or a page.
    TrtllmConsole,
    /// llama.cpp `llama-bench -o json|jsonl`.
    LlamaBench,
    /// llama.cpp `llama-bench`'s Markdown table (its default console output).
    LlamaBenchTable,
    /// LLMPerf `*_summary.json`.
    LlmperfSummary,
    /// LLMPerf `*_individual_responses.json`.
    LlmperfResponses,
    /// GuideLLM `benchmarks.json` (v0.2–0.3 and v0.4+ schemas).
    Guidellm,
    /// Hugging Face `inference-benchmarker` results.
    InferenceBenchmarker,
    /// MLPerf Inference LoadGen `mlperf_log_summary.txt`.
    MlperfSummary,
    /// MLPerf Inference LoadGen `mlperf_log_detail.txt`.
    MlperfDetail,
    /// An MLPerf submission's `systems/<name>.json` (accelerator name and count).
    MlperfSystem,
    /// SemiAnalysis InferenceX `agg_*.json` and API rows.
    Inferencex,
    /// AIPerf's sweep aggregate, `profile_export_aiperf_sweep.json`.
    AiperfSweep,
    /// llm-d Benchmark Report v0.2 (YAML or JSON).
    LlmdReport,
    /// `vllm bench sweep serve`'s top-level `summary.csv`.
    VllmSweepCsv,
    /// The `Serving Benchmark Result` block of vLLM's or SGLang's console.
    ServingConsole,
    /// kubernetes-sigs/inference-perf's `*_lifecycle_metrics.json` (and its `config.yaml`).
    InferencePerf,
    /// sgl-project/genai-bench's per-run JSON (and its `experiment_metadata.json`).
    GenaiBench,
    /// ModelScope evalscope `perf`'s `benchmark_summary.json` (and its args and percentiles).
    Evalscope,
    /// llama-benchy's Markdown table (llama-bench's tests against a server, with concurrency).
    LlamaBenchy,
    /// optimum-benchmark's `benchmark.json` / `benchmark_report.json` (text generation).
    OptimumBenchmark,
    /// Saved answers of llama.cpp's server with their `timings` object.
    LlamaServer,
    /// Ollama's timings: `ollama run --verbose` blocks in a saved console or page, and
    /// llm_benchmark's logs (`eval rate:` per prompt, `Average of eval rate:` per model).
    Ollama,
    /// A file no reader knows, read through a `tpsview-mapping/1` document (never detected).
    Mapped,
}

impl Format {
    /// Every format, in detection order (the order of the readers' table, which checks it).
    pub const ALL: [Format; 39] = [
        Format::Tpsview,
        Format::VllmSweepCsv,
        Format::LlmdReport,
        Format::InferencePerf,
        Format::GenaiBench,
        Format::Evalscope,
        Format::OptimumBenchmark,
        Format::AiperfSweep,
        Format::MlperfSummary,
        Format::MlperfDetail,
        Format::MlperfSystem,
        Format::Inferencex,
        Format::GenaiPerfExport,
        Format::AiperfServerStats,
        Format::AiperfRecords,
        Format::AiperfSummary,
        Format::AiperfServerMetrics,
        Format::AiperfGpuTelemetry,
        Format::GenaiPerfSummary,
        Format::GenaiPerfCsv,
        Format::Guidellm,
        Format::InferenceBenchmarker,
        Format::TrtllmReport,
        Format::TrtllmRequests,
        Format::TrtllmConsole,
        Format::ServingConsole,
        Format::LlamaBench,
        Format::LlamaBenchy,
        Format::LlamaBenchTable,
        Format::Ollama,
        Format::LlamaServer,
        Format::LlmperfSummary,
        Format::LlmperfResponses,
        Format::SglangOneBatch,
        Format::SglangServe,
        Format::VllmLatency,
        Format::VllmThroughput,
        Format::VllmServe,
        Format::Mapped,
    ];

    /// A stable id, used in reports (`source_format`) and on the command line.
    pub const fn id(self) -> &'static str {
        match self {
            Format::Tpsview => "tpsview/1",
            Format::VllmSweepCsv => "vllm-sweep-csv",
            Format::LlmdReport => "llm-d-report",
            Format::AiperfSweep => "aiperf-sweep",
            Format::MlperfSummary => "mlperf-loadgen-summary",
            Format::MlperfDetail => "mlperf-loadgen-detail",
            Format::MlperfSystem => "mlperf-system",
            Format::Inferencex => "inferencex",
            Format::GenaiPerfExport => "genai-perf-export",
            Format::AiperfServerStats => "aiperf-server-stats",
            Format::AiperfRecords => "aiperf-records",
            Format::AiperfSummary => "aiperf",
            Format::AiperfServerMetrics => "aiperf-server-metrics",
            Format::AiperfGpuTelemetry => "aiperf-gpu-telemetry",
            Format::GenaiPerfSummary => "genai-perf",
            Format::GenaiPerfCsv => "genai-perf-csv",
            Format::Guidellm => "guidellm",
            Format::InferenceBenchmarker => "inference-benchmarker",
            Format::TrtllmReport => "trtllm-bench",
            Format::TrtllmRequests => "trtllm-bench-requests",
            Format::TrtllmConsole => "trtllm-bench-console",
            Format::ServingConsole => "serving-console",
            Format::LlamaBench => "llama-bench",
            Format::LlamaBenchTable => "llama-bench-md",
            Format::LlmperfSummary => "llmperf",
            Format::LlmperfResponses => "llmperf-responses",
            Format::SglangOneBatch => "sglang-bench-one-batch",
            Format::SglangServe => "sglang-bench-serving",
            Format::VllmLatency => "vllm-bench-latency",
            Format::VllmThroughput => "vllm-bench-throughput",
            Format::VllmServe => "vllm-bench-serve",
            Format::InferencePerf => "inference-perf",
            Format::GenaiBench => "genai-bench",
            Format::Evalscope => "evalscope",
            Format::Ollama => "ollama",
            Format::LlamaServer => "llama-server",
            Format::OptimumBenchmark => "optimum-benchmark",
            Format::LlamaBenchy => "llama-benchy",
            Format::Mapped => "mapping",
        }
    }

    /// A human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Tpsview => "tpsview report (tpsview/1)",
            Format::VllmSweepCsv => "vLLM bench sweep summary.csv",
            Format::LlmdReport => "llm-d Benchmark Report v0.1 and v0.2 (YAML or JSON)",
            Format::AiperfSweep => {
                "AIPerf sweep aggregate (profile_export_aiperf_sweep.json or .csv)"
            }
            Format::MlperfSummary => "MLPerf LoadGen summary (mlperf_log_summary.txt)",
            Format::MlperfDetail => "MLPerf LoadGen detail log (mlperf_log_detail.txt)",
            Format::MlperfSystem => "MLPerf submission system description (systems/<name>.json)",
            Format::Inferencex => "SemiAnalysis InferenceX results (agg_*.json, API rows)",
            Format::GenaiPerfExport => "GenAI-Perf profile_export.json",
            Format::AiperfServerStats => "AIPerf server_metrics_export.json or .csv",
            Format::AiperfRecords => "AIPerf profile_export.jsonl",
            Format::AiperfSummary => "AIPerf profile_export_aiperf.json",
            Format::AiperfServerMetrics => "AIPerf server_metrics_export.jsonl",
            Format::AiperfGpuTelemetry => "AIPerf gpu_telemetry_export.jsonl",
            Format::GenaiPerfSummary => "GenAI-Perf profile_export_genai_perf.json",
            Format::GenaiPerfCsv => "GenAI-Perf profile_export_genai_perf.csv",
            Format::Guidellm => "GuideLLM benchmarks JSON",
            Format::InferenceBenchmarker => "HF inference-benchmarker results",
            Format::TrtllmReport => "TensorRT-LLM trtllm-bench report JSON",
            Format::TrtllmRequests => "TensorRT-LLM trtllm-bench request JSON",
            Format::TrtllmConsole => "TensorRT-LLM trtllm-bench console report",
            Format::ServingConsole => "vLLM / SGLang serving benchmark console report",
            Format::LlamaBench => "llama.cpp llama-bench JSON/JSONL",
            Format::LlamaBenchTable => "llama.cpp llama-bench Markdown table (console)",
            Format::LlmperfSummary => "LLMPerf summary JSON",
            Format::LlmperfResponses => "LLMPerf individual_responses JSON",
            Format::SglangOneBatch => "SGLang bench_one_batch JSONL",
            Format::SglangServe => "SGLang bench_serving JSONL",
            Format::VllmLatency => "vLLM bench latency JSON",
            Format::VllmThroughput => "vLLM bench throughput JSON",
            Format::VllmServe => "vLLM bench serve result",
            Format::InferencePerf => {
                "inference-perf lifecycle reports (summary_/stage_N_lifecycle_metrics.json, config.yaml)"
            }
            Format::GenaiBench => {
                "genai-bench results (one JSON per scenario and level, experiment_metadata.json)"
            }
            Format::Evalscope => {
                "evalscope perf results (benchmark_summary.json, benchmark_args.json)"
            }
            Format::LlamaBenchy => {
                "llama-benchy Markdown table or JSON (pp/tg tests, depths, concurrency)"
            }
            Format::OptimumBenchmark => {
                "optimum-benchmark report (benchmark.json or benchmark_report.json)"
            }
            Format::LlamaServer => "llama.cpp llama-server answers with their timings",
            Format::Ollama => {
                "Ollama timings (ollama run --verbose output, llm_benchmark logs)"
            }
            Format::Mapped => "any JSON, JSON lines or CSV, read through a mapping (--map)",
        }
    }

    /// The format of an id, if it is one of ours.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.id() == id)
    }
}
