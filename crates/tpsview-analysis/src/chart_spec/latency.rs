//! The latency chart: TPOT and TTFT against concurrency, a statistic's line and the p50–p99 band
//! (or the statistic's interval).

use super::*;

/// TPOT (mean, with a p50–p99 band) and TTFT (mean, with a p50–p99 band) against concurrency.
/// With `latency_interval`, the band is the 99 % interval of the line's statistic where a level
/// has one (over its setup's repeats, else over its requests: `PointSummary::interval_of`).
pub fn latency(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    use crate::vocabulary::{Latency, Metric};
    let stat = opts.stat;
    let banded = |name: &str, l: Latency, f: fn(&PointSummary) -> crate::stats::Dist| {
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
                        let c = p.metrics.concurrency?;
                        if opts.latency_interval {
                            let iv = p.interval_of(Metric::Latency(l, stat))?;
                            return Some((c, iv.low, iv.high));
                        }
                        let d = f(p);
                        Some((c, d.p50?, d.p99?))
                    })
                    .collect();
                s.band
                    .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                s
            })
            .collect::<Vec<Series>>()
    };
    let band = if opts.latency_interval {
        format!("band: 99 % interval of the {}", stat.name())
    } else {
        "band: p50–p99".to_owned()
    };
    ChartSpec {
        id: ChartKind::Latency,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(
                &format!(
                    "TPOT — time per output token after the first (line: {}; {band})",
                    stat.name()
                ),
                "ms",
                banded("TPOT", Latency::Tpot, |p| p.metrics.tpot_ms),
                opts,
            ),
            panel(
                &format!("TTFT — time to first token (line: {}; {band})", stat.name()),
                "ms",
                banded("TTFT", Latency::Ttft, |p| p.metrics.ttft_ms),
                opts,
            ),
        ],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    }
}
