//! What one server-sent event of an OpenAI-compatible stream carries: content, the usage count,
//! the finish reason, the end marker — or something that is not a chunk at all. The SSE framing
//! itself (split lines, multi-line `data:`, comments, `\r\n`) is `eventsource-stream`'s.

use serde_json::Value;

/// One event's `data`, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// `[DONE]`: the stream is complete.
    Done,
    /// A chunk: whether it carried output text, and the usage / finish reason it may carry.
    Data {
        /// Non-empty `choices[0].text` or `choices[0].delta.content` (or reasoning content).
        content: bool,
        /// The visible text of it (not reasoning), when any.
        visible: Option<String>,
        /// Prompt tokens the server took from its prefix cache, when it says.
        cached_tokens: Option<u32>,
        /// `usage.completion_tokens`, when present.
        completion_tokens: Option<u32>,
        /// `usage.prompt_tokens`, when present.
        prompt_tokens: Option<u32>,
        /// `choices[0].finish_reason`, when present.
        finish_reason: Option<String>,
        /// An `error` object the server streamed instead of a chunk.
        error: Option<String>,
    },
    /// Not JSON, or not an object: the text, shortened.
    Malformed(String),
}

/// A count as the bench keeps it: a whole number that fits a `u32`.
fn count(v: Option<f64>) -> Option<u32> {
    v.filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n <= f64::from(u32::MAX))
        .map(|n| n as u32)
}

/// Reads one event's data (what a chunk carries is read by the core, as the GenAI-Perf importer
/// reads it: `tpsview_core::formats::openai`).
pub fn classify(data: &str) -> Chunk {
    let text = data.trim();
    if text == "[DONE]" {
        return Chunk::Done;
    }
    let v: Value = match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => v,
        _ => return Chunk::Malformed(text.chars().take(80).collect()),
    };
    let c = tpsview_core::formats::openai::read_chunk(&v);
    Chunk::Data {
        content: c.content,
        visible: c.visible,
        cached_tokens: count(c.cached_tokens),
        completion_tokens: count(c.completion_tokens),
        prompt_tokens: count(c.prompt_tokens),
        finish_reason: c.finish_reason,
        error: c.error,
    }
}
