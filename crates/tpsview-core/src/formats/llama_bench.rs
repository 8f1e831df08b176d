//! llama.cpp `llama-bench -o json` (an array) and `-o jsonl` (one test per line). Each test is
//! one sequence: a prompt-processing test (`n_gen = 0`), a generation test (`n_prompt = 0`), or
//! both. Tests of one model and shape form a run; the parameter a sweep varies (threads, batch
//! size, depth…) is the run's level axis. The per-repetition samples are re-aggregated to audit
//! `avg_ts`.

use super::{Format, FormatSpec};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, num, read_values, records, summary_point};
use super::{Figure, ToolDef, Vocabulary};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "llama-bench";

/// llama.cpp `llama-bench -o json|jsonl`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::LlamaBench,
    id: ID,
    name: "llama.cpp llama-bench JSON/JSONL",
    detect: |has, _| has("\"avg_ts\"") && has("\"n_gen\"") && has("\"n_prompt\""),
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
};

const SAMPLES: &str = "avg_ts is the mean of per-repetition rates (n/t each), not n / avg_ns; a difference means the samples and the mean disagree";

const FIGURES: &[Figure] = &[
    Figure::same("avg_ts", Metric::PerStreamTps, 1.0, SAMPLES),
    Figure::same("avg_ts", Metric::SystemTps, 1.0, SAMPLES),
    Figure::tool(
        "prefill_avg_ts",
        Metric::SystemTps,
        1.0,
        SAMPLES,
        ToolDef::PrefillRate,
    ),
    Figure::tool(
        "mixed_avg_ts",
        Metric::SystemTps,
        1.0,
        SAMPLES,
        ToolDef::MixedRate,
    ),
];

const NOTES: &[&str] = &[
    "one sequence, no server and no concurrency: a generation test's avg_ts is the single-stream decode rate, so per-stream T/s = system T/s and TPOT = 1 / avg_ts",
    "n_batch / n_ubatch are prompt-chunk sizes in tokens, not concurrent requests",
    "avg_ts = mean over repetitions of (n_prompt + n_gen) / t (sample std, N − 1); tokenization and sampling are not timed; n_depth tokens are pre-filled outside the timed region",
    "prompt-processing tests (n_gen = 0) are shown as prefill_avg_ts; mixed tests (-pg) as mixed_avg_ts",
];

/// llama-bench's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "llama.cpp llama-bench",
    groups: &[FIGURES],
    notes: NOTES,
};

/// Parameters a sweep may vary, in the order tried as the level axis.
const SWEPT: &[&str] = &[
    "n_threads",
    "n_batch",
    "n_ubatch",
    "n_depth",
    "n_gpu_layers",
    "n_cpu_moe",
    "flash_attn",
    "type_k",
    "type_v",
];

/// One test, read.
struct Test {
    index: usize,
    model: String,
    shape: String,
    figure: &'static str,
    rate: f64,
    recomputed: Option<f64>,
    stddev: Option<f64>,
    params: BTreeMap<&'static str, String>,
    meta: Metadata,
}

