//! What each chart shows, as data: panels sharing an x axis, series (lines, bands, labelled
//! points), bars for the request timeline, a shaded window, and the lookup behind the hover
//! tooltip. Tested natively; `tpsview-plot` only draws it.

use crate::metrics::{request_metrics, steady_state};
use crate::model::Point;
use crate::summary::{PointSummary, Summary};
use crate::vocabulary::ChartKind;

/// How an axis maps values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Proportional.
    Linear,
    /// Base-2 logarithmic (concurrency levels are usually powers of two).
    Log2,
}

impl Scale {
    /// A value in the axis's own space (log2 for Log2); `None` where the scale cannot show it.
    pub fn to_axis(self, v: f64) -> Option<f64> {
        match self {
            Scale::Linear => v.is_finite().then_some(v),
            Scale::Log2 => (v > 0.0 && v.is_finite()).then(|| v.log2()),
        }
    }

    /// The inverse of [`Scale::to_axis`].
    pub fn from_axis(self, a: f64) -> f64 {
        match self {
            Scale::Linear => a,
            Scale::Log2 => a.exp2(),
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
    /// Index of its run (its colour).
    pub run: usize,
    /// The run's label.
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
    /// Row (requests in send order).
    pub row: usize,
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
}

/// Viewer choices that change what a chart shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChartOptions {
    /// Concurrency on a linear axis instead of log2.
    pub linear_x: bool,
    /// Series hidden by the user, by `name` (all runs) — e.g. `per-stream T/s`.
    pub hidden: Vec<String>,
    /// Runs hidden by the user (clicking their legend entry), by label.
    pub hidden_runs: Vec<String>,
    /// The statistic the latency chart's line shows (the band stays p50–p99).
    pub stat: crate::stats::Stat,
    /// System-wide figures divided by each run's GPU count (runs without one are left out).
    pub per_gpu: bool,
    /// GPU counts the user gave, by run label.
    pub gpu_counts: Vec<(String, u32)>,
}

impl ChartOptions {
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

/// What the tooltip shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Hover {
    /// The x the rows are taken at (snapped to the nearest point), in data units.
    pub x: f64,
    /// Caption, e.g. `concurrency 64`.
    pub title: String,
    /// One row per visible series that has a point there.
    pub rows: Vec<HoverRow>,
}

fn range_of(values: impl Iterator<Item = f64>, scale: Scale, zero_floor: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| scale.to_axis(*v).is_some()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return match scale {
            Scale::Linear => (0.0, 1.0),
            Scale::Log2 => (1.0, 2.0),
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
        Scale::Linear => {
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
    run: usize,
    label: &str,
    points: &[PointSummary],
    name: &str,
    y: impl Fn(&PointSummary) -> Option<f64>,
) -> Series {
    let mut pts: Vec<(f64, f64)> = points
        .iter()
        .filter_map(|p| Some((p.metrics.concurrency?, y(p)?)))
        .collect();
    pts.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    Series {
        name: name.into(),
        run,
        run_label: label.into(),
        points: pts,
        band: Vec::new(),
        labels: Vec::new(),
        mark: Mark::Line,
    }
}

fn panel(title: &str, unit: &str, series: Vec<Series>, opts: &ChartOptions) -> Panel {
    let series: Vec<Series> = series
        .into_iter()
        .filter(|s| !opts.hidden.contains(&s.name) && !opts.hidden_runs.contains(&s.run_label))
        .collect();
    let values = series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    Panel {
        title: title.into(),
        y: Axis {
            label: unit.into(),
            scale: Scale::Linear,
            range: range_of(values, Scale::Linear, true),
        },
        series,
    }
}

fn concurrency_axis(summary: &Summary, opts: &ChartOptions) -> Axis {
    let scale = x_axis(opts);
    let xs = summary
        .runs
        .iter()
        .flat_map(|r| r.points.iter().filter_map(|p| p.metrics.concurrency));
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

/// System T/s (top) and per-stream T/s (bottom) against concurrency: the "50 or 4,000?" chart.
pub fn throughput(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let each = |name: &str, f: fn(&PointSummary) -> Option<f64>| -> Vec<Series> {
        summary
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| metric_series(i, &r.label, &r.points, name, f))
            .collect()
    };
    let cmp = opts.compare_options();
    let system: Vec<Series> = summary
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            metric_series(i, &r.label, &r.points, "system T/s", |p| {
                crate::compare::value(r, p, crate::vocabulary::Metric::SystemTps, &cmp)
            })
        })
        .collect();
    ChartSpec {
        id: ChartKind::Throughput,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(
                if opts.per_gpu {
                    "system T/s per GPU — all output tokens of all streams per second, ÷ GPUs"
                } else {
                    "system T/s — all output tokens of all streams per second"
                },
                "tokens/s",
                system,
                opts,
            ),
            panel(
                "per-stream T/s — one request's decode rate, 1 / TPOT",
                "tokens/s",
                each("per-stream T/s", |p| p.metrics.per_stream_tps),
                opts,
            ),
        ],
        bars: Vec::new(),
        shade: None,
    }
}

