//! Noise-aware comparison (issue 32): for each compared figure at each level both runs measured,
//! the change against the baseline with a bootstrap interval, and a verdict — regression,
//! improvement or within noise. A change counts when the interval excludes zero *and* the change
//! exceeds a threshold (default 2 %); its direction says which (docs/metrics.md, "Noise").
//!
//! The interval is a percentile bootstrap over requests: each run's per-request values are
//! resampled with replacement ([`RESAMPLES`] times, from a fixed seed: the same files give the
//! same bits), the statistic taken on each resample, and the relative change of the two
//! statistics collected; its 0.5th and 99.5th percentiles bound the 99 % interval
//! ([`CONFIDENCE`]). It assumes
//! the requests of a level are independent draws from one distribution. Figures of the whole
//! level (system T/s, requests/s) are one number per run: without repeats there is nothing to
//! resample, and they are not judged (said so).
//!
//! Here: the judgement of one figure at one level. Beside it: `intervals` (each level's own
//! interval), `repeats` (intervals over repeats of one setup), `history` (runs of one setup in
//! order, each judged against the one before).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;

use crate::model::{Point, Report};
use crate::summary::Summary;
use crate::vocabulary::{Better, Latency, Metric, RunId, Series, Stat};

/// Resamples per interval.
pub const RESAMPLES: usize = 1000;
/// Fewer resamples where the two levels hold more requests than this together (an interval
/// stays a fraction of a second).
pub const LARGE: usize = 100_000;
/// The interval's coverage: 99 %, not 95 %, because a comparison judges many figures at once (8
/// figures × every level): at 95 % each, two runs of the same setup would show a false verdict
/// somewhere in most comparisons of a few levels.
pub const CONFIDENCE: f64 = 0.99;
/// The change (%) below which a difference is not a regression however sure it is.
pub const DEFAULT_THRESHOLD_PCT: f64 = 2.0;
/// The seed every interval's generator starts from (mixed with what it is of).
const SEED: u64 = 0x7470_7376_6965_7732;

/// What a compared figure is, over a level's requests.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Estimator {
    /// A statistic of a per-request series.
    Of(Series, Stat),
    /// 1 ÷ the mean of a series (per-stream T/s: 1 / mean TPOT).
    InverseMean(Series),
}

/// The per-request estimator behind `metric`, where it has one.
fn estimator(metric: Metric) -> Option<Estimator> {
    let series = |l: Latency| match l {
        Latency::Ttft => Some(Series::Ttft),
        Latency::Tpot => Some(Series::Tpot),
        Latency::E2e => Some(Series::E2e),
        Latency::Itl => None,
    };
    match metric {
        Metric::Latency(l, s) => Some(Estimator::Of(series(l)?, s)),
        Metric::PerStreamTps => Some(Estimator::InverseMean(Series::Tpot)),
        _ => None,
    }
}

/// The estimator on `values` (reordered in place).
fn estimate(values: &mut [f64], e: Estimator) -> Option<f64> {
    match e {
        Estimator::Of(_, Stat::Mean) => crate::stats::mean(values),
        Estimator::Of(_, s) => {
            let p = match s {
                Stat::P50 => 50.0,
                Stat::P90 => 90.0,
                _ => 99.0,
            };
            crate::stats::percentiles(values, [p])[0]
        }
        Estimator::InverseMean(_) => crate::stats::mean(values)
            .filter(|m| *m > 0.0)
            .map(|m| 1.0 / m),
    }
}

/// Each run needs this many requests beyond a percentile (n × (1 − p) ≥ 5) for the percentile
/// to be judged: below it the statistic is one of the sample's few largest values, whose
/// bootstrap interval is too narrow to trust (p99 needs 500 requests, p90 50, p50 10).
pub const TAIL_REQUESTS: f64 = 5.0;
/// A mean is judged from this many requests per run.
pub const MIN_REQUESTS: usize = 10;

