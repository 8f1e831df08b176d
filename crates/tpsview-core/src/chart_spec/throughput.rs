//! The throughput chart: system T/s and per-stream T/s against concurrency, one panel each.

use super::*;

/// System T/s (top) and per-stream T/s (bottom) against concurrency: the "50 or 4,000?" chart.
pub fn throughput(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let each = |name: &str, f: fn(&PointSummary) -> Option<f64>| -> Vec<Series> {
        summary
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| metric_series(i, r, name, f))
            .collect()
    };
    let cmp = opts.compare_options();
    let system: Vec<Series> = summary
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            metric_series(i, r, "system T/s", |p| {
                crate::compare::value(r, p, crate::vocabulary::Metric::SystemTps, &cmp)
            })
        })
        .collect();
    let mut spec = ChartSpec {
        id: ChartKind::Throughput,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(
                if opts.per_gpu {
                    "system T/s per GPU — all output tokens of all streams per second, ÷ GPUs"
                } else {
                    "system T/s — all output tokens of all streams per second"
                },
                "tokens/s",
                system,
                opts,
            ),
            panel(
                "per-stream T/s — one request's decode rate, 1 / TPOT",
                "tokens/s",
                each("per-stream T/s", |p| p.metrics.per_stream_tps),
                opts,
            ),
        ],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    };
    spec.marks = peak_and_knee(&spec, summary);
    spec
}

/// At most this many runs have their peak and knee marked (more would bury the lines).
const MARKED_RUNS: usize = 3;

/// Each shown run's peak system T/s and knee (`crate::answer`), on the system panel, where its
/// line has that level (per GPU the line's own value, so the mark sits on it).
fn peak_and_knee(spec: &ChartSpec, summary: &Summary) -> Vec<Annotation> {
    let mut out = Vec::new();
    let Some(panel) = spec.panels.first() else {
        return out;
    };
    for (si, s) in panel.series.iter().enumerate().take(MARKED_RUNS) {
        let Some(run) = s.run.as_ref().and_then(|r| summary.runs.get(r.index)) else {
            continue;
        };
        let a = crate::answer::answers(run);
        let mut mark = |level: Option<f64>, text: &str| {
            if let Some(&(x, y)) = level.and_then(|c| s.points.iter().find(|p| p.0 == c)) {
                out.push(Annotation {
                    panel: 0,
                    series: si,
                    x,
                    y,
                    text: text.into(),
                });
            }
        };
        mark(a.peak_system.and_then(|p| p.concurrency), "peak");
        if let crate::answer::Knee::At { concurrency, .. } = a.knee {
            mark(Some(concurrency), "knee");
        }
    }
    out
}
