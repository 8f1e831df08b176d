//! The app shell: owns the loaded files (picker, drop, paste, samples, `?src=`), lists them with
//! their diagnostics, and shows the page the hash names.

use leptos::prelude::*;
use leptos::task::spawn_local;
use tpsview_components::DiagnosticsList;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

use crate::load;
use crate::pages::{ClaimPage, GlossaryPage, LearnPage, ModelPage, ViewerPage};
use crate::route::{current_hash, Route};
use crate::state::{provide_state, LoadedFile};

/// The `?src=` parameter of the page's URL, if any.
fn src_param() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get("src")
        .filter(|s| !s.is_empty())
}

/// The whole app.
#[component]
pub fn AppShell() -> impl IntoView {
    let (files, analysis) = provide_state();
    let (hash, set_hash) = signal(current_hash());
    let _listener = window_event_listener(leptos::ev::hashchange, move |_| {
        set_hash.set(current_hash())
    });
    let route = Memo::new(move |_| Route::parse(&hash.get()));
    // Each file with every diagnostic about it: its own parse notes, and what grouping, pairing
    // and recomputation said (those name the file, or one of its objects as `file#k`).
    let statuses = Signal::derive(move || {
        let diags = analysis.summary.with(|s| s.diagnostics.clone());
        files.0.with(|f| {
            f.iter()
                .map(|x| {
                    let mut st = x.status.clone();
                    if x.parsed.is_some() {
                        let prefix = format!("{}#", st.name);
                        st.diagnostics = diags
                            .iter()
                            .filter(|d| d.file == st.name || d.file.starts_with(&prefix))
                            .cloned()
                            .collect();
                    }
                    st
                })
                .collect::<Vec<_>>()
        })
    });
    let (busy, set_busy) = signal(false);

    let load_urls = move |urls: Vec<(String, bool)>| {
        set_busy.set(true);
        spawn_local(async move {
            let mut out: Vec<LoadedFile> = Vec::new();
            for (u, sample) in urls {
                out.push(load::fetch(&u, sample).await);
            }
            files.add(out);
            set_busy.set(false);
        });
    };
    match src_param() {
        Some(src) => load_urls(vec![(src, false)]),
        None => load_urls(vec![(load::SAMPLES[0].1.to_owned(), true)]),
    }
    let read_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list.map(|l| load::take_files(&l)) else {
            return;
        };
        set_busy.set(true);
        spawn_local(async move {
            files.add(load::read_files(list).await);
            set_busy.set(false);
        });
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        read_list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        read_list(ev.data_transfer().and_then(|d| d.files()));
    };
    let paste = NodeRef::<leptos::html::Textarea>::new();
    let on_paste_load = move |_| {
        let Some(el) = paste.get() else { return };
        let el: HtmlTextAreaElement = el;
        let text = el.value();
        if !text.trim().is_empty() {
            files.add(vec![load::from_bytes(
                "pasted text",
                text.as_bytes(),
                false,
            )]);
            el.set_value("");
        }
    };
    let on_sample = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if !v.is_empty() {
            load_urls(vec![(v, true)]);
        }
    };
    let tab = move |href: &'static str, label: &'static str, is: fn(Route) -> bool| {
        view! { <a href=href aria-current=move || is(route.get()).then_some("page")>{label}</a> }
    };

    view! {
        <div class="viewer-page" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <header class="viewer-page-header">
                <h1>"tpsview"</h1>
                <p class="viewer-page-tagline">"What does this tokens-per-second number actually measure?"</p>
                <div class="viewer-page-controls">
                    <label class="viewer-page-button">
                        "Open benchmark files"
                        <input type="file" multiple accept=".json,.jsonl,.csv,application/json,text/csv" data-testid="file-input" on:change=on_pick/>
                    </label>
                    <label>
                        "Sample "
                        <select on:change=on_sample aria-label="load a sample report">
                            <option value="">"choose…"</option>
                            {load::SAMPLES.iter().map(|(label, path)| view! { <option value=*path>{*label}</option> }).collect_view()}
                        </select>
                    </label>
                    <button type="button" on:click=move |_| files.0.set(Vec::new())>"Clear"</button>
                    <span class="viewer-page-busy" aria-live="polite">{move || busy.get().then_some("loading…")}</span>
                </div>
                <details class="viewer-page-paste">
                    <summary>"…or paste JSON"</summary>
                    <textarea node_ref=paste aria-label="benchmark JSON" rows="4"></textarea>
                    <button type="button" on:click=on_paste_load>"Load pasted JSON"</button>
                </details>
                <p class="viewer-page-hint">"Files stay on this machine: they are read and computed here, in WebAssembly. Drop files anywhere on the page."</p>
                <nav class="viewer-page-tabs" aria-label="sections">
                    {tab("#viewer", "Viewer", |r| r == Route::Viewer)}
                    {tab("#learn/1", "Learn", |r| matches!(r, Route::Learn(_)))}
                    {tab("#model", "Decode model", |r| r == Route::Model)}
                    {tab("#claim", "Read a claim", |r| r == Route::Claim)}
                    {tab("#glossary", "Glossary", |r| r == Route::Glossary)}
                </nav>
            </header>
            <DiagnosticsList files=statuses
                on_read_as=Callback::new(move |(i, id): (usize, String)| {
                    if let Some(f) = tpsview_core::Format::from_id(&id) {
                        files.read_as(i, f);
                    }
                })
                on_run_label=Callback::new(move |(i, label): (usize, String)| files.set_run_label(i, label))/>
            {move || match route.get() {
                Route::Viewer => view! { <ViewerPage/> }.into_any(),
                Route::Learn(step) => view! { <LearnPage step=step/> }.into_any(),
                Route::Model => view! { <ModelPage/> }.into_any(),
                Route::Claim => view! { <ClaimPage/> }.into_any(),
                Route::Glossary => view! { <GlossaryPage/> }.into_any(),
            }}
            <footer class="viewer-page-footer">
                "Definitions (docs/metrics.md): TTFT = first token − send; TPOT = (E2E − TTFT) / (tokens − 1); ITL = gaps between streamed chunks; "
                "per-stream T/s = 1 / mean TPOT; system T/s = Σ output tokens / (last token − first send). Percentiles interpolate like numpy. "
                <a href="#glossary">"Glossary"</a>
            </footer>
        </div>
    }
}
