//! llama-benchy's Markdown table (eugr/llama-benchy `results.py` `_generate_md_report`: tabulate's
//! pipe table, `| model | test | t/s | peak t/s | ttfr (ms) | est_ppt (ms) | e2e_ttft (ms) |`, or
//! with concurrency `t/s (total) | t/s (req) | peak t/s | peak t/s (req)`; cells `mean ± std`,
//! empty where a row has no such figure), as the tool prints it, saves it (`--save-result`) or
//! people paste it. The test names say the rest: `pp2048`, `tg32`, ` @ d4096` (context depth),
//! ` (c8)` (concurrency), `ctx_pp`/`ctx_tg` (the context-load request of a prefix-caching run).
//! A configuration's pp row and the tg row after it at the same depth and concurrency come from
//! the same requests: one point, whose run is the model, the test sizes and the depth, and whose
//! level is the concurrency. Figures are copied under the tool's names (`pp_ts_total`,
//! `tg_ts_req`, `ttfr_ms`, …, each with its `_std`).

use std::collections::BTreeMap;

use super::common;
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported, Run};
pub use crate::tools::llama_benchy::{ID, VOCABULARY};

/// llama-benchy's Markdown table.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::LlamaBenchy,
    detect: |has, _| {
        (has("| model") && has("ttfr (ms)") && has("est_ppt (ms)"))
            || (has("\"pp_throughput\"") && has("\"tg_throughput\"") && has("\"benchmarks\""))
    },
    keys: &[
        "| model",
        "ttfr (ms)",
        "est_ppt (ms)",
        "benchmarks",
        "pp_throughput",
        "tg_throughput",
        "prompt_size",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// At most this many rows read.
const MAX_ROWS: usize = 100_000;

/// A test name's parts: `pp2048 @ d4096 (c8)`.
#[derive(Debug, Clone, PartialEq)]
struct Test {
    /// `pp`, `tg`, `ctx_pp` or `ctx_tg`.
    kind: String,
    size: u64,
    depth: u64,
    concurrency: Option<u64>,
}

fn test_of(name: &str) -> Option<Test> {
    let mut rest = name.trim();
    let mut concurrency = None;
    if let Some(open) = rest.rfind(" (c") {
        let c = rest[open + 3..].strip_suffix(')')?;
        concurrency = Some(c.parse().ok()?);
        rest = rest[..open].trim();
    }
    let (head, depth) = match rest.split_once(" @ d") {
        Some((h, d)) => (h.trim(), d.trim().parse().ok()?),
        None => (rest, 0),
    };
    // `ctx_pp @ d8192`: the context-load request, whose size is the depth.
    if matches!(head, "ctx_pp" | "ctx_tg") {
        return Some(Test {
            kind: head.to_owned(),
            size: depth,
            depth,
            concurrency,
        });
    }
    let digits = head.find(|c: char| c.is_ascii_digit())?;
    let kind = &head[..digits];
    if !matches!(kind, "pp" | "tg") {
        return None;
    }
    Some(Test {
        kind: kind.to_owned(),
        size: head[digits..].parse().ok()?,
        depth,
        concurrency,
    })
}

/// `8421.60 ± 292.87` → (mean, std); an empty or `—` cell → none.
fn cell(text: &str) -> Option<(f64, Option<f64>)> {
    let t = text.trim();
    let (mean, std) = match t.split_once('±') {
        Some((m, s)) => (m.trim(), Some(s.trim())),
        None => (t, None),
    };
    let mean: f64 = mean.replace(',', "").parse().ok()?;
    let std = std.and_then(|s| s.replace(',', "").parse::<f64>().ok());
    mean.is_finite()
        .then_some((mean, std.filter(|s| s.is_finite())))
}

/// A column's name among the tool's figures, for a pp or tg row.
fn figure(column: &str, pp: bool) -> Option<&'static str> {
    let p = |a, b| Some(if pp { a } else { b });
    match column {
        "t/s" | "t/s (total)" => p("pp_ts_total", "tg_ts_total"),
        "t/s (req)" => p("pp_ts_req", "tg_ts_req"),
        "peak t/s" => p("pp_peak_ts", "tg_peak_ts"),
        "peak t/s (req)" => p("pp_peak_ts_req", "tg_peak_ts_req"),
        "ttfr (ms)" => Some("ttfr_ms"),
        "est_ppt (ms)" => Some("est_ppt_ms"),
        "e2e_ttft (ms)" => Some("e2e_ttft_ms"),
        _ => None,
    }
}

