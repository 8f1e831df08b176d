//! AIPerf's companion exports, written beside a level's `profile_export.jsonl`:
//! `server_metrics_export.jsonl` (one line per scrape of each Prometheus endpoint the run watched)
//! and `gpu_telemetry_export.jsonl` (one line per GPU per DCGM scrape). Neither is a benchmark on
//! its own: each parses into one point without requests, on the wall clock (epoch seconds), that
//! `crate::group` attaches to the records of its level (the same folder, else the records nearest
//! in time) — the server's series put on the records' clock, the GPUs' energy and power over the
//! telemetry window given to the level. Read from the layout AIPerf's source writes
//! (`server_metrics/jsonl_writer.py`, `gpu_telemetry/`; ai-dynamo/aiperf): the GPU telemetry from
//! real files (tests/fixtures/aiperf/telemetry-c*/), the server metrics from its schema (no run's
//! file of it is public).

use std::collections::BTreeMap;

use serde_json::Value;

use super::aiperf::SUMMARY_ID;
use super::common::{self, at, read_values};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Telemetry};
use crate::server::{
    canonical_family, combine, merge_sources, ServerMetric, ServerSeries, ServerStats,
};

/// Format id of `server_metrics_export.jsonl`.
pub const SERVER_METRICS_ID: &str = "aiperf-server-metrics";
/// Format id of `gpu_telemetry_export.jsonl`.
pub const GPU_TELEMETRY_ID: &str = "aiperf-gpu-telemetry";

/// AIPerf `server_metrics_export.jsonl` (or `<prefix>_server_metrics.jsonl`).
pub const SERVER_METRICS_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfServerMetrics,
    detect: |has, _| has("\"endpoint_url\"") && has("\"timestamp_ns\"") && has("\"metrics\""),
    keys: &[
        "endpoint_url",
        "timestamp_ns",
        "metrics",
        "endpoint_latency_ns",
    ],
    parse: |f, b, _| parse_server_metrics(f, b),
    summary_partners: &[],
    stream: None,
};

/// AIPerf `gpu_telemetry_export.jsonl` (or `<prefix>_gpu_telemetry.jsonl`).
pub const GPU_TELEMETRY_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfGpuTelemetry,
    detect: |has, _| has("\"gpu_uuid\"") && has("\"telemetry_data\"") && has("\"timestamp_ns\""),
    keys: &["timestamp_ns", "gpu_uuid", "telemetry_data", "dcgm_url"],
    parse: |f, b, _| parse_gpu_telemetry(f, b),
    summary_partners: &[],
    stream: None,
};

/// A line's epoch-ns timestamp, in seconds.
fn epoch_s(line: &Value) -> Option<f64> {
    at(line, "timestamp_ns")
        .and_then(Value::as_f64)
        .filter(|t| *t > 0.0)
        .map(|t| t * 1e-9)
}

/// What a companion export carries to its level.
enum Carries {
    /// The server's metrics over time.
    Series(Box<ServerSeries>),
    /// The GPUs' energy and power.
    Gpus(Telemetry),
    /// AIPerf's statistics of the server's metrics.
    Stats(Box<ServerStats>),
}

/// The companion's one point: what it carries, its place in time (where the file dates it).
fn companion(
    file: &str,
    tool: &str,
    carries: Carries,
    span: Option<(f64, f64)>,
    meta: Metadata,
) -> Report {
    let mut point = common::summary_point(file, SUMMARY_ID, None, None, BTreeMap::new());
    point.epoch_window_s = span;
    match carries {
        Carries::Series(s) => point.server = Some(*s),
        Carries::Gpus(t) => point.telemetry = Some(t),
        Carries::Stats(s) => point.server_stats = Some(s),
    }
    common::one_run(
        common::with_trial("AIPerf".into(), file),
        tool,
        meta,
        vec![point],
    )
}

/// Parses `server_metrics_export.jsonl`: each line `{endpoint_url, timestamp_ns, metrics:
/// {family: [{labels?, value} | {labels?, buckets, sum, count}]}}`. The families tpsview knows
/// ([`canonical_family`]: counters keyed without `_total`, as Python's prometheus_client names
/// them) are read per scrape, summed over their label sets ([`combine`]); histograms are not
/// read. Several endpoints (replicas) are summed at each scrape, each holding its last value.
/// AIPerf leaves out a scrape whose text did not change: the value before it holds.
pub fn parse_server_metrics(
    file: &str,
    bytes: &[u8],
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let lines = read_values(file, bytes, &mut diags)?;
    // (time, endpoint, values) of every scrape with a known metric.
    let mut scrapes: Vec<(f64, usize, BTreeMap<ServerMetric, f64>)> = Vec::new();
    let mut endpoints: Vec<String> = Vec::new();
    let mut unknown_time = 0usize;
    for line in &lines {
        let Some(t) = epoch_s(line) else {
            unknown_time += 1;
            continue;
        };
        let url = common::text(line, "endpoint_url").unwrap_or_else(|| "an endpoint".into());
        let Some(families) = line.get("metrics").and_then(Value::as_object) else {
            continue;
        };
        let samples = families.iter().filter_map(|(name, s)| {
            let m = canonical_family(name)?;
            Some(
                s.as_array()?
                    .iter()
                    .filter_map(move |x| Some((m, x.get("value")?.as_f64()?))),
            )
        });
        let values = combine(samples.flatten());
        if values.is_empty() {
            continue;
        }
        let e = match endpoints.iter().position(|u| *u == url) {
            Some(e) => e,
            None => {
                endpoints.push(url);
                endpoints.len() - 1
            }
        };
        scrapes.push((t, e, values));
    }
    if unknown_time > 0 {
        diags.push(Diagnostic::warning(
            file,
            "timestamp_ns",
            None,
            format!("{unknown_time} line(s) without a timestamp_ns: left out"),
        ));
    }
    if scrapes.is_empty() {
        return Err(common::no_data(
            file,
            "no scrape with a metric tpsview reads (running, waiting, KV-cache, token and decode counters under vLLM's, SGLang's, llama.cpp's or TGI's names)",
        ));
    }
    let sources = endpoints.len();
    let Some((t_s, values)) = merge_sources(scrapes, sources) else {
        return Err(common::no_data(
            file,
            "no scrape with every endpoint reported",
        ));
    };
    let (from, to) = (t_s[0], t_s[t_s.len() - 1]);
    let series = ServerSeries {
        source: format!("AIPerf's scrapes of {}", endpoints.join(", ")),
        t_s,
        values,
    };
    Ok((
        companion(
            file,
            SERVER_METRICS_ID,
            Carries::Series(Box::new(series)),
            Some((from, to)),
            Metadata::default(),
        ),
        diags,
    ))
}

