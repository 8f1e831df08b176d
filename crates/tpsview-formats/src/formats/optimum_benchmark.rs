//! optimum-benchmark's report of a text-generation run: `benchmark.json` (`{config, report}`) or
//! `benchmark_report.json` (the report alone). The report holds one object per target —
//! `load_model` (older: `load`), `first_generate`, `generate`, `prefill`, `decode`, `per_token` —
//! each with `latency` (`unit` s, `values`, `count`, `total`, `mean`, `p50`–`p99`, `stdev`),
//! `throughput` (`unit`, `value`), `memory`, `energy`, `efficiency`, any of them null
//! (`optimum_benchmark/benchmark/report.py` lines 18–23, `trackers/latency.py` 23–84). One report
//! is one level: the batch size the config gives (`scenario.input_shapes.batch_size`), else none.
//! Its figures are copied under the tool's names (`prefill.latency.mean`, `decode.throughput.value`,
//! …, the values arrays left out); the vocabulary says what each is.

use std::collections::BTreeMap;

use serde_json::Value;

use super::common;
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported, Run};
pub use crate::tools::optimum_benchmark::{ID, VOCABULARY};

/// optimum-benchmark's report.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::OptimumBenchmark,
    detect: |has, _| {
        has("\"prefill\"")
            && has("\"decode\"")
            && has("\"latency\"")
            && has("\"throughput\"")
            && (has("\"per_token\"") || has("\"first_generate\"") || has("\"load_model\""))
    },
    keys: &[
        "prefill",
        "decode",
        "per_token",
        "generate",
        "latency",
        "throughput",
        "efficiency",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// The targets read, in the report's order.
const TARGETS: &[&str] = &[
    "load_model",
    "load",
    "first_generate",
    "generate",
    "prefill",
    "decode",
    "per_token",
];

/// The statistics of a latency object copied (seconds).
const STATS: &[&str] = &[
    "mean", "p50", "p90", "p95", "p99", "stdev", "count", "total",
];

/// Parses a report.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    let root = &values[0];
    let (config, report) = match root.get("report") {
        Some(r) if r.is_object() => (root.get("config"), r),
        _ => (None, root),
    };
    let mut figures = BTreeMap::new();
    for target in TARGETS {
        let Some(t) = report.get(*target).filter(|t| t.is_object()) else {
            continue;
        };
        if let Some(l) = t.get("latency").filter(|l| l.is_object()) {
            let unit = l.get("unit").and_then(Value::as_str).unwrap_or("s");
            if unit != "s" {
                diags.push(Diagnostic::warning(
                    file,
                    &format!("{target}.latency.unit"),
                    None,
                    format!("unit {unit:?}, not s: this target's latency is left out"),
                ));
            } else {
                for s in STATS {
                    if let Some(v) = l.get(*s).and_then(Value::as_f64).filter(|v| v.is_finite()) {
                        figures.insert(format!("{target}.latency.{s}"), v);
                    }
                }
            }
        }
        if let Some(v) = t
            .pointer("/throughput/value")
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite())
        {
            figures.insert(format!("{target}.throughput.value"), v);
        }
        for part in ["gpu", "cpu", "ram", "total"] {
            if let Some(v) = t
                .pointer(&format!("/energy/{part}"))
                .and_then(Value::as_f64)
                .filter(|v| v.is_finite())
            {
                figures.insert(format!("{target}.energy.{part}_kwh"), v);
            }
        }
        if let Some(v) = t
            .pointer("/efficiency/value")
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite())
        {
            figures.insert(format!("{target}.efficiency.value"), v);
        }
    }
    let timed = figures
        .keys()
        .any(|k| k.contains(".latency.") || k.contains(".throughput."));
    if !timed {
        return Err(common::no_data(
            file,
            "no latency or throughput in prefill, decode, per_token or generate (an energy-only report: every latency and throughput is null)",
        ));
    }
    let batch = config
        .and_then(|c| c.pointer("/scenario/input_shapes/batch_size"))
        .and_then(Value::as_f64);
    let concurrency = common::level(
        file,
        "config.scenario.input_shapes.batch_size",
        batch,
        &mut diags,
    );
    if concurrency.is_none() {
        diags.push(Diagnostic::info(
            file,
            "config.scenario.input_shapes.batch_size",
            "no batch size (benchmark_report.json alone: its benchmark_config.json or benchmark.json gives it): the level is unknown",
        ));
    }
    let text = |p: &str| {
        config
            .and_then(|c| c.pointer(p))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let model = text("/backend/model");
    let backend = text("/backend/name");
    let mut labels = BTreeMap::new();
    for (k, p) in [
        (
            "optimum-benchmark version",
            "/environment/optimum_benchmark_version",
        ),
        ("task", "/backend/task"),
        ("device", "/backend/device"),
    ] {
        if let Some(v) = text(p) {
            labels.insert(k.to_owned(), v);
        }
    }
    for (k, p) in [
        ("new tokens", "/scenario/generate_kwargs/max_new_tokens"),
        ("sequence length", "/scenario/input_shapes/sequence_length"),
    ] {
        if let Some(v) = config.and_then(|c| c.pointer(p)).and_then(Value::as_f64) {
            labels.insert(k.to_owned(), format!("{v}"));
        }
    }
    let gpu = config
        .and_then(|c| c.pointer("/environment/gpu"))
        .and_then(Value::as_array)
        .and_then(|g| g.first())
        .and_then(Value::as_str)
        .map(str::to_owned);
    let label = match (&model, &backend) {
        (Some(m), Some(b)) => format!("{m} · {b}"),
        (m, _) => common::label("optimum-benchmark", m.as_deref()),
    };
    Ok((
        Report {
            meta: Metadata::default(),
            runs: vec![Run {
                label: label.into(),
                source_format: ID.into(),
                meta: Metadata {
                    model,
                    engine: backend,
                    gpu,
                    labels,
                    ..Metadata::default()
                },
                points: vec![Point {
                    source_file: file.to_owned(),
                    concurrency,
                    reported: Reported {
                        tool: ID.to_owned(),
                        figures,
                        recomputed: BTreeMap::new(),
                    },
                    ..Point::default()
                }],
                axis: None,
            }],
        },
        diags,
    ))
}