fn cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// One row read.
struct Row {
    model: String,
    test: Test,
    figures: BTreeMap<String, f64>,
    line: usize,
}

/// Parses llama-benchy's tables, or its JSON.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let body = crate::formats::strip_bom(bytes);
    if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return json::parse(file, body);
    }
    let text = String::from_utf8_lossy(body);
    let mut diags = Vec::new();
    let mut header: Option<Vec<String>> = None;
    let mut rows: Vec<Row> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(c) = cells(line) else {
            header = None;
            continue;
        };
        if c.first() == Some(&"model") && c.get(1) == Some(&"test") {
            header = Some(c.iter().map(|s| (*s).to_owned()).collect());
            continue;
        }
        let Some(h) = &header else { continue };
        if c.iter()
            .all(|x| x.chars().all(|ch| matches!(ch, '-' | ':')))
        {
            continue;
        }
        let Some(test) = c.get(1).and_then(|t| test_of(t)) else {
            diags.push(Diagnostic::warning(
                file,
                "test",
                Some(i + 1),
                format!(
                    "line {}: test {:?} is not a llama-benchy test name: left out",
                    i + 1,
                    c.get(1).unwrap_or(&"")
                ),
            ));
            continue;
        };
        let pp = test.kind.ends_with("pp");
        let mut figures = BTreeMap::new();
        for (col, v) in h.iter().zip(&c).skip(2) {
            let (Some(name), Some((mean, std))) = (figure(col, pp), cell(v)) else {
                continue;
            };
            figures.insert(name.to_owned(), mean);
            if let Some(s) = std {
                figures.insert(format!("{name}_std"), s);
            }
        }
        if rows.len() >= MAX_ROWS {
            diags.push(Diagnostic::warning(
                file,
                "test",
                None,
                format!("more than {MAX_ROWS} rows: the rest is not read"),
            ));
            break;
        }
        rows.push(Row {
            model: c[0].to_owned(),
            test,
            figures,
            line: i + 1,
        });
    }
    if rows.is_empty() {
        return Err(common::no_data(
            file,
            "no llama-benchy table row (a `| model | test | t/s … | ttfr (ms) | est_ppt (ms) |` header, then `pp…`/`tg…` tests)",
        ));
    }
    // A pp row and the tg row after it (same model, depth, concurrency): one point.
    let mut points: Vec<(String, Point)> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let r = &rows[i];
        let pair = rows.get(i + 1).filter(|n| {
            r.test.kind.ends_with("pp")
                && n.test.kind.ends_with("tg")
                && n.test.kind.starts_with("ctx") == r.test.kind.starts_with("ctx")
                && n.model == r.model
                && n.test.depth == r.test.depth
                && n.test.concurrency == r.test.concurrency
        });
        let (pp, tg) = match (r.test.kind.ends_with("pp"), pair) {
            (true, Some(n)) => (Some(r), Some(n)),
            (true, None) => (Some(r), None),
            (false, _) => (None, Some(r)),
        };
        i += if pair.is_some() { 2 } else { 1 };
        // `r`, the level's first row, names its model, depth and concurrency.
        let mut figures = BTreeMap::new();
        for x in [pp, tg].into_iter().flatten() {
            figures.extend(x.figures.clone());
        }
        let t = &r.test;
        let sizes = match (pp, tg) {
            (Some(p), Some(g)) => format!("pp{}/tg{}", p.test.size, g.test.size),
            (Some(p), None) => format!("pp{}", p.test.size),
            (None, Some(g)) => format!("tg{}", g.test.size),
            (None, None) => String::new(),
        };
        let ctx = if t.kind.starts_with("ctx") {
            " · context load"
        } else {
            ""
        };
        let depth = if t.depth > 0 {
            format!(" @ d{}", t.depth)
        } else {
            String::new()
        };
        let label = format!("{} · {sizes}{depth}{ctx}", r.model);
        let c = t.concurrency.unwrap_or(1);
        points.push((
            label,
            point(format!("{file}:{}", r.line), c as f64, figures),
        ));
    }
    Ok((
        Report {
            meta: Metadata::default(),
            runs: runs_of(points, None),
        },
        diags,
    ))
}

