//! `vllm bench sweep serve` output: an experiment directory with one directory per combination of
//! server and benchmark settings, named `SERVE-<serve>-BENCH-<bench>` (each side `k=v-k=v`, or
//! the name the parameter file gave), holding `run=N.json` per repeat (a `bench serve` result
//! with `run_number` and the overrides merged in), `summary.json` (those results as one array),
//! maybe `warmup.json` (`run_number` −1) and `run=N.failure.json` (a run that failed), and at the
//! top `summary.csv` (every run, one row each).
//!
//! tpsview makes a run of each server setting (and each benchmark setting other than the level),
//! with the levels by concurrency or rate; each repeat is its own run (`· run=N`, the tool's file
//! name), so repeats show as a spread, never as a silent average.

use crate::model::{RepeatKey, RunName};
use std::collections::BTreeMap;

use crate::error::{Diagnostic, ParseError};
use crate::formats::{Format, FormatSpec};
use crate::model::Report;

/// Format id of a sweep's top-level `summary.csv`.
pub const CSV_ID: &str = "vllm-sweep-csv";

/// `vllm bench sweep serve`'s `summary.csv` (every run, one row each, as pandas writes it).
pub const CSV_SPEC: FormatSpec = FormatSpec {
    format: Format::VllmSweepCsv,
    detect: |has, head| {
        head.first() == Some(&b',')
            && has("run_number")
            && (has("output_throughput") || has("mean_tpot_ms"))
    },
    keys: &[
        "max_concurrency",
        "run_number",
        "output_throughput",
        "mean_ttft_ms",
    ],
    parse: |f, b, _| parse_csv(f, b),
    summary_partners: &[],
    stream: None,
};

/// The sweep facts of one result object.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The setting, as the combination's directory names it less the level (`max_num_seqs=32,
    /// max_num_batched_tokens=1024`), or the parameter file's `_benchmark_name`; empty when
    /// neither says.
    pub setting: String,
    /// The repeat (`run_number`; −1 for the warm-up run).
    pub run: i64,
    /// The keys of the object the directory name spells (overrides, the level's included): kept
    /// as metadata, not taken as the tool's figures.
    pub overrides: Vec<String>,
}

impl Sweep {
    /// The run's name: `base · <setting>`, repeat `run=N` of that setup (the warm-up run is no
    /// repeat: `base · <setting> · warm-up`).
    pub fn name(&self, base: &str) -> RunName {
        let mut setup = base.to_owned();
        if !self.setting.is_empty() {
            setup.push_str(" · ");
            setup.push_str(&self.setting);
        }
        match u64::try_from(self.run) {
            Ok(n) => RunName::setup(setup).with_repeat(RepeatKey::Run, n),
            Err(_) => RunName::setup(setup + " · warm-up"),
        }
    }
}

/// The overrides that are the level, not the setting: the level itself, and the prompts sent at
/// it, which sweeps scale with the level (`BENCH--max_concurrency=16-num_prompts=160-…`: a
/// setting of their own would make every level a run of one point; the level's requests say
/// how many there were).
const LEVEL_KEYS: &[&str] = &["max_concurrency", "request_rate", "num_prompts"];

/// The combination directory of a path (`…/SERVE-…-BENCH-…/run=0.json`), if it has one.
fn comb_dir(file: &str) -> Option<&str> {
    let mut parts: Vec<&str> = file.split(['/', '\\']).collect();
    parts.pop(); // the file itself
    parts
        .into_iter()
        .rev()
        .find(|p| p.starts_with("SERVE-") || p.starts_with("BENCH-"))
}

/// A number as Python's `str()` writes it in the directory name (`32`, `0.5`).
fn python_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Where `-k=v` stands in `dir` as a whole part (followed by `-` or the end).
fn find_part(dir: &str, key: &str, value: &str) -> Option<(usize, usize)> {
    let needle = format!("-{key}={value}");
    dir.match_indices(&needle)
        .map(|(i, _)| (i, i + needle.len()))
        .find(|&(_, end)| matches!(dir.as_bytes().get(end), None | Some(b'-')))
}

