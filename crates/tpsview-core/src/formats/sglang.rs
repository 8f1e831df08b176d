//! SGLang `bench_serving` (JSON lines, one object per run, bare `Infinity`; per-request arrays with
//! `--output-details`, no send times) and `bench_one_batch` (JSON lines, one static batch per line).
//! `bench_serving` objects carry vLLM's per-request arrays under the same names, so they are read
//! by the vLLM reader with SGLang's figure table.

use super::common::{self, num, read_values, records, summary_point};
use super::{Figure, ToolDef, Vocabulary};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id of `bench_serving` files.
pub const ID: &str = "sglang-bench-serving";
/// Format id of `bench_one_batch` files.
pub const ONE_BATCH_ID: &str = "sglang-bench-one-batch";

/// SGLang `bench_one_batch` JSONL.
pub const ONE_BATCH_SPEC: FormatSpec = FormatSpec {
    format: Format::SglangOneBatch,
    id: ONE_BATCH_ID,
    name: "SGLang bench_one_batch JSONL",
    detect: |has, _| {
        (has("\"prefill_latency\"") && has("\"median_decode_latency\""))
            || (has("\"batch_size\"")
                && ((has("\"prefill_latency\"") && has("\"prefill_throughput\""))
                    || (has("\"run_name\"") && has("\"last_gen_throughput\""))))
    },
    keys: &[
        "prefill_latency",
        "median_decode_latency",
        "run_name",
        "batch_size",
        "overall_throughput",
    ],
    parse: |f, b, _| parse_one_batch(f, b),
    summary_partners: &[],
};

/// SGLang `bench_serving` JSONL.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::SglangServe,
    id: ID,
    name: "SGLang bench_serving JSONL",
    detect: |has, _| {
        has("\"total_output_tokens_retokenized\"")
            || (has("\"mean_e2e_latency_ms\"") && has("\"concurrency\""))
    },
    keys: &[
        "total_output_tokens_retokenized",
        "mean_e2e_latency_ms",
        "concurrency",
        "accept_length",
        "median_itl_ms",
    ],
    parse: parse_with_progress,
    summary_partners: &[],
};

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

/// Parses a `bench_serving` file.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    parse_with_progress(file, bytes, &mut crate::progress::Silent)
}

/// [`parse`], reporting progress.
pub(crate) fn parse_with_progress(
    file: &str,
    bytes: &[u8],
    progress: &mut dyn crate::progress::Progress,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    super::vllm::parse_with(file, bytes, true, FLAVOR, progress)
}

/// `bench_serving` objects are vLLM's, labelled SGLang's.
pub(crate) const FLAVOR: super::vllm::Flavor = super::vllm::Flavor {
    id: ID,
    default_label: "SGLang run",
};

/// Parses a `bench_one_batch` file: each line one (batch size, input, output) configuration.
/// `bench_one_batch_server` lines (`latency`, `output_throughput`, `last_gen_throughput`) and
/// prefill-only ones (`--output-len 1`: no decode figures) are read the same way. Lines of several
/// run names (one per variant, as people sweep quantizations) are one run per name.
pub fn parse_one_batch(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let rows = records(read_values(file, bytes, &mut diags)?);
    let mut runs: Vec<(Option<String>, Vec<crate::model::Point>)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let field = format!("[{i}].batch_size");
        let Some(bs) = common::level(file, &field, num(row, "batch_size"), &mut diags) else {
            diags.push(Diagnostic::warning(
                file,
                &field,
                Some(i),
                "no batch size: row skipped",
            ));
            continue;
        };
        let name = common::text(row, "run_name");
        let mut figures = common::flatten_numbers(row, 1);
        figures.remove("batch_size");
        let point = summary_point(
            &format!("{file}#{}", i + 1),
            ONE_BATCH_ID,
            Some(bs),
            None,
            figures,
        );
        match runs.iter_mut().find(|(n, _)| *n == name) {
            Some((_, points)) => points.push(point),
            None => runs.push((name, vec![point])),
        }
    }
    if runs.is_empty() {
        return Err(common::no_data(file, "no row with a batch_size"));
    }
    // The file names no model: its run name (SGLang's `run_name`, "default" unless given) is
    // shown with the tool's.
    let runs = runs
        .into_iter()
        .map(|(name, points)| {
            let label = match name {
                Some(n) => format!("SGLang bench_one_batch · {n}"),
                None => "SGLang bench_one_batch".to_owned(),
            };
            crate::model::Run {
                label,
                source_format: ONE_BATCH_ID.into(),
                meta: Metadata {
                    engine: Some("sglang".into()),
                    ..Metadata::default()
                },
                points,
                axis: None,
            }
        })
        .collect();
    Ok((
        Report {
            meta: Metadata::default(),
            runs,
        },
        diags,
    ))
}
