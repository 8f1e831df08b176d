//! Format detection and dispatch. One module per tool under `formats/`; adding a tool is one file
//! plus one line in each table here.

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::model::Report;
use crate::vocabulary::Metric;

/// The four statistics of one latency distribution as a tool names them, in tpsview's ms with
/// `1.0` (`mean_tpot_ms`, `median_tpot_ms`, `p90_tpot_ms`, `p99_tpot_ms`).
macro_rules! underscore_stats {
    ($m:literal, $c:ident, $cause:expr) => {
        $crate::formats::latency_figures(
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
        $crate::formats::latency_figures(
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

/// A latency distribution's mean, p50, p90 and p99 under the tool's `keys` (in that order), each
/// defined as tpsview defines it; the tool's value × `scale` is milliseconds.
pub(crate) const fn latency_figures(
    keys: [&'static str; 4],
    d: crate::vocabulary::Latency,
    scale: f64,
    likely_cause: &'static str,
) -> [Figure; 4] {
    use crate::vocabulary::Stat;
    [
        Figure::same(keys[0], Metric::Latency(d, Stat::Mean), scale, likely_cause),
        Figure::same(keys[1], Metric::Latency(d, Stat::P50), scale, likely_cause),
        Figure::same(keys[2], Metric::Latency(d, Stat::P90), scale, likely_cause),
        Figure::same(keys[3], Metric::Latency(d, Stat::P99), scale, likely_cause),
    ]
}

pub mod aiperf;
mod common;
pub mod genai_perf;
pub mod guidellm;
pub mod inference_benchmarker;
pub mod llama_bench;
pub mod llmperf;
pub mod openai;
pub mod sglang;
pub mod tpsview;
pub mod trtllm;
pub mod vllm;
pub mod vllm_offline;

/// The file formats tpsview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// tpsview's own report format, `tpsview/1`.
    Tpsview,
    /// vLLM `bench serve` / `benchmark_serving.py` result files.
    VllmServe,
    /// vLLM `bench latency --output-json`.
    VllmLatency,
    /// vLLM `bench throughput --output-json`.
    VllmThroughput,
    /// SGLang `bench_serving` JSONL.
    SglangServe,
    /// SGLang `bench_one_batch` JSONL.
    SglangOneBatch,
    /// GenAI-Perf `profile_export.json` (raw per-request timestamps).
    GenaiPerfExport,
    /// GenAI-Perf `profile_export_genai_perf.json` (summary).
    GenaiPerfSummary,
    /// GenAI-Perf `profile_export_genai_perf.csv` (summary).
    GenaiPerfCsv,
    /// AIPerf `profile_export.jsonl` (per-request records).
    AiperfRecords,
    /// AIPerf `profile_export_aiperf.json` (summary).
    AiperfSummary,
    /// TensorRT-LLM `trtllm-bench --report_json`.
    TrtllmReport,
    /// TensorRT-LLM `trtllm-bench --request_json`.
    TrtllmRequests,
    /// llama.cpp `llama-bench -o json|jsonl`.
    LlamaBench,
    /// LLMPerf `*_summary.json`.
    LlmperfSummary,
    /// LLMPerf `*_individual_responses.json`.
    LlmperfResponses,
    /// GuideLLM `benchmarks.json` (v0.2–0.3 and v0.4+ schemas).
    Guidellm,
    /// Hugging Face `inference-benchmarker` results.
    InferenceBenchmarker,
}

impl Format {
    /// Every format, in detection order.
    pub const ALL: &'static [Format] = &[
        Format::Tpsview,
        Format::GenaiPerfExport,
        Format::AiperfRecords,
        Format::AiperfSummary,
        Format::GenaiPerfSummary,
        Format::GenaiPerfCsv,
        Format::Guidellm,
        Format::InferenceBenchmarker,
        Format::TrtllmReport,
        Format::TrtllmRequests,
        Format::LlamaBench,
        Format::LlmperfSummary,
        Format::LlmperfResponses,
        Format::SglangOneBatch,
        Format::SglangServe,
        Format::VllmLatency,
        Format::VllmThroughput,
        Format::VllmServe,
    ];

    /// A stable id, used in reports (`source_format`) and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Format::Tpsview => tpsview::ID,
            Format::VllmServe => vllm::ID,
            Format::VllmLatency => vllm_offline::LATENCY_ID,
            Format::VllmThroughput => vllm_offline::THROUGHPUT_ID,
            Format::SglangServe => sglang::ID,
            Format::SglangOneBatch => sglang::ONE_BATCH_ID,
            Format::GenaiPerfExport => genai_perf::EXPORT_ID,
            Format::GenaiPerfSummary => genai_perf::SUMMARY_ID,
            Format::GenaiPerfCsv => genai_perf::CSV_ID,
            Format::AiperfRecords => aiperf::RECORDS_ID,
            Format::AiperfSummary => aiperf::SUMMARY_ID,
            Format::TrtllmReport => trtllm::REPORT_ID,
            Format::TrtllmRequests => trtllm::REQUESTS_ID,
            Format::LlamaBench => llama_bench::ID,
            Format::LlmperfSummary => llmperf::SUMMARY_ID,
            Format::LlmperfResponses => llmperf::RESPONSES_ID,
            Format::Guidellm => guidellm::ID,
            Format::InferenceBenchmarker => inference_benchmarker::ID,
        }
    }

    /// A human name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Tpsview => "tpsview report (tpsview/1)",
            Format::VllmServe => "vLLM bench serve result",
            Format::VllmLatency => "vLLM bench latency JSON",
            Format::VllmThroughput => "vLLM bench throughput JSON",
            Format::SglangServe => "SGLang bench_serving JSONL",
            Format::SglangOneBatch => "SGLang bench_one_batch JSONL",
            Format::GenaiPerfExport => "GenAI-Perf profile_export.json",
            Format::GenaiPerfSummary => "GenAI-Perf profile_export_genai_perf.json",
            Format::GenaiPerfCsv => "GenAI-Perf profile_export_genai_perf.csv",
            Format::AiperfRecords => "AIPerf profile_export.jsonl",
            Format::AiperfSummary => "AIPerf profile_export_aiperf.json",
            Format::TrtllmReport => "TensorRT-LLM trtllm-bench report JSON",
            Format::TrtllmRequests => "TensorRT-LLM trtllm-bench request JSON",
            Format::LlamaBench => "llama.cpp llama-bench JSON/JSONL",
            Format::LlmperfSummary => "LLMPerf summary JSON",
            Format::LlmperfResponses => "LLMPerf individual_responses JSON",
            Format::Guidellm => "GuideLLM benchmarks JSON",
            Format::InferenceBenchmarker => "HF inference-benchmarker results",
        }
    }

    /// The format with this id.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// For a file of raw per-request data, the summary formats of the same tool whose figures it
    /// pairs with (one run, one point per level); empty otherwise.
    pub fn summary_partners(self) -> &'static [Format] {
        match self {
            Format::GenaiPerfExport => &[Format::GenaiPerfSummary, Format::GenaiPerfCsv],
            Format::AiperfRecords => &[Format::AiperfSummary],
            Format::TrtllmRequests => &[Format::TrtllmReport],
            Format::LlmperfResponses => &[Format::LlmperfSummary],
            _ => &[],
        }
    }

    fn parser(self) -> ParseFn {
        match self {
            Format::Tpsview => tpsview::parse,
            Format::VllmServe => vllm::parse,
            Format::VllmLatency => vllm_offline::parse_latency,
            Format::VllmThroughput => vllm_offline::parse_throughput,
            Format::SglangServe => sglang::parse,
            Format::SglangOneBatch => sglang::parse_one_batch,
            Format::GenaiPerfExport => genai_perf::parse_export,
            Format::GenaiPerfSummary => genai_perf::parse_summary,
            Format::GenaiPerfCsv => genai_perf::parse_csv,
            Format::AiperfRecords => aiperf::parse_records,
            Format::AiperfSummary => aiperf::parse_summary,
            Format::TrtllmReport => trtllm::parse_report,
            Format::TrtllmRequests => trtllm::parse_requests,
            Format::LlamaBench => llama_bench::parse,
            Format::LlmperfSummary => llmperf::parse_summary,
            Format::LlmperfResponses => llmperf::parse_responses,
            Format::Guidellm => guidellm::parse,
            Format::InferenceBenchmarker => inference_benchmarker::parse,
        }
    }

    /// Whether the file's sniffed ends carry this format's key signature.
    fn matches(self, has: &dyn Fn(&str) -> bool, text_start: &[u8]) -> bool {
        match self {
            Format::Tpsview => has("\"tpsview/") && has("\"format\""),
            Format::GenaiPerfExport => has("\"experiments\"") && has("\"response_timestamps\""),
            Format::AiperfRecords => has("\"request_start_ns\"") && has("\"metrics\""),
            Format::AiperfSummary => {
                (has("\"aiperf_version\"") || has("\"schema_version\""))
                    && has("\"time_to_first_token\"")
            }
            Format::GenaiPerfSummary => {
                has("\"time_to_first_token\"") && has("\"unit\"") && has("\"input_config\"")
            }
            Format::GenaiPerfCsv => text_start.starts_with(b"Metric,") && has("Request Latency"),
            Format::Guidellm => has("\"generative_benchmark\"") && has("\"benchmarks\""),
            Format::InferenceBenchmarker => has("\"token_throughput_secs\""),
            Format::TrtllmReport => {
                has("\"performance\"") && has("\"request_info\"") && has("\"world_info\"")
            }
            Format::TrtllmRequests => {
                has("\"first_token_timestamp\"") && has("\"start_timestamp\"")
            }
            Format::LlamaBench => has("\"avg_ts\"") && has("\"n_gen\"") && has("\"n_prompt\""),
            Format::LlmperfSummary => {
                has("\"results_ttft_s_mean\"") || has("\"results_num_completed_requests\"")
            }
            Format::LlmperfResponses => has("\"ttft_s\"") && has("\"end_to_end_latency_s\""),
            Format::SglangOneBatch => {
                has("\"prefill_latency\"") && has("\"median_decode_latency\"")
            }
            Format::SglangServe => {
                has("\"total_output_tokens_retokenized\"")
                    || (has("\"mean_e2e_latency_ms\"") && has("\"concurrency\""))
            }
            Format::VllmLatency => {
                has("\"avg_latency\"") && has("\"latencies\"") && has("\"percentiles\"")
            }
            Format::VllmThroughput => has("\"elapsed_time\"") && has("\"tokens_per_second\""),
            Format::VllmServe => {
                has("\"mean_tpot_ms\"")
                    || has("\"total_token_throughput\"")
                    || has("\"output_throughput\"")
            }
        }
    }
}

