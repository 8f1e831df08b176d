//! What was skipped or substituted while reading the files, and the files that could not be read.

use leptos::prelude::*;
use tpsview_core::error::{Diagnostic, Severity};

/// A file as loaded: its name, detected format, and either diagnostics or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub struct FileStatus {
    /// The file's name.
    pub name: String,
    /// The detected format's name, when it parsed.
    pub format: Option<String>,
    /// The error that stopped it, already in words.
    pub error: Option<String>,
    /// Recoverable problems.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lists loaded files with their format, errors (`data-testid="load-error"`) and diagnostics.
#[component]
pub fn DiagnosticsList(
    /// The files.
    files: Signal<Vec<FileStatus>>,
) -> impl IntoView {
    view! {
        <ul class="diagnostics-list" aria-label="loaded files">
            {move || files.with(|files| files.iter().map(|f| {
                let warnings: Vec<_> = f.diagnostics.iter().filter(|d| d.severity == Severity::Warning).cloned().collect();
                let notes: Vec<_> = f.diagnostics.iter().filter(|d| d.severity == Severity::Info).cloned().collect();
                view! {
                    <li class="diagnostics-list-file">
                        <span class="diagnostics-list-name">{f.name.clone()}</span>
                        {f.format.clone().map(|fmt| view! { <span class="diagnostics-list-format">{format!(" — {fmt}")}</span> })}
                        {f.error.clone().map(|e| view! { <p class="diagnostics-list-error" role="alert" data-testid="load-error">{e}</p> })}
                        {(!warnings.is_empty()).then(|| view! {
                            <details class="diagnostics-list-warnings">
                                <summary>{format!("{} skipped or questionable", warnings.len())}</summary>
                                <ul>{warnings.into_iter().take(200).map(|d| view! { <li>{d.to_string()}</li> }).collect_view()}</ul>
                            </details>
                        })}
                        {(!notes.is_empty()).then(|| view! {
                            <details class="diagnostics-list-notes">
                                <summary>{format!("{} notes on how it was read", notes.len())}</summary>
                                <ul>{notes.into_iter().map(|d| view! { <li>{d.to_string()}</li> }).collect_view()}</ul>
                            </details>
                        })}
                    </li>
                }
            }).collect_view())}
        </ul>
    }
}
