//! llm-d Benchmark Report v0.2 and v0.1 (llm-d-benchmark's `benchmark_report_v0_2`): YAML, or the same
//! document as JSON. `scenario.stack[]` describes the inference engines (`standardized.role`:
//! replica, prefill or decode; `accelerator.model`, `.count`, `.parallelism`), `scenario.load` the
//! workload (`standardized.tool`, `concurrency` or `rate_qps`), and
//! `results.request_performance.aggregate` the figures: `requests` (`total`, `failures`,
//! `incomplete`), `latency` and `throughput`, each statistic a block of `{units, mean, p50, p90,
//! p99…}` with its **units written beside it** (`ms` or `s`; `ms/token` or `s/token`; `token/s`;
//! `qps`). One point per report, as reported; figures are converted to tpsview's units from the
//! units each block states, and a block whose units do not fit its quantity is left out with a
//! warning naming it.
//!
//! The v0.1 report (llm-d-benchmark's earlier converter, still in real result folders) keeps the
//! same latency blocks under `metrics.latency`, plain rates named with their units
//! (`metrics.throughput.output_tokens_per_sec`, `requests_per_sec`), `metrics.requests`,
//! `metrics.time.duration` (s), and the harness's own arguments under `scenario.load.args`
//! (inference-perf: the model in `server.model_name`, the stages in `load.stages[]`, this
//! report's stage in `scenario.load.metadata.stage`).

pub use crate::tools::llmd::{ID, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, num, text};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report};
use crate::server::{ServerMetric, ServerSeries};