/// The directory name as a setting: the `SERVE-` and `BENCH-` parts less the level's parts
/// (`levels`: byte ranges of `-max_concurrency=16` and the like), `k=v` parts joined by `, `.
fn setting_text(dir: &str, levels: &[(usize, usize)]) -> String {
    let mut kept = String::new();
    let mut at = 0;
    for &(a, b) in levels {
        kept.push_str(&dir[at..a]);
        at = b;
    }
    kept.push_str(&dir[at..]);
    let mut parts: Vec<String> = Vec::new();
    for side in kept.split("BENCH-") {
        let side = side.trim_start_matches("SERVE-").trim_matches('-');
        if side.is_empty() {
            continue;
        }
        // A `-` that starts another `key=` is a separator; any other (a negative value, a name's
        // own dash) is text.
        let mut text = String::new();
        let b = side.as_bytes();
        for (i, ch) in side.char_indices() {
            let starts_key = ch == '-' && {
                let rest = &side[i + 1..];
                let key_len = rest
                    .bytes()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
                    .count();
                key_len > 0
                    && rest.as_bytes().get(key_len) == Some(&b'=')
                    && b.get(i + 1)
                        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            };
            if starts_key {
                text.push_str(", ");
            } else {
                text.push(ch);
            }
        }
        parts.push(text);
    }
    parts.join(", ")
}

/// The sweep facts of a result object of `file` with these numbers and texts, when it is a sweep's
/// (it has a `run_number`). The setting is the combination directory's name less the level; a
/// key whose `k=v` (as the object holds it) the name spells is an override. Without that
/// directory (a `summary.json` pasted alone), only the parameter file's `_benchmark_name` names
/// the setting.
pub fn sweep_of(
    file: &str,
    numbers: &BTreeMap<String, f64>,
    strings: &BTreeMap<String, String>,
) -> Option<Sweep> {
    let run = *numbers.get("run_number")?;
    let run = if run.is_finite() { run as i64 } else { 0 };
    let Some(dir) = comb_dir(file) else {
        return Some(Sweep {
            setting: strings.get("_benchmark_name").cloned().unwrap_or_default(),
            run,
            overrides: Vec::new(),
        });
    };
    let values = numbers
        .iter()
        .filter(|(k, _)| k.as_str() != "run_number")
        .map(|(k, v)| (k.clone(), python_text(*v)))
        .chain(strings.iter().map(|(k, v)| (k.clone(), v.clone())));
    let mut overrides = Vec::new();
    let mut levels = Vec::new();
    for (k, v) in values {
        if let Some(range) = find_part(dir, &k, &v) {
            if LEVEL_KEYS.contains(&k.as_str()) {
                levels.push(range);
            }
            overrides.push(k);
        }
    }
    levels.sort_unstable();
    Some(Sweep {
        setting: setting_text(dir, &levels),
        run,
        overrides,
    })
}

/// Why a file of a folder is not read, when the sweep's layout says so; `None` to read it.
/// `run_dirs` are the directories holding `run=N.json` files (collected once per folder; only the
/// few files these names match look them up).
fn skip_reason(path: &str, run_dirs: &[&str], trials: bool) -> Option<&'static str> {
    let (dir, name) = split(path);
    let has_runs_below = || {
        run_dirs.iter().any(|d| {
            d.len() > dir.len()
                && d.starts_with(dir)
                && (dir.is_empty() || matches!(d.as_bytes()[dir.len()], b'/' | b'\\'))
        })
    };
    match name {
        "mlperf_log_accuracy.json" => Some("MLPerf's accuracy log: the outputs, not their timings"),
        "mlperf_log_trace.json" => Some("MLPerf's trace log: not the run's figures"),
        "summary.json" if run_dirs.contains(&dir) => {
            Some("the run=N.json files beside it hold the same results (vllm bench sweep serve)")
        }
        "warmup.json" if run_dirs.contains(&dir) => {
            Some("the sweep's warm-up run (--warmup-num-prompts), not a measurement")
        }
        "summary.csv" if has_runs_below() => {
            Some("the run=N.json files under it hold the same results (vllm bench sweep serve)")
        }
        "profile_export_aiperf_aggregate.json"
        | "profile_export_aiperf_aggregate.csv"
        | "profile_export_aiperf_sweep.json"
        | "profile_export_aiperf_sweep.csv"
            if trials =>
        {
            Some("AIPerf's aggregate over the trials read beside it (profile_runs/…: each a repeat, their spread computed from them)")
        }
        _ => None,
    }
}

