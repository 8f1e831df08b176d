//! tpsview's charts, drawn with plotters on any `DrawingBackend`: a canvas in the web app, an SVG
//! string in the CLI and in tests. What to draw comes from `tpsview_core::chart_spec`; this crate
//! only draws it, and returns where it drew so that a pointer position maps back to data.
#![warn(missing_docs)]

use plotters::coord::Shift;
use plotters::prelude::*;
use tpsview_core::chart_spec::{ChartSpec, Hover, HoverAt, Mark, Scale};
use tpsview_core::vocabulary::ChartKind;

pub mod spans;

/// Where one panel's plotting area landed, in backend pixels, and what it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PanelLayout {
    /// Left, right, top, bottom pixel edges of the plotting area.
    pub rect: (i32, i32, i32, i32),
    /// The x range in axis space (log2 of the value on a log2 axis).
    pub x_axis: (f64, f64),
    /// The y range in axis space (log10 of the value on a log axis).
    pub y: (f64, f64),
    /// The y axis's scale.
    pub y_scale: Scale,
}

/// Where a chart's panels landed.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// One per panel, top to bottom.
    pub panels: Vec<PanelLayout>,
    /// The x axis's scale.
    pub x_scale: Scale,
}

impl Layout {
    /// The panel and data coordinates under a backend pixel, if it is inside a plotting area.
    pub fn data_at(&self, px: f64, py: f64) -> Option<(usize, f64, f64)> {
        self.panels.iter().enumerate().find_map(|(i, p)| {
            let (l, r, t, b) = (
                f64::from(p.rect.0),
                f64::from(p.rect.1),
                f64::from(p.rect.2),
                f64::from(p.rect.3),
            );
            if px < l || px > r || py < t || py > b || r <= l || b <= t {
                return None;
            }
            let ax = p.x_axis.0 + (px - l) / (r - l) * (p.x_axis.1 - p.x_axis.0);
            let ay = p.y.1 - (py - t) / (b - t) * (p.y.1 - p.y.0);
            Some((i, self.x_scale.from_axis(ax), p.y_scale.from_axis(ay)))
        })
    }
}

/// Colours and sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Multiplies font sizes and line widths (the canvas's device pixel ratio).
    pub scale: f64,
    /// Dark background.
    pub dark: bool,
    /// Draw the legend inside the plot (exports: an image must carry its legend). The page draws
    /// it in HTML beside the canvas instead ([`legend_entries`]), where it never covers data.
    pub legend: bool,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            scale: 1.0,
            dark: false,
            legend: true,
        }
    }
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendMark {
    /// A line (with markers).
    Line,
    /// A dashed line.
    Dashed,
    /// A marker.
    Point,
    /// A filled box (timeline spans, a shaded window).
    Swatch,
}

/// One legend entry: the same words and colours the in-plot legend uses.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// What it is.
    pub label: String,
    /// Its colour.
    pub colour: RGBColor,
    /// How it is drawn.
    pub mark: LegendMark,
}

/// The timeline's span colours: waiting + prefill, decode.
fn span_colours() -> (RGBAColor, RGBAColor) {
    (run_colour(0).mix(0.3), run_colour(0).mix(0.9))
}

/// The shaded window's colour.
fn shade_colour() -> RGBAColor {
    RGBColor(250, 204, 21).mix(0.18)
}

fn opaque(c: RGBAColor, on_white: bool) -> RGBColor {
    // The colour as it looks over the page (white, or the dark page's background).
    let (br, bg, bb) = if on_white {
        (255.0, 255.0, 255.0)
    } else {
        (17.0, 24.0, 39.0)
    };
    let a = c.3;
    let mix = |f: u8, b: f64| (f64::from(f) * a + b * (1.0 - a)).round() as u8;
    RGBColor(mix(c.0, br), mix(c.1, bg), mix(c.2, bb))
}

