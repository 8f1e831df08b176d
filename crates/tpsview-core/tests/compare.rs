//! The analysis's `compare` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::compare::*;
use tpsview_core::formats::tpsview::ID;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::model::{Metadata, Point, Report, Reported, Run};
use tpsview_core::summary::summarize_report;
use tpsview_core::summary::Summary;
use tpsview_core::vocabulary::Metric;

fn run(label: &str, gpus: Option<u32>, levels: &[(f64, f64, f64)]) -> Run {
    Run {
        label: label.into(),
        source_format: ID.into(),
        meta: Metadata {
            gpu_count: gpus,
            ..Metadata::default()
        },
        points: levels
            .iter()
            .map(|&(c, sys, tpot)| Point {
                source_file: format!("{label}.json"),
                concurrency: Some(c),
                request_rate: None,
                requests: None,
                reported: Reported {
                    tool: ID.into(),
                    figures: [
                        ("system_tps".to_owned(), sys),
                        ("tpot_mean_ms".to_owned(), tpot),
                    ]
                    .into(),
                    recomputed: Default::default(),
                },
                sampled_from: None,
                server: None,
                ..Point::default()
            })
            .collect(),
        axis: None,
    }
}

fn summary(runs: Vec<Run>) -> Summary {
    let (runs, diagnostics) = summarize_report(
        &Report {
            meta: Metadata::default(),
            runs,
        },
        &MetricOptions::default(),
    );
    Summary { runs, diagnostics }
}

fn cell<'a>(c: &'a Comparison, run: usize, level: f64, metric: &str) -> &'a DiffCell {
    let metric = Metric::parse(metric).expect("a metric");
    c.runs[run]
        .rows
        .iter()
        .find(|r| r.concurrency == level)
        .expect("the level")
        .cells
        .iter()
        .find(|x| x.metric == metric)
        .expect("the metric")
}

#[test]
fn levels_match_by_concurrency() {
    let s = summary(vec![
        run("base", None, &[(1.0, 50.0, 20.0), (16.0, 600.0, 26.0)]),
        run("new", None, &[(1.0, 60.0, 18.0), (16.0, 900.0, 24.0)]),
    ]);
    let c = compare(&s, 0, &CompareOptions::default()).unwrap();
    assert_eq!(c.baseline, "base");
    let x = cell(&c, 0, 16.0, "system_tps");
    assert_eq!(
        (x.value, x.baseline, x.interpolated),
        (Some(900.0), Some(600.0), false)
    );
    assert!((x.ratio.unwrap() - 1.5).abs() < 1e-12);
    assert!((x.change_pct.unwrap() - 50.0).abs() < 1e-9);
    assert_eq!(x.better, Some(true));
    // Lower TPOT is better.
    let t = cell(&c, 0, 1.0, "tpot_mean_ms");
    assert_eq!(t.better, Some(true));
    assert!((t.ratio.unwrap() - 0.9).abs() < 1e-12);
}

#[test]
fn missing_levels_interpolate_on_a_log_axis_and_never_extrapolate() {
    let s = summary(vec![
        run("base", None, &[(2.0, 100.0, 20.0), (32.0, 500.0, 30.0)]),
        run(
            "new",
            None,
            &[(1.0, 60.0, 18.0), (8.0, 400.0, 22.0), (64.0, 900.0, 35.0)],
        ),
    ]);
    let c = compare(&s, 0, &CompareOptions::default()).unwrap();
    // 8 is halfway between 2 and 32 on log2 (1 → 5, 3 is halfway): 100 + 0.5 × 400 = 300.
    let x = cell(&c, 0, 8.0, "system_tps");
    assert!(x.interpolated);
    assert!((x.baseline.unwrap() - 300.0).abs() < 1e-9, "{x:?}");
    assert!((x.ratio.unwrap() - 400.0 / 300.0).abs() < 1e-12);
    // Outside the baseline's levels: nothing.
    for level in [1.0, 64.0] {
        let x = cell(&c, 0, level, "system_tps");
        assert_eq!((x.baseline, x.ratio), (None, None));
    }
    assert_eq!(
        baseline_at(&[(2.0, 1.0), (32.0, 5.0)], 4.0),
        Some((2.0, true))
    );
    assert_eq!(baseline_at(&[(2.0, 1.0)], 2.0), Some((1.0, false)));
    assert_eq!(baseline_at(&[(2.0, 1.0)], 0.0), None);
}

#[test]
fn per_gpu_divides_system_wide_figures_only_and_names_runs_without_a_count() {
    let s = summary(vec![
        run("8 GPUs", Some(8), &[(16.0, 800.0, 20.0)]),
        run("1 GPU", Some(1), &[(16.0, 150.0, 20.0)]),
        run("unknown", None, &[(16.0, 300.0, 20.0)]),
    ]);
    let opts = CompareOptions {
        per_gpu: true,
        gpu_counts: Vec::new(),
    };
    let c = compare(&s, 0, &opts).unwrap();
    let x = cell(&c, 0, 16.0, "system_tps");
    assert_eq!((x.value, x.baseline), (Some(150.0), Some(100.0)));
    assert_eq!(cell(&c, 0, 16.0, "tpot_mean_ms").value, Some(20.0));
    assert_eq!(c.missing_gpu_count, ["unknown"]);
    assert_eq!(cell(&c, 1, 16.0, "system_tps").value, None);
    // The user's count fills the gap.
    let opts = CompareOptions {
        per_gpu: true,
        gpu_counts: vec![("unknown".into(), 2)],
    };
    let c = compare(&s, 0, &opts).unwrap();
    assert!(c.missing_gpu_count.is_empty());
    assert_eq!(cell(&c, 1, 16.0, "system_tps").value, Some(150.0));
}

#[test]
fn csv_quotes_text_and_defuses_formulas() {
    let s = summary(vec![
        run("=cmd|' /C calc'!A0", None, &[(1.0, 50.0, 20.0)]),
        run("a, \"b\"", None, &[(1.0, 55.0, 20.0)]),
    ]);
    let c = compare(&s, 0, &CompareOptions::default()).unwrap();
    let csv = comparison_csv(&c);
    assert!(csv.starts_with("run,baseline,concurrency,metric"));
    assert!(
        csv.contains("\"a, \"\"b\"\"\",'=cmd|' /C calc'!A0,1,system_tps,55,50,1.1"),
        "{csv}"
    );
    let table = summary_csv(&s);
    assert_eq!(table.lines().count(), 3);
    assert!(table.lines().nth(1).unwrap().starts_with("'=cmd"));
}

#[test]
fn an_unknown_baseline_is_none() {
    let s = summary(vec![run("a", None, &[(1.0, 1.0, 1.0)])]);
    assert!(compare(&s, 3, &CompareOptions::default()).is_none());
}
