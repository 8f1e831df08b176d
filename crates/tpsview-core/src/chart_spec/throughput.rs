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
    ChartSpec {
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
    }
}