/// The legend of a chart, once per label, in drawing order (every panel's).
pub fn legend_entries(spec: &ChartSpec, dark: bool) -> Vec<LegendEntry> {
    let mut out: Vec<LegendEntry> = Vec::new();
    let mut push = |e: LegendEntry| {
        if !out.iter().any(|o| o.label == e.label) {
            out.push(e);
        }
    };
    if let Some((_, _, label)) = &spec.shade {
        push(LegendEntry {
            label: label.clone(),
            colour: opaque(shade_colour(), !dark),
            mark: LegendMark::Swatch,
        });
    }
    if !spec.bars.is_empty() {
        let (wait, decode) = span_colours();
        push(LegendEntry {
            label: "waiting + prefill (TTFT)".into(),
            colour: opaque(wait, !dark),
            mark: LegendMark::Swatch,
        });
        push(LegendEntry {
            label: "decode".into(),
            colour: opaque(decode, !dark),
            mark: LegendMark::Swatch,
        });
    }
    for s in spec.panels.iter().flat_map(|p| &p.series) {
        push(LegendEntry {
            label: series_legend(spec, s),
            colour: series_colour(s),
            mark: match s.mark {
                Mark::Line => LegendMark::Line,
                Mark::Dashed => LegendMark::Dashed,
                Mark::Points => LegendMark::Point,
            },
        });
    }
    out
}

/// A series' legend words.
fn series_legend(spec: &ChartSpec, s: &tpsview_core::chart_spec::Series) -> String {
    match (spec.id, s.mark) {
        (ChartKind::Interactivity, Mark::Points) => s.run_label.clone(),
        (ChartKind::Interactivity, _) => s.name.clone(),
        _ => format!("{} — {}", s.run_label, s.name),
    }
}

/// The run palette: twelve colours that stay apart for colour-blind readers — the Okabe–Ito set
/// (less its black and yellow, weak on one of the two backgrounds) and Paul Tol's muted colours —
/// so no colour repeats before the 13th run.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(136, 34, 85),   // wine
    RGBColor(68, 170, 153),  // teal
    RGBColor(153, 153, 51),  // olive
    RGBColor(51, 34, 136),   // indigo
    RGBColor(170, 68, 153),  // purple
    RGBColor(102, 17, 0),    // brown
];

/// The colour of run `i`.
pub fn run_colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A series' colour: its run's, or grey for a series of no single run (a frontier, a bound).
pub fn series_colour(s: &tpsview_core::chart_spec::Series) -> RGBColor {
    use tpsview_core::chart_spec::{SERVER_KV, SERVER_RUNNING, SERVER_WAITING};
    match (&s.run, s.name.as_str()) {
        (Some(r), _) => run_colour(r.index),
        // The server's own series under a timeline, apart from the requests' blue bars.
        (None, SERVER_RUNNING) => PALETTE[2],
        (None, SERVER_WAITING) => PALETTE[1],
        (None, SERVER_KV) => PALETTE[3],
        (None, _) => RGBColor(120, 120, 120),
    }
}

