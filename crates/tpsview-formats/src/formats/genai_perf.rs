//! NVIDIA GenAI-Perf: `profile_export.json` (Perf Analyzer's raw export: per request, the send
//! time and every streamed response's arrival, integer nanoseconds since the epoch) and its
//! summaries `profile_export_genai_perf.json` / `.csv` (the CSV quotes values ≥ 1,000 with
//! thousands separators). An export and its summary pair into one point.

use super::{Format, FormatSpec};
pub use crate::tools::genai_perf::{SUMMARY_ID, VOCABULARY};

use serde_json::Value;

use super::common::{self, at, num, read_values, Row, Rows};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported};

/// Format id of `profile_export.json`.
pub const EXPORT_ID: &str = "genai-perf-export";
/// Format id of `profile_export_genai_perf.csv`.
pub const CSV_ID: &str = "genai-perf-csv";

/// GenAI-Perf `profile_export.json` (raw per-request timestamps).
pub const EXPORT_SPEC: FormatSpec = FormatSpec {
    format: Format::GenaiPerfExport,
    detect: |has, _| has("\"experiments\"") && has("\"response_timestamps\""),
    keys: &[
        "experiments",
        "response_timestamps",
        "timestamp",
        "requests",
    ],
    parse: |f, b, _| parse_export(f, b),
    summary_partners: &[Format::GenaiPerfSummary, Format::GenaiPerfCsv],
    stream: Some(|file, _| Box::new(chunked::ExportStream::new(file))),
};

/// GenAI-Perf `profile_export_genai_perf.json` (summary).
pub const SUMMARY_SPEC: FormatSpec = FormatSpec {
    format: Format::GenaiPerfSummary,
    detect: |has, _| has("\"time_to_first_token\"") && has("\"unit\"") && has("\"input_config\""),
    keys: &[
        "time_to_first_token",
        "inter_token_latency",
        "unit",
        "input_config",
        "output_token_throughput",
    ],
    parse: |f, b, _| parse_summary(f, b),
    summary_partners: &[],
    stream: None,
};

/// GenAI-Perf `profile_export_genai_perf.csv` (summary).
pub const CSV_SPEC: FormatSpec = FormatSpec {
    format: Format::GenaiPerfCsv,
    detect: |has, start| start.starts_with(b"Metric,") && has("Request Latency"),
    keys: &[
        "Metric,",
        "Request Latency",
        "Time To First Token",
        "Output Token Throughput",
    ],
    parse: |f, b, _| parse_csv(f, b),
    summary_partners: &[],
    stream: None,
};

fn meta(model: Option<String>) -> Metadata {
    Metadata {
        model,
        ..Metadata::default()
    }
}

/// One experiment of an export: its small keys, and each request already reduced to a row.
pub(super) struct Experiment {
    /// Every key but `requests` (`experiment.mode`, `experiment.value`, …).
    header: Value,
    /// `None` when the experiment has no `requests` list.
    requests: Option<Vec<ReadRequest>>,
    /// What reading its requests said, in request order.
    diags: Vec<Diagnostic>,
}

/// A request of the export as a row; its start time waits for the experiment's first send.
pub(super) struct ReadRequest {
    row: Row,
    from_usage: bool,
    sent: Option<i64>,
}

