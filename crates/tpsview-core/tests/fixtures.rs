//! Every format's fixtures (tests/fixtures/<format>/, written by tests/fixtures/make_fixtures.py,
//! which computes each tool's summary figures its own way): detection, the audit's acceptance test
//! (the tool's figures recomputed under the tool's definitions match within 0.5 %), pairing, and
//! bad input.

use std::path::PathBuf;
use tpsview_core::vocabulary::Metric;

use tpsview_core::formats::{parse, parse_any, vocabulary, Def, Format, Parsed, VOCABULARIES};
use tpsview_core::metrics::Basis;
use tpsview_core::summary::{summarize, Summary};
use tpsview_core::MetricOptions;

fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(rel)
}

fn load(rel: &str) -> Parsed {
    let bytes = std::fs::read(path(rel)).expect("fixture exists");
    parse_any(rel, &bytes).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn sum(files: &[&str]) -> Summary {
    summarize(
        files.iter().map(|f| load(f)).collect(),
        &MetricOptions::default(),
    )
}

fn warnings(s: &Summary) -> Vec<String> {
    s.diagnostics
        .iter()
        .filter(|d| d.severity == tpsview_core::error::Severity::Warning)
        .map(ToString::to_string)
        .collect()
}

/// The audit's acceptance test: every figure with a recomputable counterpart matches.
fn assert_audit_clean(s: &Summary) {
    for run in &s.runs {
        for p in &run.points {
            assert!(
                p.discrepancies.is_empty(),
                "{} {:?}: {:#?}",
                run.label,
                p.metrics.concurrency,
                p.discrepancies
            );
        }
    }
}

#[test]
fn every_format_is_detected_from_its_fixture() {
    let cases = [
        ("sglang/bench-serving-details.jsonl", Format::SglangServe),
        ("sglang/minimal-summary.jsonl", Format::SglangServe),
        ("sglang/one-batch.jsonl", Format::SglangOneBatch),
        ("genai-perf/profile_export.json", Format::GenaiPerfExport),
        (
            "genai-perf/profile_export_genai_perf.json",
            Format::GenaiPerfSummary,
        ),
        (
            "genai-perf/concurrency4_profile_export_genai_perf.csv",
            Format::GenaiPerfCsv,
        ),
        ("aiperf/profile_export.jsonl", Format::AiperfRecords),
        ("aiperf/profile_export_aiperf.json", Format::AiperfSummary),
        ("aiperf/minimal-phases_aiperf.json", Format::AiperfSummary),
        (
            "aiperf/companions-c4/server_metrics_export.jsonl",
            Format::AiperfServerMetrics,
        ),
        (
            "aiperf/companions-c4/gpu_telemetry_export.jsonl",
            Format::AiperfGpuTelemetry,
        ),
        (
            "aiperf/telemetry-c1/gpu_telemetry_export.jsonl",
            Format::AiperfGpuTelemetry,
        ),
        (
            "aiperf/server-stats-c8/server_metrics_export.csv",
            Format::AiperfServerStats,
        ),
        (
            "aiperf/server-stats-json-c4/server_metrics_export.json",
            Format::AiperfServerStats,
        ),
        ("aiperf/server-stats-c8/profile_export_aiperf.json", Format::AiperfSummary),
        ("aiperf/telemetry-c1/profile_export.jsonl", Format::AiperfRecords),
        ("trtllm/concurrency8-report.json", Format::TrtllmReport),
        ("trtllm/concurrency8-requests.json", Format::TrtllmRequests),
        ("llama-bench/threads-sweep.json", Format::LlamaBench),
        ("llama-bench/minimal.jsonl", Format::LlamaBench),
        (
            "llmperf/llama-3-8b_550_150_summary.json",
            Format::LlmperfSummary,
        ),
        (
            "llmperf/llama-3-8b_550_150_individual_responses.json",
            Format::LlmperfResponses,
        ),
        ("guidellm/benchmarks-v0.2.json", Format::Guidellm),
        ("guidellm/benchmarks-v0.5-sampled.json", Format::Guidellm),
        (
            "inference-benchmarker/results.json",
            Format::InferenceBenchmarker,
        ),
        ("vllm-latency/latency.json", Format::VllmLatency),
        ("vllm-throughput/throughput.json", Format::VllmThroughput),
        ("vllm/detailed-small.json", Format::VllmServe),
        (
            "mlperf/closed/Acme/results/h200x8_vllm/llama2-70b-99/Server/performance/run_1/mlperf_log_summary.txt",
            Format::MlperfSummary,
        ),
        (
            "mlperf/closed/Acme/results/h200x8_vllm/llama2-70b-99/Server/performance/run_1/mlperf_log_detail.txt",
            Format::MlperfDetail,
        ),
        (
            "mlperf/closed/Acme/systems/h200x8_vllm.json",
            Format::MlperfSystem,
        ),
        (
            "inferencex/agg_dsr1_1k1k_fp8_vllm_tp8_conc4_h200.json",
            Format::Inferencex,
        ),
        ("inferencex/api-rows-gb200-disagg.json", Format::Inferencex),
        (
            "aiperf/sweep_profile_export_aiperf_sweep.json",
            Format::AiperfSweep,
        ),
        ("llm-d/pd-c16_benchmark_report.yaml", Format::LlmdReport),
        ("vllm-sweep/exp-20261130/summary.csv", Format::VllmSweepCsv),
        // Console reports: real files of the corpus (tests/wild/PROVENANCE.md).
        (
            "../wild/trtllm/ericgong2005-NVFP4_Quantized_LLM/StepByStep.md",
            Format::TrtllmConsole,
        ),
        (
            "../wild/llama-bench/1337hero-rx7900xtx-llama-bench-vulcan/vulkan_benchmark_20251211_143639.txt",
            Format::LlamaBenchTable,
        ),
        (
            "../wild/vllm/tsho-vllm-benchmark-scripts/bench-medium-rate4.log",
            Format::ServingConsole,
        ),
        // The tools of 2026: real files of the corpus, results and configuration alike.
        (
            "../wild/inference-perf/dmitripikus-coordinator-performance-1/stage_3_lifecycle_metrics.json",
            Format::InferencePerf,
        ),
        (
            "../wild/inference-perf/inference-sim-training-2/summary_lifecycle_metrics.json",
            Format::InferencePerf,
        ),
        (
            "../wild/inference-perf/inference-sim-training-1/config.yaml",
            Format::InferencePerf,
        ),
        (
            "../wild/genai-bench/basetenlabs-genai-bench-1/N2000_200_200_20_text-to-text_num_concurrency_2_time_63s.json",
            Format::GenaiBench,
        ),
        (
            "../wild/genai-bench/samplecatalina-mini-serve-1/experiment_metadata.json",
            Format::GenaiBench,
        ),
        (
            "../wild/evalscope/kitsnail-evalperf-1/benchmark_summary.json",
            Format::Evalscope,
        ),
        (
            "inferencex/agentic_nested_kimik2.7_conc8_mi355x.json",
            Format::Inferencex,
        ),
        ("inferencex/agentic_flat_dsr1_users1_b200.json", Format::Inferencex),
        (
            "../wild/evalscope/ywmk-mktest_pressure-1/parallel_1_number_10/benchmark_args.json",
            Format::Evalscope,
        ),
        (
            "../wild/evalscope/kitsnail-evalperf-2/benchmark_percentile.json",
            Format::Evalscope,
        ),
        // Ollama's timings: a page of verbose blocks, a terminal log, llm_benchmark's console;
        // and trtllm-bench 0.16's console report.
        (
            "../wild/ollama/HaxxonHax-ollama-k8s-RPi/MANUAL_TESTING.md",
            Format::Ollama,
        ),
        (
            "../wild/ollama/NightOwlCoder-local-llm-bench/qwen3-coder-30b.log",
            Format::Ollama,
        ),
        (
            "../wild/ollama/alex-d-bondarev-llm-experiments/README.md",
            Format::Ollama,
        ),
        (
            "../wild/trtllm/AI-Hypercomputer-gpu-recipes/README.md",
            Format::TrtllmConsole,
        ),
        (
            "../wild/llama-benchy/djangodevreng-dgx-spark-benchmarks/05-big-context.log",
            Format::LlamaBenchy,
        ),
        ("../wild/llama-benchy/eugr-llama-benchy/sample.json", Format::LlamaBenchy),
        ("optimum-benchmark/benchmark.json", Format::OptimumBenchmark),
        (
            "../wild/llama-server/jethac-dgx-spark-hijinks-2/llamacpp_qwen25_1_5b_q4_k_m_20260608T0420JST_openai_benchmark.json",
            Format::LlamaServer,
        ),
    ];
    let mut seen = std::collections::HashSet::new();
    for (file, want) in cases {
        let bytes = std::fs::read(path(file)).unwrap();
        assert_eq!(tpsview_core::detect(&bytes), Some(want), "{file}");
        seen.insert(want);
    }
    for f in Format::ALL {
        // A mapped file is never detected: it is read through the mapping a person gives.
        assert!(
            f == Format::Tpsview || f == Format::Mapped || seen.contains(&f),
            "{f:?} has no fixture"
        );
    }
}

#[test]
fn tool_summaries_match_the_recomputation_under_each_tools_definition() {
    for files in [
        &["sglang/bench-serving-details.jsonl"][..],
        &[
            "genai-perf/profile_export.json",
            "genai-perf/profile_export_genai_perf.json",
        ],
        &[
            "genai-perf/profile_export.json",
            "genai-perf/concurrency4_profile_export_genai_perf.csv",
        ],
        &[
            "aiperf/profile_export.jsonl",
            "aiperf/profile_export_aiperf.json",
        ],
        &[
            "trtllm/concurrency8-requests.json",
            "trtllm/concurrency8-report.json",
        ],
        &[
            "llmperf/llama-3-8b_550_150_individual_responses.json",
            "llmperf/llama-3-8b_550_150_summary.json",
        ],
        &["guidellm/benchmarks-v0.2.json"],
        &["llama-bench/threads-sweep.json"],
        &["vllm-latency/latency.json"],
    ] {
        let s = sum(files);
        assert_audit_clean(&s);
        // Every point with raw data was recomputed and has the tool's figures beside it.
        for run in &s.runs {
            for p in &run.points {
                assert!(!p.reported.is_empty(), "{files:?}: no tool figures");
            }
        }
        assert!(warnings(&s).is_empty(), "{files:?}: {:#?}", warnings(&s));
    }
}

#[test]
fn the_audit_actually_compares_tool_defined_figures() {
    // Each pair below has figures whose definitions differ from tpsview's (ToolDef): were they
    // skipped, a wrong value would pass. Perturb one and the audit must flag it.
    let cases = [
        (
            "genai-perf/profile_export.json",
            "genai-perf/profile_export_genai_perf.json",
            "output_token_throughput_per_user.avg",
        ),
        (
            "genai-perf/profile_export.json",
            "genai-perf/profile_export_genai_perf.json",
            "request_throughput.avg",
        ),
        (
            "trtllm/concurrency8-requests.json",
            "trtllm/concurrency8-report.json",
            "performance.output_throughput_per_user_tok_s",
        ),
        (
            "trtllm/concurrency8-requests.json",
            "trtllm/concurrency8-report.json",
            "streaming_metrics.tpot_percentiles.p99",
        ),
        (
            "trtllm/concurrency8-requests.json",
            "trtllm/concurrency8-report.json",
            "performance.system_total_throughput_tok_s",
        ),
        (
            "llmperf/llama-3-8b_550_150_individual_responses.json",
            "llmperf/llama-3-8b_550_150_summary.json",
            "results_inter_token_latency_s_mean",
        ),
        (
            "llmperf/llama-3-8b_550_150_individual_responses.json",
            "llmperf/llama-3-8b_550_150_summary.json",
            "results_request_output_throughput_token_per_s_mean",
        ),
    ];
    for (data, summary, key) in cases {
        let mut s = load(summary);
        let fig = s.report.runs[0].points[0]
            .reported
            .figures
            .get_mut(key)
            .unwrap_or_else(|| panic!("{summary} has {key}"));
        *fig *= 1.02;
        let out = summarize(vec![load(data), s], &MetricOptions::default());
        let d = &out.runs[0].points[0].discrepancies;
        assert_eq!(d.len(), 1, "{key}: {d:#?}");
        assert_eq!(d[0].tool_metric, key);
        assert!((d[0].relative_diff + 0.02 / 1.02).abs() < 1e-6, "{d:?}");
    }
    // GuideLLM's token-weighted ITL and its TPOT (which divides by N) are audited too.
    for key in [
        "inter_token_latency_ms.mean",
        "time_per_output_token_ms.mean",
    ] {
        let mut g = load("guidellm/benchmarks-v0.2.json");
        *g.report.runs[0].points[1]
            .reported
            .figures
            .get_mut(key)
            .unwrap() *= 1.01;
        let out = summarize(vec![g], &MetricOptions::default());
        let d = &out.runs[0].points[1].discrepancies;
        assert_eq!(d.len(), 1, "{key}: {d:#?}");
        assert_eq!(d[0].tool_metric, key);
    }
}

#[test]
fn a_retokenized_summary_is_flagged_with_its_cause() {
    let s = sum(&[
        "genai-perf/profile_export.json",
        "genai-perf/discrepant-retokenized_genai_perf.json",
    ]);
    let d = &s.runs[0].points[0].discrepancies;
    let itl = d
        .iter()
        .find(|d| d.tool_metric == "inter_token_latency.avg")
        .expect("ITL flagged");
    assert!(itl.likely_cause.contains("re-tokenizes"), "{itl:?}");
    assert_eq!(itl.metric.key(), "tpot_mean_ms");
    // llama-bench: avg_ts that disagrees with its own samples, flagged once.
    let s = sum(&["llama-bench/discrepant-and-broken.json"]);
    let d = &s.runs[0].points[0].discrepancies;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!((d[0].relative_diff + 0.2 / 1.2).abs() < 1e-9);
}

#[test]
fn raw_data_and_summary_pair_into_one_point() {
    for (files, level, ok) in [
        (
            [
                "genai-perf/profile_export.json",
                "genai-perf/profile_export_genai_perf.json",
            ],
            4.0,
            20,
        ),
        (
            [
                "aiperf/profile_export.jsonl",
                "aiperf/profile_export_aiperf.json",
            ],
            4.0,
            19,
        ),
        (
            [
                "trtllm/concurrency8-requests.json",
                "trtllm/concurrency8-report.json",
            ],
            8.0,
            24,
        ),
        (
            [
                "llmperf/llama-3-8b_550_150_individual_responses.json",
                "llmperf/llama-3-8b_550_150_summary.json",
            ],
            4.0,
            18,
        ),
    ] {
        // Either order.
        for order in [[0, 1], [1, 0]] {
            let s = sum(&[files[order[0]], files[order[1]]]);
            assert_eq!(s.runs.len(), 1, "{files:?}");
            let p = &s.runs[0].points;
            assert_eq!(p.len(), 1, "{files:?}");
            assert_eq!(p[0].metrics.basis, Basis::Recomputed);
            assert_eq!(p[0].metrics.concurrency, Some(level), "{files:?}");
            assert_eq!(p[0].metrics.requests_ok, Some(ok), "{files:?}");
            assert!(p[0].reported.len() > 5);
        }
    }
}

#[test]
fn summary_only_files_show_figures_as_reported_only_where_defined_alike() {
    // vLLM bench throughput's tokens_per_second counts prompt tokens: never shown as system T/s.
    let s = sum(&["vllm-throughput/throughput.json"]);
    let p = &s.runs[0].points[0];
    assert_eq!(p.metrics.basis, Basis::Reported);
    assert_eq!(p.metrics.system_tps, None);
    assert!((p.metrics.duration_s.unwrap() - 61.2).abs() < 1e-9);
    // A static batch: per-stream T/s from the median step, system from bs / step.
    let s = sum(&["sglang/one-batch.jsonl"]);
    let p = &s.runs[0].points[1];
    assert_eq!(p.metrics.concurrency, Some(8.0));
    let step = 0.012 + 0.0004 * 8.0;
    assert!((p.metrics.per_stream_tps.unwrap() - 1.0 / step).abs() < 1e-9);
    assert!((p.metrics.system_tps.unwrap() - 8.0 / step).abs() < 1e-9);
    // LLMPerf's string numbers are read.
    let s = sum(&["llmperf/minimal_summary.json"]);
    assert_eq!(s.runs[0].points[0].metrics.concurrency, Some(2.0));
    assert_eq!(s.runs[0].points[0].metrics.system_tps, Some(310.5));
    // GenAI-Perf's CSV: quoted thousands separators.
    let csv = load("genai-perf/concurrency4_profile_export_genai_perf.csv");
    let figs = &csv.report.runs[0].points[0].reported.figures;
    assert!(figs["request_latency.avg"] > 1000.0);
    assert_eq!(csv.report.runs[0].points[0].concurrency, Some(4.0));
}

#[test]
fn a_llama_bench_sweep_becomes_points_on_its_swept_axis() {
    let p = load("llama-bench/threads-sweep.json");
    let runs = &p.report.runs;
    assert_eq!(runs.len(), 2, "pp512 and tg128");
    let tg = runs
        .iter()
        .find(|r| r.label.to_string().contains("tg128"))
        .unwrap();
    assert_eq!(tg.axis.as_deref(), Some("n_threads"));
    let levels: Vec<_> = tg.points.iter().map(|p| p.concurrency.unwrap()).collect();
    assert_eq!(levels, [1.0, 2.0, 4.0, 8.0]);
}

#[test]
fn guidellm_samples_take_counts_and_throughput_from_the_tool() {
    let s = sum(&["guidellm/benchmarks-v0.5-sampled.json"]);
    let p = &s.runs[0].points[0];
    assert_eq!(p.metrics.concurrency, Some(8.0));
    assert_eq!(
        p.metrics.requests_ok,
        Some(24),
        "request_totals, not the 10 kept"
    );
    let tool = p.reported["output_tokens_per_second.mean"];
    assert_eq!(p.metrics.system_tps, Some(tool));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("keeps 10 of 24")));
}

