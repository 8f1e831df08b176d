//! A file no reader knows is not a dead end (issue 44): [`inspect`] says what it holds (JSON
//! records' keys with sample values, CSV columns, JSON lines), [`propose`] maps the names it
//! recognises to tpsview's quantities with units from suffixes and magnitudes, a person corrects
//! it, and [`apply`] reads the file through the mapping as any reader would. A [`Mapping`] is a
//! small JSON document of data only (`tpsview-mapping/1`: field names, quantities, units — no
//! expression that runs), validated with messages naming the field ([`Mapping::from_json`]).
//! The same mapping serves every file of the same shape (the same key set, [`Shape::keys`]).

mod apply;
mod edit;
mod inspect;
mod propose;

pub use apply::apply;
pub use edit::{choose, edit, kept, kept_with, Offer, Origin, Panel, PanelField, KEEP};
pub use inspect::{inspect, FieldInfo, Shape, ShapeKind};
pub use propose::propose;

use crate::error::{ParseError, ParseErrorKind};
use crate::formats::{Format, FormatSpec};

/// The place of a mapped file among the formats: never detected (a file is read through a
/// mapping only when one is given), its reader [`apply`] through `formats::parse_mapped`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Mapped,
    detect: |_, _| false,
    keys: &[],
    parse: |f, _, _| {
        Err(ParseError::new(
            f,
            ParseErrorKind::NoData(
                "a file read through a mapping needs the mapping (`--map mapping.json`, or the viewer's mapping panel)".into(),
            ),
        ))
    },
    summary_partners: &[],
    stream: None,
};

/// The `format` value of a mapping document.
pub const ID: &str = "tpsview-mapping/1";

/// The source format id of runs read through a mapping.
pub const SOURCE: &str = "mapping";

/// What one row of the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// One request: its times and token counts.
    Request,
    /// One load level: a tool's aggregate figures for it.
    Level,
}

/// What a field holds, as tpsview names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// Not read.
    Ignore,
    /// The request's send time (a timestamp).
    Start,
    /// The request's last token (a timestamp).
    End,
    /// Time to first token (per level: its mean).
    Ttft,
    /// Time per output token (per level: its mean).
    Tpot,
    /// Inter-token latency (per level: its mean; per request read as TPOT).
    Itl,
    /// End-to-end latency (per level: its mean).
    E2e,
    /// Output tokens (per level: their sum).
    OutputTokens,
    /// Prompt tokens.
    InputTokens,
    /// An error: a request with a non-empty, non-false, non-zero value here failed.
    Error,
    /// The load level's concurrency.
    Concurrency,
    /// The load level's request rate.
    RequestRate,
    /// Output tokens per second of the level (system T/s).
    OutputThroughput,
    /// Completed requests per second of the level.
    RequestThroughput,
    /// The level's duration.
    Duration,
    /// Completed requests of the level.
    RequestsOk,
    /// Failed requests of the level.
    RequestsFailed,
}

impl Quantity {
    /// Every quantity, in the order a page offers them.
    pub const ALL: [Quantity; 17] = [
        Quantity::Ignore,
        Quantity::Ttft,
        Quantity::Tpot,
        Quantity::Itl,
        Quantity::E2e,
        Quantity::OutputTokens,
        Quantity::InputTokens,
        Quantity::Start,
        Quantity::End,
        Quantity::Error,
        Quantity::Concurrency,
        Quantity::RequestRate,
        Quantity::OutputThroughput,
        Quantity::RequestThroughput,
        Quantity::Duration,
        Quantity::RequestsOk,
        Quantity::RequestsFailed,
    ];

