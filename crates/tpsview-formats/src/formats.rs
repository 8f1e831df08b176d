//! Format detection and dispatch. One module per tool under `formats/`, each defining its
//! [`FormatSpec`]s (id, name, signature, reader, summary partners) and its figure tables; this
//! file lists the specs once ([`SPECS`]) and the tool vocabularies once ([`VOCABULARIES`]).
//! Adding a format is its module, its [`Format`] variant and one line in [`SPECS`].

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::model::Report;
pub use crate::vocabulary::{Def, Figure, Series, ToolDef, Vocabulary};

pub mod aiperf;
pub mod aiperf_exports;
pub mod aiperf_sweep;
pub(crate) mod common;
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
pub mod mapping;
pub mod mlperf;
pub mod ollama;
pub mod openai;
pub mod optimum_benchmark;
mod records;
pub mod sglang;
mod telemetry;
pub mod tpsview;
pub mod trtllm;
pub mod vllm;
pub mod vllm_offline;

pub use tpsview_model::format::Format;

/// What the readers add to a [`Format`]: its reader and its summary partners.
pub trait FormatExt {
    /// What tpsview knows of this format, its reader included (the page, which reads only
    /// tpsview/1 itself, never calls this: it would link every importer).
    fn spec(self) -> &'static FormatSpec;
    /// For a file of raw per-request data, the summary formats of the same tool whose figures it
    /// pairs with (one run, one point per level); empty otherwise.
    fn summary_partners(self) -> &'static [Format];
}

impl FormatExt for Format {
    fn spec(self) -> &'static FormatSpec {
        SPECS[Format::ALL.iter().position(|&f| f == self).unwrap_or(0)]
    }

    fn summary_partners(self) -> &'static [Format] {
        PARTNERS[Format::ALL.iter().position(|&f| f == self).unwrap_or(0)]
    }
}

// The summary partners in a table built at compile time from [`SPECS`] but holding none of its
// readers: `group`, which the page runs, asks for partners, and reading them through `spec()`
// would link every importer into the page (+170 KB gzip; the loading worker's module carries them).
const PARTNERS: [&[Format]; SPECS.len()] = {
    let mut a: [&[Format]; SPECS.len()] = [&[]; SPECS.len()];
    let mut i = 0;
    while i < SPECS.len() {
        a[i] = SPECS[i].summary_partners;
        i += 1;
    }
    a
};

// The readers' table is in [`Format::ALL`]'s order (detection order), checked when it compiles.
const _: () = {
    let mut i = 0;
    while i < SPECS.len() {
        assert!(SPECS[i].format as u8 == Format::ALL[i] as u8);
        i += 1;
    }
};

/// One file format: its id and name, how to recognise it, how to read it, and which summary files
/// complete it. Each format's module defines its spec; [`SPECS`] lists them. Adding a format is
/// its module, its [`Format`] variant and one line in [`SPECS`].
#[derive(Debug)]
pub struct FormatSpec {
    /// The format.
    pub format: Format,
    /// Whether a file's sniffed ends carry the format's key signature: `has(needle)` tells
    /// whether either end holds `needle`; the second argument is the file's first bytes.
    pub detect: DetectFn,
    /// Keys (or words) its files carry: an unread file is told which format it most resembles
    /// and which of these it lacks.
    pub keys: &'static [&'static str],
    /// The reader: the file's name (for messages), its bytes, where to report progress.
    pub parse: ParseFn,
    /// See [`FormatExt::summary_partners`].
    pub summary_partners: &'static [Format],
    /// Its reader of a file as it arrives ([`Stream`]), for formats whose big files are read that
    /// way; `None`: read whole.
    pub stream: Option<MakeChunked>,
}

