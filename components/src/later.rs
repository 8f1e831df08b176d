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

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    static PENDING: Cell<u32> = const { Cell::new(0) };
    static LATER: RefCell<Option<Later>> = const { RefCell::new(None) };
}

/// Work waiting for its task, first come first run.
type Queue = Rc<RefCell<VecDeque<Box<dyn FnOnce()>>>>;

/// The page's "later" tasks: messages on a channel of its own. A zero-delay timer would do the
/// same, but browsers hold a timer back at least 4 ms once timers nest five deep (a load's
/// dozen steps, each scheduling the next, waited ~30 ms for nothing), and a message runs as soon
/// as the thread is free.
struct Later {
    port: web_sys::MessagePort,
    queue: Queue,
    /// Kept alive with the channel's receiving end.
    _receiver: web_sys::MessagePort,
    _on_message: Closure<dyn FnMut()>,
}

/// Runs `f` in a task of its own, after the tasks already waiting (see [`Later`]); where no
/// message channel can be made, after the current task's work (a microtask).
pub fn in_next_task(f: impl FnOnce() + 'static) {
    // One body for every caller's closure.
    in_next_task_boxed(Box::new(f));
}

fn in_next_task_boxed(f: Box<dyn FnOnce()>) {
    let posted = LATER.with_borrow_mut(|later| {
        if later.is_none() {
            let channel = web_sys::MessageChannel::new().ok()?;
            let queue: Queue = Rc::default();
            let q = queue.clone();
            let on_message = Closure::<dyn FnMut()>::new(move || {
                // Taken out before it runs: it may ask for later tasks itself.
                let next = q.borrow_mut().pop_front();
                if let Some(f) = next {
                    f();
                }
            });
            let receiver = channel.port1();
            receiver.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            *later = Some(Later {
                port: channel.port2(),
                queue,
                _receiver: receiver,
                _on_message: on_message,
            });
        }
        let later = later.as_ref()?;
        later.port.post_message(&JsValue::UNDEFINED).ok()?;
        Some(later.queue.clone())
    });
    match posted {
        Some(queue) => queue.borrow_mut().push_back(f),
        // Never in the browsers the app supports; still run, after the current work.
        None => leptos::task::spawn_local(async move { f() }),
    }
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

    /// Runs `f` in a task of its own ([`in_next_task`]), unless `run_later` is called on this
    /// stream again before then, or its owner is gone. The page counts as busy until then.
    pub fn run_later(self, f: impl FnOnce() + 'static) {
        let g = self.0.get_value() + 1;
        self.0.set_value(g);
        let pending = Pending::hold();
        in_next_task(move || {
            if self.0.try_get_value() == Some(g) {
                f();
            }
            // Released after `f`: work that `f` asks for is counted before this is.
            drop(pending);
        });
    }
}

impl Default for Latest {
    fn default() -> Self {
        Self::new()
    }
}
