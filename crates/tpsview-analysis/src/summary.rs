//! The summary every front end shows: per run and point, every recomputed figure, the tool's own
//! figures by its own names, and the discrepancies between them. Its JSON is the contract of
//! `tpsview summarize --json` (docs/cli.md); the web app's table reads the same structure.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::audit::{audit, Discrepancy};
use crate::error::Diagnostic;
use crate::metrics::{compute_point, MetricOptions, PointMetrics};
use crate::model::{Metadata, Point, Report, Reported, Run};
use crate::vocabulary::Metric;

/// All runs of a set of files, summarised.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// One entry per run.
    pub runs: Vec<RunSummary>,
    /// Everything skipped or substituted, across all files.
    pub diagnostics: Vec<Diagnostic>,
}

impl RunSummary {
    /// The mean context a sequence holds while it decodes: its prompt plus half its output (the
    /// mean of its length over the decode), from the run's completed requests; `None` unless the
    /// files give both lengths. The decode model's bound takes this as the run's context.
    pub fn mean_decode_context(&self) -> Option<f64> {
        let (isl, osl) = self.lengths;
        Some(isl? + osl? / 2.0)
    }
}

impl PointSummary {
    /// Why `metric` has no value at this level, in words (the "–" cell's hover).
    pub fn why_undefined(&self, metric: Metric) -> &'static str {
        let m = &self.metrics;
        if m.requests_ok == Some(0) {
            return "undefined: no request completed at this level";
        }
        match metric {
            Metric::SystemTps | Metric::RequestThroughput if m.duration_s.is_none() => {
                "undefined: no duration (no send times and none reported)"
            }
            Metric::ConcurrencyAchieved => {
                "undefined: needs each request's send time and the level's duration"
            }
            _ if m.basis == crate::metrics::Basis::Reported => {
                "undefined: the file has no per-request data and the tool did not report this figure"
            }
            _ => "undefined: no request had what this figure needs (see Data health)",
        }
    }
}

