//! Work moved out of the current task: several redraws or recomputations asked for in one burst
//! (a big file arriving changes many signals) then run as tasks of their own instead of adding up
//! to one long task on the page's thread, and only the latest request of each runs.
//!
//! Every piece of such work, and anything else that finishes later (a load in a worker), holds a
//! [`Pending`] while it waits. Their count is published on the document element as `data-busy`,
//! so that a test (or anyone watching the page) can wait for the state "all work asked for so far
//! is done" instead of for a length of time: `document.documentElement.dataset.busy === "0"`.
//! This count is the one piece of page-wide state the components keep: it describes the page, it
//! holds no data of the app's.

use std::cell::Cell;

use leptos::prelude::*;

thread_local! {
    static PENDING: Cell<u32> = const { Cell::new(0) };
}

/// How many pieces of deferred work are waiting or running now.
pub fn pending() -> u32 {
    PENDING.get()
}

fn publish(n: u32) {
    PENDING.set(n);
    // In a worker (no document) or natively there is nothing to publish to.
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-busy", &n.to_string());
    }
}

/// One piece of work that will finish later; the page counts as busy until it is dropped.
#[must_use = "the work counts as pending only while this is held"]
pub struct Pending(());

impl Pending {
    /// Counts one more piece of pending work.
    pub fn hold() -> Self {
        publish(pending() + 1);
        Pending(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        publish(pending().saturating_sub(1));
    }
}

/// One stream of deferred work: a later request supersedes the ones not yet run.
#[derive(Clone, Copy)]
pub struct Latest(StoredValue<u64>);

impl Latest {
    /// A stream with nothing pending.
    pub fn new() -> Self {
        Latest(StoredValue::new(0))
    }

    /// Runs `f` in a task of its own (a zero-delay timer), unless `run_later` is called on this
    /// stream again before then, or its owner is gone. The page counts as busy until then.
    pub fn run_later(self, f: impl FnOnce() + 'static) {
        let g = self.0.get_value() + 1;
        self.0.set_value(g);
        let pending = Pending::hold();
        set_timeout(
            move || {
                if self.0.try_get_value() == Some(g) {
                    f();
                }
                // Released after `f`: work that `f` asks for is counted before this is.
                drop(pending);
            },
            std::time::Duration::ZERO,
        );
    }
}

impl Default for Latest {
    fn default() -> Self {
        Self::new()
    }
}
