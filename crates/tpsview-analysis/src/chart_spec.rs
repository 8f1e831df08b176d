//! What each chart shows, as data: panels sharing an x axis, series (lines, bands, labelled
//! points), bars for the request timeline, a shaded window, and the lookup behind the hover
//! tooltip. Tested natively; `tpsview-plot` only draws it.

use crate::metrics::{request_metrics, steady_state};
use crate::model::Point;
use crate::summary::RunSummary;
use crate::summary::{PointSummary, Summary};
use crate::vocabulary::{ChartKind, RunId};

/// How an axis maps values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Proportional.
    Linear,
    /// Base-2 logarithmic (concurrency levels are usually powers of two).
    Log2,
    /// Base-10 logarithmic (a y axis whose runs span decades: a CPU run next to an H100 run).
    Log10,
    /// Places 1, 2, 3, … (runs in order): proportional, ticks only at whole numbers.
    Ordinal,
}

impl Scale {
    /// A value in the axis's own space (log2 for Log2); `None` where the scale cannot show it.
    pub fn to_axis(self, v: f64) -> Option<f64> {
        match self {
            Scale::Linear | Scale::Ordinal => v.is_finite().then_some(v),
            Scale::Log2 => (v > 0.0 && v.is_finite()).then(|| v.log2()),
            Scale::Log10 => (v > 0.0 && v.is_finite()).then(|| v.log10()),
        }
    }

    /// The inverse of [`Scale::to_axis`].
    pub fn from_axis(self, a: f64) -> f64 {
        match self {
            Scale::Linear | Scale::Ordinal => a,
            Scale::Log2 => a.exp2(),
            Scale::Log10 => 10f64.powf(a),
        }
    }
}

/// An axis: label, scale and the range to show, in data units.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Text under or beside the axis.
    pub label: String,
    /// Linear or log2.
    pub scale: Scale,
    /// Shown range in data units (min < max).
    pub range: (f64, f64),
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A line through markers.
    Line,
    /// A dashed line without markers (e.g. a frontier).
    Dashed,
    /// Markers only.
    Points,
}

/// One series.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// What it is, e.g. `system T/s`.
    pub name: String,
    /// The run it shows, or `None` for a series of no single run (the Pareto frontier across
    /// runs, the decode model's bound).
    pub run: Option<RunRef>,
    /// Its legend name: the run's id, or what it is (`all runs`, `decode model`).
    pub run_label: String,
    /// (x, y) in data units, ascending in x for lines.
    pub points: Vec<(f64, f64)>,
    /// (x, low, high): a band drawn under the line (e.g. p50–p99); may be empty.
    pub band: Vec<(f64, f64, f64)>,
    /// A label per point (e.g. the batch size), or empty.
    pub labels: Vec<String>,
    /// How to draw it.
    pub mark: Mark,
}

/// The run a series shows: its place among the summary's runs (which gives its colour) and its id
/// (which hiding names).
#[derive(Debug, Clone, PartialEq)]
pub struct RunRef {
    /// Index among the summary's runs.
    pub index: usize,
    /// The run's id.
    pub id: RunId,
}

/// One panel: a y axis and its series.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Caption.
    pub title: String,
    /// The y axis.
    pub y: Axis,
    /// Series, in legend order.
    pub series: Vec<Series>,
}

/// One request of the timeline: its row and its spans, in seconds since the first send.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    /// Row (requests in send order; in the sessions timeline, the session's lane, counted over
    /// every session of the level).
    pub row: usize,
    /// The request's turn in its session (the sessions timeline only).
    pub turn: Option<u32>,
    /// Index of the request in its point.
    pub request: usize,
    /// Send time.
    pub start: f64,
    /// First token's arrival (end of waiting + prefill).
    pub first_token: f64,
    /// Last token's arrival.
    pub end: f64,
    /// True for a request that failed or was unusable (drawn apart, no spans).
    pub failed: bool,
}

/// A chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSpec {
    /// Which chart this is (its `id()` names the canvas: `data-testid="chart-<id>"`).
    pub id: ChartKind,
    /// The shared x axis.
    pub x: Axis,
    /// Panels, top to bottom.
    pub panels: Vec<Panel>,
    /// Timeline bars (timeline only).
    pub bars: Vec<Bar>,
    /// A shaded x window and its caption (the steady state on the timeline).
    pub shade: Option<(f64, f64, String)>,
    /// Points that matter, marked and labelled (a run's peak and knee).
    pub marks: Vec<Annotation>,
}

