//! The figure table of the tool read by `tpsview_formats::formats::evalscope` (ModelScope
//! evalscope `perf`'s `benchmark_summary.json`): its own figure names — two spellings, before and
//! from v1.7 — mapped to tpsview's metrics. Definitions read in evalscope's
//! `evalscope/perf/utils/benchmark_util.py` (v1.1.1 87b50a97, lines 56–174; v1.7.0 13e7fc29) and
//! `db_util.py`.

use super::{Figure, ToolDef, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id; also the reported-tool id.
pub const ID: &str = "evalscope";

const DURATION: &str = "evalscope's duration runs from the first request's start to the last one's completion (up to v1.1.0: to when it processed the last result)";
const WINDOW: &str = "evalscope v1.1.1–v1.3.x divided by the window of the first N − 1 requests (its averages were taken before the last request's end was counted; fixed in v1.4.0): its throughputs are then a little high";
const FIRST: &str = "evalscope's first token is the first streamed chunk with `choices`, which may be an empty role-only chunk";
const TPOT_CAUSE: &str = "evalscope's TPOT is (latency − TTFT) ÷ (output tokens − 1) per request, averaged, as tpsview's";
const ITL_CAUSE: &str =
    "evalscope pools the gaps between streamed chunks (per chunk, not per token)";

const fn mean(key: &'static str, d: Latency, scale: f64, cause: &'static str) -> Figure {
    Figure::same(key, Metric::Latency(d, Stat::Mean), scale, cause)
}

const FIGURES: &[Figure] = &[
    // Before v1.7: seconds, spelled out.
    Figure::same("Time taken for tests (s)", Metric::DurationS, 1.0, DURATION),
    Figure::same("Succeed requests", Metric::RequestsOk, 1.0, DURATION),
    Figure::same("Failed requests", Metric::RequestsFailed, 1.0, DURATION),
    Figure::same(
        "Output token throughput (tok/s)",
        Metric::SystemTps,
        1.0,
        WINDOW,
    ),
    Figure::same(
        "Request throughput (req/s)",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "Total token throughput (tok/s)",
        Metric::SystemTps,
        1.0,
        "counts prompt tokens as throughput",
        ToolDef::TotalTokenThroughput,
    ),
    mean("Average latency (s)", Latency::E2e, 1e3, DURATION),
    mean("Average time to first token (s)", Latency::Ttft, 1e3, FIRST),
    mean(
        "Average time per output token (s)",
        Latency::Tpot,
        1e3,
        TPOT_CAUSE,
    ),
    mean(
        "Average inter-token latency (s)",
        Latency::Itl,
        1e3,
        ITL_CAUSE,
    ),
    // From v1.7: TTFT, TPOT and ITL in ms (`Avg …` from v1.10).
    Figure::same("Test Duration (s)", Metric::DurationS, 1.0, DURATION),
    Figure::same("Success Requests", Metric::RequestsOk, 1.0, DURATION),
    Figure::same("Failed Requests", Metric::RequestsFailed, 1.0, DURATION),
    Figure::same("Output Throughput (tok/s)", Metric::SystemTps, 1.0, WINDOW),
    Figure::same(
        "Req Throughput (req/s)",
        Metric::RequestThroughput,
        1.0,
        WINDOW,
    ),
    Figure::tool(
        "Total Throughput (tok/s)",
        Metric::SystemTps,
        1.0,
        "counts prompt tokens as throughput",
        ToolDef::TotalTokenThroughput,
    ),
    mean("Avg Latency (s)", Latency::E2e, 1e3, DURATION),
    mean("TTFT (ms)", Latency::Ttft, 1.0, FIRST),
    mean("Avg TTFT (ms)", Latency::Ttft, 1.0, FIRST),
    mean("TPOT (ms)", Latency::Tpot, 1.0, TPOT_CAUSE),
    mean("Avg TPOT (ms)", Latency::Tpot, 1.0, TPOT_CAUSE),
    mean("ITL (ms)", Latency::Itl, 1.0, ITL_CAUSE),
    mean("Avg ITL (ms)", Latency::Itl, 1.0, ITL_CAUSE),
];

const NOTES: &[&str] = &[
    "one point per `benchmark_summary.json` (a sweep writes one per `parallel_<P>_number_<N>/` folder): its level `Number of concurrency` (v1.7+: `Concurrency`); `benchmark_args.json` beside it names the model",
    "the summary's figures as stated (means); its percentile table (`benchmark_percentile.json`: nearest rank, `sorted[int(n·p/100)]`) is not read yet, nor its per-request SQLite `benchmark_data.db` (monotonic `perf_counter` times; pickled columns that tpsview never unpickles)",
    "key names and units changed in v1.7 (`Test Duration (s)`, TTFT/TPOT/ITL in ms) and v1.10 (`Avg TTFT (ms)` …): both are read",
    "v1.7+ writes `KV Cache Hit Rate (%)` for multi-turn runs (from the server's `cached_tokens`), and v1.10 first- and later-turn TTFT: kept under their names",
];

/// evalscope's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "evalscope perf",
    groups: &[FIGURES],
    notes: NOTES,
};
