//! Drawing a chart, its hover marks and its export on the one [`Backend`]: what to draw comes
//! from the spec; where the panels landed is returned for the pointer.

use plotters::coord::Shift;
use plotters::prelude::*;
use tpsview_core::chart_spec::{ChartSpec, Hover, HoverAt, Mark, Scale};
use tpsview_core::vocabulary::ChartKind;

use crate::legend::{legend_corner, series_colour, series_legend, shade_colour, span_colours};
use crate::{fit_caption, Backend, Layout, PanelLayout, PlotError, Theme};

/// Draws a chart and returns where its panels landed. Hover marks are drawn apart, by
/// [`draw_hover`], on a transparent layer above, so a hover never redraws the chart.
pub fn draw_chart(
    area: &DrawingArea<Backend<'_>, Shift>,
    spec: &ChartSpec,
    theme: Theme,
) -> Result<Layout, PlotError> {
    let (bg, fg) = if theme.dark {
        (RGBColor(17, 24, 39), RGBColor(229, 231, 235))
    } else {
        (WHITE, RGBColor(17, 24, 39))
    };
    area.fill(&bg)?;
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
            .build_cartesian_2d(x0..x1, ya0..ya1)?;
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
            .draw()?;
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
                    )))?
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
                chart.draw_series(std::iter::once(Polygon::new(
                    poly,
                    colour.mix(0.15).filled(),
                )))?;
            }
            let legend = series_legend(spec, s);
            match s.mark {
                Mark::Line | Mark::Dashed => {
                    let style = colour.stroke_width(px(2.0));
                    let drawn = if s.mark == Mark::Dashed {
                        chart.draw_series(DashedLineSeries::new(
                            pts.clone(),
                            px(6.0),
                            px(4.0),
                            style,
                        ))?
                    } else {
                        chart.draw_series(LineSeries::new(pts.clone(), style))?
                    };
                    drawn.label(legend).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                    });
                    if s.mark == Mark::Line {
                        chart.draw_series(
                            pts.iter()
                                .map(|&p| Circle::new(p, px(3.0), colour.filled())),
                        )?;
                    }
                }
                Mark::Points => {
                    chart
                        .draw_series(
                            pts.iter()
                                .map(|&p| Circle::new(p, px(4.0), colour.filled())),
                        )?
                        .label(legend)
                        .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
                }
            }
            if !s.labels.is_empty() {
                let f = font(11.0);
                chart.draw_series(
                    pts.iter()
                        .zip(&s.labels)
                        .map(|(&p, l)| Text::new(format!("  {l}"), p, f.clone())),
                )?;
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
            chart.draw_series(std::iter::once(Circle::new(
                (x, y),
                px(7.0),
                colour.stroke_width(px(2.0)),
            )))?;
            use plotters::style::text_anchor::{HPos, Pos, VPos};
            let gap = (10.0 * k).round() as i32;
            let (lift, anchor) = if m.below {
                (gap, VPos::Top)
            } else {
                (-gap, VPos::Bottom)
            };
            let label_style = font(11.0).pos(Pos::new(HPos::Center, anchor));
            chart.draw_series(std::iter::once(
                EmptyElement::at((x, y)) + Text::new(m.text.clone(), (0, lift), label_style),
            ))?;
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
                .draw()?;
        }
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        layout.panels.push(PanelLayout {
            rect: (xr.start, xr.end, yr.start, yr.end),
            x_axis: (x0, x1),
            y: (ya0, ya1),
            y_scale,
        });
    }
    area.present()?;
    Ok(layout)
}

type Chart<'a, 'b> = ChartContext<
    'a,
    Backend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Timeline bars: wait + prefill in a light shade, decode in the full colour; failed requests as a
/// red tick at their send time.
fn draw_bars(chart: &mut Chart<'_, '_>, spec: &ChartSpec, k: f64) -> Result<(), PlotError> {
    if spec.bars.is_empty() {
        return Ok(());
    }
    let (wait, decode, failed) = (span_colours().0, span_colours().1, RGBColor(220, 38, 38));
    let gap = if spec.bars.len() < 200 { 0.15 } else { 0.0 };
    // More requests than pixel rows: requests sharing a row are drawn as the union of their spans.
    let (cols, rows) = chart.plotting_area().dim_in_pixel();
    let spans =
        crate::spans::timeline_spans(&spec.bars, rows as usize, cols as usize, spec.x.range);
    chart
        .draw_series(spans.iter().map(|s| {
            let (y0, y1) = (s.row0 + gap, s.row1 - gap);
            let style = if s.decode { decode } else { wait };
            Rectangle::new([(s.x0, y0), (s.x1, y1)], style.filled())
        }))?
        .label("waiting + prefill (TTFT)")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], wait.filled()));
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![],
            decode.stroke_width(1),
        )))?
        .label("decode")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], decode.filled()));
    let w = (k * 2.0).round() as u32;
    chart.draw_series(spec.bars.iter().filter(|b| b.failed).map(|b| {
        PathElement::new(
            vec![(b.start, b.row as f64), (b.start, b.row as f64 + 1.0)],
            failed.stroke_width(w),
        )
    }))?;
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
    pub(crate) fn pixel(&self, ax: f64, y: f64) -> (i32, i32) {
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
pub fn draw_hover(
    area: &DrawingArea<Backend<'_>, Shift>,
    spec: &ChartSpec,
    layout: &Layout,
    hover: Option<&Hover>,
    theme: Theme,
) -> Result<(), PlotError> {
    area.fill(&TRANSPARENT)?;
    let Some(h) = hover else {
        return Ok(area.present()?);
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
                ))?;
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
                    ))?;
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
                        ))?;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(area.present()?)
}

/// An exported image: the chart with its legend drawn in, and, when given, a one-line provenance
/// footer (runs, models, files, date, tpsview) under it.
pub fn draw_export(
    area: &DrawingArea<Backend<'_>, Shift>,
    spec: &ChartSpec,
    theme: Theme,
    footer: Option<&str>,
) -> Result<Layout, PlotError> {
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
    bottom.fill(&bg)?;
    let style = ("sans-serif", 11.0 * k).into_font().color(&fg);
    bottom.draw(&Text::new(
        text.to_owned(),
        ((8.0 * k) as i32, (5.0 * k) as i32),
        style,
    ))?;
    bottom.present()?;
    Ok(layout)
}