type ParseFn = fn(&str, &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError>;

/// A parsed file: the report it holds and what was skipped or substituted while reading it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Parsed {
    /// The file's name.
    pub file: String,
    /// The detected (or chosen) format.
    pub format: Format,
    /// The data.
    pub report: Report,
    /// Recoverable problems, in file order.
    #[serde(with = "crate::model::as_json")]
    pub diagnostics: Vec<Diagnostic>,
    /// A run label the user chose: every run of the file takes it, and runs are then grouped by
    /// label alone (see the `group` module).
    pub run_label: Option<String>,
}

/// One of a tool's reported figures and the tpsview metric it corresponds to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The tool's key, e.g. `mean_tpot_ms` (nested keys joined with `.`).
    pub tool_key: &'static str,
    /// tpsview's metric nearest to it.
    pub canonical: Metric,
    /// Multiply the tool's value by this to get tpsview's unit.
    pub scale: f64,
    /// Why the two may differ, in a few words (shown with a discrepancy).
    pub likely_cause: &'static str,
    /// How the tool defines the figure.
    pub def: Def,
}

/// How a tool defines one of its figures, relative to tpsview's metric of the same meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Def {
    /// The same definition as tpsview's `canonical` metric: shown beside it, used for it when the
    /// file has no raw data, and audited against it.
    Same,
    /// A different definition: never shown as tpsview's metric; the audit recomputes it the tool's
    /// way from the raw data.
    Tool(ToolDef),
}

