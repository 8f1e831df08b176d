//! llama-bench's default output, `-o md`: a Markdown table per invocation (`| model | size |
//! params | backend | ngl | … | test | t/s |`), then `build: <commit> (<number>)`, as people keep
//! it in a console log. Each row becomes the test object `-o json` would have written for it (the
//! columns under their JSON names, `test` split into `n_prompt`, `n_gen` and `n_depth`, `t/s` into
//! `avg_ts` ± `stddev_ts`) and the tests are grouped into runs as the JSON's are. Several tables
//! in one log that state the same settings are told apart by the heading above each.

use serde_json::{json, Map, Value};

use super::parse_tests;
use crate::error::{Diagnostic, ParseError};
use crate::formats::common;
use crate::model::Report;

/// Whether a file's ends hold a llama-bench table's header.
pub(super) fn detect(has: &dyn Fn(&str) -> bool) -> bool {
    has("| model") && has(" test |") && has("t/s |")
}

/// A column's JSON name (llama-bench's own `-o json` keys).
fn key(column: &str) -> &str {
    match column {
        "model" => "model_type",
        "backend" => "backends",
        "ngl" => "n_gpu_layers",
        "threads" => "n_threads",
        "fa" => "flash_attn",
        "mmap" => "use_mmap",
        "sm" => "split_mode",
        "mg" => "main_gpu",
        "nkvo" => "no_kv_offload",
        "ts" => "tensor_split",
        "dev" => "devices",
        other => other,
    }
}

fn cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// `pp512`, `tg128`, `pp512+tg128`, each maybe `@ d4096`: (n_prompt, n_gen, n_depth).
fn test_shape(test: &str) -> Option<(f64, f64, f64)> {
    let (shape, depth) = match test.split_once('@') {
        Some((s, d)) => (s.trim(), d.trim().strip_prefix('d')?.parse::<f64>().ok()?),
        None => (test.trim(), 0.0),
    };
    let (mut np, mut ng) = (0.0, 0.0);
    for part in shape.split('+') {
        if let Some(n) = part.strip_prefix("pp") {
            np = n.parse().ok()?;
        } else if let Some(n) = part.strip_prefix("tg") {
            ng = n.parse().ok()?;
        } else {
            return None;
        }
    }
    Some((np, ng, depth))
}

/// `3229.07 ± 53.81`: the mean rate and its standard deviation.
fn rate(cell: &str) -> Option<(f64, Option<f64>)> {
    let (mean, sd) = match cell.split_once('±') {
        Some((m, s)) => (m.trim(), s.trim().parse::<f64>().ok()),
        None => (cell.trim(), None),
    };
    Some((mean.parse().ok()?, sd))
}

/// A cell's value as the JSON would hold it: a number where it is one, else text.
fn value(cell: &str) -> Value {
    match cell.parse::<f64>() {
        Ok(v) if v.fract() == 0.0 && v.abs() < 1e15 => json!(v as i64),
        Ok(v) => json!(v),
        Err(_) => json!(cell),
    }
}

/// A table: the heading above it, and its rows as test objects.
type Table = (Option<String>, Vec<Map<String, Value>>);