#[test]
fn guidellm_figures_cover_the_tools_measurement_window() {
    // 23 successful requests listed; the tool (and the fixture's Python) counted the 19 that
    // overlap scheduler_metrics' measurement window, and one of the two errored ones.
    let file = "guidellm/benchmarks-v0.5-warmup.json";
    let s = sum(&[file]);
    let p = &s.runs[0].points[0];
    let tool = |k: &str| p.reported[k];
    assert_eq!(p.metrics.requests_ok, Some(19));
    assert_eq!(tool("request_totals.successful"), 19.0);
    assert_eq!(p.metrics.requests_failed, Some(1));
    assert!(p.audited.len() > 8, "the window is not a sample: audited");
    let ttft = p.metrics.ttft_ms.mean.unwrap();
    let want = tool("time_to_first_token_ms.mean");
    assert!((ttft - want).abs() < 1e-6 * want, "{ttft} vs {want}");
    // Every figure the tool defines as tpsview does matches; the one left is the duration, which
    // GuideLLM takes as the window itself, and the audit says so.
    let left: Vec<_> = p.discrepancies.iter().map(|d| d.tool_metric).collect();
    assert_eq!(left, ["duration"], "{:#?}", p.discrepancies);
    assert!(p.discrepancies[0]
        .likely_cause
        .contains("measurement window"));
    let window = s
        .diagnostics
        .iter()
        .find(|d| d.message.contains("measurement window"))
        .expect("the requests left out are named");
    assert!(
        window.message.starts_with("5 of 25 listed requests"),
        "{window}"
    );
    assert!(
        window.message.contains("2 in the warm-up")
            && window.message.contains("3 in the cool-down"),
        "{window}"
    );
    assert!(window.to_string().contains(file));
}

