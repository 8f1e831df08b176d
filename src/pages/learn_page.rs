//! "Learn": the walkthrough on the seed example or any loaded run ("explain this run").

use leptos::prelude::*;
use tpsview_components::LearnPanel;
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::learn::walkthrough;
use tpsview_core::summary::Summary;

use crate::state::use_analysis;

/// The walkthrough at `step` (0-based).
#[component]
pub fn LearnPage(step: usize) -> impl IntoView {
    let analysis = use_analysis();
    // With the viewer's SLO applied, so the capacity step speaks of the user's own targets.
    let planned = super::capacity::planned();
    let (run, set_run) = signal(0usize);
    let (error, set_error) = signal(None::<String>);
    // The chosen run alone, so the charts explain one run at a time.
    let one = Memo::new(move |_| {
        planned.with(|s| Summary {
            runs: s
                .runs
                .get(run.get())
                .or(s.runs.first())
                .cloned()
                .into_iter()
                .collect(),
            diagnostics: Vec::new(),
        })
    });
    let steps =
        Signal::derive(move || one.with(|s| s.runs.first().map(walkthrough).unwrap_or_default()));
    let charts = Signal::derive(move || {
        one.with(|s| {
            let o = ChartOptions::default();
            vec![
                chart_spec::throughput(s, &o),
                chart_spec::latency(s, &o),
                chart_spec::interactivity(s, &o),
            ]
        })
    });
    let go = move |i: usize| {
        if let Some(w) = web_sys::window() {
            let _ = w.location().set_hash(&format!("learn/{}", i + 1));
        }
    };
    view! {
        <main class="learn-page">
            <h2>"Why one GPU is both “50 T/s” and “4,000 T/s”"</h2>
            <label>
                "Explain this run "
                <select aria-label="run to explain" data-testid="learn-run" on:change=move |ev| set_run.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || analysis.summary.with(|s| s.runs.iter().enumerate().map(|(i, r)| view! {
                        <option value=i.to_string() selected=move || run.get() == i>{r.label.clone()}</option>
                    }).collect_view())}
                </select>
            </label>
            {move || error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
            {move || if steps.with(Vec::is_empty) {
                view! { <p class="viewer-page-note">"Load a run with at least one concurrency level to walk through it."</p> }.into_any()
            } else {
                view! { <LearnPanel steps=steps charts=charts current=Signal::stored(step) on_step=go on_error=move |e| set_error.set(Some(e))/> }.into_any()
            }}
        </main>
    }
}
