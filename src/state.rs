//! The app's shared state: the files loaded so far, and the analysis the core derives from them.

use leptos::prelude::*;
use tpsview_core::group::RunKey;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::model::Report;
use tpsview_core::summary::{summarize_report, Summary};
use tpsview_core::vocabulary::RunId;

use crate::load::LoadedFile;

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

    /// Puts `new` (file `i` read again) in file `i`'s place, keeping the user's run name.
    pub fn replace(&self, i: usize, mut new: LoadedFile) {
        self.0.update(|files| {
            let Some(old) = files.get(i) else { return };
            if old.status.name != new.status.name {
                return;
            }
            new.user_label.clone_from(&old.user_label);
            if let (Some(p), Some(l)) = (new.parsed.as_mut(), old.user_label.clone()) {
                new.status.run_label.clone_from(&l);
                p.run_label = Some(l);
            }
            new.is_sample = old.is_sample;
            files[i] = new;
        });
    }

    /// Removes a run: the runs of every file that were grouped into it (see [`RunKey`]), and the
    /// files left without runs. Another run with the same label (another model) stays.
    pub fn remove_run(&self, key: &RunKey) {
        self.0.update(|files| {
            files.retain_mut(|f| {
                let Some(p) = f.parsed.as_mut() else {
                    return true;
                };
                let keep: Vec<bool> = (0..p.report.runs.len()).map(|r| !key.takes(p, r)).collect();
                let mut k = keep.iter();
                p.report.runs.retain(|_| *k.next().unwrap_or(&true));
                !p.report.runs.is_empty()
            });
        });
    }

    /// The key of run `id` of `report` (grouped from these files), if it has one.
    pub fn key_of(&self, report: &Report, id: &RunId) -> Option<RunKey> {
        let i = report.run_ids().iter().position(|r| r == id)?;
        self.0.with_untracked(|files| {
            let parsed: Vec<&tpsview_core::Parsed> =
                files.iter().filter_map(|f| f.parsed.as_ref()).collect();
            Some(RunKey::of_grouped(&report.runs[i], &parsed))
        })
    }

    /// Sets the concurrency of every level of file `name` that records none (the fix an empty
    /// concurrency chart offers); `name` may carry a `#k` object suffix. Returns how many levels
    /// it set.
    pub fn set_concurrency(&self, name: &str, concurrency: f64) -> usize {
        if !(concurrency > 0.0 && concurrency.is_finite()) {
            return 0;
        }
        let base = name.split_once('#').map_or(name, |(b, _)| b);
        let mut set = 0;
        self.0.update(|files| {
            for f in files.iter_mut().filter(|f| f.status.name == base) {
                let Some(p) = f.parsed.as_mut() else { continue };
                for point in p.report.runs.iter_mut().flat_map(|r| r.points.iter_mut()) {
                    if point.concurrency.is_none() {
                        point.concurrency = Some(concurrency);
                        set += 1;
                    }
                }
            }
        });
        set
    }

    /// Names the run of file `i`: files given the same name form one run; an empty name restores
    /// the grouping by the files' own labels.
    pub fn set_run_label(&self, i: usize, label: String) {
        self.0.update(|files| {
            let Some(f) = files.get_mut(i) else { return };
            let Some(p) = f.parsed.as_mut() else { return };
            let label = label.trim().to_owned();
            f.user_label = (!label.is_empty()).then(|| label.clone());
            if label.is_empty() {
                p.run_label = None;
                f.status.run_label = p
                    .report
                    .runs
                    .first()
                    .map(|r| r.label.to_string())
                    .unwrap_or_default();
            } else {
                p.run_label = Some(label.clone());
                f.status.run_label = label;
            }
        });
    }
}

/// Files grouped into runs, and what grouping said (pairs made, levels claimed twice).
#[derive(Debug, Clone, PartialEq)]
pub struct Grouped {
    /// The runs.
    pub report: Report,
    /// Grouping's diagnostics.
    pub diagnostics: Vec<tpsview_core::Diagnostic>,
}

impl std::ops::Deref for Grouped {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

/// The grouped report and its summary, derived once for every page.
#[derive(Clone, Copy)]
pub struct Analysis {
    /// Files grouped into runs.
    pub report: Memo<Grouped>,
    /// Every figure of every run; computed in a task of its own after the report changes, and
    /// set in another, so that neither the arithmetic nor the redraw it causes holds the page's
    /// thread long after a big file arrives.
    pub summary: ReadSignal<Summary>,
    /// True once `summary` is the summary of the current `report` (false from a change of the
    /// files until its summary is set): the viewer shows it as `data-ready`.
    pub ready: ReadSignal<bool>,
}

/// The view (baseline, hidden runs, chart choices), provided as context by the shell.
#[derive(Clone, Copy)]
pub struct ViewSig(pub RwSignal<crate::view::View>);

/// The files grouped into runs.
pub fn grouped(files: &[LoadedFile]) -> Grouped {
    let (report, diagnostics) =
        tpsview_core::group::group(files.iter().filter_map(|x| x.parsed.clone()).collect());
    Grouped {
        report,
        diagnostics,
    }
}

/// Every figure of every run, with what grouping and recomputation said.
pub fn summary_of(g: &Grouped) -> Summary {
    let (mut runs, more) = summarize_report(g, &MetricOptions::default());
    // Runs that repeat a setup: their levels' figures over the repeats (the diff judges system
    // T/s and requests/s over them, as `tpsview compare` does).
    tpsview_core::noise::apply_repeats(&mut runs);
    let mut diagnostics = g.diagnostics.clone();
    diagnostics.extend(more);
    Summary { runs, diagnostics }
}

/// Provides the files, the view and the analysis derived from them.
pub fn provide_state() -> (Files, Analysis, ViewSig) {
    let files = Files(RwSignal::new(Vec::new()));
    let view = ViewSig(RwSignal::new(crate::view::View::default()));
    let report = Memo::new(move |_| files.0.with(|f| grouped(f)));
    let summary = RwSignal::new(Summary {
        runs: Vec::new(),
        diagnostics: Vec::new(),
    });
    // Computed in one task, set in the next; only the latest report's summary is set.
    let summaries = tpsview_components::Latest::new();
    let ready = RwSignal::new(false);
    Effect::new(move |_| {
        report.track();
        ready.set(false);
        summaries.run_later(move || {
            let Some(s) = report.try_with_untracked(summary_of) else {
                return;
            };
            summaries.run_later(move || {
                summary.try_set(s);
                ready.try_set(true);
            });
        });
    });
    let analysis = Analysis {
        report,
        summary: summary.read_only(),
        ready: ready.read_only(),
    };
    provide_context(files);
    provide_context(analysis);
    provide_context(view);
    (files, analysis, view)
}

/// The view, for pages under the shell.
pub fn use_view() -> ViewSig {
    expect_context::<ViewSig>()
}

/// The loaded files, for pages under the shell.
pub fn use_files() -> Files {
    expect_context::<Files>()
}

/// The analysis, for pages under the shell (which provides it).
pub fn use_analysis() -> Analysis {
    expect_context::<Analysis>()
}

// A path of its own: the teaching module's binary includes this file too (src/bin/).
#[cfg(test)]
#[path = "state/tests.rs"]
mod tests;