#[test]
fn bad_records_are_listed_and_the_good_ones_load() {
    for (file, field, index) in [
        ("sglang/one-bad-line.jsonl", "line 2", None),
        ("aiperf/broken-lines.jsonl", "line 6", None),
        ("aiperf/broken-lines.jsonl", "[7].metrics", Some(7)),
        ("trtllm/bad-records-requests.json", "[2]", Some(2)),
        ("trtllm/bad-records-requests.json", "e2e", Some(4)),
        (
            "genai-perf/bad-records_profile_export.json",
            "experiments[0].requests[3].timestamp",
            None,
        ),
        (
            "genai-perf/bad-cell_genai_perf.csv",
            "line 2 (Time To First Token (ms), avg)",
            None,
        ),
        (
            "llama-bench/discrepant-and-broken.json",
            "[1].avg_ts",
            Some(1),
        ),
        ("llmperf/broken_individual_responses.json", "[4]", Some(4)),
        ("guidellm/bad-requests.json", "ttft", Some(2)),
        (
            "guidellm/bad-requests.json",
            "benchmarks[1].requests.output_tokens",
            Some(4),
        ),
    ] {
        let s = sum(&[file]);
        let hit = s
            .diagnostics
            .iter()
            .any(|d| d.file == file && d.field == field && d.index == index);
        assert!(
            hit,
            "{file}: no diagnostic on {field} {index:?}: {:#?}",
            s.diagnostics
        );
        assert!(
            s.runs.iter().any(|r| !r.points.is_empty()),
            "{file}: nothing loaded"
        );
    }
}