/// `report` with each point's per-request data replaced by the figures computed from it (every
/// metric, under tpsview's own names, in a `tpsview/1` reported block): what a link carries when
/// the data itself is too big for one. Read back, each point shows the same figures, as reported.
/// `summary` must be `report`'s (the same runs and points, in order).
pub fn figures_only(report: &Report, summary: &Summary) -> Report {
    Report {
        meta: report.meta.clone(),
        runs: report
            .runs
            .iter()
            .zip(&summary.runs)
            .map(|(run, rs)| Run {
                label: run.label.clone(),
                source_format: run.source_format.clone(),
                meta: run.meta.clone(),
                axis: run.axis.clone(),
                points: run
                    .points
                    .iter()
                    .zip(&rs.points)
                    .map(|(p, ps)| Point {
                        source_file: p.source_file.clone(),
                        concurrency: p.concurrency,
                        request_rate: p.request_rate,
                        requests: None,
                        reported: Reported {
                            tool: crate::tools::tpsview::ID.into(),
                            figures: Metric::ALL
                                .iter()
                                .filter_map(|&m| Some((m.key().to_owned(), ps.get(m)?)))
                                .filter(|(_, v)| v.is_finite())
                                .collect(),
                            recomputed: Default::default(),
                        },
                        sampled_from: p.sampled_from,
                        server: p.server.clone(),
                        ..Point::default()
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// One run, summarised.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// The run's identity, and its name wherever labels repeat (not part of the `--json`
    /// contract: the label and metadata are).
    #[serde(skip)]
    pub id: crate::vocabulary::RunId,
    /// Mean input and output tokens of its completed requests ([`Run::mean_lengths`]; not part
    /// of the `--json` contract).
    #[serde(skip)]
    pub lengths: (Option<f64>, Option<f64>),
    /// Legend label (its [`name`](Self::name) as text).
    pub label: String,
    /// The run's name in its parts: its setup, folder and repeat (not part of the `--json`
    /// contract: the label is).
    #[serde(skip)]
    pub name: crate::model::RunName,
    /// Where the data came from (a format id).
    pub source_format: String,
    /// Model name, when known.
    pub model: Option<String>,
    /// All metadata.
    pub meta: Metadata,
    /// What the points' level is when it is not concurrency (a llama-bench sweep's parameter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<String>,
    /// One entry per point.
    pub points: Vec<PointSummary>,
    /// With an SLO: the capacity under it (`null` when no level meets it); absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slo_capacity: Option<Option<crate::slo::Capacity>>,
}

/// One point, summarised: every [`PointMetrics`] field at the top level (the `--json` contract),
/// plus where it came from and how the tool's own figures compare.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointSummary {
    /// The file it came from.
    pub source_file: String,
    /// The figures.
    #[serde(flatten)]
    pub metrics: PointMetrics,
    /// The tool's own figures, by its own names.
    pub reported: BTreeMap<String, f64>,
    /// Whose names those are (a format id).
    pub reported_tool: String,
    /// Reported figures that disagree with the recomputation by more than 0.5 %.
    pub discrepancies: Vec<Discrepancy>,
    /// The tool's figures the audit recomputed under the tool's definitions (matching or not).
    pub audited: Vec<&'static str>,
    /// The level against an SLO, when one was given (`summarize --slo`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slo: Option<crate::slo::SloPoint>,
    /// With a GPU-hour price (`summarize --gpu-hour-usd`): USD per million output tokens at this
    /// level (`null` without a system T/s); absent without a price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usd_per_million_output_tokens: Option<Option<f64>>,
    /// What the server reported about itself over the level's window (`tpsview bench
    /// --server-metrics`); absent when the file has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<crate::server::ServerSummary>,
    /// Joules per output token and output tokens per joule, where the file carries the GPUs'
    /// power or energy (`crate::energy`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<crate::energy::EnergySummary>,
    /// Each per-request figure's bootstrap interval over the level's requests, when asked for
    /// (`summarize --intervals`, which the noise module computes); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intervals: Option<LevelIntervals>,
    /// The level's whole-level figures (system T/s, requests/s) over the repeats of its run's
    /// setup, when the run is one of several (`summarize --intervals`; `noise::apply_repeats`);
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<RepeatLevel>,
}

/// One level of a setup measured in several runs — its repeats (labels equal but for a `run=N`
/// or `repeat=N` part: `vllm bench sweep`'s `run=N.json`, `tpsview bench --repeat`): each
/// whole-level figure's value in every repeat, their mean and its 99 % Student-t interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatLevel {
    /// The setup: the label without its repeat part.
    pub setup: String,
    /// The labels of the repeats that measured this level, in the files' order.
    pub runs: Vec<String>,
    /// The intervals' coverage.
    pub confidence: f64,
    /// Figure (its `--json` key) → its values over the repeats.
    pub figures: BTreeMap<&'static str, RepeatFigure>,
}

/// A whole-level figure over a setup's repeats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatFigure {
    /// Its value in each repeat that defines it, in the order of `runs`.
    pub values: Vec<f64>,
    /// Their mean (`null` when no repeat defines it).
    pub mean: Option<f64>,
    /// The mean's interval (`mean ± t·s/√n`, n − 1 degrees of freedom); `null` with one value.
    pub interval: Option<[f64; 2]>,
    /// Why there is no interval, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_computed: Option<String>,
}

/// Each figure of one level with its bootstrap interval over the level's requests
/// (`summarize --intervals`): how sure the figure is, before any comparison. Made by the noise
/// module (which sits above this one).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelIntervals {
    /// The intervals' coverage.
    pub confidence: f64,
    /// Resamples drawn per interval.
    pub resamples: usize,
    /// Figure (its `--json` key, in its unit: ms, T/s) → `[low, high]`.
    pub intervals: BTreeMap<&'static str, [f64; 2]>,
    /// Figure → why it has no interval.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub not_computed: BTreeMap<&'static str, String>,
}

/// What a figure's interval is over ([`PointSummary::interval_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalOver {
    /// The mean over this many repeats of the setup (Student t).
    Repeats(usize),
    /// The level's requests (bootstrap).
    Requests,
}

/// A figure's interval, in its unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FigureInterval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// What it is over.
    pub over: IntervalOver,
}

impl FigureInterval {
    /// Half its width: the ± a table shows.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl PointSummary {
    /// The batch the server ran at this level, where the level carries its server's figures.
    pub fn ran(&self) -> Option<crate::server::Ran> {
        crate::server::Ran::of(self.metrics.concurrency, self.server.as_ref()?)
    }

    /// A figure by its metric.
    pub fn get(&self, metric: Metric) -> Option<f64> {
        self.metrics.get(metric)
    }

    /// A figure's interval: over its setup's repeats where the level has them (they hold the
    /// drift between runs), else over the level's requests where those were computed
    /// (`--intervals`, the page's); `None` without either.
    pub fn interval_of(&self, metric: Metric) -> Option<FigureInterval> {
        let key = metric.key();
        if let Some(f) = self.repeats.as_ref().and_then(|r| r.figures.get(key)) {
            if let Some([low, high]) = f.interval {
                return Some(FigureInterval {
                    low,
                    high,
                    over: IntervalOver::Repeats(f.values.len()),
                });
            }
        }
        let [low, high] = *self.intervals.as_ref()?.intervals.get(key)?;
        Some(FigureInterval {
            low,
            high,
            over: IntervalOver::Requests,
        })
    }

