//! The figure table of the tool read by `tpsview_formats::formats::llmd`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Vocabulary};
use crate::vocabulary::Metric;

/// One of its latency blocks' statistics.
macro_rules! stats {
    ($m:literal, $c:ident, $cause:expr) => {
        nested_stats!(
            "latency.",
            $m,
            ["mean", "p50", "p90", "p99"],
            $c,
            1.0,
            $cause
        )
    };
}

/// Format id (and reported-tool id).
pub const ID: &str = "llm-d-report";

const HARNESS: &str = "the harness's own aggregate (guidellm, inference-perf, vllm-benchmark…), converted from the units the report states";
const TPOT_ITL: &str =
    "llm-d's schema warns that TPOT and ITL may mean one thing or two, per harness";

const TTFT: [Figure; 4] = stats!("time_to_first_token", Ttft, HARNESS);
const TPOT: [Figure; 4] = stats!("time_per_output_token", Tpot, TPOT_ITL);
const ITL: [Figure; 4] = stats!("inter_token_latency", Itl, TPOT_ITL);
const E2E: [Figure; 4] = stats!("request_latency", E2e, HARNESS);

const FIGURES: &[Figure] = &[
    Figure::same(
        "throughput.output_token_rate.mean",
        Metric::SystemTps,
        1.0,
        HARNESS,
    ),
    Figure::same(
        "throughput.request_rate.mean",
        Metric::RequestThroughput,
        1.0,
        HARNESS,
    ),
    Figure::same(
        "throughput.requests_rate.mean",
        Metric::RequestThroughput,
        1.0,
        HARNESS,
    ),
    // v0.1: rates named with their units; the level's length.
    Figure::same(
        "throughput.output_tokens_per_sec",
        Metric::SystemTps,
        1.0,
        HARNESS,
    ),
    Figure::same(
        "throughput.requests_per_sec",
        Metric::RequestThroughput,
        1.0,
        HARNESS,
    ),
    Figure::same("time.duration", Metric::DurationS, 1.0, HARNESS),
    Figure::same("requests.ok", Metric::RequestsOk, 1.0, HARNESS),
    Figure::same("requests.failures", Metric::RequestsFailed, 1.0, HARNESS),
];

const NOTES: &[&str] = &[
    "one point per report, as reported: a benchmark report keeps aggregate statistics, not per-request times",
    "every statistic states its units (ms or s; ms/token or s/token; token/s; qps): tpsview converts from them, and leaves out a block whose units do not fit its quantity",
    "requests: total sent − failures − incomplete are counted as completed",
    "GPUs: the accelerator counts of the inference engines in scenario.stack (prefill and decode apart when disaggregated)",
    "a v0.1 report: its figures under `metrics`, its level the rate (or concurrency) of the harness stage it reports (`scenario.load.metadata.stage` in `scenario.load.args.load.stages`)",
];

/// llm-d Benchmark Report's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "llm-d Benchmark Report",
    groups: &[FIGURES, &TTFT, &TPOT, &ITL, &E2E],
    notes: NOTES,
};
