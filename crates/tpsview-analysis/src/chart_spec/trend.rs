//! The trend chart: runs of one setup in date order, each run's peak system T/s (top) and best
//! per-stream T/s (bottom), the runs where a figure moved beyond noise marked.

use super::*;
use crate::noise::history::{Entry, Headline, Setup};
use crate::vocabulary::Metric;

/// Past this many runs the points carry no date label (the table under the chart has them).
const MAX_LABELLED: usize = 8;

/// A date as a point's label: `11-30` for an ISO 8601 date (the table under the chart gives the
/// year), else its first 10 characters.
fn short_date(d: &str) -> String {
    let b = d.as_bytes();
    let iso = b.len() >= 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b[..10]
            .iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if iso {
        d[5..10].to_owned()
    } else {
        d.chars().take(10).collect()
    }
}

/// The trend of `setup` from its `entries` ([`crate::noise::history::entries`]): x is each run's
/// place in the history (1 = the earliest), y its headline figure, banded by the 99 % interval of
/// its setup's mean where the run repeats a setup; a run where figures moved beyond noise against
/// the run before is marked `▼ N worse` / `▲ N better` on the top panel.
pub fn trend(
    summary: &Summary,
    setup: &Setup,
    entries: &[Entry],
    opts: &ChartOptions,
) -> ChartSpec {
    let place = |k: usize| (k + 1) as f64;
    let labelled = entries.len() <= MAX_LABELLED;
    let over_repeats = |run: usize, at: Option<f64>, metric: Metric| {
        let p = summary
            .runs
            .get(run)?
            .points
            .iter()
            .find(|p| p.metrics.concurrency == at)?;
        let iv = p.interval_of(metric)?;
        matches!(iv.over, crate::summary::IntervalOver::Repeats(_)).then_some((iv.low, iv.high))
    };
    let series = |name: &str, figure: &dyn Fn(&Entry) -> Option<Headline>, metric| {
        let mut s = Series {
            name: name.into(),
            run: None,
            run_label: setup.name.clone(),
            points: Vec::new(),
            band: Vec::new(),
            labels: Vec::new(),
            mark: Mark::Line,
        };
        for (k, e) in entries.iter().enumerate() {
            let Some((v, at)) = figure(e) else { continue };
            s.points.push((place(k), v));
            if labelled {
                s.labels.push(short_date(e.date.as_deref().unwrap_or("")));
            }
            if let Some((lo, hi)) = over_repeats(e.run, at, metric) {
                s.band.push((place(k), lo, hi));
            }
        }
        s
    };
    let system = series("peak system T/s", &|e| e.peak_system, Metric::SystemTps);
    let per_stream = series(
        "best per-stream T/s",
        &|e| e.best_per_stream,
        Metric::PerStreamTps,
    );
    let banded = !system.band.is_empty() || !per_stream.band.is_empty();
    let band = if banded {
        " (band: 99 % interval over repeats)"
    } else {
        ""
    };
    let marks = entries
        .iter()
        .enumerate()
        .filter_map(|(k, e)| {
            let (y, _) = e.peak_system?;
            let mut words = Vec::new();
            if !e.regressions.is_empty() {
                words.push(format!("▼ {} worse", e.regressions.len()));
            }
            if !e.improvements.is_empty() {
                words.push(format!("▲ {} better", e.improvements.len()));
            }
            (!words.is_empty()).then(|| Annotation {
                panel: 0,
                series: 0,
                x: place(k),
                y,
                text: words.join(" "),
                below: false,
            })
        })
        .collect();
    let order = match setup.order {
        crate::noise::Order::Date => "in date order",
        crate::noise::Order::Given => "as loaded",
    };
    let panels = vec![
        panel(
            &format!("peak system T/s — each run's highest level{band}"),
            "T/s",
            vec![system],
            opts,
        ),
        panel(
            &format!("best per-stream T/s — each run's fastest level{band}"),
            "T/s",
            vec![per_stream],
            opts,
        ),
    ];
    ChartSpec {
        id: ChartKind::Trend,
        x: Axis {
            label: format!("run, {order} (1 = the earliest)"),
            scale: Scale::Ordinal,
            range: (0.5, entries.len().max(1) as f64 + 0.5),
        },
        panels,
        bars: Vec::new(),
        shade: None,
        marks,
    }
}
