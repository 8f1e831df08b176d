//! Data health, ranked: errors, then warnings, then notes — each said once, with where it applies
//! and what would fix it (`tpsview_core::health`). Notes are folded away unless there is nothing
//! else to say.

use leptos::prelude::*;
use tpsview_core::health::{HealthItem, Severity};

/// The data-health panel (`data-testid="data-health"`, items `health-item` with
/// `data-severity`).
#[component]
pub fn HealthPanel(
    /// The items, ranked.
    items: Signal<Vec<HealthItem>>,
) -> impl IntoView {
    let item = |i: HealthItem| {
        let sev = i.severity.key();
        let mark = match i.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        view! {
            <li class=format!("health-item health-{sev}") data-testid="health-item" data-severity=sev
                data-concern=format!("{:?}", i.concern)>
                <span class="health-mark">{mark}</span>
                <span class="health-title">{i.title.clone()}
                    {(i.count > 1 && i.concern == tpsview_core::health::Concern::Note).then(|| format!(" (×{})", i.count))}
                </span>
                <span class="health-detail">{i.detail.clone()}</span>
            </li>
        }
    };
    view! {
        <section class="health-panel" class:health-panel-ok=move || items.with(|all| all.iter().all(|i| i.severity == Severity::Info))
            id="data-health" data-testid="data-health" aria-labelledby="h-health">
            <h2 id="h-health">"Data health"</h2>
            {move || items.with(|all| {
                let (main, notes): (Vec<HealthItem>, Vec<HealthItem>) =
                    all.iter().cloned().partition(|i| i.severity != Severity::Info);
                let empty = main.is_empty();
                view! {
                    {empty.then(|| view! { <p class="health-ok">"No error or warning in the loaded data."</p> })}
                    <ul class="health-list">{main.into_iter().map(item).collect_view()}</ul>
                    {(!notes.is_empty()).then(|| view! {
                        <details class="health-notes">
                            <summary>{format!("{} note{} on how the files were read", notes.len(), if notes.len() == 1 { "" } else { "s" })}</summary>
                            <ul class="health-list">{notes.into_iter().map(item).collect_view()}</ul>
                        </details>
                    })}
                }
            })}
        </section>
    }
}
