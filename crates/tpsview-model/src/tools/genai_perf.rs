//! The figure table of the tool read by `tpsview_formats::formats::genai_perf`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::Metric;
/// Format id of `profile_export_genai_perf.json`; also the reported-tool id of both summaries.
pub const SUMMARY_ID: &str = "genai-perf";

const TOKENS: &str = "token counts: GenAI-Perf re-tokenizes the output text with --tokenizer; tpsview uses the server's usage count, else one token per content chunk";
const FIRST: &str = "first-token definition: GenAI-Perf drops role-only and empty responses, as tpsview does; a difference means a response tpsview read as content";
const LAST: &str = "end time: the last content response";
const WINDOW: &str = "duration window: last response − first request, as tpsview; failed requests may widen one of them";

const TTFT: [Figure; 4] = dotted_stats!("time_to_first_token", Ttft, FIRST);
const ITL: [Figure; 4] = dotted_stats!("inter_token_latency", Tpot, TOKENS);
const E2E: [Figure; 4] = dotted_stats!("request_latency", E2e, LAST);

const FIGURES: &[Figure] = &[
    Figure::same(
        "output_token_throughput.avg",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "request_throughput.avg",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
        ToolDef::AllRequestsThroughput,
    ),
    Figure::tool(
        "output_token_throughput_per_user.avg",
        Metric::PerStreamTps,
        1.0,
        TOKENS,
        ToolDef::DecodeRateMean,
    ),
];

const NOTES: &[&str] = &[
    "GenAI-Perf's \"inter token latency\" is tpsview's TPOT: (request latency − TTFT) / (OSL − 1) per request (releases of 2024 averaged per-chunk gaps instead)",
    "OSL and ISL are the client re-tokenizing the text with --tokenizer, which may not be the model's tokenizer",
    "output_token_throughput_per_user = mean over requests of 1 / ITL, not tpsview's 1 / mean TPOT",
    "duration = last response − first request; request_throughput counts every request, failed included",
    "the export's timestamps are integer ns since the epoch, one per streamed response (a chunk, not a token)",
    "numpy linear percentiles, population standard deviation",
];

/// GenAI-Perf's vocabulary (both summaries share it).
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: SUMMARY_ID,
    name: "GenAI-Perf",
    groups: &[FIGURES, &TTFT, &ITL, &E2E],
    notes: NOTES,
};
