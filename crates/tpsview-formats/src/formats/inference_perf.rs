//! kubernetes-sigs/inference-perf's own reports: `summary_lifecycle_metrics.json` (every stage
//! together) and `stage_N_lifecycle_metrics.json` (one load stage each), and the `config.yaml` it
//! writes beside them (the resolved configuration: the model and the server type). Each report is
//! `load_summary` (requests sent; a stage's `requested_rate`, `achieved_rate`, `send_duration`
//! and, for a `concurrent` load, `concurrency`), `successes` (`count`, `latency.<name>` blocks of
//! `{mean, min, max, p0.1 … median … p99.9}` in seconds, `throughput` in tokens and requests per
//! second, `prompt_len`, `output_len`) and `failures`. Aggregates only: one point per report, as
//! reported. Layout and definitions: inference-perf `reportgen/base.py` (`summarize_requests`,
//! v0.4.0 e3e690ba lines 115–198; tests/wild/inference-perf holds real reports).

pub use crate::tools::inference_perf::{ID, VOCABULARY};

use serde_json::Value;

use super::common::{self, at, num, text};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, RunName};

/// inference-perf's lifecycle reports and its `config.yaml`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::InferencePerf,
    detect: |has, _| {
        (has("\"load_summary\"") && has("\"successes\""))
            || (has("request_lifecycle:") && has("model_name:") && has("stages:"))
    },
    keys: &[
        "load_summary",
        "successes",
        "failures",
        "time_to_first_token",
        "normalized_time_per_output_token",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// The share of its mean under which a stage's ITL median says the tool timestamped every
/// streamed line, blank separators included (late-2025 versions: half the gaps are ~30 µs).
const LINE_TIMESTAMPS: f64 = 1.0 / 20.0;

/// Parses a lifecycle report (one point) or a `config.yaml` (metadata for the reports beside it).
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let doc = common::json_or_yaml(file, bytes)?;
    if at(&doc, "load_summary").is_none() && at(&doc, "report.request_lifecycle").is_some() {
        return Ok((config(&doc), diags));
    }
    let Some(successes) = at(&doc, "successes").filter(|v| v.is_object()) else {
        return Err(common::no_data(file, "no `successes` block"));
    };
    let mut figures = common::flatten_numbers(&doc, 4);
    // A stage ran a concurrent load (its rate is then the stage's request count, sent at once) or
    // a request rate; the summary (no rate of its own) is every stage together.
    let concurrency = common::level(
        file,
        "load_summary.concurrency",
        num(&doc, "load_summary.concurrency"),
        &mut diags,
    );
    let requested = num(&doc, "load_summary.requested_rate").filter(|r| *r > 0.0);
    let rate = if concurrency.is_none() {
        requested
    } else {
        None
    };
    if let (Some(want), Some(got), None) = (
        requested,
        num(&doc, "load_summary.achieved_rate"),
        concurrency,
    ) {
        if got < 0.9 * want {
            diags.push(Diagnostic::warning(
                file,
                "load_summary.achieved_rate",
                None,
                format!(
                    "the stage asked for {want} requests/s and sent {got:.4}: the load generator could not keep the rate (its workers or their concurrency bound it), so this level is not the rate it names"
                ),
            ));
        }
    }
    line_timestamps(file, &mut figures, &mut diags);
    if num(successes, "count") == Some(0.0) {
        diags.push(Diagnostic::warning(
            file,
            "successes.count",
            None,
            "no request completed: every figure of this level is undefined",
        ));
    }
    let summary = requested.is_none() && at(&doc, "load_summary.send_duration").is_none();
    let label = if summary {
        "inference-perf · all stages"
    } else {
        ID
    };
    let point = common::summary_point(file, ID, concurrency, rate, figures);
    Ok((
        common::one_run(
            RunName::from(label.to_owned()),
            ID,
            Metadata::default(),
            vec![point],
        ),
        diags,
    ))
}

/// Leaves out TPOT and ITL where the file's own ITL says they were timed per streamed line, not
/// per token (a median under [`LINE_TIMESTAMPS`] of the mean), saying so with their values.
fn line_timestamps(
    file: &str,
    figures: &mut std::collections::BTreeMap<String, f64>,
    diags: &mut Vec<Diagnostic>,
) {
    const ITL: &str = "successes.latency.inter_token_latency";
    const TPOT: &str = "successes.latency.time_per_output_token";
    let (Some(mean), Some(median)) = (
        figures.get(&format!("{ITL}.mean")).copied(),
        figures.get(&format!("{ITL}.median")).copied(),
    ) else {
        return;
    };
    if !(mean > 0.0 && median < LINE_TIMESTAMPS * mean) {
        return;
    }
    let tpot = figures.get(&format!("{TPOT}.mean")).copied();
    figures.retain(|k, _| !k.starts_with(ITL) && !k.starts_with(TPOT));
    diags.push(Diagnostic::warning(
        file,
        ITL,
        None,
        format!(
            "the ITL median ({:.3} ms) is under 1/20 of its mean ({:.3} ms): this inference-perf timestamped every streamed line, the blank separators too, so its TPOT (mean {}) and ITL are about half the time per token — left out (TPOT and per-stream T/s undefined)",
            median * 1e3,
            mean * 1e3,
            tpot.map_or_else(|| "–".to_owned(), |t| format!("{:.3} ms", t * 1e3)),
        ),
    ));
}

/// The run metadata of a `config.yaml`: the model, the server type (the engine) and the load.
fn config(doc: &Value) -> Report {
    let mut meta = Metadata {
        model: text(doc, "server.model_name")
            .or_else(|| text(doc, "tokenizer.pretrained_model_name_or_path")),
        engine: text(doc, "server.type"),
        ..Metadata::default()
    };
    if let Some(t) = text(doc, "load.type") {
        meta.labels.insert("load".to_owned(), t);
    }
    if let Some(t) = text(doc, "data.type") {
        meta.labels.insert("data".to_owned(), t);
    }
    Report {
        meta,
        runs: Vec::new(),
    }
}
