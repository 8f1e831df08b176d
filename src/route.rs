//! Hash routes: `#viewer` (default), `#learn/N` (1-based step), `#model`, `#claim`, `#glossary`
//! (and `#glossary-<term>`). Hash routing keeps dist/ servable by any static host.

/// A screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Charts and table.
    Viewer,
    /// The walkthrough at step n (0-based).
    Learn(usize),
    /// The decode model.
    Model,
    /// The claim reader.
    Claim,
    /// The glossary.
    Glossary,
}

impl Route {
    /// Parses `location.hash`.
    pub fn parse(hash: &str) -> Route {
        let h = hash.trim_start_matches('#');
        if let Some(rest) = h.strip_prefix("learn") {
            let n = rest.trim_start_matches('/').parse::<usize>().unwrap_or(1);
            return Route::Learn(n.saturating_sub(1));
        }
        match h {
            "model" => Route::Model,
            "claim" => Route::Claim,
            _ if h.starts_with("glossary") => Route::Glossary,
            _ => Route::Viewer,
        }
    }
}

/// The current hash.
#[cfg(target_arch = "wasm32")]
pub fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

// A path of its own: the teaching module's binary includes this file too (src/bin/).
#[cfg(test)]
#[path = "route/tests.rs"]
mod tests;
