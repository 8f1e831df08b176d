//! The figure table of Ollama's timings, read by `tpsview_formats::formats::ollama`: what
//! `ollama run --verbose` prints after each reply (from its API's `Metrics`, ollama/ollama
//! `api/types.go` `Metrics.Summary`), and the one level figure llm_benchmark
//! (aidatatools/ollama-benchmark, which runs `ollama run --verbose` and keeps its `eval rate:`
//! lines) prints per model.

use super::{Figure, Vocabulary};
use crate::vocabulary::Metric;

/// Format id; also the reported-tool id.
pub const ID: &str = "ollama";

/// llm_benchmark's `Average of eval rate:` of a model, tokens/s: the mean of the `eval rate:`
/// lines it printed for each prompt (`SampleKind::EvalRate`).
pub const AVERAGE_EVAL_RATE: &str = "average_eval_rate";

const AVERAGE: &str = "llm_benchmark averages the eval rates as printed (two decimals), unweighted over prompts; Ollama's eval rate counts the first token (N / eval duration, whose time excludes computing it), so it is above tpsview's per-stream T/s ((N − 1) / eval duration) by N / (N − 1)";

const FIGURES: &[Figure] = &[Figure::same(
    AVERAGE_EVAL_RATE,
    Metric::PerStreamTps,
    1.0,
    AVERAGE,
)];

const NOTES: &[&str] = &[
    "one request at a time (`ollama run`), so each model is one run at concurrency 1; no send time is printed, so system T/s is undefined",
    "total duration runs from the server receiving the request to the last token, model load included; tpsview takes it as E2E",
    "eval count includes the first generated token, but eval duration starts after it (its compute is in prompt eval duration): tpsview's TTFT is total − eval duration (load, prompt and first token), TPOT eval duration / (eval count − 1)",
    "eval rate = eval count / eval duration, printed with two decimals; prompt eval rate = prompt eval count / prompt eval duration, where the count includes prompt tokens taken from the cache and the duration only those computed (a cached prompt shows a rate of tens of thousands of tokens/s)",
];

/// Ollama's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "Ollama (ollama run --verbose, llm_benchmark)",
    groups: &[FIGURES],
    notes: NOTES,
};
