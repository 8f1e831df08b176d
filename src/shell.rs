//! The app shell: owns the loaded files (picker, drop, paste, samples, `?src=`), lists them with
//! their diagnostics, and shows the page the hash names.

use leptos::prelude::*;
use leptos::task::spawn_local;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

use crate::header::{self, Controls, HeaderState, ACCEPT};
use crate::load;
use crate::load::LoadedFile;
use crate::loader;
use crate::messages;
use crate::pages::{ClaimPage, GlossaryPage, LearnPage, ModelPage, ViewerPage};
use crate::route::{current_hash, Route};
use crate::share;
use crate::state::provide_state;
use crate::view::{bundle, View};

/// The `?src=` URLs (several allowed) and the `view` of the page's URL.
fn url_params() -> (Vec<String>, Option<View>) {
    let Some(params) = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
    else {
        return (Vec::new(), None);
    };
    let srcs = params
        .get_all("src")
        .iter()
        .filter_map(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .collect();
    (srcs, params.get("view").map(|v| View::from_json(&v)))
}

/// The data inside the `tpsview report` file this page was opened from (`<script
/// type="application/json" id="tpsview-bundle">`, a tpsview/1 bundle), named as the file is.
fn report_bundle() -> Option<(String, String)> {
    let document = web_sys::window()?.document()?;
    let text = document
        .get_element_by_id("tpsview-bundle")?
        .text_content()?;
    let path = document.location()?.pathname().ok()?;
    Some((load::url_name(&path), text))
}

/// Replaces the address's fragment without adding a history entry.
fn replace_hash(h: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(h);
    }
}

