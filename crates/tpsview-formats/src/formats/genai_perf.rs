//! NVIDIA GenAI-Perf: `profile_export.json` (Perf Analyzer's raw export: per request, the send
//! time and every streamed response's arrival, integer nanoseconds since the epoch) and its
//! summaries `profile_export_genai_perf.json` / `.csv` (the CSV quotes values ≥ 1,000 with
//! thousands separators). An export and its summary pair into one point.

use super::{Format, FormatSpec};
pub use crate::tools::genai_perf::{SUMMARY_ID, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, csv_fields, num, read_values, summary_point, Row, Rows};
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

/// Reduces request `i` of experiment `path` to a row, noting the first request's model.
fn read_request(
    file: &str,
    path: &str,
    i: usize,
    r: &Value,
    model: &mut Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> ReadRequest {
    if model.is_none() {
        *model = payload_model(r);
    }
    row_of(file, path, i, RequestParts::of(r), diags)
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

/// What a request of the export says, as `export_row` reads it: its send time (an integer), its
/// responses' arrival times (the integers among them), and what each response carried (`None`
/// when `response_outputs` is not a list).
#[derive(Default)]
struct RequestParts {
    sent: Option<i64>,
    stamps: Vec<i64>,
    outputs: Option<Vec<Output>>,
}

impl RequestParts {
    /// The parts of a request read as a JSON value (the tree path).
    fn of(r: &Value) -> RequestParts {
        RequestParts {
            sent: at(r, "timestamp").and_then(Value::as_i64),
            stamps: at(r, "response_timestamps")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default(),
            outputs: at(r, "response_outputs")
                .and_then(Value::as_array)
                .map(|o| o.iter().map(Output::of).collect()),
        }
    }
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
mod stream {
    use std::fmt;

    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;

    use super::{inputs_model, row_of, Experiment, Output, RequestParts};
    use crate::lenient::{each_key, FromMap, FromSeq, Leaf, ListOr, ObjectOr};

    /// The root object: its `experiments` (else `None`), and the first request's model.
    pub(super) struct Export<'a> {
        pub(super) file: &'a str,
    }

    impl<'de> DeserializeSeed<'de> for Export<'_> {
        type Value = (Option<Vec<Experiment>>, Option<String>);
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for Export<'_> {
        type Value = (Option<Vec<Experiment>>, Option<String>);
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a GenAI-Perf export object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut model = None;
            let mut experiments = None;
            while let Some(key) = map.next_key::<String>()? {
                if key == "experiments" {
                    experiments = Some(map.next_value_seed(Experiments {
                        file: self.file,
                        model: &mut model,
                    })?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok((experiments, model))
        }
    }

    struct Experiments<'a> {
        file: &'a str,
        model: &'a mut Option<String>,
    }

    impl<'de> DeserializeSeed<'de> for Experiments<'_> {
        type Value = Vec<Experiment>;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for Experiments<'_> {
        type Value = Vec<Experiment>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of experiments")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(e) = seq.next_element_seed(One {
                file: self.file,
                index: out.len(),
                model: &mut *self.model,
            })? {
                out.push(e);
            }
            Ok(out)
        }
    }

    struct One<'a> {
        file: &'a str,
        index: usize,
        model: &'a mut Option<String>,
    }

    impl<'de> DeserializeSeed<'de> for One<'_> {
        type Value = Experiment;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for One<'_> {
        type Value = Experiment;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an experiment object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut header = serde_json::Map::new();
            let mut requests = None;
            let mut diags = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                if key == "requests" {
                    requests = Some(map.next_value_seed(Requests {
                        file: self.file,
                        path: format!("experiments[{}]", self.index),
                        model: &mut *self.model,
                        diags: &mut diags,
                    })?);
                } else {
                    header.insert(key, map.next_value::<Value>()?);
                }
            }
            Ok(Experiment {
                header: Value::Object(header),
                requests,
                diags,
            })
        }
    }

    struct Requests<'a> {
        file: &'a str,
        path: String,
        model: &'a mut Option<String>,
        diags: &'a mut Vec<crate::error::Diagnostic>,
    }

    impl<'de> DeserializeSeed<'de> for Requests<'_> {
        type Value = Vec<super::ReadRequest>;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for Requests<'_> {
        type Value = Vec<super::ReadRequest>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of requests")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            // One request at a time, read into its parts (no tree of its responses), reduced to
            // a row; its request_inputs kept only until a request names the model.
            while let Some((parts, inputs)) = seq.next_element_seed(Request {
                want_inputs: self.model.is_none(),
            })? {
                if self.model.is_none() {
                    *self.model = inputs.as_ref().and_then(inputs_model);
                }
                out.push(row_of(self.file, &self.path, out.len(), parts, self.diags));
            }
            Ok(out)
        }
    }

    /// One request read as [`RequestParts::of`] reads its JSON value — the same keys, a
    /// repeated key's last value, anything that is not what a key should hold read as absent —
    /// without building that value.
    struct Request {
        want_inputs: bool,
    }

    /// [`Request`] as a type, for `serde_json`'s stream reader (which says where a value ends):
    /// its parts, and its `request_inputs` when `INPUTS`.
    pub(super) struct Record<const INPUTS: bool>(pub(super) RequestParts, pub(super) Option<Value>);

    impl<'de, const INPUTS: bool> serde::Deserialize<'de> for Record<INPUTS> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let (parts, inputs) = Request {
                want_inputs: INPUTS,
            }
            .deserialize(d)?;
            Ok(Record(parts, inputs))
        }
    }

    impl<'de> DeserializeSeed<'de> for Request {
        type Value = (RequestParts, Option<Value>);
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Request {
        type Value = (RequestParts, Option<Value>);
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a request")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let (mut parts, mut inputs) = (RequestParts::default(), None);
            let keys = [
                "timestamp",
                "response_timestamps",
                "response_outputs",
                "request_inputs",
            ];
            let keys = if self.want_inputs {
                &keys[..]
            } else {
                &keys[..3]
            };
            each_key(&mut map, keys, |key, map| {
                match key {
                    "timestamp" => parts.sent = map.next_value::<Leaf>()?.as_i64(),
                    "response_timestamps" => parts.stamps = map.next_value::<ListOr<Ints>>()?.0 .0,
                    "response_outputs" => parts.outputs = map.next_value::<ListOr<Outputs>>()?.0 .0,
                    _ => inputs = Some(map.next_value()?),
                }
                Ok(())
            })?;
            Ok((parts, inputs))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    }

    /// A list's integers (`Value::as_i64` of each item; the others left out); none when it is
    /// not a list.
    #[derive(Default)]
    struct Ints(Vec<i64>);

    impl<'de> FromSeq<'de> for Ints {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Ints, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(x) = seq.next_element::<Leaf>()? {
                out.extend(x.as_i64());
            }
            Ok(Ints(out))
        }
    }

    /// `response_outputs`: each response read as [`Output::of`] reads it; `None` when it is not a
    /// list.
    #[derive(Default)]
    struct Outputs(Option<Vec<Output>>);

    impl<'de> FromSeq<'de> for Outputs {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Outputs, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(ObjectOr(OneOutput(o))) = seq.next_element()? {
                out.push(o);
            }
            Ok(Outputs(Some(out)))
        }
    }

    /// One response: its `text_output` or else its `response` (the last of a repeated key), each
    /// only when a string.
    #[derive(Default)]
    struct OneOutput(Output);

    impl<'de> FromMap<'de> for OneOutput {
        fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<OneOutput, A::Error> {
            let (mut text, mut response) = (Leaf::Null, Leaf::Null);
            each_key(&mut map, &["text_output", "response"], |key, map| {
                match key {
                    "text_output" => text = map.next_value()?,
                    _ => response = map.next_value()?,
                }
                Ok(())
            })?;
            Ok(OneOutput(match (text.as_str(), response.as_str()) {
                (Some(t), _) => Output::text(t),
                (None, Some(r)) => Output::event(r),
                (None, None) => Output::default(),
            }))
        }
    }
}

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

