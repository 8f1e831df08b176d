//! NVIDIA AIPerf: `profile_export.jsonl` (one record per request: epoch-ns send time, metrics in
//! display units, the chunk gaps as `inter_chunk_latency`) and `profile_export_aiperf.json` (the
//! GenAI-Perf-compatible summary, in the ≤ 0.8 `loadgen` and 0.11 `phases` layouts). Records and
//! summary pair into one point.

use super::{Format, FormatSpec};
pub use crate::tools::aiperf::{SUMMARY_ID, TTFT, VOCABULARY};
use serde_json::Value;
use std::collections::BTreeMap;

use super::common::{self, at, num, read_values, summary_point, Row, Rows};
use super::genai_perf::summary_figures;
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};

/// Format id of `profile_export.jsonl`.
pub const RECORDS_ID: &str = "aiperf-records";

/// AIPerf `profile_export.jsonl` (per-request records).
pub const RECORDS_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfRecords,
    detect: |has, _| has("\"request_start_ns\"") && has("\"metrics\""),
    keys: &[
        "request_start_ns",
        "metrics",
        "metadata",
        "inter_chunk_latency",
    ],
    parse: |f, b, _| parse_records(f, b),
    summary_partners: &[Format::AiperfSummary],
    stream: Some(|file, size| {
        Box::new(super::records::RecordStream::new(
            Box::new(RecordsSink::new(file)),
            size,
        ))
    }),
};

use crate::model::Telemetry;
pub use crate::tools::aiperf::GPUS_LABEL;

/// AIPerf `profile_export_aiperf.json` (summary).
pub const SUMMARY_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfSummary,
    // AIPerf 0.6 writes neither version key: its `input_config.loadgen` or its command tell it
    // from GenAI-Perf's summary (tests/fixtures/aiperf/telemetry-c*_profile_export_aiperf.json).
    detect: |has, _| {
        (has("\"aiperf_version\"")
            || has("\"schema_version\"")
            || has("\"loadgen\"")
            || has("aiperf profile"))
            && has("\"time_to_first_token\"")
    },
    keys: &[
        "time_to_first_token",
        "benchmark_duration",
        "request_count",
        "input_config",
        "output_token_throughput",
    ],
    parse: |f, b, _| parse_summary(f, b),
    summary_partners: &[],
    stream: None,
};

fn unit_scale(unit: Option<&str>) -> f64 {
    match unit {
        Some("ns") => 1e-9,
        Some("us") => 1e-6,
        Some("s") | Some("sec") => 1.0,
        _ => 1e-3,
    }
}

/// What a profiling record says, as [`record_row`] reads it (read from its bytes by
/// `typed::Record`, the one reader of the record's shape).
#[derive(Default)]
struct RecordParts {
    /// `error`, when present and not null: its message.
    error: Option<String>,
    cancelled: bool,
    sent: Option<i64>,
    warmup: bool,
    /// `time_to_first_token` and `request_latency` in seconds.
    ttft: Option<f64>,
    e2e: Option<f64>,
    output_tokens: Option<f64>,
    input_tokens: Option<f64>,
    /// `inter_chunk_latency` in seconds (NaN for an entry that is not a number).
    gaps: Option<Vec<f64>>,
}

/// One profiling record as a row (its start time is set by the caller).
fn record_row(file: &str, i: usize, r: RecordParts, diags: &mut Vec<Diagnostic>) -> Row {
    if let Some(msg) = r.error {
        return Row::failed(msg);
    }
    if r.cancelled {
        return Row::failed("cancelled".into());
    }
    let (Some(ttft), Some(e2e)) = (r.ttft, r.e2e) else {
        diags.push(Diagnostic::warning(
            file,
            &format!("[{i}].metrics"),
            Some(i),
            "no time_to_first_token or request_latency: left out",
        ));
        return Row::invalid("metrics");
    };
    Row {
        start_s: None,
        ttft_s: ttft,
        e2e_s: e2e,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens.unwrap_or(f64::NAN),
        gaps_s: r.gaps,
        error: None,
        invalid: None,
    }
}