/// TPOT (mean, with a p50–p99 band) and TTFT (mean, with a p50–p99 band) against concurrency.
pub fn latency(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let stat = opts.stat;
    let banded = |name: &str, f: fn(&PointSummary) -> crate::stats::Dist| -> Vec<Series> {
        summary
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut s = metric_series(i, &r.label, &r.points, name, |p| *f(p).stat(stat));
                s.band = r
                    .points
                    .iter()
                    .filter_map(|p| {
                        let d = f(p);
                        Some((p.metrics.concurrency?, d.p50?, d.p99?))
                    })
                    .collect();
                s.band
                    .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                s
            })
            .collect()
    };
    ChartSpec {
        id: ChartKind::Latency,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(
                &format!(
                    "TPOT — time per output token after the first (line: {}; band: p50–p99)",
                    stat.name()
                ),
                "ms",
                banded("TPOT", |p| p.metrics.tpot_ms),
                opts,
            ),
            panel(
                &format!(
                    "TTFT — time to first token (line: {}; band: p50–p99)",
                    stat.name()
                ),
                "ms",
                banded("TTFT", |p| p.metrics.ttft_ms),
                opts,
            ),
        ],
        bars: Vec::new(),
        shade: None,
    }
}

/// One rectangle of a drawn timeline: rows `row0..row1`, x from `x0` to `x1` (seconds), the
/// waiting + prefill part or the decode part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// First row covered.
    pub row0: f64,
    /// One past the last row covered.
    pub row1: f64,
    /// Start, seconds.
    pub x0: f64,
    /// End, seconds.
    pub x1: f64,
    /// Decode (true) or waiting + prefill (false).
    pub decode: bool,
}