/// Parses the tables of a console log.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let text = String::from_utf8_lossy(crate::formats::strip_bom(bytes));
    let lines: Vec<&str> = text.lines().collect();
    // (heading above, rows) per table; a row's build comes from the `build:` line after it.
    let mut tables: Vec<Table> = Vec::new();
    let mut heading: Option<String> = None;
    let mut header: Option<Vec<String>> = None;
    for (n, line) in lines.iter().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('#') {
            let h = h.trim_matches(|c: char| c == '#' || c.is_whitespace());
            heading = (!h.is_empty()).then(|| h.to_owned());
            continue;
        }
        if let Some(build) = t.strip_prefix("build:") {
            // `build: a81a56957 (7361)`: the table above's commit and number.
            let mut parts = build.split_whitespace();
            let commit = parts.next().map(str::to_owned);
            let number = parts
                .next()
                .map(|p| p.trim_matches(|c| c == '(' || c == ')').to_owned());
            if let Some((_, rows)) = tables.last_mut() {
                for r in rows.iter_mut().filter(|r| !r.contains_key("build_commit")) {
                    if let Some(c) = &commit {
                        r.insert("build_commit".into(), json!(c));
                    }
                    if let Some(b) = &number {
                        r.insert("build_number".into(), value(b));
                    }
                }
            }
            header = None;
            continue;
        }
        let Some(cs) = cells(t) else {
            if !t.is_empty() {
                header = header.filter(|_| t.starts_with('|'));
            }
            continue;
        };
        if cs.first() == Some(&"model") && cs.contains(&"test") {
            header = Some(cs.iter().map(|c| (*c).to_owned()).collect());
            tables.push((heading.clone(), Vec::new()));
            continue;
        }
        if cs
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        let Some(h) = &header else { continue };
        if cs.len() != h.len() {
            diags.push(Diagnostic::warning(
                file,
                &format!("line {}", n + 1),
                None,
                "a table row with another number of cells than its header: left out",
            ));
            continue;
        }
        let mut row = Map::new();
        let mut ok = true;
        for (col, cell) in h.iter().zip(&cs) {
            match col.as_str() {
                "test" => match test_shape(cell) {
                    Some((np, ng, d)) => {
                        // Whole numbers, as the JSON writes them.
                        row.insert("n_prompt".into(), json!(np as i64));
                        row.insert("n_gen".into(), json!(ng as i64));
                        row.insert("n_depth".into(), json!(d as i64));
                    }
                    None => ok = false,
                },
                "t/s" => match rate(cell) {
                    Some((m, sd)) => {
                        row.insert("avg_ts".into(), json!(m));
                        if let Some(sd) = sd {
                            row.insert("stddev_ts".into(), json!(sd));
                        }
                    }
                    None => ok = false,
                },
                // The model's size and parameter count describe the model, as in the JSON.
                "size" => {
                    row.insert("model_size".into(), json!(cell));
                }
                "params" => {
                    row.insert("model_n_params".into(), json!(cell));
                }
                c => {
                    row.insert(key(c).to_owned(), value(cell));
                }
            }
        }
        if !ok {
            diags.push(Diagnostic::warning(
                file,
                &format!("line {}", n + 1),
                None,
                "a row whose test or t/s cell is not llama-bench's (`pp512`, `tg128 @ d4096`; `123.4 ± 5.6`): left out",
            ));
            continue;
        }
        if let Some((_, rows)) = tables.last_mut() {
            rows.push(row);
        }
    }
    let headings: Vec<&Option<String>> = tables.iter().map(|(h, _)| h).collect();
    let name_tables = tables.len() > 1 && headings.windows(2).any(|w| w[0] != w[1]);
    let mut recs = Vec::new();
    for (h, rows) in tables {
        for mut r in rows {
            if let (true, Some(h)) = (name_tables, &h) {
                r.insert("section".into(), json!(h));
            }
            recs.push(Value::Object(r));
        }
    }
    if recs.is_empty() {
        return Err(common::no_data(
            file,
            "no llama-bench table row (a `| model | … | test | t/s |` header and its rows)",
        ));
    }
    diags.push(Diagnostic::info(
        file,
        "(file)",
        "read from llama-bench's Markdown table (its console output): rates as printed, rounded to two decimals; no per-repetition samples",
    ));
    parse_tests(file, &recs, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_tests_and_tables_under_headings_become_runs() {
        let log = "### GPU 0\n| model | size | params | backend | ngl | fa | test | t/s |\n| --- | ---: | ---: | --- | --: | -: | ---: | ---: |\n| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan | 100 | 1 | pp512 | 3229.07 ± 53.81 |\n| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan | 100 | 1 | tg128 @ d512 | 150.97 ± 0.05 |\n\nbuild: a81a56957 (7361)\n### GPU 1\n| model | size | params | backend | ngl | fa | test | t/s |\n| --- | ---: | ---: | --- | --: | -: | ---: | ---: |\n| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan | 100 | 1 | tg128 @ d512 | 172.86 ± 0.23 |\nbuild: a81a56957 (7361)\n";
        let (r, _) = parse("log.txt", log.as_bytes()).expect("read");
        let tg: Vec<_> = r
            .runs
            .iter()
            .filter(|r| r.label.to_string().contains("tg128"))
            .collect();
        assert_eq!(
            tg.len(),
            2,
            "one run per table heading: {:?}",
            r.runs.iter().map(|r| &r.label).collect::<Vec<_>>()
        );
        assert!(
            tg[0].label.to_string().contains("section=GPU 0"),
            "{}",
            tg[0].label
        );
        assert_eq!(tg[0].points[0].reported.figures["avg_ts"], 150.97);
        assert_eq!(tg[0].points[0].reported.figures["avg_ts_stddev"], 0.05);
        assert_eq!(tg[0].meta.engine_version.as_deref(), Some("a81a56957"));
        let pp = r
            .runs
            .iter()
            .find(|r| r.label.to_string().contains("pp512"))
            .expect("pp run");
        assert_eq!(pp.points[0].reported.figures["prefill_avg_ts"], 3229.07);
    }
}
