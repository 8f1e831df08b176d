//! The figure table of the tool read by `tpsview_formats::formats::llmperf`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

macro_rules! q {
    ($m:literal, $c:ident) => {
        crate::vocabulary::latency_figures(
            [
                concat!("results_", $m, "_mean"),
                concat!("results_", $m, "_quantiles_p50"),
                concat!("results_", $m, "_quantiles_p90"),
                concat!("results_", $m, "_quantiles_p99"),
            ],
            Latency::$c,
            1e3,
            PANDAS,
        )
    };
}

/// Format id of summaries; also the reported-tool id.
pub const SUMMARY_ID: &str = "llmperf";

/// The mean of the responses' `inter_token_latency_s` (`SampleKind::ResponseItlS`).
pub const ITL_MEAN: &str = "results_inter_token_latency_s_mean";

const TOKENS: &str =
    "token counts: LLMPerf re-counts output with a Llama tokenizer for every model";
const ITL_CAUSE: &str = "LLMPerf's ITL is Σ of all gaps including TTFT / number of SSE events (≈ E2E / N); a difference means the summary and its own per-request values disagree";
/// Shared with the reader.
pub const PANDAS: &str = "pandas linear quantiles over the non-errored requests";

const TTFT: [Figure; 4] = q!("ttft_s", Ttft);
const E2E: [Figure; 4] = q!("end_to_end_latency_s", E2e);

const FIGURES: &[Figure] = &[
    Figure::same(
        "results_mean_output_throughput_token_per_s",
        Metric::SystemTps,
        1.0,
        TOKENS,
    ),
    Figure::same(
        "results_num_completed_requests_per_min",
        Metric::RequestThroughput,
        1.0 / 60.0,
        PANDAS,
    ),
    Figure::same(
        "results_num_completed_requests",
        Metric::RequestsOk,
        1.0,
        PANDAS,
    ),
    Figure::same("results_number_errors", Metric::RequestsFailed, 1.0, PANDAS),
    Figure::tool(
        "results_inter_token_latency_s_mean",
        Metric::Latency(Latency::Tpot, Stat::Mean),
        1e3,
        ITL_CAUSE,
        ToolDef::E2ePerChunk,
    ),
    Figure::tool(
        "results_request_output_throughput_token_per_s_mean",
        Metric::PerStreamTps,
        1.0,
        TOKENS,
        ToolDef::UserRateMean,
    ),
];

const NOTES: &[&str] = &[
    "LLMPerf's \"inter token latency\" includes the time to first token: Σ of every gap / number of SSE events ≈ E2E / N, not TPOT; tpsview's TPOT is (E2E − TTFT) / (N − 1)",
    "request_output_throughput = N / E2E per request, first-token wait included",
    "output tokens are re-counted with a Llama tokenizer whatever the model",
    "num_concurrent_requests is the configured concurrency; system throughput = Σ N of non-errored requests / test wall time",
    "pandas linear quantiles, sample standard deviation; the responses file has no timestamps, so no timeline and no duration",
];

/// LLMPerf's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: SUMMARY_ID,
    name: "LLMPerf",
    groups: &[FIGURES, &TTFT, &E2E],
    notes: NOTES,
};