/// The rectangles that draw `bars` on `pixel_rows` × `pixel_cols` pixels spanning `x_range`.
/// With no more requests than pixel rows, two per request. With more, the requests that share a
/// pixel row are drawn together: per row group, the union of their waiting spans, then the union
/// of their decode spans, gaps under one pixel column closed — what those pixels would show
/// anyway, in a few rectangles instead of thousands (a 10,000-request timeline stays one frame).
pub fn timeline_spans(
    bars: &[Bar],
    pixel_rows: usize,
    pixel_cols: usize,
    x_range: (f64, f64),
) -> Vec<Span> {
    let ok = bars.iter().filter(|b| !b.failed);
    if bars.len() <= pixel_rows.max(1) {
        return ok
            .flat_map(|b| {
                let (r0, r1) = (b.row as f64, b.row as f64 + 1.0);
                [
                    Span {
                        row0: r0,
                        row1: r1,
                        x0: b.start,
                        x1: b.first_token,
                        decode: false,
                    },
                    Span {
                        row0: r0,
                        row1: r1,
                        x0: b.first_token,
                        x1: b.end,
                        decode: true,
                    },
                ]
            })
            .collect();
    }
    let group = bars.len().div_ceil(pixel_rows.max(1));
    let eps = (x_range.1 - x_range.0).abs() / pixel_cols.max(1) as f64;
    let mut out = Vec::new();
    let mut wait: Vec<(f64, f64)> = Vec::with_capacity(group);
    let mut decode: Vec<(f64, f64)> = Vec::with_capacity(group);
    for (g, chunk) in bars.chunks(group).enumerate() {
        wait.clear();
        decode.clear();
        for b in chunk.iter().filter(|b| !b.failed) {
            wait.push((b.start, b.first_token));
            decode.push((b.first_token, b.end));
        }
        let (r0, r1) = ((g * group) as f64, (g * group + chunk.len()) as f64);
        for (list, is_decode) in [(&mut wait, false), (&mut decode, true)] {
            list.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let mut cur: Option<(f64, f64)> = None;
            for &(a, b) in list.iter() {
                cur = match cur {
                    Some((x0, x1)) if a <= x1 + eps => Some((x0, x1.max(b))),
                    Some((x0, x1)) => {
                        out.push(Span {
                            row0: r0,
                            row1: r1,
                            x0,
                            x1,
                            decode: is_decode,
                        });
                        Some((a, b))
                    }
                    None => Some((a, b)),
                };
            }
            if let Some((x0, x1)) = cur {
                out.push(Span {
                    row0: r0,
                    row1: r1,
                    x0,
                    x1,
                    decode: is_decode,
                });
            }
        }
    }
    out
}

/// The points no other point beats on both axes (higher is better on both), ascending in x.
pub fn pareto_frontier(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    // Descending in x; keep a point when its y beats every point to its right.
    sorted.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut best_y = f64::NEG_INFINITY;
    for p in sorted {
        if p.1 > best_y {
            out.push(p);
            best_y = p.1;
        }
    }
    out.reverse();
    out
}

/// Throughput against interactivity: per-stream T/s (x) against system T/s (y), each point
/// labelled by its concurrency, with the Pareto frontier over all runs.
pub fn interactivity(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    let mut series: Vec<Series> = summary
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let pts: Vec<(f64, f64, String)> = r
                .points
                .iter()
                .filter_map(|p| {
                    let label = p
                        .metrics
                        .concurrency
                        .map_or_else(String::new, |c| format!("{c}"));
                    Some((p.metrics.per_stream_tps?, p.metrics.system_tps?, label))
                })
                .collect();
            Series {
                name: "runs".into(),
                run: i,
                run_label: r.label.clone(),
                points: pts.iter().map(|p| (p.0, p.1)).collect(),
                band: Vec::new(),
                labels: pts.into_iter().map(|p| p.2).collect(),
                mark: Mark::Points,
            }
        })
        .collect();
    series.retain(|s| !opts.hidden_runs.contains(&s.run_label));
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .collect();
    let frontier = pareto_frontier(&all);
    if frontier.len() > 1 {
        series.push(Series {
            name: "Pareto frontier".into(),
            run: usize::MAX,
            run_label: "all runs".into(),
            points: frontier,
            band: Vec::new(),
            labels: Vec::new(),
            mark: Mark::Dashed,
        });
    }
    let xs = all.iter().map(|p| p.0);
    ChartSpec {
        id: ChartKind::Interactivity,
        x: Axis {
            label: "per-stream T/s (interactivity: how fast one user sees tokens)".into(),
            scale: Scale::Linear,
            range: range_of(xs, Scale::Linear, true),
        },
        panels: vec![panel(
            "system T/s against per-stream T/s (labels: concurrency)",
            "system tokens/s",
            series,
            opts,
        )],
        bars: Vec::new(),
        shade: None,
    }
}