/// llm-d Benchmark Report v0.2.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::LlmdReport,
    detect: |has, _| {
        ((has("request_performance:") || has("\"request_performance\""))
            && (has("scenario") || has("results")))
            // v0.1: its rate's key whole (GuideLLM's `output_tokens_per_second` starts alike).
            || ((has("output_tokens_per_sec:") || has("\"output_tokens_per_sec\""))
                && has("time_per_output_token")
                && has("scenario"))
    },
    keys: &[
        "request_performance",
        "scenario",
        "results",
        "units",
        "aggregate",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Units as people spell them, in one spelling: `tokens/s`, `tok/s`, `tokens/sec`, `Token/S`
/// → `token/s`; `sec`, `seconds` → `s`; `msec`, `milliseconds` → `ms`; `req/s`, `requests/s` →
/// `qps`. llm-d's own guides write `tokens/s`.
fn spelling(units: &str) -> String {
    let u = units.trim().to_ascii_lowercase().replace(' ', "");
    let part = |p: &str| -> String {
        match p {
            "tokens" | "tok" | "toks" | "token" => "token".into(),
            "sec" | "secs" | "second" | "seconds" => "s".into(),
            "msec" | "msecs" | "millisecond" | "milliseconds" => "ms".into(),
            "req" | "reqs" | "request" | "requests" | "query" | "queries" => "req".into(),
            other => other.into(),
        }
    };
    let joined = u.split('/').map(part).collect::<Vec<_>>().join("/");
    match joined.as_str() {
        "req/s" => "qps".into(),
        _ => joined,
    }
}

/// What a statistic's units must be, and the factor to tpsview's unit.
fn scale(kind: Kind, units: &str) -> Option<f64> {
    match (kind, spelling(units).as_str()) {
        (Kind::Time, "ms") | (Kind::PerToken, "ms/token") => Some(1.0),
        (Kind::Time, "s") | (Kind::PerToken, "s/token") => Some(1e3),
        (Kind::TokenRate, "token/s") | (Kind::RequestRate, "qps") => Some(1.0),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Time,
    PerToken,
    TokenRate,
    RequestRate,
}

impl Kind {
    fn expected(self) -> &'static str {
        match self {
            Kind::Time => "ms or s",
            Kind::PerToken => "ms/token or s/token",
            Kind::TokenRate => "token/s",
            Kind::RequestRate => "qps",
        }
    }
}

/// Parses a benchmark report.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let doc = common::json_or_yaml(file, bytes)?;
    let version = text(&doc, "version").unwrap_or_default();
    // v0.1 keeps its figures under `metrics`; v0.2 under `results.request_performance.aggregate`.
    let v01 = version.starts_with("0.1")
        || (at(&doc, "results.request_performance").is_none()
            && at(&doc, "metrics.latency").is_some());
    if !version.is_empty() && !version.starts_with("0.2") && !v01 {
        diags.push(Diagnostic::warning(
            file,
            "version",
            None,
            format!("report version {version:?}: read as v0.2, whose layout this reader knows"),
        ));
    }
    const AGG: &str = "results.request_performance.aggregate";
    let agg_path = if v01 { "metrics" } else { AGG };
    let Some(agg) = at(&doc, agg_path).filter(|a| a.is_object()) else {
        return Err(common::no_data(
            file,
            &format!("no `{agg_path}` (the report's figures)"),
        ));
    };
    let mut figures = BTreeMap::new();
    for (section, metric, kind) in [
        ("latency", "time_to_first_token", Kind::Time),
        ("latency", "time_per_output_token", Kind::PerToken),
        ("latency", "inter_token_latency", Kind::PerToken),
        ("latency", "request_latency", Kind::Time),
        ("throughput", "output_token_rate", Kind::TokenRate),
        ("throughput", "request_rate", Kind::RequestRate),
        ("throughput", "requests_rate", Kind::RequestRate),
    ] {
        let path = format!("{section}.{metric}");
        let Some(block) = at(agg, &path).filter(|b| b.is_object()) else {
            continue;
        };
        let units = text(block, "units").unwrap_or_default();
        let Some(f) = scale(kind, &units) else {
            diags.push(Diagnostic::warning(
                file,
                &format!("{agg_path}.{path}.units"),
                None,
                format!(
                    "units {units:?} do not fit this quantity (expected {}): left out",
                    kind.expected()
                ),
            ));
            continue;
        };
        for stat in ["mean", "p50", "p90", "p99"] {
            if let Some(x) = num(block, stat) {
                figures.insert(format!("{path}.{stat}"), x * f);
            }
        }
    }
    if v01 {
        // Plain numbers whose names state their units.
        for key in [
            "throughput.output_tokens_per_sec",
            "throughput.requests_per_sec",
            "time.duration",
        ] {
            if let Some(x) = num(agg, key).filter(|x| x.is_finite()) {
                figures.insert(key.to_owned(), x);
            }
        }
    }
    let total = num(agg, "requests.total");
    let failures = num(agg, "requests.failures").unwrap_or(0.0);
    let incomplete = num(agg, "requests.incomplete").unwrap_or(0.0);
    if let Some(t) = total {
        figures.insert("requests.ok".into(), (t - failures - incomplete).max(0.0));
        figures.insert("requests.failures".into(), failures);
    }
    if figures.is_empty() {
        return Err(common::none_usable(
            file,
            &format!("no usable statistic in `{agg_path}`"),
            &diags,
        ));
    }
    // The stack: engines, their roles and accelerators.
    let engines: Vec<&Value> = at(&doc, "scenario.stack")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(|c| at(c, "standardized"))
                .filter(|s| text(s, "kind").is_none_or(|k| k == "inference_engine"))
                .filter(|s| at(s, "accelerator").is_some())
                .collect()
        })
        .unwrap_or_default();
    let gpus = |role: Option<&str>| -> Option<f64> {
        let v: Vec<f64> = engines
            .iter()
            .filter(|e| role.is_none_or(|r| text(e, "role").as_deref() == Some(r)))
            .filter_map(|e| num(e, "accelerator.count"))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum())
    };
    let (prefill, decode, all) = (gpus(Some("prefill")), gpus(Some("decode")), gpus(None));
    let first = engines.first();
    // v0.1: the harness's own arguments (inference-perf's stages and server), and this report's
    // stage among them.
    let load01 = at(&doc, "scenario.load").filter(|_| v01);
    let stage01 = load01.and_then(|l| num(l, "metadata.stage"));
    let stage_args = load01.zip(stage01).and_then(|(l, i)| {
        (i >= 0.0 && i.fract() == 0.0)
            .then(|| at(l, &format!("args.load.stages.{i}")))
            .flatten()
    });
    let model = first
        .and_then(|e| text(e, "model.name"))
        .or_else(|| text(&doc, "scenario.model.name").filter(|m| m != "unknown"))
        .or_else(|| load01.and_then(|l| text(l, "args.server.model_name")));
    let gpu = first.and_then(|e| text(e, "accelerator.model"));
    let engine = first.and_then(|e| text(e, "tool"));
    let engine_version = first.and_then(|e| text(e, "tool_version"));
    let load = at(&doc, "scenario.load.standardized");
    let (concurrency, rate) = match stage_args {
        Some(st) => (num(st, "concurrency_level"), num(st, "rate")),
        None => (
            load.and_then(|l| num(l, "concurrency")),
            load.and_then(|l| num(l, "rate_qps")),
        ),
    };
    let mut labels = BTreeMap::new();
    for (k, v) in [
        (
            "harness",
            load.and_then(|l| text(l, "tool"))
                .or_else(|| load01.and_then(|l| text(l, "name"))),
        ),
        (
            "stage",
            load.and_then(|l| text(l, "stage"))
                .or_else(|| stage01.map(|s| s.to_string())),
        ),
        ("load_type", load01.and_then(|l| text(l, "args.load.type"))),
        (
            "harness_version",
            load.and_then(|l| text(l, "tool_version")),
        ),
        ("report_version", Some(version).filter(|v| !v.is_empty())),
        ("uid", text(&doc, "run.uid")),
        ("eid", text(&doc, "run.eid")),
    ] {
        if let Some(v) = v {
            labels.insert(k.to_owned(), v);
        }
    }
    let mut label = common::label("llm-d", model.as_deref());
    if let (Some(p), Some(d)) = (prefill, decode) {
        labels.insert("prefill_gpus".into(), p.to_string());
        labels.insert("decode_gpus".into(), d.to_string());
        label.push_str(&format!(" · {p}P+{d}D"));
    }
    let meta = Metadata {
        engine,
        engine_version,
        model,
        gpu,
        gpu_count: all
            .filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n < 1e6)
            .map(|n| n as u32),
        date: text(&doc, "run.time.start"),
        labels,
        ..Metadata::default()
    };
    let level = common::level(
        file,
        if stage_args.is_some() {
            "scenario.load.args.load.stages[].concurrency_level"
        } else {
            "scenario.load.standardized.concurrency"
        },
        concurrency,
        &mut diags,
    );
    let mut point = common::summary_point(file, ID, level, rate, figures);
    point.server = observability(&doc, file, &mut diags);
    Ok((common::one_run(label, ID, meta, vec![point]), diags))
}