/// Reduces request `i` of experiment `path` (the tree path's JSON value) to a row, noting the
/// first request's model: read by the same typed reader as a streamed request.
fn read_request(
    file: &str,
    path: &str,
    i: usize,
    r: &Value,
    model: &mut Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> ReadRequest {
    let stream::Record::<true>(parts, inputs) = common::from_value(r).unwrap_or_default();
    if model.is_none() {
        *model = inputs.as_ref().and_then(inputs_model);
    }
    row_of(file, path, i, parts, diags)
}

/// Request `i` of experiment `path`, from its parts, as a row.
fn row_of(
    file: &str,
    path: &str,
    i: usize,
    parts: RequestParts,
    diags: &mut Vec<Diagnostic>,
) -> ReadRequest {
    let (row, from_usage, sent) = export_row(file, &format!("{path}.requests[{i}]"), parts, diags);
    ReadRequest {
        row,
        from_usage,
        sent,
    }
}

/// What a request of the export says, as `export_row` reads it (read by `stream::Record`, the
/// one reader of a request's shape): its send time (an integer), its
/// responses' arrival times (the integers among them), and what each response carried (`None`
/// when `response_outputs` is not a list).
#[derive(Default)]
struct RequestParts {
    sent: Option<i64>,
    stamps: Vec<i64>,
    outputs: Option<Vec<Output>>,
}

/// Parses `profile_export.json`: one point per experiment. Streamed: each request is read, reduced
/// to a row and dropped before the next (an export is mostly response texts; holding them all as
/// JSON values took ~9× the file). Anything unusual (broken JSON, bare NaN, an odd shape) is read
/// again through the tree path, which names every problem.
pub fn parse_export(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut de = serde_json::Deserializer::from_slice(super::strip_bom(bytes));
    let streamed = serde::de::DeserializeSeed::deserialize(stream::Export { file }, &mut de)
        .and_then(|v| de.end().map(|()| v));
    match streamed {
        Ok((Some(experiments), model)) => build_export(file, experiments, model, Vec::new()),
        _ => parse_export_tree(file, bytes),
    }
}

/// The tree path: the whole file as JSON values (lenient: NaN, JSON lines).
pub(crate) fn parse_export_tree(
    file: &str,
    bytes: &[u8],
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let Some(experiments) = at(root, "experiments").and_then(Value::as_array) else {
        return Err(common::no_data(file, "no `experiments` list"));
    };
    let mut model = None;
    let experiments = experiments
        .iter()
        .enumerate()
        .map(|(e, exp)| {
            let mut header = exp.clone();
            if let Value::Object(m) = &mut header {
                m.remove("requests");
            }
            let mut rd = Vec::new();
            let path = format!("experiments[{e}]");
            let requests = at(exp, "requests").and_then(Value::as_array).map(|reqs| {
                reqs.iter()
                    .enumerate()
                    .map(|(i, r)| read_request(file, &path, i, r, &mut model, &mut rd))
                    .collect()
            });
            Experiment {
                header,
                requests,
                diags: rd,
            }
        })
        .collect();
    build_export(file, experiments, model, diags)
}

/// The export read as it arrives (`formats::Stream`).
pub(crate) mod chunked;

/// Serde seeds that read an export with one request's JSON value in memory at a time.
mod stream;

/// Points from the experiments read either way.
fn build_export(
    file: &str,
    experiments: Vec<Experiment>,
    model: Option<String>,
    mut diags: Vec<Diagnostic>,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let n = experiments.len();
    let mut points = Vec::new();
    let mut chunk_counted = 0usize;
    for (e, exp) in experiments.into_iter().enumerate() {
        let path = format!("experiments[{e}]");
        let mode = common::text(&exp.header, "experiment.mode").unwrap_or_default();
        let value = num(&exp.header, "experiment.value");
        let (mut concurrency, mut rate) = (None, None);
        if mode == "request_rate" {
            rate = value.filter(|r| *r > 0.0);
        } else {
            concurrency =
                common::level(file, &format!("{path}.experiment.value"), value, &mut diags);
        }
        concurrency = concurrency.or_else(|| common::concurrency_from_name(file));
        let Some(reqs) = exp.requests else {
            diags.push(Diagnostic::warning(
                file,
                &format!("{path}.requests"),
                None,
                "no requests list: experiment skipped",
            ));
            continue;
        };
        diags.extend(exp.diags);
        let t0 = reqs.iter().filter_map(|r| r.sent).min().unwrap_or(0);
        let mut rows = Rows::default();
        for mut r in reqs {
            if r.row.error.is_none() && !r.from_usage {
                chunk_counted += 1;
            }
            if let Some(sent) = r.sent {
                r.row.start_s = Some((sent - t0) as f64 * 1e-9);
            }
            rows.push(r.row);
        }
        let requests = rows.finish(file, &format!("{path}.requests"), &mut diags);
        points.push(Point {
            source_file: if n > 1 {
                format!("{file}#{}", e + 1)
            } else {
                file.to_owned()
            },
            concurrency,
            request_rate: rate,
            requests: Some(requests),
            reported: Reported {
                tool: SUMMARY_ID.into(),
                ..Reported::default()
            },
            sampled_from: None,
            server: None,
            ..Point::default()
        });
    }
    if points.is_empty() {
        return Err(common::no_data(file, "no experiment with requests"));
    }
    if chunk_counted > 0 {
        diags.push(Diagnostic::info(
            file,
            "response_outputs",
            format!("{chunk_counted} requests carry no usage count: their output tokens are their content chunks (GenAI-Perf re-tokenizes the text instead)"),
        ));
    }
    Ok((
        common::one_run(
            common::label("GenAI-Perf", model.as_deref()),
            EXPORT_ID,
            meta(model),
            points,
        ),
        diags,
    ))
}

/// The model a request asked for, from its `request_inputs`: the JSON payload Perf Analyzer
/// stores as a string.
fn inputs_model(inputs: &Value) -> Option<String> {
    let payload = at(inputs, "payload")?;
    match payload {
        Value::String(s) => serde_json::from_slice::<Value>(s.as_bytes())
            .ok()
            .and_then(|p| common::text(&p, "model")),
        other => common::text(other, "model"),
    }
}

/// What one streamed response carried: output text (or tokens) — a content chunk — or not (a
/// role-only, empty, `[DONE]` or usage-only event); and the server's usage count, if it has one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Output {
    content: bool,
    tokens: Option<f64>,
}

