//! The figure table of the tool read by `tpsview_formats::formats::vllm`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::Figure;
use crate::vocabulary::Metric;

/// Format id.
pub const ID: &str = "vllm-bench-serve";

const WINDOW: &str = "duration window: vLLM times from the benchmark's start (before the first send) to after the last response; tpsview from the first send to the last token";
const TOKENS: &str = "token counts: output lengths re-tokenized from text, or requests with fewer than 2 tokens treated differently";
const FAILED: &str = "failed requests counted differently";
const FIRST_CHUNK: &str = "first-token definition: vLLM counts the first chunk carrying `choices`, even an empty role chunk";
const POOLED: &str =
    "chunk pooling: vLLM pools every chunk gap of every request; a file's gaps may be rounded";
const LAST_CHUNK: &str =
    "end time: vLLM's latency is the last content chunk; the usage chunk may come later";

const TPOT: [Figure; 4] = underscore_stats!("tpot", Tpot, TOKENS);
/// Shared with the reader.
pub const TTFT: [Figure; 4] = underscore_stats!("ttft", Ttft, FIRST_CHUNK);
/// Shared with the reader.
pub const ITL: [Figure; 4] = underscore_stats!("itl", Itl, POOLED);
const E2E: [Figure; 4] = underscore_stats!("e2el", E2e, LAST_CHUNK);

/// vLLM's own figures → tpsview's (its distributions are in the groups below).
const FIGURES: &[Figure] = &[
    Figure::same("duration", Metric::DurationS, 1.0, WINDOW),
    Figure::same("output_throughput", Metric::SystemTps, 1.0, WINDOW),
    Figure::same("request_throughput", Metric::RequestThroughput, 1.0, WINDOW),
    Figure::same("completed", Metric::RequestsOk, 1.0, FAILED),
    Figure::same("failed", Metric::RequestsFailed, 1.0, FAILED),
    Figure::same("total_output_tokens", Metric::OutputTokens, 1.0, FAILED),
    Figure::tool(
        "total_token_throughput",
        Metric::SystemTps,
        1.0,
        WINDOW,
        super::ToolDef::TotalTokenThroughput,
    ),
];

const NOTES: &[&str] = &[
    "ITL is every chunk gap of every request pooled, so long requests weigh more; tpsview's TPOT is per request (E2E − TTFT) / (N − 1), averaged over requests",
    "output_lens are the server's usage counts, or the generated text re-tokenized when the server sent none",
    "duration runs from the benchmark's start to the last completion, Poisson pacing included; tpsview's runs from the first send to the last token",
    "concurrency is the configured max_concurrency (null = unbounded); max_concurrent_requests is a measured peak (older versions over-count it)",
    "numpy linear percentiles, population standard deviation",
];

/// vLLM's vocabulary.
pub const VOCABULARY: super::Vocabulary = super::Vocabulary {
    tool: ID,
    name: "vLLM bench serve",
    groups: &[FIGURES, &TPOT, &TTFT, &ITL, &E2E],
    notes: NOTES,
};
