//! The loading worker's own module: the importers and everything else reading a file needs
//! (`src/worker.rs`), built apart from the page (`src/main.rs`) so that the page does not carry
//! them. `public/loader-worker.js` starts it in a dedicated Web Worker when the page first loads
//! a file (or prefetches it when idle); natively this binary only says so.
// The app's modules it shares are the page's too: parts of them only the page uses.
#![allow(dead_code)]

#[cfg(target_arch = "wasm32")]
#[path = "../messages.rs"]
mod messages;
#[cfg(target_arch = "wasm32")]
#[path = "../view.rs"]
mod view;
#[cfg(target_arch = "wasm32")]
#[path = "../worker.rs"]
mod worker;

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "tpsview-worker is the browser app's loading worker: `trunk build --release` builds it"
    );
}
