//! The tpsview web app: mounts the viewer page. Everything runs in the browser; no report leaves
//! the machine. Built for wasm32 by Trunk; natively this binary only says so, but the app's pure
//! logic — routes, the view state, messages, loading bytes into files, the file-list operations —
//! compiles natively too, so that `cargo test` tests it.
// Natively, the browser-only modules that use much of the pure logic are not compiled.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod header;
mod load;
#[cfg(target_arch = "wasm32")]
mod loader;
mod mappings;
mod messages;
#[cfg(target_arch = "wasm32")]
mod pages;
#[cfg(not(target_arch = "wasm32"))]
mod prerender;
mod route;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod shell;
mod state;
mod view;

#[cfg(target_arch = "wasm32")]
fn main() {
    // Mounted hidden into #app, under index.html's prerendered first view (#boot), which
    // public/boot.js removes once the app shows the same (or at once, for someone else's data).
    let document = leptos::prelude::document();
    match document.get_element_by_id("app") {
        Some(el) => {
            leptos::mount::mount_to(wasm_bindgen::JsCast::unchecked_into(el), shell::AppShell)
                .forget()
        }
        None => leptos::mount::mount_to_body(shell::AppShell),
    }
}

/// Natively: `first-view` writes the prerendered first view (`prerender.rs`); anything else says
/// how to build the app.
#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("first-view") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(prerender::PATH);
        let html = prerender::first_view_html();
        if let Err(e) = std::fs::write(&path, &html) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
        eprintln!("wrote {} ({} bytes)", path.display(), html.len());
        return std::process::ExitCode::SUCCESS;
    }
    eprintln!(
        "tpsview-web is the browser app: build it with `trunk build --release` (see README.md); `cargo run -p tpsview-web -- first-view` writes its prerendered first view"
    );
    std::process::ExitCode::FAILURE
}
