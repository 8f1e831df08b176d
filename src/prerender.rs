//! The prerendered first view (natively): the page as it first looks with the built-in example
//! open — the header (`header.rs`, controls inert), the Sources drawer, and the first view of the
//! viewer (`tpsview_components::first_view`: run header, answer cards, data health, the legend,
//! the throughput chart as SVG, every figure) — rendered by the same components and the same
//! arithmetic as the live page, to HTML. `public/first-view.html` is this, committed; Trunk inlines
//! it into index.html, so the answer shows before any wasm arrives; the app, mounted hidden under
//! it, replaces it once it shows the same (public/boot.js). `cargo run -p tpsview-web -- first-view`
//! writes it; a test renders it again and fails on any difference.

use leptos::prelude::*;
use tpsview_components::{
    first_view, terms, FirstViewData, FirstViewSlots, HealthPanel, RunLegend, THROUGHPUT_TERMS,
};
use tpsview_core::chart_spec;
use tpsview_core::compare::CompareOptions;
use tpsview_core::vocabulary::RunId;

use crate::header::{self, HeaderState};
use crate::load;
use crate::route::Route;
use crate::state::{grouped, summary_of};
use crate::view::View;

/// Where the first view is kept (relative to the crate's root); index.html inlines it.
pub const PATH: &str = "public/first-view.html";

/// The built-in example's bytes (the first sample).
const SAMPLE: &[u8] = include_bytes!("../public/samples/h100-llama70b-fp8.tpsview.json");

/// The first view of the built-in example, as HTML: what `public/first-view.html` holds.
pub fn first_view_html() -> String {
    let (_, path) = load::SAMPLES[0];
    let mut file = load::from_bytes(&load::url_name(path), SAMPLE, true);
    file.source_url = Some(path.to_owned());
    let files = vec![file];
    let g = grouped(&files);
    let summary = summary_of(&g);
    let view = View::default();
    let options = view.chart_options();
    let compare = CompareOptions {
        per_gpu: view.per_gpu,
        gpu_counts: view.gpu_counts.clone(),
    };
    let health = tpsview_core::health::health(&g.report, &summary, &compare);
    let (answers, more) = tpsview_components::answered(&summary);
    let throughput = chart_spec::throughput(&summary, &options);
    let statuses = header::statuses(&files, &summary);
    let runs: Vec<RunId> = summary.runs.iter().map(|r| r.id.clone()).collect();
    let body = Owner::new().with(move || {
        let state = HeaderState {
            open_sample: Signal::stored(Some(path.to_owned())),
            keep: RwSignal::new(false),
            route: Memo::new(|_| Route::Viewer),
            folder: NodeRef::new(),
            paste: NodeRef::new(),
            url: NodeRef::new(),
        };
        let health = Memo::new(move |_| health.clone());
        let no = Callback::new(|_: (usize, String)| {});
        let on_error = Callback::new(|e: String| eprintln!("warning: {e}"));
        view! {
            <div class="viewer-page" data-static="true">
                {header::header(state, header::no_controls(), view! {
                    <p id="boot-status" role="status">
                        <span class="needs-script">"Loading the interactive viewer…"</span>
                        <noscript>"The built-in example as static HTML: the interactive viewer needs JavaScript and WebAssembly."</noscript>
                    </p>
                })}
                {header::sources(Signal::stored(statuses), NodeRef::new(), no, no, header::MapControls { on_map: Callback::new(|_| ()), on_save: Callback::new(|_| ()) })}
                <main class="viewer-page-main" data-testid="viewer" data-static="true">
                    {first_view(
                        FirstViewData {
                            answers: Memo::new(move |_| answers.clone()),
                            more_runs: Signal::stored(more),
                            health,
                            throughput: Signal::stored(throughput),
                            summary: Signal::stored(summary),
                            table: RwSignal::new(true).read_only(),
                        },
                        on_error,
                        FirstViewSlots {
                            between: view! {
                                <HealthPanel items=Signal::from(health)/>
                                <RunLegend runs=Signal::stored(runs) hidden=Signal::stored(Vec::new())
                                    on_toggle=|_: RunId| {} on_remove=|_: RunId| {}/>
                            },
                            above_chart: terms(THROUGHPUT_TERMS),
                            in_chart: (),
                            under_chart: (),
                            under_table: (),
                        },
                    )}
                </main>
            </div>
        }
        .to_html()
    });
    // Nothing is wired to the controls until the app replaces them: inert here. (Added to the
    // HTML, not in header.rs: an `inert` attribute in the view cost the page 543 B gzip.)
    let body = body.replacen(
        r#"<div class="viewer-page-controls">"#,
        r#"<div class="viewer-page-controls" inert>"#,
        1,
    );
    format!("<!-- {PATH}: written by `cargo run -p tpsview-web -- first-view` (src/prerender.rs); do not edit -->\n{body}\n")
}

#[cfg(test)]
mod tests;
