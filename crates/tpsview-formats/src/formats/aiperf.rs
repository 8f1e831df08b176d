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
                // Late 2025: metric objects under `records`, keyed by tag (`records_lifted`).
                || (has("\"records\"") && has("\"tag\": \"ttft\"")))
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

/// AIPerf's summary of late 2025 (ai-dynamo/aiperf `examples/artifacts/run1`, 2025-10-03) keeps
/// its metric objects under `records`, each keyed by its tag with `tag` and `header` inside, and
/// names two by short tags (`ttft`, `ttst`); later versions write them at the top level under
/// the long names. The root with the records lifted to the top level under those names (the
/// document itself where it has no such `records`).
fn records_lifted(root: &Value) -> Value {
    let Some(records) = root.get("records").and_then(Value::as_object) else {
        return root.clone();
    };
    if !records.values().any(|r| r.get("tag").is_some()) {
        return root.clone();
    }
    let mut out = root.as_object().cloned().unwrap_or_default();
    out.remove("records");
    for (tag, r) in records {
        let name = match tag.as_str() {
            "ttft" => "time_to_first_token",
            "ttst" => "time_to_second_token",
            t => t,
        };
        let mut r = r.clone();
        if let Some(o) = r.as_object_mut() {
            o.remove("tag");
            o.remove("header");
        }
        out.entry(name.to_owned()).or_insert(r);
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
