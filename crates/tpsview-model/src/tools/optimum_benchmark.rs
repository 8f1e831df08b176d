//! The figure table of optimum-benchmark (huggingface/optimum-benchmark), read by
//! `tpsview_formats::formats::optimum_benchmark` from its `benchmark.json` / `benchmark_report.json`.
//! Definitions from `optimum_benchmark/scenarios/inference/scenario.py` (the targets, lines 77–81
//! and 264–335; the volumes, 453–472) and `trackers/latency.py` (lines 23–84, 143–145) at b263af46
//! (0.7.0.dev0): one batch of `batch_size` sequences generated together, every latency in seconds
//! and for the whole batch.

use super::{Figure, Vocabulary};
use crate::vocabulary::{Latency, Metric, Stat};

/// Format id; also the reported-tool id.
pub const ID: &str = "optimum-benchmark";

const PREFILL: &str = "prefill is the batch's first forward pass over the prompts, from generate() to the first token's logits, in-process (no server, no network): every sequence's time to first token";
const PER_TOKEN: &str = "per_token is one decode step of the whole batch (the gap between two tokens), every sequence's time per output token; recorded only on the pytorch, onnxruntime, openvino, neural-compressor and ipex backends";
const GENERATE: &str = "generate is one whole generate() call of the batch, prefill and decode";
const DECODE: &str = "decode throughput is batch × beams × (new tokens − 1) over the mean decode time (prefill excluded: one token per sequence is made in the prefill), so it is above a system T/s over the whole generate() call; on backends without per-token timing the decode time is each generate less the mean prefill";

const FIGURES: &[Figure] = &[
    Figure::same(
        "prefill.latency.mean",
        Metric::Latency(Latency::Ttft, Stat::Mean),
        1e3,
        PREFILL,
    ),
    Figure::same(
        "prefill.latency.p50",
        Metric::Latency(Latency::Ttft, Stat::P50),
        1e3,
        PREFILL,
    ),
    Figure::same(
        "per_token.latency.mean",
        Metric::Latency(Latency::Tpot, Stat::Mean),
        1e3,
        PER_TOKEN,
    ),
    Figure::same(
        "generate.latency.mean",
        Metric::Latency(Latency::E2e, Stat::Mean),
        1e3,
        GENERATE,
    ),
    Figure::same("decode.throughput.value", Metric::SystemTps, 1.0, DECODE),
];

const NOTES: &[&str] = &[
    "in-process, one static batch: the level is the batch size (config.scenario.input_shapes.batch_size), every sequence of it starts and ends together",
    "prefill throughput is in samples/s (batch size over the prefill time), not tokens/s; it is kept as the tool's figure, not read as a token rate",
    "latency objects hold values, count, total, mean, p50–p99 and the population stdev, in s",
    "energy (kWh) and efficiency (samples or tokens per kWh) are kept as the tool's figures; decode energy is generate's less prefill's",
];

/// optimum-benchmark's vocabulary.
pub const VOCABULARY: Vocabulary = Vocabulary {
    tool: ID,
    name: "optimum-benchmark",
    groups: &[FIGURES],
    notes: NOTES,
};