/// The per-request timeline of one point: each request's wait + prefill (TTFT) and decode spans
/// against time since the first send, requests in send order, the steady window shaded. `None`
/// when the point has no send times.
pub fn timeline(point: &Point) -> Option<ChartSpec> {
    let req = point.requests.as_ref()?;
    let start = req.start_s.as_ref()?;
    let origin = start
        .iter()
        .copied()
        .filter(|s| s.is_finite())
        .fold(f64::INFINITY, f64::min);
    if !origin.is_finite() {
        return None;
    }
    let mut order: Vec<usize> = (0..req.len()).filter(|&i| start[i].is_finite()).collect();
    order.sort_unstable_by(|&a, &b| start[a].total_cmp(&start[b]).then(a.cmp(&b)));
    let bars: Vec<Bar> = order
        .iter()
        .enumerate()
        .map(|(row, &i)| {
            let s = start[i] - origin;
            match request_metrics(req, i) {
                Some(r) => Bar {
                    row,
                    request: i,
                    start: s,
                    first_token: s + r.ttft,
                    end: s + r.e2e,
                    failed: false,
                },
                None => Bar {
                    row,
                    request: i,
                    start: s,
                    first_token: s,
                    end: s,
                    failed: true,
                },
            }
        })
        .collect();
    let end = bars.iter().map(|b| b.end).fold(0.0f64, f64::max);
    let shade = steady_state(req, point.concurrency).map(|w| {
        (
            w.start_s - origin,
            w.end_s - origin,
            format!(
                "steady state: {:.0} requests in flight",
                point.concurrency.unwrap_or(0.0)
            ),
        )
    });
    let rows = bars.len().max(1) as f64;
    Some(ChartSpec {
        id: ChartKind::Timeline,
        x: Axis {
            label: "seconds since the first request was sent".into(),
            scale: Scale::Linear,
            range: (0.0, if end > 0.0 { end * 1.02 } else { 1.0 }),
        },
        panels: vec![Panel {
            title: format!(
                "requests at concurrency {} in send order: waiting + prefill (TTFT), then decode",
                point
                    .concurrency
                    .map_or_else(|| "?".to_owned(), |c| format!("{c}"))
            ),
            y: Axis {
                label: "request (send order)".into(),
                scale: Scale::Linear,
                range: (0.0, rows),
            },
            series: Vec::new(),
        }],
        bars,
        shade,
    })
}

/// Measured against bound, per level: the run's system T/s ÷ the decode model's bound at the same
/// batch, and the same for per-stream T/s.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Efficiency {
    /// Concurrency (taken as the batch size).
    pub concurrency: f64,
    /// Measured system T/s.
    pub system_tps: f64,
    /// Bound on system T/s at this batch.
    pub system_bound: f64,
    /// Measured per-stream T/s.
    pub per_stream_tps: f64,
    /// Bound on per-stream T/s at this batch.
    pub per_stream_bound: f64,
}

impl Efficiency {
    /// Measured ÷ bound for system T/s.
    pub fn ratio(&self) -> f64 {
        self.system_tps / self.system_bound
    }

    /// Measured ÷ bound for per-stream T/s.
    pub fn per_stream_ratio(&self) -> f64 {
        self.per_stream_tps / self.per_stream_bound
    }
}

/// Each level of `run` against the decode model's bound at the same batch.
pub fn efficiency(
    run: &crate::summary::RunSummary,
    model: &crate::roofline::DecodeInputs,
) -> Vec<Efficiency> {
    run.points
        .iter()
        .filter_map(|p| {
            let c = p.metrics.concurrency?;
            let b = model.step(c);
            Some(Efficiency {
                concurrency: c,
                system_tps: p.metrics.system_tps?,
                system_bound: b.system_tps,
                per_stream_tps: p.metrics.per_stream_tps?,
                per_stream_bound: b.per_stream_tps,
            })
        })
        .collect()
}