/// Why an estimator cannot be judged over `n` requests, where it cannot.
fn too_few(e: Estimator, n: usize) -> Option<String> {
    let p = match e {
        Estimator::Of(_, Stat::P50) => 0.50,
        Estimator::Of(_, Stat::P90) => 0.90,
        Estimator::Of(_, Stat::P99) => 0.99,
        _ => 0.0,
    };
    let need = ((TAIL_REQUESTS / (1.0 - p)).round() as usize).max(MIN_REQUESTS);
    (n < need).then(|| {
        format!("{n} requests: a figure like this is judged from {need} a run (fewer leave its interval too narrow to trust)")
    })
}

/// The series an estimator reads.
fn series_of(e: Estimator) -> Series {
    match e {
        Estimator::Of(s, _) | Estimator::InverseMean(s) => s,
    }
}

/// A relative change with its interval, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Change {
    /// (other ÷ baseline − 1) × 100 on the full samples.
    pub change_pct: f64,
    /// The interval's low end, %.
    pub low_pct: f64,
    /// The interval's high end, %.
    pub high_pct: f64,
    /// Resamples drawn.
    pub resamples: usize,
}

/// The change from `base` to `other` of the estimator, with its percentile bootstrap interval;
/// `None` where either sample is empty or the baseline's estimate is 0.
fn change(base: &[f64], other: &[f64], e: Estimator, seed: u64) -> Option<Change> {
    let (mut a, mut b) = (base.to_vec(), other.to_vec());
    let (ea, eb) = (estimate(&mut a, e)?, estimate(&mut b, e)?);
    if ea == 0.0 || !ea.is_finite() || !eb.is_finite() {
        return None;
    }
    let resamples = cost(base.len() + other.len()) / (base.len() + other.len());
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let draw = |from: &[f64], into: &mut Vec<f64>, rng: &mut Pcg64Mcg| {
        into.clear();
        into.extend((0..from.len()).map(|_| from[rng.random_range(0..from.len())]));
    };
    let (mut ra, mut rb) = (Vec::with_capacity(a.len()), Vec::with_capacity(b.len()));
    let mut changes = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        draw(base, &mut ra, &mut rng);
        draw(other, &mut rb, &mut rng);
        if let (Some(x), Some(y)) = (estimate(&mut ra, e), estimate(&mut rb, e)) {
            if x != 0.0 {
                changes.push((y / x - 1.0) * 100.0);
            }
        }
    }
    let tail = (1.0 - CONFIDENCE) / 2.0 * 100.0;
    let [low, high] = crate::stats::percentiles(&mut changes, [tail, 100.0 - tail]);
    Some(Change {
        change_pct: (eb / ea - 1.0) * 100.0,
        low_pct: low?,
        high_pct: high?,
        resamples,
    })
}

/// What a change says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Worse beyond noise and beyond the threshold.
    Regression,
    /// Better beyond noise and beyond the threshold.
    Improvement,
    /// The interval holds zero, or the change is under the threshold.
    WithinNoise,
}

impl Verdict {
    /// Its name in JSON (`serde`'s) and in the viewer's `data-verdict`.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::WithinNoise => "within_noise",
        }
    }

    /// Its name in words, as the CLI's text and Markdown write it.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::WithinNoise => "within noise",
        }
    }
}

/// The verdict on a change of a figure whose better direction is `better`.
pub fn verdict(c: &Change, better: Better, threshold_pct: f64) -> Verdict {
    let sure = c.low_pct > 0.0 || c.high_pct < 0.0;
    if !sure || c.change_pct.abs() <= threshold_pct {
        return Verdict::WithinNoise;
    }
    let up = c.change_pct > 0.0;
    match (better, up) {
        (Better::Higher, true) | (Better::Lower, false) => Verdict::Improvement,
        (Better::Higher, false) | (Better::Lower, true) => Verdict::Regression,
        (Better::Neither, _) => Verdict::WithinNoise,
    }
}

/// One figure at one level of a run against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judged {
    /// The run.
    pub run: RunId,
    /// The level (concurrency).
    pub concurrency: f64,
    /// The figure.
    pub metric: Metric,
    /// The change with its interval; `None` where it could not be judged.
    pub change: Option<Change>,
    /// The verdict; `None` where it could not be judged.
    pub verdict: Option<Verdict>,
    /// Why it was not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_judged: Option<String>,
    /// Judged over repeats (both setups repeated): how many the baseline's setup and this run's
    /// had at the level (Welch's interval; `change.resamples` is 0). Absent when judged over
    /// requests or not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<[usize; 2]>,
}

