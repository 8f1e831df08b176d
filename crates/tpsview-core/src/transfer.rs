//! The binary form in which a parsed file crosses from the loading Web Worker to the page
//! (postcard: compact, and every `f64` — NaN included — goes through bit for bit). Types that skip
//! absent fields when written as JSON (metadata, diagnostics) travel as JSON strings inside it,
//! since a non-self-describing format cannot skip fields.

use crate::formats::Parsed;

/// Encodes a parsed file.
pub fn encode(parsed: &Parsed) -> Vec<u8> {
    // Every type in `Parsed` has a known length and serialises without error.
    postcard::to_allocvec(parsed).unwrap_or_default()
}

/// Decodes what [`encode`] wrote.
pub fn decode(bytes: &[u8]) -> Result<Parsed, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the loader's answer did not decode: {e}"))
}

#[cfg(test)]
mod tests;
