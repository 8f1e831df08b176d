//! The figure table of the tool read by `tpsview_formats::formats::sglang`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id of `bench_serving` files.
pub const ID: &str = "sglang-bench-serving";
/// Format id of `bench_one_batch` files.
pub const ONE_BATCH_ID: &str = "sglang-bench-one-batch";

const WINDOW: &str = "duration window: SGLang times from the benchmark's start to the last response; tpsview from the first send to the last token (without send times tpsview uses SGLang's duration)";
const LAST_LINE: &str = "end time: SGLang's latency is taken at the last line received, the final usage/[DONE] line included; tpsview's at the last content chunk";
const TOKENS: &str =
    "token counts: SGLang uses the server's usage count, else the requested output length";
const FIRST: &str = "first-token definition: SGLang counts the first chunk with non-empty text";
const POOLED: &str = "chunk pooling: SGLang pools every chunk gap (or splits gaps per re-tokenized token with speculative decoding)";

const TPOT: [Figure; 4] = underscore_stats!("tpot", Tpot, LAST_LINE);
const TTFT: [Figure; 4] = underscore_stats!("ttft", Ttft, FIRST);
const ITL: [Figure; 4] = underscore_stats!("itl", Itl, POOLED);
const E2E: [Figure; 4] = underscore_stats!("e2e_latency", E2e, LAST_LINE);

const FIGURES: &[Figure] = &[
    Figure::same("duration", Metric::DurationS, 1.0, WINDOW),
    Figure::same("output_throughput", Metric::SystemTps, 1.0, WINDOW),
    Figure::same("request_throughput", Metric::RequestThroughput, 1.0, WINDOW),
    Figure::tool(
        "total_throughput",
        Metric::SystemTps,
        1.0,
        WINDOW,
        ToolDef::TotalTokenThroughput,
    ),
    Figure::same("completed", Metric::RequestsOk, 1.0, TOKENS),
    Figure::same("total_output_tokens", Metric::OutputTokens, 1.0, TOKENS),
    Figure::same("concurrency", Metric::ConcurrencyAchieved, 1.0, LAST_LINE),
];

const NOTES: &[&str] = &[
    "ITL pools every chunk gap of every request (like vLLM); TPOT = (latency − TTFT) / (output_len − 1) per request, averaged",
    "latency is taken at the last line received, the final usage/[DONE] line included, slightly after the last token",
    "output_len is the server's usage count, else the requested output length (not the actual one); *_retokenized figures re-count the text",
    "`concurrency` is the measured average in flight (Σ latency / duration); max_concurrency is the configured cap",
    "no send times in the file: tpsview takes the duration (and so system T/s) from SGLang",
    "request_rate may be the bare literal Infinity (not valid JSON); tpsview reads it as ∞",
];

const ONE_BATCH_FIGURES: &[Figure] = &[
    Figure::same(
        "median_decode_latency",
        Metric::Latency(Latency::Tpot, Stat::P50),
        1e3,
        "static batch: the median decode step of the whole batch, every stream advancing one token",
    ),
    Figure::same(
        "median_decode_throughput",
        Metric::SystemTps,
        1.0,
        "decode phase only: batch size / step latency, prefill excluded",
    ),
    Figure::same(
        "prefill_latency",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1e3,
        "static batch: one prefill of the whole batch, no queueing or network",
    ),
    Figure::same(
        "total_latency",
        Metric::Latency(Latency::E2e, Stat::Mean),
        1e3,
        "static batch: prefill plus every decode step",
    ),
];

const ONE_BATCH_NOTES: &[&str] = &[
    "a static batch on the engine, no server: batch_size sequences of identical length advance together",
    "median_decode_throughput = batch_size / median step latency (decode only); overall_throughput = bs·(in+out)/total_latency counts prompt tokens",
    "per-stream T/s = 1 / median_decode_latency: each sequence gets one token per step",
];

/// SGLang bench_serving's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "SGLang bench_serving",
    groups: &[FIGURES, &TPOT, &TTFT, &ITL, &E2E],
    notes: NOTES,
};

/// SGLang bench_one_batch's vocabulary.
pub const ONE_BATCH_VOCABULARY: Vocabulary = Vocabulary {
    tool: ONE_BATCH_ID,
    name: "SGLang bench_one_batch",
    groups: &[ONE_BATCH_FIGURES],
    notes: ONE_BATCH_NOTES,
};
