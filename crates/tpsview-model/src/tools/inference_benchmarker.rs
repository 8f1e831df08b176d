//! The figure table of the tool read by `tpsview_formats::formats::inference_benchmarker`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Vocabulary};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "inference-benchmarker";

const TOKENS: &str =
    "token counts: inference-benchmarker counts tokens by client-tokenizing each chunk";
const WINDOW: &str = "duration window: end of the last response − start of the first";

const TTFT: [Figure; 4] = dotted_stats!("time_to_first_token_ms", Ttft, WINDOW);
const ITL: [Figure; 4] = dotted_stats!("inter_token_latency_ms", Tpot, TOKENS);
const E2E: [Figure; 4] = dotted_stats!("e2e_latency_ms", E2e, WINDOW);

const FIGURES: &[Figure] = &[
    Figure::same("token_throughput_secs", Metric::SystemTps, 1.0, WINDOW),
    Figure::same("request_rate", Metric::RequestThroughput, 1.0, WINDOW),
    Figure::same("duration_ms", Metric::DurationS, 1e-3, WINDOW),
    Figure::same("successful_requests", Metric::RequestsOk, 1.0, WINDOW),
    Figure::same("failed_requests", Metric::RequestsFailed, 1.0, WINDOW),
    Figure::same("total_tokens", Metric::OutputTokens, 1.0, TOKENS),
];

const NOTES: &[&str] = &[
    "inference-benchmarker's \"inter token latency\" is tpsview's TPOT: Σ chunk gaps after the first / (N − 1)",
    "N is counted by client-tokenizing each streamed chunk",
    "each step is a load level: the throughput step runs max_vus virtual users (concurrency); constant@R steps run a request rate",
    "summary only (percentiles per step): figures are shown as reported",
];

/// inference-benchmarker's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "HF inference-benchmarker",
    groups: &[FIGURES, &TTFT, &ITL, &E2E],
    notes: NOTES,
};
