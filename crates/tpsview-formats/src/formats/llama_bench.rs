//! llama.cpp `llama-bench -o json` (an array) and `-o jsonl` (one test per line). Each test is
//! one sequence: a prompt-processing test (`n_gen = 0`), a generation test (`n_prompt = 0`), or
//! both. Tests of one model and shape form a run; the parameter a sweep varies (threads, batch
//! size, depth…) is the run's level axis. The per-repetition samples are re-aggregated to audit
//! `avg_ts`.

use super::{Format, FormatSpec};
pub use crate::tools::llama_bench::{ID, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, num, read_values, records, summary_point};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run, SampleKind, Samples};

/// llama.cpp `llama-bench -o json|jsonl`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::LlamaBench,
    detect: |has, _| has("\"avg_ts\"") && has("\"n_gen\"") && has("\"n_prompt\""),
    keys: &[
        "avg_ts",
        "n_gen",
        "n_prompt",
        "build_commit",
        "model_type",
        "samples_ns",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// llama-bench's default output (`-o md`): Markdown tables in a console log.
pub const TABLE_SPEC: FormatSpec = FormatSpec {
    format: Format::LlamaBenchTable,
    detect: |has, _| table::detect(has),
    keys: &["| model", " test |", "t/s |", "build:"],
    parse: |f, b, _| table::parse(f, b),
    summary_partners: &[],
    stream: None,
};

mod table;

/// Parameters that can be a run's level axis, in the order tried: the first that varies among a
/// run's tests is its x axis. The test's own size (`n_prompt` of a prompt test, `n_gen` of a
/// generation test) comes last: a sweep of sizes is a sweep only when nothing else is.
const AXES: &[&str] = &[
    "n_depth",
    "n_threads",
    "n_batch",
    "n_ubatch",
    "n_gpu_layers",
    "n_cpu_moe",
    "n_prompt",
    "n_gen",
];

/// Keys that are a test's result or time, not how it ran: never what tells runs apart.
const RESULTS: &[&str] = &[
    "test_time",
    "avg_ns",
    "stddev_ns",
    "avg_ts",
    "stddev_ts",
    "samples_ns",
    "samples_ts",
];

/// Keys that describe the model its run is named after (its file name stays a setting: two files
/// of one model type are two runs).
const MODEL_KEYS: &[&str] = &["model_type", "model_size", "model_n_params"];

/// One test, read.
struct Test {
    index: usize,
    model: String,
    /// `pp`, `tg` or `pp+tg`.
    kind: &'static str,
    figure: &'static str,
    rate: f64,
    /// `samples_ns`: each repetition's time, for the analysis to check the rate against.
    samples: Option<Samples>,
    stddev: Option<f64>,
    /// Every setting the test states (its scalar keys less results and the model's name), as text.
    params: BTreeMap<String, String>,
    meta: Metadata,
}

impl Test {
    fn param(&self, k: &str) -> Option<&str> {
        self.params.get(k).map(String::as_str)
    }

    /// `pp512`, `tg128`, `pp512+tg128`, less the part that is the run's axis.
    fn shape(&self, axis: Option<&str>) -> String {
        let part = |p: &str, key: &str| match axis {
            Some(a) if a == key => p.to_owned(),
            _ => format!("{p}{}", self.param(key).unwrap_or("?")),
        };
        let shape = match self.kind {
            "pp" => part("pp", "n_prompt"),
            "tg" => part("tg", "n_gen"),
            _ => format!("{}+{}", part("pp", "n_prompt"), part("tg", "n_gen")),
        };
        // `@ d4096`, as llama-bench names a test run after a pre-filled context.
        match self
            .param("n_depth")
            .filter(|d| *d != "0" && axis != Some("n_depth"))
        {
            Some(d) => format!("{shape} @ d{d}"),
            None => shape,
        }
    }
}

/// Parses a llama-bench JSON or JSONL file. Files often hold several invocations appended (other
/// builds, backends, flags, models, sizes): tests of one model and kind (prompt, generation or
/// both) are split into runs by every setting that differs among them but the one they sweep,
/// and each run is named by those settings; tests that repeat a run's setting and level start a
/// run of their own (`repeat 2`), so no two points of a run share a level.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let recs = records(read_values(file, bytes, &mut diags)?);
    parse_tests(file, &recs, diags)
}

