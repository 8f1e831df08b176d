//! Throughput against interactivity: system T/s against per-stream T/s — or against tokens/s per
//! user, E2E-normalized, at p90 on the slow tail (the agentic frontier) — one point per level,
//! and the Pareto frontier.

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

/// The x axis's label when x is tokens/s per user (E2E-normalized) at p90; a tooltip names the
/// quantity by the label's words before the colon.
pub(crate) const PER_USER_X_LABEL: &str = "tokens/s per user, p90: output tokens ÷ the whole request's time (TTFT included), the rate 90 % of requests reach";

/// Throughput against interactivity: per-stream T/s (x) against system T/s (y), each point
/// labelled by its concurrency, with the Pareto frontier over all runs.
pub fn interactivity(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    // With a price, the y axis can be the cost of a million output tokens (lower is better).
    let cost = opts.cost_axis
        && summary
            .runs
            .iter()
            .flat_map(|r| &r.points)
            .any(|p| p.usd_per_million_output_tokens.flatten().is_some());
    let y = |p: &PointSummary| {
        if cost {
            p.usd_per_million_output_tokens.flatten()
        } else {
            p.metrics.system_tps
        }
    };
    // Per user: output tokens ÷ the whole request's time, the rate 90 % of requests reach.
    let x = |p: &PointSummary| {
        if opts.per_user_x {
            p.metrics.turns.interactivity?.e2e_normalized.p90
        } else {
            p.metrics.per_stream_tps
        }
    };
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
                    Some((x(p)?, y(p)?, label))
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
    let frontier = if cost {
        let flipped: Vec<(f64, f64)> = all.iter().map(|p| (p.0, -p.1)).collect();
        pareto_frontier(&flipped)
            .into_iter()
            .map(|p| (p.0, -p.1))
            .collect()
    } else {
        pareto_frontier(&all)
    };
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
    let marks = capacity_marks(&series, summary);
    let xs = all.iter().map(|p| p.0);
    let x_range = range_of(xs, Scale::Linear, true);
    // The TPOT target bounds per-stream T/s, not a whole request's rate.
    let shade = opts
        .slo
        .as_ref()
        .filter(|_| !opts.per_user_x)
        .and_then(crate::slo::Slo::tightest_tpot_ms)
        .map(|t| {
            let from = 1000.0 / t;
            (
                from,
                x_range.1.max(from),
                format!("per-stream ≥ {from:.0} T/s (1000 / the {t} ms TPOT target)"),
            )
        });
    let (title, unit) = match (cost, opts.per_user_x) {
        (true, false) => (
            "USD per million output tokens against per-stream T/s (labels: concurrency; lower is cheaper)",
            "USD per million output tokens",
        ),
        (true, true) => (
            "USD per million output tokens against tokens/s per user at p90 (labels: concurrency; lower is cheaper)",
            "USD per million output tokens",
        ),
        (false, false) => (
            "system T/s against per-stream T/s (labels: concurrency)",
            "system tokens/s",
        ),
        (false, true) => (
            "system T/s against tokens/s per user at p90, E2E-normalized (labels: concurrency)",
            "system tokens/s",
        ),
    };
    let x_label = if opts.per_user_x {
        PER_USER_X_LABEL
    } else {
        "per-stream T/s (interactivity: how fast one user sees tokens)"
    };
    ChartSpec {
        id: ChartKind::Interactivity,
        x: Axis {
            label: x_label.into(),
            scale: Scale::Linear,
            range: x_range,
        },
        panels: vec![panel(title, unit, series, opts)],
        bars: Vec::new(),
        shade,
        marks,
    }
}

/// Each run's capacity under the SLO, marked among its points.
fn capacity_marks(series: &[Series], summary: &Summary) -> Vec<Annotation> {
    series
        .iter()
        .enumerate()
        .filter_map(|(si, s)| {
            let run = summary.runs.get(s.run.as_ref()?.index)?;
            let c = run.slo_capacity.flatten()?;
            // Points are labelled by their concurrency.
            let level = format!("{}", c.concurrency);
            let i = s.labels.iter().position(|l| *l == level)?;
            let &(x, y) = s.points.get(i)?;
            Some(Annotation {
                panel: 0,
                series: si,
                x,
                y,
                text: "capacity (SLO)".into(),
                below: false,
            })
        })
        .collect()
}