#[test]
fn broken_files_get_an_error_naming_the_file() {
    for file in [
        "sglang/truncated.jsonl",
        "genai-perf/truncated_profile_export.json",
        "inference-benchmarker/truncated.json",
        "vllm-throughput/wrong-type.json",
        "sglang/one-batch-no-batch-size.jsonl",
    ] {
        let bytes = std::fs::read(path(file)).unwrap();
        let format = tpsview_core::detect(&bytes).unwrap_or(Format::VllmServe);
        let e = parse(format, file, &bytes).expect_err(file);
        assert!(e.to_string().starts_with(file), "{e}");
    }
}

#[test]
fn strings_from_reports_are_kept_as_text() {
    let s = sum(&["sglang/bench-serving-details.jsonl"]);
    assert_eq!(s.runs[0].label, "sglang · <b>Llama-3.1-8B</b>");
}

#[test]
fn a_chosen_run_label_regroups_files() {
    let mut a = load("guidellm/benchmarks-v0.2.json");
    let mut b = load("sglang/bench-serving-details.jsonl");
    assert_eq!(
        summarize(vec![a.clone(), b.clone()], &MetricOptions::default())
            .runs
            .len(),
        2
    );
    a.run_label = Some("before".into());
    b.run_label = Some("before".into());
    let s = summarize(vec![a, b], &MetricOptions::default());
    assert_eq!(s.runs.len(), 1);
    assert_eq!(s.runs[0].label, "before");
    assert_eq!(s.runs[0].points.len(), 4);
}

#[test]
fn every_vocabulary_maps_to_known_metrics_and_says_how_it_differs() {
    for v in VOCABULARIES {
        assert!(!v.notes.is_empty(), "{}", v.name);
        for f in v.figures() {
            assert!(
                Metric::ALL.contains(&f.canonical),
                "{}: {}",
                v.name,
                f.canonical
            );
            assert!(!f.likely_cause.is_empty());
        }
        assert_eq!(vocabulary(v.tool).map(|x| x.name), Some(v.name));
    }
    // The name collisions formats.md warns about are mapped, not matched by name.
    let g = vocabulary("genai-perf").unwrap();
    let itl = g
        .figures()
        .find(|f| f.tool_key == "inter_token_latency.avg")
        .unwrap();
    assert_eq!((itl.canonical.key(), itl.def), ("tpot_mean_ms", Def::Same));
    let l = vocabulary("llmperf").unwrap();
    let itl = l
        .figures()
        .find(|f| f.tool_key == "results_inter_token_latency_s_mean")
        .unwrap();
    assert_ne!(itl.def, Def::Same, "LLMPerf's ITL includes TTFT");
}

