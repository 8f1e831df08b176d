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

pub use crate::summary::{RepeatFigure, RepeatLevel};

/// The figures given an interval over repeats: the whole-level ones (system T/s, requests/s: one
/// value per run, so only repeats give them a spread), every figure a level's own interval is
/// given for ([`LEVEL_METRICS`]) and mean ITL. Over repeats each is one value per repeat, and
/// their spread holds what an interval over one run's requests cannot: the drift between runs
/// (the machine's state, the server's warm-up, other load).
pub const REPEAT_METRICS: [Metric; 16] = {
    let mut out = [Metric::SystemTps; 16];
    out[1] = Metric::RequestThroughput;
    out[2] = Metric::Latency(Latency::Itl, Stat::Mean);
    let mut i = 0;
    while i < LEVEL_METRICS.len() {
        out[3 + i] = LEVEL_METRICS[i];
        i += 1;
    }
    out
};

/// A run label's setup and repeat number: the label without its repeat part
/// ([`crate::model::repeat_part`]: `run=N`, `repeat=N`); `None` without one.
pub fn repeat_of(label: &str) -> Option<(String, u64)> {
    let part = crate::model::repeat_part(label)?;
    let n = part.split_once('=')?.1.parse().ok()?;
    let rest: Vec<&str> = label
        .split(" · ")
        .filter(|p| !std::ptr::eq(*p, part))
        .collect();
    Some((rest.join(" · "), n))
}

/// Gives every level of every run that repeats a setup (two runs or more whose labels are equal
/// but for their repeat part, [`repeat_of`]) its whole-level figures over the setup's repeats
/// ([`RepeatLevel`]): the values, their mean and the mean's Student-t interval. A level that only
/// one repeat measured says so.
pub fn apply_repeats(runs: &mut [crate::summary::RunSummary]) {
    let mut setups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let Some((setup, _)) = repeat_of(&r.label) else {
            continue;
        };
        match setups.iter_mut().find(|(s, _)| *s == setup) {
            Some((_, members)) => members.push(i),
            None => setups.push((setup, vec![i])),
        }
    }
    for (setup, members) in setups.into_iter().filter(|(_, m)| m.len() >= 2) {
        let mut levels: Vec<f64> = members
            .iter()
            .flat_map(|&i| runs[i].points.iter().filter_map(|p| p.metrics.concurrency))
            .collect();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        for c in levels {
            let at: Vec<(usize, usize)> = members
                .iter()
                .filter_map(|&i| {
                    let j = runs[i]
                        .points
                        .iter()
                        .position(|p| p.metrics.concurrency == Some(c))?;
                    Some((i, j))
                })
                .collect();
            let level = RepeatLevel {
                setup: setup.clone(),
                runs: at.iter().map(|&(i, _)| runs[i].label.clone()).collect(),
                confidence: CONFIDENCE,
                figures: REPEAT_METRICS
                    .iter()
                    .map(|&m| {
                        let values = at
                            .iter()
                            .filter_map(|&(i, j)| runs[i].points[j].get(m))
                            .filter(|v| v.is_finite())
                            .collect();
                        (m.key(), over_repeats(values))
                    })
                    .collect(),
            };
            for &(i, j) in &at {
                runs[i].points[j].repeats = Some(level.clone());
            }
        }
    }
}

/// A figure's values over repeats with the mean's [`CONFIDENCE`] Student-t interval: `mean ±
/// t(n − 1)·s/√n`, s the repeats' sample standard deviation. A t interval and not a bootstrap:
/// over 3 values the widest percentile bootstrap interval is their range, which holds the mean
/// far less often than 99 % (docs/metrics.md).
fn over_repeats(values: Vec<f64>) -> RepeatFigure {
    let n = values.len();
    let mean = (n > 0).then(|| values.iter().sum::<f64>() / n as f64);
    let mut figure = RepeatFigure {
        values,
        mean,
        interval: None,
        not_computed: None,
    };
    match (n, mean) {
        (0, _) | (_, None) => {
            figure.not_computed = Some("undefined in every repeat".to_owned());
        }
        (1, _) => {
            figure.not_computed =
                Some("measured in one repeat only: no spread to take an interval from".to_owned());
        }
        (n, Some(mean)) => {
            let var = figure
                .values
                .iter()
                .map(|v| (v - mean).powi(2))
                .sum::<f64>()
                / (n - 1) as f64;
            let t = crate::stats::t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, (n - 1) as f64);
            match t {
                Some(t) => {
                    let half = t * (var / n as f64).sqrt();
                    figure.interval = Some([mean - half, mean + half]);
                }
                None => figure.not_computed = Some("no Student-t quantile".to_owned()),
            }
        }
    }
    figure
}

/// The percentile bootstrap interval of the estimator over `values`: (low, high, resamples).
fn interval(values: &[f64], e: Estimator, seed: u64) -> Option<(f64, f64, usize)> {
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

/// The verdicts as a reader lists them: each named by its run, except that a figure judged over
/// repeats is listed once for its setup (every repeat carries the same verdict), named
/// `setup (N repeats)`. In the given order.
pub fn listed(verdicts: &[Judged]) -> Vec<(String, &Judged)> {
    let mut seen: Vec<(String, u64, Metric)> = Vec::new();
    let mut out = Vec::new();
    for j in verdicts {
        let name = match (j.repeats, repeat_of(j.run.as_str())) {
            (Some([_, n]), Some((setup, _))) => {
                let key = (setup.clone(), j.concurrency.to_bits(), j.metric);
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                format!("{setup} ({n} repeats)")
            }
            _ => j.run.to_string(),
        };
        out.push((name, j));
    }
    out
}

/// How a history is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By each run's date (every run states one).
    Date,
    /// As given (some run states no date).
    Given,
}

/// The order of a history of runs: by date where every run states one (ISO 8601 dates compare
/// as text; a tie keeps the given order), else as given.
pub fn history_order(report: &Report) -> (Vec<usize>, Order) {
    let mut order: Vec<usize> = (0..report.runs.len()).collect();
    let dates: Option<Vec<&str>> = report
        .runs
        .iter()
        .map(|r| r.meta.date.as_deref().filter(|d| !d.is_empty()))
        .collect();
    match dates {
        Some(d) => {
            order.sort_by(|&a, &b| d[a].cmp(d[b]));
            (order, Order::Date)
        }
        None => (order, Order::Given),
    }
}

pub mod history;

#[cfg(test)]
mod tests;
