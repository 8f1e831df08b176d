//! ModelScope evalscope `perf` results: per run folder (a sweep writes one per
//! `parallel_<P>_number_<N>/`) `benchmark_summary.json` (one flat object of named figures:
//! `Number of concurrency`, `Output token throughput (tok/s)`, `Average time to first token (s)` …;
//! from v1.7 `Concurrency`, `Output Throughput (tok/s)`, `TTFT (ms)` …), `benchmark_args.json` (the
//! run's arguments: the model, `parallel`, `number`, `rate`), `benchmark_percentile.json` (a table
//! of percentiles) and `benchmark_data.db` (SQLite, per request). Layout: evalscope
//! `perf/utils/benchmark_util.py` and `db_util.py` (v1.1.1 87b50a97; v1.7.0 13e7fc29); real files
//! in tests/wild/evalscope.

pub use crate::tools::evalscope::{ID, VOCABULARY};

use serde_json::Value;

use super::common::{self, num, text};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, RunName};

/// evalscope perf's summary, arguments and percentile files.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Evalscope,
    detect: |has, _| {
        has("\"Output token throughput (tok/s)\"")
            || (has("\"Output Throughput (tok/s)\"") && has("\"Test Duration (s)\""))
            || (has("\"Percentiles\"") && (has("\"TTFT (s)\"") || has("\"TTFT (ms)\"")))
            || (has("\"log_every_n_query\"") && has("\"parallel\"") && has("\"number\""))
    },
    keys: &[
        "Number of concurrency",
        "Output token throughput (tok/s)",
        "Average time to first token (s)",
        "Time taken for tests (s)",
        "Succeed requests",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Parses a summary (one point), or an arguments or percentile file (metadata for the summary
/// beside it).
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    let doc = &values[0];
    if doc.is_array() {
        // The percentile table: its figures are not read yet; the summary's means are.
        diags.push(Diagnostic::info(
            file,
            "Percentiles",
            "evalscope's percentile table (nearest rank) is not read yet: the summary beside it gives the means",
        ));
        return Ok((
            Report {
                meta: Metadata::default(),
                runs: Vec::new(),
            },
            diags,
        ));
    }
    if !doc.is_object() {
        return Err(common::no_data(file, "not a JSON object"));
    }
    if doc.get("log_every_n_query").is_some() {
        return Ok((args(doc), diags));
    }
    let figures = common::flatten_numbers(doc, 1);
    if figures.is_empty() {
        return Err(common::no_data(file, "no figures"));
    }
    let (field, level) = ["Number of concurrency", "Concurrency"]
        .into_iter()
        .find_map(|k| num(doc, k).map(|v| (k, v)))
        .unwrap_or(("Number of concurrency", f64::NAN));
    let concurrency = common::level(file, field, level.is_finite().then_some(level), &mut diags);
    // v1.7+: a request rate (−1 or inf: unlimited).
    let rate = num(doc, "Request Rate (req/s)").filter(|r| r.is_finite() && *r > 0.0);
    let point = common::summary_point(
        file,
        ID,
        concurrency,
        rate.filter(|_| concurrency.is_none()),
        figures,
    );
    Ok((
        common::one_run(
            RunName::from(ID.to_owned()),
            ID,
            Metadata::default(),
            vec![point],
        ),
        diags,
    ))
}

/// The run metadata of `benchmark_args.json`: the model (its id, else its name or path's last
/// part) and the dataset.
fn args(doc: &Value) -> Report {
    let model = common::first_text(doc, &["model_id", "model"]).map(|m| {
        m.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(&m)
            .to_owned()
    });
    let mut meta = Metadata {
        model,
        ..Metadata::default()
    };
    for k in ["dataset", "api"] {
        if let Some(t) = text(doc, k) {
            meta.labels.insert(k.to_owned(), t);
        }
    }
    Report {
        meta,
        runs: Vec::new(),
    }
}
