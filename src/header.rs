//! The top of every screen: the title, the load controls in one row (files, a folder, a sample,
//! Clear, and "More": a URL, keeping runs, pasted text), the load's status, the tabs; then the
//! Sources drawer. Built natively too: the prerendered first view (`prerender.rs`) is this markup
//! with the controls inert until the app replaces it, so that nothing moves when it does. The
//! shell (browser-only) owns what the controls do and passes it in.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use tpsview_components::{DiagnosticsList, FileStatus};

use crate::load;
use crate::route::Route;

/// What the file pickers offer: every extension a supported format is written in.
pub const ACCEPT: &str =
    ".json,.jsonl,.csv,.txt,.yaml,.yml,application/json,text/csv,text/plain,application/yaml";

/// What the controls do (the shell's closures; natively, nothing). Generic, not boxed: each is
/// the shell's own closure, built into the page once.
pub struct Controls<P, S, C, U, T, K, F> {
    /// Files or a folder picked.
    pub pick: P,
    /// A sample chosen.
    pub sample: S,
    /// Clear.
    pub clear: C,
    /// A URL submitted.
    pub url: U,
    /// Pasted text loaded.
    pub paste: T,
    /// "Keep runs" ticked or unticked.
    pub keep: K,
    /// "Forget all".
    pub forget: F,
}

/// Controls that do nothing: the prerendered header's (inert until the app replaces it).
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::type_complexity)]
pub fn no_controls() -> Controls<
    fn(ev::Event),
    fn(ev::Event),
    fn(ev::MouseEvent),
    fn(ev::SubmitEvent),
    fn(ev::MouseEvent),
    fn(ev::Event),
    fn(ev::MouseEvent),
> {
    Controls {
        pick: |_| {},
        sample: |_| {},
        clear: |_| {},
        url: |_| {},
        paste: |_| {},
        keep: |_| {},
        forget: |_| {},
    }
}

/// What the header shows, and the fields the shell reads.
pub struct HeaderState {
    /// The sample open now (its path), selected in the sample menu.
    pub open_sample: Signal<Option<String>>,
    /// Whether runs are kept in this browser.
    pub keep: RwSignal<bool>,
    /// The screen shown (its tab is marked).
    pub route: Memo<Route>,
    /// The folder picker (the shell sets `webkitdirectory` on it).
    pub folder: NodeRef<html::Input>,
    /// The paste field.
    pub paste: NodeRef<html::Textarea>,
    /// The URL field.
    pub url: NodeRef<html::Input>,
}