/// A tool's own definition of a figure, recomputable from per-request data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolDef {
    /// Mean over requests of (N − 1) / (E2E − TTFT), tokens/s: each request's decode rate,
    /// averaged (tpsview's per-stream T/s is 1 / mean TPOT instead).
    DecodeRateMean,
    /// Mean over requests of N / E2E, tokens/s: includes the wait for the first token.
    UserRateMean,
    /// Σ (E2E − TTFT) / Σ (N − 1), ms: a token-weighted mean TPOT.
    TokenWeightedTpot,
    /// Σ (E2E − TTFT) / Σ N, ms: decode time per output token, divided by N rather than N − 1.
    DecodePerToken,
    /// Σ E2E / Σ N, ms: whole-request time per output token, first-token wait included.
    E2ePerToken,
    /// (Σ input + Σ output tokens) / duration, tokens/s: prompt tokens counted as throughput.
    TotalTokenThroughput,
    /// All requests, failed ones included, / duration, requests/s.
    AllRequestsThroughput,
    /// Mean over requests of E2E / number of streamed chunks: first-token wait included.
    E2ePerChunk,
    /// Prompt tokens / prefill time: prefill throughput, not decode.
    PrefillRate,
    /// (Prompt + generated tokens) / time of a test that does both.
    MixedRate,
    /// The p-th percentile (0–100) of a per-request series taken as `sorted[int(n · p / 100)]`,
    /// without interpolation.
    NearestIndex(Series, u8),
}