/// How to judge.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeOptions {
    /// The change (%) a regression must exceed.
    pub threshold_pct: f64,
    /// The figures judged.
    pub metrics: Vec<Metric>,
    /// A figure whose interval would draw more resampled values than this is not judged (said
    /// so); `None`: no limit. The page sets one so that no figure holds its thread long.
    pub max_cost: Option<usize>,
    /// Past this many resampled values drawn in all, the remaining figures are not judged (said
    /// so); `None`: no limit.
    pub budget: Option<usize>,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            threshold_pct: DEFAULT_THRESHOLD_PCT,
            metrics: crate::compare::COMPARED.to_vec(),
            max_cost: None,
            budget: None,
        }
    }
}

/// A deterministic seed for one interval: the fixed seed mixed with what it is of. `run` is a
/// `u64` so that the page (wasm32, a 32-bit `usize`) draws the bits the CLI draws.
fn seed_for(run: u64, level: f64, metric: Metric) -> u64 {
    let mut h = SEED ^ run.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in metric.key().bytes().chain(level.to_bits().to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
    }
    h
}

/// The level of `run` at concurrency `c`, where it has exactly one.
fn level_at(points: &[Point], c: f64) -> Option<&Point> {
    let mut at = points.iter().filter(|p| p.concurrency == Some(c));
    let one = at.next()?;
    at.next().is_none().then_some(one)
}

/// The resampled values an interval over `n` requests (both runs together) draws.
pub fn cost(n: usize) -> usize {
    let resamples = if n > LARGE { RESAMPLES / 5 } else { RESAMPLES };
    resamples.saturating_mul(n)
}

/// Every other run's compared figures against run `baseline`, level by level, judged where
/// both runs measured the level and hold its requests. `report` and `summary` are the same runs
/// in the same order (`summary::summarize_report`).
pub fn judge(
    report: &Report,
    summary: &Summary,
    baseline: usize,
    opts: &JudgeOptions,
) -> Vec<Judged> {
    let mut out = Vec::new();
    let mut at = Cursor::default();
    judge_some(
        report,
        summary,
        baseline,
        opts,
        &mut at,
        usize::MAX,
        &mut out,
    );
    out
}

/// Where a judging done in steps ([`judge_some`], [`intervals_some`], [`history::judge_some`])
/// has got to: the next run (a history's next pair), level and figure, and the resampled values
/// drawn so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    run: usize,
    point: usize,
    metric: usize,
    /// Resampled values drawn so far.
    pub drawn: usize,
}

/// [`judge`] in steps: judges from `at` on, pushing onto `out`, until `step` resampled values are
/// drawn (at least one figure a call), and moves `at` past them. Returns whether every figure is
/// judged. A caller that must not hold its thread long (the page) calls it once a task.
pub fn judge_some(
    report: &Report,
    summary: &Summary,
    baseline: usize,
    opts: &JudgeOptions,
    at: &mut Cursor,
    step: usize,
    out: &mut Vec<Judged>,
) -> bool {
    let Some(base) = report.runs.get(baseline) else {
        return true;
    };
    let start = at.drawn;
    while at.run < report.runs.len().min(summary.runs.len()) {
        let run = &report.runs[at.run];
        if at.run == baseline || at.point >= run.points.len() {
            (at.run, at.point, at.metric) = (at.run + 1, 0, 0);
            continue;
        }
        if at.metric >= opts.metrics.len() {
            (at.point, at.metric) = (at.point + 1, 0);
            continue;
        }
        if at.drawn - start >= step {
            return false;
        }
        let p = &run.points[at.point];
        if let Some(c) = p.concurrency {
            let metric = opts.metrics[at.metric];
            let id = &summary.runs[at.run].id;
            let of = |run: usize| {
                summary
                    .runs
                    .get(run)?
                    .points
                    .iter()
                    .find(|q| q.metrics.concurrency == Some(c))
            };
            // Over repeats where both setups have them, for every figure; else a per-request
            // figure over requests (the whole-level ones are then not judged, said so).
            let mut judged = Judged {
                run: id.clone(),
                concurrency: c,
                metric,
                change: None,
                verdict: None,
                not_judged: None,
                repeats: None,
            };
            let settled =
                judge_over_repeats(&mut judged, of(baseline), of(at.run), opts.threshold_pct);
            if !settled && !metric.is_system_wide() {
                judged = judge_figure(base, p, c, metric, (id, at.run), opts, &mut at.drawn);
            }
            out.push(judged);
        }
        at.metric += 1;
    }
    true
}

