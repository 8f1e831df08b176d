//! What the viewer page shows, decided here rather than in its components (issue 42: the page is
//! wiring): the summary with each level's own intervals merged in, the series a chart's controls
//! list, the levels the request timeline can draw and which it draws, the baseline a view names,
//! and what a link with the data inside holds. Plain functions of plain data, tested natively;
//! the page calls them from its memos.

use crate::chart_spec::{self, ChartOptions};
use crate::model::Report;
use crate::noise::LevelIntervals;
use crate::summary::Summary;
use crate::vocabulary::RunId;

/// `summary` with each level's own intervals (`intervals[run][level]`, as
/// `noise::intervals_some` gives them) in its points; runs or levels past the end of
/// `intervals` keep theirs.
pub fn with_intervals(summary: &Summary, intervals: &[Vec<Option<LevelIntervals>>]) -> Summary {
    let mut s = summary.clone();
    for (run, levels) in s.runs.iter_mut().zip(intervals) {
        for (p, l) in run.points.iter_mut().zip(levels) {
            p.intervals.clone_from(l);
        }
    }
    s
}

/// The series a chart's controls list: the throughput chart's, then the latency chart's, as if
/// nothing were hidden (a hidden series must stay in the list to be shown again).
pub fn series_names(summary: &Summary) -> Vec<String> {
    let all = ChartOptions::default();
    let mut names = chart_spec::throughput(summary, &all).series_names();
    names.extend(chart_spec::latency(summary, &all).series_names());
    names
}

/// A level the request timeline can draw: one with each request's send time.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineLevel {
    /// (run, point) indices in the report.
    pub at: (usize, usize),
    /// What the level picker says: `run label — concurrency N` (`?` where the file states none).
    pub label: String,
}

/// The levels the timeline can draw, in report order.
pub fn timeline_levels(report: &Report) -> Vec<TimelineLevel> {
    report
        .runs
        .iter()
        .enumerate()
        .flat_map(|(ri, run)| {
            run.points
                .iter()
                .enumerate()
                .filter(|(_, p)| p.requests.as_ref().is_some_and(|q| q.start_s.is_some()))
                .map(move |(pi, p)| {
                    let level = p
                        .concurrency
                        .map_or_else(|| "?".to_owned(), |c| format!("{c}"));
                    TimelineLevel {
                        at: (ri, pi),
                        label: format!("{} — concurrency {level}", run.label),
                    }
                })
        })
        .collect()
}

/// The level the timeline draws: the one picked while it is still drawable, else the last (the
/// highest level of the last run: the busiest); `None` when no level can be drawn.
pub fn timeline_at(
    levels: &[TimelineLevel],
    picked: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    picked
        .filter(|p| levels.iter().any(|l| l.at == *p))
        .or_else(|| levels.last().map(|l| l.at))
}

/// What the timeline says of the levels it cannot draw (no send times), where some can be drawn
/// and some cannot; `None` otherwise (all drawable, or none: then the section says why itself).
pub fn timeline_missing(levels: &[TimelineLevel], report: &Report) -> Option<String> {
    let shown = levels.len();
    let all: usize = report.runs.iter().map(|r| r.points.len()).sum();
    (shown > 0 && shown < all).then(|| {
        format!(
            "{shown} of {all} levels have each request's send time; the other {} cannot be drawn here (see Data health).",
            all - shown
        )
    })
}

/// The index of the baseline run a view names, the first run where it names none or one no
/// longer loaded.
pub fn baseline_index(summary: &Summary, wanted: Option<&RunId>) -> usize {
    wanted
        .and_then(|w| summary.runs.iter().position(|r| &r.id == w))
        .unwrap_or(0)
}

/// What a link with the data inside can hold, tried in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InlineLink {
    /// Every run with its per-request data.
    Full,
    /// Every run's per-level figures, no requests (the data did not fit).
    Figures,
    /// Not even the figures fit.
    TooLarge,
}

impl InlineLink {
    /// Which link to give: the full bundle if it fits in `limit_kb` compressed, else the figures
    /// if they do, else none (`full_fits`, `figures_fits`: whether each compressed fits).
    pub fn choose(full_fits: bool, figures_fits: bool) -> InlineLink {
        match (full_fits, figures_fits) {
            (true, _) => InlineLink::Full,
            (false, true) => InlineLink::Figures,
            (false, false) => InlineLink::TooLarge,
        }
    }

    /// Its id on the page (`data-kind`): `full`, `figures`; none for no link.
    pub fn id(self) -> Option<&'static str> {
        match self {
            InlineLink::Full => Some("full"),
            InlineLink::Figures => Some("figures"),
            InlineLink::TooLarge => None,
        }
    }

    /// What the page says of it, `limit_kb` the link's limit.
    pub fn words(self, limit_kb: usize) -> String {
        match self {
            InlineLink::Full => "This link holds every run with its per-request data.".to_owned(),
            InlineLink::Figures => format!(
                "The per-request data is too large for a link (over {limit_kb} KB compressed): this link holds every run's per-level figures, not the requests. Export the bundle for those."
            ),
            InlineLink::TooLarge => format!(
                "These runs are too large for a link even as per-level figures (over {limit_kb} KB compressed): export the bundle instead."
            ),
        }
    }
}

#[cfg(test)]
mod tests;
