//! The app shell: owns the loaded files (picker, drop, paste, samples, `?src=`), lists them with
//! their diagnostics, and shows the page the hash names. Here the wiring; `loads` reads files and
//! URLs, `first` opens what the page opens first, `keeping` keeps runs in this browser.

use leptos::prelude::*;
use leptos::task::spawn_local;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

use crate::header::{self, Controls, HeaderState, ACCEPT};
use crate::load;
use crate::load::LoadedFile;
use crate::loader;
use crate::pages::ViewerPage;
use crate::route::{current_hash, Route};
use crate::state::provide_state;

mod first;
mod keeping;
mod loads;
mod teach;

/// The whole app.
#[component]
pub fn AppShell() -> impl IntoView {
    let (files, analysis, view) = provide_state();
    let (hash, set_hash) = signal(current_hash());
    let _listener = window_event_listener(leptos::ev::hashchange, move |_| {
        set_hash.set(current_hash())
    });
    let route = Memo::new(move |_| Route::parse(&hash.get()));
    // The teaching screens pick their own route (learn's steps among them): one mount point.
    let teaching = Memo::new(move |_| route.get() != Route::Viewer);
    let statuses = Signal::derive(move || {
        analysis
            .summary
            .with(|s| files.0.with(|f| header::statuses(f, s)))
    });
    // Files join the page; a bundle among them (a tpsview/1 file exported with its view) restores
    // that view.
    let add_files = move |out: Vec<LoadedFile>| {
        for v in out.iter().filter_map(load::bundle_view) {
            view.0.set(v);
        }
        files.add(out);
    };
    // Files and URLs are read in a worker, one after another, with a progress bar and Cancel.
    let loads = loads::Loads::new(files, view);
    let keeping = keeping::Keeping::new(analysis, view);
    first::open_first(files, loads, keeping, add_files);
    let on_keep = move |ev: leptos::ev::Event| keeping.set(event_target_checked(&ev));
    let on_forget = move |_| keeping.forget();
    let on_pick = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        loads.list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let Some(dt) = ev.data_transfer() else { return };
        // A dropped folder is walked (its entries are taken now, while the event lasts).
        match load::dropped_entries(&dt) {
            Some(entries) => spawn_local(async move { loads.named(load::walk(entries).await) }),
            None => loads.list(dt.files()),
        }
    };
    // The folder picker: `webkitdirectory` (every browser's name for it) set once it exists.
    let folder_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder_input.get() {
            let el: HtmlInputElement = el;
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    let paste = NodeRef::<leptos::html::Textarea>::new();
    let url_field = NodeRef::<leptos::html::Input>::new();
    let on_paste_load = move |_| {
        let Some(el) = paste.get() else { return };
        let el: HtmlTextAreaElement = el;
        let text = el.value();
        if !text.trim().is_empty() {
            // Read by the worker, as a file of that name: any format, off the page's thread.
            if let Some(file) = loader::file_of("pasted text", text.as_bytes()) {
                loads.run(
                    vec![("pasted text".into(), loader::Source::File(file), false)],
                    None,
                );
            }
            el.set_value("");
        }
    };
    let on_url = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(el) = url_field.get() else { return };
        let el: HtmlInputElement = el;
        let url = el.value().trim().to_owned();
        if !url.is_empty() {
            loads.urls(vec![(url, false)], None);
            el.set_value("");
        }
    };
    let on_sample = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if !v.is_empty() {
            loads.urls(vec![(v, true)], None);
        }
    };
    // Sources stay collapsed (the answer comes first) and keep whatever the user chose, except
    // that a file that could not be read opens them: its error must be seen.
    let sources_ref = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        // A file read through a mapping tpsview proposed opens them too: it must be checked.
        let failed = statuses.with(|s| {
            s.iter().any(|f| {
                f.error.is_some() || f.mapping.as_ref().is_some_and(|m| m.origin == "proposed")
            })
        });
        if let (true, Some(el)) = (failed, sources_ref.get()) {
            el.set_open(true);
        }
    });
    let open_sample = Signal::derive(move || {
        files.0.with(|f| {
            f.iter()
                .find(|x| x.is_sample)
                .and_then(|x| x.source_url.clone())
        })
    });
    let (busy, keep_status, progress) = (loads.busy, keeping.status, loads.progress);
    view! {
        <div class="viewer-page" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            {header::header(
                HeaderState { open_sample, keep: keeping.on, route, folder: folder_input, paste, url: url_field },
                Controls {
                    pick: on_pick,
                    sample: on_sample,
                    clear: move |_| {
                        files.0.set(Vec::new());
                        loads.finished.set(None);
                        loads.set_note.set(None);
                    },
                    url: on_url,
                    paste: on_paste_load,
                    keep: on_keep,
                    forget: on_forget,
                },
                view! {
                    <span class="viewer-page-busy" aria-live="polite">{move || busy.get().then_some("loading…")}</span>
                    <span class="viewer-page-keep-status" data-testid="keep-status" aria-live="polite">{move || keep_status.get()}</span>
                    <LoadProgress progress=progress finished=loads.finished note=loads.note/>
                },
            )}
            {move || (files.0.with(Vec::is_empty) && route.get() == Route::Viewer).then(|| drop_zone(loads, on_pick))}
            {header::sources(
                statuses,
                sources_ref,
                Callback::new(move |(i, id): (usize, String)| {
                    if let Some(format) = tpsview_core::Format::from_id(&id) {
                        loads::reread(files, progress, i, Some(format), None);
                    }
                }),
                Callback::new(move |(i, label): (usize, String)| files.set_run_label(i, label)),
                header::MapControls {
                    on_map: Callback::new(move |(i, (what, field, value)): (usize, tpsview_components::Correction)| {
                        let mapping = files.0.with_untracked(|f| {
                            f.get(i).and_then(|x| x.status.mapping.as_ref()).map(|p| p.mapping.clone())
                        });
                        if let Some(mapping) = mapping {
                            let edit = loader::MapEdit { mapping, what, field, value };
                            loads::reread(files, progress, i, None, Some(edit));
                        }
                    }),
                    on_save: Callback::new(move |m: String| {
                        if let Err(e) = crate::share::download("mapping.json", "application/json", m.as_bytes()) {
                            loads.set_note.set(Some(format!("The mapping could not be saved: {e:?}")));
                        }
                    }),
                },
            )}
            {move || if teaching.get() {
                teach::mount_point(analysis, view).into_any()
            } else {
                view! { <ViewerPage/> }.into_any()
            }}
            <footer class="viewer-page-footer">
                "Definitions (docs/metrics.md): TTFT = first token − send; TPOT = (E2E − TTFT) / (tokens − 1); ITL = gaps between streamed chunks; "
                "per-stream T/s = 1 / mean TPOT; system T/s = Σ output tokens / (last token − first send). Percentiles interpolate like numpy. "
                <a href="#glossary">"Glossary"</a>
            </footer>
        </div>
    }
}