/// The tests of a file (JSON objects as `-o json` writes them), grouped into runs.
fn parse_tests(
    file: &str,
    recs: &[Value],
    mut diags: Vec<Diagnostic>,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
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
    let mut groups: BTreeMap<(String, &'static str), Vec<Test>> = BTreeMap::new();
    for t in tests {
        groups.entry((t.model.clone(), t.kind)).or_default().push(t);
    }
    let mut runs = Vec::new();
    for ((model, _), tests) in groups {
        let varies = |k: &str| tests.iter().any(|t| t.param(k) != tests[0].param(k));
        // A numeric setting only: a level is a number.
        let axis = AXES.iter().copied().find(|k| {
            varies(k)
                && tests
                    .iter()
                    .all(|t| t.param(k).is_some_and(|v| v.parse::<f64>().is_ok()))
        });
        let split: Vec<String> = tests
            .iter()
            .flat_map(|t| t.params.keys())
            .filter(|k| Some(k.as_str()) != axis && varies(k))
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        // (settings that tell runs apart, repeat) → tests, in file order within each.
        let mut by_run: BTreeMap<(Vec<Option<String>>, usize), Vec<Test>> = BTreeMap::new();
        let mut seen: BTreeMap<(Vec<Option<String>>, String), usize> = BTreeMap::new();
        for t in tests {
            let key: Vec<Option<String>> = split
                .iter()
                .map(|k| t.param(k).map(str::to_owned))
                .collect();
            let level = axis.and_then(|a| t.param(a)).unwrap_or("").to_owned();
            let n = seen.entry((key.clone(), level)).or_insert(0);
            *n += 1;
            by_run.entry((key, *n)).or_default().push(t);
        }
        for ((key, repeat), tests) in by_run {
            let mut label = format!("{model} · {}", tests[0].shape(axis));
            for (k, v) in split.iter().zip(&key) {
                label.push_str(&format!(" · {k}={}", v.as_deref().unwrap_or("–")));
            }
            if repeat > 1 {
                label.push_str(&format!(" · repeat {repeat}"));
            }
            let meta = tests[0].meta.clone();
            let mut points = Vec::new();
            for t in tests {
                // One sequence: without a swept setting the test is at concurrency 1.
                let level = match axis {
                    Some(a) => t.param(a).and_then(|v| v.parse::<f64>().ok()),
                    None => Some(1.0),
                };
                let mut figures = BTreeMap::from([(t.figure.to_owned(), t.rate)]);
                if let Some(s) = t.stddev {
                    figures.insert(format!("{}_stddev", t.figure), s);
                }
                let mut p =
                    summary_point(&format!("{file}#{}", t.index + 1), ID, level, None, figures);
                p.samples = t.samples;
                points.push(p);
            }
            runs.push(Run {
                label: label.into(),
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
    let (figure, kind) = match (np > 0.0, ng > 0.0) {
        (false, true) => ("avg_ts", "tg"),
        (true, false) => ("prefill_avg_ts", "pp"),
        _ => ("mixed_avg_ts", "pp+tg"),
    };
    // The depth (tokens already in the context) is a swept parameter like the others: tests of one
    // kind at several depths are one run with depth on the x axis, not a run per depth.
    let samples = at(r, "samples_ns")
        .and_then(Value::as_array)
        .map(|s| Samples {
            of: SampleKind::RepetitionNs,
            values: s
                .iter()
                .map(|x| common::num_of(Some(x)).or_nan())
                .filter(|ns| *ns > 0.0)
                .collect(),
            tokens: Some(np + ng),
        });
    let mut params = BTreeMap::new();
    if let Some(o) = r.as_object() {
        for (k, v) in o {
            if RESULTS.contains(&k.as_str()) || MODEL_KEYS.contains(&k.as_str()) {
                continue;
            }
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(_) | Value::Bool(_) => v.to_string(),
                _ => continue,
            };
            params.insert(k.clone(), text);
        }
    }
    let model = common::first_text(r, &["model_type", "model_filename"])
        .unwrap_or_else(|| "llama-bench".into());
    Some(Test {
        index: i,
        model: model.clone(),
        kind,
        figure,
        rate,
        samples,
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