/// A marked point: a ring in its run's colour and a short label.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// Panel index.
    pub panel: usize,
    /// Series index within the panel (its colour).
    pub series: usize,
    /// Where, in data units.
    pub x: f64,
    /// Where, in data units.
    pub y: f64,
    /// The label, e.g. `peak`.
    pub text: String,
    /// Labelled under its ring rather than above: a knee at or next to its run's peak, whose
    /// label would cover the peak's.
    pub below: bool,
}

/// Viewer choices that change what a chart shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChartOptions {
    /// Concurrency on a linear axis instead of log2.
    pub linear_x: bool,
    /// Values on a log10 y axis (runs whose values span decades), for the charts against
    /// concurrency.
    pub log_y: bool,
    /// Series hidden by the user, by `name` (all runs) — e.g. `per-stream T/s`.
    pub hidden: Vec<String>,
    /// Runs hidden by the user (clicking their legend entry).
    pub hidden_runs: Vec<RunId>,
    /// The statistic the latency chart's line shows.
    pub stat: crate::stats::Stat,
    /// The latency chart's band: the 99 % interval of the line's statistic (over the setup's
    /// repeats, else the level's requests) instead of the requests' p50–p99 spread.
    pub latency_interval: bool,
    /// System-wide figures divided by each run's GPU count (runs without one are left out).
    pub per_gpu: bool,
    /// GPU counts the user gave, by run.
    pub gpu_counts: Vec<(RunId, u32)>,
    /// The SLO the levels were evaluated against (the summary's points carry the result): the
    /// charts shade where it is met and mark each run's capacity under it.
    pub slo: Option<crate::slo::Slo>,
    /// The interactivity chart's y axis in USD per million output tokens (levels carry a cost
    /// once a GPU-hour price is given) instead of system T/s.
    pub cost_axis: bool,
    /// The interactivity chart's x axis in tokens/s per user, E2E-normalized, at p90 on the slow
    /// tail (the agentic frontier's axis) instead of per-stream T/s.
    pub per_user_x: bool,
}

impl ChartOptions {
    /// True when the user hid the run `s` shows.
    fn is_hidden(&self, s: &Series) -> bool {
        s.run
            .as_ref()
            .is_some_and(|r| self.hidden_runs.contains(&r.id))
    }

    fn compare_options(&self) -> crate::compare::CompareOptions {
        crate::compare::CompareOptions {
            per_gpu: self.per_gpu,
            gpu_counts: self.gpu_counts.clone(),
        }
    }
}

/// One line of the hover tooltip.
#[derive(Debug, Clone, PartialEq)]
pub struct HoverRow {
    /// Panel title.
    pub panel: String,
    /// Run label.
    pub run: String,
    /// Series name.
    pub series: String,
    /// The value at the hovered x (or of the hovered point).
    pub value: f64,
}

/// What a tooltip points at on the chart, by index into the spec: the overlay marks exactly these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoverAt {
    /// Point `point` of series `series` of panel `panel`.
    Point {
        /// Panel index.
        panel: usize,
        /// Series index within the panel.
        series: usize,
        /// Point index within the series.
        point: usize,
    },
    /// Bar `0` of the timeline (an index into [`ChartSpec::bars`]).
    Bar(usize),
}

/// What the tooltip shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Hover {
    /// The x the rows are taken at (snapped to the nearest point), in data units.
    pub x: f64,
    /// Caption, e.g. `concurrency 64`.
    pub title: String,
    /// One row per visible series that has a point there.
    pub rows: Vec<HoverRow>,
    /// The points (or the bar) the tooltip is about.
    pub at: Vec<HoverAt>,
}

