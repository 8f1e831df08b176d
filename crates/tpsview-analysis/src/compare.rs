//! Comparing runs: each other run's figures against a baseline run, level by level. Levels are
//! matched by concurrency; where the baseline did not measure a level, its value is interpolated
//! linearly on a log₂ concurrency axis between the two nearest levels it did measure (never
//! extrapolated), and the cell says so. System-wide figures can be normalised per GPU.

use serde::Serialize;

use crate::summary::{PointSummary, RunSummary, Summary};
use crate::vocabulary::{Better, Latency, Metric, RunId, Stat};

/// The figures compared; each says itself which way is better ([`Metric::better`]).
pub const COMPARED: [Metric; 8] = [
    Metric::SystemTps,
    Metric::PerStreamTps,
    Metric::RequestThroughput,
    Metric::Latency(Latency::Tpot, Stat::Mean),
    Metric::Latency(Latency::Tpot, Stat::P99),
    Metric::Latency(Latency::Ttft, Stat::Mean),
    Metric::Latency(Latency::Ttft, Stat::P99),
    Metric::Latency(Latency::E2e, Stat::Mean),
];

/// How to compare.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompareOptions {
    /// Divide system-wide figures by each run's GPU count.
    pub per_gpu: bool,
    /// GPU counts the user gave, by run, for runs whose metadata has none.
    pub gpu_counts: Vec<(RunId, u32)>,
}

/// One run's GPU count: the user's, else the metadata's.
pub fn gpu_count(run: &RunSummary, opts: &CompareOptions) -> Option<u32> {
    opts.gpu_counts
        .iter()
        .find(|(id, _)| *id == run.id)
        .map(|(_, n)| *n)
        .or(run.meta.gpu_count)
        .filter(|n| *n > 0)
}

/// The runs whose metadata states no GPU count, each with the count the user gave (if any).
pub fn runs_without_gpu_count(
    summary: &Summary,
    opts: &CompareOptions,
) -> Vec<(crate::vocabulary::RunId, Option<u32>)> {
    summary
        .runs
        .iter()
        .filter(|r| r.meta.gpu_count.is_none())
        .map(|r| (r.id.clone(), gpu_count(r, opts)))
        .collect()
}

/// A figure of a point, normalised per GPU when asked (and possible).
pub fn value(
    run: &RunSummary,
    p: &PointSummary,
    metric: Metric,
    opts: &CompareOptions,
) -> Option<f64> {
    let v = p.get(metric)?;
    if opts.per_gpu && metric.is_system_wide() {
        return gpu_count(run, opts).map(|n| v / f64::from(n));
    }
    Some(v)
}

/// The baseline's value at `level`: exact when it measured that level, else interpolated on a
/// log₂ axis between its nearest levels below and above. `points` are (level, value).
pub fn baseline_at(points: &[(f64, f64)], level: f64) -> Option<(f64, bool)> {
    if !(level > 0.0 && level.is_finite()) {
        return None;
    }
    if let Some(&(_, v)) = points.iter().find(|(c, _)| *c == level) {
        return Some((v, false));
    }
    let below = points
        .iter()
        .filter(|(c, _)| *c < level && *c > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let above = points
        .iter()
        .filter(|(c, _)| *c > level)
        .min_by(|a, b| a.0.total_cmp(&b.0))?;
    let t = (level.log2() - below.0.log2()) / (above.0.log2() - below.0.log2());
    Some((below.1 + t * (above.1 - below.1), true))
}

/// One cell of the diff table: a run's figure at a level against the baseline's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffCell {
    /// tpsview's metric.
    pub metric: Metric,
    /// The run's value (per GPU if normalised).
    pub value: Option<f64>,
    /// The baseline's value at that level (exact or interpolated).
    pub baseline: Option<f64>,
    /// value / baseline.
    pub ratio: Option<f64>,
    /// (ratio − 1) × 100.
    pub change_pct: Option<f64>,
    /// True when the baseline value is interpolated between two of its levels.
    pub interpolated: bool,
    /// True when the change is an improvement (higher throughput, lower latency).
    pub better: Option<bool>,
}

/// One level of a compared run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffRow {
    /// Concurrency.
    pub concurrency: f64,
    /// One cell per [`COMPARED`] metric.
    pub cells: Vec<DiffCell>,
}

/// A run against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunDiff {
    /// The run's id (its label, made unique where labels repeat; the key stays `label`).
    pub label: RunId,
    /// Its levels.
    pub rows: Vec<DiffRow>,
}

