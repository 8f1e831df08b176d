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
use crate::requests::RowFacts;

/// Format id of `profile_export.jsonl`.
pub const RECORDS_ID: &str = "aiperf-records";

/// AIPerf `profile_export.jsonl` (per-request records).
pub const RECORDS_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfRecords,
    // Before AIPerf 0.1 a record's send time was `timestamp_ns` and its phase `credit_phase`.
    detect: |has, _| {
        has("\"metrics\"")
            && (has("\"request_start_ns\"") || has("\"timestamp_ns\"") && has("\"credit_phase\""))
    },
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
            && (has("\"time_to_first_token\"")
                // Late 2025: metric objects under `records`, keyed by tag; before 0.1, keyed by
                // display name (`records_lifted`).
                || (has("\"records\"") && has("\"tag\": \"ttft\"")))
            || (has("\"input_config\"")
                && (has("\"Time to First Token") || has("\"Request Latency\"")))
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
    /// Its session (`x_correlation_id`, the instance of a conversation; else `session_num`,
    /// else `conversation_id`, the dataset's template) and `turn_index`; `reasoning_token_count`;
    /// `time_to_first_output_token` (the first content token) in seconds.
    facts: RowFacts,
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
        facts: RowFacts::default(),
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
    fn parts(&mut self, i: usize, mut r: RecordParts, diags: &mut Vec<Diagnostic>) {
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
            let facts = std::mem::take(&mut r.facts);
            let mut row = record_row(&self.file, i, r, diags);
            row.facts = facts;
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

/// A metric's name as later AIPerf writes it, from an earlier one's: a short tag (`ttft`,
/// `ttst`) or a display name (`Time to First Token (TTFT)`, `Maximum Response Timestamp`).
fn metric_name(key: &str) -> String {
    match key {
        "ttft" => return "time_to_first_token".into(),
        "ttst" => return "time_to_second_token".into(),
        _ => {}
    }
    if !key.contains(' ') {
        return key.to_owned();
    }
    // A display name: without its `(ABBR)`, in snake case.
    let base = key
        .split(" (")
        .next()
        .unwrap_or(key)
        .trim()
        .to_ascii_lowercase();
    let snake = base.split_whitespace().collect::<Vec<_>>().join("_");
    snake
        .replacen("maximum_", "max_", 1)
        .replacen("minimum_", "min_", 1)
}

/// Whether a value is one of AIPerf's metric objects (a unit or an average inside).
fn is_metric(v: &Value) -> bool {
    v.get("avg").is_some() || v.get("unit").is_some()
}

/// AIPerf's summaries before its metrics sat at the top level under their long names (#343,
/// 2025-10-10): in late 2025 (ai-dynamo/aiperf `examples/artifacts/run1`, 2025-10-03) under
/// `records`, each keyed by its tag with `tag` and `header` inside (`ttft`, `ttst`); before 0.1
/// (main, 2025-06-26 to 2025-07-09: `data_exporter/json_exporter.py` at cfa53de2, lines 23–31,
/// `{record.name: record.to_dict()}` with `record.py` lines 10–28) keyed by display name, at the
/// top level or under `records`. The root with the metric objects lifted to the top level under
/// the later names (the document itself where it has none of those).
fn records_lifted(root: &Value) -> Value {
    let Some(obj) = root.as_object() else {
        return root.clone();
    };
    let records = obj
        .get("records")
        .and_then(Value::as_object)
        .filter(|r| r.values().any(is_metric));
    let displayed = obj.iter().any(|(k, v)| k.contains(' ') && is_metric(v));
    if records.is_none() && !displayed {
        return root.clone();
    }
    let mut out = serde_json::Map::new();
    let lifted = |key: &str, v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            for k in ["tag", "header", "name", "streaming_only"] {
                o.remove(k);
            }
        }
        (metric_name(key), v)
    };
    for (k, v) in records.into_iter().flatten() {
        let (k, v) = lifted(k, v);
        out.entry(k).or_insert(v);
    }
    for (k, v) in obj {
        if k == "records" && records.is_some() {
            continue;
        }
        let (k, v) = if k.contains(' ') && is_metric(v) {
            lifted(k, v)
        } else {
            (k.clone(), v.clone())
        };
        out.entry(k).or_insert(v);
    }
    Value::Object(out)
}

/// Parses `profile_export_aiperf.json`.
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let root = &records_lifted(&values[0]);
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

/// The one reader of a profiling record's shape.
mod typed;

#[cfg(test)]
mod tests {
    use super::*;

    /// AIPerf before 0.1, as its source wrote the summary (ai-dynamo/aiperf cfa53de2:
    /// `data_exporter/json_exporter.py` lines 23–31, `{record.name: record.to_dict()}` plus
    /// `input_config`; `data_exporter/record.py` lines 10–28: `unit`, `avg`, `min`, `max`, `p1`…
    /// `p99`, `std`, `streaming_only`, the None ones left out), and the variant with the same
    /// objects under `records`. No public file of these was found outside a repository reserved
    /// for acceptance checks; the values here are made up.
    #[test]
    fn display_name_keys_before_0_1_read_as_the_later_names() {
        let flat = br#"{"Time to First Token (TTFT)": {"unit": "ms", "avg": 120.5, "min": 80.0, "max": 300.0, "p50": 110.0, "p99": 290.0, "streaming_only": true},
 "Request Latency": {"unit": "ms", "avg": 2400.0, "p50": 2300.0},
 "Request Throughput": {"unit": "requests/sec", "avg": 3.2},
 "Benchmark Duration": {"unit": "sec", "avg": 10.0},
 "Maximum Response Timestamp": {"unit": "ns", "avg": 1.7e18},
 "input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 8}}}"#;
        let nested = br#"{"records": {"Time to First Token": {"name": "Time to First Token", "unit": "ms", "avg": 120.5, "count": 40, "streaming_only": true},
 "Inter Token Latency": {"name": "Inter Token Latency", "unit": "ms", "avg": 12.0}},
 "input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 8}},
 "was_cancelled": false, "errors_by_type": [], "start_time": "2025-07-01T00:00:00", "end_time": "2025-07-01T00:00:10"}"#;
        for (name, doc) in [("flat.json", &flat[..]), ("nested.json", &nested[..])] {
            assert_eq!(
                crate::formats::detect(doc),
                Some(Format::AiperfSummary),
                "{name}"
            );
            let (report, _) = parse_summary(name, doc).unwrap();
            let p = &report.runs[0].points[0];
            assert_eq!(p.concurrency, Some(8.0), "{name}");
            let f = &p.reported.figures;
            assert_eq!(
                f.get("time_to_first_token.avg"),
                Some(&120.5),
                "{name}: {f:?}"
            );
            assert!(!f.keys().any(|k| k.contains("streaming_only")), "{f:?}");
        }
        let (report, _) = parse_summary("flat.json", flat).unwrap();
        let f = &report.runs[0].points[0].reported.figures;
        assert_eq!(f.get("request_latency.p50"), Some(&2300.0));
        assert_eq!(f.get("request_throughput.avg"), Some(&3.2));
        assert!(f.contains_key("max_response_timestamp.avg"), "{f:?}");
        assert_eq!(
            metric_name("Output Token Throughput Per User"),
            "output_token_throughput_per_user"
        );
    }
}
