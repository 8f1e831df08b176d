//! The tpsview web app: mounts the viewer page. Everything runs in the browser; no report leaves
//! the machine. Built for wasm32 by Trunk; natively this binary only says so, but the app's pure
//! logic — routes, the view state, messages, loading bytes into files, the file-list operations —
//! compiles natively too, so that `cargo test` tests it.
// Natively, the browser-only modules that use much of the pure logic are not compiled.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod load;
#[cfg(target_arch = "wasm32")]
mod loader;
mod messages;
#[cfg(target_arch = "wasm32")]
mod pages;
mod route;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod shell;
mod state;
mod view;

#[cfg(target_arch = "wasm32")]
fn main() {
    // index.html's "loading" note (and its failure message, public/boot.js) gives way to the app.
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(shell::AppShell);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "tpsview-web is the browser app: build it with `trunk build --release` (see README.md)"
    );
}
