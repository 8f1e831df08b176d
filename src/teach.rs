//! The teaching screens (the walkthrough, the decode model, the claim reader, the glossary), in
//! their own module (`src/bin/tpsview-teach.rs`), loaded by the page on first use
//! (`src/shell/teach.rs`). The page renders `#teach` and puts its runs, as the tpsview/1 bundle a
//! kept set or a link holds (with its view: SLO, price, GPU counts), in
//! `window.__tpsviewTeach`; this module mounts its own app there when it starts and again on each
//! `tpsview-teach` event (a new `#teach`, or new runs). Its own hash listener picks the screen.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::load;
use crate::route::{current_hash, Route};
use crate::state::provide_state;

#[path = "pages/capacity.rs"]
mod capacity;
#[path = "pages/glossary_page.rs"]
mod glossary_page;
#[path = "pages/learn_page.rs"]
mod learn_page;
#[path = "pages/model_page.rs"]
mod model_page;

use glossary_page::GlossaryPage;
use learn_page::LearnPage;
use model_page::{ClaimPage, ModelPage};

/// The property of `window` the page puts its bundle in, and the event that says it did.
pub const DATA: &str = "__tpsviewTeach";
/// See [`DATA`].
pub const EVENT: &str = "tpsview-teach";

thread_local! {
    /// The app mounted last; dropping it unmounts it.
    static MOUNTED: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
}

/// Mounts now, and again on each event of the page.
pub fn run() {
    mount();
    let again = Closure::<dyn Fn()>::new(mount);
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback(EVENT, again.as_ref().unchecked_ref());
    }
    again.forget();
}

/// Mounts the screens into `#teach` (when there is one) over the page's current bundle.
fn mount() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    MOUNTED.with(|m| m.borrow_mut().take());
    let Some(el) = document.get_element_by_id("teach") else {
        return;
    };
    let text = js_sys::Reflect::get(&window, &JsValue::from_str(DATA))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    el.set_inner_html("");
    let handle = leptos::mount::mount_to(el.clone().unchecked_into(), move || {
        view! { <Screens text=text.clone()/> }
    });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(handle)));
    let _ = el.set_attribute("data-ready", "true");
    if let Some(wait) = document.get_element_by_id("teach-wait") {
        let _ = wait.set_attribute("hidden", "");
    }
}

/// The screen the hash names, over the runs of `text` (a tpsview/1 bundle; none: the screens say
/// so, as on the page).
#[component]
fn Screens(text: String) -> impl IntoView {
    let (files, _, view) = provide_state();
    if !text.is_empty() {
        let runs = load::from_bytes("the page's runs", text.as_bytes(), false);
        if let Some(v) = load::bundle_view(&runs) {
            view.0.set(v);
        }
        files.add(vec![runs]);
    }
    let (hash, set_hash) = signal(current_hash());
    let _listener = window_event_listener(leptos::ev::hashchange, move |_| {
        set_hash.set(current_hash())
    });
    let route = Memo::new(move |_| Route::parse(&hash.get()));
    move || match route.get() {
        Route::Learn(step) => view! { <LearnPage step=step/> }.into_any(),
        Route::Model => view! { <ModelPage/> }.into_any(),
        Route::Claim => view! { <ClaimPage/> }.into_any(),
        Route::Glossary => view! { <GlossaryPage/> }.into_any(),
        Route::Viewer => ().into_any(),
    }
}
