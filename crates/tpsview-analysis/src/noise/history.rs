//! Runs of one setup as a history: which loaded runs are one setup, their order, their headline
//! figures, and each run judged against the one before it (`tpsview compare --history`, the
//! viewer's trend chart).

pub use super::Cursor;
use super::{judge_figure, repeat_of, JudgeOptions, Judged, Verdict};
use crate::model::{Metadata, Report};
use crate::summary::Summary;
use crate::vocabulary::Metric;
use serde::Serialize;

/// The fewest runs of one setup the viewer draws as a trend (two are the baseline diff's).
pub const MIN_RUNS: usize = 3;

/// Runs of one setup, in history order.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// What the runs share, in words (`vllm · Llama-3.1-70B · fp8 · H100 SXM ×8`).
    pub name: String,
    /// Indices into the report's runs, in order.
    pub runs: Vec<usize>,
    /// How `runs` is ordered.
    pub order: Order,
}

/// The setup a run's metadata names: its engine, model, precision, GPU, GPU count and tensor
/// parallelism — not the engine's version, which is what a history follows — `None` where it
/// names neither an engine nor a model.
fn setup_of(meta: &Metadata) -> Option<Vec<String>> {
    if meta.engine.is_none() && meta.model.is_none() {
        return None;
    }
    let text = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or("").to_lowercase();
    let num = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
    Some(vec![
        text(&meta.engine),
        text(&meta.model),
        text(&meta.precision),
        text(&meta.gpu),
        num(meta.gpu_count),
        num(meta.tensor_parallel),
    ])
}

fn setup_name(meta: &Metadata) -> String {
    let mut parts: Vec<String> = [&meta.engine, &meta.model, &meta.precision]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    match (&meta.gpu, meta.gpu_count) {
        (Some(g), Some(n)) if n > 1 => parts.push(format!("{g} ×{n}")),
        (Some(g), _) => parts.push(g.clone()),
        (None, Some(n)) => parts.push(format!("{n} GPUs")),
        (None, None) => {}
    }
    if let Some(tp) = meta.tensor_parallel.filter(|tp| *tp > 1) {
        parts.push(format!("TP {tp}"))
    }
    parts.join(" · ")
}

/// The loaded runs that make histories: runs whose metadata names the same setup (engine, model,
/// precision, GPU, GPU count, tensor parallelism), every one of them dated, on two dates or more,
/// and at least [`MIN_RUNS`] of them — ordered by date. Runs the files do not date are not placed
/// in time (`tpsview compare --history` takes them as given). In the order of each setup's first
/// run.
pub fn setups(report: &Report) -> Vec<Setup> {
    let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    for (i, run) in report.runs.iter().enumerate() {
        let Some(key) = setup_of(&run.meta) else {
            continue;
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, runs)) => runs.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    groups
        .into_iter()
        .filter_map(|(_, runs)| {
            let date = |i: usize| {
                report.runs[i]
                    .meta
                    .date
                    .as_deref()
                    .filter(|d| !d.is_empty())
            };
            let dates: Option<Vec<&str>> = runs.iter().map(|&i| date(i)).collect();
            let mut dates = dates?;
            dates.sort_unstable();
            dates.dedup();
            if runs.len() < MIN_RUNS || dates.len() < 2 {
                return None;
            }
            let mut order = runs.clone();
            order.sort_by(|&a, &b| date(a).cmp(&date(b)));
            Some(Setup {
                name: setup_name(&report.runs[runs[0]].meta),
                runs: order,
                order: Order::Date,
            })
        })
        .collect()
}

/// The runs of `report` as one history, as `tpsview compare --history` reads them: ordered by
/// date where every run states one, else as given.
pub fn all_runs(report: &Report) -> Setup {
    let (runs, order) = history_order(report);
    Setup {
        name: report
            .runs
            .first()
            .map(|r| setup_name(&r.meta))
            .unwrap_or_default(),
        runs,
        order,
    }
}

