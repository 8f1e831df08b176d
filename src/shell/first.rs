//! What the page opens first: the data of the `tpsview report` file it is, else an inline link's
//! bundle, else the permalink's sources, else runs kept in this browser, else the built-in
//! example.

use leptos::task::spawn_local;

use super::keeping::Keeping;
use super::loads::Loads;
use crate::load::{self, LoadedFile};
use crate::route::current_hash;
use crate::share;
use crate::state::Files;
use crate::view::View;

/// The `?src=` URLs (several allowed) and the `view` of the page's URL (its `map`, kept for the
/// loads).
fn url_params() -> (Vec<String>, Option<View>) {
    let Some(params) = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
    else {
        return (Vec::new(), None);
    };
    // The mapping the link carries, for its files no reader knows.
    if let Some(m) = params.get("map") {
        crate::mappings::link(&m);
    }
    let srcs = params
        .get_all("src")
        .iter()
        .filter_map(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .collect();
    (srcs, params.get("view").map(|v| View::from_json(&v)))
}

/// The data inside the `tpsview report` file this page was opened from (`<script
/// type="application/json" id="tpsview-bundle">`, a tpsview/1 bundle), named as the file is.
fn report_bundle() -> Option<(String, String)> {
    let document = web_sys::window()?.document()?;
    let text = document
        .get_element_by_id("tpsview-bundle")?
        .text_content()?;
    let path = document.location()?.pathname().ok()?;
    Some((load::url_name(&path), text))
}

/// Replaces the address's fragment without adding a history entry.
fn replace_hash(h: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(h);
    }
}

/// Opens what the page opens first; `add_files` adds read files (restoring a bundle's view).
pub(super) fn open_first(
    files: Files,
    loads: Loads,
    keeping: Keeping,
    add_files: impl Fn(Vec<LoadedFile>) + Copy + 'static,
) {
    let (srcs, url_view) = url_params();
    let hash_now = current_hash();
    if let Some((name, text)) = report_bundle() {
        add_files(vec![load::from_bytes(&name, text.as_bytes(), false)]);
    } else if let Some(data) = hash_now.strip_prefix("#bundle=").map(str::to_owned) {
        loads.set_busy(true);
        let pending = tpsview_components::Pending::hold();
        spawn_local(async move {
            let _pending = pending;
            match share::read_inline(&data).await {
                Ok(bytes) => add_files(vec![load::from_bytes("shared link", &bytes, false)]),
                Err(e) => files.add(vec![load::failed(
                    "shared link",
                    format!("shared link: {e}"),
                )]),
            }
            replace_hash("#viewer");
            loads.set_busy(false);
        });
    } else if !srcs.is_empty() {
        loads.urls(srcs.into_iter().map(|s| (s, false)).collect(), url_view);
    } else if let Some(kept) = share::kept() {
        add_files(vec![load::from_bytes(
            "kept in this browser",
            kept.as_bytes(),
            false,
        )]);
        keeping.restored();
    } else {
        loads.urls(vec![(load::SAMPLES[0].1.to_owned(), true)], None);
    }
}
