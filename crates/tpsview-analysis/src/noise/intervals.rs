//! Each level's own interval (`--intervals`, the page's error bars): a percentile bootstrap
//! over the level's requests for every per-request figure ([`LEVEL_METRICS`]), bounded in work.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::{
    cost, estimate, estimator, seed_for, series_of, too_few, Cursor, Estimator, CONFIDENCE,
};
use crate::model::{Point, Report};
use crate::vocabulary::{Latency, Metric, Stat};

/// The figures a level's own interval is given for: TTFT, TPOT and E2E (mean and percentiles)
/// and per-stream T/s. ITL pools every request's gaps and is not resampled by request.
pub const LEVEL_METRICS: [Metric; 13] = {
    use Latency::{E2e, Tpot, Ttft};
    use Stat::{Mean, P50, P90, P99};
    [
        Metric::Latency(Ttft, Mean),
        Metric::Latency(Ttft, P50),
        Metric::Latency(Ttft, P90),
        Metric::Latency(Ttft, P99),
        Metric::Latency(Tpot, Mean),
        Metric::Latency(Tpot, P50),
        Metric::Latency(Tpot, P90),
        Metric::Latency(Tpot, P99),
        Metric::Latency(E2e, Mean),
        Metric::Latency(E2e, P50),
        Metric::Latency(E2e, P90),
        Metric::Latency(E2e, P99),
        Metric::PerStreamTps,
    ]
};

/// A level's own intervals are computed up to this many requests (beyond, an interval would
/// take seconds and be narrower than the figure's last printed digit: said so).
pub const LEVEL_MAX_REQUESTS: usize = 100_000;

pub use crate::summary::LevelIntervals;

/// Gives every level of every run of `report` (summarised in `runs`, in the same order) its
/// figures' intervals ([`level_intervals`]).
pub fn apply_intervals(report: &Report, runs: &mut [crate::summary::RunSummary]) {
    for (run, rs) in report.runs.iter().zip(runs.iter_mut()) {
        for (p, ps) in run.points.iter().zip(rs.points.iter_mut()) {
            ps.intervals = level_intervals(p);
        }
    }
}

/// What a level's own intervals mix into their seeds in place of a run's index (no run's).
const LEVEL_SEED_RUN: u64 = u64::MAX;

/// The level's figures with their intervals, `None` without per-request data. The seeds mix in
/// only the level and the figure, so a level gives the same bits wherever it is in the files.
pub fn level_intervals(p: &Point) -> Option<LevelIntervals> {
    let req = p.requests.as_ref()?;
    let mut out = empty_intervals();
    let mut drawn = 0;
    for metric in LEVEL_METRICS {
        level_figure(
            req,
            p.concurrency,
            metric,
            &Limits::default(),
            &mut drawn,
            &mut out,
        );
    }
    Some(out)
}

fn empty_intervals() -> LevelIntervals {
    LevelIntervals {
        confidence: CONFIDENCE,
        resamples: 0,
        intervals: Default::default(),
        not_computed: Default::default(),
    }
}

/// Limits on what a caller that must not hold its thread long (the page) draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// A figure whose interval would draw more resampled values than this is not computed.
    pub max_cost: Option<usize>,
    /// Past this many resampled values drawn in all, the remaining figures are not computed.
    pub budget: Option<usize>,
}

