use super::*;
use crate::metrics::MetricOptions;
use crate::simulate::seed_report;
use crate::summary::{summarize_report, LevelIntervals};

fn summary_of(report: &Report) -> Summary {
    let (runs, diagnostics) = summarize_report(report, &MetricOptions::default());
    Summary { runs, diagnostics }
}

fn interval(low: f64, high: f64) -> LevelIntervals {
    LevelIntervals {
        confidence: 0.99,
        resamples: 10,
        intervals: [("tpot_mean_ms", [low, high])].into(),
        not_computed: Default::default(),
    }
}

#[test]
fn intervals_land_on_their_own_level_and_the_rest_keep_none() {
    let report = seed_report();
    let s = summary_of(&report);
    let levels = s.runs[0].points.len();
    assert!(levels >= 3, "{levels}");
    // Run 0: its second level only; no entry for any other run.
    let given = vec![vec![None, Some(interval(1.0, 2.0))]];
    let merged = with_intervals(&s, &given);
    assert_eq!(merged.runs[0].points[0].intervals, None);
    assert_eq!(merged.runs[0].points[1].intervals, Some(interval(1.0, 2.0)));
    assert!(merged.runs[0].points[2..]
        .iter()
        .all(|p| p.intervals.is_none()));
    // The summary it was given is not changed (the page keeps it for the charts without bands).
    assert!(s.runs[0].points.iter().all(|p| p.intervals.is_none()));
}

#[test]
fn the_timeline_lists_levels_with_send_times_and_draws_the_pick_or_the_last() {
    let mut report = seed_report();
    let all: usize = report.runs.iter().map(|r| r.points.len()).sum();
    let levels = timeline_levels(&report);
    assert_eq!(levels.len(), all, "the seed has send times everywhere");
    let c = report.runs[0].points[0].concurrency.unwrap();
    assert_eq!(
        levels[0].label,
        format!("{} — concurrency {c}", report.runs[0].label)
    );
    assert_eq!(timeline_at(&levels, None), Some(levels[all - 1].at));
    assert_eq!(timeline_at(&levels, Some((0, 0))), Some((0, 0)));
    // A pick no longer drawable falls back to the last.
    assert_eq!(
        timeline_at(&levels, Some((99, 0))),
        Some(levels[all - 1].at)
    );
    assert_eq!(timeline_missing(&levels, &report), None);
    // One level without send times: listed no more, and said.
    report.runs[0].points[0].requests.as_mut().unwrap().start_s = None;
    report.runs[0].points[1].concurrency = None;
    let levels = timeline_levels(&report);
    assert_eq!(levels.len(), all - 1);
    assert!(
        levels[0].label.ends_with("concurrency ?"),
        "{}",
        levels[0].label
    );
    assert_eq!(
        timeline_missing(&levels, &report).as_deref(),
        Some(
            format!(
                "{} of {all} levels have each request's send time; the other 1 cannot be drawn here (see Data health).",
                all - 1
            )
            .as_str()
        )
    );
    // None drawable: nothing to pick, and the section says why itself.
    assert_eq!(timeline_at(&[], Some((0, 0))), None);
    assert_eq!(timeline_missing(&[], &report), None);
}

#[test]
fn the_baseline_is_the_named_run_else_the_first() {
    let mut report = seed_report();
    let mut second = report.runs[0].clone();
    second.label = "other".into();
    report.runs.push(second);
    let s = summary_of(&report);
    assert_eq!(s.runs.len(), 2);
    let other = s.runs[1].id.clone();
    assert_eq!(baseline_index(&s, Some(&other)), 1);
    assert_eq!(baseline_index(&s, None), 0);
    assert_eq!(baseline_index(&s, Some(&RunId::new("gone"))), 0);
}

#[test]
fn the_controls_list_throughput_then_latency_series() {
    let s = summary_of(&seed_report());
    let names = series_names(&s);
    let all = ChartOptions::default();
    let t = chart_spec::throughput(&s, &all).series_names();
    assert!(!t.is_empty());
    assert_eq!(&names[..t.len()], &t[..]);
    assert!(names.len() > t.len(), "{names:?}");
}

#[test]
fn a_link_holds_the_data_if_it_fits_else_the_figures_else_nothing() {
    assert_eq!(InlineLink::choose(true, false), InlineLink::Full);
    assert_eq!(InlineLink::choose(false, true), InlineLink::Figures);
    assert_eq!(InlineLink::choose(false, false), InlineLink::TooLarge);
    assert_eq!(InlineLink::Full.id(), Some("full"));
    assert_eq!(InlineLink::TooLarge.id(), None);
    assert!(InlineLink::Figures
        .words(64)
        .contains("over 64 KB compressed"));
    assert!(InlineLink::TooLarge
        .words(64)
        .contains("export the bundle instead"));
}
