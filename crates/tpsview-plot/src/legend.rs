//! A chart's legend and colours: the entries (the page draws them in HTML, exports in the image),
//! the run palette, and the corner of a panel where an in-plot legend covers the fewest data.

use plotters::prelude::*;
use tpsview_core::chart_spec::{ChartSpec, Mark};
use tpsview_core::vocabulary::ChartKind;

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
pub(crate) fn span_colours() -> (RGBAColor, RGBAColor) {
    (run_colour(0).mix(0.3), run_colour(0).mix(0.9))
}

/// The shaded window's colour.
pub(crate) fn shade_colour() -> RGBAColor {
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
pub(crate) fn series_legend(spec: &ChartSpec, s: &tpsview_core::chart_spec::Series) -> String {
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
