//! Each tool's figure table: its own names for its figures mapped to tpsview's metrics, with the
//! definition each follows and the likely cause of a difference ([`Vocabulary`]). Below the
//! readers and the analysis alike: a reader copies a tool's figures under the tool's names; the
//! metric engine and the audit look them up here by the tool's id, and never by a file format.

use crate::vocabulary::Metric;
pub use crate::vocabulary::{Def, Figure, Series, ToolDef, Vocabulary};

/// The four statistics of one latency distribution as a tool names them, in tpsview's ms with
/// `1.0` (`mean_tpot_ms`, `median_tpot_ms`, `p90_tpot_ms`, `p99_tpot_ms`).
macro_rules! underscore_stats {
    ($m:literal, $c:ident, $cause:expr) => {
        $crate::vocabulary::latency_figures(
            [
                concat!("mean_", $m, "_ms"),
                concat!("median_", $m, "_ms"),
                concat!("p90_", $m, "_ms"),
                concat!("p99_", $m, "_ms"),
            ],
            $crate::vocabulary::Latency::$c,
            1.0,
            $cause,
        )
    };
}

/// The same for nested keys (`time_to_first_token.avg`, `.p50`, `.p90`, `.p99`).
macro_rules! dotted_stats {
    ($m:literal, $c:ident, $cause:expr) => {
        $crate::vocabulary::latency_figures(
            [
                concat!($m, ".avg"),
                concat!($m, ".p50"),
                concat!($m, ".p90"),
                concat!($m, ".p99"),
            ],
            $crate::vocabulary::Latency::$c,
            1.0,
            $cause,
        )
    };
}

/// The four statistics of one latency block as a tool nests them (`PREFIX NAME.SUFFIX`, the
/// suffixes of its mean, p50, p90 and p99 in that order), its values × `scale` in ms.
macro_rules! nested_stats {
    ($prefix:literal, $m:literal, [$mean:literal, $p50:literal, $p90:literal, $p99:literal], $c:ident, $scale:expr, $cause:expr) => {
        $crate::vocabulary::latency_figures(
            [
                concat!($prefix, $m, ".", $mean),
                concat!($prefix, $m, ".", $p50),
                concat!($prefix, $m, ".", $p90),
                concat!($prefix, $m, ".", $p99),
            ],
            $crate::vocabulary::Latency::$c,
            $scale,
            $cause,
        )
    };
}

pub mod aiperf;
pub mod aiperf_sweep;
pub mod evalscope;
pub mod genai_bench;
pub mod genai_perf;
pub mod guidellm;
pub mod inference_benchmarker;
pub mod inference_perf;
pub mod inferencex;
pub mod llama_bench;
pub mod llama_benchy;
pub mod llama_server;
pub mod llmd;
pub mod llmperf;
pub mod mlperf;
pub mod ollama;
pub mod optimum_benchmark;
pub mod probe;
pub mod sglang;
pub mod tpsview;
pub mod trtllm;
pub mod vllm;
pub mod vllm_offline;

/// Every tool vocabulary tpsview knows.
pub const VOCABULARIES: &[Vocabulary] = &[
    vllm::VOCABULARY,
    sglang::VOCABULARY,
    sglang::ONE_BATCH_VOCABULARY,
    vllm_offline::LATENCY_VOCABULARY,
    vllm_offline::THROUGHPUT_VOCABULARY,
    genai_perf::VOCABULARY,
    aiperf::VOCABULARY,
    trtllm::VOCABULARY,
    llama_bench::VOCABULARY,
    llama_benchy::VOCABULARY,
    llama_server::VOCABULARY,
    llmperf::VOCABULARY,
    guidellm::VOCABULARY_V02,
    guidellm::VOCABULARY_V05,
    inference_benchmarker::VOCABULARY,
    mlperf::VOCABULARY,
    inferencex::VOCABULARY,
    inferencex::AGENTIC_VOCABULARY,
    aiperf_sweep::VOCABULARY,
    llmd::VOCABULARY,
    inference_perf::VOCABULARY,
    genai_bench::VOCABULARY,
    evalscope::VOCABULARY,
    ollama::VOCABULARY,
    optimum_benchmark::VOCABULARY,
    probe::VOCABULARY,
];

/// The vocabulary of a reported-tool id, when it is a known tool's.
pub fn vocabulary(tool: &str) -> Option<&'static Vocabulary> {
    VOCABULARIES.iter().find(|v| v.tool == tool)
}

/// Every vocabulary as Markdown, in one block.
pub fn vocabularies_markdown() -> String {
    VOCABULARIES
        .iter()
        .map(Vocabulary::markdown)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A tool's figures that are 1 ÷ another of its own, as (figure, of) by the tool's names: what
/// the audit checks where a file has no raw data (empty for most tools).
pub fn reciprocals(tool: &str) -> &'static [(&'static str, &'static str)] {
    if tool == inferencex::ID {
        inferencex::RECIPROCALS
    } else {
        &[]
    }
}

/// The figure table of a reported-tool id (empty for unknown ids).
pub fn reported_map(tool: &str) -> impl Iterator<Item = &'static Figure> {
    let groups: &'static [&'static [Figure]] = if tool == tpsview::ID {
        tpsview::figure_groups()
    } else {
        vocabulary(tool).map_or(&[], |v| v.groups)
    };
    groups.iter().flat_map(|g| g.iter())
}

/// The tool's own figure for tpsview metric `canonical`, with the tool's name for it, converted to
/// tpsview's unit; `None` when the tool reported nothing defined the same way.
pub fn reported_value(
    tool: &str,
    figures: &std::collections::BTreeMap<String, f64>,
    canonical: Metric,
) -> Option<(&'static str, f64)> {
    reported_map(tool)
        .filter(|f| f.canonical == canonical && f.def == Def::Same)
        .find_map(|f| figures.get(f.tool_key).map(|v| (f.tool_key, v * f.scale)))
}
