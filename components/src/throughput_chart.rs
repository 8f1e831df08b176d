//! The chart that answers "50 or 4,000?": system and per-stream T/s against concurrency, drawn by
//! tpsview-plot on a canvas whose backing store matches CSS size × devicePixelRatio.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use tpsview_core::summary::Summary;

/// Draws the summary's throughput chart; drawing errors go to `on_error`.
#[component]
pub fn ThroughputChart(
    /// The summary to draw.
    summary: Signal<Summary>,
    /// Called with a message when drawing fails.
    #[prop(into)]
    on_error: Callback<String>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let ratio = web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0);
        let (w, h) = (
            el.client_width().max(320) as f64,
            el.client_height().max(360) as f64,
        );
        el.set_width((w * ratio) as u32);
        el.set_height((h * ratio) as u32);
        let Some(backend) = CanvasBackend::with_canvas_object(el.clone()) else {
            on_error.run("this browser gave no 2D canvas".to_owned());
            return;
        };
        let area = backend.into_drawing_area();
        let result = summary.with(|s| tpsview_plot::draw_throughput(&area, s));
        if let Err(e) = result {
            on_error.run(format!("the chart could not be drawn: {e}"));
        }
        el.set_attribute("data-drawn", "true").ok();
    });
    view! {
        <figure class="throughput-chart">
            <canvas node_ref=canvas data-testid="chart-throughput" class="throughput-chart-canvas"
                role="img" aria-label="system and per-stream tokens per second against concurrency"></canvas>
            <figcaption>"Top: all output tokens of all in-flight requests per second. Bottom: one request's decode rate, 1 / TPOT."</figcaption>
        </figure>
    }
}