/// Every format, in detection order: the first whose signature matches wins, so a specific
/// signature comes before a general one (vLLM's `mean_tpot_ms` is last: others write it too).
pub const SPECS: [&FormatSpec; 39] = [
    &tpsview::SPEC,
    &vllm::sweep::CSV_SPEC,
    &llmd::SPEC,
    &inference_perf::SPEC,
    &genai_bench::SPEC,
    &evalscope::SPEC,
    &optimum_benchmark::SPEC,
    &aiperf_sweep::SPEC,
    &mlperf::SUMMARY_SPEC,
    &mlperf::DETAIL_SPEC,
    &mlperf::SYSTEM_SPEC,
    &inferencex::SPEC,
    &genai_perf::EXPORT_SPEC,
    &aiperf_exports::SERVER_STATS_SPEC,
    &aiperf::RECORDS_SPEC,
    &aiperf::SUMMARY_SPEC,
    &aiperf_exports::SERVER_METRICS_SPEC,
    &aiperf_exports::GPU_TELEMETRY_SPEC,
    &genai_perf::SUMMARY_SPEC,
    &genai_perf::CSV_SPEC,
    &guidellm::SPEC,
    &inference_benchmarker::SPEC,
    &trtllm::REPORT_SPEC,
    &trtllm::REQUESTS_SPEC,
    &trtllm::CONSOLE_SPEC,
    &vllm::CONSOLE_SPEC,
    &llama_bench::SPEC,
    &llama_benchy::SPEC,
    &llama_bench::TABLE_SPEC,
    &ollama::SPEC,
    &llama_server::SPEC,
    &llmperf::SUMMARY_SPEC,
    &llmperf::RESPONSES_SPEC,
    &sglang::ONE_BATCH_SPEC,
    &sglang::SPEC,
    &vllm_offline::LATENCY_SPEC,
    &vllm_offline::THROUGHPUT_SPEC,
    &vllm::SPEC,
    &mapping::SPEC,
];

/// Whether a file's sniffed ends hold a format's signature (see [`FormatSpec::detect`]).
pub type DetectFn = fn(&dyn Fn(&str) -> bool, &[u8]) -> bool;

/// A format's reader (see [`FormatSpec::parse`]).
pub type ParseFn = fn(
    &str,
    &[u8],
    &mut dyn crate::progress::Progress,
) -> Result<(Report, Vec<Diagnostic>), ParseError>;

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
    #[serde(with = "crate::error::as_tuples")]
    pub diagnostics: Vec<Diagnostic>,
    /// A run label the user chose: every run of the file takes it, and runs are then grouped by
    /// label alone (see the `group` module).
    pub run_label: Option<String>,
}

pub use crate::tools::{
    reported_map, reported_value, vocabularies_markdown, vocabulary, VOCABULARIES,
};

/// How many bytes at each end of a file detection looks at: summary keys can sit after megabytes
/// of per-request arrays (vLLM writes its `mean_*` keys last).
pub const SNIFF: usize = 64 * 1024;

/// Guesses the format from key signatures near both ends of the file.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    detect_ends(
        &bytes[..bytes.len().min(SNIFF)],
        &bytes[bytes.len().saturating_sub(SNIFF)..],
    )
}

/// [`detect`] from a file's first and last [`SNIFF`] bytes (or fewer, for a smaller file), for a
/// caller that reads the file as it arrives.
pub fn detect_ends(head: &[u8], tail: &[u8]) -> Option<Format> {
    let has = |needle: &str| contains(head, needle.as_bytes()) || contains(tail, needle.as_bytes());
    let start = strip_bom(head);
    SPECS
        .iter()
        .find(|s| (s.detect)(&has, start))
        .map(|s| s.format)
}

/// A plain scan over at most 128 KB, once per needle of every format's signature: the needle's
/// first byte found by `memchr` (rare in most text), the rest compared there only — not a slice
/// comparison at every offset. `memchr::memmem` would add its whole searcher to the wasm bundle.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut i = 0;
    while let Some(k) = memchr::memchr(first, &hay[i..]) {
        let at = i + k;
        if hay[at + 1..].starts_with(rest) {
            return true;
        }
        i = at + 1;
    }
    false
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
    check_not_empty(file, bytes).map_err(crate::redact::error)?;
    let (report, diagnostics) =
        (format.spec().parse)(file, bytes, progress).map_err(crate::redact::error)?;
    Ok(redacted(Parsed {
        file: file.to_owned(),
        format,
        report,
        diagnostics,
        run_label: None,
    }))
}

/// Reads `bytes` through a mapping (a file no reader knows): the same answer as a reader's,
/// masked alike.
pub fn parse_mapped(
    file: &str,
    bytes: &[u8],
    mapping: &mapping::Mapping,
) -> Result<Parsed, ParseError> {
    check_not_empty(file, bytes).map_err(crate::redact::error)?;
    let (report, diagnostics) =
        mapping::apply(file, bytes, mapping).map_err(crate::redact::error)?;
    Ok(redacted(Parsed {
        file: file.to_owned(),
        format: Format::Mapped,
        report,
        diagnostics,
        run_label: None,
    }))
}