#[test]
fn unknown_files_say_how_many_formats_were_tried_and_where_they_are_listed() {
    let e = parse_any("mystery.json", br#"{"speed": 5}"#)
        .unwrap_err()
        .to_string();
    // Every format but the mapping (never detected) was tried; `tpsview formats` names them.
    let tried = Format::ALL.len() - 1;
    assert!(
        e.contains(&format!("none of the {tried} supported formats reads it")),
        "{e}"
    );
    assert!(
        e.contains("`tpsview formats`") && e.contains("tpsview map"),
        "{e}"
    );
    assert!(e.contains("speed"));
}

/// The number after `key` on a LoadGen summary line (`Completed tokens per second: 1564.73`).
fn loadgen_value(text: &str, key: &str) -> f64 {
    text.lines()
        .find(|l| l.trim_start().starts_with(key))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn mlperf_logs_give_a_point_per_scenario_run_with_the_token_rate_the_system_and_the_limits() {
    let base = "mlperf/closed/Acme/results/h200x8_vllm";
    let server = format!("{base}/llama2-70b-99/Server/performance/run_1");
    let files = [
        format!("{server}/mlperf_log_summary.txt"),
        format!("{server}/mlperf_log_detail.txt"),
        format!("{base}/llama2-70b-99/Offline/performance/run_1/mlperf_log_summary.txt"),
        format!("{base}/llama2-70b-interactive-99/Server/performance/run_1/mlperf_log_summary.txt"),
        "mlperf/closed/Acme/systems/h200x8_vllm.json".to_owned(),
    ];
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let s = sum(&names);
    let labels: Vec<&str> = s.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "llama2-70b-99 · Server · h200x8_vllm",
            "llama2-70b-99 · Offline · h200x8_vllm",
            "llama2-70b-interactive-99 · Interactive · h200x8_vllm",
        ]
    );
    // The system file: 8 × H200 for every run of that system.
    for r in &s.runs {
        assert_eq!(r.meta.gpu.as_deref(), Some("NVIDIA H200-SXM-141GB"));
        assert_eq!(r.meta.gpu_count, Some(8));
    }
    let text = |f: &str| std::fs::read_to_string(path(f)).unwrap();
    let summary = text(&files[0]);
    let detail = text(&files[1]);
    // Server: the summary and the detail log are one point; system T/s is the completed-token
    // rate, not result_token_throughput (Σ tokens / Σ latency, written beside it).
    let p = &s.runs[0].points[0];
    assert_eq!(s.runs[0].points.len(), 1, "summary and detail paired");
    let rate = loadgen_value(&summary, "Completed tokens per second:");
    assert_eq!(p.metrics.system_tps, Some(rate));
    let not_rate = detail
        .lines()
        .find(|l| l.contains("\"result_token_throughput\""))
        .and_then(|l| l.split("\"value\": ").nth(1))
        .and_then(|v| v.split(',').next())
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap();
    assert!(
        (not_rate - rate).abs() > 0.1 * rate,
        "the fixture keeps the trap"
    );
    assert_eq!(p.reported["result_token_throughput"], not_rate);
    assert_eq!(p.metrics.request_rate, Some(12.0), "target_qps");
    let ttft99 = loadgen_value(&summary, "99.00 percentile first token latency (ns)");
    assert_eq!(p.metrics.ttft_ms.p99, Some(ttft99 * 1e-6));
    let run = &s.runs[0];
    assert_eq!(run.meta.labels["slo_ttft_p99_ms"], "2000");
    assert_eq!(run.meta.labels["slo_tpot_p99_ms"], "200");
    // Offline: every sample at once; no latency limit binds it.
    let off = &s.runs[1];
    assert_eq!(off.points[0].metrics.request_rate, Some(f64::INFINITY));
    assert!(!off.meta.labels.contains_key("slo_ttft_p99_ms"));
    // Interactive, though its LoadGen says Server, with its own tighter limits.
    let inter = &s.runs[2];
    assert_eq!(inter.meta.labels["loadgen_scenario"], "Server");
    assert_eq!(inter.meta.labels["slo_ttft_p99_ms"], "450");
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("the submission path says Interactive")));
}

#[test]
fn cut_mlperf_logs_say_what_is_missing() {
    let s = sum(&["mlperf/cut_mlperf_log_summary.txt"]);
    assert!(warnings(&s)
        .iter()
        .any(|w| w.contains("cut_mlperf_log_summary.txt: warning: field `Additional Stats`")));
    let bytes = std::fs::read(path("mlperf/no-results_mlperf_log_detail.txt")).unwrap();
    let e = parse_any("no-results_mlperf_log_detail.txt", &bytes).unwrap_err();
    assert!(e.to_string().contains("no result_* record"), "{e}");
    let e = parse(Format::MlperfSummary, "x.txt", b"hello\nScenario? no").unwrap_err();
    assert!(e.to_string().contains("no `Scenario :` line"), "{e}");
}