/// A per-request series, for [`ToolDef::NearestIndex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// Time to first token.
    Ttft,
    /// Time per output token.
    Tpot,
    /// End-to-end latency.
    E2e,
}

impl ToolDef {
    /// The definition in words, for the docs and the UI's definitions table.
    pub fn describe(self) -> &'static str {
        match self {
            ToolDef::DecodeRateMean => "mean over requests of (N − 1) / (E2E − TTFT)",
            ToolDef::UserRateMean => "mean over requests of N / E2E (first-token wait included)",
            ToolDef::TokenWeightedTpot => "token-weighted: Σ (E2E − TTFT) / Σ (N − 1)",
            ToolDef::DecodePerToken => {
                "token-weighted: Σ (E2E − TTFT) / Σ N (divides by N, not N − 1)"
            }
            ToolDef::E2ePerToken => "token-weighted: Σ E2E / Σ N (first-token wait included)",
            ToolDef::TotalTokenThroughput => "(prompt + output tokens) / duration",
            ToolDef::AllRequestsThroughput => "all requests, failed included, / duration",
            ToolDef::E2ePerChunk => {
                "mean over requests of E2E / chunks (first-token wait included)"
            }
            ToolDef::PrefillRate => "prompt tokens / prefill time (prefill, not decode)",
            ToolDef::MixedRate => "(prompt + generated tokens) / test time",
            ToolDef::NearestIndex(..) => "percentile as sorted[int(n · p)], no interpolation",
        }
    }
}

impl Figure {
    /// A figure defined as tpsview defines `canonical`.
    pub const fn same(
        tool_key: &'static str,
        canonical: Metric,
        scale: f64,
        likely_cause: &'static str,
    ) -> Figure {
        Figure {
            tool_key,
            canonical,
            scale,
            likely_cause,
            def: Def::Same,
        }
    }

