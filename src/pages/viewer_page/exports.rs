//! What a chart offers around it: its downloads (PNG, SVG with provenance), the note an empty
//! chart shows with its fix, and a copy button.

use leptos::prelude::*;
use leptos::task::spawn_local;
use tpsview_core::answer;
use tpsview_core::chart_spec::{self, ChartSpec, Empty};

use crate::share;
use crate::state::{use_analysis, use_files, use_view, Analysis};

/// A button that copies `text` to the clipboard and says so.
pub(super) fn copy_button(testid: &'static str, text: String) -> impl IntoView {
    let (said, set_said) = signal(None::<&'static str>);
    let copy = move |_| {
        let text = text.clone();
        spawn_local(async move {
            let done = match web_sys::window().map(|w| w.navigator().clipboard()) {
                Some(c) => wasm_bindgen_futures::JsFuture::from(c.write_text(&text))
                    .await
                    .is_ok(),
                None => false,
            };
            set_said.set(Some(if done {
                "Copied."
            } else {
                "Could not copy: select the text and copy it."
            }));
        });
    };
    view! {
        <button type="button" data-testid=testid on:click=copy>"Copy"</button>
        <span class="viewer-page-note" role="status" data-testid=format!("{testid}-status")>{move || said.get()}</span>
    }
}

/// Today's date as the page's clock gives it (`2026-11-30`), for an export's provenance.
fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.chars().take(10).collect()
}

/// PNG (2×) and SVG downloads of one chart, each with its legend drawn in and a provenance footer.
pub(super) fn exports(spec: Signal<ChartSpec>, on_error: Callback<String>) -> impl IntoView {
    let Analysis { summary, .. } = use_analysis();
    let id = move || spec.with(|s| s.id.id());
    let footer = move || {
        let what = spec.with(|s| format!("{} chart", s.id.id()));
        summary.with(|s| answer::provenance(s, &what, &today()))
    };
    let png = move |_| {
        let id = spec.with(|s| s.id.id());
        let foot = footer();
        let done = spec
            .with(|s| tpsview_components::export_png(s, &foot))
            .map_err(|e| e.to_string())
            .and_then(|url| {
                share::download_url(&format!("tpsview-{id}.png"), &url)
                    .map_err(|e| format!("{e:?}"))
            });
        if let Err(e) = done {
            on_error.run(format!("the PNG could not be made: {e}"));
        }
    };
    let svg = move |_| {
        let foot = footer();
        let (id, text) = spec.with(|s| {
            (
                s.id.id(),
                tpsview_plot::chart_svg_with_footer(s, (900, 622), Some(&foot)),
            )
        });
        let done = text.map_err(|e| e.to_string()).and_then(|t| {
            share::download(&format!("tpsview-{id}.svg"), "image/svg+xml", t.as_bytes())
                .map_err(|e| format!("{e:?}"))
        });
        if let Err(e) = done {
            on_error.run(format!("the SVG could not be made: {e}"));
        }
    };
    view! {
        <p class="viewer-page-exports">
            "Download (with legend and provenance): "
            <button type="button" data-testid=move || format!("export-png-{}", id()) on:click=png>"PNG (2×)"</button>
            " "
            <button type="button" data-testid=move || format!("export-svg-{}", id()) on:click=svg>"SVG"</button>
        </p>
    }
}

/// What an empty chart says inside itself, and the fix it offers (a concurrency for files that
/// lack one). Nothing while the chart has something to draw.
pub(super) fn empty_note(spec: Signal<ChartSpec>) -> impl IntoView {
    let Analysis { summary, .. } = use_analysis();
    let view = use_view();
    let files = use_files();
    let why = Memo::new(move |_| {
        let opts = view.0.with(|v| v.chart_options());
        spec.with(|sp| summary.with(|s| chart_spec::why_empty(sp, s, &opts)))
    });
    move || {
        why.get().map(|e| {
            let id = spec.with_untracked(|s| s.id.id());
            let fix = match &e {
                // Past three files, one field sets them all (the files listed beneath).
                Empty::NoConcurrency { files: names } if names.len() > tpsview_core::bounds::EACH => {
                    let all = names.clone();
                    let n = names.len();
                    view! {
                        <label class="chart-empty-fix">
                            {format!("concurrency of all {n} files ")}
                            <input type="number" min="1" step="1" data-testid="set-concurrency-all"
                                on:change=move |ev| {
                                    if let Ok(c) = event_target_value(&ev).trim().parse::<f64>() {
                                        for f in &all {
                                            files.set_concurrency(f, c);
                                        }
                                    }
                                }/>
                        </label>
                        <details class="many"><summary>{format!("the {n} files")}</summary><p>{names.join(", ")}</p></details>
                    }
                    .into_any()
                }
                Empty::NoConcurrency { files: names } => names
                    .iter()
                    .map(|name| {
                        let n = name.clone();
                        view! {
                            <label class="chart-empty-fix">
                                {format!("concurrency of {name} ")}
                                <input type="number" min="1" step="1" data-testid="set-concurrency" data-file=name.clone()
                                    on:change=move |ev| {
                                        if let Ok(c) = event_target_value(&ev).trim().parse::<f64>() {
                                            files.set_concurrency(&n, c);
                                        }
                                    }/>
                            </label>
                        }
                    })
                    .collect_view()
                    .into_any(),
                _ => ().into_any(),
            };
            view! {
                <div class="chart-empty" data-testid="chart-empty" data-chart=id role="note">
                    <p>{e.words()}</p>
                    {fix}
                </div>
            }
        })
    }
}

/// Downloads `text` as the CSV file `name`; a failure is said through `on_error`.
pub(super) fn download_csv(name: &str, text: String, on_error: Callback<String>) {
    if let Err(e) = share::download(name, "text/csv", text.as_bytes()) {
        on_error.run(format!("the CSV could not be made: {e:?}"));
    }
}
