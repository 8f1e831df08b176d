//! AIPerf's aggregate of the server's metrics: `server_metrics_export.json` and
//! `server_metrics_export.csv` (`<prefix>_server_metrics.json|csv`), the two server-metrics files
//! AIPerf writes by default (its `.jsonl` of every scrape is opt-in). Each holds, per metric family
//! and per series (endpoint × label set), AIPerf's statistics over its profiling window (warm-up
//! left out): a gauge's `avg`, percentiles, `max` over its scrapes; a counter's `total` (its rise
//! from the last scrape before profiling to the last in the window) and `rate` (that rise per
//! second between those scrapes). No time series: the level gets its server figures (the batch
//! it ran, its queue, KV-cache, the server's generation T/s) but no panel over time.
//!
//! Read from AIPerf's source (`server_metrics/json_exporter.py`, `export_stats.py`,
//! `csv_exporter.py`; ajcasagrande/aiperf @ 1cdae727) and from real CSV exports (AIPerf 0.8.0,
//! SemiAnalysisAI/InferenceX: tests/fixtures/aiperf/inferencex-server-stats/). Both files become
//! one JSON shape — `metrics: {family: {type, series: [{endpoint_url, stats}]}}` — read by one
//! function.

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

use super::super::common;
use super::super::{Format, FormatSpec};
use super::{companion, Carries};
use crate::error::{Diagnostic, ParseError};
use crate::model::Metadata;
use crate::server::{canonical_family, ServerMetric, ServerStats, WindowStat, STATS_SOURCE_LABEL};

/// Format id of `server_metrics_export.json` and `.csv`.
pub const SERVER_STATS_ID: &str = "aiperf-server-stats";

/// AIPerf `server_metrics_export.json` / `.csv`.
pub const SERVER_STATS_SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfServerStats,
    // AIPerf's summary names `endpoints_configured` too (in its telemetry_data): a summary has
    // time_to_first_token, this file only families' series.
    detect: |has, _| {
        has("# AIPerf Server Metrics Export")
            || (has("\"series\"")
                && has("\"endpoint_url\"")
                && has("\"stats\"")
                && !has("\"time_to_first_token\""))
    },
    keys: &["metrics", "series", "stats", "endpoint_url", "summary"],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// The statistics of a gauge and of a counter that tpsview reads: AIPerf's name, tpsview's.
const GAUGE_STATS: [(&str, WindowStat); 3] = [
    ("avg", WindowStat::Mean),
    ("p50", WindowStat::P50),
    ("max", WindowStat::Max),
];
const COUNTER_STATS: [(&str, WindowStat); 2] =
    [("total", WindowStat::Total), ("rate", WindowStat::Rate)];

