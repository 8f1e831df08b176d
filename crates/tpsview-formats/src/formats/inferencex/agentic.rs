//! InferenceX's agentic results (`bmk_agentic_*/<name>.json`, `scenario_type`
//! `agentic-coding`), two layouts: the legacy flat one (`users`, `{mean,median,p90,p99}_ttft`,
//! `_ttlt`, `_itl`, `output_tput_tps`, `duration_seconds`; written by its
//! `utils/process_agentic_result.py` at 71813145) and the nested one (`conc`,
//! `request_metrics.latency.<ttft|e2el|itl|tpot|intvty>.{mean,p50,p75,p90,p95,std}`,
//! `request_metrics.throughput`, `server_metrics.cache`; at af224d6c). Seconds throughout. One
//! point per result, as reported; research notes in docs/research/inferencex-agentic.md.

use std::collections::BTreeMap;

use serde_json::Value;

use super::super::common::{self, at, num, text};
use crate::error::Diagnostic;
use crate::model::{Metadata, Point, Run};
use crate::tools::inferencex::AGENTIC_ID;

/// Whether a result is an agentic one.
pub(super) fn is_agentic(row: &Value) -> bool {
    text(row, "scenario_type").is_some_and(|s| s.contains("agentic"))
        || at(row, "request_metrics").is_some_and(Value::is_object)
}

/// One agentic result: its run (model, hardware, engine, precision, TP, KV offload) and point
/// (its level `conc` or `users`).
pub(super) fn read_row(
    file: &str,
    source: String,
    row: &Value,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Run, Point)> {
    let figures: BTreeMap<String, f64> = common::flatten_numbers(row, 5)
        .into_iter()
        .filter(|(k, _)| !k.ends_with(".std"))
        .collect();
    let output = figures
        .get("output_tput_tps")
        .or_else(|| figures.get("request_metrics.throughput.output.tokens_per_second"));
    if output.is_none() {
        diags.push(Diagnostic::warning(
            file,
            "request_metrics.throughput.output.tokens_per_second",
            None,
            "missing or not a number (nor output_tput_tps): this result is left out",
        ));
        return None;
    }
    let (field, level) = match num(row, "conc") {
        Some(c) => ("conc", Some(c)),
        None => ("users", num(row, "users")),
    };
    let level = common::level(file, field, level, diags);
    let model = text(row, "model").or_else(|| text(row, "infmax_model_prefix"));
    let hw = text(row, "hw");
    let framework = text(row, "framework");
    let precision = text(row, "precision");
    let tp = num(row, "tp").filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n < 1e6);
    let gpus = tp.map(|t| t * num(row, "pcp_size").filter(|p| *p >= 1.0).unwrap_or(1.0));
    let offload = match (text(row, "offload_mode"), text(row, "kv_offloading")) {
        (Some(m), _) => format!("offload {m}"),
        (None, Some(k)) => match text(row, "kv_offload_backend") {
            Some(b) if k != "none" => format!("KV {k} ({b})"),
            _ => format!("KV {k}"),
        },
        (None, None) => "offload ?".to_owned(),
    };
    let mut parts = super::name_parts(&model, &hw, &framework, &precision);
    parts.push(tp.map_or_else(|| "GPUs ?".to_owned(), |t| format!("TP{t}")));
    parts.push("agentic".to_owned());
    parts.push(offload.clone());
    let mut labels = BTreeMap::new();
    for k in [
        "image",
        "scenario_type",
        "ep",
        "dp_attention",
        "num_requests_total",
    ] {
        if let Some(t) = text(row, k) {
            labels.insert(k.to_owned(), t);
        }
    }
    labels.insert("kv_offload".to_owned(), offload);
    let meta = Metadata {
        engine: framework,
        model,
        precision,
        gpu: hw,
        gpu_count: gpus.map(|n| n as u32),
        labels,
        ..Metadata::default()
    };
    let point = common::summary_point(&source, AGENTIC_ID, level, None, figures);
    Some((
        Run {
            label: parts.join(" · ").into(),
            source_format: super::ID.into(),
            meta,
            points: Vec::new(),
            axis: None,
        },
        point,
    ))
}
