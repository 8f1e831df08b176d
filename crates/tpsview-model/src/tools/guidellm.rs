//! The figure table of the tool read by `tpsview_formats::formats::guidellm`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};
/// Reported-tool id of v0.2–0.3 files.
pub const V02: &str = "guidellm-0.2";
/// Reported-tool id of v0.4+ files.
pub const V05: &str = "guidellm-0.5";

const SERIES: &str = "GuideLLM's throughput, request rate and concurrency are means of time series over the benchmark window, not totals / duration";
const WEIGHTED: &str = "GuideLLM weights TPOT and ITL by tokens: a token-weighted mean";
const PCT: &str = "percentile method: GuideLLM's own, from its distribution";
const END: &str = "end time: GuideLLM's request_latency ends when the response closes, tpsview's at the last token";

const WINDOW: &str = "GuideLLM's duration is its measurement window (measure_end − measure_start, warm-up and cool-down cut off); tpsview's runs from the first counted request's start to the last one's end";

/// The figures both schemas share.
const COMMON: &[Figure] = &[
    Figure::same(
        "output_tokens_per_second.mean",
        Metric::SystemTps,
        1.0,
        SERIES,
    ),
    Figure::same(
        "requests_per_second.mean",
        Metric::RequestThroughput,
        1.0,
        SERIES,
    ),
    Figure::same(
        "request_concurrency.mean",
        Metric::ConcurrencyAchieved,
        1.0,
        SERIES,
    ),
    Figure::same("request_totals.successful", Metric::RequestsOk, 1.0, SERIES),
    Figure::same(
        "request_totals.errored",
        Metric::RequestsFailed,
        1.0,
        SERIES,
    ),
    Figure::same(
        "time_to_first_token_ms.mean",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1.0,
        PCT,
    ),
    Figure::same(
        "time_to_first_token_ms.p50",
        Metric::Latency(Latency::Ttft, Stat::P50),
        1.0,
        PCT,
    ),
    Figure::same(
        "time_to_first_token_ms.p90",
        Metric::Latency(Latency::Ttft, Stat::P90),
        1.0,
        PCT,
    ),
    Figure::same(
        "time_to_first_token_ms.p99",
        Metric::Latency(Latency::Ttft, Stat::P99),
        1.0,
        PCT,
    ),
    Figure::same(
        "request_latency.mean",
        Metric::Latency(Latency::E2e, Stat::Mean),
        1e3,
        END,
    ),
    Figure::same(
        "request_latency.p50",
        Metric::Latency(Latency::E2e, Stat::P50),
        1e3,
        END,
    ),
    Figure::tool(
        "inter_token_latency_ms.mean",
        Metric::Latency(Latency::Tpot, Stat::Mean),
        1.0,
        WEIGHTED,
        ToolDef::TokenWeightedTpot,
    ),
];

/// v0.2–0.3's duration: from the benchmark's start to its end.
const DURATION_V02: &[Figure] = &[Figure::same("duration", Metric::DurationS, 1.0, SERIES)];

/// v0.4+'s duration: the measurement window.
const DURATION_V05: &[Figure] = &[Figure::same("duration", Metric::DurationS, 1.0, WINDOW)];

/// v0.2–0.3: "TPOT" divides the decode time by N.
const TPOT_V02: &[Figure] = &[Figure::tool(
    "time_per_output_token_ms.mean",
    Metric::Latency(Latency::Tpot, Stat::Mean),
    1.0,
    WEIGHTED,
    ToolDef::DecodePerToken,
)];

/// v0.4+: "TPOT" is the whole request's time per output token.
const TPOT_V05: &[Figure] = &[Figure::tool(
    "time_per_output_token_ms.mean",
    Metric::Latency(Latency::Tpot, Stat::Mean),
    1.0,
    WEIGHTED,
    ToolDef::E2ePerToken,
)];

const VISIBLE: &str = "reasoning tokens: GuideLLM's time_to_first_token is the first token of any kind; time_to_first_output_token (v0.7+) waits for the first non-reasoning content token";

/// v0.7+: the first visible token (`info.timings.first_output_token_iteration`).
const VISIBLE_V07: &[Figure] = &[
    Figure::tool(
        "time_to_first_output_token_ms.mean",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1.0,
        VISIBLE,
        ToolDef::FirstVisibleToken,
    ),
    Figure::tool(
        "time_to_first_output_token_ms.p99",
        Metric::Latency(Latency::Ttft, Stat::P99),
        1.0,
        VISIBLE,
        ToolDef::FirstVisibleToken,
    ),
];

const NOTES_V02: &[&str] = &[
    "GuideLLM's \"ITL\" is tpsview's TPOT, (last − first token) / (N − 1), but its mean is token-weighted: Σ decode / Σ (N − 1)",
    "GuideLLM's \"TPOT\" (time_per_output_token) in v0.2–0.3 is (last − first token) / N: it divides by N, not N − 1",
    "output_tokens_per_second and requests_per_second are rate time series over the benchmark; their mean approximates system T/s",
    "the file may keep only a sample of requests: counts come from request_totals, latencies from the sample",
    "timestamps are epoch seconds; strategy synchronous = 1 stream, concurrent = `streams`, constant/poisson = a request rate",
];

const NOTES_V05: &[&str] = &[
    "GuideLLM's \"ITL\" is tpsview's TPOT, (last − first token) / (N − 1), but its mean is token-weighted: Σ decode / Σ (N − 1)",
    "GuideLLM's \"TPOT\" (time_per_output_token) from v0.4 is (last token − request start) / N: it includes the time to first token",
    "output_tokens_per_second and requests_per_second are rate time series over the benchmark; their mean approximates system T/s",
    "output tokens are the server's usage count, else token iterations; the file may keep only a sample of requests",
    "timings are epoch seconds under info.timings; strategy synchronous = 1 stream, concurrent = `streams`, constant/poisson = a request rate",
    "v0.6+: info.conversation_id and info.turn_index name each request's conversation and turn (a single-turn run gives every request its own); v0.7+: time_to_first_output_token is the first non-reasoning token, and output tokens count reasoning tokens (the reasoning text is kept, not its count); after v0.7.3: cached_tokens, the server's prompt_tokens_details.cached_tokens",
    "with warm-up or cool-down, every request is listed but the figures cover only those overlapping the measurement window (ending at or after scheduler_metrics.measure_start_time, starting at or before measure_end_time); tpsview counts the same requests and names the ones left out",
];

/// GuideLLM v0.2–0.3's vocabulary.
pub const VOCABULARY_V02: Vocabulary = Vocabulary {
    tool: V02,
    name: "GuideLLM v0.2–0.3",
    groups: &[DURATION_V02, COMMON, TPOT_V02],
    notes: NOTES_V02,
};

/// GuideLLM v0.4+'s vocabulary.
pub const VOCABULARY_V05: Vocabulary = Vocabulary {
    tool: V05,
    name: "GuideLLM v0.4+",
    groups: &[DURATION_V05, COMMON, TPOT_V05, VISIBLE_V07],
    notes: NOTES_V05,
};
