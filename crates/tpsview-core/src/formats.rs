//! Format detection and dispatch. One module per tool under `formats/`; adding a tool is one file
//! plus one line in each table here.

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::model::Report;

pub mod tpsview;
pub mod vllm;

/// The file formats tpsview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    /// tpsview's own report format, `tpsview/1`.
    Tpsview,
    /// vLLM `bench serve` / `benchmark_serving.py` result files.
    VllmServe,
}

impl Format {
    /// Every format, in detection order.
    pub const ALL: &'static [Format] = &[Format::Tpsview, Format::VllmServe];

    /// A stable id, used in reports (`source_format`) and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Format::Tpsview => tpsview::ID,
            Format::VllmServe => vllm::ID,
        }
    }

    /// A human name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Tpsview => "tpsview report (tpsview/1)",
            Format::VllmServe => "vLLM bench serve result",
        }
    }

    /// The format with this id.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.id() == id)
    }
}

/// A parsed file: the report it holds and what was skipped or substituted while reading it.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The file's name.
    pub file: String,
    /// The detected (or chosen) format.
    pub format: Format,
    /// The data.
    pub report: Report,
    /// Recoverable problems, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

/// One of a tool's reported figures and the tpsview metric it corresponds to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The tool's key, e.g. `mean_tpot_ms`.
    pub tool_key: &'static str,
    /// tpsview's flat metric name (see [`crate::metrics::METRIC_NAMES`]).
    pub canonical: &'static str,
    /// Multiply the tool's value by this to get tpsview's unit.
    pub scale: f64,
    /// Why the two may differ, in a few words (shown with a discrepancy).
    pub likely_cause: &'static str,
}

/// The figure table of a format id (empty for unknown ids).
pub fn reported_map(tool: &str) -> &'static [Figure] {
    match tool {
        tpsview::ID => tpsview::figures(),
        vllm::ID => vllm::FIGURES,
        _ => &[],
    }
}

/// The tool's own figure for tpsview metric `canonical`, with the tool's name for it, converted to
/// tpsview's unit; `None` when the tool reported nothing comparable.
pub fn reported_value(
    tool: &str,
    figures: &std::collections::BTreeMap<String, f64>,
    canonical: &str,
) -> Option<(&'static str, f64)> {
    reported_map(tool)
        .iter()
        .find(|f| f.canonical == canonical)
        .and_then(|f| figures.get(f.tool_key).map(|v| (f.tool_key, v * f.scale)))
}

/// How many bytes at each end of a file detection looks at: summary keys can sit after megabytes
/// of per-request arrays (vLLM writes its `mean_*` keys last).
const SNIFF: usize = 64 * 1024;

/// Guesses the format from key signatures near both ends of the file.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(SNIFF)];
    let tail = &bytes[bytes.len().saturating_sub(SNIFF)..];
    let has = |needle: &str| contains(head, needle.as_bytes()) || contains(tail, needle.as_bytes());
    if has("\"tpsview/") && has("\"format\"") {
        return Some(Format::Tpsview);
    }
    if (has("\"mean_tpot_ms\"")
        || has("\"total_token_throughput\"")
        || has("\"output_throughput\""))
        && !has("\"total_output_tokens_retokenized\"")
    {
        return Some(Format::VllmServe);
    }
    None
}

/// A plain scan: it runs once per file over at most 128 KB, and `memchr::memmem` would add its
/// whole searcher to the wasm bundle.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Parses `bytes` as `format`. `file` names the file in every error and diagnostic.
pub fn parse(format: Format, file: &str, bytes: &[u8]) -> Result<Parsed, ParseError> {
    check_not_empty(file, bytes)?;
    let (report, diagnostics) = match format {
        Format::Tpsview => tpsview::parse(file, bytes)?,
        Format::VllmServe => vllm::parse(file, bytes)?,
    };
    Ok(Parsed {
        file: file.to_owned(),
        format,
        report,
        diagnostics,
    })
}

/// Detects the format and parses; an unknown file gets an error that lists the supported formats
/// and says what the file looked like.
pub fn parse_any(file: &str, bytes: &[u8]) -> Result<Parsed, ParseError> {
    check_not_empty(file, bytes)?;
    match detect(bytes) {
        Some(f) => parse(f, file, bytes),
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
    if !err.is_data() || err.line() == 0 {
        return None;
    }
    let path = crate::scan::path_at(
        bytes,
        crate::scan::offset_of(bytes, err.line(), err.column()),
    );
    (!path.is_empty()).then_some(path)
}

#[cfg(test)]
mod tests;