/// The whole app.
#[component]
pub fn AppShell() -> impl IntoView {
    let (files, analysis, view) = provide_state();
    // Keeping runs in this browser: off until the user ticks it (or a kept set was restored).
    let keep = RwSignal::new(false);
    let (keep_status, set_keep_status) = signal(None::<String>);
    let (hash, set_hash) = signal(current_hash());
    let _listener = window_event_listener(leptos::ev::hashchange, move |_| {
        set_hash.set(current_hash())
    });
    let route = Memo::new(move |_| Route::parse(&hash.get()));
    let statuses = Signal::derive(move || {
        analysis
            .summary
            .with(|s| files.0.with(|f| header::statuses(f, s)))
    });
    let (busy, set_busy) = signal(false);
    // Files join the page; a bundle among them (a tpsview/1 file exported with its view) restores
    // that view.
    let add_files = move |out: Vec<LoadedFile>| {
        for v in out.iter().filter_map(load::bundle_view) {
            view.0.set(v);
        }
        files.add(out);
    };

    // Files and URLs are read in a worker, one after another, with a progress bar and Cancel.
    let progress = RwSignal::new(None::<loader::Progress>);
    let finished = RwSignal::new(None::<loader::Finished>);
    let (load_note, set_load_note) = signal(None::<String>);
    let run_loads = move |jobs: Vec<(String, loader::Source, bool)>, then: Option<View>| {
        set_load_note.set(None);
        if !loader::enqueue(jobs, then) {
            return; // the loop already running takes these too
        }
        set_busy.set(true);
        let pending = tpsview_components::Pending::hold();
        spawn_local(async move {
            let _pending = pending;
            while let Some(job) = loader::next_job() {
                let (name, position) = (job.name.clone(), job.position);
                match loader::load(&name, &job.source, None, job.sample, position, progress).await {
                    loader::Outcome::Loaded(f, v, fin) => {
                        if let Some(v) = v {
                            view.0.set(v);
                        }
                        files.add(vec![*f]);
                        // The status line is about the last load: a failed one leaves none.
                        finished.set(fin);
                    }
                    loader::Outcome::Cancelled => {
                        let dropped = loader::clear_queue();
                        set_load_note.set(Some(if dropped > 0 {
                            format!("Cancelled loading {name} and the {dropped} file(s) after it: nothing from them was added.")
                        } else {
                            format!("Cancelled loading {name}: nothing from it was added.")
                        }));
                    }
                }
                if let Some(v) = job.then {
                    view.0.set(v);
                }
            }
            set_busy.set(false);
        });
    };
    let load_urls = move |urls: Vec<(String, bool)>, then: Option<View>| {
        let mut jobs = Vec::new();
        for (u, sample) in urls {
            let name = load::url_name(&u);
            if load::scheme_ok(&u) {
                jobs.push((name, loader::Source::Url(u), sample));
            } else {
                files.add(vec![load::failed(
                    &name,
                    messages::fetch_error(&u, &messages::FetchFailure::Scheme),
                )]);
            }
        }
        run_loads(jobs, then);
    };
    // What opens first: the data of the `tpsview report` file this page is, else an inline link's
    // bundle, else the permalink's sources, else runs kept in this browser, else the built-in
    // example.
    let (srcs, url_view) = url_params();
    let hash_now = current_hash();
    if let Some((name, text)) = report_bundle() {
        add_files(vec![load::from_bytes(&name, text.as_bytes(), false)]);
    } else if let Some(data) = hash_now.strip_prefix("#bundle=").map(str::to_owned) {
        set_busy.set(true);
        let pending = tpsview_components::Pending::hold();
        spawn_local(async move {
            let _pending = pending;
            match share::read_inline(&data).await {
                Ok(bytes) => add_files(vec![load::from_bytes("shared link", &bytes, false)]),
                Err(e) => files.add(vec![load::failed(
                    "shared link",
                    format!("shared link: {e}"),
                )]),
            }
            replace_hash("#viewer");
            set_busy.set(false);
        });
    } else if !srcs.is_empty() {
        load_urls(srcs.into_iter().map(|s| (s, false)).collect(), url_view);
    } else if let Some(kept) = share::kept() {
        add_files(vec![load::from_bytes(
            "kept in this browser",
            kept.as_bytes(),
            false,
        )]);
        keep.set(true);
        set_keep_status.set(Some("Restored the runs kept in this browser.".into()));
    } else {
        load_urls(vec![(load::SAMPLES[0].1.to_owned(), true)], None);
    }
    // While keeping is on, every change is written to this browser's storage (never elsewhere).
    Effect::new(move |_| {
        if !keep.get() {
            return;
        }
        let text = analysis.report.with(|g| {
            view.0
                .with(|v| bundle(&tpsview_core::formats::tpsview::write(&g.report), v))
        });
        if let Err(e) = share::keep(&text) {
            set_keep_status.set(Some(e));
        }
    });
    let on_keep = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        keep.set(on);
        if on {
            set_keep_status.set(Some(
                "Loaded runs are kept in this browser's storage (on this machine only) until you forget them.".into(),
            ));
        } else {
            share::forget();
            set_keep_status.set(Some("Nothing is kept in this browser.".into()));
        }
    };
    let on_forget = move |_| {
        keep.set(false);
        share::forget();
        set_keep_status.set(Some("Forgotten: nothing is kept in this browser.".into()));
    };
    // Files by name (a folder's by their paths in it): a folder's in natural order, less what a
    // sweep's layout repeats, with a note saying what was left out.
    let read_named = move |named: Vec<(String, web_sys::File)>| {
        let (read, note) = load::from_folder(named);
        run_loads(
            read.into_iter()
                .map(|(n, f)| (n, loader::Source::File(f), false))
                .collect(),
            None,
        );
        if note.is_some() {
            set_load_note.set(note);
        }
    };
    let read_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list.map(|l| load::take_files(&l)) else {
            return;
        };
        read_named(
            list.into_iter()
                .map(|f| (load::picked_name(&f), f))
                .collect(),
        );
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        read_list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let Some(dt) = ev.data_transfer() else { return };
        // A dropped folder is walked (its entries are taken now, while the event lasts).
        match load::dropped_entries(&dt) {
            Some(entries) => spawn_local(async move { read_named(load::walk(entries).await) }),
            None => read_list(dt.files()),
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
                run_loads(
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
            load_urls(vec![(url, false)], None);
            el.set_value("");
        }
    };
    let on_sample = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if !v.is_empty() {
            load_urls(vec![(v, true)], None);
        }
    };
    // Sources stay collapsed (the answer comes first) and keep whatever the user chose, except
    // that a file that could not be read opens them: its error must be seen.
    let sources_ref = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        let failed = statuses.with(|s| s.iter().any(|f| f.error.is_some()));
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
    view! {
        <div class="viewer-page" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            {header::header(
                HeaderState { open_sample, keep, route, folder: folder_input, paste, url: url_field },
                Controls {
                    pick: on_pick,
                    sample: on_sample,
                    clear: move |_| {
                        files.0.set(Vec::new());
                        finished.set(None);
                        set_load_note.set(None);
                    },
                    url: on_url,
                    paste: on_paste_load,
                    keep: on_keep,
                    forget: on_forget,
                },
                view! {
                    <span class="viewer-page-busy" aria-live="polite">{move || busy.get().then_some("loading…")}</span>
                    <span class="viewer-page-keep-status" data-testid="keep-status" aria-live="polite">{move || keep_status.get()}</span>
                    <LoadProgress progress=progress finished=finished note=load_note/>
                },
            )}
            {move || (files.0.with(Vec::is_empty) && route.get() == Route::Viewer).then(|| view! {
                <section class="drop-zone" data-testid="drop-zone" aria-labelledby="h-drop">
                    <h2 id="h-drop">"Drop benchmark files here"</h2>
                    <p>"JSON, JSONL or CSV from vLLM, SGLang, GenAI-Perf, AIPerf, TensorRT-LLM, llama-bench, LLMPerf, GuideLLM, inference-benchmarker, MLPerf LoadGen logs — or tpsview's own reports. One file per level or one file per sweep; the files of one run are grouped. A folder (a vllm bench sweep serve experiment, a results directory) is read with its sub-folders."</p>
                    <p class="drop-zone-actions">
                        <label class="viewer-page-button">
                            "Open benchmark files"
                            <input type="file" multiple accept=ACCEPT data-testid="drop-zone-input" on:change=on_pick/>
                        </label>
                        {load::SAMPLES.iter().map(|(label, path)| {
                            let path = (*path).to_owned();
                            view! {
                                <button type="button" class="button-secondary" data-testid="sample-button"
                                    on:click=move |_| load_urls(vec![(path.clone(), true)], None)>{*label}</button>
                            }
                        }).collect_view()}
                    </p>
                    <p class="viewer-page-hint">"Nothing leaves this machine: files are read and computed here, in WebAssembly."</p>
                </section>
            })}
            {header::sources(
                statuses,
                sources_ref,
                Callback::new(move |(i, id): (usize, String)| {
                    let Some(format) = tpsview_core::Format::from_id(&id) else { return };
                    // Read again by the worker (the page itself reads only tpsview/1): from the
                    // file picked, the URL, or the bytes kept.
                    let Some((source, name, sample)) = files.0.with_untracked(|f| {
                        f.get(i).map(|x| (loader::source_of(x), x.status.name.clone(), x.is_sample))
                    }) else { return };
                    if let Some(source) = source {
                        let pending = tpsview_components::Pending::hold();
                        spawn_local(async move {
                            let _pending = pending;
                            if let loader::Outcome::Loaded(f, _, _) =
                                loader::load(&name, &source, Some(format), sample, (1, 1), progress).await
                            {
                                files.replace(i, *f);
                            }
                        });
                    }
                }),
                Callback::new(move |(i, label): (usize, String)| files.set_run_label(i, label)),
            )}
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