#[test]
fn a_speculative_run_says_its_acceptance_and_why_itl_and_tpot_part() {
    let file = "vllm/spec-decode-eagle3.json";
    let s = sum(&[file]);
    assert_audit_clean(&s);
    let p = &s.runs[0].points[0];
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path(file)).unwrap()).unwrap();
    let spec = tpsview_core::spec::of(p).expect("spec figures kept");
    let a = v["spec_decode_acceptance_length"].as_f64().unwrap();
    assert_eq!(spec.acceptance_length, Some(a));
    // The measured side, from the fixture's own means (vLLM's ITL and TPOT, written by Python).
    let want = v["mean_itl_ms"].as_f64().unwrap() / v["mean_tpot_ms"].as_f64().unwrap();
    let got = spec.itl_over_tpot.unwrap();
    assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
    // A chunk carries about the acceptance length of tokens.
    assert!((got / a - 1.0).abs() < 0.05, "{got} vs {a}");
    let positions: Vec<f64> = v["spec_decode_per_position_acceptance_rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(spec.per_position, positions);
    let text = spec.describe(p.metrics.tpot_ms.mean, p.metrics.itl_ms.mean);
    assert!(text.contains(&format!("yields {a:.2} tokens")), "{text}");
    assert!(
        text.contains("draft positions accepted: 55 %, 31 %, 17 %"),
        "{text}"
    );
}

#[test]
fn inferencex_per_gpu_figures_become_system_figures_over_the_gpus_that_decode() {
    let aggs =
        [4, 16, 64].map(|c| format!("inferencex/agg_dsr1_1k1k_fp8_vllm_tp8_conc{c}_h200.json"));
    let names: Vec<&str> = aggs.iter().map(String::as_str).collect();
    let s = sum(&names);
    assert_eq!(s.runs.len(), 1, "one configuration, three concurrencies");
    let run = &s.runs[0];
    assert_eq!(run.meta.gpu_count, Some(8));
    for (p, f) in run.points.iter().zip(&aggs) {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path(f)).unwrap()).unwrap();
        let per_gpu = v["output_tput_per_gpu"].as_f64().unwrap();
        assert_eq!(p.metrics.system_tps, Some(per_gpu * 8.0), "{f}");
        // Interactivity is 1000 / mean TPOT ms: tpsview's per-stream T/s, audited.
        let intvty = v["mean_intvty"].as_f64().unwrap();
        let ps = p.metrics.per_stream_tps.unwrap();
        assert!((ps - intvty).abs() < 1e-6 * intvty, "{ps} vs {intvty}");
        assert_eq!(p.audited, ["mean_intvty"]);
        assert!(p.discrepancies.is_empty());
        assert_eq!(p.metrics.concurrency, v["conc"].as_f64());
    }
    // Disaggregated: output per decode GPU × the 8 decode GPUs; the run has 12 GPUs in all.
    let file = "inferencex/api-rows-gb200-disagg.json";
    let s = sum(&[file]);
    let rows: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path(file)).unwrap()).unwrap();
    let run = &s.runs[0];
    assert_eq!(run.meta.gpu_count, Some(12));
    assert_eq!(run.meta.gpu.as_deref(), Some("gb200"));
    for (p, row) in run.points.iter().zip(rows.as_array().unwrap()) {
        let per_decode_gpu = row["metrics"]["output_tput_per_gpu"].as_f64().unwrap();
        assert_eq!(p.metrics.system_tps, Some(per_decode_gpu * 8.0));
    }
    assert!(s.diagnostics.iter().any(|d| d
        .message
        .contains("InferenceX divides output tokens/s by the 8 decode GPUs")));
    let bytes = std::fs::read(path("inferencex/missing-per-gpu_agg.json")).unwrap();
    let e = parse_any("missing-per-gpu_agg.json", &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("field `output_tput_per_gpu`"), "{e}");
}

#[test]
fn one_level_twice_from_two_folders_is_two_runs_from_one_folder_one_run_flagged() {
    let bytes = std::fs::read(path("vllm/detailed-small.json")).unwrap();
    let as_named = |names: [&str; 2]| {
        summarize(
            names
                .iter()
                .map(|n| parse_any(n, &bytes).unwrap())
                .collect(),
            &MetricOptions::default(),
        )
    };
    // Two folders: two runs, each its folder's, nothing claimed twice.
    let s = as_named(["baseline/c4.json", "variant/c4.json"]);
    let labels: Vec<&str> = s.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(labels[0].ends_with(" · folder=baseline") && labels[1].ends_with(" · folder=variant"));
    // The run's header tells them apart: the folder is among its settings.
    let settings = |r: &tpsview_core::summary::RunSummary| {
        tpsview_core::answer::header(r)
            .into_iter()
            .find(|(part, _)| *part == tpsview_core::answer::HeaderPart::Setting)
            .map(|(_, text)| text)
    };
    assert_eq!(settings(&s.runs[1]).as_deref(), Some("folder=variant"));
    assert!(s.runs.iter().all(|r| r.points.len() == 1));
    assert!(!warnings(&s).iter().any(|w| w.contains("both claim")));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("in 2 folders claim the same levels")));
    // One folder: one run, the level kept twice and flagged.
    let s = as_named(["exp/a.json", "exp/b.json"]);
    assert_eq!(s.runs.len(), 1);
    assert_eq!(s.runs[0].points.len(), 2);
    assert!(warnings(&s).iter().any(|w| w.contains("both claim")));
}

#[test]
fn inferencex_measured_power_is_its_own_joules_per_token_audited_against_power_over_the_rate() {
    let file = "inferencex/agg_dsr1_1k1k_fp8_vllm_tp8_conc32_h200_power.json";
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path(file)).unwrap()).unwrap();
    let s = sum(&[file]);
    let p = &s.runs[0].points[0];
    let e = p.energy.as_ref().expect("energy");
    let jpt = v["joules_per_output_token"].as_f64().unwrap();
    assert_eq!(e.joules_per_output_token, jpt);
    assert_eq!(e.joules, v["total_gpu_energy_j"].as_f64());
    assert_eq!(e.mean_power_w, v["avg_total_gpu_power_w"].as_f64());
    // The same joules per token another way: all 8 GPUs' mean power over the output rate
    // (output_tput_per_gpu × tp), W ÷ tokens/s. InferenceX's power window ran 0.4 % longer
    // than the benchmark's duration: within its own 1 %, so no note.
    let by_power = v["avg_total_gpu_power_w"].as_f64().unwrap()
        / (v["output_tput_per_gpu"].as_f64().unwrap() * v["tp"].as_f64().unwrap());
    let apart = (by_power - jpt).abs() / jpt * 100.0;
    assert!((e.apart_pct.unwrap() - apart).abs() < 1e-9, "{e:?}");
    assert!(apart > 0.3 && apart < 0.5, "{apart}");
    assert_eq!(e.note, None);
    // Its per-GPU figure is 1/8 of the whole (InferenceX rounds both to the milliwatt).
    let per_gpu = v["avg_power_w"].as_f64().unwrap();
    assert!((per_gpu * 8.0 - e.mean_power_w.unwrap()).abs() < 8e-3);
    // A measurement InferenceX marked invalid: no energy, said with the field.
    let file = "inferencex/agg_dsr1_1k1k_fp8_vllm_tp8_conc8_h200_power-invalid.json";
    let s = sum(&[file]);
    assert_eq!(s.runs[0].points[0].energy, None);
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.field == "power_valid" && d.message.contains("no energy")));
}