impl Output {
    /// A `text_output`: content when not empty.
    fn text(t: &str) -> Output {
        Output {
            content: !t.is_empty(),
            tokens: None,
        }
    }

    /// A `response`: `data: {chunk}`, read as [`super::openai`] reads a chunk.
    fn event(raw: &str) -> Output {
        let body = raw.trim_start().strip_prefix("data:").unwrap_or(raw).trim();
        if body == "[DONE]" || body.is_empty() {
            return Output::default();
        }
        // The usual chunk is read straight from its text; an unusual one through the tree.
        let (content, tokens) = match super::openai::read_content_and_usage(body) {
            Some(read) => read,
            None => match serde_json::from_slice::<Value>(body.as_bytes()) {
                Ok(v) => {
                    let chunk = super::openai::read_chunk(&v);
                    (chunk.content, chunk.completion_tokens)
                }
                Err(_) => return Output::default(),
            },
        };
        Output { content, tokens }
    }
}

/// One request of the export, and whether its token count is the server's usage figure.
fn export_row(
    file: &str,
    path: &str,
    parts: RequestParts,
    diags: &mut Vec<Diagnostic>,
) -> (Row, bool, Option<i64>) {
    let RequestParts {
        sent,
        stamps,
        outputs,
    } = parts;
    let Some(sent) = sent else {
        diags.push(Diagnostic::warning(
            file,
            &format!("{path}.timestamp"),
            None,
            "no integer timestamp: request left out",
        ));
        return (Row::failed("no send timestamp".into()), true, None);
    };
    let mut usage = None;
    let content: Vec<i64> = match outputs {
        Some(o) if o.len() == stamps.len() => stamps
            .iter()
            .zip(o)
            .filter(|(_, out)| {
                usage = out.tokens.or(usage);
                out.content
            })
            .map(|(t, _)| *t)
            .collect(),
        _ => {
            diags.push(Diagnostic::warning(
                file,
                &format!("{path}.response_outputs"),
                None,
                "responses do not line up with their timestamps: every response counted as content",
            ));
            stamps.clone()
        }
    };
    let (Some(&first), Some(&last)) = (content.first(), content.last()) else {
        return (
            Row::failed("no content in any response".into()),
            true,
            Some(sent),
        );
    };
    let s = |ns: i64| ns as f64 * 1e-9;
    let output_tokens = usage.unwrap_or(content.len() as f64);
    // The start time is set once the experiment's first send is known (`build_export`).
    let row = Row {
        start_s: None,
        ttft_s: s(first - sent),
        e2e_s: s(last - sent),
        input_tokens: None,
        output_tokens,
        gaps_s: Some(content.windows(2).map(|w| s(w[1] - w[0])).collect()),
        error: None,
        invalid: None,
        facts: Default::default(),
    };
    (row, usage.is_some(), Some(sent))
}

mod summary;
pub(crate) use summary::summary_figures;
pub use summary::{parse_csv, parse_summary};