/// v0.2.1's engine signals over the stage (`results.observability.components[].time_series`:
/// per pod, `{units, series: [{ts, value}]}` for `num_requests_running`, `num_requests_waiting`,
/// `kv_cache_usage` (`fraction` or `percent`), and the cumulative `generation_tokens` and
/// `prompt_tokens`) as the server's series: the pods summed at each scrape (KV-cache usage
/// averaged), prefill pods left out where decode or whole-request pods report (a request runs
/// on both in a disaggregated stack: its decode batch is the decode pods'). Seconds from the
/// first scrape. The stage's window is not the requests' own, so the figures are over every
/// scrape.
fn observability(doc: &Value, file: &str, diags: &mut Vec<Diagnostic>) -> Option<ServerSeries> {
    const BASE: &str = "results.observability.components";
    let components = at(doc, BASE)?.as_array()?;
    let known = [
        ("num_requests_running", ServerMetric::Running),
        ("num_requests_waiting", ServerMetric::Waiting),
        ("kv_cache_usage", ServerMetric::KvUsage),
        ("gpu_cache_usage", ServerMetric::KvUsage),
        ("generation_tokens", ServerMetric::GenerationTokens),
        ("prompt_tokens", ServerMetric::PromptTokens),
    ];
    let reporting: Vec<(usize, &Value)> = components
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            at(c, "time_series")
                .and_then(Value::as_object)
                .is_some_and(|t| known.iter().any(|(k, _)| t.contains_key(*k)))
        })
        .collect();
    let is_prefill = |c: &Value| text(c, "component_label").is_some_and(|l| l.contains("prefill"));
    let others = reporting.iter().any(|(_, c)| !is_prefill(c));
    let mut scrapes: Vec<(f64, usize, BTreeMap<ServerMetric, f64>)> = Vec::new();
    let mut pods: Vec<String> = Vec::new();
    for (i, c) in reporting {
        if others && is_prefill(c) {
            continue;
        }
        let pod = text(c, "replica_id")
            .or_else(|| text(c, "component_label"))
            .unwrap_or_else(|| format!("component {i}"));
        let source = pods.len();
        pods.push(pod);
        let mut at_time: BTreeMap<u64, (f64, BTreeMap<ServerMetric, f64>)> = BTreeMap::new();
        for (key, m) in known {
            let Some(ts) = at(c, &format!("time_series.{key}")) else {
                continue;
            };
            let field = format!("{BASE}[{i}].time_series.{key}");
            let units = text(ts, "units").unwrap_or_default();
            let scale = match (m, units.as_str()) {
                (ServerMetric::KvUsage, "percent" | "%") => 0.01,
                (ServerMetric::KvUsage, "fraction" | "") => 1.0,
                (_, "count" | "") => 1.0,
                _ => {
                    diags.push(Diagnostic::warning(
                        file,
                        &format!("{field}.units"),
                        None,
                        format!("units {units:?} do not fit {key}: left out"),
                    ));
                    continue;
                }
            };
            for p in at(ts, "series")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let t = text(p, "ts").as_deref().and_then(common::iso_seconds);
                let v = num(p, "value").or_else(|| num(p, "mean"));
                if let (Some(t), Some(v)) = (t, v.filter(|v| v.is_finite())) {
                    at_time
                        .entry(t.to_bits())
                        .or_insert((t, BTreeMap::new()))
                        .1
                        .insert(m, v * scale);
                }
            }
        }
        scrapes.extend(at_time.into_values().map(|(t, v)| (t, source, v)));
    }
    let (mut t_s, values) = crate::server::merge_sources(scrapes, pods.len())?;
    let t0 = t_s[0];
    for t in &mut t_s {
        *t -= t0;
    }
    Some(ServerSeries {
        source: format!("llm-d's scrapes of {}", pods.join(", ")),
        t_s,
        values,
    })
}

