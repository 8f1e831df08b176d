//! The figure table of the tool read by `tpsview_formats::formats::llama_bench`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "llama-bench";

/// The rate figures of a generation, a prompt-processing and a mixed test: the one a test
/// reports is the mean of its per-repetition rates (`SampleKind::RepetitionNs`).
pub const RATES: [&str; 3] = ["avg_ts", "prefill_avg_ts", "mixed_avg_ts"];

const SAMPLES: &str = "avg_ts is the mean of per-repetition rates (n/t each), not n / avg_ns; a difference means the samples and the mean disagree";

const FIGURES: &[Figure] = &[
    Figure::same("avg_ts", Metric::PerStreamTps, 1.0, SAMPLES),
    Figure::same("avg_ts", Metric::SystemTps, 1.0, SAMPLES),
    Figure::tool(
        "prefill_avg_ts",
        Metric::SystemTps,
        1.0,
        SAMPLES,
        ToolDef::PrefillRate,
    ),
    Figure::tool(
        "mixed_avg_ts",
        Metric::SystemTps,
        1.0,
        SAMPLES,
        ToolDef::MixedRate,
    ),
];

const NOTES: &[&str] = &[
    "one sequence, no server and no concurrency: a generation test's avg_ts is the single-stream decode rate, so per-stream T/s = system T/s and TPOT = 1 / avg_ts",
    "n_batch / n_ubatch are prompt-chunk sizes in tokens, not concurrent requests",
    "avg_ts = mean over repetitions of (n_prompt + n_gen) / t (sample std, N − 1); tokenization and sampling are not timed; n_depth tokens are pre-filled outside the timed region",
    "prompt-processing tests (n_gen = 0) are shown as prefill_avg_ts; mixed tests (-pg) as mixed_avg_ts",
];

/// llama-bench's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "llama.cpp llama-bench",
    groups: &[FIGURES],
    notes: NOTES,
};
