//! Ray / Anyscale LLMPerf (`token_benchmark_ray.py --results-dir`): `*_summary.json` (flattened
//! `results_*` keys; some numbers written as strings) and `*_individual_responses.json` (per
//! request, in seconds, no timestamps). A responses file and its summary pair into one point.

use super::{Format, FormatSpec};
pub use crate::tools::llmperf::{PANDAS, SUMMARY_ID, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, num, read_values, summary_point, Row, Rows};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported, SampleKind, Samples};
/// Format id of `individual_responses` files.
pub const RESPONSES_ID: &str = "llmperf-responses";

/// LLMPerf `*_summary.json`.
pub const SUMMARY_SPEC: FormatSpec = FormatSpec {
    format: Format::LlmperfSummary,
    detect: |has, _| has("\"results_ttft_s_mean\"") || has("\"results_num_completed_requests\""),
    keys: &[
        "results_ttft_s_mean",
        "results_num_completed_requests",
        "num_concurrent_requests",
        "results_inter_token_latency_s_mean",
    ],
    parse: |f, b, _| parse_summary(f, b),
    summary_partners: &[],
    stream: None,
};

/// LLMPerf `*_individual_responses.json`.
pub const RESPONSES_SPEC: FormatSpec = FormatSpec {
    format: Format::LlmperfResponses,
    detect: |has, _| has("\"ttft_s\"") && has("\"end_to_end_latency_s\""),
    keys: &[
        "ttft_s",
        "end_to_end_latency_s",
        "inter_token_latency_s",
        "number_output_tokens",
    ],
    parse: |f, b, _| parse_responses(f, b),
    summary_partners: &[Format::LlmperfSummary],
    stream: Some(|file, size| {
        Box::new(super::records::RecordStream::new(
            Box::new(ResponsesSink::new(file)),
            size,
        ))
    }),
};

/// Parses `*_summary.json`.
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    // A wrapper's file of summaries keyed by concurrency (`{"1": {…}, "8": {…}}`, as
    // philschmid/llmperf-bench writes them): one point per summary, in the order of the keys.
    let mut keyed: Vec<(f64, &Value)> = root
        .as_object()
        .filter(|o| !o.is_empty() && o.keys().all(|k| k.parse::<u32>().is_ok()))
        .map(|o| {
            o.iter()
                .filter(|(_, v)| v.is_object())
                .map(|(k, v)| (k.parse::<f64>().unwrap_or(f64::NAN), v))
                .collect()
        })
        .unwrap_or_default();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let summaries: Vec<(String, &Value)> = if keyed.is_empty() {
        vec![(file.to_owned(), root)]
    } else {
        keyed
            .iter()
            .enumerate()
            .map(|(i, (_, v))| (format!("{file}#{}", i + 1), *v))
            .collect()
    };
    let mut points = Vec::new();
    let mut meta = Metadata::default();
    for (name, s) in summaries {
        let mut figures: BTreeMap<String, f64> = common::flatten_numbers(s, 1);
        figures.retain(|k, _| k.starts_with("results_"));
        if figures.is_empty() {
            continue;
        }
        let concurrency = common::level(
            &name,
            "num_concurrent_requests",
            num(s, "num_concurrent_requests"),
            &mut diags,
        );
        if meta.model.is_none() {
            meta.model = common::text(s, "model").filter(|m| !m.is_empty());
            // LLMPerf's own name for the run (`<model>_<in>_<out>_summary`) is kept, not shown
            // as the run's name: the run is named after the model it ran.
            if let Some(n) = common::text(s, "name").filter(|n| !n.is_empty()) {
                meta.labels.insert("name".into(), n);
            }
        }
        points.push(summary_point(&name, SUMMARY_ID, concurrency, None, figures));
    }
    if points.is_empty() {
        return Err(common::no_data(file, "no `results_*` figures"));
    }
    let label = common::label("LLMPerf", meta.model.as_deref());
    Ok((common::one_run(label, SUMMARY_ID, meta, points), diags))
}

/// Parses `*_individual_responses.json`.
pub fn parse_responses(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    super::records::read_whole(file, bytes, ResponsesSink::new(file))
}

/// The responses, one by one: from the whole file (`parse_responses`) or as they arrive
/// (`formats::Stream`). Each becomes a row, and its mean ITL is kept for the audit.
pub(crate) struct ResponsesSink {
    file: String,
    rows: Rows,
    itl: Vec<f64>,
}

impl ResponsesSink {
    pub(crate) fn new(file: &str) -> ResponsesSink {
        ResponsesSink {
            file: file.to_owned(),
            rows: Rows::default(),
            itl: Vec::new(),
        }
    }

