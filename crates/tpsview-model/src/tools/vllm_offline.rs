//! The figure table of the tool read by `tpsview_formats::formats::vllm_offline`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id of `bench latency` files.
pub const LATENCY_ID: &str = "vllm-bench-latency";
/// Format id of `bench throughput` files.
pub const THROUGHPUT_ID: &str = "vllm-bench-throughput";

/// The figures a level's per-iteration `latencies` make (`SampleKind::IterationLatencyS`):
/// their mean, p50 and p99, in that order.
pub const FROM_LATENCIES: [&str; 3] = ["avg_latency", "percentiles.50", "percentiles.99"];

const BATCH: &str = "whole-batch latency: prefill of --batch-size prompts plus every decode step, not one request's; a discrepancy means the tool's mean or percentiles disagree with its own per-iteration latencies";

const LATENCY_FIGURES: &[Figure] = &[
    Figure::same(
        "avg_latency",
        Metric::Latency(Latency::E2e, Stat::Mean),
        1e3,
        BATCH,
    ),
    Figure::same(
        "percentiles.50",
        Metric::Latency(Latency::E2e, Stat::P50),
        1e3,
        BATCH,
    ),
    Figure::same(
        "percentiles.90",
        Metric::Latency(Latency::E2e, Stat::P90),
        1e3,
        BATCH,
    ),
    Figure::same(
        "percentiles.99",
        Metric::Latency(Latency::E2e, Stat::P99),
        1e3,
        BATCH,
    ),
];

const LATENCY_NOTES: &[&str] = &[
    "every latency is one whole batch (--batch-size prompts of --input-len, --output-len tokens each), prefill included: not TPOT",
    "batch size and lengths are not in the file: system T/s ≈ batch × output_len / avg_latency needs them from the command line",
    "tpsview re-aggregates the per-iteration `latencies` to check avg_latency and the percentiles",
];

const THROUGHPUT_FIGURES: &[Figure] = &[
    Figure::same(
        "elapsed_time",
        Metric::DurationS,
        1.0,
        "offline run: the whole LLM.generate call",
    ),
    Figure::same(
        "requests_per_second",
        Metric::RequestThroughput,
        1.0,
        "offline run: all prompts submitted at once",
    ),
    Figure::tool(
        "tokens_per_second",
        Metric::SystemTps,
        1.0,
        "tokens_per_second counts prompt and output tokens",
        ToolDef::TotalTokenThroughput,
    ),
];

const THROUGHPUT_NOTES: &[&str] = &[
    "offline LLM.generate over the whole dataset at once: no server, no per-request latency",
    "tokens_per_second = (prompt + output tokens) / elapsed_time: not output T/s; output lengths are not in the file",
];

/// vLLM bench latency's vocabulary.
pub const LATENCY_VOCABULARY: Vocabulary = Vocabulary {
    tool: LATENCY_ID,
    name: "vLLM bench latency",
    groups: &[LATENCY_FIGURES],
    notes: LATENCY_NOTES,
};

/// vLLM bench throughput's vocabulary.
pub const THROUGHPUT_VOCABULARY: Vocabulary = Vocabulary {
    tool: THROUGHPUT_ID,
    name: "vLLM bench throughput",
    groups: &[THROUGHPUT_FIGURES],
    notes: THROUGHPUT_NOTES,
};