/// What an empty viewer offers: drop files, pick them, or open a built-in sample.
fn drop_zone(
    loads: loads::Loads,
    on_pick: impl Fn(leptos::ev::Event) + Copy + 'static,
) -> impl IntoView {
    view! {
        <section class="drop-zone" data-testid="drop-zone" aria-labelledby="h-drop">
            <h2 id="h-drop">"Drop benchmark files here"</h2>
            <p>"JSON, JSONL or CSV from vLLM, SGLang, GenAI-Perf, AIPerf, TensorRT-LLM, llama-bench, LLMPerf, GuideLLM, inference-benchmarker, MLPerf LoadGen logs, inference-perf, genai-bench, evalscope, Ollama's --verbose output — or tpsview's own reports; a file no reader knows opens a mapping of its fields. One file per level or one file per sweep; the files of one run are grouped. A folder (a vllm bench sweep serve experiment, a results directory) is read with its sub-folders."</p>
            <p class="drop-zone-actions">
                <label class="viewer-page-button">
                    "Open benchmark files"
                    <input type="file" multiple accept=ACCEPT data-testid="drop-zone-input" on:change=on_pick/>
                </label>
                {load::SAMPLES.iter().map(|(label, path)| {
                    let path = (*path).to_owned();
                    view! {
                        <button type="button" class="button-secondary" data-testid="sample-button"
                            on:click=move |_| loads.urls(vec![(path.clone(), true)], None)>{*label}</button>
                    }
                }).collect_view()}
            </p>
            <p class="viewer-page-hint">"Nothing leaves this machine: files are read and computed here, in WebAssembly."</p>
        </section>
    }
}

/// The load in progress (bar, bytes, Cancel) and the figures of the last one.
#[component]
fn LoadProgress(
    progress: RwSignal<Option<loader::Progress>>,
    finished: RwSignal<Option<loader::Finished>>,
    note: ReadSignal<Option<String>>,
) -> impl IntoView {
    view! {
        {move || progress.get().map(|p| view! {
            <div class="load-progress" data-testid="load-progress" data-read=p.read data-phase=p.phase.clone() data-requests=p.requests>
                <progress max=p.total.unwrap_or(1.0) value=p.read></progress>
                <span data-testid="load-status" aria-live="polite">{p.describe()}</span>
                <button type="button" data-testid="load-cancel" on:click=|_| loader::cancel()>"Cancel"</button>
            </div>
        })}
        {move || note.get().map(|n| view! { <p class="load-note" data-testid="load-note">{n}</p> })}
        {move || finished.get().map(|f| view! {
            <p class="load-figures" data-testid="load-figures" title=f.describe() data-bytes=f.bytes data-ms=f.total_ms
                data-read-ms=f.read_ms data-parse-ms=f.parse_ms data-requests=f.requests data-memory=f.memory>
                {f.describe()}
            </p>
        })}
    }
}
