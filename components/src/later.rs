//! Work moved out of the current task: several redraws or recomputations asked for in one burst
//! (a big file arriving changes many signals) then run as tasks of their own instead of adding up
//! to one long task on the page's thread, and only the latest request of each runs.

use leptos::prelude::*;

/// One stream of deferred work: a later request supersedes the ones not yet run.
#[derive(Clone, Copy)]
pub struct Latest(StoredValue<u64>);

impl Latest {
    /// A stream with nothing pending.
    pub fn new() -> Self {
        Latest(StoredValue::new(0))
    }

    /// Runs `f` in a task of its own (a zero-delay timer), unless `run_later` is called on this
    /// stream again before then, or its owner is gone.
    pub fn run_later(self, f: impl FnOnce() + 'static) {
        let g = self.0.get_value() + 1;
        self.0.set_value(g);
        set_timeout(
            move || {
                if self.0.try_get_value() == Some(g) {
                    f();
                }
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
