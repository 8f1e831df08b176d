//! Keeping runs in this browser's storage (never elsewhere): off until the user ticks it, or a
//! kept set was restored; while on, every change is written.

use leptos::prelude::*;

use crate::share;
use crate::state::{Analysis, ViewSig};
use crate::view::bundle;

/// Whether runs are kept, and what the page says of it.
#[derive(Clone, Copy)]
pub(super) struct Keeping {
    /// On while runs are kept.
    pub on: RwSignal<bool>,
    /// What was last done (kept, restored, forgotten, a storage error).
    pub status: ReadSignal<Option<String>>,
    set_status: WriteSignal<Option<String>>,
}

impl Keeping {
    /// Off; while on, the report and view are written to this browser's storage on each change.
    pub(super) fn new(analysis: Analysis, view: ViewSig) -> Keeping {
        let (status, set_status) = signal(None::<String>);
        let on = RwSignal::new(false);
        Effect::new(move |_| {
            if !on.get() {
                return;
            }
            let text = analysis.report.with(|g| {
                view.0
                    .with(|v| bundle(&tpsview_core::formats::tpsview::write(&g.report), v))
            });
            if let Err(e) = share::keep(&text) {
                set_status.set(Some(e));
            }
        });
        Keeping {
            on,
            status,
            set_status,
        }
    }

    /// Runs restored from this browser: keeping stays on.
    pub(super) fn restored(self) {
        self.on.set(true);
        self.set_status
            .set(Some("Restored the runs kept in this browser.".into()));
    }

    /// The box ticked or not.
    pub(super) fn set(self, on: bool) {
        self.on.set(on);
        if on {
            self.set_status.set(Some(
                "Loaded runs are kept in this browser's storage (on this machine only) until you forget them.".into(),
            ));
        } else {
            share::forget();
            self.set_status
                .set(Some("Nothing is kept in this browser.".into()));
        }
    }

    /// Forget what is kept.
    pub(super) fn forget(self) {
        self.on.set(false);
        share::forget();
        self.set_status
            .set(Some("Forgotten: nothing is kept in this browser.".into()));
    }
}
