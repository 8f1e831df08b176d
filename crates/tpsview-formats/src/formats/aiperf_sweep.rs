//! AIPerf's sweep aggregate, `sweep_aggregate/profile_export_aiperf_sweep.json` (its
//! `SweepAnalyzer`): `metadata`, then `per_combination_metrics` — one entry per swept value
//! (`parameters`, e.g. `{"concurrency": 16}`) whose `metrics` hold `<tag>_<stat>` blocks
//! (`output_token_throughput_avg`, `time_to_first_token_p99`…) of `{mean, std, min, max, cv…}`
//! over the trials (`--num-profile-runs`); a single-trial sweep keys the block by the tag alone —
//! then `best_configurations` and `pareto_optimal`. One point per combination, as reported: the
//! mean over trials is the figure, and the trials' spread (min–max, cv) of the throughput is said
//! beside it — repeats are not averaged in silence.

pub use crate::tools::aiperf_sweep::{ID, TRIALS, VOCABULARY};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, num, read_values};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run};

/// `profile_export_aiperf_sweep.json`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::AiperfSweep,
    detect: |has, start| {
        has("\"per_combination_metrics\"")
            || (has("_avg_mean") && (has("Pareto Optimal Points") || has("Best Configurations")))
            || sweep_csv_header(start)
    },
    keys: &[
        "per_combination_metrics",
        "_avg_mean",
        "Pareto Optimal Points",
        "concurrency",
        "benchmark_duration_mean",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Parses `profile_export_aiperf_sweep.json`, or its `.csv` twin.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let body = super::strip_bom(bytes);
    let root = if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        read_values(file, bytes, &mut diags)?.swap_remove(0)
    } else {
        from_csv(file, body)?
    };
    let root = &root;
    let Some(rows) = at(root, "per_combination_metrics").and_then(Value::as_array) else {
        return Err(common::no_data(
            file,
            "`per_combination_metrics` is not a list",
        ));
    };
    let mut points = Vec::new();
    let mut swept: Option<String> = None;
    for (i, row) in rows.iter().enumerate() {
        let path = format!("per_combination_metrics[{i}]");
        let params = at(row, "parameters").and_then(Value::as_object);
        // The level: concurrency (or its dotted path), else a request rate.
        let find = |leaf: &str| {
            params.and_then(|p| {
                p.iter()
                    .find(|(k, _)| k.rsplit('.').next() == Some(leaf))
                    .and_then(|(k, v)| Some((k.clone(), v.as_f64()?)))
            })
        };
        let conc = find("concurrency");
        let rate = find("request_rate");
        if let Some((k, _)) = conc.as_ref().or(rate.as_ref()) {
            swept.get_or_insert_with(|| k.clone());
        }
        let Some(metrics) = at(row, "metrics").and_then(Value::as_object) else {
            diags.push(Diagnostic::warning(
                file,
                &format!("{path}.metrics"),
                None,
                "missing or not an object: this combination is left out",
            ));
            continue;
        };
        let mut figures = BTreeMap::new();
        for (k, block) in metrics {
            // `<tag>_<stat>` blocks, or the tag alone (a single trial): its average.
            let key = if k.ends_with("_avg") || k.rsplit_once('_').is_some_and(|(_, s)| is_stat(s))
            {
                k.clone()
            } else {
                format!("{k}_avg")
            };
            match num(block, "mean") {
                Some(x) => {
                    figures.insert(key.clone(), x);
                }
                None if block.is_object() => diags.push(Diagnostic::warning(
                    file,
                    &format!("{path}.metrics.{k}.mean"),
                    None,
                    "missing or not a number: left out",
                )),
                None => {}
            }
            for s in ["std", "min", "max", "cv"] {
                if let Some(x) = num(block, s) {
                    figures.insert(format!("{key}.{s}"), x);
                }
            }
        }
        if let (Some(mn), Some(mx)) = (
            figures.get("output_token_throughput_avg.min"),
            figures.get("output_token_throughput_avg.max"),
        ) {
            let cv = figures
                .get("output_token_throughput_avg.cv")
                .map_or_else(String::new, |c| format!(", cv {:.1} %", c * 100.0));
            diags.push(Diagnostic::info(
                file,
                &format!("{path}.metrics.output_token_throughput_avg"),
                format!("the trials' output token throughput ranges {mn:.1}–{mx:.1} tokens/s{cv}: the figure shown is their mean"),
            ));
        }
        let level = common::level(
            file,
            &format!("{path}.parameters"),
            conc.map(|c| c.1),
            &mut diags,
        );
        points.push(common::summary_point(
            &format!("{file}#{}", i + 1),
            ID,
            level,
            rate.map(|r| r.1),
            figures,
        ));
    }
    if points.is_empty() {
        return Err(common::none_usable(
            file,
            "`per_combination_metrics` holds no usable combination",
            &diags,
        ));
    }
    let model = common::first_text(root, &["metadata.model", "metadata.model_name"]);
    let mut labels = BTreeMap::new();
    if let Some(s) = swept {
        labels.insert("swept".into(), s);
    }
    // `num_trials_per_value` in the AIPerf that writes `per_combination_metrics` (its docs and
    // tests), `num_trials` in an earlier one.
    if let Some(n) = ["num_trials_per_value", "num_trials", "num_runs"]
        .into_iter()
        .find_map(|k| num(root, &format!("metadata.{k}")))
    {
        labels.insert("trials".into(), n.to_string());
    }
    Ok((
        Report {
            meta: Metadata::default(),
            runs: vec![Run {
                label: common::label("AIPerf sweep", model.as_deref()).into(),
                source_format: ID.into(),
                meta: Metadata {
                    model,
                    labels,
                    ..Metadata::default()
                },
                points,
                axis: None,
            }],
        },
        diags,
    ))
}