/// The decode model's bounds against batch size (dashed), with a run's measured levels over them.
///
/// The batch axis runs to twice the larger of `batch` and the run's highest level (256 without a
/// run).
pub fn roofline(
    model: &crate::roofline::DecodeInputs,
    run: Option<&crate::summary::RunSummary>,
    batch: f64,
    opts: &ChartOptions,
) -> ChartSpec {
    let highest = run
        .and_then(|r| {
            r.points
                .iter()
                .filter_map(|p| p.metrics.concurrency)
                .reduce(f64::max)
        })
        .unwrap_or(256.0);
    let steps = model.curve(&crate::roofline::batch_grid(
        highest.max(batch).max(1.0) * 2.0,
    ));
    let bound = |name: &str, f: fn(&crate::roofline::DecodeStep) -> f64| Series {
        name: name.into(),
        run: usize::MAX,
        run_label: "decode model".into(),
        points: steps.iter().map(|s| (s.batch, f(s))).collect(),
        band: Vec::new(),
        labels: Vec::new(),
        mark: Mark::Dashed,
    };
    let measured = |name: &str, f: fn(&PointSummary) -> Option<f64>| -> Vec<Series> {
        run.map(|r| {
            let mut s = metric_series(0, &r.label, &r.points, name, f);
            s.mark = Mark::Points;
            s
        })
        .into_iter()
        .collect()
    };
    let mut sys = vec![bound("system T/s bound", |s| s.system_tps)];
    sys.extend(measured("system T/s measured", |p| p.metrics.system_tps));
    let mut per = vec![bound("per-stream T/s bound", |s| s.per_stream_tps)];
    per.extend(measured("per-stream T/s measured", |p| {
        p.metrics.per_stream_tps
    }));
    let scale = x_axis(opts);
    let xs = steps.iter().map(|s| s.batch).chain(
        run.into_iter()
            .flat_map(|r| r.points.iter().filter_map(|p| p.metrics.concurrency)),
    );
    ChartSpec {
        id: ChartKind::Roofline,
        x: Axis {
            label: "batch size (sequences decoding together)".into(),
            scale,
            range: range_of(xs, scale, false),
        },
        panels: vec![
            panel(
                "system T/s: the decode model's bound (dashed) and the run's levels",
                "tokens/s",
                sys,
                &ChartOptions::default(),
            ),
            panel(
                "per-stream T/s: bound (dashed) and measured",
                "tokens/s",
                per,
                &ChartOptions::default(),
            ),
        ],
        bars: Vec::new(),
        shade: None,
    }
}