    /// Its name in a mapping document.
    pub fn id(self) -> &'static str {
        match self {
            Quantity::Ignore => "ignore",
            Quantity::Start => "start",
            Quantity::End => "end",
            Quantity::Ttft => "ttft",
            Quantity::Tpot => "tpot",
            Quantity::Itl => "itl",
            Quantity::E2e => "e2e",
            Quantity::OutputTokens => "output_tokens",
            Quantity::InputTokens => "input_tokens",
            Quantity::Error => "error",
            Quantity::Concurrency => "concurrency",
            Quantity::RequestRate => "request_rate",
            Quantity::OutputThroughput => "output_throughput",
            Quantity::RequestThroughput => "request_throughput",
            Quantity::Duration => "duration",
            Quantity::RequestsOk => "requests_ok",
            Quantity::RequestsFailed => "requests_failed",
        }
    }

    /// The quantity whose [`id`](Self::id) is `id`.
    pub fn from_id(id: &str) -> Option<Quantity> {
        Quantity::ALL.into_iter().find(|q| q.id() == id)
    }

    /// What it is, in words (the viewer's choices).
    pub fn label(self) -> &'static str {
        match self {
            Quantity::Ignore => "not read",
            Quantity::Start => "send time (timestamp)",
            Quantity::End => "last token time (timestamp)",
            Quantity::Ttft => "TTFT",
            Quantity::Tpot => "TPOT",
            Quantity::Itl => "ITL",
            Quantity::E2e => "E2E latency",
            Quantity::OutputTokens => "output tokens",
            Quantity::InputTokens => "prompt tokens",
            Quantity::Error => "error (failed when set)",
            Quantity::Concurrency => "concurrency (the level)",
            Quantity::RequestRate => "request rate (the level)",
            Quantity::OutputThroughput => "output tokens/s (system)",
            Quantity::RequestThroughput => "requests/s completed",
            Quantity::Duration => "duration of the level",
            Quantity::RequestsOk => "requests completed",
            Quantity::RequestsFailed => "requests failed",
        }
    }

    /// The units it may be written in.
    pub fn units(self) -> &'static [Unit] {
        use Unit::*;
        match self {
            Quantity::Start | Quantity::End => &[S, Ms, Us, Ns],
            Quantity::Ttft
            | Quantity::Tpot
            | Quantity::Itl
            | Quantity::E2e
            | Quantity::Duration => &[S, Ms, Us, Ns],
            Quantity::OutputThroughput => &[TokensPerS],
            Quantity::RequestThroughput | Quantity::RequestRate => &[RequestsPerS],
            Quantity::Ignore | Quantity::Error => &[None],
            Quantity::OutputTokens
            | Quantity::InputTokens
            | Quantity::Concurrency
            | Quantity::RequestsOk
            | Quantity::RequestsFailed => &[Count],
        }
    }

    /// Whether a row of `scope` may hold it.
    pub fn fits(self, scope: Scope) -> bool {
        match scope {
            Scope::Request => !matches!(
                self,
                Quantity::OutputThroughput
                    | Quantity::RequestThroughput
                    | Quantity::Duration
                    | Quantity::RequestsOk
                    | Quantity::RequestsFailed
            ),
            Scope::Level => !matches!(
                self,
                Quantity::Start | Quantity::End | Quantity::Error | Quantity::InputTokens
            ),
        }
    }
}

/// The unit a field is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Unit {
    /// Seconds.
    #[serde(rename = "s")]
    S,
    /// Milliseconds.
    #[serde(rename = "ms")]
    Ms,
    /// Microseconds.
    #[serde(rename = "us")]
    Us,
    /// Nanoseconds.
    #[serde(rename = "ns")]
    Ns,
    /// A count (tokens, requests, clients).
    #[serde(rename = "count")]
    Count,
    /// Tokens per second.
    #[serde(rename = "tokens/s")]
    TokensPerS,
    /// Requests per second.
    #[serde(rename = "requests/s")]
    RequestsPerS,
    /// No unit (text, a flag).
    #[serde(rename = "none")]
    None,
}

impl Unit {
    /// Its name in a mapping document.
    pub fn id(self) -> &'static str {
        match self {
            Unit::S => "s",
            Unit::Ms => "ms",
            Unit::Us => "us",
            Unit::Ns => "ns",
            Unit::Count => "count",
            Unit::TokensPerS => "tokens/s",
            Unit::RequestsPerS => "requests/s",
            Unit::None => "none",
        }
    }

    /// The unit whose [`id`](Self::id) is `id`.
    pub fn from_id(id: &str) -> Option<Unit> {
        use Unit::*;
        [S, Ms, Us, Ns, Count, TokensPerS, RequestsPerS, None]
            .into_iter()
            .find(|u| u.id() == id)
    }

    /// Multiply a value in this unit by this to get seconds (times), or the value itself.
    pub fn to_base(self) -> f64 {
        match self {
            Unit::Ms => 1e-3,
            Unit::Us => 1e-6,
            Unit::Ns => 1e-9,
            _ => 1.0,
        }
    }
}