/// A level of llama-benchy's: its figures under the tool's names.
fn point(source: String, concurrency: f64, figures: BTreeMap<String, f64>) -> Point {
    Point {
        source_file: source,
        concurrency: Some(concurrency),
        reported: Reported {
            tool: ID.to_owned(),
            figures,
            recomputed: BTreeMap::new(),
        },
        ..Point::default()
    }
}

/// Points by their run's label (`model · sizes @ depth`), in first-seen order.
fn runs_of(points: Vec<(String, Point)>, version: Option<String>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (label, point) in points {
        match runs.iter_mut().find(|r| r.label == *label.as_str()) {
            Some(r) => r.points.push(point),
            None => {
                let model = label.split(" · ").next().unwrap_or_default().to_owned();
                let mut labels: BTreeMap<String, String> = BTreeMap::new();
                let from = if version.is_some() {
                    "llama-benchy's JSON"
                } else {
                    "llama-benchy's table"
                };
                labels.insert("read from".into(), from.into());
                if let Some(v) = &version {
                    labels.insert("llama-benchy version".into(), v.clone());
                }
                runs.push(Run {
                    label: label.into(),
                    source_format: ID.into(),
                    meta: Metadata {
                        model: Some(model),
                        labels,
                        ..Metadata::default()
                    },
                    points: vec![point],
                    axis: None,
                })
            }
        }
    }
    runs
}

/// llama-benchy's `--format json` (its `results.py`, `BenchmarkReport`: `model`, `version`, and
/// `benchmarks`, each a configuration at a concurrency with `prompt_size`, `response_size`,
/// `context_size` and its metrics as `{mean, std, values}`, the times in ms).
mod json {
    use std::collections::BTreeMap;

    use serde_json::Value;

    use super::{point, runs_of};
    use crate::error::{Diagnostic, ParseError};
    use crate::formats::common;
    use crate::model::{Metadata, Report};

    /// Its metrics and the names the table's columns give them.
    const METRICS: &[(&str, &str)] = &[
        ("pp_throughput", "pp_ts_total"),
        ("pp_req_throughput", "pp_ts_req"),
        ("tg_throughput", "tg_ts_total"),
        ("tg_req_throughput", "tg_ts_req"),
        ("peak_throughput", "tg_peak_ts"),
        ("peak_req_throughput", "tg_peak_ts_req"),
        ("ttfr", "ttfr_ms"),
        ("est_ppt", "est_ppt_ms"),
        ("e2e_ttft", "e2e_ttft_ms"),
    ];