/// A file no reader recognised, read through a mapping: the one `given` makes for its shape (the
/// viewer's: the mapping it holds with a correction, `mapping::edit`), else one of `saved` made
/// for its key set, else the one proposed from its fields' names (`mapping::choose`). `None`
/// where the file shows no rows of named fields. The offer — what the file holds, the mapping
/// used and its origin — is for the viewer's panel; its sample values are masked as every answer
/// is (a field named like a secret shows none).
pub fn read_unknown(
    file: &str,
    bytes: &[u8],
    given: impl FnOnce(&mapping::Shape) -> Option<mapping::Mapping>,
    saved: &[mapping::Mapping],
) -> Option<(Result<Parsed, ParseError>, mapping::Offer)> {
    let mut shape = mapping::inspect(file, bytes)
        .ok()
        .filter(|s| !s.fields.is_empty())?;
    for f in &mut shape.fields {
        if crate::redact::is_secret_name(&f.name) {
            f.samples = vec![crate::redact::MASK.to_owned()];
        } else {
            f.samples.iter_mut().for_each(crate::redact::in_place);
        }
    }
    let given = given(&shape);
    let (m, origin) = mapping::choose(&shape, given.as_ref(), saved);
    let result = parse_mapped(file, bytes, &m);
    Some((
        result,
        mapping::Offer {
            shape,
            mapping: m,
            origin,
        },
    ))
}

/// A parsed file with its secrets masked (`crate::redact`): every importer's answer leaves
/// through this, so no key a file carries reaches anything that shows or writes it.
fn redacted(mut p: Parsed) -> Parsed {
    crate::redact::in_place(&mut p.file);
    crate::redact::opt(&mut p.run_label);
    crate::redact::report(&mut p.report);
    crate::redact::diagnostics(&mut p.diagnostics);
    p
}

