//! What was skipped or substituted while reading the files, and the files that could not be read.

use leptos::prelude::*;
use tpsview_core::error::{fold, Diagnostic, Severity};

/// At most this many lines of one file's warnings or notes (after folding repeats).
const LINES: usize = 200;

/// Diagnostics as lines, repeats over a file's objects folded into one (`error::fold`), at most
/// [`LINES`] of them and a line saying how many more.
fn folded_list(diags: &[Diagnostic]) -> impl IntoView {
    let folded = fold(diags);
    let more = folded.len().saturating_sub(LINES);
    view! {
        <ul>
            {folded.iter().take(LINES).map(|g| view! { <li>{g.to_string()}</li> }).collect_view()}
            {(more > 0).then(|| view! { <li>{format!("…and {more} more (tpsview summarize --json lists every one)")}</li> })}
        </ul>
    }
}

/// A file as loaded: its name, detected format, and either diagnostics or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub struct FileStatus {
    /// The file's name.
    pub name: String,
    /// The detected format's name, when it parsed.
    pub format: Option<String>,
    /// The format's id, when it parsed.
    pub format_id: Option<&'static str>,
    /// The run name its points take (the file's own label, or the one the user chose).
    pub run_label: String,
    /// Whether the file can be read again as another format (its bytes were kept).
    pub can_reread: bool,
    /// The error that stopped it, already in words.
    pub error: Option<String>,
    /// Recoverable problems.
    pub diagnostics: Vec<Diagnostic>,
    /// A file no reader knows: what it holds and the mapping it was read through.
    pub mapping: Option<tpsview_core::mapping::Panel>,
}

/// Lists loaded files with their format, errors (`data-testid="load-error"`) and diagnostics; each
/// file can be read again as another format and its run renamed (files with the same run name
/// form one run). Past [`PAGE`](crate::many::PAGE) files the list pages (`files-pager`): a folder
/// of hundreds of files builds one page of controls, not hundreds.
#[component]
pub fn DiagnosticsList(
    /// The files.
    files: Signal<Vec<FileStatus>>,
    /// Called with (file index, format id) when the user picks a format for a file.
    #[prop(optional)]
    on_read_as: Option<Callback<(usize, String)>>,
    /// Called with (file index, run name) when the user renames a file's run.
    #[prop(optional)]
    on_run_label: Option<Callback<(usize, String)>>,
    /// Called with (file index, correction) when the user corrects a file's mapping.
    #[prop(optional)]
    on_map: Option<Callback<(usize, crate::mapping_panel::Correction)>>,
    /// Called with a mapping document to save as a file.
    #[prop(optional)]
    on_save_map: Option<Callback<String>>,
) -> impl IntoView {
    let page = RwSignal::new(0usize);
    let count = Signal::derive(move || files.with(Vec::len));
    view! {
        {crate::many::pager(count, page, "files-pager")}
        <ul class="diagnostics-list" aria-label="loaded files">
            {move || files.with(|files| {
                let shown = crate::many::page_range(files.len(), page.get());
                files.iter().enumerate().skip(shown.start).take(shown.len()).map(|(i, f)| {
                let warnings: Vec<_> = f.diagnostics.iter().filter(|d| d.severity == Severity::Warning).cloned().collect();
                let notes: Vec<_> = f.diagnostics.iter().filter(|d| d.severity == Severity::Info).cloned().collect();
                view! {
                    <li class="diagnostics-list-file">
                        <span class="diagnostics-list-name">{f.name.clone()}</span>
                        {f.format.clone().map(|fmt| view! { <span class="diagnostics-list-format">{format!(" — {fmt}")}</span> })}
                        {(f.can_reread && on_read_as.is_some()).then(|| {
                            let current = f.format_id;
                            view! {
                                <label class="diagnostics-list-control">
                                    " read as "
                                    <select data-testid="read-as" aria-label=format!("read {} as", f.name)
                                        on:change=move |ev| {
                                            let v = event_target_value(&ev);
                                            if let (Some(cb), false) = (on_read_as, v.is_empty()) {
                                                cb.run((i, v));
                                            }
                                        }>
                                        {current.is_none().then(|| view! { <option value="" selected=true>"choose a format…"</option> })}
                                        // A mapping is offered by the file's own panel, not here.
                                        {tpsview_core::Format::ALL.iter().filter(|fm| **fm != tpsview_core::Format::Mapped || current == Some(fm.id())).map(|fm| view! {
                                            <option value=fm.id() selected=current == Some(fm.id())>{fm.name()}</option>
                                        }).collect_view()}
                                    </select>
                                </label>
                            }
                        })}
                        {(f.format.is_some() && on_run_label.is_some()).then(|| view! {
                            <label class="diagnostics-list-control">
                                " run "
                                <input type="text" data-testid="run-label" aria-label=format!("run name of {}", f.name)
                                    prop:value=f.run_label.clone()
                                    on:change=move |ev| {
                                        if let Some(cb) = on_run_label {
                                            cb.run((i, event_target_value(&ev)));
                                        }
                                    }/>
                            </label>
                        })}
                        {f.error.clone().map(|e| view! { <p class="diagnostics-list-error" role="alert" data-testid="load-error">{e}</p> })}
                        {f.mapping.clone().zip(on_map.zip(on_save_map)).map(|(panel, (on_map, on_save))| view! {
                            <crate::MappingPanel file=f.name.clone() panel=panel
                                on_edit=Callback::new(move |c| on_map.run((i, c))) on_save=on_save/>
                        })}
                        {(!warnings.is_empty()).then(|| view! {
                            <details class="diagnostics-list-warnings">
                                <summary>{format!("{} skipped or questionable", warnings.len())}</summary>
                                {folded_list(&warnings)}
                            </details>
                        })}
                        {(!notes.is_empty()).then(|| view! {
                            <details class="diagnostics-list-notes">
                                <summary>{match notes.len() { 1 => "1 note on how it was read".to_owned(), n => format!("{n} notes on how it was read") }}</summary>
                                {folded_list(&notes)}
                            </details>
                        })}
                    </li>
                }
            }).collect_view()})}
        </ul>
    }
}