/// A panel title that fits `width` pixels: at 13 px (× `k`), else smaller down to 10 px, else cut
/// with an ellipsis (a phone's canvas is narrower than a long title). Widths are estimated at
/// 0.55 em per character, which holds for the sans-serif fonts browsers pick.
pub fn fit_caption(title: &str, width: u32, k: f64) -> (String, f64) {
    let room = f64::from(width) - 16.0 * k;
    let needs = |size: f64| title.chars().count() as f64 * 0.55 * size * k;
    for size in [13.0, 12.0, 11.0, 10.0] {
        if needs(size) <= room {
            return (title.to_owned(), size);
        }
    }
    let fit = (room / (0.55 * 10.0 * k)).floor().max(1.0) as usize;
    let mut cut: String = title.chars().take(fit.saturating_sub(1)).collect();
    cut.push('…');
    (cut, 10.0)
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draws a chart and returns where its panels landed. Hover marks are drawn apart, by
/// [`draw_hover`], on a transparent layer above, so a hover never redraws the chart.
pub fn draw_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    theme: Theme,
) -> Result<Layout, String> {
    let (bg, fg) = if theme.dark {
        (RGBColor(17, 24, 39), RGBColor(229, 231, 235))
    } else {
        (WHITE, RGBColor(17, 24, 39))
    };
    area.fill(&bg).map_err(err)?;
    let k = theme.scale.max(1.0);
    let px = |v: f64| (v * k).round() as u32;
    let font = |size: f64| ("sans-serif", size * k).into_font().color(&fg);
    let n = spec.panels.len().max(1);
    let panels = area.split_evenly((n, 1));
    let mut layout = Layout {
        panels: Vec::new(),
        x_scale: spec.x.scale,
    };
    let (x0, x1) = (
        spec.x.scale.to_axis(spec.x.range.0).unwrap_or(0.0),
        spec.x.scale.to_axis(spec.x.range.1).unwrap_or(1.0),
    );
    for (pi, (panel, sub)) in spec.panels.iter().zip(panels.iter()).enumerate() {
        let last = pi + 1 == n;
        // The y axis in its own space (log10 of the value on a log axis), like x.
        let y_scale = panel.y.scale;
        let to_ay = |y: f64| y_scale.to_axis(y);
        let (ya0, ya1) = (
            to_ay(panel.y.range.0).unwrap_or(0.0),
            to_ay(panel.y.range.1).unwrap_or(1.0),
        );
        let (title, title_size) = fit_caption(&panel.title, sub.dim_in_pixel().0, k);
        let mut chart = ChartBuilder::on(sub)
            .caption(&title, font(title_size))
            .margin(px(8.0))
            .x_label_area_size(px(if last { 38.0 } else { 22.0 }))
            .y_label_area_size(px(58.0))
            .build_cartesian_2d(x0..x1, ya0..ya1)
            .map_err(err)?;
        let scale = spec.x.scale;
        let (x_span, y_span) = (
            spec.x.range.1 - spec.x.range.0,
            panel.y.range.1 - panel.y.range.0,
        );
        let x_fmt = move |v: &f64| match scale {
            // Whole powers of two; below 1 (an axis padded under a level of 1) as 0.5, 0.25.
            Scale::Log2 if (v - v.round()).abs() < 1e-6 => {
                let p = v.round().exp2();
                if p >= 1.0 {
                    format!("{p}")
                } else {
                    format!("{p:.2}").trim_end_matches('0').to_owned()
                }
            }
            Scale::Log2 | Scale::Log10 => String::new(),
            Scale::Linear => format_tick(*v, x_span),
            // Places: whole numbers only.
            Scale::Ordinal if (v - v.round()).abs() < 1e-6 => format!("{:.0}", v.round()),
            Scale::Ordinal => String::new(),
        };
        // On a log y axis only whole decades are labelled (1, 10, 100, …).
        let y_fmt = move |v: &f64| match y_scale {
            Scale::Log10 if (v - v.round()).abs() < 1e-6 => {
                let d = 10f64.powf(v.round());
                format_tick(d, d)
            }
            Scale::Log10 | Scale::Log2 | Scale::Ordinal => String::new(),
            Scale::Linear => format_tick(*v, y_span),
        };
        let grid = if theme.dark {
            RGBColor(55, 65, 81)
        } else {
            RGBColor(229, 231, 235)
        };
        chart
            .configure_mesh()
            .max_light_lines(0)
            // Each label is measured through the DOM in the browser: keep them few.
            .x_labels(9)
            .y_labels(6)
            .bold_line_style(grid.stroke_width(1))
            .axis_style(fg.stroke_width(1))
            .label_style(font(11.0))
            .axis_desc_style(font(11.0))
            .x_desc(if last { spec.x.label.as_str() } else { "" })
            .y_desc(panel.y.label.as_str())
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .draw()
            .map_err(err)?;
        let to_ax = |x: f64| scale.to_axis(x);
        if let Some((a, b, label)) = &spec.shade {
            if let (Some(a), Some(b)) = (to_ax(*a), to_ax(*b)) {
                // A window of one level is drawn as a narrow band around it (1 % of the axis).
                let (a, b) = if (b - a).abs() < f64::EPSILON {
                    let half = (x1 - x0).abs() * 0.01;
                    (a - half, b + half)
                } else {
                    (a, b)
                };
                let c = shade_colour();
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(a, ya0), (b, ya1)],
                        c.filled(),
                    )))
                    .map_err(err)?
                    .label(label.clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 14, y + 5)], c.filled())
                    });
            }
        }
        if pi == 0 {
            draw_bars(&mut chart, spec, k)?;
        }
        for s in &panel.series {
            let colour = series_colour(s);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter_map(|&(x, y)| Some((to_ax(x)?, to_ay(y)?)))
                .collect();
            if s.band.len() > 1 {
                let mut poly: Vec<(f64, f64)> = s
                    .band
                    .iter()
                    .filter_map(|&(x, lo, _)| Some((to_ax(x)?, to_ay(lo)?)))
                    .collect();
                poly.extend(
                    s.band
                        .iter()
                        .rev()
                        .filter_map(|&(x, _, hi)| Some((to_ax(x)?, to_ay(hi)?))),
                );
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        poly,
                        colour.mix(0.15).filled(),
                    )))
                    .map_err(err)?;
            }
            let legend = series_legend(spec, s);
            match s.mark {
                Mark::Line | Mark::Dashed => {
                    let style = colour.stroke_width(px(2.0));
                    let drawn = if s.mark == Mark::Dashed {
                        chart
                            .draw_series(DashedLineSeries::new(
                                pts.clone(),
                                px(6.0),
                                px(4.0),
                                style,
                            ))
                            .map_err(err)?
                    } else {
                        chart
                            .draw_series(LineSeries::new(pts.clone(), style))
                            .map_err(err)?
                    };
                    drawn.label(legend).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                    });
                    if s.mark == Mark::Line {
                        chart
                            .draw_series(
                                pts.iter()
                                    .map(|&p| Circle::new(p, px(3.0), colour.filled())),
                            )
                            .map_err(err)?;
                    }
                }
                Mark::Points => {
                    chart
                        .draw_series(
                            pts.iter()
                                .map(|&p| Circle::new(p, px(4.0), colour.filled())),
                        )
                        .map_err(err)?
                        .label(legend)
                        .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
                }
            }
            if !s.labels.is_empty() {
                let f = font(11.0);
                chart
                    .draw_series(
                        pts.iter()
                            .zip(&s.labels)
                            .map(|(&p, l)| Text::new(format!("  {l}"), p, f.clone())),
                    )
                    .map_err(err)?;
            }
        }
        // The points that matter (a run's peak, its knee): a ring and a label above it (below it
        // where the spec says the label above would cover another).
        for m in spec.marks.iter().filter(|m| m.panel == pi) {
            let Some(s) = panel.series.get(m.series) else {
                continue;
            };
            let (Some(x), Some(y)) = (to_ax(m.x), to_ay(m.y)) else {
                continue;
            };
            let colour = series_colour(s);
            chart
                .draw_series(std::iter::once(Circle::new(
                    (x, y),
                    px(7.0),
                    colour.stroke_width(px(2.0)),
                )))
                .map_err(err)?;
            use plotters::style::text_anchor::{HPos, Pos, VPos};
            let gap = (10.0 * k).round() as i32;
            let (lift, anchor) = if m.below {
                (gap, VPos::Top)
            } else {
                (-gap, VPos::Bottom)
            };
            let label_style = font(11.0).pos(Pos::new(HPos::Center, anchor));
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((x, y)) + Text::new(m.text.clone(), (0, lift), label_style),
                ))
                .map_err(err)?;
        }
        let has_legend = panel.series.iter().any(|s| !s.points.is_empty()) || spec.shade.is_some();
        if has_legend && theme.legend {
            let pos = legend_corner(spec, panel);
            chart
                .configure_series_labels()
                .position(pos)
                .label_font(font(11.0))
                .border_style(fg.mix(0.4))
                .background_style(bg.mix(0.85))
                .draw()
                .map_err(err)?;
        }
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        layout.panels.push(PanelLayout {
            rect: (xr.start, xr.end, yr.start, yr.end),
            x_axis: (x0, x1),
            y: (ya0, ya1),
            y_scale,
        });
    }
    area.present().map_err(err)?;
    Ok(layout)
}