/// A CSV whose header is an aggregate's: a swept parameter first (`concurrency`,
/// `request_rate`…), then each metric's `_mean`, `_std`, `_min`, `_max` columns — as AIPerf writes
/// it with or without the sections after the table (`concurrency,benchmark_duration_mean,
/// benchmark_duration_std,…`).
fn sweep_csv_header(start: &[u8]) -> bool {
    let line = start.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let first = line.split(',').next().unwrap_or_default();
    !first.is_empty()
        && !first.contains('"')
        && ["_mean,", "_std,", "_min,", "_max"]
            .iter()
            .all(|k| line.contains(k))
}

/// The CSV twin (AIPerf's `AggregateSweepCsvExporter`) as the JSON's shape: its first section is
/// a table — the swept parameters, then `<tag>_<stat>_{mean,std,min,max,cv}` columns, one row
/// per combination, blank cells for undefined values — and the sections after the first blank
/// line (best configurations, Pareto points, metadata) repeat what the table holds.
fn from_csv(file: &str, bytes: &[u8]) -> Result<Value, ParseError> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines().take_while(|l| !l.trim().is_empty());
    let header = common::csv_fields(lines.next().unwrap_or_default());
    const STATS: [&str; 5] = ["_mean", "_std", "_min", "_max", "_cv"];
    let split = |h: &str| {
        STATS
            .iter()
            .find_map(|s| h.strip_suffix(s).map(|m| (m.to_owned(), &s[1..])))
    };
    if !header.iter().any(|h| split(h).is_some()) {
        return Err(common::no_data(
            file,
            "no `<metric>_mean` column in the first table of the CSV",
        ));
    }
    let mut rows = Vec::new();
    for line in lines {
        let cells = common::csv_fields(line);
        let mut params = serde_json::Map::new();
        let mut metrics: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
        for (h, cell) in header.iter().zip(&cells) {
            let cell = cell.trim();
            let value = cell
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Value::from);
            match split(h) {
                Some((metric, stat)) => {
                    if let Some(v) = value {
                        metrics.entry(metric).or_default().insert(stat.into(), v);
                    }
                }
                None => {
                    params.insert(
                        h.clone(),
                        value.unwrap_or_else(|| Value::String(cell.to_owned())),
                    );
                }
            }
        }
        let metrics: serde_json::Map<String, Value> = metrics
            .into_iter()
            .map(|(k, v)| (k, Value::Object(v)))
            .collect();
        rows.push(serde_json::json!({"parameters": params, "metrics": metrics}));
    }
    Ok(serde_json::json!({ "per_combination_metrics": rows }))
}

/// A statistic suffix of AIPerf's (`avg`, `p50`, `p99`, `std`, `min`, `max`).
fn is_stat(s: &str) -> bool {
    matches!(s, "avg" | "std" | "min" | "max")
        || s.strip_prefix('p')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod header_tests {
    use super::*;

    #[test]
    fn an_aggregate_csv_without_its_later_sections_is_detected_and_read() {
        // The header AIPerf writes (`concurrency,benchmark_duration_mean,benchmark_duration_std,…`),
        // its table alone: two concurrencies, each metric's mean, std, min and max.
        let csv = "concurrency,benchmark_duration_mean,benchmark_duration_std,benchmark_duration_min,benchmark_duration_max,output_token_throughput_mean,output_token_throughput_std,output_token_throughput_min,output_token_throughput_max\n1,60.5,0.5,60.0,61.0,29.1,0.6,28.4,29.5\n8,61.2,0.4,60.8,61.6,210.4,3.1,207.0,213.2\n";
        assert_eq!(crate::detect(csv.as_bytes()), Some(Format::AiperfSweep));
        let (r, _) = parse("aggregate.csv", csv.as_bytes()).expect("read");
        let pts = &r.runs[0].points;
        assert_eq!(pts.len(), 2);
        assert_eq!(pts[1].concurrency, Some(8.0));
        assert_eq!(
            pts[1].reported.figures["output_token_throughput_avg"],
            210.4
        );
        assert_eq!(pts[0].reported.figures["benchmark_duration_avg"], 60.5);
        assert_eq!(
            pts[0].reported.figures["output_token_throughput_avg.max"],
            29.5
        );
        // A GenAI-Perf CSV and vLLM's sweep summary are not taken for one.
        assert!(!sweep_csv_header(b"Metric,avg,min,max\n"));
        assert!(!sweep_csv_header(b",mean_ttft_ms,median_ttft_ms\n"));
    }

    #[test]
    fn the_trials_per_value_are_read_under_either_name() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/aiperf/sweep_profile_export_aiperf_sweep.json"
        );
        let text = std::fs::read_to_string(path).expect("fixture");
        assert!(text.contains("\"num_trials\": 3"));
        for (from, to) in [
            ("\"num_trials\": 3", "\"num_trials\": 3"),
            ("\"num_trials\": 3", "\"num_trials_per_value\": 5"),
        ] {
            let doc = text.replace(from, to);
            let (r, _) = parse("sweep.json", doc.as_bytes()).expect("read");
            let want = to.rsplit(' ').next().unwrap();
            assert_eq!(
                r.runs[0].meta.labels.get("trials").map(String::as_str),
                Some(want)
            );
        }
    }
}