/// Parses either file into the level's [`ServerStats`]: gauges summed over their series
/// (KV-cache usage averaged), their `p50` and `max` only where one series has them (a median or
/// maximum of a sum is not the sum of theirs); counters' `total` and `rate` summed.
pub fn parse(
    file: &str,
    bytes: &[u8],
) -> Result<(crate::model::Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let csv = bytes.trim_ascii_start().first() != Some(&b'{');
    let doc = if csv {
        from_csv(bytes)
    } else {
        let mut values = common::read_values(file, bytes, &mut diags)?;
        values.swap_remove(0)
    };
    let Some(families) = doc.get("metrics").and_then(Value::as_object) else {
        return Err(common::no_data(file, "no `metrics` object"));
    };
    // Per metric: the family read (the first of the engine's names for it), its series' stats.
    type Stats<'a> = Vec<&'a Map<String, Value>>;
    let mut taken: BTreeMap<ServerMetric, (&str, Stats)> = BTreeMap::new();
    let mut endpoints: Vec<String> = Vec::new();
    for (name, family) in families {
        let Some(m) = canonical_family(name) else {
            continue;
        };
        let series: Vec<&Value> = family
            .get("series")
            .and_then(Value::as_array)
            .map(|s| s.iter().collect())
            .unwrap_or_default();
        for s in &series {
            if let Some(url) = common::text(s, "endpoint_url") {
                if !endpoints.contains(&url) {
                    endpoints.push(url);
                }
            }
        }
        let stats = series
            .iter()
            .filter_map(|s| s.get("stats")?.as_object())
            .collect::<Vec<_>>();
        if stats.is_empty() || taken.contains_key(&m) {
            continue;
        }
        taken.insert(m, (name.as_str(), stats));
    }
    let mut stats = ServerStats::default();
    for (m, (name, series)) in &taken {
        let names: &[(&str, WindowStat)] = if m.is_counter() {
            &COUNTER_STATS
        } else {
            &GAUGE_STATS
        };
        for &(stat, kind) in names {
            let values: Vec<f64> = series
                .iter()
                .filter_map(|s| s.get(stat)?.as_f64())
                .filter(|v| v.is_finite())
                .collect();
            if values.len() != series.len() {
                if !values.is_empty() {
                    diags.push(Diagnostic::warning(
                        file,
                        &format!("metrics.{name}.series[].stats.{stat}"),
                        None,
                        format!(
                            "{} of its {} series have it: left out",
                            values.len(),
                            series.len()
                        ),
                    ));
                }
                continue;
            }
            let sum = crate::stats::sum(&values);
            let v = match (stat, m) {
                (_, ServerMetric::KvUsage) if stat == "avg" => sum / values.len() as f64,
                ("avg" | "total" | "rate", _) => sum,
                _ if values.len() == 1 => values[0],
                _ => continue,
            };
            stats.set(*m, kind, v);
        }
    }
    if stats.is_empty() {
        return Err(common::no_data(
            file,
            "no statistics of a metric tpsview reads (running, waiting, KV-cache, token and decode counters under vLLM's, SGLang's, llama.cpp's or TGI's names)",
        ));
    }
    // The JSON dates the scrapes (epoch ns), so that it can be placed among records by time; the
    // CSV does not: it is attached by its folder only.
    let span = doc
        .get("summary")
        .and_then(|s| s.get("endpoint_info"))
        .and_then(Value::as_object)
        .and_then(|info| {
            let ends = |k: &str| -> Vec<f64> {
                info.values()
                    .filter_map(|e| e.get(k)?.as_f64())
                    .filter(|t| *t > 0.0)
                    .map(|t| t * 1e-9)
                    .collect()
            };
            let from = ends("first_update_ns")
                .into_iter()
                .fold(f64::INFINITY, f64::min);
            let to = ends("last_update_ns")
                .into_iter()
                .fold(f64::NEG_INFINITY, f64::max);
            (from <= to).then_some((from, to))
        });
    let mut meta = Metadata::default();
    let kind = if csv { "csv" } else { "json" };
    meta.labels.insert(
        STATS_SOURCE_LABEL.into(),
        format!(
            "AIPerf's server_metrics_export.{kind}: its statistics of its scrapes of {} over its profiling window",
            if endpoints.is_empty() {
                "the server".to_owned()
            } else {
                endpoints.join(", ")
            }
        ),
    );
    if span.is_none() {
        diags.push(Diagnostic::info(
            file,
            "summary.endpoint_info",
            "no scrape times: it joins the AIPerf level in its own folder",
        ));
    }
    let mut report = companion(
        file,
        SERVER_STATS_ID,
        Carries::Stats(Box::new(stats)),
        span,
        meta,
    );
    // The JSON's copy of the run's configuration names the level, for records that do not.
    if let Some(p) = report.runs.iter_mut().flat_map(|r| &mut r.points).next() {
        p.concurrency = common::at(&doc, "input_config.loadgen.concurrency")
            .and_then(Value::as_f64)
            .filter(|c| *c > 0.0);
    }
    Ok((report, diags))
}

/// The CSV's sections (gauges, counters, histograms, info: each a header line `Endpoint,…` and
/// its rows, a blank line after) as the JSON export's `metrics`.
fn from_csv(bytes: &[u8]) -> Value {
    let text = String::from_utf8_lossy(bytes);
    let mut families: Map<String, Value> = Map::new();
    let mut header: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            header.clear();
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let cells = common::csv_fields(line);
        if header.is_empty() {
            header = cells;
            continue;
        }
        let cell = |h: &str| {
            header
                .iter()
                .position(|x| x == h)
                .and_then(|i| cells.get(i))
                .map(|c| c.trim())
        };
        let (Some(kind), Some(name)) = (cell("Type"), cell("Metric")) else {
            continue;
        };
        let mut stats = Map::new();
        for (h, c) in header.iter().zip(&cells) {
            if let Some(v) = c.trim().parse::<f64>().ok().filter(|v| v.is_finite()) {
                stats.insert(h.clone(), json!(v));
            }
        }
        let family = families
            .entry(name.to_owned())
            .or_insert_with(|| json!({"type": kind, "series": []}));
        if let Some(series) = family.get_mut("series").and_then(Value::as_array_mut) {
            series.push(
                json!({"endpoint_url": cell("Endpoint").unwrap_or_default(), "stats": stats}),
            );
        }
    }
    json!({ "metrics": families })
}
