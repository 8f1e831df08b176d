//! The decode model and the claim reader.

use leptos::prelude::*;
use tpsview_components::{ClaimReader, DecodeModel};

use crate::state::use_analysis;

/// The interactive decode model, overlaid on the first loaded run.
#[component]
pub fn ModelPage() -> impl IntoView {
    let analysis = use_analysis();
    let run = Signal::derive(move || analysis.summary.with(|s| s.runs.first().cloned()));
    let (error, set_error) = signal(None::<String>);
    view! {
        <main class="model-page">
            <h2>"The decode model: the most a GPU can give one stream, and all of them"</h2>
            <p class="viewer-page-note">"Each decode step reads every weight from HBM once, whatever the batch, plus each sequence's KV cache; it also does about 2 × parameters FLOPs per token. The step takes at least the longer of the two. Change any number."</p>
            {move || error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
            <DecodeModel run=run on_error=move |e| set_error.set(Some(e))/>
        </main>
    }
}

/// "Read a claim".
#[component]
pub fn ClaimPage() -> impl IntoView {
    view! {
        <main class="claim-page">
            <h2>"Read a claim"</h2>
            <p class="viewer-page-note">"Someone says a model runs at N tokens per second on some GPU. Which number is that?"</p>
            <ClaimReader/>
        </main>
    }
}
