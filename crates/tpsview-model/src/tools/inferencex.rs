//! The figure table of the tool read by `tpsview_formats::formats::inferencex`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Vocabulary};
use crate::vocabulary::{Latency, Metric};

const SECONDS: &str = "InferenceX writes vLLM's latencies in seconds (the _ms keys ÷ 1000)";

macro_rules! s {
    ($m:literal, $c:ident) => {
        crate::vocabulary::latency_figures(
            [
                concat!("mean_", $m),
                concat!("median_", $m),
                concat!("p90_", $m),
                concat!("p99_", $m),
            ],
            Latency::$c,
            1e3,
            SECONDS,
        )
    };
}

/// Format id.
pub const ID: &str = "inferencex";
const DECODE_GPUS: &str = "tpsview's system T/s is InferenceX's output_tput_per_gpu × the GPUs that decode (tp, or num_decode_gpu when disaggregated)";
const INTVTY: &str =
    "InferenceX's interactivity is 1000 ÷ mean TPOT in ms, with 1e-8 added to the TPOT";

const TTFT: [Figure; 4] = s!("ttft", Ttft);
const TPOT: [Figure; 4] = s!("tpot", Tpot);
const ITL: [Figure; 4] = s!("itl", Itl);
const E2E: [Figure; 4] = s!("e2el", E2e);

const FIGURES: &[Figure] = &[
    Figure::same("output_throughput", Metric::SystemTps, 1.0, DECODE_GPUS),
    Figure::same("mean_intvty", Metric::PerStreamTps, 1.0, INTVTY),
];

const NOTES: &[&str] = &[
    "one point per result, as reported: InferenceX keeps per-GPU figures of a benchmark_serving.py run, no per-request data",
    "GPUs: tp on one node; num_prefill_gpu + num_decode_gpu when prefill and decode are disaggregated (multinode)",
    "tput_per_gpu counts input and output tokens over all GPUs; output_tput_per_gpu counts output tokens over the decode GPUs only (tp, or num_decode_gpu): tpsview's system T/s is output_tput_per_gpu × those GPUs, and its per-GPU view divides by every GPU",
    "latencies are in seconds; *_intvty (interactivity) = 1000 ÷ the matching TPOT in ms, so mean_intvty is tpsview's per-stream T/s (1 ÷ mean TPOT); median_intvty and p99_intvty are 1 ÷ a TPOT percentile, not a percentile of per-user rates",
    "spec_decoding names the speculative method (mtp, eagle…) or none; a speculative run's TPOT is per token while its chunks carry several",
];

/// Figures that are 1 ÷ another of the same file's (each in InferenceX's units): interactivity
/// is 1 ÷ the mean TPOT in seconds. The audit checks the one against the other.
pub const RECIPROCALS: &[(&str, &str)] = &[("mean_intvty", "mean_tpot")];

/// InferenceX's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "SemiAnalysis InferenceX",
    groups: &[FIGURES, &TTFT, &TPOT, &ITL, &E2E],
    notes: NOTES,
};