/// The corner of a panel where the legend box covers the fewest data: points, band ends and
/// timeline bar ends, in the panel's own 0–1 coordinates. Ties go to the upper left, then upper
/// right, lower left, lower right. (A fixed corner hid the only point of a one-level run.)
pub fn legend_corner(
    spec: &ChartSpec,
    panel: &tpsview_core::chart_spec::Panel,
) -> SeriesLabelPosition {
    let scale = spec.x.scale;
    let (Some(x0), Some(x1)) = (scale.to_axis(spec.x.range.0), scale.to_axis(spec.x.range.1))
    else {
        return SeriesLabelPosition::UpperLeft;
    };
    let (y0, y1) = panel.y.range;
    let norm = |x: f64, y: f64| Some(((scale.to_axis(x)? - x0) / (x1 - x0), (y - y0) / (y1 - y0)));
    let mut pts: Vec<(f64, f64)> = Vec::new();
    for s in &panel.series {
        pts.extend(s.points.iter().filter_map(|&(x, y)| norm(x, y)));
        pts.extend(
            s.band
                .iter()
                .flat_map(|&(x, lo, hi)| [norm(x, lo), norm(x, hi)])
                .flatten(),
        );
    }
    // A timeline's bars, at most ~2,000 of them evenly spread: enough to see where they lie.
    let step = spec.bars.len().div_ceil(2_000).max(1);
    for b in spec.bars.iter().step_by(step) {
        let row = b.row as f64 + 0.5;
        pts.extend([norm(b.start, row), norm(b.end, row)].into_iter().flatten());
    }
    let entries = panel.series.len()
        + usize::from(spec.shade.is_some())
        + if spec.bars.is_empty() { 0 } else { 2 };
    let (w, h) = (0.45, (0.1 + 0.07 * entries as f64).min(0.6));
    let corners = [
        (SeriesLabelPosition::UpperLeft, 0.0, 1.0 - h),
        (SeriesLabelPosition::UpperRight, 1.0 - w, 1.0 - h),
        (SeriesLabelPosition::LowerLeft, 0.0, 0.0),
        (SeriesLabelPosition::LowerRight, 1.0 - w, 0.0),
    ];
    let covered = |cx: f64, cy: f64| {
        pts.iter()
            .filter(|&&(x, y)| x >= cx && x <= cx + w && y >= cy && y <= cy + h)
            .count()
    };
    let mut best = (usize::MAX, 0);
    for (i, &(_, cx, cy)) in corners.iter().enumerate() {
        let n = covered(cx, cy);
        if n < best.0 {
            best = (n, i);
        }
    }
    let [a, b, c, d] = corners;
    [a.0, b.0, c.0, d.0]
        .into_iter()
        .nth(best.1)
        .unwrap_or(SeriesLabelPosition::UpperLeft)
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Timeline bars: wait + prefill in a light shade, decode in the full colour; failed requests as a
/// red tick at their send time.
fn draw_bars<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
    k: f64,
) -> Result<(), String> {
    if spec.bars.is_empty() {
        return Ok(());
    }
    let (wait, decode, failed) = (span_colours().0, span_colours().1, RGBColor(220, 38, 38));
    let gap = if spec.bars.len() < 200 { 0.15 } else { 0.0 };
    // More requests than pixel rows: requests sharing a row are drawn as the union of their spans.
    let (cols, rows) = chart.plotting_area().dim_in_pixel();
    let spans = spans::timeline_spans(&spec.bars, rows as usize, cols as usize, spec.x.range);
    chart
        .draw_series(spans.iter().map(|s| {
            let (y0, y1) = (s.row0 + gap, s.row1 - gap);
            let style = if s.decode { decode } else { wait };
            Rectangle::new([(s.x0, y0), (s.x1, y1)], style.filled())
        }))
        .map_err(err)?
        .label("waiting + prefill (TTFT)")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], wait.filled()));
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![],
            decode.stroke_width(1),
        )))
        .map_err(err)?
        .label("decode")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], decode.filled()));
    let w = (k * 2.0).round() as u32;
    chart
        .draw_series(spec.bars.iter().filter(|b| b.failed).map(|b| {
            PathElement::new(
                vec![(b.start, b.row as f64), (b.start, b.row as f64 + 1.0)],
                failed.stroke_width(w),
            )
        }))
        .map_err(err)?;
    Ok(())
}

