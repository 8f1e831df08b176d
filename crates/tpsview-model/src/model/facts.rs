//! What the tools of 2026 record of a request beyond its timings: the session (conversation) and
//! turn it belongs to, its reasoning tokens, its first visible token, its cached prompt tokens
//! (docs/metrics.md, "Sessions, reasoning and prefix caches"). Each is a column of
//! [`RequestFacts`], present when any request has it; a request without it has `None` (a text
//! column) or `NaN` (a number column, written `null` in tpsview/1) there.

/// A point's per-request facts (see the module's note), one entry per request, failed ones
/// included (a failed turn still belongs to its session).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RequestFacts {
    /// The session (multi-turn conversation) each request belongs to, by the tool's id for it.
    pub session: Option<Vec<Option<Box<str>>>>,
    /// Its turn within the session, 0-based as the tools count (a whole number).
    pub turn: Option<Vec<f64>>,
    /// Its output tokens that were reasoning (counted in `output_tokens`, never shown).
    pub reasoning_tokens: Option<Vec<f64>>,
    /// Send → the first visible (content) token, s; the same as TTFT without reasoning.
    pub ttfvt_s: Option<Vec<f64>>,
    /// Its prompt tokens the server took from its prefix cache (not computed).
    pub cached_prompt_tokens: Option<Vec<f64>>,
}

impl RequestFacts {
    /// Whether no column is present.
    pub fn is_empty(&self) -> bool {
        self.session.is_none()
            && self.turn.is_none()
            && self.reasoning_tokens.is_none()
            && self.ttfvt_s.is_none()
            && self.cached_prompt_tokens.is_none()
    }
}

/// An entry of a number column, or `None` (no column, or `NaN`: not known).
pub fn entry(column: &Option<Vec<f64>>, i: usize) -> Option<f64> {
    column.as_ref()?.get(i).copied().filter(|v| !v.is_nan())
}
