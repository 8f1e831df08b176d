//! The app's shared state: the files loaded so far, and the analysis the core derives from them.

use leptos::prelude::*;
use tpsview_components::FileStatus;
use tpsview_core::formats::Parsed;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::model::Report;
use tpsview_core::summary::{summarize_report, Summary};

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

/// Loaded files, provided as context by the shell.
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

/// The grouped report and its summary, derived once for every page.
#[derive(Clone, Copy)]
pub struct Analysis {
    /// Files grouped into runs.
    pub report: Memo<Report>,
    /// Every figure of every run.
    pub summary: Memo<Summary>,
}

/// Provides the files and the analysis derived from them.
pub fn provide_state() -> (Files, Analysis) {
    let files = Files(RwSignal::new(Vec::new()));
    let report = Memo::new(move |_| {
        files.0.with(|f| {
            tpsview_core::group::group(f.iter().filter_map(|x| x.parsed.clone()).collect()).0
        })
    });
    let summary = Memo::new(move |_| {
        let (runs, diagnostics) = report.with(|r| summarize_report(r, &MetricOptions::default()));
        Summary { runs, diagnostics }
    });
    let analysis = Analysis { report, summary };
    provide_context(files);
    provide_context(analysis);
    (files, analysis)
}

/// The analysis, for pages under the shell (which provides it).
pub fn use_analysis() -> Analysis {
    expect_context::<Analysis>()
}
