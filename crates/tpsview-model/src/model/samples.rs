//! Raw data of a level that is not per request: what a tool measured per iteration, repetition or
//! response, copied by its reader as written, reduced by the analysis to the tool's own figures
//! (`tpsview_analysis::audit::from_samples`) so that the audit can check them. No reader reduces
//! it: a reader computes no figure.

use crate::tools::{llama_bench, llmperf, ollama, vllm_offline};

/// What a point's [`Samples`] are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SampleKind {
    /// vLLM `bench latency`'s `latencies`: each iteration's whole-batch latency, s.
    IterationLatencyS,
    /// llama-bench's `samples_ns`: each repetition's time, ns, over `tokens` (n_prompt + n_gen).
    RepetitionNs,
    /// LLMPerf's `inter_token_latency_s` of each response, s.
    ResponseItlS,
    /// Ollama's `eval rate:` of each reply as printed (llm_benchmark's log), tokens/s.
    EvalRate,
}

impl SampleKind {
    /// Every kind, for reading an id back.
    pub const ALL: [SampleKind; 4] = [
        SampleKind::IterationLatencyS,
        SampleKind::RepetitionNs,
        SampleKind::ResponseItlS,
        SampleKind::EvalRate,
    ];

    /// The stable id tpsview/1 stores (`samples.of`).
    pub fn id(self) -> &'static str {
        match self {
            SampleKind::IterationLatencyS => "iteration_latency_s",
            SampleKind::RepetitionNs => "repetition_ns",
            SampleKind::ResponseItlS => "response_itl_s",
            SampleKind::EvalRate => "eval_rate",
        }
    }

    /// The kind of an id; `None` for one this version does not know.
    pub fn of_id(id: &str) -> Option<SampleKind> {
        SampleKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The tool figures these samples make, by the tool's names (from its figure table): for
    /// iteration latencies their mean, p50 and p99; for repetition times the one rate figure the
    /// point reports among these (llama-bench names a generation, a prompt and a mixed test's
    /// rate differently); for response ITLs their mean.
    pub fn figures(self) -> &'static [&'static str] {
        match self {
            SampleKind::IterationLatencyS => &vllm_offline::FROM_LATENCIES,
            SampleKind::RepetitionNs => &llama_bench::RATES,
            SampleKind::ResponseItlS => &[llmperf::ITL_MEAN],
            SampleKind::EvalRate => &[ollama::AVERAGE_EVAL_RATE],
        }
    }
}

/// A level's raw data that is not per request, as its tool wrote it (see the module's note).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Samples {
    /// What they are.
    pub of: SampleKind,
    /// The values, in the kind's unit; only those the reader could read as the kind's (a
    /// positive latency or time, a number).
    pub values: Vec<f64>,
    /// The tokens each value covers, where the kind needs it (`RepetitionNs`).
    pub tokens: Option<f64>,
}
