//! MLPerf Inference LoadGen logs: `mlperf_log_summary.txt` (text: a result section, Additional
//! Stats, Test Parameters Used) and `mlperf_log_detail.txt` (one `:::MLLOG {json}` line per
//! key), and the submission's `systems/<name>.json` (the accelerator and how many). One point per
//! scenario run, as reported (LoadGen writes no per-request data to these logs); a summary and the
//! detail log of the same run pair into one point; the system file gives its runs the GPU name and
//! count (per-GPU figures then follow).
//!
//! Traps handled: an Interactive run's LoadGen says `Scenario : Server` (the submission path says
//! `Interactive`, or the benchmark is `…-interactive…`); the detail log's `result_token_throughput`
//! is Σ tokens / Σ sample latency, not the token rate (`result_completed_tokens_per_second` is);
//! every latency is in nanoseconds; the scenario's TTFT and TPOT limits (`ttft_latency (ns)`,
//! `tpot_latency (ns)`) are kept as the run's SLO, which the viewer and `summarize --slo` can apply.

pub use crate::tools::mlperf::{TOOL, TPOT, TTFT, VOCABULARY};
use std::collections::BTreeMap;

use super::common;
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run};

/// Format id of summaries (`mlperf_log_summary.txt`).
pub const SUMMARY_ID: &str = "mlperf-loadgen-summary";
/// Format id of detail logs (`mlperf_log_detail.txt`).
pub const DETAIL_ID: &str = "mlperf-loadgen-detail";
/// Format id of a submission's system description (`systems/<name>.json`).
pub const SYSTEM_ID: &str = "mlperf-system";

/// `mlperf_log_summary.txt`.
pub const SUMMARY_SPEC: FormatSpec = FormatSpec {
    format: Format::MlperfSummary,
    detect: |has, _| has("MLPerf Results Summary"),
    keys: &[
        "MLPerf Results Summary",
        "SUT name",
        "Scenario",
        "Result is",
    ],
    parse: |f, b, _| parse_summary(f, b),
    summary_partners: &[],
    stream: None,
};

/// `mlperf_log_detail.txt`.
pub const DETAIL_SPEC: FormatSpec = FormatSpec {
    format: Format::MlperfDetail,
    detect: |has, head| head.starts_with(b":::MLLOG") || has(":::MLLOG {"),
    keys: &[":::MLLOG", "result_", "loadgen_version"],
    parse: |f, b, _| parse_detail(f, b),
    summary_partners: &[Format::MlperfSummary],
    stream: None,
};

/// `systems/<name>.json`.
pub const SYSTEM_SPEC: FormatSpec = FormatSpec {
    format: Format::MlperfSystem,
    detect: |has, _| has("\"accelerator_model_name\"") && has("\"accelerators_per_node\""),
    keys: &[
        "accelerator_model_name",
        "accelerators_per_node",
        "system_name",
    ],
    parse: |f, b, _| parse_system(f, b),
    summary_partners: &[],
    stream: None,
};

/// What one log says of its run.
#[derive(Debug, Default)]
struct Log {
    sut: Option<String>,
    scenario: Option<String>,
    mode: Option<String>,
    validity: Option<String>,
    figures: BTreeMap<String, f64>,
    target_qps: Option<f64>,
    ttft_limit_ns: Option<f64>,
    tpot_limit_ns: Option<f64>,
}

/// The keys of the summary kept as figures (the vocabulary's) or as test parameters.
fn summary_key(key: &str) -> bool {
    VOCABULARY.figures().any(|f| f.tool_key == key)
}