/// The model a request asked for, from the JSON payload Perf Analyzer stores as a string.
fn payload_model(r: &Value) -> Option<String> {
    inputs_model(at(r, "request_inputs")?)
}

/// [`payload_model`] from a request's `request_inputs`.
fn inputs_model(inputs: &Value) -> Option<String> {
    let payload = at(inputs, "payload")?;
    match payload {
        Value::String(s) => serde_json::from_str::<Value>(s)
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
    /// A response read as a JSON value: Triton's `text_output`, else the SSE event in `response`.
    fn of(r: &Value) -> Output {
        if let Some(t) = at(r, "text_output").and_then(Value::as_str) {
            return Output::text(t);
        }
        at(r, "response")
            .and_then(Value::as_str)
            .map_or_else(Output::default, Output::event)
    }

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
            None => match serde_json::from_str::<Value>(body) {
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
    };
    (row, usage.is_some(), Some(sent))
}

/// Figures of a GenAI-Perf / AIPerf summary object, nanosecond metrics converted to ms.
pub(crate) fn summary_figures(
    file: &str,
    root: &Value,
    skip: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, f64> {
    let mut figures = BTreeMap::new();
    let Some(obj) = root.as_object() else {
        return figures;
    };
    for (k, v) in obj {
        if skip.contains(&k.as_str()) {
            continue;
        }
        let scale = match at(v, "unit").and_then(Value::as_str) {
            Some("ns") => {
                diags.push(Diagnostic::info(file, k, "in ns: converted to ms"));
                1e-6
            }
            Some("us") => 1e-3,
            _ => 1.0,
        };
        match v {
            Value::Object(_) => {
                for (sk, x) in common::flatten_numbers(v, 1) {
                    figures.insert(format!("{k}.{sk}"), x * scale);
                }
            }
            other => {
                if let crate::lenient::Num::Value(x) = common::num_of(Some(other)) {
                    if !x.is_nan() {
                        figures.insert(k.clone(), x);
                    }
                }
            }
        }
    }
    figures
}

/// The model(s) of a summary's `input_config`.
fn config_model(root: &Value) -> Option<String> {
    common::first_text(
        root,
        &[
            "input_config.model",
            "input_config.model_names",
            "input_config.endpoint.model_names",
        ],
    )
}

/// Parses `profile_export_genai_perf.json`.
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let figures = summary_figures(
        file,
        root,
        &["input_config", "telemetry_stats", "sessions"],
        &mut diags,
    );
    if figures.is_empty() {
        return Err(common::no_data(file, "no metric objects"));
    }
    let concurrency = common::first_num(
        root,
        &[
            "input_config.perf_analyzer.stimulus.concurrency",
            "input_config.concurrency",
        ],
    )
    .or_else(|| common::concurrency_from_name(file));
    let rate = common::first_num(
        root,
        &[
            "input_config.perf_analyzer.stimulus.request_rate",
            "input_config.request_rate",
        ],
    );
    let model = config_model(root);
    let mut meta = meta(model.clone());
    let mut point = summary_point(file, SUMMARY_ID, concurrency, rate, figures);
    point.telemetry = telemetry_stats(root, &mut meta.labels);
    Ok((
        common::one_run(
            common::label("GenAI-Perf", model.as_deref()),
            SUMMARY_ID,
            meta,
            vec![point],
        ),
        diags,
    ))
}

/// The GPUs' energy and power from the summary's `telemetry_stats` (GenAI-Perf's DCGM telemetry,
/// `--server-metrics-url`): per metric a `unit` and one statistics block per GPU (`"0"`, `"1"`… ;
/// `gpu0`… before GenAI-Perf read DCGM). `energy_consumption` is DCGM's counter since the GPU
/// started, so its max − min is the energy over the telemetry window; `gpu_power_usage.avg` the
/// mean power. Into the level's [`Telemetry`](crate::model::Telemetry) that `energy` reads,
/// summed over the GPUs.
fn telemetry_stats(
    root: &Value,
    labels: &mut BTreeMap<String, String>,
) -> Option<crate::model::Telemetry> {
    let stats = root.get("telemetry_stats").and_then(Value::as_object)?;
    let scaled = |metric: &str, per: fn(&str) -> Option<f64>| {
        let m = stats.get(metric)?.as_object()?;
        let scale = per(m.get("unit")?.as_str()?)?;
        Some((m, scale))
    };
    let energy = scaled("energy_consumption", super::telemetry::joules_per);
    let power = scaled("gpu_power_usage", super::telemetry::watts_per);
    let mut keys: Vec<&String> = energy
        .iter()
        .chain(power.iter())
        .flat_map(|(m, _)| m.keys())
        .filter(|k| *k != "unit")
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut gpus = super::telemetry::Gpus::default();
    for key in keys {
        let stat = |m: &Option<(&serde_json::Map<String, Value>, f64)>, s: &str| {
            let (m, scale) = m.as_ref()?;
            Some(m.get(key)?.get(s)?.as_f64()? * scale)
        };
        let rise = stat(&energy, "max")
            .zip(stat(&energy, "min"))
            .and_then(|(hi, lo)| (hi >= lo).then_some(hi - lo));
        let gpu = key.strip_prefix("gpu").unwrap_or(key);
        gpus.add(
            format!("GPU {gpu}"),
            "",
            "GenAI-Perf's telemetry",
            rise,
            stat(&power, "avg"),
        );
    }
    gpus.write(labels)
}

/// `Time To First Token (ms)` → `time_to_first_token`.
fn metric_key(label: &str) -> String {
    let name = label.split('(').next().unwrap_or(label).trim();
    name.to_ascii_lowercase().replace([' ', '-'], "_")
}

/// Parses `profile_export_genai_perf.csv`: a statistics table (`Metric,avg,min,max,p99,…`) and a
/// `Metric,Value` table.
pub fn parse_csv(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let text = String::from_utf8_lossy(super::strip_bom(bytes));
    let mut header: Vec<String> = Vec::new();
    let mut figures = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields = csv_fields(line);
        if fields[0].trim() == "Metric" {
            header = fields
                .iter()
                .map(|f| f.trim().to_ascii_lowercase())
                .collect();
            continue;
        }
        if header.is_empty() {
            continue;
        }
        let key = metric_key(&fields[0]);
        let ns = fields[0].contains("(ns)");
        for (col, v) in header.iter().zip(&fields).skip(1) {
            let col = if col == "value" { "avg" } else { col.as_str() };
            match crate::lenient::parse_num_str(v) {
                crate::lenient::Num::Value(x) if x.is_finite() => {
                    figures.insert(format!("{key}.{col}"), if ns { x * 1e-6 } else { x });
                }
                crate::lenient::Num::Missing => {}
                _ => diags.push(Diagnostic::warning(
                    file,
                    &format!("line {} ({}, {col})", n + 1, fields[0].trim()),
                    None,
                    format!("{v:?} is not a number: left out"),
                )),
            }
        }
    }
    if figures.is_empty() {
        return Err(common::no_data(
            file,
            "no metric rows under a `Metric,…` header",
        ));
    }
    let concurrency = common::concurrency_from_name(file);
    if concurrency.is_none() {
        diags.push(Diagnostic::info(
            file,
            "(file)",
            "the CSV does not record concurrency (name the file …concurrency<N>… to place it)",
        ));
    }
    let point = summary_point(file, SUMMARY_ID, concurrency, None, figures);
    // AIPerf writes the same two tables (`profile_export_aiperf.csv`): named for the tool that
    // wrote it, which only its name tells.
    let tool = if file.to_ascii_lowercase().contains("aiperf") {
        "AIPerf"
    } else {
        "GenAI-Perf"
    };
    Ok((
        common::one_run(
            common::with_trial(tool.into(), file),
            CSV_ID,
            Metadata::default(),
            vec![point],
        ),
        diags,
    ))
}