/// The axis range of `values` on `scale` (from 0 where `zero_floor`, padded).
pub fn range_of(values: impl Iterator<Item = f64>, scale: Scale, zero_floor: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| scale.to_axis(*v).is_some()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return match scale {
            Scale::Linear | Scale::Ordinal => (0.0, 1.0),
            Scale::Log2 => (1.0, 2.0),
            Scale::Log10 => (1.0, 10.0),
        };
    }
    match scale {
        Scale::Log2 => {
            let (a, b) = (lo.log2().floor(), hi.log2().ceil());
            (
                (a - 0.25).exp2(),
                (if b > a { b } else { a + 1.0 } + 0.25).exp2(),
            )
        }
        Scale::Log10 => {
            // Whole decades around the data, with a little room.
            let (a, b) = (lo.log10().floor(), hi.log10().ceil());
            (
                10f64.powf(a - 0.05),
                10f64.powf(if b > a { b } else { a + 1.0 } + 0.05),
            )
        }
        Scale::Linear | Scale::Ordinal => {
            let lo = if zero_floor { lo.min(0.0) } else { lo };
            let span = if hi > lo { hi - lo } else { hi.abs().max(1.0) };
            (
                if zero_floor && lo >= 0.0 {
                    lo
                } else {
                    lo - span * 0.05
                },
                hi + span * 0.08,
            )
        }
    }
}

fn x_axis(opts: &ChartOptions) -> Scale {
    if opts.linear_x {
        Scale::Linear
    } else {
        Scale::Log2
    }
}

/// A line series of one metric of every point of a run, against concurrency.
fn metric_series(
    index: usize,
    run: &RunSummary,
    name: &str,
    y: impl Fn(&PointSummary) -> Option<f64>,
) -> Series {
    let mut pts: Vec<(f64, f64)> = run
        .points
        .iter()
        .filter_map(|p| Some((p.metrics.concurrency?, y(p)?)))
        .collect();
    pts.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    Series {
        name: name.into(),
        run: Some(RunRef {
            index,
            id: run.id.clone(),
        }),
        run_label: run.id.to_string(),
        points: pts,
        band: Vec::new(),
        labels: Vec::new(),
        mark: Mark::Line,
    }
}

fn panel(title: &str, unit: &str, series: Vec<Series>, opts: &ChartOptions) -> Panel {
    let series: Vec<Series> = series
        .into_iter()
        .filter(|s| !opts.hidden.contains(&s.name) && !opts.is_hidden(s))
        .collect();
    let values = series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let scale = if opts.log_y {
        Scale::Log10
    } else {
        Scale::Linear
    };
    Panel {
        title: title.into(),
        y: Axis {
            label: if opts.log_y {
                format!("{unit} (log)")
            } else {
                unit.into()
            },
            scale,
            range: range_of(values, scale, true),
        },
        series,
    }
}

fn concurrency_axis(summary: &Summary, opts: &ChartOptions) -> Axis {
    let scale = x_axis(opts);
    let xs = summary
        .runs
        .iter()
        .flat_map(|r| r.points.iter())
        .flat_map(|p| {
            // The batch the server ran is drawn against the same axis (throughput).
            let ran = p.server.as_ref().and_then(|s| s.running).map(|r| r.mean);
            [p.metrics.concurrency, ran.filter(|r| *r > 0.0)]
        })
        .flatten();
    // A llama-bench sweep's level is the parameter it varies, not concurrency.
    let axes: Vec<Option<&str>> = summary.runs.iter().map(|r| r.axis.as_deref()).collect();
    let label = match axes.first() {
        Some(Some(a)) if axes.iter().all(|x| *x == Some(*a)) => {
            format!("{a} (swept; one sequence)")
        }
        _ if axes.iter().any(Option::is_some) => {
            "concurrency, or the swept parameter of a llama-bench run".into()
        }
        _ => "concurrency (requests in flight)".into(),
    };
    Axis {
        label,
        scale,
        range: range_of(xs, scale, false),
    }
}

mod empty;
mod hover;
mod interactivity;
mod latency;
mod roofline;
mod throughput;
mod timeline;
mod trend;

pub use empty::{why_empty, Empty};
pub use interactivity::{interactivity, pareto_frontier};
pub use latency::latency;
pub use roofline::{efficiency, roofline, Efficiency};
pub use throughput::{throughput, RAN};
pub use timeline::{
    sessions_timeline, timeline, SessionsPage, SERVER_KV, SERVER_RUNNING, SERVER_WAITING,
    SESSIONS_PER_PAGE,
};
pub use trend::trend;
