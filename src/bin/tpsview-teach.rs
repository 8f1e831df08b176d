//! The teaching screens' own module — the walkthrough, the decode model, the claim reader and the
//! glossary (`src/teach.rs`) — built apart from the page (`src/main.rs`) so that the page does not
//! carry them: rarely opened, they cost the page 31 KB gzip (docs/performance.md). The page loads
//! this module the first time one of their routes opens (`src/shell/teach.rs`) and hands it its
//! runs as a tpsview/1 bundle; natively this binary only says so.
// The app's modules it shares are the page's too: parts of them only the page uses.
#![allow(dead_code)]

#[cfg(target_arch = "wasm32")]
#[path = "../load.rs"]
mod load;
#[cfg(target_arch = "wasm32")]
#[path = "../messages.rs"]
mod messages;
#[cfg(target_arch = "wasm32")]
#[path = "../route.rs"]
mod route;
#[cfg(target_arch = "wasm32")]
#[path = "../state.rs"]
mod state;
#[cfg(target_arch = "wasm32")]
#[path = "../teach.rs"]
mod teach;
#[cfg(target_arch = "wasm32")]
#[path = "../view.rs"]
mod view;

#[cfg(target_arch = "wasm32")]
fn main() {
    teach::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "tpsview-teach is the browser app's teaching screens: `trunk build --release` builds it"
    );
}
