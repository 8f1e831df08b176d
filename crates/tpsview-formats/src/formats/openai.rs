//! What one streamed chunk of an OpenAI-compatible server carries (`/v1/completions` and
//! `/v1/chat/completions` with `stream: true`): whether it holds output text, the usage counts, the
//! finish reason, an error. Read the same way by the GenAI-Perf importer (whose export keeps every
//! raw response) and by `tpsview bench` (which reads the stream itself), so both count the same
//! chunks as content.

use serde_json::Value;

use super::common::{at, first_text, num};

/// Where a chunk may hold output text: completions, chat deltas, reasoning deltas, a whole
/// message (a request sent without streaming: its one response), and Triton's `text_output`. A
/// chunk is content when any of them holds text.
pub const CONTENT_PATHS: [&str; 6] = [
    "choices.0.text",
    "choices.0.delta.content",
    "choices.0.delta.reasoning_content",
    "choices.0.message.content",
    "choices.0.message.reasoning_content",
    "text_output",
];

/// Where a chunk holds *visible* output text: [`CONTENT_PATHS`] without the reasoning deltas.
pub const VISIBLE_PATHS: [&str; 4] = [
    "choices.0.text",
    "choices.0.delta.content",
    "choices.0.message.content",
    "text_output",
];

/// One chunk, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamChunk {
    /// Output text (or reasoning text) arrived in it.
    pub content: bool,
    /// The visible (non-reasoning) text that arrived in it, when any: a reasoning model streams
    /// `reasoning_content` first, which the user never reads.
    pub visible: Option<String>,
    /// `usage.prompt_tokens_details.cached_tokens` (the OpenAI schema; vLLM, llama.cpp), else
    /// llama.cpp's `timings.cache_n`: prompt tokens served from the prefix cache.
    pub cached_tokens: Option<f64>,
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
        visible: first_text(v, &VISIBLE_PATHS),
        cached_tokens: num(v, "usage.prompt_tokens_details.cached_tokens")
            .or_else(|| num(v, "timings.cache_n")),
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

/// Whether a chunk holds output text, and its `usage.completion_tokens`: [`read_chunk`]'s `content`
/// and `completion_tokens`, read straight from the chunk's text without building a
/// `serde_json::Value` (a GenAI-Perf export keeps one chunk per token: building a tree of each
/// was most of reading one). `None` when the chunk has a shape this reader does not take (a
/// `choices` that is not a list, a first choice or `delta` or `usage` that is not an object, a
/// repeated key, a list where an object belongs, text that is not JSON): [`read_chunk`] then reads
/// it.
pub fn read_content_and_usage(chunk: &str) -> Option<(bool, Option<f64>)> {
    let fast::Obj(c) = serde_json::from_slice::<fast::Obj<fast::Chunk>>(chunk.as_bytes()).ok()?;
    let first = c.choices.and_then(|f| f.0);
    let (text, delta, message) = first.map_or((None, None, None), |fast::Obj(f)| {
        (f.text, f.delta, f.message)
    });
    let parts = |d: Option<fast::Obj<fast::Delta>>| {
        d.map_or((None, None), |fast::Obj(d)| {
            (d.content, d.reasoning_content)
        })
    };
    let (content, reasoning) = parts(delta);
    let (whole, whole_reasoning) = parts(message);
    let has = |t: Option<fast::HasText>| t.is_some_and(|t| t.0);
    let content = has(text)
        || has(content)
        || has(reasoning)
        || has(whole)
        || has(whole_reasoning)
        || has(c.text_output);
    let tokens = c
        .usage
        .and_then(|fast::Obj(u)| u.completion_tokens)
        .and_then(crate::lenient::Num::value);
    Some((content, tokens))
}

/// The typed reading behind [`read_content_and_usage`]: only the keys [`CONTENT_PATHS`] and
/// `usage.completion_tokens` name; every other key is skipped unread.
mod fast {
    use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
    use serde::Deserialize;
    use std::fmt;

    #[derive(Deserialize)]
    pub(super) struct Chunk {
        pub choices: Option<First>,
        pub usage: Option<Obj<Usage>>,
        pub text_output: Option<HasText>,
    }

