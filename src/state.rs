//! The app's shared state: the files loaded so far. The summary is derived from them by the core.

use leptos::prelude::*;
use tpsview_components::FileStatus;
use tpsview_core::formats::Parsed;

/// One file as loaded: what the user sees about it, and its data when it parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedFile {
    /// Name, format, error, diagnostics.
    pub status: FileStatus,
    /// The data, when the file parsed.
    pub parsed: Option<Parsed>,
    /// True for the built-in example, which the user's first own file replaces.
    pub is_sample: bool,
}

/// Loaded files, provided as context by the page.
#[derive(Clone, Copy)]
pub struct Files(pub RwSignal<Vec<LoadedFile>>);

impl Files {
    /// Adds files; the built-in example gives way to the user's first own files.
    pub fn add(&self, new: Vec<LoadedFile>) {
        self.0.update(|files| {
            if new.iter().any(|f| !f.is_sample) && files.iter().all(|f| f.is_sample) {
                files.clear();
            }
            files.extend(new);
        });
    }
}

/// Makes the loaded-files signal available to the page's children.
pub fn provide_files_context() -> Files {
    let files = Files(RwSignal::new(Vec::new()));
    provide_context(files);
    files
}