    /// A figure the tool defines its own way.
    pub const fn tool(
        tool_key: &'static str,
        canonical: Metric,
        scale: f64,
        likely_cause: &'static str,
        def: ToolDef,
    ) -> Figure {
        Figure {
            tool_key,
            canonical,
            scale,
            likely_cause,
            def: Def::Tool(def),
        }
    }
}

/// One tool's vocabulary: its display name, its figures, and what else differs (shown in the UI
/// beside a file from that tool, and in docs/formats.md).
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary {
    /// Reported-tool id (what [`crate::model::Reported::tool`] holds).
    pub tool: &'static str,
    /// The tool's name, e.g. `GenAI-Perf`.
    pub name: &'static str,
    /// Figure table, in groups (e.g. the tool's own figures, then one group per distribution).
    pub groups: &'static [&'static [Figure]],
    /// Definitional differences that are not one figure's: token counting, duration window,
    /// concurrency field, percentile method.
    pub notes: &'static [&'static str],
}

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
    llmperf::VOCABULARY,
    guidellm::VOCABULARY_V02,
    guidellm::VOCABULARY_V05,
    inference_benchmarker::VOCABULARY,
];

/// The vocabulary of a reported-tool id, when it is a known tool's.
pub fn vocabulary(tool: &str) -> Option<&'static Vocabulary> {
    VOCABULARIES.iter().find(|v| v.tool == tool)
}

impl Vocabulary {
    /// Every figure, in table order.
    pub fn figures(&self) -> impl Iterator<Item = &'static Figure> {
        self.groups.iter().flat_map(|g| g.iter())
    }

    /// How the tool's figure `f` relates to tpsview's metric, in words.
    pub fn relation(f: &Figure) -> &'static str {
        match f.def {
            Def::Same => "same quantity as tpsview's",
            Def::Tool(d) => d.describe(),
        }
    }

    /// The vocabulary as Markdown: the mapping table and the notes (docs/formats.md holds this
    /// text, checked by a test).
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "### {} — figures of `{}`\n\n| {} figure | tpsview metric | definition | why they may differ |\n|---|---|---|---|\n",
            self.name, self.tool, self.name
        );
        for f in self.figures() {
            let unit = if f.scale == 1.0 {
                String::new()
            } else {
                format!(" (× {})", f.scale)
            };
            out.push_str(&format!(
                "| `{}`{unit} | `{}` | {} | {} |\n",
                f.tool_key,
                f.canonical,
                Vocabulary::relation(f),
                f.likely_cause
            ));
        }
        out.push('\n');
        for n in self.notes {
            out.push_str(&format!("- {n}\n"));
        }
        out
    }
}

/// Every vocabulary as Markdown, in one block.
pub fn vocabularies_markdown() -> String {
    VOCABULARIES
        .iter()
        .map(Vocabulary::markdown)
        .collect::<Vec<_>>()
        .join("\n")
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

/// How many bytes at each end of a file detection looks at: summary keys can sit after megabytes
/// of per-request arrays (vLLM writes its `mean_*` keys last).
const SNIFF: usize = 64 * 1024;

/// Guesses the format from key signatures near both ends of the file.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(SNIFF)];
    let tail = &bytes[bytes.len().saturating_sub(SNIFF)..];
    let has = |needle: &str| contains(head, needle.as_bytes()) || contains(tail, needle.as_bytes());
    let start = strip_bom(head);
    Format::ALL.iter().copied().find(|f| f.matches(&has, start))
}

/// A plain scan: it runs once per file over at most 128 KB, and `memchr::memmem` would add its
/// whole searcher to the wasm bundle.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Parses `bytes` as `format`. `file` names the file in every error and diagnostic.
pub fn parse(format: Format, file: &str, bytes: &[u8]) -> Result<Parsed, ParseError> {
    parse_with_progress(format, file, bytes, &mut crate::progress::Silent)
}