    /// The tool's own figure for tpsview metric `metric`, with the tool's name for it, in
    /// tpsview's unit; `None` when the tool reported nothing comparable.
    pub fn reported_as(&self, metric: Metric) -> Option<(&'static str, f64)> {
        crate::tools::reported_value(&self.reported_tool, &self.reported, metric)
    }
}

/// Summarises a grouped report.
pub fn summarize_report(
    report: &Report,
    opts: &MetricOptions,
) -> (Vec<RunSummary>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let runs = report
        .runs
        .iter()
        .zip(report.run_ids())
        .map(|(run, id)| RunSummary {
            id,
            lengths: run.mean_lengths(),
            slo_capacity: None,
            label: run.label.to_string(),
            name: run.label.clone(),
            source_format: run.source_format.clone(),
            model: run.meta.model.clone(),
            meta: run.meta.clone(),
            axis: run.axis.clone(),
            points: run
                .points
                .iter()
                .map(|p| {
                    let (m, d) = compute_point(p, opts);
                    diags.extend(d);
                    let a = audit(p, &m);
                    PointSummary {
                        source_file: p.source_file.clone(),
                        reported: p.reported.figures.clone(),
                        reported_tool: p.reported.tool.clone(),
                        discrepancies: a.discrepancies,
                        audited: a.checked,
                        slo: None,
                        usd_per_million_output_tokens: None,
                        intervals: None,
                        repeats: None,
                        server: server_summary(p, &run.meta.labels, &m),
                        energy: crate::energy::of(
                            &p.reported.tool,
                            p.telemetry.as_ref(),
                            &p.reported.figures,
                            &run.meta.labels,
                            run.meta.gpu_count,
                            m.output_tokens.map(|t| t as f64),
                            m.duration_s,
                            m.system_tps,
                        ),
                        metrics: m,
                    }
                })
                .collect(),
        })
        .collect();
    (runs, diags)
}

/// A level's server figures over its window, the one its duration is taken over (the
/// requests' own clock, which the polls share), or over every poll where the level has no send
/// times.
fn server_summary(
    p: &crate::model::Point,
    labels: &std::collections::BTreeMap<String, String>,
    m: &crate::metrics::PointMetrics,
) -> Option<crate::server::ServerSummary> {
    let client_system_tps = m.system_tps;
    let Some(s) = p.server.as_ref() else {
        // A tool's statistics over its own window (AIPerf's server_metrics_export.json / .csv).
        return crate::server::from_stats(
            p.server_stats.as_ref()?,
            labels
                .get(crate::server::STATS_SOURCE_LABEL)
                .map(String::as_str),
            client_system_tps,
        );
    };
    // The level's window as its duration takes it (failed requests' ends left out), so the
    // server's rate and the client's are taken over the same seconds.
    let window = p
        .requests
        .as_ref()
        .and_then(crate::metrics::window)
        .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let mut out = crate::server::summary(s, window, client_system_tps);
    crate::server::prefix_cache(&mut out, s, window, m.turns.cache_hit_rate);
    Some(out)
}

/// Evaluates every level of every run of `report` (summarised in `runs`, in the same order)
/// against `slo`, and sets each run's capacity under it.
pub fn apply_slo(report: &crate::model::Report, runs: &mut [RunSummary], slo: &crate::slo::Slo) {
    for (run, rs) in report.runs.iter().zip(runs.iter_mut()) {
        for (p, ps) in run.points.iter().zip(rs.points.iter_mut()) {
            ps.slo = Some(crate::slo::evaluate(p, &ps.metrics, slo));
        }
        rs.slo_capacity = Some(crate::slo::capacity(rs.points.iter().map(|p| {
            (
                p.metrics.concurrency,
                p.metrics.system_tps,
                p.slo.and_then(|e| e.met),
            )
        })));
    }
}

/// Sets USD per million output tokens on every level at `usd_per_gpu_hour` per GPU, with each
/// run's GPU count from `gpus`; runs without one get an undefined cost (`Some(None)`) and their
/// ids are returned.
pub fn apply_cost(
    runs: &mut [RunSummary],
    usd_per_gpu_hour: f64,
    gpus: impl Fn(&RunSummary) -> Option<u32>,
) -> Vec<crate::vocabulary::RunId> {
    let mut missing = Vec::new();
    for rs in runs.iter_mut() {
        let n = gpus(rs).filter(|n| *n > 0);
        if n.is_none() {
            missing.push(rs.id.clone());
        }
        for p in rs.points.iter_mut() {
            p.usd_per_million_output_tokens = Some(n.and_then(|n| {
                p.metrics
                    .system_tps
                    .and_then(|s| crate::slo::usd_per_million_output_tokens(s, usd_per_gpu_hour, n))
            }));
        }
    }
    missing
}
