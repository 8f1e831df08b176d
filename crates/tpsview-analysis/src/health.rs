//! Data health: what is wrong or missing in the loaded data, ranked — errors (nothing usable,
//! every request failed), warnings (levels without send times, a run a view leaves out, no
//! concurrency to chart against, the tool's figures differing from tpsview's), then notes. Each
//! item is said once per run, with the levels or files it concerns, never once per file.

use crate::compare::{gpu_count, CompareOptions};
use crate::error::Severity as DiagSeverity;
use crate::model::Report;
use crate::summary::Summary;

/// How serious a health item is; items are ranked in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Nothing usable, or values undefined.
    Error,
    /// Something is missing or left out; the rest is sound.
    Warning,
    /// How something was read or derived.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info` (the `data-severity` attribute).
    pub const fn key(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// What a health item is about, for a page that offers a fix beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concern {
    /// No request of a level completed.
    AllFailed,
    /// A run has no usable figure at all.
    NoFigures,
    /// A run records no concurrency: charts against concurrency cannot place it.
    NoConcurrency,
    /// Levels without send times: no timeline, duration from the summary.
    NoSendTimes,
    /// A run left off the per-GPU view for want of a GPU count.
    NoGpuCount,
    /// The tool's own figures differ from tpsview's (the audit).
    Discrepancy,
    /// A note from reading or computing, grouped by its words.
    Note,
}

/// One item of the data-health panel.
#[derive(Debug, Clone, PartialEq)]
pub struct HealthItem {
    /// How serious.
    pub severity: Severity,
    /// What it is about.
    pub concern: Concern,
    /// The run it concerns (its index in the summary), if one.
    pub run: Option<usize>,
    /// One line: what is wrong, and where.
    pub title: String,
    /// What it means and what would fix it.
    pub detail: String,
    /// How many places it was seen (levels, files, requests).
    pub count: usize,
}

fn level_list(levels: &[Option<f64>]) -> String {
    let known: Vec<String> = levels.iter().flatten().map(|c| format!("{c}")).collect();
    if known.is_empty() {
        String::new()
    } else {
        format!(" (concurrency {})", known.join(", "))
    }
}

