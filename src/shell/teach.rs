//! Where the teaching screens mount. Their module (`src/teach.rs`, built as
//! `src/bin/tpsview-teach.rs`) is loaded the first time one of their routes opens, from the file
//! `<meta name="tpsview-teach">` names (pkg-config/csp.py, or the report's own copy); the page
//! hands it its runs as the tpsview/1 bundle a kept set holds, with the view.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::state::{Analysis, ViewSig};
use crate::view::bundle;

/// See `src/teach.rs`.
const DATA: &str = "__tpsviewTeach";
/// See `src/teach.rs`.
const EVENT: &str = "tpsview-teach";

/// `#teach`, with a note until the module has mounted there; the bundle handed over whenever
/// the runs or the view change.
pub(super) fn mount_point(analysis: Analysis, view: ViewSig) -> impl IntoView {
    Effect::new(move |_| {
        let text = analysis.report.with(|g| {
            view.0
                .with(|v| bundle(&tpsview_core::formats::tpsview::write(&g.report), v))
        });
        if let Err(e) = hand_over(&text) {
            if let Some(el) = leptos::prelude::document().get_element_by_id("teach-wait") {
                el.set_text_content(Some(&e));
            }
        }
    });
    view! {
        <div class="teach">
            <p id="teach-wait" class="viewer-page-note" role="status">"Loading the walkthrough, the decode model and the glossary…"</p>
            <div id="teach" data-testid="teach"></div>
        </div>
    }
}

/// Puts the bundle where the module reads it; loads the module once, or tells it to mount again.
fn hand_over(text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    js_sys::Reflect::set(&window, &JsValue::from_str(DATA), &JsValue::from_str(text))
        .map_err(|_| "the teaching screens cannot be given the runs")?;
    if document.get_element_by_id("tpsview-teach-script").is_some() {
        let event = web_sys::Event::new(EVENT).map_err(|_| "no event")?;
        let _ = window.dispatch_event(&event);
        return Ok(());
    }
    let src = document
        .query_selector("meta[name=tpsview-teach]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .ok_or("This build has no teaching module (build it with `trunk build`).")?;
    let script = document
        .create_element("script")
        .map_err(|_| "no script element")?;
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("id", "tpsview-teach-script");
    let _ = script.set_attribute("src", &src);
    document
        .head()
        .ok_or("no head")?
        .append_child(script.unchecked_ref())
        .map_err(|_| "the teaching module cannot be loaded")?;
    Ok(())
}