    pub(super) fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
        let mut diags = Vec::new();
        let values = common::read_values(file, bytes, &mut diags)?;
        let root = &values[0];
        let model = common::text(root, "model").unwrap_or_else(|| "llama-benchy".into());
        let version = common::text(root, "version");
        let list = root
            .get("benchmarks")
            .and_then(Value::as_array)
            .ok_or_else(|| common::no_data(file, "no `benchmarks` list"))?;
        let mut points = Vec::new();
        for (i, b) in list.iter().enumerate() {
            let size = |k: &str| b.get(k).and_then(Value::as_u64);
            let (Some(pp), Some(tg)) = (size("prompt_size"), size("response_size")) else {
                diags.push(Diagnostic::warning(
                    file,
                    "prompt_size",
                    Some(i),
                    "no prompt_size or response_size: left out",
                ));
                continue;
            };
            let depth = size("context_size").unwrap_or(0);
            let c = b
                .get("concurrency")
                .and_then(Value::as_f64)
                .filter(|c| c.is_finite() && *c >= 1.0)
                .unwrap_or(1.0);
            let mut figures = BTreeMap::new();
            for (key, name) in METRICS {
                let m = b.get(*key);
                let at = |k: &str| {
                    m.and_then(|m| m.get(k))
                        .and_then(Value::as_f64)
                        .filter(|x| x.is_finite())
                };
                if let Some(mean) = at("mean") {
                    figures.insert((*name).to_owned(), mean);
                }
                if let Some(std) = at("std") {
                    figures.insert(format!("{name}_std"), std);
                }
            }
            let ctx = if b.get("is_context_prefill_phase").and_then(Value::as_bool) == Some(true) {
                " · context load"
            } else {
                ""
            };
            let d = if depth > 0 {
                format!(" @ d{depth}")
            } else {
                String::new()
            };
            points.push((
                format!("{model} · pp{pp}/tg{tg}{d}{ctx}"),
                point(format!("{file}#{}", i + 1), c, figures),
            ));
        }
        if points.is_empty() {
            return Err(common::no_data(file, "no benchmark with its sizes"));
        }
        Ok((
            Report {
                meta: Metadata::default(),
                runs: runs_of(points, version),
            },
            diags,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_and_cells_read_as_llama_benchy_writes_them() {
        let t = test_of("pp2048 @ d4096 (c10)").unwrap();
        assert_eq!(
            (t.kind.as_str(), t.size, t.depth, t.concurrency),
            ("pp", 2048, 4096, Some(10))
        );
        let t = test_of("tg32").unwrap();
        assert_eq!(
            (t.kind.as_str(), t.size, t.depth, t.concurrency),
            ("tg", 32, 0, None)
        );
        let t = test_of("ctx_pp @ d8192 (c1)").unwrap();
        assert_eq!((t.kind.as_str(), t.size, t.depth), ("ctx_pp", 8192, 8192));
        for bad in ["", "pg512", "pp", "tg32 (cx)", "pp1 @ dd"] {
            assert_eq!(test_of(bad), None, "{bad}");
        }
        assert_eq!(cell("8421.60 ± 292.87"), Some((8421.6, Some(292.87))));
        assert_eq!(cell("1,120.5"), Some((1120.5, None)));
        assert_eq!(cell(""), None);
        assert_eq!(cell("—"), None);
    }

    #[test]
    fn a_pp_row_and_its_tg_row_are_one_level_of_a_run() {
        // Hand-written in 0.4.0's layout: one configuration at c1 and c2, then a tg row alone.
        let md = "| model | test | t/s (total) | t/s (req) | peak t/s | peak t/s (req) | ttfr (ms) | est_ppt (ms) | e2e_ttft (ms) |\n|:--|--:|--:|--:|--:|--:|--:|--:|--:|\n| m | pp512 @ d1024 (c1) | 900.00 ± 10.00 | 900.00 ± 10.00 | | | 600.00 ± 5.00 | 550.00 ± 5.00 | 610.00 ± 5.00 |\n| m | tg64 @ d1024 (c1) | 40.00 ± 1.00 | 40.00 ± 1.00 | 42.00 ± 0.00 | 42.00 ± 0.00 | | | |\n| m | pp512 @ d1024 (c2) | 1500.00 ± 20.00 | 800.00 ± 50.00 | | | 1100.00 ± 300.00 | 1050.00 ± 300.00 | 1110.00 ± 300.00 |\n| m | tg64 @ d1024 (c2) | 70.00 ± 2.00 | 36.00 ± 3.00 | 80.00 ± 0.00 | 41.00 ± 1.00 | | | |\n| m | tg16 (c1) | 45.00 ± 0.50 | 45.00 ± 0.50 | | | | | |\n";
        let (r, d) = parse("b.md", md.as_bytes()).unwrap();
        assert!(d.is_empty(), "{d:?}");
        let labels: Vec<String> = r.runs.iter().map(|r| r.label.to_string()).collect();
        assert_eq!(labels, ["m · pp512/tg64 @ d1024", "m · tg16"]);
        let p = &r.runs[0].points[1];
        assert_eq!(p.concurrency, Some(2.0));
        let f = &p.reported.figures;
        assert_eq!(f["pp_ts_total"], 1500.0);
        assert_eq!(f["tg_ts_total"], 70.0);
        assert_eq!(f["tg_ts_req"], 36.0);
        assert_eq!(f["tg_ts_req_std"], 3.0);
        assert_eq!(f["ttfr_ms"], 1100.0);
        assert!(!f.contains_key("pp_peak_ts"), "an empty cell is no figure");
    }
}