/// What to read of a folder's files: the benchmark files (by extension) in natural order, less
/// those a sweep's layout repeats.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// Indices into the paths given, in reading order.
    pub read: Vec<usize>,
    /// Files left out and why, in path order.
    pub skipped: Vec<(usize, &'static str)>,
}

/// Chooses the files of a folder (its files and its sub-directories' files, `paths` relative to
/// anywhere above it): `.json`, `.jsonl`, `.csv` files and MLPerf's `mlperf_log_*.txt`, sorted as people read them
/// ([`natural_cmp`]), less those a sweep's layout repeats (`summary.json` and `warmup.json` beside
/// `run=N.json` files, `summary.csv` above them, a summary CSV beside its JSON twin) and MLPerf's accuracy and trace logs. The CLI and the viewer (a dropped or
/// picked folder) read folders through this.
pub fn select(paths: &[&str]) -> Selection {
    let mut order: Vec<usize> = (0..paths.len())
        .filter(|&i| {
            let (_, name) = split(paths[i]);
            // MLPerf's logs are text; other .txt files are not benchmark files.
            name.starts_with("mlperf_log_") && name.ends_with(".txt")
                || name.rsplit_once('.').is_some_and(|(_, e)| {
                    matches!(
                        e.to_ascii_lowercase().as_str(),
                        "json" | "jsonl" | "csv" | "yaml" | "yml"
                    )
                })
        })
        .collect();
    order.sort_by(|&a, &b| natural_cmp(paths[a], paths[b]));
    // In path order, a directory's run files are adjacent: each directory once.
    let mut run_dirs: Vec<&str> = Vec::new();
    for &i in &order {
        let (dir, name) = split(paths[i]);
        if is_run_file(name) && run_dirs.last() != Some(&dir) {
            run_dirs.push(dir);
        }
    }
    // AIPerf's multi-run mode: its trials' own files are read (each a repeat), not its aggregates.
    let trials = order
        .iter()
        .any(|&i| super::super::common::aiperf_trial(paths[i]).is_some());
    let mut out = Selection::default();
    for i in order {
        // A summary CSV beside its JSON twin (`profile_export_aiperf.csv` by
        // `profile_export_aiperf.json`, GuideLLM's `benchmarks.csv` by `benchmarks.json`): the
        // same figures, rounded; the JSON is read.
        let twin = paths[i]
            .strip_suffix(".csv")
            .is_some_and(|stem| paths.contains(&format!("{stem}.json").as_str()));
        if twin {
            out.skipped.push((
                i,
                "the JSON file of the same name beside it holds the same figures, unrounded",
            ));
            continue;
        }
        match skip_reason(paths[i], &run_dirs, trials) {
            Some(why) => out.skipped.push((i, why)),
            None => out.read.push(i),
        }
    }
    out
}

/// Orders paths as people read them: runs of digits by their value (`max_num_seqs=8` before
/// `max_num_seqs=16`, `run=2` before `run=10`), the rest by character.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, _) => return std::cmp::Ordering::Less,
            (_, None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let o = na
                    .len()
                    .cmp(&nb.len())
                    .then_with(|| na.cmp(nb))
                    .then(da.cmp(&db));
                if o.is_ne() {
                    return o;
                }
                (a, b) = (&a[da..], &b[db..]);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

/// The digits of a number without its leading zeros (one `0` left for zero).
fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|c| **c == b'0').count();
    &d[z.min(d.len().saturating_sub(1))..]
}