#[test]
fn an_aiperf_sweep_aggregate_gives_a_level_per_combination_and_says_the_trials_spread() {
    let file = "aiperf/sweep_profile_export_aiperf_sweep.json";
    let s = sum(&[file]);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path(file)).unwrap()).unwrap();
    let rows = v["per_combination_metrics"].as_array().unwrap();
    let run = &s.runs[0];
    assert_eq!(run.label, "Qwen/Qwen3-0.6B");
    assert_eq!(run.points.len(), rows.len());
    for (p, row) in run.points.iter().zip(rows) {
        let m = &row["metrics"];
        assert_eq!(
            p.metrics.concurrency,
            row["parameters"]["concurrency"].as_f64()
        );
        let out = &m["output_token_throughput_avg"];
        assert_eq!(p.metrics.system_tps, out["mean"].as_f64());
        assert_eq!(
            p.metrics.ttft_ms.p99,
            m["time_to_first_token_p99"]["mean"].as_f64()
        );
        // AIPerf's ITL is tpsview's TPOT.
        assert_eq!(
            p.metrics.tpot_ms.mean,
            m["inter_token_latency_avg"]["mean"].as_f64()
        );
        let spread = format!(
            "ranges {:.1}–{:.1} tokens/s",
            out["min"].as_f64().unwrap(),
            out["max"].as_f64().unwrap()
        );
        assert!(
            s.diagnostics.iter().any(|d| d.message.contains(&spread)),
            "{spread}"
        );
    }
    // The CSV twin: the same levels, its figures the JSON's rounded to 2 decimals.
    let csv_file = "aiperf/sweep_profile_export_aiperf_sweep.csv";
    let csv = sum(&[csv_file]);
    assert_eq!(
        tpsview_core::detect(&std::fs::read(path(csv_file)).unwrap()),
        Some(Format::AiperfSweep)
    );
    assert_eq!(csv.runs[0].points.len(), run.points.len());
    for (a, b) in csv.runs[0].points.iter().zip(&run.points) {
        assert_eq!(a.metrics.concurrency, b.metrics.concurrency);
        let (x, y) = (a.metrics.system_tps.unwrap(), b.metrics.system_tps.unwrap());
        assert!((x - y).abs() <= 0.005 + 1e-9, "{x} vs {y}");
        let (x, y) = (
            a.metrics.ttft_ms.p99.unwrap(),
            b.metrics.ttft_ms.p99.unwrap(),
        );
        assert!((x - y).abs() <= 0.005 + 1e-9, "{x} vs {y}");
    }
    let bytes = std::fs::read(path(
        "aiperf/sweep-no-metrics_profile_export_aiperf_sweep.json",
    ))
    .unwrap();
    let e = parse_any("x.json", &bytes).unwrap_err().to_string();
    assert!(
        e.contains("field `per_combination_metrics[0].metrics`"),
        "{e}"
    );
}

/// A statistic of an llm-d report's YAML, read here by line (`key: value` under its block).
fn yaml_stat(text: &str, block: &str, stat: &str) -> f64 {
    let start = text.find(&format!("{block}:")).expect("block");
    text[start..]
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{stat}:")))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{block}.{stat}"))
}

