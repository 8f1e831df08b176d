//! A chart on a canvas: draws a [`ChartSpec`] with tpsview-plot, sized to CSS size ×
//! devicePixelRatio, with a hover crosshair and a tooltip of exact values (pointer or arrow keys).

#[cfg(target_arch = "wasm32")]
use leptos::html::Canvas;
#[cfg(target_arch = "wasm32")]
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
#[cfg(target_arch = "wasm32")]
use plotters_canvas::CanvasBackend;
use tpsview_core::chart_spec::ChartSpec;
#[cfg(target_arch = "wasm32")]
use tpsview_core::chart_spec::Hover;
use tpsview_plot::Backend;
use tpsview_plot::Theme;
#[cfg(target_arch = "wasm32")]
use tpsview_plot::{draw_chart, draw_hover, Layout};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

#[cfg(target_arch = "wasm32")]
use crate::format::fmt_num;

/// Draws `spec`; drawing errors go to `on_error`. The canvas carries `data-testid="chart-<id>"`,
/// `data-drawn` once drawn, `data-draws` (how many times it has been drawn: a test waits for it to
/// grow after a change), `aria-busy="true"` while a redraw is pending, and `data-draw-ms` (the
/// last draw's duration, for the budget script); the hover layer above it carries `data-hover-ms`.
///
/// A tooltip opened with the arrow keys survives a redraw (a toggle, a new stat): it is taken
/// again at the same level of the new spec, so keys pressed right after a change still answer.
///
/// Natively (HTML rendered outside the browser) the same props give `chart_static::Chart`: the
/// same drawing as SVG.
#[cfg(target_arch = "wasm32")]
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
    /// A level to highlight (crosshair and tooltip) while the pointer is elsewhere.
    #[prop(optional, into)]
    pinned: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (hover, set_hover) = signal(None::<Hover>);
    let (pointer, set_pointer) = signal((0.0f64, 0.0f64));
    // Bumped after each draw: the hover layer redraws against the new layout.
    let (draws, set_draws) = signal(0u64);
    let layout = StoredValue::new(None::<(Layout, f64)>);
    // The colour scheme, followed after load: a switch redraws the chart in the new one.
    let scheme = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    let (dark, set_dark) = signal(scheme.as_ref().is_some_and(|m| m.matches()));
    let scheme_listener =
        StoredValue::new_local(None::<(web_sys::MediaQueryList, Closure<dyn FnMut()>)>);
    if let Some(m) = scheme {
        let query = m.clone();
        let on_change = Closure::<dyn FnMut()>::new(move || {
            set_dark.try_set(query.matches());
        });
        if m.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
            .is_ok()
        {
            scheme_listener.set_value(Some((m, on_change)));
        }
    }
    on_cleanup(move || {
        scheme_listener.try_update_value(|l| {
            if let Some((m, f)) = l.take() {
                let _ = m.remove_event_listener_with_callback("change", f.as_ref().unchecked_ref());
            }
        });
    });

    // Past a dozen entries (many runs), the legend collapses behind a filter (`many`).
    let legend_filter = RwSignal::new(String::new());
    let legend_count =
        Signal::derive(move || spec.with(|s| tpsview_plot::legend_entries(s, dark.get()).len()));

    let overlay = NodeRef::<Canvas>::new();
    let now = || {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    };
    let ratio = || {
        web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0)
    };

    // The chart: redrawn when its spec changes, never on hover, in a task of its own (a timer),
    // so that the charts redrawn after one change never add up to one long task on the page's
    // thread. Only the latest request draws.
    let redraws = crate::Latest::new();
    // Whether the mouse is over the chart: a redraw then re-reads the hover at the pointer.
    let mouse_in = StoredValue::new(false);
    let hover_at = move |x: f64, y: f64| {
        let found = layout.with_value(|l| {
            l.as_ref()
                .and_then(|(l, ratio)| l.data_at(x * ratio, y * ratio))
        });
        let next =
            found.and_then(|(panel, dx, dy)| spec.with_untracked(|s| s.hover(dx, Some(dy), panel)));
        if next != hover.get_untracked() {
            set_hover.set(next);
        }
    };
    let draw = move || {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        if spec.try_with_untracked(|_| ()).is_none() {
            return; // unmounted before the timer fired
        }
        let t0 = now();
        let k = ratio();
        let (w, hgt) = (
            f64::from(el.client_width().max(300)),
            f64::from(el.client_height().max(240)),
        );
        let (bw, bh) = ((w * k) as u32, (hgt * k) as u32);
        for c in [Some(el.clone()), overlay.get_untracked()]
            .into_iter()
            .flatten()
        {
            if c.width() != bw || c.height() != bh {
                c.set_width(bw);
                c.set_height(bh);
            }
        }
        let Some(backend) = CanvasBackend::with_canvas_object(el.clone()) else {
            on_error.run("this browser gave no 2D canvas".to_owned());
            return;
        };
        let area = Backend::Canvas(backend).into_drawing_area();
        // Drawn from the spec in place: a timeline's spec holds every request's bar.
        match spec.with_untracked(|s| {
            draw_chart(
                &area,
                s,
                Theme {
                    scale: k,
                    dark: dark.get_untracked(),
                    legend: false,
                },
            )
            .map_err(|e| format!("the {} chart could not be drawn: {e}", s.id))
        }) {
            Ok(l) => layout.set_value(Some((l, k))),
            Err(e) => on_error.run(e),
        }
        if mouse_in.get_value() {
            let (x, y) = pointer.get_untracked();
            hover_at(x, y);
        } else if let Some(h) = hover.get_untracked() {
            // Opened with the keys: the same level in the new spec, if it is still there.
            set_hover.set(spec.with_untracked(|s| s.pin(h.x)));
        }
        let n = draws.get_untracked() + 1;
        set_draws.set(n);
        let _ = el.set_attribute("data-drawn", "true");
        let _ = el.set_attribute("data-draws", &n.to_string());
        let scheme = if dark.get_untracked() {
            "dark"
        } else {
            "light"
        };
        let _ = el.set_attribute("data-scheme", scheme);
        let _ = el.remove_attribute("aria-busy");
        let _ = el.set_attribute("data-draw-ms", &format!("{:.3}", now() - t0));
        // The budget script reads this mark: navigation → first chart drawn.
        if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
            if perf.get_entries_by_name("tpsview-first-chart").length() == 0 {
                let _ = perf.mark("tpsview-first-chart");
            }
        }
    };
    // The canvas' CSS size: a chart drawn while hidden (no runs yet) or before a window resize is
    // drawn again at its new size.
    let (size, set_size) = signal((0i32, 0i32));
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut()>)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let target = el.clone();
        let on_resize = Closure::<dyn FnMut()>::new(move || {
            let now = (target.client_width(), target.client_height());
            if size.get_untracked() != now {
                set_size.set(now);
            }
        });
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            o.observe(&el);
            observer.set_value(Some((o, on_resize)));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| {
            if let Some((o, _)) = o.take() {
                o.disconnect();
            }
        });
    });
    Effect::new(move |_| {
        spec.track();
        size.track();
        dark.track();
        let Some(el) = canvas.get() else {
            return;
        };
        let _ = el.set_attribute("aria-busy", "true");
        redraws.run_later(draw);
    });

    // The hover layer: a crosshair and rings on a transparent canvas above the chart.
    // What the hover layer and tooltip show: the pointer's level, else the pinned one.
    let shown = Memo::new(move |_| {
        hover.get().or_else(|| {
            let x = pinned.and_then(|p| p.get())?;
            spec.with(|s| s.pin_level(x))
        })
    });

    Effect::new(move |_| {
        let h = shown.get();
        draws.track();
        let Some(el) = overlay.get() else { return };
        let t0 = now();
        let Some(backend) = CanvasBackend::with_canvas_object(el.clone()) else {
            return;
        };
        let area = Backend::Canvas(backend).into_drawing_area();
        let drawn = layout.with_value(|l| {
            l.as_ref().map(|(l, k)| {
                spec.with_untracked(|s| {
                    draw_hover(
                        &area,
                        s,
                        l,
                        h.as_ref(),
                        Theme {
                            scale: *k,
                            dark: dark.get_untracked(),
                            legend: false,
                        },
                    )
                })
            })
        });
        if let Some(Err(e)) = drawn {
            on_error.run(format!("the hover marks could not be drawn: {e}"));
        }
        let _ = el.set_attribute("data-hover-ms", &format!("{:.3}", now() - t0));
    });

    let on_move = move |ev: leptos::ev::MouseEvent| {
        mouse_in.set_value(true);
        let (x, y) = (f64::from(ev.offset_x()), f64::from(ev.offset_y()));
        set_pointer.set((x, y));
        hover_at(x, y);
    };
    // Arrow keys step through the x positions (concurrency levels), for keyboard users.
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let step: i32 = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            "Escape" => {
                set_hover.set(None);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let from = shown.get_untracked().map(|h| h.x);
        set_hover.set(spec.with_untracked(|s| s.step_hover(from, step)));
        set_pointer.set((16.0, 16.0));
    };
    let id = move || spec.with(|s| s.id.id());

    view! {
        <figure class="chart">
            <div class="chart-frame">
                <canvas node_ref=canvas class=move || format!("chart-canvas chart-canvas-{}", id())
                    data-testid=move || format!("chart-{}", id())
                    // What the canvas shows that tests and tools can read: the x axis, the y axes, the shaded
                    // window's caption, the marks.
                    data-x=move || spec.with(|s| s.x.label.clone()) data-y=move || spec.with(data_y) data-shade=move || spec.with(data_shade)
                    data-marks=move || spec.with(data_marks) data-bands=move || spec.with(data_bands)
                    tabindex="0" role="img" aria-label=label
                    on:mousemove=on_move on:mouseleave=move |_| { mouse_in.set_value(false); set_hover.set(None) } on:keydown=on_key></canvas>
                <canvas node_ref=overlay class="chart-overlay" aria-hidden="true" data-testid=move || format!("chart-{}-hover", id())></canvas>
                {move || shown.get().filter(|_| hover.with(Option::is_some)).map(|h| {
                    let (x, y) = pointer.get();
                    // On the right half the tooltip opens to the left, so it never spills out.
                    let width = canvas.get_untracked().map_or(0.0, |c| f64::from(c.client_width()));
                    let flip = x > width * 0.55;
                    view! {
                        <div class="chart-tooltip" data-testid="chart-tooltip" role="status" aria-live="polite"
                            class:chart-tooltip-left=flip
                            style:left=format!("{}px", if flip { x - 14.0 } else { x + 14.0 }) style:top=format!("{}px", y + 14.0)>
                            {tooltip_body(&h)}
                        </div>
                    }
                })}
            </div>
            // A level pinned by the page (not under the pointer or the keys) is shown under the
            // chart, outside the frame the overlay canvas fills: it covers neither title nor data.
            {move || shown.get().filter(|_| hover.with(Option::is_none)).map(|h| view! {
                <div class="chart-tooltip chart-tooltip-pinned" data-testid="chart-tooltip" role="status" aria-live="polite">
                    {tooltip_body(&h)}
                </div>
            })}
            // The legend, in HTML below the plot: it never covers data (exports draw it inside).
            {crate::many::collapsible(legend_count, "series", "chart-legend-many", legend_filter, move || view! {
            <ul class="chart-legend" data-testid=move || format!("chart-{}-legend", id())>
                {move || spec.with(|s| tpsview_plot::legend_entries(s, dark.get())).into_iter().filter(|e| crate::many::kept(&e.label, &legend_filter.get())).map(legend_item).collect_view()}
            </ul>
            })}
        </figure>
    }
}

