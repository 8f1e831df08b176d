//! The figure table of the tool read by `tpsview_formats::formats::probe`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// The reported-tool id of a probe's figures.
pub const TOOL: &str = "tpsview-probe";

const MEASURED: &str = "measured by tpsview probe: a matrix multiply standing in for a decode step (no attention, no KV cache, no kernel fusion)";

const FIGURES: &[Figure] = &[
    Figure::same("system_tps", Metric::SystemTps, 1.0, MEASURED),
    Figure::same("per_stream_tps", Metric::PerStreamTps, 1.0, MEASURED),
    Figure::same(
        "step_ms.mean",
        Metric::Latency(Latency::Tpot, Stat::Mean),
        1.0,
        MEASURED,
    ),
    Figure::same(
        "step_ms.median",
        Metric::Latency(Latency::Tpot, Stat::P50),
        1.0,
        MEASURED,
    ),
    Figure::same(
        "step_ms.p90",
        Metric::Latency(Latency::Tpot, Stat::P90),
        1.0,
        MEASURED,
    ),
    Figure::same(
        "step_ms.p99",
        Metric::Latency(Latency::Tpot, Stat::P99),
        1.0,
        MEASURED,
    ),
];

const NOTES: &[&str] = &[
    "a step is one multiply of a batch of B activation vectors by the weights (B × K by K × N), timed over --steps after a warm-up; each of the B streams gets one token per step",
    "per-stream T/s = 1 / median step time; system T/s = B / median step time; TPOT is the step time",
    "the metadata holds the measured streaming bandwidth (one pass over the weights) and peak multiply rate (an in-cache multiply): the decode model's bound drawn from them, not a datasheet",
    "what it leaves out: attention and the KV cache (which grow with the batch and context), kernel fusion, scheduling, prefill",
];

/// A probe's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: TOOL,
    name: "tpsview probe",
    groups: &[FIGURES],
    notes: NOTES,
};
