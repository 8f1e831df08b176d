//! SGLang `bench_serving` (JSON lines, one object per run, bare `Infinity`; per-request arrays with
//! `--output-details`, no send times) and `bench_one_batch` (JSON lines, one static batch per line).
//! `bench_serving` objects carry vLLM's per-request arrays under the same names, so they are read
//! by the vLLM reader with SGLang's figure table.

use super::common::{self, num, read_values, records, summary_point};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};
pub use crate::tools::sglang::{ID, ONE_BATCH_ID, ONE_BATCH_VOCABULARY, VOCABULARY};

/// SGLang `bench_one_batch` JSONL.
pub const ONE_BATCH_SPEC: FormatSpec = FormatSpec {
    format: Format::SglangOneBatch,
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
    stream: None,
};

/// SGLang `bench_serving` JSONL.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::SglangServe,
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
    stream: Some(|_, size| Box::new(super::vllm::ScanStream::new(FLAVOR, size))),
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
                label: label.into(),
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
