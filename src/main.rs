//! The tpsview web app: mounts the viewer page. Everything runs in the browser; no report leaves
//! the machine. Built for wasm32 by Trunk; natively this binary only says so.

#[cfg(target_arch = "wasm32")]
mod load;
#[cfg(target_arch = "wasm32")]
mod loader;
#[cfg(target_arch = "wasm32")]
mod messages;
#[cfg(target_arch = "wasm32")]
mod pages;
#[cfg(target_arch = "wasm32")]
mod route;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod shell;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
mod worker;

#[cfg(target_arch = "wasm32")]
fn main() {
    // The same module runs the loading worker (see loader.rs): there is no window there.
    if web_sys::window().is_none() {
        worker::run();
        return;
    }
    leptos::mount::mount_to_body(shell::AppShell);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "tpsview-web is the browser app: build it with `trunk build --release` (see README.md)"
    );
}