/// Parses `profile_export.jsonl`.
pub fn parse_records(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    super::records::read_whole(file, bytes, RecordsSink::new(file))
}

/// `profile_export.jsonl`'s records, one by one: from the whole file (`parse_records`) or as
/// they arrive (`formats::Stream`). Each record becomes a row as it is read (its send time kept
/// in ns until the first is known), straight into the columns (a big file's gaps are held once).
/// Warm-up records have no row, but their send times count for the clock's origin; the rows'
/// send times are set once every record's has given it.
pub(crate) struct RecordsSink {
    file: String,
    rows: Rows,
    usable_sent: Vec<Option<i64>>,
    t0: Option<i64>,
    warmup: usize,
}

impl RecordsSink {
    pub(crate) fn new(file: &str) -> RecordsSink {
        RecordsSink {
            file: file.to_owned(),
            rows: Rows::default(),
            usable_sent: Vec::new(),
            t0: None,
            warmup: 0,
        }
    }

    /// Record `i`, from its parts.
    fn parts(&mut self, i: usize, r: RecordParts, diags: &mut Vec<Diagnostic>) {
        // `map_records` reads a file with a broken line a second time, from record 0.
        if i == 0 {
            *self = RecordsSink::new(&self.file);
        }
        let sent = r.sent;
        if let Some(ns) = sent {
            self.t0 = Some(self.t0.map_or(ns, |t| t.min(ns)));
        }
        if r.warmup {
            self.warmup += 1;
        } else {
            let row = record_row(&self.file, i, r, diags);
            self.usable_sent
                .push(sent.filter(|_| row.error.is_none() && row.invalid.is_none()));
            self.rows.push(row);
        }
    }
}

