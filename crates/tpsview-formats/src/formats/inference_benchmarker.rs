//! Hugging Face `inference-benchmarker` results (`results/<tokenizer>_<timestamp>.json`): one
//! summary per step (warm-up, throughput, constant rates), percentiles only, no per-request data.

use super::{Format, FormatSpec};
pub use crate::tools::inference_benchmarker::{ID, VOCABULARY};
use serde_json::Value;

use super::common::{self, at, num, read_values, summary_point};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};

/// Hugging Face `inference-benchmarker` results.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::InferenceBenchmarker,
    detect: |has, _| has("\"token_throughput_secs\""),
    keys: &[
        "token_throughput_secs",
        "executor_type",
        "successful_requests",
        "time_to_first_token_ms",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Parses a results file: one point per non-warm-up step.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let Some(results) = at(root, "results").and_then(Value::as_array) else {
        return Err(common::no_data(file, "no `results` list"));
    };
    let max_vus = num(root, "config.max_vus");
    let mut points = Vec::new();
    for (i, r) in results.iter().enumerate() {
        let id = common::text(r, "id").unwrap_or_default();
        if id == "warmup" {
            continue;
        }
        let executor = common::text(r, "executor_type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let rate = num(r, "config.rate").filter(|x| *x > 0.0);
        let concurrency = if rate.is_none() || executor.contains("vus") || id == "throughput" {
            common::level(
                file,
                &format!("results[{i}].config.max_vus"),
                num(r, "config.max_vus").or(max_vus),
                &mut diags,
            )
        } else {
            None
        };
        let mut figures = common::flatten_numbers(r, 2);
        figures.retain(|k, _| !k.starts_with("config."));
        points.push(summary_point(
            &format!("{file}#{}", i + 1),
            ID,
            concurrency,
            if concurrency.is_some() { None } else { rate },
            figures,
        ));
    }
    if points.is_empty() {
        return Err(common::no_data(file, "no result step other than warm-up"));
    }
    let model = common::first_text(root, &["config.model_name", "config.tokenizer"]);
    Ok((
        common::one_run(
            common::label("inference-benchmarker", model.as_deref()),
            ID,
            Metadata {
                model,
                ..Metadata::default()
            },
            points,
        ),
        diags,
    ))
}
