//! The controls behind `tpsview_core::bounds`: a list collapsed past [`FEW`] entries with a
//! filter, a table paged past [`PAGE`] rows.

use leptos::prelude::*;
pub use tpsview_core::bounds::{kept, FEW, PAGE};

/// Rendered outside the browser (leptos `ssr`: the report, the prerendered first view): static
/// HTML, with no script to turn a page or to build a list when it opens — so every row and every
/// entry is written out (a closed `<details>` still opens without script).
const STATIC: bool = cfg!(not(target_arch = "wasm32"));

/// The rows of page `at` of `n` (`tpsview_core::bounds::page_range`); every row when static.
pub fn page_range(n: usize, at: usize) -> std::ops::Range<usize> {
    if STATIC {
        0..n
    } else {
        tpsview_core::bounds::page_range(n, at)
    }
}

/// A list of `count` entries, collapsed past [`FEW`] behind a `<details>` whose summary says
/// `noun` and the count, with a filter box writing to `filter`. `body` renders the list (it
/// reads `filter` itself). Up to [`FEW`] entries, the list shows as it is.
pub fn collapsible<V: IntoView + 'static>(
    count: Signal<usize>,
    noun: &'static str,
    testid: &'static str,
    filter: RwSignal<String>,
    body: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView {
    // One body type for every caller: the control below is compiled once, not once per list.
    let body: std::sync::Arc<dyn Fn() -> AnyView + Send + Sync> =
        std::sync::Arc::new(move || body().into_any());
    bounded(count, noun, testid, filter, body)
}

fn bounded(
    count: Signal<usize>,
    noun: &'static str,
    testid: &'static str,
    filter: RwSignal<String>,
    body: std::sync::Arc<dyn Fn() -> AnyView + Send + Sync>,
) -> AnyView {
    // The list is built only while open: a closed one costs the page nothing (static HTML has it
    // built, inside the closed `<details>`).
    let open = RwSignal::new(STATIC);
    (move || {
        let n = count.get();
        if n <= FEW {
            return body();
        }
        let body = body.clone();
        view! {
            <details class="many" data-testid=testid data-count=n.to_string()
                on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary>{format!("{n} {noun}: show or filter")}</summary>
                <input type="search" class="many-filter" data-testid=format!("{testid}-filter")
                    aria-label=format!("filter the {noun}") placeholder="filter by name"
                    prop:value=move || filter.get()
                    on:input=move |ev| filter.set(event_target_value(&ev))/>
                <div class="many-list">{move || open.get().then(|| body())}</div>
            </details>
        }
        .into_any()
    })
    .into_any()
}

/// Which page of `rows` rows is shown, and the control that turns it (none up to [`PAGE`] rows).
pub fn pager(rows: Signal<usize>, page: RwSignal<usize>, testid: &'static str) -> impl IntoView {
    move || {
        let n = rows.get();
        (n > PAGE && !STATIC).then(|| {
            let pages = n.div_ceil(PAGE);
            let at = page.get().min(pages - 1);
            let shown = page_range(n, at);
            let (from, to) = (shown.start + 1, shown.end);
            view! {
                <p class="many-pager" data-testid=testid data-page=at.to_string() data-pages=pages.to_string()>
                    <button type="button" data-testid=format!("{testid}-prev") disabled={at == 0}
                        on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>"← previous"</button>
                    {format!(" rows {from}–{to} of {n} ")}
                    <button type="button" data-testid=format!("{testid}-next") disabled={at + 1 >= pages}
                        on:click=move |_| page.update(|p| *p = (*p + 1).min(pages - 1))>"next →"</button>
                </p>
            }
        })
    }
}
