//! SemiAnalysis InferenceX (formerly InferenceMAX) results: the aggregated `agg_<name>.json` its
//! `utils/process_result.py` writes per benchmark (one object), and its app's API rows (a JSON
//! array of results, the figures under `metrics`). One point per result, as reported (the per-GPU
//! figures of a vLLM-style `benchmark_serving.py` run; no per-request data).
//!
//! What InferenceX writes, and how tpsview reads it:
//! - the GPU counts: `tp` on one node (the GPUs of the server), else `num_prefill_gpu` +
//!   `num_decode_gpu` (disaggregated prefill and decode, `disagg`);
//! - `tput_per_gpu` = total (input + output) tokens/s ÷ all GPUs; `output_tput_per_gpu` = output
//!   tokens/s ÷ the GPUs that decode (`tp`, or `num_decode_gpu` when disaggregated — not all of
//!   them); `input_tput_per_gpu` = input tokens/s ÷ the prefill GPUs. tpsview's system T/s is
//!   `output_tput_per_gpu` × those decode GPUs, and its per-GPU view divides by every GPU;
//! - latencies in seconds (vLLM's `_ms` keys ÷ 1000); `*_intvty` = 1000 ÷ the matching TPOT in ms
//!   (`mean_intvty` = 1 ÷ mean TPOT is tpsview's per-stream T/s, audited as such);
//! - measured power, where its `utils/aggregate_power.py` patched it in (`power_valid`,
//!   `avg_power_w` per GPU, `avg_total_gpu_power_w`, `total_gpu_energy_j`, `joules_per_*`): kept
//!   as figures, read by [`crate::energy`].

pub use crate::tools::inferencex::{ID, VOCABULARY};

mod agentic;
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, num, read_values, text};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run};

/// InferenceX `agg_*.json` and API rows.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Inferencex,
    detect: |has, _| {
        (has("\"tput_per_gpu\"") && has("\"conc\"") && (has("\"hw\"") || has("\"hardware\"")))
            // Agentic results (both layouts): the scenario and InferenceX's model prefix.
            || (has("\"scenario_type\"")
                && has("\"infmax_model_prefix\"")
                && (has("\"request_metrics\"") || has("\"output_tput_tps\"")))
    },
    keys: &[
        "tput_per_gpu",
        "conc",
        "hw",
        "hardware",
        "output_tput_per_gpu",
        "mean_intvty",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Parses an `agg_*.json` (one object) or API rows (an array of them, figures under `metrics`).
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let rows: Vec<&Value> = values
        .iter()
        .flat_map(|v| match v {
            Value::Array(a) => a.iter().collect::<Vec<_>>(),
            v => vec![v],
        })
        .collect();
    let mut runs: Vec<Run> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let index = (rows.len() > 1).then_some(i);
        let Some((run, point)) = read_row(file, index, row, &mut diags) else {
            continue;
        };
        match runs
            .iter_mut()
            .find(|r| r.label == run.label && r.meta == run.meta)
        {
            Some(r) => r.points.push(point),
            None => runs.push(Run {
                points: vec![point],
                ..run
            }),
        }
    }
    if runs.is_empty() {
        return Err(common::none_usable(
            file,
            "no usable InferenceX result (an object with `hw` or `hardware`, `conc` and `output_tput_per_gpu`)",
            &diags,
        ));
    }
    Ok((
        Report {
            meta: Metadata::default(),
            runs,
        },
        diags,
    ))
}

/// The head of a run's name: the model, the hardware, the engine and precision (where given).
fn name_parts(
    model: &Option<String>,
    hw: &Option<String>,
    framework: &Option<String>,
    precision: &Option<String>,
) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(model.clone());
    parts.extend(hw.clone());
    parts.extend(
        [framework.clone(), precision.clone()]
            .into_iter()
            .flatten()
            .reduce(|a, b| format!("{a} {b}")),
    );
    parts
}

