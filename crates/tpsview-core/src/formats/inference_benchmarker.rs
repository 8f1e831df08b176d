//! Hugging Face `inference-benchmarker` results (`results/<tokenizer>_<timestamp>.json`): one
//! summary per step (warm-up, throughput, constant rates), percentiles only, no per-request data.

use super::{Format, FormatSpec};
use serde_json::Value;

use super::common::{self, at, num, read_values, summary_point};
use super::{Figure, Vocabulary};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "inference-benchmarker";

/// Hugging Face `inference-benchmarker` results.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::InferenceBenchmarker,
    id: ID,
    name: "HF inference-benchmarker results",
    detect: |has, _| has("\"token_throughput_secs\""),
    keys: &[
        "token_throughput_secs",
        "executor_type",
        "successful_requests",
        "time_to_first_token_ms",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
};

const TOKENS: &str =
    "token counts: inference-benchmarker counts tokens by client-tokenizing each chunk";
const WINDOW: &str = "duration window: end of the last response − start of the first";

const TTFT: [Figure; 4] = dotted_stats!("time_to_first_token_ms", Ttft, WINDOW);
const ITL: [Figure; 4] = dotted_stats!("inter_token_latency_ms", Tpot, TOKENS);
const E2E: [Figure; 4] = dotted_stats!("e2e_latency_ms", E2e, WINDOW);

const FIGURES: &[Figure] = &[
    Figure::same("token_throughput_secs", Metric::SystemTps, 1.0, WINDOW),
    Figure::same("request_rate", Metric::RequestThroughput, 1.0, WINDOW),
    Figure::same("duration_ms", Metric::DurationS, 1e-3, WINDOW),
    Figure::same("successful_requests", Metric::RequestsOk, 1.0, WINDOW),
    Figure::same("failed_requests", Metric::RequestsFailed, 1.0, WINDOW),
    Figure::same("total_tokens", Metric::OutputTokens, 1.0, TOKENS),
];

const NOTES: &[&str] = &[
    "inference-benchmarker's \"inter token latency\" is tpsview's TPOT: Σ chunk gaps after the first / (N − 1)",
    "N is counted by client-tokenizing each streamed chunk",
    "each step is a load level: the throughput step runs max_vus virtual users (concurrency); constant@R steps run a request rate",
    "summary only (percentiles per step): figures are shown as reported",
];

/// inference-benchmarker's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "HF inference-benchmarker",
    groups: &[FIGURES, &TTFT, &ITL, &E2E],
    notes: NOTES,
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
