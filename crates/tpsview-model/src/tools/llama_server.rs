//! The figure table of llama.cpp's server (`llama-server`), whose answers carry a `timings`
//! object (tools/server: `prompt_n`, `prompt_ms`, `predicted_n`, `predicted_ms`, their per-token
//! and per-second forms, `cache_n`), read by `tpsview_formats::formats::llama_server` from saved
//! answers. It states no level figure: each answer is a request.

use super::{Figure, Vocabulary};

/// Format id; also the reported-tool id.
pub const ID: &str = "llama-server";

const FIGURES: &[Figure] = &[];

const NOTES: &[&str] = &[
    "server-side times: prompt_ms from the start of prompt processing to the first sampled token (tpsview's TTFT, without the network or the queue before it), predicted_ms from the first sampled token to the last (so TPOT = predicted_ms / (predicted_n − 1)); E2E is their sum",
    "predicted_per_second = predicted_n / predicted_ms × 1000 up to at least build b9536: it counts the first token, whose time is in prompt_ms, so it is above tpsview's per-stream T/s by predicted_n / (predicted_n − 1); later builds divide predicted_n − 1",
    "cache_n prompt tokens were taken from the prompt cache, prompt_n computed: prompt tokens = prompt_n + cache_n, cached = cache_n",
    "answers are read as one level at concurrency 1 (a harness's sequential calls): no send time is saved, so system T/s is undefined",
];

/// llama-server's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "llama.cpp llama-server timings",
    groups: &[FIGURES],
    notes: NOTES,
};
