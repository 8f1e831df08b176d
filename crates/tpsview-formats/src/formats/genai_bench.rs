//! sgl-project/genai-bench's results: one JSON per traffic scenario and level
//! (`<scenario>_<task>_num_concurrency_<C>_time_<T>s.json`) with `aggregated_metrics` (the run's
//! figures: `run_duration` s, throughputs, request counts, error codes, and `stats.<metric>`
//! `{min, max, mean, stddev, sum, p25 … p99}`) and `individual_request_metrics` (every request:
//! `ttft`, `tpot`, `e2e_latency`, `output_latency`, token counts, `error_code`, no send time),
//! and `experiment_metadata.json` beside them (the model, the GPU, the engine, the scenarios and
//! levels). Latencies are seconds, or ms where the file says `_time_unit: "ms"`. Layout and
//! definitions: genai-bench 0.0.5 (7fd04d8c) `metrics/aggregated_metrics_collector.py` and
//! `metrics/request_metrics_collector.py`; tests/wild/genai-bench holds real files.

pub use crate::tools::genai_bench::{ID, VOCABULARY};

use serde_json::Value;

use super::common::{self, at, num, text, Row, Rows};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, RunName};
use crate::requests::RowFacts;

/// genai-bench's per-run results and its `experiment_metadata.json`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::GenaiBench,
    detect: |has, _| {
        (has("\"aggregated_metrics\"") && has("\"individual_request_metrics\""))
            || (has("\"benchmark_version\"") && has("\"traffic_scenario\""))
    },
    keys: &[
        "aggregated_metrics",
        "individual_request_metrics",
        "run_duration",
        "num_concurrency",
        "traffic_scenario",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// The statistics and per-request fields `--metrics-time-unit ms` writes in milliseconds
/// (genai-bench `time_units.py` `LATENCY_FIELDS`).
const LATENCY_FIELDS: [&str; 4] = ["ttft", "tpot", "e2e_latency", "output_latency"];

/// Parses a run's results (one point; its requests) or an `experiment_metadata.json` (metadata
/// for the runs beside it).
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    let doc = &values[0];
    if at(doc, "aggregated_metrics").is_none() && at(doc, "traffic_scenario").is_some() {
        return Ok((metadata(doc), diags));
    }
    let Some(agg) = at(doc, "aggregated_metrics").filter(|v| v.is_object()) else {
        return Err(common::no_data(file, "no `aggregated_metrics` object"));
    };
    let scale = match text(doc, "_time_unit").as_deref() {
        None | Some("s") => 1.0,
        Some("ms") => 1e-3,
        Some(other) => {
            return Err(common::no_data(
                file,
                &format!("`_time_unit` is {other:?}: genai-bench writes \"s\" or \"ms\""),
            ))
        }
    };
    // The run's figures (the per-request list is an array: flattening passes it by).
    let mut figures = common::flatten_numbers(doc, 4);
    figures.retain(|k, _| k.starts_with("aggregated_metrics."));
    // The tool's figures in seconds (the vocabulary's unit), whichever unit the file chose.
    if scale != 1.0 {
        for (k, v) in figures.iter_mut() {
            let field = k
                .strip_prefix("aggregated_metrics.stats.")
                .and_then(|r| r.split('.').next());
            if field.is_some_and(|f| LATENCY_FIELDS.contains(&f)) {
                *v *= scale;
            }
        }
    }
    // `error_rate` is written before the request count is known (always 0): not the tool's word.
    figures.remove("aggregated_metrics.error_rate");
    let by_batch = text(agg, "iteration_type").as_deref() == Some("batch_size");
    let field = if by_batch {
        "aggregated_metrics.batch_size"
    } else {
        "aggregated_metrics.num_concurrency"
    };
    let concurrency = common::level(file, field, num(doc, field), &mut diags);
    let Some(list) = at(doc, "individual_request_metrics").and_then(Value::as_array) else {
        return Err(common::no_data(
            file,
            "no `individual_request_metrics` list",
        ));
    };
    let mut rows = Rows::default();
    for (i, r) in list.iter().enumerate() {
        rows.push(row(file, i, r, scale, &mut diags));
    }
    let requests = rows.finish(file, "individual_request_metrics", &mut diags);
    kept(file, agg, requests.len(), &mut diags);
    let mut point = common::requests_point(file, ID, requests);
    point.concurrency = concurrency;
    point.reported.figures = figures;
    let scenario = text(agg, "scenario").unwrap_or_default();
    let label = if scenario.is_empty() {
        ID.to_owned()
    } else {
        format!("{ID} · {scenario}")
    };
    Ok((
        common::one_run(RunName::from(label), ID, Metadata::default(), vec![point]),
        diags,
    ))
}