/// The header. `status` is the load's state (progress, its figures, what keeping said) in the
/// controls' row, so that it takes no line of its own on a wide screen.
pub fn header<P, S, C, U, T, K, F>(
    state: HeaderState,
    on: Controls<P, S, C, U, T, K, F>,
    status: impl IntoView + 'static,
) -> impl IntoView
where
    P: Fn(ev::Event) + Copy + 'static,
    S: FnMut(ev::Event) + 'static,
    C: FnMut(ev::MouseEvent) + 'static,
    U: FnMut(ev::SubmitEvent) + 'static,
    T: FnMut(ev::MouseEvent) + 'static,
    K: FnMut(ev::Event) + 'static,
    F: FnMut(ev::MouseEvent) + 'static,
{
    let HeaderState {
        open_sample,
        keep,
        route,
        folder,
        paste,
        url,
    } = state;
    let Controls {
        pick,
        sample,
        clear,
        url: on_url,
        paste: on_paste,
        keep: on_keep,
        forget,
    } = on;
    let tab = move |href: &'static str, label: &'static str, is: fn(Route) -> bool| {
        view! { <a href=href aria-current=move || is(route.get()).then_some("page")>{label}</a> }
    };
    view! {
        <header class="viewer-page-header">
            <div class="viewer-page-title">
                <h1>"tpsview"</h1>
                <p class="viewer-page-tagline">"What does this tokens-per-second number actually measure? Files stay on this machine."</p>
            </div>
            <div class="viewer-page-controls">
                <label class="viewer-page-button">
                    "Open benchmark files"
                    <input type="file" multiple accept=ACCEPT data-testid="file-input" on:change=pick/>
                </label>
                <label class="viewer-page-button button-secondary">
                    "Open a folder"
                    <input type="file" node_ref=folder multiple data-testid="folder-input" on:change=pick/>
                </label>
                <label class="viewer-page-sample">
                    "Sample "
                    <select on:change=sample aria-label="load a sample report"
                        prop:value=move || open_sample.get().unwrap_or_default()>
                        <option value="">"choose…"</option>
                        {load::SAMPLES.iter().map(|(label, path)| view! {
                            <option value=*path selected=open_sample.get_untracked().as_deref() == Some(*path)>{*label}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button type="button" data-testid="clear" on:click=clear>"Clear"</button>
                <details class="viewer-page-more" data-testid="more">
                    <summary>"More"</summary>
                    <div class="viewer-page-more-panel">
                        <form class="url-load" on:submit=on_url>
                            <input type="url" node_ref=url data-testid="url-input" aria-label="benchmark file URL"
                                placeholder="https://…/result.json"/>
                            <button type="submit" data-testid="url-load">"Load URL"</button>
                        </form>
                        <p class="viewer-page-keep">
                            <label>
                                <input type="checkbox" data-testid="keep-runs" prop:checked=move || keep.get() on:change=on_keep/>
                                " keep loaded runs in this browser"
                            </label>
                            <button type="button" data-testid="forget-all" on:click=forget>"Forget all"</button>
                        </p>
                        <details class="viewer-page-paste">
                            <summary>"…or paste JSON"</summary>
                            <textarea node_ref=paste aria-label="benchmark JSON" rows="4"></textarea>
                            <button type="button" on:click=on_paste>"Load pasted JSON"</button>
                        </details>
                        <p class="viewer-page-hint">"Files are read and computed here, in WebAssembly, and never sent anywhere. Drop files or a folder anywhere on the page."</p>
                    </div>
                </details>
                <div class="viewer-page-status">{status}</div>
            </div>
            <nav class="viewer-page-tabs" aria-label="sections">
                {tab("#viewer", "Viewer", |r| r == Route::Viewer)}
                {tab("#learn/1", "Learn", |r| matches!(r, Route::Learn(_)))}
                {tab("#model", "Decode model", |r| r == Route::Model)}
                {tab("#claim", "Read a claim", |r| r == Route::Claim)}
                {tab("#glossary", "Glossary", |r| r == Route::Glossary)}
            </nav>
        </header>
    }
}

/// Each file with every diagnostic about it: its own parse notes, and what grouping, pairing and
/// recomputation said (those name the file, or one of its objects as `file#k`).
pub fn statuses(
    files: &[load::LoadedFile],
    summary: &tpsview_core::summary::Summary,
) -> Vec<FileStatus> {
    files
        .iter()
        .map(|x| {
            let mut st = x.status.clone();
            if x.parsed.is_some() {
                let prefix = format!("{}#", st.name);
                st.diagnostics = summary
                    .diagnostics
                    .iter()
                    .filter(|d| d.file == st.name || d.file.starts_with(&prefix))
                    .cloned()
                    .collect();
            }
            st
        })
        .collect()
}

/// What the mapping panel of a file no reader knows does: read it again through a corrected
/// mapping; save a mapping as a file.
pub struct MapControls {
    /// (file index, correction): read the file through its mapping corrected so.
    pub on_map: Callback<(usize, tpsview_components::Correction)>,
    /// Save a mapping document.
    pub on_save: Callback<String>,
}

/// The Sources drawer: collapsed (the answer comes first), every file with how it was read.
pub fn sources(
    files: Signal<Vec<FileStatus>>,
    drawer: NodeRef<html::Details>,
    on_read_as: Callback<(usize, String)>,
    on_run_label: Callback<(usize, String)>,
    mapping: MapControls,
) -> impl IntoView {
    let MapControls { on_map, on_save } = mapping;
    view! {
        <details class="sources" data-testid="sources" node_ref=drawer>
            <summary>{move || format!("Sources ({})", files.with(Vec::len))}
                <span class="sources-hint">" — files, how each was read, run names"</span></summary>
            <DiagnosticsList files=files on_read_as=on_read_as on_run_label=on_run_label on_map=on_map on_save_map=on_save/>
        </details>
    }
}