/// A flag as InferenceX writes it: `true`, `"true"`, `"True"`.
fn flag(v: &Value, key: &str) -> Option<bool> {
    match at(v, key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// One result: `index` is its place in an array of them (`None` for an agg file's one object).
fn read_row(
    file: &str,
    index: Option<usize>,
    row: &Value,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Run, crate::model::Point)> {
    let field = |k: &str| match index {
        Some(i) => format!("[{i}].{k}"),
        None => k.to_owned(),
    };
    if agentic::is_agentic(row) {
        let source = match index {
            Some(i) => format!("{file}#{}", i + 1),
            None => file.to_owned(),
        };
        return agentic::read_row(file, source, row, diags);
    }
    // API rows keep the figures under `metrics`; an agg file beside the configuration.
    let figures_of = at(row, "metrics").filter(|m| m.is_object()).unwrap_or(row);
    let hw = text(row, "hw").or_else(|| text(row, "hardware"));
    let Some(per_gpu) = num(figures_of, "output_tput_per_gpu") else {
        diags.push(Diagnostic::warning(
            file,
            &field("output_tput_per_gpu"),
            None,
            "missing or not a number: this result is left out",
        ));
        return None;
    };
    let conc = num(row, "conc");
    let disagg = flag(row, "disagg").unwrap_or(false);
    let (prefill, decode) = (num(row, "num_prefill_gpu"), num(row, "num_decode_gpu"));
    let tp = num(row, "tp");
    let (decode_gpus, all_gpus) = match (disagg || prefill.is_some(), prefill, decode, tp) {
        (true, Some(p), Some(d), _) => (Some(d), Some(p + d)),
        (_, _, _, Some(t)) => (Some(t), Some(t)),
        _ => (None, None),
    };
    let good = |n: Option<f64>| n.filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n < 1e6);
    let (decode_gpus, all_gpus) = (good(decode_gpus), good(all_gpus));
    let mut figures: BTreeMap<String, f64> = BTreeMap::new();
    if let Some(obj) = figures_of.as_object() {
        for (k, v) in obj {
            if let Some(x) = v.as_f64().filter(|x| x.is_finite()) {
                figures.insert(k.clone(), x);
            }
        }
    }
    match decode_gpus {
        Some(d) => {
            figures.insert("output_throughput".into(), per_gpu * d);
        }
        None => diags.push(Diagnostic::warning(
            file,
            &field(if disagg { "num_decode_gpu" } else { "tp" }),
            None,
            "no GPU count: output_tput_per_gpu cannot be turned into system T/s",
        )),
    }
    if let (true, Some(d), Some(a)) = (disagg, decode_gpus, all_gpus) {
        diags.push(Diagnostic::info(
            file,
            &field("output_tput_per_gpu"),
            format!(
                "disaggregated: InferenceX divides output tokens/s by the {d} decode GPUs ({per_gpu:.1} per GPU); over all {a} GPUs it is {:.1} per GPU, as tpsview's per-GPU view counts",
                per_gpu * d / a
            ),
        ));
    }
    if figures.get("power_valid") == Some(&0.0) {
        diags.push(Diagnostic::info(
            file,
            &field("power_valid"),
            "InferenceX's power measurement failed its own checks (power_valid 0; the reasons are in its power_validation_*.json): no energy for this result",
        ));
    }
    let model = text(row, "model").or_else(|| text(row, "infmax_model_prefix"));
    let framework = text(row, "framework");
    let precision = text(row, "precision");
    let spec = text(row, "spec_decoding")
        .or_else(|| text(row, "spec_method"))
        .filter(|s| !s.eq_ignore_ascii_case("none") && !s.is_empty());
    let mut labels = BTreeMap::new();
    for k in [
        "isl",
        "osl",
        "tp",
        "ep",
        "dp_attention",
        "prefill_tp",
        "prefill_ep",
        "prefill_dp_attention",
        "prefill_num_workers",
        "decode_tp",
        "decode_ep",
        "decode_dp_attention",
        "decode_num_workers",
        "num_prefill_gpu",
        "num_decode_gpu",
        "image",
        "date",
        "run_url",
    ] {
        match at(row, k) {
            Some(Value::String(s)) if !s.is_empty() => {
                labels.insert(k.to_owned(), s.clone());
            }
            Some(Value::Number(n)) => {
                labels.insert(k.to_owned(), n.to_string());
            }
            Some(Value::Bool(b)) => {
                labels.insert(k.to_owned(), b.to_string());
            }
            _ => {}
        }
    }
    if let Some(s) = &spec {
        labels.insert("spec_decoding".into(), s.clone());
    }
    labels.insert("disagg".into(), disagg.to_string());
    // A run: one configuration (model, hardware, engine, precision, speculation, layout,
    // lengths); its levels are the concurrencies.
    let mut parts = name_parts(&model, &hw, &framework, &precision);
    if let Some(s) = &spec {
        parts.push(format!("spec {s}"));
    }
    parts.push(match (disagg, prefill, decode, tp) {
        (true, Some(p), Some(d), _) => format!("disagg {p}P+{d}D"),
        (_, _, _, Some(t)) => format!("TP{t}"),
        _ => "GPUs ?".into(),
    });
    if let (Some(i), Some(o)) = (num(row, "isl"), num(row, "osl")) {
        parts.push(format!("{i}/{o}"));
    }
    let label = parts.join(" · ");
    let meta = Metadata {
        engine: framework,
        model,
        precision,
        gpu: hw,
        gpu_count: all_gpus.map(|n| n as u32),
        labels,
        ..Metadata::default()
    };
    let source = match index {
        Some(i) => format!("{file}#{}", i + 1),
        None => file.to_owned(),
    };
    let level = common::level(file, &field("conc"), conc, diags);
    // Interactivity is audited against 1 ÷ the mean TPOT the same file states (the analysis's
    // `audit::from_samples`, by `tools::inferencex::RECIPROCALS`).
    let point = common::summary_point(&source, ID, level, None, figures);
    Some((
        Run {
            label: label.into(),
            source_format: ID.into(),
            meta,
            points: Vec::new(),
            axis: None,
        },
        point,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disaggregated_output_is_per_decode_gpu_and_interactivity_is_per_stream() {
        let agg = br#"{"hw": "gb200", "conc": 64, "model": "deepseek-ai/DeepSeek-R1", "framework": "dynamo-trt",
            "precision": "fp4", "spec_decoding": "mtp", "disagg": true, "isl": 1024, "osl": 1024,
            "is_multinode": true, "num_prefill_gpu": 8, "num_decode_gpu": 16,
            "tput_per_gpu": 3000.0, "output_tput_per_gpu": 2500.0, "input_tput_per_gpu": 6000.0,
            "mean_tpot": 0.02, "mean_intvty": 49.99999998, "mean_ttft": 0.5}"#;
        let (r, d) = parse("agg_x.json", agg).unwrap();
        let run = &r.runs[0];
        assert_eq!(run.meta.gpu_count, Some(24));
        assert_eq!(
            run.label,
            "deepseek-ai/DeepSeek-R1 · gb200 · dynamo-trt fp4 · spec mtp · disagg 8P+16D · 1024/1024"
        );
        let p = &run.points[0];
        assert_eq!(p.concurrency, Some(64.0));
        // 2500 per decode GPU × 16 decode GPUs.
        assert_eq!(p.reported.figures["output_throughput"], 40000.0);
        assert!(d
            .iter()
            .any(|d| d.message.contains("over all 24 GPUs it is 1666.7 per GPU")));
    }
}