impl super::records::Sink for RecordsSink {
    fn record_at(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> Option<usize> {
        // Read where it stands (serde's stream reader says where it ends).
        let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<typed::Record>();
        let typed::Record(parts) = values.next()?.ok()?;
        self.parts(i, parts, diags);
        Some(values.byte_offset())
    }

    fn record_bytes(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> bool {
        let Ok(typed::Record(parts)) = serde_json::from_slice::<typed::Record>(bytes) else {
            return false;
        };
        self.parts(i, parts, diags);
        true
    }

    fn reserve_for_rest(&mut self, read: u64, total: u64) {
        self.rows.reserve_for_rest(read, total);
    }

    fn finish(
        self: Box<Self>,
        mut diags: Vec<Diagnostic>,
    ) -> Result<(Report, Vec<Diagnostic>), ParseError> {
        let RecordsSink {
            file,
            mut rows,
            usable_sent,
            t0,
            warmup,
        } = *self;
        let file = file.as_str();
        let t0 = t0.unwrap_or(0);
        for (i, sent) in usable_sent.into_iter().enumerate() {
            rows.set_start(i, sent.map(|ns| (ns - t0) as f64 * 1e-9));
        }
        if warmup > 0 {
            diags.push(Diagnostic::info(
                file,
                "metadata.benchmark_phase",
                format!("{warmup} warm-up records left out"),
            ));
        }
        if rows.is_empty() {
            return Err(common::no_data(file, "no profiling records"));
        }
        let mut requests = rows.finish(file, "records", &mut diags);
        // The send times are epoch ns (time.time_ns), as AIPerf's exports' samples are.
        requests.epoch_s = (t0 > 0).then_some(t0 as f64 * 1e-9);
        let point = common::requests_point(file, SUMMARY_ID, requests);
        Ok((
            common::one_run(
                common::with_trial("AIPerf".into(), file),
                RECORDS_ID,
                Metadata::default(),
                vec![point],
            ),
            diags,
        ))
    }
}

/// The profiling concurrency of a summary's `input_config`, in either layout.
fn config_concurrency(root: &Value) -> Option<f64> {
    if let Some(c) = num(root, "input_config.loadgen.concurrency") {
        return Some(c);
    }
    let phases = at(root, "input_config.phases")?;
    let list: Vec<&Value> = match phases {
        Value::Array(a) => a.iter().collect(),
        Value::Object(m) => m.values().collect(),
        _ => return None,
    };
    list.iter()
        .filter(|p| {
            common::first_text(p, &["name", "type", "phase"]).is_none_or(|n| !n.contains("warm"))
        })
        .filter_map(|p| num(p, "concurrency"))
        .reduce(f64::max)
}

/// A reasoning model's two first tokens: AIPerf's `time_to_first_token` is the first token of any
/// kind (a reasoning token included), `time_to_first_output_token` the first visible (content)
/// token, and its output throughput counts reasoning tokens. Said where the two differ.
fn reasoning_note(file: &str, figures: &BTreeMap<String, f64>, diags: &mut Vec<Diagnostic>) {
    let (Some(first), Some(visible)) = (
        figures.get("time_to_first_token.avg"),
        figures.get("time_to_first_output_token.avg"),
    ) else {
        return;
    };
    if (visible - first).abs() > 0.005 * first.abs() {
        let reasoning = figures
            .get("reasoning_token_count.avg")
            .map(|r| format!(" ({r:.0} reasoning tokens per request on average)"))
            .unwrap_or_default();
        diags.push(Diagnostic::info(
            file,
            "time_to_first_output_token",
            format!(
                "a reasoning model: first token (TTFT, reasoning included) {first:.1} ms, first visible token {visible:.1} ms; AIPerf's output token throughput counts reasoning tokens{reasoning} — a definitional difference from a content-only count"
            ),
        ));
    }
}

/// Parses `profile_export_aiperf.json`.
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let figures = summary_figures(
        file,
        root,
        &[
            "input_config",
            "telemetry_data",
            "error_summary",
            "run_info",
            "schema_version",
            "aiperf_version",
        ],
        &mut diags,
    );
    if figures.is_empty() {
        return Err(common::no_data(file, "no metric objects"));
    }
    let concurrency = config_concurrency(root)
        .or_else(|| num(root, "run_info.variation_values.concurrency"))
        .or_else(|| common::concurrency_from_name(file));
    let concurrency = common::level(file, "input_config.concurrency", concurrency, &mut diags);
    let model = common::first_text(
        root,
        &[
            "input_config.endpoint.model_names",
            "input_config.model_names",
            "input_config.model",
        ],
    );
    let version = common::text(root, "aiperf_version");
    let mut labels: BTreeMap<String, String> = version
        .map(|v| [("aiperf_version".to_owned(), v)].into())
        .unwrap_or_default();
    // How it was run, for "How this was run" (secrets are masked on import, `redact`).
    if let Some(c) = common::text(root, "input_config.cli_command") {
        labels.insert("command".into(), c);
    }
    let endpoint = [
        common::first_text(
            root,
            &["input_config.endpoint.urls", "input_config.endpoint.url"],
        ),
        common::text(root, "input_config.endpoint.type"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    if !endpoint.is_empty() {
        labels.insert("endpoint".into(), endpoint);
    }
    reasoning_note(file, &figures, &mut diags);
    let mut point = summary_point(file, SUMMARY_ID, concurrency, None, figures);
    point.telemetry = telemetry(root, &mut labels);
    Ok((
        common::one_run(
            common::with_trial(common::label("AIPerf", model.as_deref()), file),
            SUMMARY_ID,
            Metadata {
                model,
                labels,
                ..Metadata::default()
            },
            vec![point],
        ),
        diags,
    ))
}

/// The GPUs' energy and power from the summary's `telemetry_data` (AIPerf's DCGM telemetry:
/// `endpoints[url].gpus[gpu_N].metrics.{energy_consumption, gpu_power_usage}` with their units),
/// into the level's [`Telemetry`] — energy (each GPU's cumulative counter, max − min) and mean
/// power, summed over distinct GPUs (two exporters scraping one GPU, the same UUID, count it once,
/// at the mean of what they report), and the window — and the label naming the GPUs.
fn telemetry(root: &Value, labels: &mut BTreeMap<String, String>) -> Option<Telemetry> {
    let endpoints = root
        .pointer("/telemetry_data/endpoints")
        .and_then(Value::as_object)?;
    let mut gpus = super::telemetry::Gpus::default();
    for (url, e) in endpoints {
        let Some(list) = e.get("gpus").and_then(Value::as_object) else {
            continue;
        };
        for (key, g) in list {
            let id = g
                .get("gpu_uuid")
                .and_then(Value::as_str)
                .map_or_else(|| format!("{url}/{key}"), str::to_owned);
            // AIPerf's GPU-telemetry tutorial shows the names with an `nvidia_` prefix.
            let metric = |name: &str, alias: &str| {
                g.pointer(&format!("/metrics/{name}"))
                    .or_else(|| g.pointer(&format!("/metrics/{alias}")))
            };
            let energy = metric("energy_consumption", "nvidia_energy_consumption").and_then(|m| {
                let scale = super::telemetry::joules_per(m.get("unit")?.as_str()?)?;
                let (lo, hi) = (m.get("min")?.as_f64()?, m.get("max")?.as_f64()?);
                (hi >= lo).then_some((hi - lo) * scale)
            });
            let power = metric("gpu_power_usage", "nvidia_power_usage").and_then(|m| {
                let scale = super::telemetry::watts_per(m.get("unit")?.as_str()?)?;
                Some(m.get("avg")?.as_f64()? * scale)
            });
            let name = g.get("gpu_name").and_then(Value::as_str).unwrap_or("a GPU");
            gpus.add(id, name, url, energy, power);
        }
    }
    let mut telemetry = gpus.write(labels)?;
    // The window's length (the level's own, where a run gathers several files).
    let at = |k: &str| {
        root.pointer(&format!("/telemetry_data/summary/{k}"))
            .and_then(Value::as_str)
            .and_then(common::iso_seconds)
    };
    if let (Some(a), Some(b)) = (at("start_time"), at("end_time")) {
        telemetry.window_s = (b > a).then_some(b - a);
    }
    Some(telemetry)
}

/// A profiling record read straight from its bytes into [`RecordParts`]: the one reader of the
/// record's shape, for the chunked reader's bytes and the whole-file reader's values alike. Each
/// key is taken leniently (a repeated key's last value; a value of the wrong kind as absent; an
/// `error` that is not null as the request's failure, named by its `message`, `type` or `code`; a
/// `benchmark_phase` given in a list as its first item); a record that is not an object has no
/// parts, and the row reading says what it lacks.
mod typed {
    use std::fmt;

    use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

    use super::{unit_scale, RecordParts};
    use crate::lenient::{each_key, FromMap, FromSeq, Leaf, ListOr, ObjectOr, Text};

    pub(super) struct Record(pub RecordParts);

    /// A number as `common::num` reads it: finite or infinite, not NaN.
    fn number(l: &Leaf) -> Option<f64> {
        l.num().value()
    }

    impl<'de> Deserialize<'de> for Record {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Record;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a record")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Record, A::Error> {
                    let (mut error, mut meta, mut metrics) =
                        (Failure(None), Meta::default(), Metrics::default());
                    each_key(&mut map, &["error", "metadata", "metrics"], |key, map| {
                        match key {
                            "error" => error = map.next_value()?,
                            "metadata" => meta = map.next_value::<ObjectOr<Meta>>()?.0,
                            _ => metrics = map.next_value::<ObjectOr<Metrics>>()?.0,
                        }
                        Ok(())
                    })?;
                    Ok(Record(RecordParts {
                        error: error.0,
                        cancelled: meta.cancelled.as_bool() == Some(true),
                        sent: meta.sent.as_i64(),
                        warmup: meta.phase.0.as_deref() == Some("warmup"),
                        ttft: metrics.ttft.0,
                        e2e: metrics.e2e.0,
                        output_tokens: metrics.output.0.or(metrics.output_count.0),
                        input_tokens: metrics.input.0,
                        gaps: metrics.gaps.0,
                    }))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Record, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(Record(RecordParts::default()))
                }
                fn visit_i64<E>(self, _: i64) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
                fn visit_u64<E>(self, _: u64) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
                fn visit_f64<E>(self, _: f64) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
                fn visit_str<E>(self, _: &str) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
                fn visit_bool<E>(self, _: bool) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
                fn visit_unit<E>(self) -> Result<Record, E> {
                    Ok(Record(RecordParts::default()))
                }
            }
            d.deserialize_any(V)
        }
    }

