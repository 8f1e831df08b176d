//! Loading files and URLs: one queue read in the loading worker, a file after another, with the
//! progress bar, Cancel and a note on what was left out; the picker's, a drop's and a folder's
//! files go through it.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::load;
use crate::loader;
use crate::messages;
use crate::state::{Files, ViewSig};
use crate::view::View;

/// Reads file `i` again in the worker (the page itself reads only tpsview/1) — from the file
/// picked, the URL, or the bytes kept — as `format`, or through `mapping`, in its place.
pub(super) fn reread(
    files: Files,
    progress: RwSignal<Option<loader::Progress>>,
    i: usize,
    format: Option<tpsview_core::Format>,
    mapping: Option<loader::MapEdit>,
) {
    let Some((source, name, sample)) = files.0.with_untracked(|f| {
        f.get(i)
            .map(|x| (loader::source_of(x), x.status.name.clone(), x.is_sample))
    }) else {
        return;
    };
    let Some(source) = source else { return };
    let pending = tpsview_components::Pending::hold();
    spawn_local(async move {
        let _pending = pending;
        if let loader::Outcome::Loaded(f, _, _) = loader::load(
            &name,
            &source,
            format,
            sample,
            (1, 1),
            progress,
            mapping.as_ref(),
        )
        .await
        {
            files.replace(i, *f);
        }
    });
}

/// The page's loads and what it shows of them.
#[derive(Clone, Copy)]
pub(super) struct Loads {
    files: Files,
    view: ViewSig,
    /// True while the queue is being read.
    pub busy: ReadSignal<bool>,
    set_busy: WriteSignal<bool>,
    /// The load in progress.
    pub progress: RwSignal<Option<loader::Progress>>,
    /// The figures of the last load that finished.
    pub finished: RwSignal<Option<loader::Finished>>,
    /// What the last loads left out or cancelled.
    pub note: ReadSignal<Option<String>>,
    /// Sets [`note`](Self::note).
    pub set_note: WriteSignal<Option<String>>,
}

impl Loads {
    pub(super) fn new(files: Files, view: ViewSig) -> Loads {
        let (busy, set_busy) = signal(false);
        let (note, set_note) = signal(None::<String>);
        Loads {
            files,
            view,
            busy,
            set_busy,
            progress: RwSignal::new(None),
            finished: RwSignal::new(None),
            note,
            set_note,
        }
    }

    /// Marks the page busy (a load outside the queue: a shared link's bundle).
    pub(super) fn set_busy(self, on: bool) {
        self.set_busy.set(on);
    }

    /// Reads `jobs` (name, source, whether a built-in sample) one after another in the worker;
    /// `then`: the view to show once they are read.
    pub(super) fn run(self, jobs: Vec<(String, loader::Source, bool)>, then: Option<View>) {
        let Loads {
            files,
            view,
            set_busy,
            progress,
            finished,
            set_note,
            ..
        } = self;
        set_note.set(None);
        if !loader::enqueue(jobs, then) {
            return; // the loop already running takes these too
        }
        set_busy.set(true);
        let pending = tpsview_components::Pending::hold();
        spawn_local(async move {
            let _pending = pending;
            while let Some(job) = loader::next_job() {
                let (name, position) = (job.name.clone(), job.position);
                match loader::load(
                    &name,
                    &job.source,
                    None,
                    job.sample,
                    position,
                    progress,
                    None,
                )
                .await
                {
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
                        set_note.set(Some(if dropped > 0 {
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
    }

    /// Reads URLs (each with whether it is a built-in sample); one of a scheme the page does not
    /// fetch is a file that failed, said.
    pub(super) fn urls(self, urls: Vec<(String, bool)>, then: Option<View>) {
        let mut jobs = Vec::new();
        for (u, sample) in urls {
            let name = load::url_name(&u);
            if load::scheme_ok(&u) {
                jobs.push((name, loader::Source::Url(u), sample));
            } else {
                self.files.add(vec![load::failed(
                    &name,
                    messages::fetch_error(&u, &messages::FetchFailure::Scheme),
                )]);
            }
        }
        self.run(jobs, then);
    }

    /// Files by name (a folder's by their paths in it): a folder's in natural order, less what a
    /// sweep's layout repeats, with a note saying what was left out.
    pub(super) fn named(self, named: Vec<(String, web_sys::File)>) {
        let (read, note) = load::from_folder(named);
        self.run(
            read.into_iter()
                .map(|(n, f)| (n, loader::Source::File(f), false))
                .collect(),
            None,
        );
        if note.is_some() {
            self.set_note.set(note);
        }
    }

    /// The files of a picker or a drop.
    pub(super) fn list(self, list: Option<web_sys::FileList>) {
        let Some(list) = list.map(|l| load::take_files(&l)) else {
            return;
        };
        self.named(
            list.into_iter()
                .map(|f| (load::picked_name(&f), f))
                .collect(),
        );
    }
}