/// The health of the loaded data: `report` grouped into runs and its `summary` (the same runs, in
/// the same order), under the view's options (per GPU leaves out runs without a GPU count).
pub fn health(report: &Report, summary: &Summary, opts: &CompareOptions) -> Vec<HealthItem> {
    let mut out = Vec::new();
    for (ri, run) in summary.runs.iter().enumerate() {
        let name = run.id.as_str();
        let n = run.points.len();
        let failed: Vec<&crate::summary::PointSummary> = run
            .points
            .iter()
            .filter(|p| p.metrics.requests_ok == Some(0))
            .collect();
        if !failed.is_empty() {
            let levels: Vec<Option<f64>> = failed.iter().map(|p| p.metrics.concurrency).collect();
            let requests: u64 = failed
                .iter()
                .filter_map(|p| p.metrics.requests_failed)
                .sum();
            out.push(HealthItem {
                severity: Severity::Error,
                concern: Concern::AllFailed,
                run: Some(ri),
                title: format!(
                    "{name}: no request completed at {} of {n} level{}{}",
                    failed.len(),
                    if n == 1 { "" } else { "s" },
                    level_list(&levels)
                ),
                detail: format!(
                    "{requests} request{} failed there: T/s, TPOT, TTFT and E2E are undefined (shown \
                     as –), not 0. The file's error texts say why.",
                    if requests == 1 { "" } else { "s" }
                ),
                count: failed.len(),
            });
        }
        if n > 0
            && failed.len() < n
            && run
                .points
                .iter()
                .all(|p| p.metrics.system_tps.is_none() && p.metrics.per_stream_tps.is_none())
        {
            out.push(HealthItem {
                severity: Severity::Error,
                concern: Concern::NoFigures,
                run: Some(ri),
                title: format!("{name}: no throughput figure at any level"),
                detail: "Neither system nor per-stream T/s could be computed or read: the file \
                         has no per-request data and no summary figure tpsview maps."
                    .into(),
                count: n,
            });
        }
        let no_concurrency = run.points.iter().all(|p| p.metrics.concurrency.is_none());
        let by_rate = run.points.iter().all(|p| p.metrics.request_rate.is_some());
        if n > 0 && run.axis.is_none() && no_concurrency && by_rate {
            out.push(HealthItem {
                severity: Severity::Info,
                concern: Concern::NoConcurrency,
                run: Some(ri),
                title: format!("{name}: levels by request rate"),
                detail: "Its levels are request rates: charts against concurrency cannot place \
                         them; the table and the answer give their figures."
                    .into(),
                count: n,
            });
        } else if n > 0 && run.axis.is_none() && no_concurrency {
            out.push(HealthItem {
                severity: Severity::Warning,
                concern: Concern::NoConcurrency,
                run: Some(ri),
                title: format!("{name}: no concurrency recorded"),
                detail: "The charts against concurrency cannot place this run. Set the \
                         concurrency the benchmark ran at to chart it."
                    .into(),
                count: n,
            });
        }
        if let Some(raw) = report.runs.get(ri) {
            let without: Vec<Option<f64>> = raw
                .points
                .iter()
                .filter(|p| {
                    p.requests
                        .as_ref()
                        .is_some_and(|r| r.start_s.is_none() && !r.is_empty())
                })
                .map(|p| p.concurrency)
                .collect();
            if !without.is_empty() {
                out.push(HealthItem {
                    severity: Severity::Warning,
                    concern: Concern::NoSendTimes,
                    run: Some(ri),
                    title: format!(
                        "{name}: {} of {n} level{} without send times{}",
                        without.len(),
                        if n == 1 { "" } else { "s" },
                        level_list(&without)
                    ),
                    detail: "The file gives no request's send time (vLLM before start_times; a \
                             mapping with no start field): no request timeline for these levels, \
                             and their duration is the tool's own where it states one — else \
                             system T/s is undefined."
                        .into(),
                    count: without.len(),
                });
            }
        }
        if opts.per_gpu && gpu_count(run, opts).is_none() {
            out.push(HealthItem {
                severity: Severity::Warning,
                concern: Concern::NoGpuCount,
                run: Some(ri),
                title: format!("{name}: left off the per-GPU charts"),
                detail: "Its metadata gives no GPU count; give one beside the comparison to \
                         include it."
                    .into(),
                count: 1,
            });
        }
        let differing: Vec<Option<f64>> = run
            .points
            .iter()
            .filter(|p| !p.discrepancies.is_empty())
            .map(|p| p.metrics.concurrency)
            .collect();
        if !differing.is_empty() {
            out.push(HealthItem {
                severity: Severity::Warning,
                concern: Concern::Discrepancy,
                run: Some(ri),
                title: format!(
                    "{name}: the tool's figures differ from tpsview's at {} level{}{}",
                    differing.len(),
                    if differing.len() == 1 { "" } else { "s" },
                    level_list(&differing)
                ),
                detail: "Recomputed from the raw data under the tool's own definition, a figure \
                         the tool printed does not match; the table marks the cells and says the \
                         likely cause."
                    .into(),
                count: differing.len(),
            });
        }
    }
    // Notes from reading and computing, once per wording, with how many places said it.
    let mut notes: Vec<(Severity, &str, Vec<&str>)> = Vec::new();
    // What a derived item above already says (per run, with its levels) is not repeated per file.
    let covered = |d: &crate::error::Diagnostic| d.field == "start_times" || d.field == "completed";
    for d in summary.diagnostics.iter().filter(|d| !covered(d)) {
        let sev = match d.severity {
            DiagSeverity::Warning => Severity::Warning,
            DiagSeverity::Info => Severity::Info,
        };
        match notes
            .iter_mut()
            .find(|(s, m, _)| *s == sev && *m == d.message)
        {
            Some((_, _, files)) => files.push(&d.file),
            None => notes.push((sev, &d.message, vec![&d.file])),
        }
    }
    for (severity, message, files) in notes {
        let mut distinct = files.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let shown: Vec<&str> = distinct.iter().take(3).copied().collect();
        let more = distinct.len().saturating_sub(shown.len());
        out.push(HealthItem {
            severity,
            concern: Concern::Note,
            run: None,
            title: capitalised(message),
            detail: format!(
                "{}{}",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ),
            count: files.len(),
        });
    }
    // Ranked by severity; within one, derived items (about runs) before notes, in run order.
    out.sort_by_key(|i| (i.severity, i.concern == Concern::Note));
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How many items of each severity: (errors, warnings, notes).
pub fn counts(items: &[HealthItem]) -> (usize, usize, usize) {
    let n = |s| items.iter().filter(|i| i.severity == s).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Info))
}