/// Parses `mlperf_log_summary.txt`.
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let text = String::from_utf8_lossy(super::strip_bom(bytes));
    let mut log = Log::default();
    let mut diags = Vec::new();
    let mut section = "";
    let mut sections = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("====") {
            continue;
        }
        if matches!(
            line,
            "MLPerf Results Summary" | "Additional Stats" | "Test Parameters Used"
        ) {
            section = match line {
                "MLPerf Results Summary" => "result",
                "Additional Stats" => "stats",
                _ => "parameters",
            };
            sections.push(section);
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let key = k.split_whitespace().collect::<Vec<_>>().join(" ");
        let value = v.trim();
        match key.as_str() {
            "SUT name" => log.sut = Some(value.to_owned()),
            "Scenario" => log.scenario = Some(value.to_owned()),
            "Mode" => log.mode = Some(value.to_owned()),
            "Result is" => log.validity = Some(value.to_owned()),
            "target_qps" if section == "parameters" => log.target_qps = number(value),
            "ttft_latency (ns)" => log.ttft_limit_ns = number(value),
            "tpot_latency (ns)" => log.tpot_limit_ns = number(value),
            k if summary_key(k) => match number(value) {
                Some(x) => {
                    log.figures.insert(k.to_owned(), x);
                }
                None => diags.push(Diagnostic::warning(
                    file,
                    k,
                    None,
                    format!("{value:?} is not a number: left out"),
                )),
            },
            _ => {}
        }
    }
    if log.scenario.is_none() {
        return Err(common::no_data(
            file,
            "no `Scenario :` line under \"MLPerf Results Summary\" (a LoadGen summary starts with it)",
        ));
    }
    if !sections.contains(&"stats") {
        diags.push(Diagnostic::warning(
            file,
            "Additional Stats",
            None,
            "the summary stops before its Additional Stats (cut short?): latencies are not in it",
        ));
    }
    if !sections.contains(&"parameters") {
        diags.push(Diagnostic::info(
            file,
            "Test Parameters Used",
            "no Test Parameters Used section: the target rate and the scenario's latency limits are unknown",
        ));
    }
    Ok((report(file, log, &mut diags), diags))
}

/// Parses `mlperf_log_detail.txt`: `:::MLLOG {"key": …, "value": …}` lines.
pub fn parse_detail(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let text = String::from_utf8_lossy(super::strip_bom(bytes));
    let mut log = Log::default();
    let mut diags = Vec::new();
    let mut seen = 0usize;
    for (n, line) in text.lines().enumerate() {
        let Some(json) = line.trim().strip_prefix(":::MLLOG") else {
            continue;
        };
        let v: serde_json::Value = match serde_json::from_slice(json.trim().as_bytes()) {
            Ok(v) => v,
            Err(e) => {
                diags.push(Diagnostic::warning(
                    file,
                    &format!("line {}", n + 1),
                    None,
                    format!("not a log record ({e}): left out"),
                ));
                continue;
            }
        };
        seen += 1;
        let Some(key) = v.get("key").and_then(serde_json::Value::as_str) else {
            continue;
        };
        let value = v.get("value");
        let num = || value.and_then(|x| x.as_f64().or_else(|| x.as_str().and_then(number)));
        let text = || value.and_then(serde_json::Value::as_str).map(str::to_owned);
        match key {
            "sut_name" => log.sut = text(),
            "effective_scenario" => log.scenario = text(),
            "effective_test_mode" => log.mode = text(),
            "result_validity" => log.validity = text(),
            "effective_target_qps" => log.target_qps = num(),
            k if k.ends_with("ttft_latency_ns") || k == "effective_ttft_latency" => {
                log.ttft_limit_ns = num()
            }
            k if k.ends_with("tpot_latency_ns") || k == "effective_tpot_latency" => {
                log.tpot_limit_ns = num()
            }
            k if summary_key(k) => {
                if let Some(x) = num() {
                    log.figures.insert(k.to_owned(), x);
                }
            }
            _ => {}
        }
    }
    if seen == 0 {
        return Err(common::no_data(
            file,
            "no `:::MLLOG {…}` record in the file",
        ));
    }
    if log.figures.is_empty() {
        return Err(common::no_data(
            file,
            "no result_* record: the run did not finish, or the log was cut before its results",
        ));
    }
    Ok((report(file, log, &mut diags), diags))
}

/// A number as LoadGen writes it (`30068.50`, `2000000000`).
fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Where a log sits in a submission: `…/results/<system>/<benchmark>/<scenario>/performance/…`.
fn submission_path(file: &str) -> (Option<String>, Option<String>, Option<String>) {
    let parts: Vec<&str> = file.split(['/', '\\']).collect();
    match parts.iter().rposition(|p| *p == "results") {
        Some(i) if parts.len() > i + 3 => (
            Some(parts[i + 1].to_owned()),
            Some(parts[i + 2].to_owned()),
            Some(parts[i + 3].to_owned()),
        ),
        _ => (None, None, None),
    }
}