    #[derive(Deserialize)]
    pub(super) struct Choice {
        pub text: Option<HasText>,
        pub delta: Option<Obj<Delta>>,
        pub message: Option<Obj<Delta>>,
    }

    #[derive(Deserialize)]
    pub(super) struct Delta {
        pub content: Option<HasText>,
        pub reasoning_content: Option<HasText>,
    }

    #[derive(Deserialize)]
    pub(super) struct Usage {
        pub completion_tokens: Option<crate::lenient::Num>,
    }

    /// An object read into `T`; anything else (a list, which serde would read into a struct by
    /// position) is refused, as the paths of `common::at` find nothing in it.
    pub(super) struct Obj<T>(pub T);

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<T>(std::marker::PhantomData<T>);
            impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
                type Value = Obj<T>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                    T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Obj)
                }
            }
            d.deserialize_map(V(std::marker::PhantomData))
        }
    }

    /// A list's first item (`choices.0`; `None` for an empty list or a `null` first item).
    pub(super) struct First(pub Option<Obj<Choice>>);

    impl<'de> Deserialize<'de> for First {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = First;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a list of choices")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<First, A::Error> {
                    let first = seq.next_element::<Option<Obj<Choice>>>()?.flatten();
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(First(first))
                }
            }
            d.deserialize_seq(V)
        }
    }

    /// Whether a value holds text as `common::text` reads it: a non-empty string, a number, or a
    /// list whose first item is a string.
    pub(super) struct HasText(pub bool);

    impl<'de> Deserialize<'de> for HasText {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Text {
                first_of_list: false,
            })
        }
    }

    /// `first_of_list`: reading a list's first item, where any string counts.
    struct Text {
        first_of_list: bool,
    }

    impl<'de> Visitor<'de> for Text {
        type Value = HasText;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_str<E>(self, v: &str) -> Result<HasText, E> {
            Ok(HasText(self.first_of_list || !v.is_empty()))
        }
        fn visit_f64<E>(self, _: f64) -> Result<HasText, E> {
            Ok(HasText(!self.first_of_list))
        }
        fn visit_u64<E>(self, _: u64) -> Result<HasText, E> {
            Ok(HasText(!self.first_of_list))
        }
        fn visit_i64<E>(self, _: i64) -> Result<HasText, E> {
            Ok(HasText(!self.first_of_list))
        }
        fn visit_bool<E>(self, _: bool) -> Result<HasText, E> {
            Ok(HasText(false))
        }
        fn visit_unit<E>(self) -> Result<HasText, E> {
            Ok(HasText(false))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<HasText, A::Error> {
            let first = if self.first_of_list {
                seq.next_element::<IgnoredAny>()?;
                false
            } else {
                seq.next_element_seed(FirstItem)?.unwrap_or(false)
            };
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(HasText(first))
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<HasText, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(HasText(false))
        }
    }

    /// A list's first item: whether it is a string.
    struct FirstItem;

    impl<'de> de::DeserializeSeed<'de> for FirstItem {
        type Value = bool;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(Text {
                first_of_list: true,
            })
            .map(|t| t.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> StreamChunk {
        read_chunk(&serde_json::from_str(text).unwrap())
    }

    mod same_as_the_tree {
        use super::*;
        use proptest::prelude::*;
        use serde_json::json;

        /// Any small JSON value, of every kind `common::text` and `num` tell apart.
        fn leaf() -> impl Strategy<Value = Value> {
            let scalar = prop_oneof![
                Just(Value::Null),
                Just(json!("")),
                Just(json!("tok")),
                Just(json!(" 16 ")),
                Just(json!("1,146.5")),
                Just(json!("inf")),
                Just(json!("nan")),
                Just(json!(true)),
                (0u32..100).prop_map(|n| json!(n)),
                (-5i32..5).prop_map(|n| json!(n)),
                (-1e3f64..1e3).prop_map(|x| json!(x)),
            ];
            prop_oneof![
                4 => scalar.clone(),
                1 => prop::collection::vec(scalar.clone(), 0..3).prop_map(Value::Array),
                1 => scalar.prop_map(|v| json!({ "x": v })),
            ]
        }

        fn maybe(
            key: &'static str,
            v: impl Strategy<Value = Value>,
        ) -> impl Strategy<Value = Option<(String, Value)>> {
            prop::option::of(v.prop_map(move |v| (key.to_owned(), v)))
        }

        fn object(fields: Vec<Option<(String, Value)>>) -> Value {
            Value::Object(fields.into_iter().flatten().collect())
        }

        fn choice() -> impl Strategy<Value = Value> {
            let delta = prop_oneof![
                3 => (maybe("content", leaf()), maybe("reasoning_content", leaf()), maybe("role", leaf()))
                    .prop_map(|(a, b, c)| object(vec![a, b, c])),
                1 => leaf(),
            ];
            prop_oneof![
                4 => (maybe("text", leaf()), maybe("delta", delta), maybe("index", leaf()))
                    .prop_map(|(a, b, c)| object(vec![a, b, c])),
                1 => leaf(),
            ]
        }

        fn chunk() -> impl Strategy<Value = Value> {
            let choices = prop_oneof![
                4 => prop::collection::vec(choice(), 0..3).prop_map(Value::Array),
                1 => leaf(),
                1 => choice().prop_map(|c| json!({ "0": c })),
            ];
            let usage = prop_oneof![
                3 => (maybe("completion_tokens", leaf()), maybe("prompt_tokens", leaf()))
                    .prop_map(|(a, b)| object(vec![a, b])),
                1 => leaf(),
            ];
            (
                maybe("id", leaf()),
                maybe("choices", choices),
                maybe("usage", usage),
                maybe("text_output", leaf()),
            )
                .prop_map(|(a, b, c, d)| object(vec![a, b, c, d]))
        }

        fn tree(text: &str) -> Option<(bool, Option<f64>)> {
            let v: Value = serde_json::from_slice(text.as_bytes()).ok()?;
            let c = read_chunk(&v);
            Some((c.content, c.completion_tokens))
        }

        proptest! {
            #[test]
            fn the_typed_reading_agrees_with_the_tree_or_declines(v in chunk(), wrap in 0u8..3) {
                let text = match wrap {
                    0 => v.to_string(),
                    1 => serde_json::to_string_pretty(&v).expect("JSON"),
                    _ => format!("[{v}]"),
                };
                if let Some(fast) = read_content_and_usage(&text) {
                    prop_assert_eq!(Some(fast), tree(&text), "{}", text);
                }
            }
        }

        #[test]
        fn servers_chunks_are_read_without_the_tree() {
            // What vLLM, SGLang, TGI and Triton stream: the typed reading takes each one.
            for (text, want) in [
                (
                    r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi \"x\""},"logprobs":null,"finish_reason":null}]}"#,
                    (true, None),
                ),
                (
                    r#"{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#,
                    (false, None),
                ),
                (r#"{"choices":[{"text":" a","index":0}]}"#, (true, None)),
                (
                    r#"{"choices":[{"delta":{"reasoning_content":"hm"}}]}"#,
                    (true, None),
                ),
                (
                    r#"{"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":32,"total_tokens":48}}"#,
                    (false, Some(32.0)),
                ),
                (
                    r#"{"choices":[{"delta":{}, "finish_reason":"length"}],"usage":{"completion_tokens":"7"}}"#,
                    (false, Some(7.0)),
                ),
                (
                    r#"{"text_output":"x","model_name":"ensemble"}"#,
                    (true, None),
                ),
            ] {
                assert_eq!(read_content_and_usage(text), Some(want), "{text}");
                assert_eq!(tree(text), Some(want), "{text}");
            }
            // Shapes it leaves to the tree: a repeated key, choices as an object, not JSON.
            for text in [
                r#"{"choices":[{"delta":{"content":"a","content":""}}]}"#,
                r#"{"choices":{"0":{"text":"a"}}}"#,
                r#"{"choices":[{"delta":"a"}]}"#,
                "data: [DONE]",
            ] {
                assert_eq!(read_content_and_usage(text), None, "{text}");
            }
        }
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
