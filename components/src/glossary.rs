//! The glossary: each term with tpsview's definition and each tool's own (docs/formats.md). Every
//! metric label in the app links here (`#glossary-<id>`).

use leptos::prelude::*;

/// One term.
pub struct Term {
    /// Anchor id (`glossary-<id>`).
    pub id: &'static str,
    /// The term.
    pub name: &'static str,
    /// tpsview's definition (docs/metrics.md).
    pub tpsview: &'static str,
    /// (tool, its own definition or name for it).
    pub tools: &'static [(&'static str, &'static str)],
}

/// Every term, in reading order.
pub const TERMS: &[Term] = &[
    Term { id: "ttft", name: "TTFT — time to first token", tpsview: "first output token's arrival − the request's send time. Includes queueing and prefill.", tools: &[
        ("vLLM", "first chunk carrying `choices` (even an empty role chunk) − send time"),
        ("SGLang", "first chunk with non-empty text − send time"),
        ("GenAI-Perf / AIPerf", "first non-empty response − request timestamp"),
        ("TensorRT-LLM", "first_token_timestamp − start_timestamp"),
        ("GuideLLM", "first_token_time − start_time"),
        ("LLMPerf", "ttft_s, per request"),
    ] },
    Term { id: "tpot", name: "TPOT — time per output token", tpsview: "(E2E − TTFT) / (output tokens − 1): one request's mean decode time per token after the first; defined from 2 tokens. Per-stream T/s = 1 / mean TPOT.", tools: &[
        ("vLLM, SGLang", "the same formula, mean over requests"),
        ("GenAI-Perf / AIPerf", "called \"inter_token_latency\" (ITL); output tokens re-counted by a client tokenizer"),
        ("TensorRT-LLM", "the same formula with exact server token ids"),
        ("GuideLLM", "its \"ITL\" is this; its \"TPOT\" divides by N (v0.2) or includes TTFT (v0.5); token-weighted"),
        ("inference-benchmarker", "its \"inter_token_latency\" is this"),
        ("LLMPerf", "not reported; its \"ITL\" includes TTFT (≈ E2E / N)"),
    ] },
    Term { id: "itl", name: "ITL — inter-token (chunk) latency", tpsview: "the gaps between successive streamed chunks, pooled over all requests. A chunk may carry several tokens, so ITL is not TPOT.", tools: &[
        ("vLLM, SGLang", "the same: every chunk gap of every request, pooled"),
        ("GenAI-Perf / AIPerf / GuideLLM / inference-benchmarker", "\"ITL\" means TPOT; AIPerf calls chunk gaps inter_chunk_latency"),
        ("LLMPerf", "Σ gaps including TTFT / number of chunks"),
    ] },
    Term { id: "e2e", name: "E2E — end-to-end latency", tpsview: "last output token's arrival − send time.", tools: &[
        ("vLLM", "e2el: last content chunk − send"),
        ("SGLang", "e2e_latency: taken at the final line, including [DONE]"),
        ("GenAI-Perf / AIPerf", "request_latency"),
        ("TensorRT-LLM", "end_to_end_latency"),
    ] },
    Term { id: "per-stream", name: "per-stream T/s", tpsview: "1 / mean TPOT: how fast one request's tokens arrive while it decodes — what one user sees. Also shown: percentiles of per-request 1 / TPOT.", tools: &[
        ("GenAI-Perf / AIPerf", "output_token_throughput_per_user (= 1 / their ITL)"),
        ("TensorRT-LLM", "token_output_speed; its output_throughput_per_user includes TTFT"),
        ("llama-bench", "tg test avg_ts: single-sequence decode"),
    ] },
    Term { id: "system", name: "system T/s", tpsview: "all output tokens of all requests / wall-clock duration (first send → last token): what the server produces in all.", tools: &[
        ("vLLM, SGLang", "output_throughput: Σ output / duration from benchmark start to end"),
        ("GenAI-Perf / AIPerf", "output_token_throughput: Σ OSL / (last response − first request)"),
        ("TensorRT-LLM", "system_output_throughput_tok_s"),
        ("GuideLLM", "mean of a time-series rate distribution"),
        ("vLLM bench throughput", "tokens_per_second counts prompt + output tokens"),
    ] },
    Term { id: "goodput", name: "goodput", tpsview: "throughput counting only requests that met latency targets (SLOs) — not computed by tpsview yet; shown as reported.", tools: &[
        ("vLLM", "request_goodput with --goodput ttft:…,tpot:…"),
        ("GenAI-Perf / AIPerf", "request_goodput / goodput"),
    ] },
    Term { id: "concurrency", name: "concurrency vs batch size", tpsview: "concurrency: requests in flight (closed-loop clients, or measured by Little's law: Σ E2E / duration). Batch size: sequences the engine decodes in one step. With continuous batching they are close but not equal: requests waiting for prefill are in flight but not yet decoding.", tools: &[
        ("vLLM, SGLang", "max_concurrency: the configured cap; max_concurrent_requests: a measured peak"),
        ("SGLang", "concurrency: the measured average in flight"),
        ("TensorRT-LLM", "avg_num_concurrent_requests (measured); max_batch_size (engine)"),
        ("bench_one_batch, TGI benchmark, vLLM bench latency", "a static batch size"),
    ] },
];

/// The whole glossary.
#[component]
pub fn Glossary() -> impl IntoView {
    view! {
        <dl class="glossary" data-testid="glossary">
            {TERMS.iter().map(|t| view! {
                <div class="glossary-term" id=format!("glossary-{}", t.id)>
                    <dt>{t.name}</dt>
                    <dd>
                        <p><strong>"tpsview: "</strong>{t.tpsview}</p>
                        <ul>{t.tools.iter().map(|(tool, d)| view! { <li><strong>{format!("{tool}: ")}</strong>{*d}</li> }).collect_view()}</ul>
                    </dd>
                </div>
            }).collect_view()}
        </dl>
    }
}
