//! What one streamed chunk of an OpenAI-compatible server carries (`/v1/completions` and
//! `/v1/chat/completions` with `stream: true`): whether it holds output text, the usage counts, the
//! finish reason, an error. Read the same way by the GenAI-Perf importer (whose export keeps every
//! raw response) and by `tpsview bench` (which reads the stream itself), so both count the same
//! chunks as content.

use serde_json::Value;

use super::common::{at, first_text, num};

/// Where a chunk may hold output text: completions, chat deltas, reasoning deltas, and Triton's
/// `text_output`. A chunk is content when any of them holds text.
pub const CONTENT_PATHS: [&str; 4] = [
    "choices.0.text",
    "choices.0.delta.content",
    "choices.0.delta.reasoning_content",
    "text_output",
];

/// One chunk, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamChunk {
    /// Output text (or reasoning text) arrived in it.
    pub content: bool,
    /// `usage.completion_tokens`, when present (a number, or a number as tools write it in a string).
    pub completion_tokens: Option<f64>,
    /// `usage.prompt_tokens`, when present.
    pub prompt_tokens: Option<f64>,
    /// `choices[0].finish_reason`, when present.
    pub finish_reason: Option<String>,
    /// The message of an `error` object the server streamed instead of a chunk.
    pub error: Option<String>,
}

/// Reads one chunk's parsed JSON.
pub fn read_chunk(v: &Value) -> StreamChunk {
    StreamChunk {
        content: first_text(v, &CONTENT_PATHS).is_some(),
        completion_tokens: num(v, "usage.completion_tokens"),
        prompt_tokens: num(v, "usage.prompt_tokens"),
        finish_reason: at(v, "choices.0.finish_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        error: v.get("error").map(|e| {
            e.get("message")
                .and_then(Value::as_str)
                .map_or_else(|| e.to_string(), str::to_owned)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> StreamChunk {
        read_chunk(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn content_usage_finish_and_error_are_read() {
        assert!(read(r#"{"choices":[{"delta":{"content":"Hi"}}]}"#).content);
        assert!(read(r#"{"choices":[{"text":" a"}]}"#).content);
        assert!(read(r#"{"choices":[{"delta":{"reasoning_content":"hm"}}]}"#).content);
        assert!(read(r#"{"text_output":"x"}"#).content);
        // A role-only chunk and an empty delta are not content.
        assert!(!read(r#"{"choices":[{"delta":{"role":"assistant","content":""}}]}"#).content);
        let u = read(r#"{"choices":[],"usage":{"completion_tokens":32,"prompt_tokens":"16"}}"#);
        assert_eq!(
            (u.content, u.completion_tokens, u.prompt_tokens),
            (false, Some(32.0), Some(16.0))
        );
        let f = read(r#"{"choices":[{"delta":{},"finish_reason":"length"}]}"#);
        assert_eq!(f.finish_reason.as_deref(), Some("length"));
        assert_eq!(
            read(r#"{"error":{"message":"out of memory"}}"#)
                .error
                .as_deref(),
            Some("out of memory")
        );
        assert_eq!(
            read(r#"{"error":"boom"}"#).error.as_deref(),
            Some("\"boom\"")
        );
    }
}