/// Tick text with as many decimals as the axis's span needs, the same for every tick.
fn format_tick(v: f64, span: f64) -> String {
    let decimals = if span >= 50.0 {
        0
    } else if span >= 5.0 {
        1
    } else if span >= 0.5 {
        2
    } else {
        3
    };
    format!("{v:.decimals$}")
}

impl PanelLayout {
    /// The backend pixel of a point (x in axis space, y in data units).
    fn pixel(&self, ax: f64, y: f64) -> (i32, i32) {
        let (l, r, t, b) = (
            f64::from(self.rect.0),
            f64::from(self.rect.1),
            f64::from(self.rect.2),
            f64::from(self.rect.3),
        );
        let fx = (ax - self.x_axis.0) / (self.x_axis.1 - self.x_axis.0);
        let fy = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            (l + fx * (r - l)).round() as i32,
            (b - fy * (b - t)).round() as i32,
        )
    }
}

/// Draws the hover marks on a transparent layer the size of the chart: a crosshair at the hovered
/// x with a ring around each listed point, the hovered point of the scatter chart, or the hovered
/// request's row of the timeline. Cheap: no axes, no text.
pub fn draw_hover<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    layout: &Layout,
    hover: Option<&Hover>,
    theme: Theme,
) -> Result<(), String> {
    area.fill(&TRANSPARENT).map_err(err)?;
    let Some(h) = hover else {
        return area.present().map_err(err);
    };
    let k = theme.scale.max(1.0);
    let fg = if theme.dark {
        RGBColor(229, 231, 235)
    } else {
        RGBColor(17, 24, 39)
    };
    let ring = |c: RGBColor| c.stroke_width((2.0 * k).round() as u32);
    for (pi, pl) in layout.panels.iter().enumerate() {
        let (l, r, t, b) = pl.rect;
        if spec.id != ChartKind::Timeline && spec.id != ChartKind::Interactivity {
            if let Some(hx) = layout.x_scale.to_axis(h.x) {
                let (x, _) = pl.pixel(hx, pl.y.0);
                area.draw(&PathElement::new(
                    vec![(x, t), (x, b)],
                    fg.mix(0.5).stroke_width(k.round() as u32),
                ))
                .map_err(err)?;
            }
        }
        for at in &h.at {
            match *at {
                HoverAt::Bar(i) if pi == 0 => {
                    let Some(bar) = spec.bars.get(i) else {
                        continue;
                    };
                    let (_, y0) = pl.pixel(pl.x_axis.0, bar.row as f64);
                    let (_, y1) = pl.pixel(pl.x_axis.0, bar.row as f64 + 1.0);
                    area.draw(&Rectangle::new(
                        [(l, y1.min(y0 - 2)), (r, y0)],
                        fg.mix(0.35).filled(),
                    ))
                    .map_err(err)?;
                }
                HoverAt::Point {
                    panel,
                    series,
                    point,
                } if panel == pi => {
                    let Some(s) = spec.panels.get(panel).and_then(|p| p.series.get(series)) else {
                        continue;
                    };
                    let Some(&(x, y)) = s.points.get(point) else {
                        continue;
                    };
                    if let (Some(ax), Some(ay)) = (layout.x_scale.to_axis(x), pl.y_scale.to_axis(y))
                    {
                        area.draw(&Circle::new(
                            pl.pixel(ax, ay),
                            (7.0 * k).round() as i32,
                            ring(series_colour(s)),
                        ))
                        .map_err(err)?;
                    }
                }
                _ => {}
            }
        }
    }
    area.present().map_err(err)
}

