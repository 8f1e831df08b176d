//! Intervals over repeats: runs of one setup (labels equal but for `run=N` / `repeat=N`) give
//! each level's figures one value per repeat, and a Student-t interval over them.

use crate::model::RunName;
use crate::vocabulary::{Latency, Metric, Stat};

use super::{CONFIDENCE, LEVEL_METRICS};

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

/// A run's setup (its name less the repeat, as text: what every repeat of it is called) and its
/// repeat number; `None` for a run that is no repeat.
pub fn repeat_of(name: &RunName) -> Option<(String, u64)> {
    let r = name.repeat?;
    Some((name.without_repeat().to_string(), r.n))
}

/// Gives every level of every run that repeats a setup (two runs or more whose labels are equal
/// but for their repeat part, [`repeat_of`]) its whole-level figures over the setup's repeats
/// ([`RepeatLevel`]): the values, their mean and the mean's Student-t interval. A level that only
/// one repeat measured says so.
pub fn apply_repeats(runs: &mut [crate::summary::RunSummary]) {
    let mut setups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let Some((setup, _)) = repeat_of(&r.name) else {
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
pub(super) fn over_repeats(values: Vec<f64>) -> RepeatFigure {
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