/// [`parse`] for `tpsview/1` alone: the browser page's own reads (its built-in samples, a shared
/// link's bundle, runs kept in the browser) go through this, which links no other importer.
pub fn parse_tpsview(file: &str, bytes: &[u8]) -> Result<Parsed, ParseError> {
    // Not masked again here: the page reads only what tpsview itself wrote from files it had
    // already read, and so masked (its samples, a link's bundle, runs it kept); every file a user
    // opens is read by the loading worker through `parse_with_progress`. The scanner stays out of
    // the page's module (3.6 KB gzip).
    check_not_empty(file, bytes)?;
    let (report, diagnostics) = tpsview::parse(file, bytes)?;
    Ok(Parsed {
        file: file.to_owned(),
        format: Format::Tpsview,
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
    check_not_empty(file, bytes).map_err(crate::redact::error)?;
    // A sweep's record of a run that failed: said as what it is.
    if let Some(d) = vllm::sweep::failure(file, bytes) {
        return Err(crate::redact::error(ParseError::new(
            file,
            ParseErrorKind::NoData(d.message),
        )));
    }
    match detect(bytes) {
        Some(f) => parse_with_progress(f, file, bytes, progress),
        None => Err(crate::redact::error(ParseError::new(
            file,
            ParseErrorKind::UnknownFormat {
                looked_like: describe(bytes),
                nearest: nearest(bytes),
                // Less the mapping, which is never detected.
                formats: Format::ALL.len() - 1,
            },
        ))),
    }
}

/// A file read as it arrives, chunk by chunk, for the formats whose big files are read that way:
/// vLLM and SGLang `bench_serving` (the byte scanner's steps) and the record formats, AIPerf's
/// `profile_export.jsonl` and LLMPerf's individual responses (whole records cut as they complete,
/// `records.rs`), and GenAI-Perf exports (each request as it completes, `genai_perf/chunked.rs`). Memory then holds the parsed columns and one chunk, never the whole file, and
/// parsing overlaps reading. Anything these readers do not take (the serde path's cases: a `null`
/// in an array, a bare `NaN`, a truncated file, a broken line…) makes [`finish`](Self::finish)
/// answer `None`: the caller then reads the whole file with [`parse`], which says what is wrong
/// exactly as for a file read whole.
pub struct Stream {
    format: Format,
    file: String,
    inner: Box<dyn Chunked>,
}

/// A reader that takes a file as it arrives, chunk by chunk; a format that has one names its
/// maker in its [`FormatSpec::stream`].
pub trait Chunked {
    /// The next bytes of the file; `false` once the reader has given up.
    fn feed(&mut self, chunk: &[u8], progress: &mut dyn crate::progress::Progress) -> bool;

    /// The end of the file: its report, or `None` when the whole file must be read with
    /// [`parse`].
    fn finish(
        self: Box<Self>,
        file: &str,
        progress: &mut dyn crate::progress::Progress,
    ) -> Option<Result<(Report, Vec<Diagnostic>), ParseError>>;

    /// Gives up sooner on a step that cannot complete (the byte scanner's; see
    /// `vllm::steps::PATIENCE`).
    #[cfg(test)]
    fn set_patience(&mut self, _bytes: usize) {}
}

/// Makes a format's [`Chunked`] reader of a file (its name, and its size when known: it bounds
/// what is reserved up front).
pub type MakeChunked = fn(&str, Option<u64>) -> Box<dyn Chunked>;

impl Stream {
    /// A reader of `file` as `format`, or `None` when that format is read whole. `size`: the
    /// file's size when known (it bounds what is reserved up front).
    pub fn new(format: Format, file: &str, size: Option<u64>) -> Option<Stream> {
        let make = format.spec().stream?;
        Some(Stream {
            format,
            file: file.to_owned(),
            inner: make(file, size),
        })
    }

    /// Gives up sooner on a step that cannot complete (see `vllm::steps::PATIENCE`).
    #[cfg(test)]
    pub(crate) fn set_patience(&mut self, bytes: usize) {
        self.inner.set_patience(bytes);
    }

    /// The next bytes of the file. `false` once the reader has given up: later chunks are not
    /// needed, and [`finish`](Self::finish) will answer `None`.
    pub fn feed(&mut self, chunk: &[u8], progress: &mut dyn crate::progress::Progress) -> bool {
        self.inner.feed(chunk, progress)
    }

    /// The end of the file: what [`parse`] would give, or `None` when the whole file must be read
    /// with [`parse`].
    pub fn finish(
        self,
        progress: &mut dyn crate::progress::Progress,
    ) -> Option<Result<Parsed, ParseError>> {
        let (format, file) = (self.format, self.file);
        let read = self.inner.finish(&file, progress)?;
        Some(
            read.map(|(report, diagnostics)| {
                redacted(Parsed {
                    file,
                    format,
                    report,
                    diagnostics,
                    run_label: None,
                })
            })
            .map_err(crate::redact::error),
        )
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

/// The format an unread file most resembles (the most of its [`FormatSpec::keys`] found near
/// either end, at least two), in words: what it has and what it lacks.
fn nearest(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(SNIFF)];
    let tail = &bytes[bytes.len().saturating_sub(SNIFF)..];
    let has = |k: &str| {
        // A JSON or YAML key, or a word of a text report.
        let quoted = format!("\"{k}\"");
        let yaml = format!("{k}:");
        [k, quoted.as_str(), yaml.as_str()]
            .iter()
            .skip(usize::from(
                k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            ))
            .any(|n| contains(head, n.as_bytes()) || contains(tail, n.as_bytes()))
    };
    let (spec, _) = SPECS
        .iter()
        .map(|s| (s, s.keys.iter().filter(|k| has(k)).count()))
        .filter(|(_, n)| *n >= 2)
        .max_by_key(|(s, n)| (*n * 100 / s.keys.len().max(1), *n))?;
    let (got, lacks): (Vec<&str>, Vec<&str>) = spec.keys.iter().partition(|k| has(k));
    Some(format!(
        "it looks most like {} (id {}): it has {} but not {}",
        spec.format.name(),
        spec.format.id(),
        got.join(", "),
        if lacks.is_empty() {
            "the layout that format's reader expects".to_owned()
        } else {
            lacks.join(", ")
        }
    ))
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

/// The chunk sizes the streamed readers are tested in (each cycled by [`read_in_chunks`]): bytes
/// one, two and three at a time, uneven sizes, small and page-sized chunks, and the whole file.
#[cfg(test)]
pub(crate) const TEST_CHUNKINGS: [&[usize]; 7] =
    [&[1], &[2], &[3], &[7, 1, 13], &[64], &[4096], &[1 << 30]];

/// Tests' reading of `bytes` through a [`Stream`] in the given chunk sizes (cycled), as `name`:
/// what it gave (`Debug`), or `None` when it gave way to the whole-file reader.
#[cfg(test)]
pub(crate) fn read_in_chunks(
    format: Format,
    name: &str,
    bytes: &[u8],
    sizes: &[usize],
) -> Option<String> {
    let mut s =
        Stream::new(format, name, Some(bytes.len() as u64)).expect("a format read as it arrives");
    let mut at = 0;
    for &n in sizes.iter().cycle() {
        if at >= bytes.len() {
            break;
        }
        let end = (at + n.max(1)).min(bytes.len());
        if !s.feed(&bytes[at..end], &mut crate::progress::Silent) {
            break;
        }
        at = end;
    }
    s.finish(&mut crate::progress::Silent)
        .map(|r| format!("{r:?}"))
}

#[cfg(test)]
mod tests;