/// The run of one log.
fn report(file: &str, log: Log, diags: &mut Vec<Diagnostic>) -> Report {
    let (system, benchmark, path_scenario) = submission_path(file);
    let said = log.scenario.clone().unwrap_or_default();
    let interactive = [&benchmark, &path_scenario].iter().any(|p| {
        p.as_deref()
            .is_some_and(|p| p.to_ascii_lowercase().contains("interactive"))
    }) || file.to_ascii_lowercase().contains("/interactive/");
    let scenario = if interactive && said == "Server" {
        diags.push(Diagnostic::info(
            file,
            "Scenario",
            "LoadGen says Server; the submission path says Interactive (LoadGen runs Interactive as Server with tighter TTFT and TPOT limits): shown as Interactive",
        ));
        "Interactive".to_owned()
    } else {
        said.clone()
    };
    if log.mode.as_deref().is_some_and(|m| m != "PerformanceOnly") {
        diags.push(Diagnostic::warning(
            file,
            "Mode",
            None,
            format!(
                "mode {:?}: only a PerformanceOnly run measures speed",
                log.mode.as_deref().unwrap_or_default()
            ),
        ));
    }
    if log.validity.as_deref() == Some("INVALID") {
        diags.push(Diagnostic::warning(
            file,
            "Result is",
            None,
            "LoadGen marked this run INVALID (a constraint was not met): its figures are shown, but MLPerf does not accept them",
        ));
    }
    let mut labels = BTreeMap::new();
    labels.insert("scenario".to_owned(), scenario.clone());
    for (k, v) in [
        ("loadgen_scenario", Some(said)),
        ("result", log.validity.clone()),
        ("sut", log.sut.clone()),
        ("system", system.clone()),
    ] {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            labels.insert(k.to_owned(), v);
        }
    }
    // The scenario's latency limits (LoadGen checks their p99s): none binds an Offline run.
    if scenario != "Offline" {
        for (k, v) in [
            ("slo_ttft_p99_ms", log.ttft_limit_ns),
            ("slo_tpot_p99_ms", log.tpot_limit_ns),
        ] {
            if let Some(ns) = v.filter(|ns| *ns > 0.0) {
                labels.insert(k.to_owned(), format!("{}", ns / 1e6));
            }
        }
    }
    let rate = match scenario.as_str() {
        "Offline" => Some(f64::INFINITY),
        _ => log.target_qps,
    };
    let concurrency = (scenario == "SingleStream").then_some(1.0);
    // Two submissions of one benchmark and scenario are two runs: the system names them apart.
    let what = benchmark.clone().or_else(|| log.sut.clone());
    let mut label = match &what {
        Some(w) => format!("{w} · {scenario}"),
        None => format!("MLPerf · {scenario}"),
    };
    if let Some(s) = &system {
        label.push_str(&format!(" · {s}"));
    }
    // The engine under the SUT is not in LoadGen's logs (the system file's framework may say).
    let meta = Metadata {
        model: benchmark,
        labels,
        ..Metadata::default()
    };
    let point = common::summary_point(file, TOOL, concurrency, rate, log.figures);
    Report {
        meta: Metadata::default(),
        runs: vec![Run {
            label: label.into(),
            source_format: TOOL.into(),
            meta,
            points: vec![point],
            axis: None,
        }],
    }
}

/// Parses a submission's `systems/<name>.json`: no run of its own, the metadata its logs' runs
/// take (see [`crate::group`]).
pub fn parse_system(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    let v = &values[0];
    let text = |k: &str| common::text(v, k).filter(|s| !s.trim().is_empty());
    let count =
        |k: &str| common::num(v, k).or_else(|| text(k).and_then(|s| s.trim().parse::<f64>().ok()));
    let gpu = text("accelerator_model_name");
    let per_node = count("accelerators_per_node");
    let nodes = count("number_of_nodes").unwrap_or(1.0);
    let gpu_count = per_node
        .map(|n| n * nodes)
        .filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n < 1e6)
        .map(|n| n as u32);
    if gpu.is_none() || gpu_count.is_none() {
        diags.push(Diagnostic::warning(
            file,
            if gpu.is_none() {
                "accelerator_model_name"
            } else {
                "accelerators_per_node"
            },
            None,
            "missing or not a count: the runs' GPU name or count stays unknown",
        ));
    }
    let stem = file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(file)
        .trim_end_matches(".json")
        .to_owned();
    let mut labels = BTreeMap::new();
    labels.insert(
        "system".to_owned(),
        text("system_name").unwrap_or(stem.clone()),
    );
    labels.insert("system_file".to_owned(), stem);
    for k in [
        "framework",
        "submitter",
        "division",
        "host_processor_model_name",
    ] {
        if let Some(t) = text(k) {
            labels.insert(k.to_owned(), t);
        }
    }
    Ok((
        Report {
            meta: Metadata {
                gpu,
                gpu_count,
                labels,
                ..Metadata::default()
            },
            runs: Vec::new(),
        },
        diags,
    ))
}