#[test]
fn llm_d_reports_convert_each_statistic_from_the_units_beside_it() {
    // Disaggregated, in ms: 2 prefill + 4 decode GPUs.
    let file = "llm-d/pd-c16_benchmark_report.yaml";
    let s = sum(&[file]);
    let text = std::fs::read_to_string(path(file)).unwrap();
    let run = &s.runs[0];
    assert_eq!(run.meta.gpu_count, Some(6));
    assert_eq!(run.meta.labels["prefill_gpus"], "2");
    assert_eq!(run.meta.labels["decode_gpus"], "4");
    assert_eq!(run.meta.engine.as_deref(), Some("vllm"));
    let p = &run.points[0];
    assert_eq!(p.metrics.concurrency, Some(16.0));
    assert_eq!(
        p.metrics.system_tps,
        Some(yaml_stat(&text, "output_token_rate", "mean"))
    );
    assert_eq!(
        p.metrics.ttft_ms.p99,
        Some(yaml_stat(&text, "time_to_first_token", "p99"))
    );
    assert_eq!(p.metrics.requests_failed, Some(1));
    // In seconds: ×1000 to ms (s/token to ms/token).
    let file = "llm-d/c4-seconds_benchmark_report.yaml";
    let s = sum(&[file]);
    let text = std::fs::read_to_string(path(file)).unwrap();
    let p = &s.runs[0].points[0];
    let want = yaml_stat(&text, "time_to_first_token", "mean") * 1e3;
    assert!((p.metrics.ttft_ms.mean.unwrap() - want).abs() < 1e-9 * want);
    let want = yaml_stat(&text, "time_per_output_token", "p90") * 1e3;
    assert!((p.metrics.tpot_ms.p90.unwrap() - want).abs() < 1e-9 * want);
    // Wrong units: that block is left out, said with its field; the rest loads.
    let s = sum(&["llm-d/wrong-units_benchmark_report.yaml"]);
    assert_eq!(s.runs[0].points[0].metrics.ttft_ms.mean, None);
    assert!(s.runs[0].points[0].metrics.system_tps.is_some());
    assert!(warnings(&s).iter().any(|w| w.contains(
        "field `results.request_performance.aggregate.latency.time_to_first_token.units`: units \"token/s\" do not fit"
    )));
    let bytes = std::fs::read(path("llm-d/broken_benchmark_report.yaml")).unwrap();
    let e = parse(Format::LlmdReport, "broken.yaml", &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not valid YAML") && e.contains("line 4"), "{e}");
}

#[test]
fn genai_perf_telemetry_stats_give_the_gpus_energy_over_its_whole_run() {
    let file = "genai-perf/telemetry_genai_perf.json";
    let s = sum(&[file]);
    let p = &s.runs[0].points[0];
    let e = p.energy.as_ref().expect("telemetry_stats read");
    // Recounted from the file: each GPU's counter max − min (MJ → J), its mean power (W).
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path(file)).unwrap()).unwrap();
    let t = &v["telemetry_stats"];
    let (mut joules, mut watts) = (0.0, 0.0);
    for g in ["0", "1"] {
        let c = &t["energy_consumption"][g];
        joules += (c["max"].as_f64().unwrap() - c["min"].as_f64().unwrap()) * 1e6;
        watts += t["gpu_power_usage"][g]["avg"].as_f64().unwrap();
    }
    assert!((e.joules.unwrap() - joules).abs() < 1e-6 * joules, "{e:?}");
    assert!((e.mean_power_w.unwrap() - watts).abs() < 1e-9 * watts);
    // A summary alone has no request count: the mean power over its output token rate.
    assert_eq!(p.metrics.output_tokens, None);
    let tps = v["output_token_throughput"]["avg"].as_f64().unwrap();
    assert_eq!(e.basis, "mean power ÷ output T/s");
    assert!((e.joules_per_output_token - watts / tps).abs() < 1e-9 * watts / tps);
    assert_eq!(e.source, "GenAI-Perf GPU telemetry (DCGM)");
    assert_eq!(e.gpus.as_deref(), Some("2 GPUs: GPU 0; GPU 1"));
    assert!(e.note.as_deref().unwrap().contains("upper bound"), "{e:?}");
    // A summary without telemetry: no energy.
    assert!(
        sum(&["genai-perf/profile_export_genai_perf.json"]).runs[0].points[0]
            .energy
            .is_none()
    );
}

#[test]
fn an_llm_d_v021_report_gives_the_decode_pods_series_as_the_servers() {
    // Two decode pods and a prefill pod, 9 scrapes each (make_fixtures.py, llmd_observed):
    // running 4 + [4, 4, 4, 4, 3, 3, 2, 2, 1] = [8, 8, 8, 8, 7, 7, 6, 6, 5] → mean 63 / 9 = 7,
    // median 7, max 8; waiting [2, 2, 1, 0 …] → 5 / 9, max 2; KV 0.5 and 30 % → 0.4; the prefill
    // pod (9 running, KV 0.9) left out; the counters rise by the stage's output tokens.
    let file = "llm-d/observed-c8_benchmark_report.yaml";
    let s = sum(&[file]);
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    let p = &s.runs[0].points[0];
    let srv = p.server.as_ref().expect("observability read");
    assert_eq!(srv.polls, Some(9));
    let running = srv.running.unwrap();
    assert_eq!(
        (running.mean, running.p50, running.max),
        (7.0, Some(7.0), Some(8.0))
    );
    let waiting = srv.waiting.unwrap();
    assert!((waiting.mean - 5.0 / 9.0).abs() < 1e-12);
    assert_eq!(waiting.max, Some(2.0));
    assert!((srv.kv_cache_usage.unwrap().mean - 0.4).abs() < 1e-12);
    let text = std::fs::read_to_string(path(file)).unwrap();
    let client = yaml_stat(&text, "output_token_rate", "mean");
    assert_eq!(p.metrics.system_tps, Some(client));
    // The scrapes' times are written to the microsecond.
    let gen = srv.generation_tps.unwrap();
    assert!((gen - client).abs() < 1e-5 * client, "{gen} vs {client}");
    assert!(srv.difference_pct.unwrap().abs() < 1e-3);
    assert!(
        srv.source.contains("llama-decode-7d9f-a")
            && srv.source.contains("llama-decode-7d9f-b")
            && !srv.source.contains("prefill"),
        "{}",
        srv.source
    );
    // v0.2 reports have no observability: no series.
    let s = sum(&["llm-d/pd-c16_benchmark_report.yaml"]);
    assert!(s.runs[0].points[0].server.is_none());
}

/// The fuzz check (`fuzz_one`: parse, group, summarise, audit, write and read back, chart — no
/// panic) on every fixture of the readers added for issue 18, whole, cut at several places and
/// with bytes overwritten (libFuzzer explores further: scripts/fuzz.sh, fuzz/fuzz_targets/).
#[test]
fn the_new_readers_survive_cut_and_corrupted_fixtures() {
    let mut files: Vec<(PathBuf, Format)> = Vec::new();
    let mut walk = vec![path("")];
    while let Some(d) = walk.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk.push(p);
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            if let Some(f) = tpsview_core::detect(&bytes).filter(|f| {
                matches!(
                    f,
                    Format::MlperfSummary
                        | Format::MlperfDetail
                        | Format::MlperfSystem
                        | Format::Inferencex
                        | Format::AiperfSweep
                        | Format::AiperfServerMetrics
                        | Format::AiperfGpuTelemetry
                        | Format::AiperfServerStats
                        | Format::LlmdReport
                        | Format::VllmSweepCsv
                        | Format::InferencePerf
                        | Format::GenaiBench
                )
            }) {
                files.push((p, f));
            }
        }
    }
    assert!(files.len() >= 14, "{files:?}");
    for (p, format) in &files {
        tpsview_core::fuzz_cut_and_corrupted(*format, &std::fs::read(p).unwrap());
    }
}