    /// Response `i`, as its typed reading gives it.
    fn take(&mut self, i: usize, response: Response, diags: &mut Vec<Diagnostic>) {
        // `map_records` reads a file with a broken record a second time, from record 0.
        if i == 0 {
            *self = ResponsesSink::new(&self.file);
        }
        match response {
            Response::Not(kind) => diags.push(Diagnostic::warning(
                &self.file,
                &format!("[{i}]"),
                Some(i),
                format!("{kind} instead of a response object: skipped"),
            )),
            Response::Failed(why) => self.rows.push(Row::failed(why)),
            Response::Done([ttft, e2e, input, output, itl]) => {
                self.rows.push(Row {
                    start_s: None,
                    ttft_s: ttft.unwrap_or(f64::NAN),
                    e2e_s: e2e.unwrap_or(f64::NAN),
                    input_tokens: input,
                    output_tokens: output.unwrap_or(f64::NAN),
                    gaps_s: None,
                    error: None,
                    invalid: None,
                    facts: Default::default(),
                });
                self.itl.extend(itl);
            }
        }
    }
}

/// The keys of a response record: its error, then what a row is made of, in
/// [`Response::Done`]'s order.
const RESPONSE_KEYS: [&str; 7] = [
    "error_code",
    "error_msg",
    "ttft_s",
    "end_to_end_latency_s",
    "number_input_tokens",
    "number_output_tokens",
    "inter_token_latency_s",
];

/// One response record, read from its bytes: the one reader of the record's shape, for the
/// chunked reader and the whole-file reader's values alike.
enum Response {
    /// Not an error: its values at [`RESPONSE_KEYS`] after the error's two (each a number as `common::num` reads it).
    Done([Option<f64>; 5]),
    /// `error_code` not null: "error {code}: {error_msg}".
    Failed(String),
    /// Not an object: what it is.
    Not(&'static str),
}

impl<'de> serde::Deserialize<'de> for Response {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        use std::fmt;
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Response;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a response")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Response, A::Error> {
                let (mut values, mut code, mut msg) = ([None; 5], Value::Null, None);
                crate::lenient::each_key(&mut map, &RESPONSE_KEYS, |key, map| {
                    match key {
                        "error_code" => code = map.next_value()?,
                        "error_msg" => msg = map.next_value::<crate::lenient::Text>()?.0,
                        _ => {
                            let at = RESPONSE_KEYS.iter().position(|k| *k == key).unwrap_or(2);
                            values[at - 2] =
                                map.next_value::<crate::lenient::Leaf>()?.num().value();
                        }
                    }
                    Ok(())
                })?;
                if code.is_null() {
                    return Ok(Response::Done(values));
                }
                let msg = msg.unwrap_or_default();
                Ok(Response::Failed(
                    format!("error {code}: {msg}")
                        .trim_end_matches(": ")
                        .to_owned(),
                ))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Response, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Response::Not("an array"))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Response, E> {
                Ok(Response::Not("a number"))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Response, E> {
                Ok(Response::Not("a number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Response, E> {
                Ok(Response::Not("a number"))
            }
            fn visit_str<E>(self, _: &str) -> Result<Response, E> {
                Ok(Response::Not("a string"))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Response, E> {
                Ok(Response::Not("a boolean"))
            }
            fn visit_unit<E>(self) -> Result<Response, E> {
                Ok(Response::Not("null"))
            }
        }
        d.deserialize_any(V)
    }
}

impl super::records::Sink for ResponsesSink {
    fn record_at(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> Option<usize> {
        // Read where it stands (serde's stream reader says where it ends).
        let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<Response>();
        let response = values.next()?.ok()?;
        self.take(i, response, diags);
        Some(values.byte_offset())
    }

    fn record_bytes(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> bool {
        let Ok(response) = serde_json::from_slice::<Response>(bytes) else {
            return false;
        };
        self.take(i, response, diags);
        true
    }

    fn reserve_for_rest(&mut self, read: u64, total: u64) {
        self.rows.reserve_for_rest(read, total);
    }

    fn finish(
        self: Box<Self>,
        mut diags: Vec<Diagnostic>,
    ) -> Result<(Report, Vec<Diagnostic>), ParseError> {
        let ResponsesSink { file, rows, itl } = *self;
        let file = file.as_str();
        if rows.is_empty() {
            return Err(common::no_data(file, "no response records"));
        }
        let requests = rows.finish(file, "responses", &mut diags);
        let reported = Reported {
            tool: SUMMARY_ID.into(),
            ..Reported::default()
        };
        // Each response's ITL, for the analysis to check the summary's mean against.
        let samples = (!itl.is_empty()).then_some(Samples {
            of: SampleKind::ResponseItlS,
            values: itl,
            tokens: None,
        });
        let point = Point {
            source_file: file.to_owned(),
            concurrency: None,
            request_rate: None,
            requests: Some(requests),
            reported,
            sampled_from: None,
            server: None,
            samples,
            ..Point::default()
        };
        Ok((
            common::one_run("LLMPerf", RESPONSES_ID, Metadata::default(), vec![point]),
            diags,
        ))
    }
}
