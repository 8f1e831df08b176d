//! Ray / Anyscale LLMPerf (`token_benchmark_ray.py --results-dir`): `*_summary.json` (flattened
//! `results_*` keys; some numbers written as strings) and `*_individual_responses.json` (per
//! request, in seconds, no timestamps). A responses file and its summary pair into one point.

use super::{Format, FormatSpec};
pub use crate::tools::llmperf::{PANDAS, SUMMARY_ID, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, num, read_values, summary_point, Row, Rows};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported};
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

    /// A response that is not an error, from its values at [`RESPONSE_KEYS`] (each a number as
    /// `common::num` reads it).
    fn row(&mut self, v: [Option<f64>; 6]) {
        let [_, ttft, e2e, input, output, itl] = v;
        self.rows.push(Row {
            start_s: None,
            ttft_s: ttft.unwrap_or(f64::NAN),
            e2e_s: e2e.unwrap_or(f64::NAN),
            input_tokens: input,
            output_tokens: output.unwrap_or(f64::NAN),
            gaps_s: None,
            error: None,
            invalid: None,
        });
        self.itl.extend(itl);
    }
}

/// The keys of a response record that a row is made of, in [`ResponsesSink::row`]'s order.
const RESPONSE_KEYS: [&str; 6] = [
    "error_code",
    "ttft_s",
    "end_to_end_latency_s",
    "number_input_tokens",
    "number_output_tokens",
    "inter_token_latency_s",
];

/// A response's values at [`RESPONSE_KEYS`], as a type for serde's stream reader (which says
/// where a value ends).
struct Response(Vec<crate::lenient::Leaf>);

impl<'de> serde::Deserialize<'de> for Response {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::DeserializeSeed;
        crate::lenient::Fields(&RESPONSE_KEYS)
            .deserialize(d)
            .map(Response)
    }
}

impl super::records::Sink for ResponsesSink {
    fn record_at(&mut self, i: usize, bytes: &[u8], _: &mut Vec<Diagnostic>) -> Option<usize> {
        // The usual response, read where it stands; the first, an error and anything unusual are
        // cut whole first and read by `record_bytes`.
        if i == 0 {
            return None;
        }
        let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<Response>();
        let Some(Ok(Response(v))) = values.next() else {
            return None;
        };
        if v[0] != crate::lenient::Leaf::Null {
            return None;
        }
        self.row(std::array::from_fn(|k| v[k].num().value()));
        Some(values.byte_offset())
    }

    fn record_bytes(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> bool {
        use serde::de::DeserializeSeed;
        // The usual response straight from its bytes; an error, anything but an object, and
        // the first record (whose reading starts the sink afresh) through its JSON value.
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let read = crate::lenient::Fields(&RESPONSE_KEYS)
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v));
        match read {
            Ok(v) if i > 0 && v[0] == crate::lenient::Leaf::Null => {
                self.row(std::array::from_fn(|k| v[k].num().value()));
                true
            }
            _ => {
                let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) else {
                    return false;
                };
                self.record(i, &v, diags);
                true
            }
        }
    }

    fn record(&mut self, i: usize, r: &serde_json::Value, diags: &mut Vec<Diagnostic>) {
        // `map_records` reads a file with a broken record a second time, from record 0.
        if i == 0 {
            *self = ResponsesSink::new(&self.file);
        }
        let file = self.file.as_str();
        if !r.is_object() {
            diags.push(Diagnostic::warning(
                file,
                &format!("[{i}]"),
                Some(i),
                format!(
                    "{} instead of a response object: skipped",
                    common::kind_of(r)
                ),
            ));
            return;
        }
        let code = common::at(r, "error_code").filter(|c| !c.is_null());
        if let Some(code) = code {
            let msg = common::text(r, "error_msg").unwrap_or_default();
            self.rows.push(Row::failed(
                format!("error {code}: {msg}")
                    .trim_end_matches(": ")
                    .to_owned(),
            ));
            return;
        }
        self.row(RESPONSE_KEYS.map(|k| num(r, k)));
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
        let mut reported = Reported {
            tool: SUMMARY_ID.into(),
            ..Reported::default()
        };
        if let Some(m) = crate::stats::mean(&itl) {
            reported
                .recomputed
                .insert("results_inter_token_latency_s_mean".into(), m);
        }
        let point = Point {
            source_file: file.to_owned(),
            concurrency: None,
            request_rate: None,
            requests: Some(requests),
            reported,
            sampled_from: None,
            server: None,
            ..Point::default()
        };
        Ok((
            common::one_run("LLMPerf", RESPONSES_ID, Metadata::default(), vec![point]),
            diags,
        ))
    }
}
