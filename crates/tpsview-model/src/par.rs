//! Work split in two where the caller has two cores. The core starts no thread of its own (it
//! also runs in a browser worker, and does no I/O), so a native caller installs a join once
//! ([`set_join`], e.g. `rayon::join`); the hot loops that split well — the byte scanner on a big
//! chunk of chunk gaps, the histogram and gathering behind percentiles of millions of values —
//! then run their two halves through it. Without one installed, both halves run in turn here.

use std::sync::OnceLock;

/// Runs both closures, in parallel where it can, and returns when both have.
pub type Join = fn(&mut (dyn FnMut() + Send), &mut (dyn FnMut() + Send));

static JOIN: OnceLock<Join> = OnceLock::new();

/// Installs the join the core splits work through (once; later calls are ignored).
pub fn set_join(join: Join) {
    let _ = JOIN.set(join);
}

/// Whether a join was installed: splitting work costs a little, worth it only with two cores.
pub fn parallel() -> bool {
    JOIN.get().is_some()
}

/// `(a(), b())`, through the installed join.
pub fn join<RA: Send, RB: Send>(
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB) {
    let Some(j) = JOIN.get() else {
        return (a(), b());
    };
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut ra, mut rb) = (None, None);
    j(&mut || ra = a.take().map(|f| f()), &mut || {
        rb = b.take().map(|f| f())
    });
    // A join that skipped a closure: what it left runs here.
    let ra = ra.or_else(|| a.take().map(|f| f()));
    let rb = rb.or_else(|| b.take().map(|f| f()));
    (
        ra.expect("the closure ran, in the join or here"),
        rb.expect("the closure ran, in the join or here"),
    )
}