/// What the chart shows that tests and tools can read, on the canvas and the static chart alike:
/// the y axes, the shaded window's caption, the marks.
pub(crate) fn data_y(s: &ChartSpec) -> String {
    s.panels
        .iter()
        .map(|p| p.y.label.clone())
        .collect::<Vec<_>>()
        .join(" | ")
}

pub(crate) fn data_shade(s: &ChartSpec) -> String {
    s.shade
        .as_ref()
        .map(|(a, b, c)| format!("{a} {b} {c}"))
        .unwrap_or_default()
}

/// Each panel's bands (` | ` between panels, `;` between series): `x:low:high` a point.
pub(crate) fn data_bands(s: &ChartSpec) -> String {
    s.panels
        .iter()
        .map(|p| {
            p.series
                .iter()
                .map(|x| {
                    x.band
                        .iter()
                        .map(|(x, lo, hi)| format!("{x}:{lo}:{hi}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join(";")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

pub(crate) fn data_marks(s: &ChartSpec) -> String {
    s.marks
        .iter()
        .map(|m| format!("{}@{}", m.text, m.x))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// One entry of a chart's legend (in HTML below the plot).
#[cfg(target_arch = "wasm32")]
pub(crate) fn legend_item(e: tpsview_plot::LegendEntry) -> impl IntoView {
    let c = format!("rgb({}, {}, {})", e.colour.0, e.colour.1, e.colour.2);
    let kind = mark_kind(e.mark);
    view! {
        <li class="chart-legend-entry">
            <span class=format!("chart-legend-mark chart-legend-{kind}") style:color=c aria-hidden="true"></span>
            {e.label}
        </li>
    }
}

/// A legend mark's class suffix.
pub(crate) fn mark_kind(mark: tpsview_plot::LegendMark) -> &'static str {
    match mark {
        tpsview_plot::LegendMark::Line => "line",
        tpsview_plot::LegendMark::Dashed => "dashed",
        tpsview_plot::LegendMark::Point => "point",
        tpsview_plot::LegendMark::Swatch => "swatch",
    }
}

/// A tooltip's title and rows.
#[cfg(target_arch = "wasm32")]
fn tooltip_body(h: &Hover) -> impl IntoView {
    view! {
        <div class="chart-tooltip-title">{h.title.clone()}</div>
        <table>
            {h.rows.iter().map(|r| view! {
                <tr>
                    <th scope="row">{if r.run.is_empty() { r.series.clone() } else { format!("{} — {}", r.run, r.series) }}</th>
                    <td data-value=crate::format::fmt_value(Some(r.value))>{fmt_num(Some(r.value), if r.value.abs() >= 100.0 { 0 } else { 2 })}</td>
                </tr>
            }).collect_view()}
        </table>
    }
}

/// A chart as a PNG data URL for download: drawn afresh at 2× pixel density on a canvas of its
/// own (1000 × 620 CSS pixels), light, with its legend drawn in and `footer` (provenance: runs,
/// models, files, date, tpsview) under it.
pub fn export_png(spec: &ChartSpec, footer: &str) -> Result<String, tpsview_plot::PlotError> {
    use tpsview_plot::PlotError::NoCanvas;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| NoCanvas("no document".into()))?;
    let canvas: web_sys::HtmlCanvasElement = doc
        .create_element("canvas")
        .map_err(|e| NoCanvas(format!("{e:?}")))?
        .dyn_into()
        .map_err(|e| NoCanvas(format!("{e:?}")))?;
    canvas.set_width(2000);
    canvas.set_height(1240);
    let backend = plotters_canvas::CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| NoCanvas("no 2D context".into()))?;
    let area = Backend::Canvas(backend).into_drawing_area();
    tpsview_plot::draw_export(
        &area,
        spec,
        Theme {
            scale: 2.0,
            dark: false,
            legend: true,
        },
        Some(footer),
    )?;
    canvas
        .to_data_url_with_type("image/png")
        .map_err(|e| tpsview_plot::PlotError::Backend(format!("{e:?}")))
}
