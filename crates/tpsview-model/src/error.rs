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
    #[error("unrecognised benchmark file ({looked_like}){}; none of the {formats} supported formats reads it (`tpsview formats` lists them, docs/formats.md says what each needs); any JSON, JSON lines or CSV of requests or levels can be read through a mapping (`tpsview map`, or the viewer's mapping panel)", nearest.as_deref().map(|n| format!("; {n}")).unwrap_or_default())]
    UnknownFormat {
        /// A short description of what the file looked like.
        looked_like: String,
        /// The format it most resembles and what it lacks, when it resembles one.
        nearest: Option<String>,
        /// How many formats tpsview reads.
        formats: usize,
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

/// Diagnostics that say the same thing — one severity, field, request and message — of several
/// objects of one file (`file#k`, e.g. each test of a llama-bench JSONL), as one: a file of 300
/// objects gets one note, not 300.
#[derive(Debug, Clone, PartialEq)]
pub struct Folded<'a> {
    /// The first of them.
    pub first: &'a Diagnostic,
    /// The file without its object number.
    pub file: &'a str,
    /// The objects' numbers (`k` of `file#k`), in the order met; empty when it names none.
    pub objects: Vec<usize>,
}

/// A file name split into the file and its object number, when it names one (`name#k`).
fn object_of(file: &str) -> (&str, Option<usize>) {
    match file.rsplit_once('#') {
        Some((base, k)) if !base.is_empty() => match k.parse() {
            Ok(k) => (base, Some(k)),
            Err(_) => (file, None),
        },
        _ => (file, None),
    }
}

/// How many of the latest groups a diagnostic is matched against: notes about each object of a
/// file come object by object, a few kinds interleaved (`#1` A, B; `#2` A, B…); a kind that
/// comes back after more than this many others starts a group of its own. Bounded so that a
/// file of 100,000 distinct warnings folds in linear time.
const FOLD_WINDOW: usize = 8;

/// Folds `diags` (in their order, each group where its first member was).
pub fn fold(diags: &[Diagnostic]) -> Vec<Folded<'_>> {
    let mut out: Vec<Folded<'_>> = Vec::new();
    // Indices into `out` of the latest groups of an object, newest last.
    let mut recent: Vec<usize> = Vec::new();
    for d in diags {
        let (file, object) = object_of(&d.file);
        let Some(k) = object else {
            out.push(Folded {
                first: d,
                file,
                objects: Vec::new(),
            });
            continue;
        };
        let same = |g: &Folded<'_>| {
            g.file == file
                && g.first.field == d.field
                && g.first.index == d.index
                && g.first.severity == d.severity
                && g.first.message == d.message
        };
        match recent.iter().rposition(|&i| same(&out[i])) {
            Some(at) => {
                let i = recent.remove(at);
                out[i].objects.push(k);
                recent.push(i);
            }
            None => {
                recent.push(out.len());
                if recent.len() > FOLD_WINDOW {
                    recent.remove(0);
                }
                out.push(Folded {
                    first: d,
                    file,
                    objects: vec![k],
                });
            }
        }
    }
    out
}

impl fmt::Display for Folded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.objects.len() < 2 {
            return self.first.fmt(f);
        }
        let (lo, hi) = self
            .objects
            .iter()
            .fold((usize::MAX, 0), |(lo, hi), &k| (lo.min(k), hi.max(k)));
        let span = if hi - lo + 1 == self.objects.len() {
            "each"
        } else {
            "some"
        };
        write!(
            f,
            "{} ({} objects, {span} of #{lo} to #{hi}): ",
            self.file,
            self.objects.len()
        )?;
        let d = Diagnostic {
            file: String::new(),
            ..self.first.clone()
        };
        // The one diagnostic's words after its file name.
        let text = d.to_string();
        f.write_str(text.strip_prefix(": ").unwrap_or(&text))
    }
}

/// `#[serde(with)]` helper: diagnostics as tuples (file, field, index, severity, message), for a
/// format that cannot skip a field — postcard, between the loading worker and the page — where
/// their JSON form skips an absent `index`. (They crossed as a JSON string until 2026-12-05: the
/// page then linked serde_json's reading of them, 1.4 KB gzip more.)
#[doc(hidden)]
pub mod as_tuples {
    use super::{Diagnostic, Severity};
    use serde::{Deserialize, Deserializer, Serializer};

    type Tuple = (String, String, Option<usize>, Severity, String);

    pub fn serialize<S: Serializer>(d: &[Diagnostic], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            d.iter()
                .map(|d| (&d.file, &d.field, d.index, d.severity, &d.message)),
        )
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Diagnostic>, D::Error> {
        let v = Vec::<Tuple>::deserialize(d)?;
        Ok(v.into_iter()
            .map(|(file, field, index, severity, message)| Diagnostic {
                file,
                field,
                index,
                severity,
                message,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_over_a_files_objects_fold_into_one_and_nothing_else_does() {
        let note = |file: &str| Diagnostic::info(file, "requests", "no per-request data");
        let mut diags: Vec<Diagnostic> = (0..300).map(|k| note(&format!("b.jsonl#{k}"))).collect();
        diags.insert(
            1,
            Diagnostic::warning("b.jsonl#1", "avg_ts", None, "not a number"),
        );
        diags.push(note("other.json"));
        diags.push(note("other.json"));
        diags.push(note("c.json#2"));
        diags.push(note("c.json#7"));
        diags.push(note("odd#name.json"));
        let folded = fold(&diags);
        let text: Vec<String> = folded.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "b.jsonl (300 objects, each of #0 to #299): note: field `requests`: no per-request data",
                "b.jsonl#1: warning: field `avg_ts`: not a number",
                "other.json: note: field `requests`: no per-request data",
                "other.json: note: field `requests`: no per-request data",
                "c.json (2 objects, some of #2 to #7): note: field `requests`: no per-request data",
                "odd#name.json: note: field `requests`: no per-request data",
            ]
        );
        assert_eq!(folded[0].objects, (0..300).collect::<Vec<_>>());
        // Every diagnostic is in exactly one group.
        let members: usize = folded.iter().map(|g| g.objects.len().max(1)).sum();
        assert_eq!(members, diags.len());
    }
}
