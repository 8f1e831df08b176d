//! Throughput against interactivity: system T/s against per-stream T/s, one point per level, and
//! the Pareto frontier.

use super::*;

/// The points no other point beats on both axes (higher is better on both), ascending in x.
pub fn pareto_frontier(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    // Descending in x; keep a point when its y beats every point to its right.
    sorted.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut best_y = f64::NEG_INFINITY;
    for p in sorted {
        if p.1 > best_y {
            out.push(p);
            best_y = p.1;
        }
    }
    out.reverse();
    out
}

/// Throughput against interactivity: per-stream T/s (x) against system T/s (y), each point
/// labelled by its concurrency, with the Pareto frontier over all runs.
pub fn interactivity(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let mut series: Vec<Series> = summary
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let pts: Vec<(f64, f64, String)> = r
                .points
                .iter()
                .filter_map(|p| {
                    let label = p
                        .metrics
                        .concurrency
                        .map_or_else(String::new, |c| format!("{c}"));
                    Some((p.metrics.per_stream_tps?, p.metrics.system_tps?, label))
                })
                .collect();
            Series {
                name: "runs".into(),
                run: Some(RunRef {
                    index: i,
                    id: r.id.clone(),
                }),
                run_label: r.id.to_string(),
                points: pts.iter().map(|p| (p.0, p.1)).collect(),
                band: Vec::new(),
                labels: pts.into_iter().map(|p| p.2).collect(),
                mark: Mark::Points,
            }
        })
        .collect();
    series.retain(|s| !opts.is_hidden(s));
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .collect();
    let frontier = pareto_frontier(&all);
    if frontier.len() > 1 {
        series.push(Series {
            name: "Pareto frontier".into(),
            run: None,
            run_label: "all runs".into(),
            points: frontier,
            band: Vec::new(),
            labels: Vec::new(),
            mark: Mark::Dashed,
        });
    }
    let xs = all.iter().map(|p| p.0);
    ChartSpec {
        id: ChartKind::Interactivity,
        x: Axis {
            label: "per-stream T/s (interactivity: how fast one user sees tokens)".into(),
            scale: Scale::Linear,
            range: range_of(xs, Scale::Linear, true),
        },
        panels: vec![panel(
            "system T/s against per-stream T/s (labels: concurrency)",
            "system tokens/s",
            series,
            opts,
        )],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    }
}
