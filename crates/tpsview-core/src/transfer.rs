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

/// `#[serde(with)]` helper: the value as a JSON string.
pub(crate) mod as_json {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(v).map_err(S::Error::custom)?;
        text.serialize(s)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests;