/// [`parse`], reporting the requests read so far to `progress` (the byte scanner's formats:
/// vLLM and SGLang `bench_serving`; the others report nothing).
pub fn parse_with_progress(
    format: Format,
    file: &str,
    bytes: &[u8],
    progress: &mut dyn crate::progress::Progress,
) -> Result<Parsed, ParseError> {
    check_not_empty(file, bytes)?;
    let (report, diagnostics) = match format {
        Format::VllmServe => vllm::parse_with(file, bytes, true, vllm::VLLM, progress)?,
        Format::SglangServe => sglang::parse_with_progress(file, bytes, progress)?,
        _ => (format.parser())(file, bytes)?,
    };
    Ok(Parsed {
        file: file.to_owned(),
        format,
        report,
        diagnostics,
        run_label: None,
    })
}

/// Detects the format and parses; an unknown file gets an error that lists the supported formats
/// and says what the file looked like.
pub fn parse_any(file: &str, bytes: &[u8]) -> Result<Parsed, ParseError> {
    parse_any_with_progress(file, bytes, &mut crate::progress::Silent)
}

/// [`parse_any`], reporting progress as [`parse_with_progress`] does.
pub fn parse_any_with_progress(
    file: &str,
    bytes: &[u8],
    progress: &mut dyn crate::progress::Progress,
) -> Result<Parsed, ParseError> {
    check_not_empty(file, bytes)?;
    match detect(bytes) {
        Some(f) => parse_with_progress(f, file, bytes, progress),
        None => Err(ParseError::new(
            file,
            ParseErrorKind::UnknownFormat {
                looked_like: describe(bytes),
                supported: Format::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        )),
    }
}

fn check_not_empty(file: &str, bytes: &[u8]) -> Result<(), ParseError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        Err(ParseError::new(file, ParseErrorKind::Empty))
    } else {
        Ok(())
    }
}

/// A short description of unrecognised bytes, for the error message.
fn describe(bytes: &[u8]) -> String {
    let b = strip_bom(bytes);
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return "UTF-16 text; save it as UTF-8".into();
    }
    if bytes.starts_with(b"\x89PNG") {
        return "a PNG image".into();
    }
    let first = b.iter().find(|c| !c.is_ascii_whitespace()).copied();
    match first {
        Some(b'{') | Some(b'[') => match serde_json::from_slice::<crate::lenient::Shape>(b) {
            Ok(crate::lenient::Shape::Object(keys)) => {
                let keys: Vec<_> = keys.iter().map(|k| truncate(k, 40)).collect();
                format!("a JSON object with keys {}", keys.join(", "))
            }
            Ok(crate::lenient::Shape::Array(n)) => format!("a JSON array of {n} items"),
            Ok(crate::lenient::Shape::Scalar) => "JSON".into(),
            Err(e) => format!(
                "JSON that does not parse: {}",
                ParseError::from_json("", &e, None).kind
            ),
        },
        Some(_) if std::str::from_utf8(b).is_err() => "binary data, not text".into(),
        Some(_) => {
            let line = String::from_utf8_lossy(b)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned();
            format!("text starting {:?}", truncate(&line, 40))
        }
        None => "whitespace".into(),
    }
}

/// Drops a UTF-8 byte-order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

/// The field path of a type error, from where serde_json stopped.
pub(crate) fn path_of_error(bytes: &[u8], err: &serde_json::Error) -> Option<String> {
    // A truncated file: the value it was cut inside.
    let offset = if err.is_eof() {
        bytes.len().saturating_sub(1)
    } else if err.is_data() && err.line() > 0 {
        crate::scan::offset_of(bytes, err.line(), err.column())
    } else {
        return None;
    };
    let path = crate::scan::path_at(bytes, offset);
    (!path.is_empty()).then_some(path)
}

#[cfg(test)]
mod tests;