/// One figure's interval over a level's requests into `out` (or why it has none); `drawn` counts
/// the resampled values drawn, against `limits`.
fn level_figure(
    req: &crate::model::Requests,
    concurrency: Option<f64>,
    metric: Metric,
    limits: &Limits,
    drawn: &mut usize,
    out: &mut LevelIntervals,
) {
    let Some(e) = estimator(metric) else { return };
    let values = crate::metrics::per_request(req, series_of(e));
    let cost = cost(values.len());
    let why = too_few(e, values.len())
        .or_else(|| {
            (values.len() > LEVEL_MAX_REQUESTS).then(|| {
                format!(
                    "{} requests: over {LEVEL_MAX_REQUESTS} an interval is not computed (it is narrower than the figure's rounding)",
                    values.len()
                )
            })
        })
        .or_else(|| {
            limits.max_cost.filter(|m| cost > *m).map(|m| {
                format!(
                    "{} requests: its interval would draw {cost} resampled values, more than {m} allowed here (`tpsview summarize --intervals` computes it)",
                    values.len()
                )
            })
        })
        .or_else(|| {
            limits
                .budget
                .filter(|b| drawn.saturating_add(cost) > *b)
                .map(|b| {
                    format!(
                        "the budget of {b} resampled values is spent on the figures before it (`tpsview summarize --intervals` computes it)"
                    )
                })
        });
    if let Some(why) = why {
        out.not_computed.insert(metric.key(), why);
        return;
    }
    *drawn += cost;
    // Latencies in ms, as the figures are written.
    let unit = if matches!(metric, Metric::Latency(..)) {
        1e3
    } else {
        1.0
    };
    let level = concurrency.unwrap_or(f64::NAN);
    match interval(&values, e, seed_for(LEVEL_SEED_RUN, level, metric)) {
        Some((low, high, n)) => {
            out.resamples = n;
            out.intervals
                .insert(metric.key(), [low * unit, high * unit]);
        }
        None => {
            out.not_computed
                .insert(metric.key(), "no usable request at this level".to_owned());
        }
    }
}

/// Where computing every level's intervals in steps ([`intervals_some`]) has got to: the same
/// cursor as the verdicts' (the next run, level and figure, and the values drawn).
pub type LevelCursor = Cursor;

/// [`apply_intervals`] in steps, for a caller that must not hold its thread long: from `at` on,
/// fills `out[run][point]` (every run's levels of `report`, `None` without per-request data)
/// until `step` resampled values are drawn (at least one figure a call), within `limits`, and
/// moves `at` past them. Returns whether every level is done. The same bits as
/// [`level_intervals`] for every figure computed.
pub fn intervals_some(
    report: &Report,
    at: &mut LevelCursor,
    step: usize,
    limits: &Limits,
    out: &mut Vec<Vec<Option<LevelIntervals>>>,
) -> bool {
    let start = at.drawn;
    while at.run < report.runs.len() {
        let run = &report.runs[at.run];
        if out.len() <= at.run {
            out.resize_with(at.run + 1, Vec::new);
        }
        if out[at.run].len() < run.points.len() {
            out[at.run].resize(run.points.len(), None);
        }
        if at.point >= run.points.len() {
            (at.run, at.point, at.metric) = (at.run + 1, 0, 0);
            continue;
        }
        let p = &run.points[at.point];
        let Some(req) = p.requests.as_ref() else {
            (at.point, at.metric) = (at.point + 1, 0);
            continue;
        };
        if at.metric >= LEVEL_METRICS.len() {
            (at.point, at.metric) = (at.point + 1, 0);
            continue;
        }
        if at.drawn - start >= step {
            return false;
        }
        let slot = out[at.run][at.point].get_or_insert_with(empty_intervals);
        level_figure(
            req,
            p.concurrency,
            LEVEL_METRICS[at.metric],
            limits,
            &mut at.drawn,
            slot,
        );
        at.metric += 1;
    }
    true
}

/// The percentile bootstrap interval of the estimator over `values`: (low, high, resamples).
pub(super) fn interval(values: &[f64], e: Estimator, seed: u64) -> Option<(f64, f64, usize)> {
    if values.is_empty() {
        return None;
    }
    let resamples = cost(values.len()) / values.len();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut draw = Vec::with_capacity(values.len());
    let mut estimates = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        draw.clear();
        draw.extend((0..values.len()).map(|_| values[rng.random_range(0..values.len())]));
        if let Some(v) = estimate(&mut draw, e).filter(|v| v.is_finite()) {
            estimates.push(v);
        }
    }
    let tail = (1.0 - CONFIDENCE) / 2.0 * 100.0;
    let [low, high] = crate::stats::percentiles(&mut estimates, [tail, 100.0 - tail]);
    Some((low?, high?, resamples))
}