/// Every other run against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The baseline run's id (its label, made unique where labels repeat).
    pub baseline: RunId,
    /// Whether system-wide figures are per GPU.
    pub per_gpu: bool,
    /// Runs whose GPU count is unknown (their system-wide cells are empty when per GPU).
    pub missing_gpu_count: Vec<RunId>,
    /// The other runs.
    pub runs: Vec<RunDiff>,
}

/// Compares every run of `summary` with run `baseline`.
pub fn compare(summary: &Summary, baseline: usize, opts: &CompareOptions) -> Option<Comparison> {
    let base = summary.runs.get(baseline)?;
    let series = |metric: Metric| -> Vec<(f64, f64)> {
        base.points
            .iter()
            .filter_map(|p| Some((p.metrics.concurrency?, value(base, p, metric, opts)?)))
            .collect()
    };
    let base_series: Vec<Vec<(f64, f64)>> = COMPARED.iter().map(|&m| series(m)).collect();
    let missing_gpu_count = if opts.per_gpu {
        summary
            .runs
            .iter()
            .filter(|r| gpu_count(r, opts).is_none())
            .map(|r| r.id.clone())
            .collect()
    } else {
        Vec::new()
    };
    let runs = summary
        .runs
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != baseline)
        .map(|(_, run)| RunDiff {
            label: run.id.clone(),
            rows: run
                .points
                .iter()
                .filter_map(|p| {
                    let level = p.metrics.concurrency?;
                    let cells = COMPARED
                        .iter()
                        .zip(&base_series)
                        .map(|(&metric, bs)| {
                            let v = value(run, p, metric, opts);
                            let b = baseline_at(bs, level);
                            let ratio = match (v, b) {
                                (Some(v), Some((b, _))) if b != 0.0 => Some(v / b),
                                _ => None,
                            };
                            DiffCell {
                                metric,
                                value: v,
                                baseline: b.map(|x| x.0),
                                ratio,
                                change_pct: ratio.map(|r| (r - 1.0) * 100.0),
                                interpolated: b.is_some_and(|x| x.1),
                                better: ratio.filter(|r| *r != 1.0).and_then(|r| {
                                    match metric.better() {
                                        Better::Higher => Some(r > 1.0),
                                        Better::Lower => Some(r < 1.0),
                                        Better::Neither => None,
                                    }
                                }),
                            }
                        })
                        .collect();
                    Some(DiffRow {
                        concurrency: level,
                        cells,
                    })
                })
                .collect(),
        })
        .collect();
    Some(Comparison {
        baseline: base.id.clone(),
        per_gpu: opts.per_gpu,
        missing_gpu_count,
        runs,
    })
}

/// The comparison as CSV: one line per (run, level, metric).
pub fn comparison_csv(c: &Comparison) -> String {
    let mut out = String::from(
        "run,baseline,concurrency,metric,value,baseline_value,ratio,change_pct,interpolated\n",
    );
    for r in &c.runs {
        for row in &r.rows {
            for cell in &row.cells {
                out.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{}\n",
                    csv_text(r.label.as_str()),
                    csv_text(c.baseline.as_str()),
                    row.concurrency,
                    cell.metric,
                    csv_num(cell.value),
                    csv_num(cell.baseline),
                    csv_num(cell.ratio),
                    csv_num(cell.change_pct),
                    cell.interpolated
                ));
            }
        }
    }
    out
}

/// The summary table as CSV: one line per point, every flat metric.
pub fn summary_csv(s: &Summary) -> String {
    let mut out = String::from("run,concurrency,request_rate,basis");
    for m in Metric::ALL {
        out.push(',');
        out.push_str(m.key());
    }
    out.push('\n');
    for r in &s.runs {
        for p in &r.points {
            out.push_str(&format!(
                "{},{},{},{:?}",
                csv_text(r.label.as_str()),
                csv_num(p.metrics.concurrency),
                csv_num(p.metrics.request_rate),
                p.metrics.basis
            ));
            for m in Metric::ALL {
                out.push(',');
                out.push_str(&csv_num(p.get(m)));
            }
            out.push('\n');
        }
    }
    out
}

fn csv_num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        Some(x) if x > 0.0 => "inf".into(),
        _ => String::new(),
    }
}

/// A text field, quoted when it holds a comma, quote or line break; a leading `=`, `+`, `-` or
/// `@` is prefixed with `'` so that spreadsheets do not run it as a formula.
fn csv_text(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
