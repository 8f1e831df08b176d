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

/// Reported-tool id of InferenceX's agentic results (`bmk_agentic_*`, `scenario_type`
/// `agentic-coding`): their own names, two layouts.
pub const AGENTIC_ID: &str = "inferencex-agentic";

const AGENTIC_S: &str =
    "InferenceX's agentic latencies are seconds (the client's times, or AIPerf's ms ÷ 1000)";
const AGENTIC_ITL: &str =
    "InferenceX's agentic ITL is (E2E − TTFT) ÷ (output tokens − 1) per request: tpsview's TPOT";
const AGENTIC_WINDOW: &str =
    "InferenceX divides by the last end − the first start of the profiled requests";

/// The legacy flat layout (`{mean,median,p90,p99}_{ttft,ttlt,itl}`).
const AGENTIC_FLAT: [[Figure; 4]; 3] = [
    crate::vocabulary::latency_figures(
        ["mean_ttft", "median_ttft", "p90_ttft", "p99_ttft"],
        Latency::Ttft,
        1e3,
        AGENTIC_S,
    ),
    crate::vocabulary::latency_figures(
        ["mean_ttlt", "median_ttlt", "p90_ttlt", "p99_ttlt"],
        Latency::E2e,
        1e3,
        AGENTIC_S,
    ),
    crate::vocabulary::latency_figures(
        ["mean_itl", "median_itl", "p90_itl", "p99_itl"],
        Latency::Tpot,
        1e3,
        AGENTIC_ITL,
    ),
];

/// The nested layout (`request_metrics.latency.<name>.{mean,p50,p90}`; it writes no p99).
const AGENTIC_NESTED: [[Figure; 4]; 3] = [
    nested_stats!(
        "request_metrics.latency.",
        "ttft",
        ["mean", "p50", "p90", "p99"],
        Ttft,
        1e3,
        AGENTIC_S
    ),
    nested_stats!(
        "request_metrics.latency.",
        "e2el",
        ["mean", "p50", "p90", "p99"],
        E2e,
        1e3,
        AGENTIC_S
    ),
    nested_stats!(
        "request_metrics.latency.",
        "itl",
        ["mean", "p50", "p90", "p99"],
        Tpot,
        1e3,
        AGENTIC_ITL
    ),
];

const AGENTIC_FIGURES: &[Figure] = &[
    Figure::same("output_tput_tps", Metric::SystemTps, 1.0, AGENTIC_WINDOW),
    Figure::same("duration_seconds", Metric::DurationS, 1.0, AGENTIC_WINDOW),
    Figure::same(
        "request_metrics.throughput.output.tokens_per_second",
        Metric::SystemTps,
        1.0,
        AGENTIC_WINDOW,
    ),
    Figure::same(
        "request_metrics.throughput.duration_seconds",
        Metric::DurationS,
        1.0,
        AGENTIC_WINDOW,
    ),
    Figure::same(
        "num_requests_successful",
        Metric::RequestsOk,
        1.0,
        AGENTIC_WINDOW,
    ),
    Figure::same(
        "request_metrics.latency.intvty.mean",
        Metric::PerStreamTps,
        1.0,
        "InferenceX's agentic interactivity mean is 1 ÷ the mean ITL (its ITL is tpsview's TPOT), rounded to 5 decimals",
    ),
];

const AGENTIC_NOTES: &[&str] = &[
    "one point per result (`bmk_agentic_*/<name>.json`), as reported: the level is `conc` (the nested layout: AIPerf's concurrent trajectory lanes) or `users` (the legacy flat layout: simulated users replaying a trace)",
    "system T/s is its output tokens/s over the whole run (`output_tput_tps`, or `request_metrics.throughput.output.tokens_per_second`); its per-GPU figures divide by tp (× pcp_size)",
    "its ITL is each request's (E2E − TTFT) ÷ (output tokens − 1): tpsview's TPOT (the nested layout's `tpot` is a copy of it); its interactivity `intvty.pX` is 1 ÷ `itl.pX` (the slow tail), and the mean is 1 ÷ the mean ITL",
    "prefix-cache hit rates (the server's from vLLM's counters, and the client's theoretical ones) are kept under their names; the files of 2026-08 and later add `e2e_norm_intvty` (1 ÷ p90 of E2E ÷ output tokens), none of the files read so far",
    "runs are told apart by their KV offload (`offload_mode`, or `kv_offloading` and its backend)",
];

/// InferenceX agentic results' vocabulary.
pub const AGENTIC_VOCABULARY: Vocabulary = Vocabulary {
    tool: AGENTIC_ID,
    name: "SemiAnalysis InferenceX agentic",
    groups: &[
        AGENTIC_FIGURES,
        &AGENTIC_FLAT[0],
        &AGENTIC_FLAT[1],
        &AGENTIC_FLAT[2],
        &AGENTIC_NESTED[0],
        &AGENTIC_NESTED[1],
        &AGENTIC_NESTED[2],
    ],
    notes: AGENTIC_NOTES,
};