/// `(directory, file name)` of a path.
fn split(path: &str) -> (&str, &str) {
    match path.rfind(['/', '\\']) {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

/// `run=N.json`.
fn is_run_file(name: &str) -> bool {
    name.strip_prefix("run=")
        .and_then(|r| r.strip_suffix(".json"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A sweep's `run=N.failure.json` (a run that failed): a warning naming the file, the run and the
/// error; `None` for any other file.
pub fn failure(file: &str, bytes: &[u8]) -> Option<Diagnostic> {
    let (_, name) = split(file);
    if !name.ends_with(".failure.json") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(super::super::strip_bom(bytes)).ok()?;
    let text = |k: &str| v.get(k).and_then(serde_json::Value::as_str);
    let error = text("error")?;
    let what = match v.get("run_number").and_then(serde_json::Value::as_i64) {
        Some(n) => format!("run {n} of this setting failed"),
        None => "a server setting failed to start".to_owned(),
    };
    Some(Diagnostic::warning(
        file,
        "error",
        None,
        format!(
            "{what} ({}: {error}); the sweep's other runs are read",
            text("error_type").unwrap_or("error")
        ),
    ))
}

/// Columns of a vLLM result (its figures, configuration and per-request lists): never part of
/// the server setting.
fn is_result_column(k: &str) -> bool {
    const EXACT: &[&str] = &[
        "date",
        "endpoint_type",
        "backend",
        "label",
        "model_id",
        "tokenizer_id",
        "num_prompts",
        "request_rate",
        "burstiness",
        "max_concurrency",
        "duration",
        "completed",
        "failed",
        "total_input_tokens",
        "total_output_tokens",
        "request_throughput",
        "request_goodput",
        "output_throughput",
        "total_token_throughput",
        "max_output_tokens_per_s",
        "max_concurrent_requests",
        "run_number",
        "_benchmark_name",
        "input_lens",
        "output_lens",
        "ttfts",
        "itls",
        "generated_texts",
        "errors",
        "start_times",
        "latencies",
        "queue_times",
    ];
    EXACT.contains(&k)
        || ["mean_", "median_", "std_", "spec_decode_"]
            .iter()
            .any(|p| k.starts_with(p))
        || k.ends_with("_ms")
        || k.ends_with("_throughput")
        || k.ends_with("_per_s")
}

/// Parses a sweep's `summary.csv`: each row a `bench serve` result with `run_number` and the
/// overrides merged in, the first column pandas' index. The setting is the columns that are not a
/// result's and whose values differ between rows (the swept server and benchmark parameters);
/// each row is then read as vLLM's result object, named by that setting and its repeat.
pub fn parse_csv(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let text = String::from_utf8_lossy(super::super::strip_bom(bytes));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = super::super::common::csv_fields(lines.next().unwrap_or_default());
    let rows: Vec<Vec<String>> = lines.map(super::super::common::csv_fields).collect();
    if rows.is_empty() {
        return Err(super::super::common::no_data(
            file,
            "a header and no row: the sweep wrote no run",
        ));
    }
    // Varying non-result columns: the setting.
    let setting_cols: Vec<usize> = (1..header.len())
        .filter(|&c| !is_result_column(&header[c]))
        .filter(|&c| {
            let first = rows[0].get(c);
            rows.iter().any(|r| r.get(c) != first)
        })
        .collect();
    let mut objects = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let mut o = serde_json::Map::new();
        for (c, name) in header.iter().enumerate().skip(1) {
            let Some(v) = row.get(c).map(|v| v.trim()) else {
                continue;
            };
            if v.is_empty() || v.starts_with('[') || name.is_empty() {
                continue; // pandas' NaN, or a per-request list written as text
            }
            let value = match v.parse::<f64>() {
                Ok(x) if x.is_finite() => serde_json::json!(x),
                _ => serde_json::json!(v),
            };
            o.insert(name.clone(), value);
        }
        if !o.contains_key("run_number") {
            return Err(super::super::common::no_data(
                file,
                &format!("row {} has no run_number", i + 1),
            ));
        }
        let setting: Vec<String> = setting_cols
            .iter()
            .filter_map(|&c| Some(format!("{}={}", header[c], row.get(c)?.trim())))
            .collect();
        let name = o
            .get("_benchmark_name")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        let label = match (name, setting.is_empty()) {
            (Some(n), true) => n,
            (Some(n), false) => format!("{n}, {}", setting.join(", ")),
            (None, _) => setting.join(", "),
        };
        o.insert("_benchmark_name".into(), serde_json::json!(label));
        objects.push(serde_json::Value::Object(o));
    }
    let bytes = serde_json::to_vec(&objects).unwrap_or_default();
    let (mut report, diags) = super::parse(file, &bytes)?;
    for run in &mut report.runs {
        run.source_format = CSV_ID.into();
    }
    Ok((report, diags))
}

#[cfg(test)]
#[path = "sweep_tests.rs"]
mod tests;
