//! The figure table of the tool read by `tpsview_formats::formats::aiperf_sweep`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Vocabulary};
use crate::vocabulary::{Latency, Metric};

macro_rules! stats {
    ($m:literal, $c:ident) => {
        crate::vocabulary::latency_figures(
            [
                concat!($m, "_avg"),
                concat!($m, "_p50"),
                concat!($m, "_p90"),
                concat!($m, "_p99"),
            ],
            Latency::$c,
            1.0,
            TRIALS,
        )
    };
}

/// Format id (and reported-tool id).
pub const ID: &str = "aiperf-sweep";

/// Shared with the reader.
pub const TRIALS: &str = "the mean over the sweep's trials of AIPerf's figure (its own definition: see AIPerf's vocabulary)";

const TTFT: [Figure; 4] = stats!("time_to_first_token", Ttft);
const ITL: [Figure; 4] = stats!("inter_token_latency", Tpot);
const E2E: [Figure; 4] = stats!("request_latency", E2e);

const FIGURES: &[Figure] = &[
    Figure::same(
        "output_token_throughput_avg",
        Metric::SystemTps,
        1.0,
        TRIALS,
    ),
    Figure::same(
        "request_throughput_avg",
        Metric::RequestThroughput,
        1.0,
        TRIALS,
    ),
    Figure::same("benchmark_duration_avg", Metric::DurationS, 1.0, TRIALS),
    Figure::same("request_count_avg", Metric::RequestsOk, 1.0, TRIALS),
];

const NOTES: &[&str] = &[
    "one point per swept value, as reported: each figure is the mean over the trials (--num-profile-runs) of AIPerf's own figure",
    "the trials' spread of the output token throughput (min–max, coefficient of variation) is said beside each level",
    "AIPerf's \"inter token latency\" is tpsview's TPOT; times in ms",
    "a single-trial sweep keys each block by the metric alone: read as its average",
];

/// AIPerf sweep aggregate's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "AIPerf sweep aggregate",
    groups: &[FIGURES, &TTFT, &ITL, &E2E],
    notes: NOTES,
};
