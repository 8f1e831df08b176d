//! tpsview's charts, drawn with plotters on any `DrawingBackend`: a canvas in the web app, an SVG
//! string in the CLI and in tests. Chart contents come from the core; this crate only draws.
#![warn(missing_docs)]

use plotters::coord::Shift;
use plotters::prelude::*;
use tpsview_core::summary::Summary;

/// One series of (concurrency, value) points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Points, ascending in x.
    pub points: Vec<(f64, f64)>,
}

/// The two series of the "50 or 4,000?" chart for every run: system and per-stream T/s against
/// concurrency. Points without a concurrency or a value are left out.
pub fn throughput_series(summary: &Summary) -> (Vec<Series>, Vec<Series>) {
    let pick = |f: fn(&tpsview_core::metrics::PointMetrics) -> Option<f64>, what: &str| {
        summary
            .runs
            .iter()
            .map(|r| Series {
                label: format!("{} — {what}", r.label),
                points: r
                    .points
                    .iter()
                    .filter_map(|p| Some((p.metrics.concurrency?, f(&p.metrics)?)))
                    .collect(),
            })
            .collect::<Vec<_>>()
    };
    (
        pick(|m| m.system_tps, "system T/s"),
        pick(|m| m.per_stream_tps, "per-stream T/s"),
    )
}

/// Draws system T/s (top panel) and per-stream T/s (bottom panel) against concurrency on a log2
/// axis, one line per run.
pub fn draw_throughput<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> Result<(), String> {
    let (system, stream) = throughput_series(summary);
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = area.split_evenly((2, 1));
    // System T/s rises to the right and per-stream T/s falls: legends go where the lines are not.
    draw_panel(
        &panels[0],
        &system,
        "system T/s (all streams together)",
        SeriesLabelPosition::UpperLeft,
    )?;
    draw_panel(
        &panels[1],
        &stream,
        "per-stream T/s (one request's decode rate)",
        SeriesLabelPosition::LowerLeft,
    )?;
    area.present().map_err(|e| e.to_string())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    title: &str,
    legend: SeriesLabelPosition,
) -> Result<(), String> {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (xmin, xmax) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let ymax = ys.fold(0.0f64, f64::max);
    if !xmin.is_finite() || xmin <= 0.0 {
        return Ok(());
    }
    let xr = (xmin.log2().floor() - 0.2)..(xmax.log2().ceil() + 0.2);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(xr, 0.0..(ymax * 1.1).max(1.0))
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("concurrency (log2)")
        .x_label_formatter(&|v| format!("{}", 2f64.powf(*v).round()))
        .y_label_formatter(&|v| {
            if ymax >= 100.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.1}")
            }
        })
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, s) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (x.log2(), y)).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .position(legend)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Renders the throughput chart as an SVG document.
pub fn throughput_svg(summary: &Summary, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_throughput(&area, summary)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests;
