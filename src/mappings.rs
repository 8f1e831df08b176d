//! The mappings this browser keeps (issue 44): a mapping a person corrected in the mapping panel,
//! once it reads the file, is kept for the key set of that file, so that the next file of the
//! same fields is read through it at once; and the one a link carries (`?map=`), used first. The
//! page holds them as text only: the loading worker reads them (`mapping::kept`), chooses, and
//! hands back the list to keep (`mapping::kept_with`).

#[cfg(target_arch = "wasm32")]
mod browser {
    /// The `localStorage` key.
    const KEY: &str = "tpsview-mappings";

    thread_local! {
        /// The mapping a link carried, if any.
        static LINKED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    }

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    /// The kept mappings' JSON array (`[]` where none, or the browser keeps nothing).
    pub fn kept() -> String {
        storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .unwrap_or_else(|| "[]".into())
    }

    /// Keeps `list` (the worker's, `mapping::kept_with`; silently not where the browser keeps
    /// nothing).
    pub fn keep(list: &str) {
        if let Some(s) = storage() {
            let _ = s.set_item(KEY, list);
        }
    }

    /// The mapping of a link (`?map=`), for the files it opens.
    pub fn link(text: &str) {
        LINKED.with_borrow_mut(|l| *l = Some(text.to_owned()));
    }

    /// The link's mapping, if any.
    pub fn linked() -> Option<String> {
        LINKED.with_borrow(Clone::clone)
    }
}

#[cfg(target_arch = "wasm32")]
pub use browser::*;
