//! The glossary page; `#glossary-<term>` scrolls to the term.

use leptos::prelude::*;
use tpsview_components::Glossary;

/// The glossary.
#[component]
pub fn GlossaryPage() -> impl IntoView {
    // The term's element exists only once this page has rendered: scroll to it then.
    Effect::new(move |_| {
        let hash = crate::route::current_hash();
        if let Some(id) = hash
            .strip_prefix('#')
            .filter(|h| h.starts_with("glossary-"))
        {
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(id))
            {
                el.scroll_into_view();
            }
        }
    });
    view! {
        <main class="glossary-page">
            <h2>"Glossary: tpsview's definitions, and each tool's own"</h2>
            <Glossary/>
        </main>
    }
}