/// Each run of `setup` after the first judged against the one before it ([`against`]), figure by
/// figure, level by level — the same bits as [`super::judge_pair`] (the seeds mix in each run's
/// place in `report`) — from `at` on until `step` resampled values are drawn (at least one figure
/// a call). Returns whether the history is judged. A caller that must not hold its thread long (the
/// page) calls it once a task.
pub fn judge_some(
    report: &Report,
    summary: &Summary,
    setup: &Setup,
    opts: &JudgeOptions,
    at: &mut Cursor,
    step: usize,
    out: &mut Vec<Judged>,
) -> bool {
    let start = at.drawn;
    while at.run + 1 < setup.runs.len() {
        let (prev, cur) = (setup.runs[at.run], setup.runs[at.run + 1]);
        let (Some(base), Some(run), Some(rs)) = (
            report.runs.get(prev),
            report.runs.get(cur),
            summary.runs.get(cur),
        ) else {
            (at.run, at.point, at.metric) = (at.run + 1, 0, 0);
            continue;
        };
        if at.point >= run.points.len() {
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
            out.push(judge_figure(
                base,
                p,
                c,
                metric,
                (&rs.id, cur),
                opts,
                &mut at.drawn,
            ));
        }
        at.metric += 1;
    }
    true
}

/// Every move of `setup`'s history at once ([`judge_some`] without steps).
pub fn judge(
    report: &Report,
    summary: &Summary,
    setup: &Setup,
    opts: &JudgeOptions,
) -> Vec<Judged> {
    let mut out = Vec::new();
    judge_some(
        report,
        summary,
        setup,
        opts,
        &mut Cursor::default(),
        usize::MAX,
        &mut out,
    );
    out
}

/// The run `judged` was judged against: the one before its run in `setup` (an index into the
/// report's runs).
pub fn against(summary: &Summary, setup: &Setup, judged: &Judged) -> Option<usize> {
    let k = setup
        .runs
        .iter()
        .position(|&i| summary.runs.get(i).is_some_and(|r| r.id == judged.run))?;
    setup.runs.get(k.checked_sub(1)?).copied()
}

/// A headline figure and the level it is at (none for a level without a concurrency).
pub type Headline = (f64, Option<f64>);

/// One run of a history with its headline figures and what moved since the run before.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// An index into the report's runs.
    pub run: usize,
    /// The run's date, as its file gives it.
    pub date: Option<String>,
    /// Peak system T/s and its level.
    pub peak_system: Option<Headline>,
    /// Best per-stream T/s and its level.
    pub best_per_stream: Option<Headline>,
    /// Figures that got worse beyond noise against the run before (none for the first).
    pub regressions: Vec<Judged>,
    /// Figures that got better beyond noise against the run before.
    pub improvements: Vec<Judged>,
    /// Figures judged against the run before.
    pub judged: usize,
}

/// The history's entries in order, with `moves` ([`judge`]) sorted onto them.
pub fn entries(report: &Report, summary: &Summary, setup: &Setup, moves: &[Judged]) -> Vec<Entry> {
    setup
        .runs
        .iter()
        .filter_map(|&i| {
            let run = summary.runs.get(i)?;
            let a = crate::answer::answers(run);
            let mine = || moves.iter().filter(move |m| m.run == run.id);
            let with = |v: Verdict| mine().filter(|j| j.verdict == Some(v)).cloned().collect();
            Some(Entry {
                run: i,
                date: report.runs.get(i)?.meta.date.clone(),
                peak_system: a.peak_system.map(|p| (p.value, p.concurrency)),
                best_per_stream: a.best_per_stream.map(|p| (p.value, p.concurrency)),
                regressions: with(Verdict::Regression),
                improvements: with(Verdict::Improvement),
                judged: mine().filter(|j| j.verdict.is_some()).count(),
            })
        })
        .collect()
}

/// The verdicts as a reader lists them: each named by its run, except that a figure judged over
/// repeats is listed once for its setup (every repeat carries the same verdict), named
/// `setup (N repeats)`. In the given order.
pub fn listed(verdicts: &[Judged]) -> Vec<(String, &Judged)> {
    let mut seen: Vec<(String, u64, Metric)> = Vec::new();
    let mut out = Vec::new();
    for j in verdicts {
        let name = match (
            j.repeats,
            repeat_of(&crate::model::RunName::parse(j.run.as_str())),
        ) {
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