    /// `error`: `None` when null; else the failure's words, its `message`, `type` or `code`
    /// (the first that is text), else "error".
    struct Failure(Option<String>);

    impl<'de> Deserialize<'de> for Failure {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Failure;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("any JSON value")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Failure, A::Error> {
                    let mut said: [Option<String>; 3] = Default::default();
                    let keys = ["message", "type", "code"];
                    each_key(&mut map, &keys, |key, map| {
                        let at = keys.iter().position(|k| *k == key).unwrap_or(0);
                        said[at] = map.next_value::<Text>()?.0;
                        Ok(())
                    })?;
                    let [m, t, c] = said;
                    Ok(Failure(Some(
                        m.or(t).or(c).unwrap_or_else(|| "error".into()),
                    )))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Failure, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(Failure(Some("error".into())))
                }
                fn visit_i64<E>(self, _: i64) -> Result<Failure, E> {
                    Ok(Failure(Some("error".into())))
                }
                fn visit_u64<E>(self, _: u64) -> Result<Failure, E> {
                    Ok(Failure(Some("error".into())))
                }
                fn visit_f64<E>(self, _: f64) -> Result<Failure, E> {
                    Ok(Failure(Some("error".into())))
                }
                fn visit_str<E>(self, _: &str) -> Result<Failure, E> {
                    Ok(Failure(Some("error".into())))
                }
                fn visit_bool<E>(self, _: bool) -> Result<Failure, E> {
                    Ok(Failure(Some("error".into())))
                }
                fn visit_unit<E>(self) -> Result<Failure, E> {
                    Ok(Failure(None))
                }
            }
            d.deserialize_any(V)
        }
    }

    /// `metadata`: the three keys the record's reading asks for.
    #[derive(Default)]
    struct Meta {
        sent: Leaf,
        cancelled: Leaf,
        phase: Text,
    }

    impl<'de> FromMap<'de> for Meta {
        fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Meta, A::Error> {
            let mut m = Meta::default();
            let keys = ["request_start_ns", "was_cancelled", "benchmark_phase"];
            each_key(&mut map, &keys, |key, map| {
                match key {
                    "request_start_ns" => m.sent = map.next_value()?,
                    "was_cancelled" => m.cancelled = map.next_value()?,
                    _ => m.phase = map.next_value()?,
                }
                Ok(())
            })?;
            Ok(m)
        }
    }

    /// `metrics`: the metrics the record's reading asks for.
    #[derive(Default)]
    struct Metrics {
        ttft: Seconds,
        e2e: Seconds,
        output: ValueOf,
        output_count: ValueOf,
        input: ValueOf,
        gaps: Gaps,
    }

    impl<'de> FromMap<'de> for Metrics {
        fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Metrics, A::Error> {
            let mut m = Metrics::default();
            let keys = [
                "time_to_first_token",
                "request_latency",
                "output_sequence_length",
                "output_token_count",
                "input_sequence_length",
                "inter_chunk_latency",
            ];
            each_key(&mut map, &keys, |key, map| {
                match key {
                    "time_to_first_token" => m.ttft = map.next_value()?,
                    "request_latency" => m.e2e = map.next_value()?,
                    "output_sequence_length" => m.output = map.next_value::<ObjectOr<_>>()?.0,
                    "output_token_count" => m.output_count = map.next_value::<ObjectOr<_>>()?.0,
                    "input_sequence_length" => m.input = map.next_value::<ObjectOr<_>>()?.0,
                    _ => m.gaps = map.next_value::<ObjectOr<_>>()?.0,
                }
                Ok(())
            })?;
            Ok(m)
        }
    }

    /// A metric in seconds, as `seconds` reads it: `{value, unit}` (ms unless the unit says
    /// otherwise), or a bare number (or numeric string) in ms.
    #[derive(Default)]
    struct Seconds(Option<f64>);

    impl Seconds {
        fn bare(l: Leaf) -> Seconds {
            Seconds(number(&l).map(|x| x * unit_scale(None)))
        }
    }

    impl<'de> Deserialize<'de> for Seconds {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Seconds;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("any JSON value")
                }
                fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Seconds, A::Error> {
                    let m = ValueUnit::from_map(map)?;
                    Ok(Seconds(
                        number(&m.value).map(|x| x * unit_scale(m.unit.as_str())),
                    ))
                }
                fn visit_i64<E>(self, v: i64) -> Result<Seconds, E> {
                    Ok(Seconds::bare(Leaf::Int(v)))
                }
                fn visit_u64<E>(self, v: u64) -> Result<Seconds, E> {
                    Ok(Seconds::bare(Leaf::UInt(v)))
                }
                fn visit_f64<E>(self, v: f64) -> Result<Seconds, E> {
                    Ok(Seconds::bare(Leaf::Float(v)))
                }
                fn visit_str<E>(self, v: &str) -> Result<Seconds, E> {
                    Ok(Seconds::bare(Leaf::Str(v.to_owned())))
                }
                fn visit_bool<E>(self, _: bool) -> Result<Seconds, E> {
                    Ok(Seconds(None))
                }
                fn visit_unit<E>(self) -> Result<Seconds, E> {
                    Ok(Seconds(None))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seconds, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(Seconds(None))
                }
            }
            d.deserialize_any(V)
        }
    }

    /// A metric object's `value` and `unit`.
    #[derive(Default)]
    struct ValueUnit {
        value: Leaf,
        unit: Leaf,
    }

    impl<'de> FromMap<'de> for ValueUnit {
        fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<ValueUnit, A::Error> {
            let mut m = ValueUnit::default();
            each_key(&mut map, &["value", "unit"], |key, map| {
                match key {
                    "value" => m.value = map.next_value()?,
                    _ => m.unit = map.next_value()?,
                }
                Ok(())
            })?;
            Ok(m)
        }
    }

    /// A metric's `value`, as `num(r, "metrics.<metric>.value")` reads it.
    #[derive(Default)]
    struct ValueOf(Option<f64>);

    impl<'de> FromMap<'de> for ValueOf {
        fn from_map<A: MapAccess<'de>>(map: A) -> Result<ValueOf, A::Error> {
            Ok(ValueOf(number(&ValueUnit::from_map(map)?.value)))
        }
    }

    /// `inter_chunk_latency`: its `value` list in seconds (NaN for an entry that is not a
    /// number), scaled by its `unit`; `None` when `value` is not a list.
    #[derive(Default)]
    struct Gaps(Option<Vec<f64>>);

    impl<'de> FromMap<'de> for Gaps {
        fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Gaps, A::Error> {
            let (mut values, mut unit) = (None, Leaf::Null);
            each_key(&mut map, &["value", "unit"], |key, map| {
                match key {
                    "value" => values = map.next_value::<ListOr<List>>()?.0 .0,
                    _ => unit = map.next_value()?,
                }
                Ok(())
            })?;
            let scale = unit_scale(unit.as_str());
            Ok(Gaps(values.map(|mut v| {
                v.iter_mut().for_each(|x| *x *= scale);
                v
            })))
        }
    }

    /// A list's entries as numbers (NaN for one that is not); `None` when it is not a list.
    #[derive(Default)]
    struct List(Option<Vec<f64>>);

    impl<'de> FromSeq<'de> for List {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<List, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(x) = seq.next_element::<Leaf>()? {
                out.push(x.num().or_nan());
            }
            Ok(List(Some(out)))
        }
    }
}
