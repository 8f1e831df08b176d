//! tpsview's charts, drawn with plotters on one [`Backend`]: a canvas in the web app, an SVG
//! string in the CLI, the tests and the page's downloads. What to draw comes from
//! `tpsview_core::chart_spec`; this crate only draws it (`draw`), with its legend and colours
//! (`legend`), and returns where it drew so that a pointer position maps back to data.
#![warn(missing_docs)]

use plotters::coord::Shift;
use plotters::prelude::*;
use tpsview_core::chart_spec::{ChartSpec, Scale};

mod backend;
mod draw;
mod error;
mod legend;
pub mod spans;

pub use backend::{Backend, BackendError};
pub use draw::{draw_chart, draw_export, draw_hover};
pub use error::PlotError;
pub use legend::{
    legend_corner, legend_entries, run_colour, series_colour, LegendEntry, LegendMark, PALETTE,
};

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

/// Renders a chart as an SVG document.
pub fn chart_svg(spec: &ChartSpec, size: (u32, u32)) -> Result<String, PlotError> {
    chart_svg_with_footer(spec, size, None)
}

/// Renders a chart as an SVG document as the viewer's canvas draws it (`theme`: its colours, and
/// whether the legend is drawn in — the viewer's is HTML, under the chart).
pub fn chart_svg_themed(
    spec: &ChartSpec,
    size: (u32, u32),
    theme: Theme,
) -> Result<String, PlotError> {
    svg_of(size, |area| draw_chart(area, spec, theme))
}

/// Renders a chart as an SVG document with, under it, a one-line provenance footer.
pub fn chart_svg_with_footer(
    spec: &ChartSpec,
    size: (u32, u32),
    footer: Option<&str>,
) -> Result<String, PlotError> {
    svg_of(size, |area| {
        draw_export(area, spec, Theme::default(), footer)
    })
}

/// An SVG document of `size` drawn by `draw`.
fn svg_of(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Backend<'_>, Shift>) -> Result<Layout, PlotError>,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let area = Backend::Svg(SVGBackend::with_string(&mut svg, size)).into_drawing_area();
        draw(&area)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests;