impl ChartSpec {
    /// The tooltip at data x `x` (and, for the scatter chart, data y `y` in panel `panel`): the
    /// nearest point's x, and the value of every visible series there.
    pub fn hover(&self, x: f64, y: Option<f64>, panel: usize) -> Option<Hover> {
        if self.id == ChartKind::Interactivity {
            return self.hover_point(x, y?, panel);
        }
        if self.id == ChartKind::Timeline {
            let row = y?.floor() as usize;
            let b = self.bars.iter().find(|b| b.row == row)?;
            let rows = if b.failed {
                vec![HoverRow {
                    panel: String::new(),
                    run: String::new(),
                    series: "failed or unusable: no timing".into(),
                    value: f64::NAN,
                }]
            } else {
                vec![
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "sent at (s)".into(),
                        value: b.start,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "TTFT (ms)".into(),
                        value: (b.first_token - b.start) * 1e3,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "decode (ms)".into(),
                        value: (b.end - b.first_token) * 1e3,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "E2E (ms)".into(),
                        value: (b.end - b.start) * 1e3,
                    },
                ]
            };
            return Some(Hover {
                x: b.start,
                title: format!("request {} (row {})", b.request, b.row),
                rows,
            });
        }
        let ax = self.x.scale.to_axis(x)?;
        let nearest = self
            .panels
            .iter()
            .flat_map(|p| p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0)))
            .filter_map(|px| Some((px, (self.x.scale.to_axis(px)? - ax).abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1))?
            .0;
        let mut rows = Vec::new();
        for p in &self.panels {
            for s in &p.series {
                if let Some(q) = s.points.iter().find(|q| q.0 == nearest) {
                    rows.push(HoverRow {
                        panel: p.title.clone(),
                        run: s.run_label.clone(),
                        series: s.name.clone(),
                        value: q.1,
                    });
                }
            }
        }
        Some(Hover {
            x: nearest,
            title: format!(
                "{} {nearest}",
                self.x.label.split([' ', ',']).next().unwrap_or("level")
            ),
            rows,
        })
    }

    fn hover_point(&self, x: f64, y: f64, panel: usize) -> Option<Hover> {
        let p = self.panels.get(panel)?;
        let (sx, sy) = (
            (self.x.range.1 - self.x.range.0).max(1e-12),
            (p.y.range.1 - p.y.range.0).max(1e-12),
        );
        let (s, k) = p
            .series
            .iter()
            .filter(|s| s.mark == Mark::Points)
            .flat_map(|s| {
                s.points
                    .iter()
                    .enumerate()
                    .map(move |(k, q)| (s, k, ((q.0 - x) / sx).hypot((q.1 - y) / sy)))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .map(|(s, k, _)| (s, k))?;
        let (px, py) = s.points[k];
        let label = s.labels.get(k).cloned().unwrap_or_default();
        Some(Hover {
            x: px,
            title: format!("{} at concurrency {label}", s.run_label),
            rows: vec![
                HoverRow {
                    panel: p.title.clone(),
                    run: s.run_label.clone(),
                    series: "per-stream T/s".into(),
                    value: px,
                },
                HoverRow {
                    panel: p.title.clone(),
                    run: s.run_label.clone(),
                    series: "system T/s".into(),
                    value: py,
                },
            ],
        })
    }

    /// The tooltip for level `x` as if hovered on its first point (the walkthrough's highlight).
    pub fn pin(&self, x: f64) -> Option<Hover> {
        let y = self
            .panels
            .first()?
            .series
            .iter()
            .flat_map(|s| &s.points)
            .find(|p| p.0 == x)?
            .1;
        self.hover(x, Some(y), 0)
    }

    /// [`ChartSpec::pin`] by concurrency level: on the scatter chart, whose x is per-stream T/s,
    /// the point labelled with that level.
    pub fn pin_level(&self, concurrency: f64) -> Option<Hover> {
        if self.id != ChartKind::Interactivity {
            return self.pin(concurrency);
        }
        let label = format!("{concurrency}");
        let s = self
            .panels
            .first()?
            .series
            .iter()
            .find(|s| s.labels.contains(&label))?;
        let k = s.labels.iter().position(|l| *l == label)?;
        self.hover(s.points[k].0, Some(s.points[k].1), 0)
    }

    /// The distinct x positions of all series, ascending (the levels arrow keys step through).
    pub fn levels(&self) -> Vec<f64> {
        let mut xs: Vec<f64> = self
            .panels
            .iter()
            .flat_map(|p| p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0)))
            .collect();
        xs.sort_unstable_by(f64::total_cmp);
        xs.dedup();
        xs
    }

    /// The tooltip one level to the right (`step` = 1) or left (−1) of `from`, or at the first
    /// level when nothing is shown yet; clamped at both ends.
    pub fn step_hover(&self, from: Option<f64>, step: i32) -> Option<Hover> {
        let xs = self.levels();
        let last = xs.len().checked_sub(1)?;
        let next = match from.and_then(|x| xs.iter().position(|&l| l == x)) {
            Some(i) => (i as i64 + i64::from(step)).clamp(0, last as i64) as usize,
            None => 0,
        };
        self.pin(xs[next])
    }

    /// Every series name a user can toggle, in order, once each.
    pub fn series_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.panels.iter().flat_map(|p| &p.series) {
            if !out.contains(&s.name) {
                out.push(s.name.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