/// One field of the rows and what it holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldMap {
    /// The field's name (a JSON key, nested keys joined with `.`; a CSV column).
    pub field: String,
    /// What it holds.
    pub quantity: Quantity,
    /// Its unit.
    pub unit: Unit,
}

/// How to read a file of one shape: which rows, what each field holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    /// Always [`ID`].
    pub format: String,
    /// Where the rows are in a JSON document (keys joined with `.`); `""`: the document itself
    /// (an array of objects, JSON lines, CSV rows, or one object: one row).
    #[serde(default)]
    pub records: String,
    /// What one row is.
    pub scope: Scope,
    /// The rows' key set it was made for (sorted): files with the same keys reuse it.
    #[serde(default)]
    pub keys: Vec<String>,
    /// The fields read.
    pub fields: Vec<FieldMap>,
    /// The level of the whole file where no field gives it.
    #[serde(default)]
    pub concurrency: Option<f64>,
    /// The run's name (default: the file's).
    #[serde(default)]
    pub label: Option<String>,
}

/// At most this many fields in a mapping (a document is small).
pub const MAX_FIELDS: usize = 64;

impl Mapping {
    /// Reads and checks a mapping document; the error names the field at fault.
    pub fn from_json(name: &str, bytes: &[u8]) -> Result<Mapping, ParseError> {
        let bad = |m: String| ParseError::new(name, ParseErrorKind::Shape(m));
        let m: Mapping = serde_json::from_slice(bytes)
            .map_err(|e| bad(format!("not a mapping document ({e})")))?;
        m.check().map_err(bad)?;
        Ok(m)
    }

    /// The document, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks the mapping: its version, each field's quantity against its scope and unit, no
    /// quantity twice, and what a scope needs. `Err` names the field.
    pub fn check(&self) -> Result<(), String> {
        if self.format != ID {
            return Err(format!("`format` is {:?}: expected {ID:?}", self.format));
        }
        if self.fields.len() > MAX_FIELDS {
            return Err(format!(
                "`fields`: {} entries, at most {MAX_FIELDS}",
                self.fields.len()
            ));
        }
        if let Some(c) = self.concurrency {
            if !(c.is_finite() && c >= 1.0) {
                return Err(format!("`concurrency` is {c}: a level is 1 or more"));
            }
        }
        let mut seen: Vec<Quantity> = Vec::new();
        for (i, f) in self.fields.iter().enumerate() {
            let at = format!("`fields[{i}]` ({:?})", f.field);
            if f.field.trim().is_empty() {
                return Err(format!("{at}: no field name"));
            }
            if !f.quantity.fits(self.scope) {
                return Err(format!(
                    "{at}: {} is not what a {} row holds",
                    f.quantity.id(),
                    match self.scope {
                        Scope::Request => "per-request",
                        Scope::Level => "per-level",
                    }
                ));
            }
            if !f.quantity.units().contains(&f.unit) {
                return Err(format!(
                    "{at}: {} is not in {:?} (it takes {})",
                    f.quantity.id(),
                    f.unit,
                    f.quantity
                        .units()
                        .iter()
                        .map(|u| format!("{u:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if f.quantity != Quantity::Ignore {
                if seen.contains(&f.quantity) {
                    return Err(format!("{at}: a second field for {}", f.quantity.id()));
                }
                seen.push(f.quantity);
            }
        }
        let has = |q: Quantity| seen.contains(&q);
        if self.scope == Scope::Request {
            if !has(Quantity::Ttft) {
                return Err(
                    "`fields`: no field is ttft: per-request data needs each request's time to first token"
                        .into(),
                );
            }
            if !has(Quantity::OutputTokens) {
                return Err("`fields`: no field is output_tokens".into());
            }
            let end_known = has(Quantity::E2e)
                || has(Quantity::Tpot)
                || has(Quantity::Itl)
                || (has(Quantity::Start) && has(Quantity::End));
            if !end_known {
                return Err(
                    "`fields`: no e2e (nor start and end, nor tpot): a request's end is unknown"
                        .into(),
                );
            }
        } else if seen.is_empty() {
            return Err("`fields`: nothing is read".into());
        }
        Ok(())
    }
}
