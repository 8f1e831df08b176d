//! Why a chart has nothing to draw, in words the chart shows inside itself, and what would fill it.

use super::*;

/// Why a chart is empty.
#[derive(Debug, Clone, PartialEq)]
pub enum Empty {
    /// The user hid every run from the legend.
    AllHidden,
    /// The user switched off every series this chart has.
    SeriesOff,
    /// No level records a concurrency, and this chart's x axis is concurrency: these files lack it.
    NoConcurrency {
        /// The files whose points have no concurrency.
        files: Vec<String>,
    },
    /// No level has the figures this chart draws (every request failed, or the file has none).
    NoFigures,
}

impl Empty {
    /// The sentence shown inside the chart.
    pub fn words(&self) -> String {
        match self {
            Empty::AllHidden => {
                "Every run is hidden: click a run above the charts to show it again.".into()
            }
            Empty::SeriesOff => {
                "Every series of this chart is switched off in Chart options.".into()
            }
            Empty::NoConcurrency { files } => format!(
                "Nothing to place on the concurrency axis: {} record{} no concurrency. Set the \
                 concurrency the benchmark ran at to chart {}.",
                files.join(", "),
                if files.len() == 1 { "s" } else { "" },
                if files.len() == 1 { "it" } else { "them" }
            ),
            Empty::NoFigures => "No level has these figures: see Data health for why (every \
                                 request failed, or the file holds none of them)."
                .into(),
        }
    }
}

/// Why `spec` (built from `summary` under `opts`) has no point to draw; `None` when it has one, or
/// when nothing is loaded at all (the page says that itself).
pub fn why_empty(spec: &ChartSpec, summary: &Summary, opts: &ChartOptions) -> Option<Empty> {
    let drawn = spec
        .panels
        .iter()
        .flat_map(|p| &p.series)
        .any(|s| s.run.is_some() && !s.points.is_empty())
        || !spec.bars.is_empty();
    if drawn || summary.runs.is_empty() {
        return None;
    }
    let shown: Vec<&RunSummary> = summary
        .runs
        .iter()
        .filter(|r| !opts.hidden_runs.contains(&r.id))
        .collect();
    if shown.is_empty() {
        return Some(Empty::AllHidden);
    }
    let all = ChartOptions {
        hidden: Vec::new(),
        ..opts.clone()
    };
    let unfiltered = match spec.id {
        ChartKind::Throughput => throughput(summary, &all),
        ChartKind::Latency => latency(summary, &all),
        _ => spec.clone(),
    };
    let any_points = |s: &ChartSpec| {
        s.panels
            .iter()
            .flat_map(|p| &p.series)
            .any(|x| x.run.is_some() && !x.points.is_empty())
    };
    if any_points(&unfiltered) {
        return Some(Empty::SeriesOff);
    }
    let on_concurrency = matches!(spec.id, ChartKind::Throughput | ChartKind::Latency);
    if on_concurrency
        && shown
            .iter()
            .all(|r| r.points.iter().all(|p| p.metrics.concurrency.is_none()))
    {
        let mut files: Vec<String> = shown
            .iter()
            .flat_map(|r| r.points.iter().map(|p| p.source_file.clone()))
            .collect();
        files.dedup();
        return Some(Empty::NoConcurrency { files });
    }
    Some(Empty::NoFigures)
}
