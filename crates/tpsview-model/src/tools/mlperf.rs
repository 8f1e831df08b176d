//! The figure table of the tool read by `tpsview_formats::formats::mlperf`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric};

const NS: &str = "LoadGen's own percentiles over every sample, in ns";

macro_rules! ns {
    ($mean:literal, $p50:literal, $p90:literal, $p99:literal, $c:ident) => {
        crate::vocabulary::latency_figures([$mean, $p50, $p90, $p99], Latency::$c, 1e-6, NS)
    };
}
/// The reported-tool id of both logs.
pub const TOOL: &str = "mlperf-loadgen";

const WINDOW: &str = "LoadGen divides by the time from the test's start to the last sample's completion (Offline: to the one query's end)";
const SAMPLES: &str = "LoadGen's Server rate counts n − 1 samples ([begin, end) of the last one)";
const NOT_RATE: &str = "result_token_throughput is Σ tokens / Σ sample latency — a per-request rate, first-token wait included — not the token rate; result_completed_tokens_per_second is";

const E2E: [Figure; 4] = ns!(
    "Mean latency (ns)",
    "50.00 percentile latency (ns)",
    "90.00 percentile latency (ns)",
    "99.00 percentile latency (ns)",
    E2e
);
/// Shared with the reader.
pub const TTFT: [Figure; 4] = ns!(
    "Mean First Token latency (ns)",
    "50.00 percentile first token latency (ns)",
    "90.00 percentile first token latency (ns)",
    "99.00 percentile first token latency (ns)",
    Ttft
);
/// Shared with the reader.
pub const TPOT: [Figure; 4] = ns!(
    "Mean Time per Output Token (ns)",
    "50.00 percentile time to output token (ns)",
    "90.00 percentile time to output token (ns)",
    "99.00 percentile time to output token (ns)",
    Tpot
);
const E2E_DETAIL: [Figure; 4] = ns!(
    "result_mean_latency_ns",
    "result_50.00_percentile_latency_ns",
    "result_90.00_percentile_latency_ns",
    "result_99.00_percentile_latency_ns",
    E2e
);
const TTFT_DETAIL: [Figure; 4] = ns!(
    "result_first_token_mean_latency_ns",
    "result_first_token_50.00_percentile_latency_ns",
    "result_first_token_90.00_percentile_latency_ns",
    "result_first_token_99.00_percentile_latency_ns",
    Ttft
);
const TPOT_DETAIL: [Figure; 4] = ns!(
    "result_time_to_output_token_mean",
    "result_time_per_output_token_50.00_percentile_ns",
    "result_time_per_output_token_90.00_percentile_ns",
    "result_time_per_output_token_99.00_percentile_ns",
    Tpot
);

const RATES: &[Figure] = &[
    Figure::same(
        "Completed tokens per second",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same("Tokens per second", Metric::SystemTps, 1.0, WINDOW),
    Figure::same(
        "result_completed_tokens_per_second",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same("result_tokens_per_second", Metric::SystemTps, 1.0, WINDOW),
    Figure::same(
        "Completed samples per second",
        Metric::RequestThroughput,
        1.0,
        SAMPLES,
    ),
    Figure::same("Samples per second", Metric::RequestThroughput, 1.0, WINDOW),
    Figure::same(
        "result_completed_samples_per_sec",
        Metric::RequestThroughput,
        1.0,
        SAMPLES,
    ),
    Figure::same(
        "result_samples_per_second",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "result_token_throughput",
        Metric::PerStreamTps,
        1.0,
        NOT_RATE,
        ToolDef::TokensPerLatencySecond,
    ),
];

const NOTES: &[&str] = &[
    "one point per scenario run, as reported: LoadGen's logs hold no per-request times",
    "every latency is in nanoseconds; LoadGen's TPOT excludes the first token",
    "Server: the level is target_qps (a request rate); Offline: every sample at once; an Interactive run is LoadGen's Server scenario with tighter limits (its summary says Server)",
    "result_token_throughput (detail log) is Σ tokens / Σ sample latency, not the token rate: result_completed_tokens_per_second (Server) and result_tokens_per_second (Offline) are",
    "ttft_latency / tpot_latency of the test parameters are the scenario's p99 limits: kept as the run's SLO (ttft_p99_ms, tpot_p99_ms)",
    "GPU name and count come from the submission's systems/<name>.json when it is loaded with the logs",
];

/// MLPerf LoadGen's vocabulary (summary and detail log keys).
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: TOOL,
    name: "MLPerf LoadGen",
    groups: &[
        RATES,
        &E2E,
        &TTFT,
        &TPOT,
        &E2E_DETAIL,
        &TTFT_DETAIL,
        &TPOT_DETAIL,
    ],
    notes: NOTES,
};
