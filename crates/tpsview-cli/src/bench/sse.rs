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

fn count(v: &Value, path: &[&str]) -> Option<u32> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_u64().and_then(|n| u32::try_from(n).ok())
}

/// Reads one event's data.
pub fn classify(data: &str) -> Chunk {
    let text = data.trim();
    if text == "[DONE]" {
        return Chunk::Done;
    }
    let v: Value = match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => v,
        _ => return Chunk::Malformed(text.chars().take(80).collect()),
    };
    let first = v.get("choices").and_then(|c| c.get(0));
    let content = first.is_some_and(|c| {
        ["text", "delta.content", "delta.reasoning_content"]
            .iter()
            .any(|path| {
                path.split('.')
                    .try_fold(c, |cur, k| cur.get(k))
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty())
            })
    });
    Chunk::Data {
        content,
        completion_tokens: count(&v, &["usage", "completion_tokens"]),
        prompt_tokens: count(&v, &["usage", "prompt_tokens"]),
        finish_reason: first
            .and_then(|c| c.get("finish_reason"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        error: v.get("error").map(|e| {
            e.get("message")
                .and_then(Value::as_str)
                .map_or_else(|| e.to_string(), str::to_owned)
        }),
    }
}
