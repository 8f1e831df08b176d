//! The chart outside the browser (HTML rendered natively: the prerendered first view, `tpsview
//! report`): the props of the canvas [`Chart`](crate::chart), the same `draw_chart` on plotters'
//! SVG backend, and the same legend in HTML below it. Marked `data-drawn="true"` and
//! `data-static="true"`; the SVG scales to the box the canvas fills.

use leptos::prelude::*;
use tpsview_core::chart_spec::ChartSpec;

/// The drawing's width in SVG units: the canvas chart's box on a desktop screen (the page's
/// 1,200 px less its padding and the box's border), so that there the drawing fills the box as the
/// canvas does; in another box it scales to fit, centred.
pub const WIDTH: u32 = 1168;

/// The drawing's size for a chart: [`WIDTH`] by the canvas box's height for that chart
/// (public/styles/app.css, `.chart-canvas*`).
pub fn size(id: &str) -> (u32, u32) {
    let height = match id {
        "interactivity" => 380,
        "timeline" => 420,
        _ => 460,
    };
    (WIDTH, height)
}

/// The drawing's size on a phone (≤ 640 px wide): the canvas box there, 372 × 520 (a 390 px screen
/// less the page's padding and the border; every chart is 520 px high there). The stylesheet
/// shows this drawing instead of the desktop one on narrow screens, so that its text stays
/// readable instead of shrinking to a third.
pub const NARROW: (u32, u32) = (372, 520);

/// Draws `spec` as SVG; a drawing error goes to `on_error` and leaves the frame empty.
#[component]
pub fn Chart(
    /// What to draw.
    spec: Signal<ChartSpec>,
    /// Accessible description of the chart.
    #[prop(into)]
    label: String,
    /// Called with a message when drawing fails.
    #[prop(into)]
    on_error: Callback<String>,
    /// Unused outside the browser (no pointer, no tooltip); kept so that both bodies take the
    /// same props.
    #[prop(optional, into)]
    pinned: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let _ = pinned;
    let s = spec.get_untracked();
    // Light and dark, as the canvas draws them; the stylesheet shows the one the reader's colour
    // scheme asks for.
    let draw = |dark: bool, at: (u32, u32)| {
        let theme = tpsview_plot::Theme {
            scale: 1.0,
            dark,
            legend: false,
        };
        tpsview_plot::chart_svg_themed(&s, at, theme).unwrap_or_else(|e| {
            on_error.run(format!("the {} chart could not be drawn: {e}", s.id));
            String::new()
        })
    };
    let wide = size(s.id.id());
    let (light, dark) = (draw(false, wide), draw(true, wide));
    let (light_narrow, dark_narrow) = (draw(false, NARROW), draw(true, NARROW));
    let id = s.id.id();
    // Each entry with its light and its dark colour: the stylesheet takes the one of the
    // reader's colour scheme, as it does for the drawing.
    let entries: Vec<_> = tpsview_plot::legend_entries(&s, false)
        .into_iter()
        .zip(tpsview_plot::legend_entries(&s, true))
        .collect();
    let count = entries.len();
    let rgb = |c: plotters::style::RGBColor| format!("rgb({}, {}, {})", c.0, c.1, c.2);
    let legend = view! {
        <ul class="chart-legend chart-legend-static" data-testid=format!("chart-{id}-legend")>
            {entries.into_iter().map(|(light, dark)| {
                let kind = crate::chart::mark_kind(light.mark);
                view! {
                    <li class="chart-legend-entry">
                        <span class=format!("chart-legend-mark chart-legend-{kind}")
                            style=format!("--legend-light: {}; --legend-dark: {}", rgb(light.colour), rgb(dark.colour))
                            aria-hidden="true"></span>
                        {light.label}
                    </li>
                }
            }).collect_view()}
        </ul>
    };
    view! {
        <figure class="chart">
            <div class="chart-frame">
                <div class=format!("chart-canvas chart-static chart-canvas-{id}")
                    data-testid=format!("chart-{id}") data-drawn="true" data-static="true"
                    data-y=crate::chart::data_y(&s) data-shade=crate::chart::data_shade(&s)
                    data-marks=crate::chart::data_marks(&s) data-bands=crate::chart::data_bands(&s) role="img" aria-label=label>
                    <div class="chart-static-light chart-static-wide" inner_html=light></div>
                    <div class="chart-static-dark chart-static-wide" inner_html=dark></div>
                    <div class="chart-static-light chart-static-narrow" inner_html=light_narrow></div>
                    <div class="chart-static-dark chart-static-narrow" inner_html=dark_narrow></div>
                </div>
            </div>
            // Past a dozen series the legend folds, as in the browser (a `<details>` opens
            // without script).
            {if count > crate::many::FEW {
                view! {
                    <details class="many" data-testid="chart-legend-many">
                        <summary>{format!("{count} series")}</summary>
                        {legend}
                    </details>
                }.into_any()
            } else {
                legend.into_any()
            }}
        </figure>
    }
}