/// `run` (named `id`; `index` mixes into the seeds) against `base`, level by level.
pub fn judge_pair(
    base: &crate::model::Run,
    run: &crate::model::Run,
    id: &RunId,
    index: usize,
    opts: &JudgeOptions,
) -> Vec<Judged> {
    let mut drawn = 0;
    run.points
        .iter()
        .filter_map(|p| p.concurrency.map(|c| (p, c)))
        .flat_map(|(p, c)| opts.metrics.iter().map(move |&m| (p, c, m)))
        .map(|(p, c, metric)| judge_figure(base, p, c, metric, (id, index), opts, &mut drawn))
        .collect()
}

/// One figure of level `p` (at concurrency `c`) against the baseline run's level there; `drawn`
/// counts the resampled values drawn, against the options' limits.
fn judge_figure(
    base: &crate::model::Run,
    p: &Point,
    c: f64,
    metric: Metric,
    (id, index): (&RunId, usize),
    opts: &JudgeOptions,
    drawn: &mut usize,
) -> Judged {
    let mut judged = Judged {
        run: id.clone(),
        concurrency: c,
        metric,
        change: None,
        verdict: None,
        not_judged: None,
        repeats: None,
    };
    judged.not_judged = match (estimator(metric), level_at(&base.points, c)) {
        (None, _) if metric.is_system_wide() => Some(
            "a figure of the whole level: one value per run, nothing to resample (repeats would give an interval)".to_owned(),
        ),
        (None, _) => {
            Some("not a statistic of requests (ITL pools the gaps of all requests)".to_owned())
        }
        (Some(_), None) => Some(format!("the baseline did not measure concurrency {c}")),
        (Some(e), Some(b)) => match (&b.requests, &p.requests) {
            (Some(rb), Some(rp)) => {
                let s = series_of(e);
                let (xb, xp) = (
                    crate::metrics::per_request(rb, s),
                    crate::metrics::per_request(rp, s),
                );
                let cost = cost(xb.len() + xp.len());
                if let Some(why) = too_few(e, xb.len().min(xp.len())) {
                    Some(why)
                } else if let Some(max) = opts.max_cost.filter(|m| cost > *m) {
                    Some(format!(
                        "{} requests: its interval would draw {cost} resampled values, more than {max} allowed here (`tpsview compare` judges it)",
                        xb.len() + xp.len()
                    ))
                } else if let Some(budget) = opts.budget.filter(|b| drawn.saturating_add(cost) > *b) {
                    Some(format!(
                        "the budget of {budget} resampled values is spent on the figures before it (`tpsview compare` judges it)"
                    ))
                } else {
                    *drawn += cost;
                    match change(&xb, &xp, e, seed_for(index as u64, c, metric)) {
                        Some(ch) => {
                            judged.verdict = Some(verdict(&ch, metric.better(), opts.threshold_pct));
                            judged.change = Some(ch);
                            None
                        }
                        None => Some("no usable request at this level".to_owned()),
                    }
                }
            }
            _ => Some("no per-request data (the file has the tool's figures only)".to_owned()),
        },
    };
    judged
}

