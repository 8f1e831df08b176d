//! The figure table of the tool read by `tpsview_formats::formats::inference_perf`
//! (kubernetes-sigs/inference-perf's own `*_lifecycle_metrics.json`): its own figure names mapped
//! to tpsview's metrics, each with its definition and the likely cause of a difference.
//! Definitions read in inference-perf's `reportgen/base.py` (`summarize_requests`, v0.4.0
//! e3e690ba lines 115–198; the same formulas at 3b6f82a lines 122–190).

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "inference-perf";

/// One of its latency blocks' statistics.
macro_rules! stats {
    ($m:literal, $c:ident, $cause:expr) => {
        nested_stats!(
            "successes.latency.",
            $m,
            ["mean", "median", "p90", "p99"],
            $c,
            1e3,
            $cause
        )
    };
}

const CLOCK: &str = "inference-perf times each request on the client (perf_counter), start before the POST, end after the whole body";
const WINDOW: &str = "inference-perf divides by its total time: the last end − the first start of every request in scope, failed ones included (tpsview: of the completed ones); a summary spans every stage, idle time between stages included";
const EVENTS: &str = "inference-perf's TPOT divides by the number of streamed events − 1 (its `[DONE]` event counted), not by output tokens − 1 (its main branch after 2026-04 divides by tokens)";
const POOLED: &str =
    "inference-perf pools every gap of every request into one distribution (not per request first)";

const TTFT: [Figure; 4] = stats!("time_to_first_token", Ttft, CLOCK);
const TPOT: [Figure; 4] = stats!("time_per_output_token", Tpot, EVENTS);
const ITL: [Figure; 4] = stats!("inter_token_latency", Itl, POOLED);
const E2E: [Figure; 4] = stats!("request_latency", E2e, CLOCK);

const FIGURES: &[Figure] = &[
    Figure::same(
        "successes.throughput.output_tokens_per_sec",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same(
        "successes.throughput.requests_per_sec",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "successes.throughput.total_tokens_per_sec",
        Metric::SystemTps,
        1.0,
        "counts prompt tokens as throughput",
        ToolDef::TotalTokenThroughput,
    ),
    Figure::same("successes.count", Metric::RequestsOk, 1.0, CLOCK),
    Figure::same("failures.count", Metric::RequestsFailed, 1.0, CLOCK),
];

const NOTES: &[&str] = &[
    "one point per file: a stage file (`stage_N_lifecycle_metrics.json`) is one load level — its concurrency where the stage ran a `concurrent` load (`load_summary.concurrency`), else its requested rate (`load_summary.requested_rate`); the summary (`summary_lifecycle_metrics.json`) is every stage together, a run of its own",
    "the stage's achieved rate (`load_summary.achieved_rate`, every request of the stage ÷ the time between its first and last send) is what the load generator managed; where it falls short of the requested rate, tpsview says so",
    "aggregates only (no per-request data in these files): figures are shown as reported, converted from seconds",
    "token counts are the client's: the configured tokenizer re-counts the prompt and the streamed text",
    "TTFT is the first streamed event's arrival (before 2026-04 any event: a reasoning model's TTFT then counts its reasoning; later versions only content)",
    "normalized_time_per_output_token is each request's E2E ÷ output tokens (first-token wait included), averaged: not tpsview's TPOT",
    "versions of late 2025 timestamped every streamed line, the blank separators too: their ITL median is near 0 and their TPOT and ITL about half the real per-token time — tpsview detects it (ITL median under 1/20 of its mean) and leaves both out",
    "config.yaml beside the reports names the model and the server type: tpsview reads it as their runs' metadata",
];

/// inference-perf's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "inference-perf",
    groups: &[FIGURES, &TTFT, &TPOT, &ITL, &E2E],
    notes: NOTES,
};