#[cfg(test)]
mod spelling_tests {
    use super::*;

    #[test]
    fn units_as_people_spell_them_fit_their_quantity() {
        for u in [
            "token/s",
            "tokens/s",
            "tok/s",
            "tokens/sec",
            "Tokens / Second",
        ] {
            assert_eq!(scale(Kind::TokenRate, u), Some(1.0), "{u}");
        }
        for u in ["s", "sec", "seconds"] {
            assert_eq!(scale(Kind::Time, u), Some(1e3), "{u}");
        }
        assert_eq!(scale(Kind::PerToken, "ms/tokens"), Some(1.0));
        assert_eq!(scale(Kind::RequestRate, "req/s"), Some(1.0));
        // Units of another quantity still do not fit.
        assert_eq!(scale(Kind::TokenRate, "ms"), None);
        assert_eq!(scale(Kind::Time, "tokens/s"), None);
    }
}

#[cfg(test)]
mod corpus_tests {
    /// A report of the corpus (tests/wild/PROVENANCE.md).
    fn read(rel: &str) -> crate::model::Report {
        let path = format!(
            "{}/../../tests/wild/llm-d/{rel}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).expect("corpus file");
        assert_eq!(
            crate::detect(&bytes),
            Some(crate::Format::LlmdReport),
            "{rel}"
        );
        let (report, diags) = super::parse(rel, &bytes).expect("reads");
        assert!(diags.is_empty(), "{rel}: {diags:?}");
        report
    }

    #[test]
    fn a_v01_report_reads_as_its_v02_twin_with_its_model_and_duration() {
        // One run and stage, converted by llm-d-benchmark to both schema versions.
        let v01 = read(
            "praveingk-llmd-benchmarking-nxtgen-1/benchmark_report,_stage_4_lifecycle_metrics.json.yaml",
        );
        let v02 = read(
            "praveingk-llmd-benchmarking-nxtgen-2/benchmark_report_v0.2,_stage_4_lifecycle_metrics.json.yaml",
        );
        let (a, b) = (&v01.runs[0], &v02.runs[0]);
        let (pa, pb) = (&a.points[0], &b.points[0]);
        let fig = |p: &crate::model::Point, k: &str| p.reported.figures.get(k).copied();
        // Both files state 17234.615429643014 output tokens/s and 34.373100754176846 requests/s.
        assert_eq!(
            fig(pa, "throughput.output_tokens_per_sec"),
            Some(17234.615429643014)
        );
        assert_eq!(
            fig(pb, "throughput.output_token_rate.mean"),
            Some(17234.615429643014)
        );
        assert_eq!(
            fig(pa, "throughput.requests_per_sec"),
            Some(34.373100754176846)
        );
        assert_eq!(
            fig(pb, "throughput.request_rate.mean"),
            Some(34.373100754176846)
        );
        for k in [
            "latency.time_to_first_token.mean",
            "latency.time_per_output_token.p99",
            "latency.request_latency.p50",
            "requests.ok",
        ] {
            assert!(fig(pa, k).is_some(), "{k}");
            assert_eq!(fig(pa, k), fig(pb, k), "{k}");
        }
        // The level: stage 4 of inference-perf's ladder 1, 5, 10, 25, 50… qps; v0.2 says 50.
        assert_eq!(pa.request_rate, Some(50.0));
        assert_eq!(pb.request_rate, Some(50.0));
        assert_eq!(fig(pa, "time.duration"), Some(59.974402349907905));
        // v0.1 names the model (the harness's server arguments); v0.2 states none.
        assert_eq!(a.label, "sarvamai/sarvam-30b");
        assert_eq!(
            a.meta.labels.get("harness").map(String::as_str),
            Some("inference-perf")
        );
        assert_eq!(a.meta.labels.get("stage").map(String::as_str), Some("4"));
        assert_eq!(b.meta.labels.get("stage").map(String::as_str), Some("4"));
    }
}
