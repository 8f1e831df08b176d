//! The figure table of the tool read by `tpsview_formats::formats::genai_bench`
//! (sgl-project/genai-bench's per-run JSON): its own figure names mapped to tpsview's metrics,
//! each with its definition and the likely cause of a difference. Definitions read in genai-bench
//! 0.0.5 (7fd04d8c): `metrics/request_metrics_collector.py` lines 47–95 (per request) and
//! `metrics/aggregated_metrics_collector.py` lines 178–280 (the run's).

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "genai-bench";

/// One of its latency blocks' statistics.
macro_rules! stats {
    ($m:literal, $c:ident, $cause:expr) => {
        nested_stats!(
            "aggregated_metrics.stats.",
            $m,
            ["mean", "p50", "p90", "p99"],
            $c,
            1e3,
            $cause
        )
    };
}

const KEPT: &str = "genai-bench's statistics leave out the first and last requests to finish (--warmup-ratio, --cooldown-ratio) and errored ones; versions before 2025-12 also dropped every request faster than 1,000 tokens/s";
const RUN: &str = "genai-bench divides by its run's duration (from starting its load to stopping it), with the tokens of the kept requests only (warm-up and cool-down left out, their time not)";

const TTFT: [Figure; 4] = stats!("ttft", Ttft, KEPT);
const TPOT: [Figure; 4] = stats!("tpot", Tpot, KEPT);
const E2E: [Figure; 4] = stats!("e2e_latency", E2e, KEPT);

const FIGURES: &[Figure] = &[
    Figure::same(
        "aggregated_metrics.mean_output_throughput_tokens_per_s",
        Metric::SystemTps,
        1.0,
        RUN,
    ),
    Figure::same(
        "aggregated_metrics.requests_per_second",
        Metric::RequestThroughput,
        1.0,
        "genai-bench counts every completed request, warm-up included, over its run's duration",
    ),
    Figure::same(
        "aggregated_metrics.run_duration",
        Metric::DurationS,
        1.0,
        "genai-bench's run lasts from starting its load to stopping it (polled once a second), not from the first send to the last token",
    ),
    Figure::same(
        "aggregated_metrics.num_completed_requests",
        Metric::RequestsOk,
        1.0,
        "genai-bench counts every request that finished without an error, warm-up included",
    ),
    Figure::same(
        "aggregated_metrics.num_error_requests",
        Metric::RequestsFailed,
        1.0,
        "genai-bench counts the requests its error codes name",
    ),
    Figure::tool(
        "aggregated_metrics.mean_total_tokens_throughput_tokens_per_s",
        Metric::SystemTps,
        1.0,
        "counts prompt tokens as throughput",
        ToolDef::TotalTokenThroughput,
    ),
    Figure::tool(
        "aggregated_metrics.stats.output_inference_speed.mean",
        Metric::PerStreamTps,
        1.0,
        "a mean of per-request rates, not 1 / mean TPOT",
        ToolDef::DecodeRateMean,
    ),
];

const NOTES: &[&str] = &[
    "one file per traffic scenario and level (`<scenario>_<task>_num_concurrency_<C>_time_<T>s.json`): the level is `num_concurrency` (or `batch_size` where `iteration_type` says so); each scenario is a run of its own; `experiment_metadata.json` beside them names the model, the GPU and the engine",
    "per-request records (`individual_request_metrics`: TTFT, E2E, token counts, error code) without send times: tpsview's system T/s is its output tokens ÷ genai-bench's `run_duration`",
    "TPOT is (E2E − TTFT) ÷ (output tokens − 1), as tpsview's; `output_inference_speed` is 1 / each request's TPOT, averaged",
    "times are seconds, or milliseconds where the file says `_time_unit: ms` (--metrics-time-unit ms: TTFT, TPOT, E2E and output latency only); tpsview reads either",
    "output tokens are the server's `usage.completion_tokens` (reasoning tokens included: `num_reasoning_tokens`, where written); TTFT is the first chunk with content or reasoning",
    "its `error_rate` is written before the request count is known (0 in every file seen): tpsview counts the errored requests itself",
];

/// genai-bench's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "genai-bench",
    groups: &[FIGURES, &TTFT, &TPOT, &E2E],
    notes: NOTES,
};
