//! GenAI-Perf's summaries: `profile_export_genai_perf.json` (its statistics, its configuration,
//! its GPU telemetry) and `.csv` (the same statistics as a table); AIPerf's summary shares the
//! figures' reading.

use std::collections::BTreeMap;

use serde_json::Value;

use super::super::common::{self, at, csv_fields, read_values, summary_point};
use super::super::{strip_bom, telemetry};
use super::{meta, CSV_ID, SUMMARY_ID};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};

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
    let energy = scaled("energy_consumption", telemetry::joules_per);
    let power = scaled("gpu_power_usage", telemetry::watts_per);
    let mut keys: Vec<&String> = energy
        .iter()
        .chain(power.iter())
        .flat_map(|(m, _)| m.keys())
        .filter(|k| *k != "unit")
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut gpus = telemetry::Gpus::default();
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
    let text = String::from_utf8_lossy(strip_bom(bytes));
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
