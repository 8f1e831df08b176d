//! The runs on the charts: each with its colour (the charts' own), a button that hides or shows it
//! on every chart, and one that removes it.

use leptos::prelude::*;
use tpsview_core::vocabulary::RunId;

/// One entry per run.
#[component]
pub fn RunLegend(
    /// The runs' ids, in chart order (their index is their colour; the id is the run's name: its
    /// label, with the model added where labels repeat).
    runs: Signal<Vec<RunId>>,
    /// Hidden runs.
    hidden: Signal<Vec<RunId>>,
    /// Called with a run's id to hide or show it.
    #[prop(into)]
    on_toggle: Callback<RunId>,
    /// Called with a run's id to remove it.
    #[prop(into)]
    on_remove: Callback<RunId>,
) -> impl IntoView {
    // Past a dozen runs, the list collapses behind one control with a filter (`many`).
    let filter = RwSignal::new(String::new());
    let count = Signal::derive(move || runs.with(Vec::len));
    let list = move || {
        view! {
            <ul class="run-legend" aria-label="runs on the charts" data-testid="run-legend">
                {move || runs.get().into_iter().enumerate().filter(|(_, id)| crate::many::kept(&id.to_string(), &filter.get())).map(|(i, id)| {
                    let c = tpsview_plot::run_colour(i);
                    let colour = format!("rgb({}, {}, {})", c.0, c.1, c.2);
                    let l = id.clone();
                    let is_hidden = Signal::derive(move || hidden.with(|h| h.contains(&l)));
                    let (t, r) = (id.clone(), id.clone());
                    let label = id.to_string();
                    view! {
                        <li class="run-legend-entry" class:run-legend-hidden=is_hidden>
                            <button type="button" class="run-legend-toggle" data-testid="legend-run" data-run=label.clone()
                                aria-pressed=move || (!is_hidden.get()).to_string()
                                title=move || if is_hidden.get() { "show this run on every chart" } else { "hide this run on every chart" }
                                on:click=move |_| on_toggle.run(t.clone())>
                                <span class="run-legend-swatch" style:background-color=colour></span>
                                {label.clone()}
                            </button>
                            <button type="button" class="run-legend-remove" data-testid="remove-run" data-run=label.clone()
                                aria-label=format!("remove {label}") title="remove this run"
                                on:click=move |_| on_remove.run(r.clone())>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    };
    crate::many::collapsible(count, "runs", "run-legend-many", filter, list)
}
