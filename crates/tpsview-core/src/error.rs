//! Errors and diagnostics. Both say where: the file, the field path and, where there is one, the
//! request index. Messages are lowercase and end without a period.

use std::fmt;

/// A file could not be read as a report at all.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {kind}{}", location(.field.as_deref(), .line, .column))]
pub struct ParseError {
    /// The file's name as the user gave it.
    pub file: String,
    /// What went wrong (boxed: errors travel in `Result`s on hot paths and stay small).
    pub kind: Box<ParseErrorKind>,
    /// A JSON path such as `runs[0].points[1].requests.ttft_s[7]`, when known.
    pub field: Option<String>,
    /// 1-based line of the problem in the file, when known.
    pub line: Option<usize>,
    /// 1-based column of the problem in the file, when known.
    pub column: Option<usize>,
}

fn location(field: Option<&str>, line: &Option<usize>, column: &Option<usize>) -> String {
    let mut out = String::new();
    if let Some(f) = field {
        out.push_str(&format!(" (field `{f}`)"));
    }
    if let (Some(l), Some(c)) = (line, column) {
        out.push_str(&format!(" at line {l} column {c}"));
    }
    out
}

/// The kinds of [`ParseError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The file has no bytes, or only whitespace.
    #[error("the file is empty")]
    Empty,
    /// The bytes are not JSON (or not the JSON the format requires).
    #[error("not valid JSON: {0}")]
    Syntax(String),
    /// The JSON is valid but a value has the wrong type or a required field is missing.
    #[error("{0}")]
    Shape(String),
    /// The file claims a format version this build does not know.
    #[error("unknown report format version {found:?}; this build reads {supported}")]
    UnknownVersion {
        /// The version string found.
        found: String,
        /// The versions this build reads.
        supported: &'static str,
    },
    /// No importer recognises the file.
    #[error("unrecognised benchmark file ({looked_like}){}; supported formats: {supported} (what each needs: docs/formats.md)", nearest.as_deref().map(|n| format!("; {n}")).unwrap_or_default())]
    UnknownFormat {
        /// A short description of what the file looked like.
        looked_like: String,
        /// The format it most resembles and what it lacks, when it resembles one.
        nearest: Option<String>,
        /// The supported formats, comma-separated.
        supported: String,
    },
    /// The file parsed but holds nothing to show.
    #[error("no benchmark data: {0}")]
    NoData(String),
}

impl ParseError {
    /// An error about the whole file.
    pub fn new(file: &str, kind: ParseErrorKind) -> Self {
        ParseError {
            file: file.to_owned(),
            kind: Box::new(kind),
            field: None,
            line: None,
            column: None,
        }
    }

    /// Adds a field path.
    pub fn at_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Builds an error from serde_json's, keeping its line and column.
    pub fn from_json(file: &str, err: &serde_json::Error, field: Option<String>) -> Self {
        let kind = match err.classify() {
            serde_json::error::Category::Data => ParseErrorKind::Shape(strip_position(err)),
            serde_json::error::Category::Eof if err.line() == 0 => ParseErrorKind::Empty,
            _ => ParseErrorKind::Syntax(strip_position(err)),
        };
        let (line, column) = if err.line() > 0 {
            (Some(err.line()), Some(err.column()))
        } else {
            (None, None)
        };
        ParseError {
            file: file.to_owned(),
            kind: Box::new(kind),
            field: field.filter(|f| !f.is_empty() && f != "."),
            line,
            column,
        }
    }
}

/// serde_json appends " at line L column C"; we report the position in fields of our own.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was skipped or could not be computed; the rest is sound.
    Warning,
    /// Informational: how something was read or derived.
    Info,
}

/// A recoverable problem found while reading or computing: the value is still returned, and this
/// says what was skipped and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// The file's name.
    pub file: String,
    /// A field path, e.g. `ttfts` or `runs[0].points[2].requests.e2e_s`.
    pub field: String,
    /// The request index, when the problem concerns one request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// How serious it is.
    pub severity: Severity,
    /// What happened, in lowercase words.
    pub message: String,
}

impl Diagnostic {
    /// A warning about a field, optionally about one request.
    pub fn warning(
        file: &str,
        field: &str,
        index: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file: file.to_owned(),
            field: field.to_owned(),
            index,
            severity: Severity::Warning,
            message: message.into(),
        }
    }

    /// An informational note about a field.
    pub fn info(file: &str, field: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_owned(),
            field: field.to_owned(),
            index: None,
            severity: Severity::Info,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        write!(f, "{}: {sev}: field `{}`", self.file, self.field)?;
        if let Some(i) = self.index {
            write!(f, ", request {i}")?;
        }
        write!(f, ": {}", self.message)
    }
}