/// Parses `gpu_telemetry_export.jsonl`: each line one GPU at one scrape, `{timestamp_ns,
/// dcgm_url | telemetry_source_url, gpu_uuid, gpu_model_name, telemetry_data: {gpu_power_usage
/// (W), energy_consumption (MJ: DCGM's counter since the GPU started), …}}`. Per GPU and exporter:
/// the counter's rise from its first sample to its last (undefined where it goes down) and the
/// mean power; summed over distinct GPUs, two exporters of one GPU counted once (see
/// `formats::telemetry`).
pub fn parse_gpu_telemetry(
    file: &str,
    bytes: &[u8],
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let lines = read_values(file, bytes, &mut diags)?;
    // (gpu, exporter) → (name, samples of (t, power W, energy J)).
    type Samples = Vec<(f64, Option<f64>, Option<f64>)>;
    let mut series: Vec<((String, String), String, Samples)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (Some(t), Some(data)) = (epoch_s(line), line.get("telemetry_data")) else {
            diags.push(Diagnostic::warning(
                file,
                &format!("[{i}]"),
                Some(i),
                "no timestamp_ns or telemetry_data: left out",
            ));
            continue;
        };
        let source = common::first_text(line, &["dcgm_url", "telemetry_source_url"])
            .unwrap_or_else(|| "an exporter".into());
        let gpu = common::text(line, "gpu_uuid")
            .or_else(|| at(line, "gpu_index").map(|g| format!("{source}/gpu_{g}")))
            .unwrap_or_else(|| format!("{source}/a GPU"));
        let name = common::text(line, "gpu_model_name").unwrap_or_else(|| "a GPU".into());
        let num = |k: &str| {
            data.get(k)
                .and_then(Value::as_f64)
                .filter(|v| v.is_finite())
        };
        let sample = (
            t,
            num("gpu_power_usage"),
            num("energy_consumption").map(|mj| mj * 1e6),
        );
        let key = (gpu, source);
        match series.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.2.push(sample),
            None => series.push((key, name, vec![sample])),
        }
    }
    if series.is_empty() {
        return Err(common::no_data(file, "no GPU sample with a timestamp_ns"));
    }
    let mut gpus = super::telemetry::Gpus::default();
    let (mut from, mut to) = (f64::INFINITY, f64::NEG_INFINITY);
    for ((gpu, source), name, mut samples) in series {
        samples.sort_by(|a, b| a.0.total_cmp(&b.0));
        from = from.min(samples[0].0);
        to = to.max(samples[samples.len() - 1].0);
        let energy: Vec<f64> = samples.iter().filter_map(|s| s.2).collect();
        let rise = match (energy.first(), energy.last()) {
            (Some(a), Some(b)) if energy.len() > 1 => {
                if energy.windows(2).any(|w| w[1] < w[0]) {
                    diags.push(Diagnostic::warning(
                        file,
                        "telemetry_data.energy_consumption",
                        None,
                        format!("{name} ({gpu}) via {source}: the energy counter went down (a reset): no energy from it"),
                    ));
                    None
                } else {
                    Some(b - a)
                }
            }
            _ => None,
        };
        let power: Vec<f64> = samples.iter().filter_map(|s| s.1).collect();
        let mean_power =
            (!power.is_empty()).then(|| crate::stats::sum(&power) / power.len() as f64);
        gpus.add(gpu, &name, &source, rise, mean_power);
    }
    let mut meta = Metadata::default();
    let mut telemetry = gpus.write(&mut meta.labels).unwrap_or_default();
    if to > from {
        telemetry.window_s = Some(to - from);
    }
    if telemetry.energy_j.is_none() && telemetry.mean_power_w.is_none() {
        return Err(common::no_data(
            file,
            "no gpu_power_usage or energy_consumption in telemetry_data",
        ));
    }
    Ok((
        companion(
            file,
            GPU_TELEMETRY_ID,
            Carries::Gpus(telemetry),
            Some((from, to)),
            meta,
        ),
        diags,
    ))
}

mod stats;
pub use stats::{SERVER_STATS_ID, SERVER_STATS_SPEC};

#[cfg(test)]
mod tests;
