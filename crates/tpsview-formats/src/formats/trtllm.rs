//! TensorRT-LLM `trtllm-bench`: `--report_json` (the run's statistics) and `--request_json` (one
//! record per request: `perf_counter_ns` start, first-token and end times, exact token counts; no
//! per-chunk times). The report does not record `--concurrency`; a request file and its report pair
//! into one point.

use super::{Format, FormatSpec};
pub use crate::tools::trtllm::{REPORT_ID, VOCABULARY};
use serde_json::Value;

use super::common::{self, at, first_num, map_records, num, read_values, summary_point, Row, Rows};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};
/// Format id of `--request_json` files.
pub const REQUESTS_ID: &str = "trtllm-bench-requests";

/// TensorRT-LLM `trtllm-bench --report_json`.
pub const REPORT_SPEC: FormatSpec = FormatSpec {
    format: Format::TrtllmReport,
    detect: |has, _| has("\"performance\"") && has("\"request_info\"") && has("\"world_info\""),
    keys: &[
        "performance",
        "request_info",
        "world_info",
        "streaming_metrics",
        "engine",
        "PERFORMANCE OVERVIEW",
    ],
    parse: |f, b, _| parse_report(f, b),
    summary_partners: &[],
    stream: None,
};

/// trtllm-bench's console report (`= PERFORMANCE OVERVIEW`…), pasted into a log or a page.
pub const CONSOLE_SPEC: FormatSpec = FormatSpec {
    format: Format::TrtllmConsole,
    detect: |has, _| console::detect(has),
    keys: &[
        "PERFORMANCE OVERVIEW",
        "Request Throughput (req/sec)",
        "Total Output Throughput (tokens/sec)",
        "Number of concurrent requests",
    ],
    parse: |f, b, _| console::parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// TensorRT-LLM `trtllm-bench --request_json`.
pub const REQUESTS_SPEC: FormatSpec = FormatSpec {
    format: Format::TrtllmRequests,
    detect: |has, _| has("\"first_token_timestamp\"") && has("\"start_timestamp\""),
    keys: &[
        "first_token_timestamp",
        "start_timestamp",
        "end_timestamp",
        "num_generated_tokens",
    ],
    parse: |f, b, _| parse_requests(f, b),
    summary_partners: &[Format::TrtllmReport],
    stream: None,
};

pub mod console;

/// Issue rates from this many requests per second up are trtllm-bench's "unthrottled" (its default
/// rate is ~1e17 req/s: every request is sent as soon as a slot allows), not a rate it was run at.
const UNTHROTTLED: f64 = 1e6;

/// A report's level: the concurrency its file's name states (`…concurrency8…`, as its artifact
/// directories are named), else the average concurrency the report measured (trtllm-bench does
/// not write `--concurrency`), said in a note; and its issue rate, ∞ when unthrottled.
fn level(
    file: &str,
    avg_concurrency: Option<f64>,
    issue_rate: Option<f64>,
    diags: &mut Vec<Diagnostic>,
) -> (Option<f64>, Option<f64>) {
    let named = common::concurrency_from_name(file);
    let measured = avg_concurrency.filter(|c| c.is_finite() && *c > 0.0);
    let concurrency = named.or(measured);
    match (named, measured) {
        (Some(_), _) => {}
        (None, Some(c)) => diags.push(Diagnostic::info(
            file,
            "request_info.avg_num_concurrent_requests",
            format!("trtllm-bench does not record --concurrency: the level is the average concurrency the report measured, {c:.3} (name the file …concurrency<N>… to give the one asked)"),
        )),
        (None, None) => diags.push(Diagnostic::info(
            file,
            "world_info",
            "trtllm-bench does not record --concurrency: the point has no level (name the file …concurrency<N>… to place it)",
        )),
    }
    let rate = issue_rate.filter(|r| *r > 0.0 && !r.is_nan()).map(|r| {
        if r >= UNTHROTTLED {
            f64::INFINITY
        } else {
            r
        }
    });
    (concurrency, rate)
}

/// Parses `--report_json`.
pub fn parse_report(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let mut figures = common::flatten_numbers(root, 3);
    figures.retain(|k, _| {
        k.starts_with("performance.")
            || k.starts_with("streaming_metrics.")
            || k.starts_with("request_info.")
    });
    if figures.is_empty() {
        return Err(common::no_data(file, "no `performance` figures"));
    }
    let (concurrency, rate) = level(
        file,
        figures
            .get("request_info.avg_num_concurrent_requests")
            .copied(),
        num(root, "world_info.issue_rate"),
        &mut diags,
    );
    let model = common::first_text(root, &["engine.model", "dataset.model"]);
    let meta = Metadata {
        engine: Some("TensorRT-LLM".into()),
        engine_version: common::text(root, "engine.version"),
        model: model.clone(),
        precision: common::first_text(root, &["engine.quantization", "engine.dtype"]),
        gpu: common::text(root, "machine.name"),
        tensor_parallel: num(root, "world_info.tp_size").map(|t| t as u32),
        gpu_count: num(root, "world_info.world_size").map(|t| t as u32),
        ..Metadata::default()
    };
    let point = summary_point(file, REPORT_ID, concurrency, rate, figures);
    Ok((
        common::one_run(
            common::label("TensorRT-LLM", model.as_deref()),
            REPORT_ID,
            meta,
            vec![point],
        ),
        diags,
    ))
}

/// Parses `--request_json`.
pub fn parse_requests(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let ns = |r: &Value, k: &str| at(r, k).and_then(Value::as_i64);
    // One record at a time: its send time (ns, until the first is known) and its row.
    let recs = map_records(file, bytes, &mut diags, |i, r, diags| {
        let (Some(s), Some(f), Some(e)) = (
            ns(r, "start_timestamp"),
            ns(r, "first_token_timestamp"),
            ns(r, "end_timestamp"),
        ) else {
            diags.push(Diagnostic::warning(
                file,
                &format!("[{i}]"),
                Some(i),
                "needs integer start_timestamp, first_token_timestamp and end_timestamp: left out",
            ));
            return (ns(r, "start_timestamp"), Row::invalid("timestamps"));
        };
        let sec = |x: i64| x as f64 * 1e-9;
        let row = Row {
            start_s: None,
            ttft_s: sec(f - s),
            e2e_s: sec(e - s),
            input_tokens: num(r, "num_input_tokens"),
            output_tokens: first_num(
                r,
                &[
                    "num_total_output_tokens",
                    "num_generated_tokens",
                    "output_tokens",
                ],
            )
            .unwrap_or(f64::NAN),
            gaps_s: None,
            error: None,
            invalid: None,
            facts: Default::default(),
        };
        (Some(s), row)
    })?;
    let t0 = recs.iter().filter_map(|r| r.0).min().unwrap_or(0);
    let mut rows = Rows::default();
    for (sent, mut row) in recs {
        if row.invalid.is_none() {
            row.start_s = sent.map(|s| (s - t0) as f64 * 1e-9);
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(common::no_data(file, "no request records"));
    }
    let requests = rows.finish(file, "requests", &mut diags);
    let point = common::requests_point(file, REPORT_ID, requests);
    Ok((
        common::one_run(
            "TensorRT-LLM",
            REQUESTS_ID,
            Metadata {
                engine: Some("TensorRT-LLM".into()),
                ..Metadata::default()
            },
            vec![point],
        ),
        diags,
    ))
}
