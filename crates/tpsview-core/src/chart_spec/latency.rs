//! The latency chart: TPOT and TTFT against concurrency, a statistic's line and the p50–p99 band.

use super::*;

/// TPOT (mean, with a p50–p99 band) and TTFT (mean, with a p50–p99 band) against concurrency.
pub fn latency(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let stat = opts.stat;
    let banded = |name: &str, f: fn(&PointSummary) -> crate::stats::Dist| -> Vec<Series> {
        summary
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut s = metric_series(i, r, name, |p| *f(p).stat(stat));
                s.band = r
                    .points
                    .iter()
                    .filter_map(|p| {
                        let d = f(p);
                        Some((p.metrics.concurrency?, d.p50?, d.p99?))
                    })
                    .collect();
                s.band
                    .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                s
            })
            .collect()
    };
    ChartSpec {
        id: ChartKind::Latency,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(
                &format!(
                    "TPOT — time per output token after the first (line: {}; band: p50–p99)",
                    stat.name()
                ),
                "ms",
                banded("TPOT", |p| p.metrics.tpot_ms),
                opts,
            ),
            panel(
                &format!(
                    "TTFT — time to first token (line: {}; band: p50–p99)",
                    stat.name()
                ),
                "ms",
                banded("TTFT", |p| p.metrics.ttft_ms),
                opts,
            ),
        ],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    }
}
