//! The figure table of the tool read by `tpsview_formats::formats::trtllm`: its own figure names
//! mapped to tpsview's metrics, each with its definition and the likely cause of a difference.

use super::{Figure, Series, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id of `--report_json` files; also the reported-tool id.
pub const REPORT_ID: &str = "trtllm-bench";

const WINDOW: &str = "duration window: last end − first start, as tpsview";
const NEAREST: &str = "percentile method: trtllm-bench takes sorted[int(n·p)] without interpolation (newer versions weight)";
const SAME: &str = "exact server token ids on both sides: a difference means a different request set (warm-up, errors)";

const FIGURES: &[Figure] = &[
    Figure::same(
        "performance.total_latency_ms",
        Metric::DurationS,
        1e-3,
        WINDOW,
    ),
    Figure::same(
        "performance.system_output_throughput_tok_s",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same(
        "performance.request_throughput_req_s",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "performance.system_total_throughput_tok_s",
        Metric::SystemTps,
        1.0,
        WINDOW,
        ToolDef::TotalTokenThroughput,
    ),
    Figure::tool(
        "performance.output_throughput_per_user_tok_s",
        Metric::PerStreamTps,
        1.0,
        SAME,
        ToolDef::UserRateMean,
    ),
    Figure::tool(
        "streaming_metrics.token_output_speed_tok_s",
        Metric::PerStreamTps,
        1.0,
        SAME,
        ToolDef::DecodeRateMean,
    ),
    Figure::same(
        "performance.avg_request_latency_ms",
        Metric::Latency(Latency::E2e, Stat::Mean),
        1.0,
        SAME,
    ),
    Figure::tool(
        "performance.request_latency_percentiles_ms.p50",
        Metric::Latency(Latency::E2e, Stat::P50),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::E2e, 50),
    ),
    Figure::tool(
        "performance.request_latency_percentiles_ms.p90",
        Metric::Latency(Latency::E2e, Stat::P90),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::E2e, 90),
    ),
    Figure::tool(
        "performance.request_latency_percentiles_ms.p99",
        Metric::Latency(Latency::E2e, Stat::P99),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::E2e, 99),
    ),
    Figure::same(
        "streaming_metrics.avg_ttft_ms",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1.0,
        SAME,
    ),
    Figure::tool(
        "streaming_metrics.ttft_percentiles.p50",
        Metric::Latency(Latency::Ttft, Stat::P50),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Ttft, 50),
    ),
    Figure::tool(
        "streaming_metrics.ttft_percentiles.p90",
        Metric::Latency(Latency::Ttft, Stat::P90),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Ttft, 90),
    ),
    Figure::tool(
        "streaming_metrics.ttft_percentiles.p99",
        Metric::Latency(Latency::Ttft, Stat::P99),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Ttft, 99),
    ),
    Figure::same(
        "streaming_metrics.avg_tpot_ms",
        Metric::Latency(Latency::Tpot, Stat::Mean),
        1.0,
        SAME,
    ),
    Figure::tool(
        "streaming_metrics.tpot_percentiles.p50",
        Metric::Latency(Latency::Tpot, Stat::P50),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Tpot, 50),
    ),
    Figure::tool(
        "streaming_metrics.tpot_percentiles.p90",
        Metric::Latency(Latency::Tpot, Stat::P90),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Tpot, 90),
    ),
    Figure::tool(
        "streaming_metrics.tpot_percentiles.p99",
        Metric::Latency(Latency::Tpot, Stat::P99),
        1.0,
        NEAREST,
        ToolDef::NearestIndex(Series::Tpot, 99),
    ),
    Figure::same(
        "request_info.avg_num_concurrent_requests",
        Metric::ConcurrencyAchieved,
        1.0,
        WINDOW,
    ),
    Figure::same("request_info.num_requests", Metric::RequestsOk, 1.0, SAME),
];

const NOTES: &[&str] = &[
    "TPOT = (end − first token) / (N − 1) per request, averaged: tpsview's definition, with exact token ids (no re-tokenization)",
    "output_throughput_per_user = mean over requests of N / E2E, first-token wait included; token_output_speed = mean of (N − 1) / (E2E − TTFT)",
    "system_total_throughput counts prompt tokens; system_output_throughput = Σ N / (last end − first start)",
    "--concurrency is not written to the report: the level comes from a paired file's name (…concurrency<N>…) or stays unknown; avg_num_concurrent_requests is a measured average",
    "percentiles are sorted[int(n·p)], no interpolation",
    "request timestamps are perf_counter_ns: relative, not epoch",
];

/// TensorRT-LLM's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: REPORT_ID,
    name: "TensorRT-LLM trtllm-bench",
    groups: &[FIGURES],
    notes: NOTES,
};
