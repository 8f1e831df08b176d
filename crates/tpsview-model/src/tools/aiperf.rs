//! The figure table of the tool read by `tpsview_formats::formats::aiperf`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};
/// Format id of `profile_export_aiperf.json`; also the reported-tool id of AIPerf figures.
pub const SUMMARY_ID: &str = "aiperf";

const TOKENS: &str = "token counts: AIPerf re-tokenizes the output with --tokenizer (reasoning tokens included in OSL); tpsview uses the records' OSL";
const FIRST: &str = "first-token definition: AIPerf's first response with content";
const WINDOW: &str = "duration window: AIPerf ends at the last byte of the last successful request ([DONE] included), tpsview at its last token";

/// Shared with the reader.
pub const TTFT: [Figure; 4] = dotted_stats!("time_to_first_token", Ttft, FIRST);
const ITL: [Figure; 4] = dotted_stats!("inter_token_latency", Tpot, TOKENS);
const E2E: [Figure; 4] = dotted_stats!("request_latency", E2e, WINDOW);

const FIGURES: &[Figure] = &[
    Figure::same("benchmark_duration.avg", Metric::DurationS, 1.0, WINDOW),
    Figure::same(
        "output_token_throughput.avg",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same(
        "request_throughput.avg",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::same("request_count.avg", Metric::RequestsOk, 1.0, WINDOW),
    Figure::same("request_count", Metric::RequestsOk, 1.0, WINDOW),
    Figure::same(
        "error_request_count.avg",
        Metric::RequestsFailed,
        1.0,
        WINDOW,
    ),
    Figure::same("error_request_count", Metric::RequestsFailed, 1.0, WINDOW),
    Figure::same("total_osl.avg", Metric::OutputTokens, 1.0, TOKENS),
    Figure::same("total_osl", Metric::OutputTokens, 1.0, TOKENS),
    Figure::tool(
        "output_token_throughput_per_user.avg",
        Metric::PerStreamTps,
        1.0,
        TOKENS,
        ToolDef::DecodeRateMean,
    ),
    Figure::tool(
        "time_to_first_output_token.avg",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1.0,
        VISIBLE,
        ToolDef::FirstVisibleToken,
    ),
    Figure::tool(
        "time_to_first_output_token.p99",
        Metric::Latency(Latency::Ttft, Stat::P99),
        1.0,
        VISIBLE,
        ToolDef::FirstVisibleToken,
    ),
];

/// AIPerf ≥ 2026-08 (ai-dynamo/aiperf PR #1270, `aiperf/metrics/types/
/// e2e_normalized_interactivity_metric.py`): named scalars `{unit: tokens/sec/user, avg}`, each
/// 1 / pN(request_latency_s / OSL) over profiling records with latency, OSL, TTFT and ISL > 0;
/// and `e2e_output_token_throughput`, each request's OSL / latency with its statistics, whose p90
/// is the fast tail.
const PER_USER: &[Figure] = &[
    Figure::tool(
        "e2e_normalized_interactivity_p90.avg",
        Metric::PerStreamTps,
        1.0,
        SLOW_TAIL,
        ToolDef::E2eNormalized(90),
    ),
    Figure::tool(
        "e2e_normalized_interactivity_p75.avg",
        Metric::PerStreamTps,
        1.0,
        SLOW_TAIL,
        ToolDef::E2eNormalized(75),
    ),
    Figure::tool(
        "e2e_output_token_throughput.avg",
        Metric::PerStreamTps,
        1.0,
        SLOW_TAIL,
        ToolDef::UserRateMean,
    ),
    Figure::tool(
        "e2e_output_token_throughput.p50",
        Metric::PerStreamTps,
        1.0,
        FAST_TAIL,
        ToolDef::UserRatePercentile(50),
    ),
    Figure::tool(
        "e2e_output_token_throughput.p90",
        Metric::PerStreamTps,
        1.0,
        FAST_TAIL,
        ToolDef::UserRatePercentile(90),
    ),
    Figure::tool(
        "e2e_output_token_throughput.p99",
        Metric::PerStreamTps,
        1.0,
        FAST_TAIL,
        ToolDef::UserRatePercentile(99),
    ),
];

const SLOW_TAIL: &str = "tokens/s per user: OSL ÷ the whole request's latency (first-token wait included), not the decode rate; AIPerf filters requests with a zero TTFT or ISL";
const FAST_TAIL: &str = "the fast tail: e2e_output_token_throughput's pN is the pN of OSL ÷ latency, the rate only the fastest requests reach — tokens/s per user on the slow tail is 1 / pN(latency ÷ OSL) (e2e_normalized_interactivity_pN)";

const VISIBLE: &str = "reasoning tokens: a reasoning model's first token (TTFT) is a reasoning token; time_to_first_output_token waits for the first visible one";

const NOTES: &[&str] = &[
    "AIPerf's \"inter token latency\" is tpsview's TPOT: (request latency − TTFT) / (OSL − 1) per request",
    "time_to_first_token is the first token of any kind; time_to_first_output_token the first visible (content) token: a reasoning model gives both, and its output token throughput counts reasoning tokens",
    "OSL = output + reasoning tokens, counted by the client's tokenizer (--tokenizer; the model name by default), which may not be the model's",
    "output_token_throughput_per_user = mean over requests of 1 / ITL, not tpsview's 1 / mean TPOT",
    "e2e_normalized_interactivity_p90 / _p75 = 1 / p90 (p75) of request latency ÷ OSL: tokens/s per user on the slow tail (tpsview's interactivity.e2e_normalized); e2e_output_token_throughput's percentiles are of OSL ÷ latency, so its p90 is the fast tail",
    "benchmark_duration = last response of a successful request − first request start; request_throughput counts successful requests",
    "inter_chunk_latency lists each request's chunk gaps (ms): tpsview's ITL pools them",
    "warm-up records (benchmark_phase = warmup) are left out",
    "numpy linear percentiles, population standard deviation",
];

/// AIPerf's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: SUMMARY_ID,
    name: "AIPerf",
    groups: &[FIGURES, PER_USER, &TTFT, &ITL, &E2E],
    notes: NOTES,
};

/// The GPUs a level's [`Telemetry`](crate::model::Telemetry) covers (run label, shown under
/// "How this was run").
pub const GPUS_LABEL: &str = "telemetry_gpus";
