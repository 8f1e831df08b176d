//! The figure table of llama-benchy (eugr/llama-benchy: llama-bench's tests against an
//! OpenAI-compatible server, with concurrency), read by `tpsview_formats::formats::llama_benchy`
//! from its Markdown table. Definitions from its `results.py` (`_process_batch`,
//! `_generate_md_report`, v0.3.x–0.4.0): each cell is the mean ± the population standard
//! deviation over its runs (or, at concurrency above 1 for the per-request columns, over every
//! request of every run).

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id; also the reported-tool id.
pub const ID: &str = "llama-benchy";

const DECODE: &str = "llama-benchy's generation rate is each request's decode tokens over its time from the first to the last token, averaged over requests (at concurrency above 1 its `t/s (total)` is the batch's decode tokens over the span from the first request's first token to the last one's last token), without the wait for the first token";
const PREFILL: &str = "llama-benchy's prompt rate divides the prompt tokens — the context depth included — by est_ppt (the time to the first response less the latency it measured once per run): a prefill rate, not a decode one";
const TTFR: &str = "ttfr is the time from sending to the first streamed chunk with choices (network included), as vLLM's TTFT; e2e_ttft waits for the first chunk with content or reasoning";

const FIGURES: &[Figure] = &[
    Figure::tool(
        "tg_ts_req",
        Metric::PerStreamTps,
        1.0,
        DECODE,
        ToolDef::DecodeRateMean,
    ),
    Figure::same("tg_ts_total", Metric::SystemTps, 1.0, DECODE),
    Figure::tool(
        "pp_ts_total",
        Metric::SystemTps,
        1.0,
        PREFILL,
        ToolDef::PrefillRate,
    ),
    Figure::same(
        "ttfr_ms",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1.0,
        TTFR,
    ),
];

const NOTES: &[&str] = &[
    "a configuration's pp row and tg row come from the same requests (a prompt of pp tokens after `depth` tokens of context, then tg generated): one level, with the pp row's prompt rate and TTFT and the tg row's generation rates",
    "at concurrency 1 (a 7-column table) `t/s` is both the per-request and the total rate",
    "`± x` is numpy's population standard deviation (ddof 0), over the runs (default 3) — or over every request of every run for `t/s (req)` and the latency columns at concurrency above 1",
    "peak t/s is the most tokens in any one-second window of the run (tg rows only); est_ppt = max(0, ttfr − the latency measured once per run)",
];

/// llama-benchy's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "llama-benchy",
    groups: &[FIGURES],
    notes: NOTES,
};