/// A figure of a level against the baseline's, judged over the repeats of both setups where each
/// has two or more (`apply_repeats` gave both levels their `repeats`): Welch's interval of the
/// change of the means. A repeat of the baseline's own setup is not judged. Returns whether that
/// settled the figure; where it did not, `judged` says what is missing (the answer for a
/// whole-level figure; a per-request one is then judged over requests).
fn judge_over_repeats(
    judged: &mut Judged,
    base: Option<&crate::summary::PointSummary>,
    other: Option<&crate::summary::PointSummary>,
    threshold_pct: f64,
) -> bool {
    let key = judged.metric.key();
    fn of<'a>(
        p: Option<&'a crate::summary::PointSummary>,
        key: &str,
    ) -> Option<(&'a RepeatLevel, &'a RepeatFigure)> {
        let r = p?.repeats.as_ref()?;
        Some((r, r.figures.get(key)?))
    }
    let n = |f: Option<(&RepeatLevel, &RepeatFigure)>| f.map_or(1, |(_, f)| f.values.len());
    if base.is_none() {
        judged.not_judged = Some(format!(
            "the baseline did not measure concurrency {}",
            judged.concurrency
        ));
        return true;
    }
    let (b, o) = (of(base, key), of(other, key));
    if let (Some((rb, _)), Some((ro, _))) = (b, o) {
        if rb.setup == ro.setup {
            judged.not_judged = Some(format!(
                "a repeat of the baseline's own setup ({}): see its interval over the repeats",
                rb.setup
            ));
            return true;
        }
    }
    let (nb, no) = (n(b), n(o));
    let (Some((_, fb)), Some((_, fo))) = (b, o) else {
        judged.not_judged = Some(format!(
            "a figure of the whole level: one value per run; repeats of both setups give it an interval (the baseline has {nb}, this run {no})"
        ));
        return false;
    };
    if nb < 2 || no < 2 {
        judged.not_judged = Some(format!(
            "a figure of the whole level: repeats of both setups give it an interval (the baseline's measured it {nb} times, this run's {no})"
        ));
        return false;
    }
    match welch(&fb.values, &fo.values) {
        Ok(c) => {
            judged.verdict = Some(verdict(&c, judged.metric.better(), threshold_pct));
            judged.change = Some(c);
            judged.repeats = Some([nb, no]);
            judged.not_judged = None;
        }
        Err(why) => judged.not_judged = Some(why.to_owned()),
    }
    true
}

/// The change of the mean from repeats `base` to repeats `other`, %, with Welch's
/// [`CONFIDENCE`] interval: the difference of the means ± t(ν)·√(s²ₐ/nₐ + s²ᵦ/nᵦ), ν by
/// Welch–Satterthwaite, over the baseline's mean (its own uncertainty in the denominator is left
/// out: a relative interval a few percent narrow of the exact one at these spreads).
fn welch(base: &[f64], other: &[f64]) -> Result<Change, &'static str> {
    let stats = |v: &[f64]| {
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (n, mean, var)
    };
    let ((na, ma, va), (nb, mb, vb)) = (stats(base), stats(other));
    if ma == 0.0 || !ma.is_finite() || !mb.is_finite() {
        return Err("the baseline's mean over its repeats is 0 or undefined");
    }
    let (ea, eb) = (va / na, vb / nb);
    let se = (ea + eb).sqrt();
    let d = mb - ma;
    // Repeats that agree to the bit on both sides are copies of one run, or figures the tool
    // rounded alike: an interval of zero width would call any change sure.
    if se <= 0.0 || !se.is_finite() {
        return Err("the repeats of both setups agree exactly (no spread: copies of one run, or figures rounded alike), so they give no interval");
    }
    let nu = (ea + eb).powi(2) / (ea * ea / (na - 1.0) + eb * eb / (nb - 1.0));
    let half = crate::stats::t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, nu)
        .ok_or("the t quantile is undefined for these repeats")?
        * se;
    Ok(Change {
        change_pct: d / ma * 100.0,
        low_pct: (d - half) / ma * 100.0,
        high_pct: (d + half) / ma * 100.0,
        resamples: 0,
    })
}

mod intervals;
mod repeats;
pub use history::{history_order, listed, Order};
pub use intervals::{
    apply_intervals, intervals_some, level_intervals, LevelCursor, LevelIntervals, Limits,
    LEVEL_MAX_REQUESTS, LEVEL_METRICS,
};
pub use repeats::{apply_repeats, repeat_of, RepeatFigure, RepeatLevel, REPEAT_METRICS};
pub mod history;

#[cfg(test)]
mod tests;