/// One request: its times in seconds, its counts, its error.
fn row(file: &str, i: usize, r: &Value, scale: f64, diags: &mut Vec<Diagnostic>) -> Row {
    let error = match at(r, "error_code") {
        None | Some(Value::Null) => None,
        Some(code) => Some(format!(
            "error {code}: {}",
            text(r, "error_message").unwrap_or_default()
        )),
    };
    if let Some(e) = error {
        return Row::failed(e);
    }
    let (Some(ttft), Some(e2e), Some(out)) = (
        num(r, "ttft"),
        num(r, "e2e_latency"),
        num(r, "num_output_tokens"),
    ) else {
        let missing = ["ttft", "e2e_latency", "num_output_tokens"]
            .into_iter()
            .find(|k| num(r, k).is_none())
            .unwrap_or("ttft");
        diags.push(Diagnostic::warning(
            file,
            &format!("individual_request_metrics.{missing}"),
            Some(i),
            "missing or not a number: the request is left out",
        ));
        return Row::invalid("individual_request_metrics");
    };
    Row {
        ttft_s: ttft * scale,
        e2e_s: e2e * scale,
        input_tokens: num(r, "num_input_tokens"),
        output_tokens: out,
        facts: RowFacts {
            reasoning_tokens: num(r, "num_reasoning_tokens"),
            ..RowFacts::default()
        },
        ..Row::default()
    }
}

/// Says how many requests genai-bench's statistics cover where fewer than the file lists (its
/// warm-up and cool-down, or, before 2025-12, requests it found too fast): `sum / mean` of the
/// output-token counts.
fn kept(file: &str, agg: &Value, listed: usize, diags: &mut Vec<Diagnostic>) {
    let (Some(sum), Some(mean)) = (
        num(agg, "stats.num_output_tokens.sum"),
        num(agg, "stats.num_output_tokens.mean"),
    ) else {
        return;
    };
    if mean <= 0.0 {
        return;
    }
    let n = (sum / mean).round();
    let errors = num(agg, "num_error_requests").unwrap_or(0.0);
    if n + errors < listed as f64 {
        diags.push(Diagnostic::info(
            file,
            "aggregated_metrics.stats",
            format!(
                "genai-bench's statistics cover {n} of the {listed} requests listed (warm-up and cool-down left out, or, before 2025-12, requests over 1,000 tokens/s): tpsview's figures are over every completed request, so the two differ"
            ),
        ));
    }
}

/// The run metadata of an `experiment_metadata.json`.
fn metadata(doc: &Value) -> Report {
    let count = num(doc, "server_gpu_count")
        .filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n < 1e6)
        .map(|n| n as u32);
    let mut meta = Metadata {
        model: common::first_text(doc, &["api_model_name", "model"]),
        engine: text(doc, "server_engine"),
        engine_version: text(doc, "server_version"),
        gpu: text(doc, "server_gpu_type"),
        gpu_count: count,
        ..Metadata::default()
    };
    for k in ["task", "api_backend", "benchmark_version"] {
        if let Some(t) = text(doc, k) {
            meta.labels.insert(k.to_owned(), t);
        }
    }
    Report {
        meta,
        runs: Vec::new(),
    }
}