/// Renders a chart as an SVG document.
pub fn chart_svg(spec: &ChartSpec, size: (u32, u32)) -> Result<String, String> {
    chart_svg_with_footer(spec, size, None)
}

/// Renders a chart as an SVG document as the viewer's canvas draws it (`theme`: its colours, and
/// whether the legend is drawn in — the viewer's is HTML, under the chart).
pub fn chart_svg_themed(
    spec: &ChartSpec,
    size: (u32, u32),
    theme: Theme,
) -> Result<String, String> {
    svg_of(size, |area| draw_chart(area, spec, theme))
}

/// Renders a chart as an SVG document with, under it, a one-line provenance footer.
pub fn chart_svg_with_footer(
    spec: &ChartSpec,
    size: (u32, u32),
    footer: Option<&str>,
) -> Result<String, String> {
    svg_of(size, |area| {
        draw_export(area, spec, Theme::default(), footer)
    })
}

/// An SVG document of `size` drawn by `draw`.
fn svg_of(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<Layout, String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area)?;
    }
    Ok(svg)
}

/// An exported image: the chart with its legend drawn in, and, when given, a one-line provenance
/// footer (runs, models, files, date, tpsview) under it.
pub fn draw_export<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    theme: Theme,
    footer: Option<&str>,
) -> Result<Layout, String> {
    let theme = Theme {
        legend: true,
        ..theme
    };
    let Some(text) = footer else {
        return draw_chart(area, spec, theme);
    };
    let k = theme.scale.max(1.0);
    let (_, h) = area.dim_in_pixel();
    let foot = (22.0 * k).round() as u32;
    let (top, bottom) = area.split_vertically(h.saturating_sub(foot));
    let layout = draw_chart(&top, spec, theme)?;
    let (bg, fg) = if theme.dark {
        (RGBColor(17, 24, 39), RGBColor(156, 163, 175))
    } else {
        (WHITE, RGBColor(75, 85, 99))
    };
    bottom.fill(&bg).map_err(err)?;
    let style = ("sans-serif", 11.0 * k).into_font().color(&fg);
    bottom
        .draw(&Text::new(
            text.to_owned(),
            ((8.0 * k) as i32, (5.0 * k) as i32),
            style,
        ))
        .map_err(err)?;
    bottom.present().map_err(err)?;
    Ok(layout)
}

#[cfg(test)]
mod tests;