/// Parses a llama-bench JSON or JSONL file.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let recs = records(read_values(file, bytes, &mut diags)?);
    let mut tests = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        if let Some(t) = read_test(file, i, r, &mut diags) {
            tests.push(t);
        }
    }
    if tests.is_empty() {
        return Err(common::no_data(
            file,
            "no test with n_prompt, n_gen and avg_ts",
        ));
    }
    // Group by model and test shape, then by every parameter except the swept one.
    let mut groups: BTreeMap<(String, String), Vec<Test>> = BTreeMap::new();
    for t in tests {
        groups
            .entry((t.model.clone(), t.shape.clone()))
            .or_default()
            .push(t);
    }
    let mut runs = Vec::new();
    for ((model, shape), tests) in groups {
        // Depth first: a depth sweep (`-d 0,512,…`) is what a reader compares a test kind across.
        let axis = std::iter::once("n_depth")
            .chain(SWEPT.iter().copied().filter(|p| *p != "n_depth"))
            .find(|p| {
                let first = tests[0].params.get(p);
                tests.iter().any(|t| t.params.get(p) != first)
            });
        let mut split: BTreeMap<Vec<(&str, String)>, Vec<Test>> = BTreeMap::new();
        for t in tests {
            let key: Vec<(&str, String)> = t
                .params
                .iter()
                .filter(|(k, _)| Some(**k) != axis)
                .map(|(k, v)| (*k, v.clone()))
                .collect();
            split.entry(key).or_default().push(t);
        }
        let many = split.len() > 1;
        for (key, tests) in split {
            let mut label = format!("{model} · {shape}");
            if many {
                // Name what tells this run from its siblings.
                for (k, v) in &key {
                    if SWEPT.contains(k) {
                        label.push_str(&format!(" · {k}={v}"));
                    }
                }
            }
            let meta = tests[0].meta.clone();
            let mut points = Vec::new();
            for t in tests {
                let level = match axis {
                    Some(a) => t.params.get(a).and_then(|v| v.parse::<f64>().ok()),
                    None => Some(1.0),
                };
                if level.is_none() {
                    diags.push(Diagnostic::warning(
                        file,
                        &format!("[{}].{}", t.index, axis.unwrap_or("")),
                        Some(t.index),
                        "the swept parameter is not a number: the test has no level",
                    ));
                }
                let mut figures = BTreeMap::from([(t.figure.to_owned(), t.rate)]);
                if let Some(s) = t.stddev {
                    figures.insert(format!("{}_stddev", t.figure), s);
                }
                let mut p =
                    summary_point(&format!("{file}#{}", t.index + 1), ID, level, None, figures);
                if let Some(r) = t.recomputed {
                    p.reported.recomputed.insert(t.figure.to_owned(), r);
                }
                points.push(p);
            }
            runs.push(Run {
                label,
                source_format: ID.into(),
                meta,
                points,
                axis: axis.map(str::to_owned),
            });
        }
    }
    Ok((
        Report {
            meta: Metadata::default(),
            runs,
        },
        diags,
    ))
}

fn read_test(file: &str, i: usize, r: &Value, diags: &mut Vec<Diagnostic>) -> Option<Test> {
    let (Some(np), Some(ng)) = (num(r, "n_prompt"), num(r, "n_gen")) else {
        diags.push(Diagnostic::warning(
            file,
            &format!("[{i}]"),
            Some(i),
            "no n_prompt / n_gen: test skipped",
        ));
        return None;
    };
    let Some(rate) = num(r, "avg_ts").filter(|v| v.is_finite() && *v > 0.0) else {
        diags.push(Diagnostic::warning(
            file,
            &format!("[{i}].avg_ts"),
            Some(i),
            "avg_ts is missing or not a positive number: test skipped",
        ));
        return None;
    };
    let (figure, shape) = match (np > 0.0, ng > 0.0) {
        (false, true) => ("avg_ts", format!("tg{ng}")),
        (true, false) => ("prefill_avg_ts", format!("pp{np}")),
        _ => ("mixed_avg_ts", format!("pp{np}+tg{ng}")),
    };
    // The depth (tokens already in the context) is a swept parameter like the others: tests of one
    // kind at several depths are one run with depth on the x axis, not a run per depth.
    let recomputed = at(r, "samples_ns").and_then(Value::as_array).and_then(|s| {
        let rates: Vec<f64> = s
            .iter()
            .map(|x| common::num_of(Some(x)).or_nan())
            .filter(|ns| *ns > 0.0)
            .map(|ns| (np + ng) * 1e9 / ns)
            .collect();
        crate::stats::mean(&rates)
    });
    let mut params = BTreeMap::new();
    for p in SWEPT {
        if let Some(v) = at(r, p) {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            params.insert(*p, text);
        }
    }
    let model = common::first_text(r, &["model_type", "model_filename"])
        .unwrap_or_else(|| "llama-bench".into());
    Some(Test {
        index: i,
        model: model.clone(),
        shape,
        figure,
        rate,
        recomputed,
        stddev: num(r, "stddev_ts"),
        params,
        meta: Metadata {
            engine: Some("llama.cpp".into()),
            engine_version: common::first_text(r, &["build_commit", "build_number"]),
            model: common::text(r, "model_filename").or(Some(model)),
            gpu: common::first_text(r, &["gpu_info", "cpu_info"]),
            ..Metadata::default()
        },
    })
}
