//! Secrets out of everything a file carries, on import: API keys, bearer tokens, `Authorization`
//! headers, `--api-key …`, `api_key=…`, keys and passwords in URLs. Files record the command line
//! and the endpoint they ran with (AIPerf's `cli_command`, GuideLLM's `target`, a failed request's
//! error text), and those can hold the key the run used. Every importer's answer passes through
//! [`report`] and [`diagnostics`] (and every error through [`error`]; `formats` does both) before anything else sees it, so a secret
//! reaches no page, link, bundle, export, report or Parquet file. (The page's own reading of
//! tpsview/1, `formats::parse_tpsview`, reads only what tpsview wrote after this.)
//!
//! A small scanner rather than a regex engine: it runs in the loading worker, where a regex crate
//! would add its compiler to the module.

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::model::{Metadata, Outcome, Report};

/// What stands where a secret was.
pub const MASK: &str = "[redacted]";

/// Names (or name endings, after `_` or `-`) of settings whose value is a secret.
const NAMES: &[&str] = &[
    "api_key",
    "api-key",
    "apikey",
    "secret",
    "password",
    "passwd",
    "authorization",
    "auth",
    "credentials",
    "private_key",
];

/// What comes before `token` in the name of a setting that holds one (`hf_token`,
/// `ACCESS_TOKEN`, `api-token`): a token by itself is as often a count or a model's marker
/// (`time_to_first_token`, `eos_token`, `max_token`).
const TOKEN_KINDS: &[&str] = &[
    "access",
    "auth",
    "api",
    "bearer",
    "refresh",
    "session",
    "hf",
    "huggingface",
    "github",
    "gh",
    "gitlab",
    "slack",
    "bot",
    "personal",
    "secret",
    "client",
    "id",
    "oauth",
    "ngc",
    "openai",
];

/// Prefixes of well-known key formats, with the shortest body that makes one a key.
const PREFIXES: &[(&str, usize)] = &[
    ("sk-", 12),
    ("hf_", 16),
    ("nvapi-", 16),
    ("ghp_", 16),
    ("gho_", 16),
    ("ghs_", 16),
    ("ghu_", 16),
    ("github_pat_", 16),
    ("glpat-", 16),
    ("xoxb-", 10),
    ("xoxp-", 10),
    ("AKIA", 16),
    ("AIza", 30),
];

/// Values that are plainly not secrets (a placeholder such as vLLM's `EMPTY`), kept as written.
const PLACEHOLDERS: &[&str] = &[
    "none",
    "null",
    "empty",
    "true",
    "false",
    MASK,
    "***",
    "<redacted>",
];

/// `s` with its secrets masked, or `None` when it holds none.
pub fn text(s: &str) -> Option<String> {
    let spans = spans(s);
    if spans.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for (a, b) in spans {
        out.push_str(&s[at..a]);
        out.push_str(MASK);
        at = b;
    }
    out.push_str(&s[at..]);
    Some(out)
}

/// Masks the secrets of `s` in place.
pub fn in_place(s: &mut String) {
    if let Some(t) = text(s) {
        *s = t;
    }
}

/// True when a setting of this name holds a secret (`api_key`, `OPENAI_API_KEY`, `--hf-token`,
/// `x-api-key`, `Authorization`…).
pub fn is_secret_name(name: &str) -> bool {
    let n = name.trim_start_matches('-').to_ascii_lowercase();
    let token = n.strip_suffix("token").is_some_and(|rest| {
        rest.is_empty()
            || rest.strip_suffix(['_', '-']).is_some_and(|kind| {
                TOKEN_KINDS
                    .iter()
                    .any(|k| kind == *k || kind.ends_with(&format!("_{k}")))
            })
    });
    // `?key=…` (a URL's key parameter) by itself; as an ending (`sort_key`) it names no secret.
    n == "key"
        || token
        || NAMES.iter().any(|k| {
            n == *k
                || (n.len() > k.len()
                    && n.ends_with(k)
                    && matches!(n.as_bytes()[n.len() - k.len() - 1], b'_' | b'-' | b'.'))
        })
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// Where a value ends: at white space, a quote or a separator of the text around it.
fn is_value_end(c: u8) -> bool {
    c.is_ascii_whitespace() || b"\"'&,;})]<>".contains(&c)
}

/// The byte spans of `s` to mask, in order, not overlapping; each starts and ends at an ASCII
/// byte or the string's end, so each is a char boundary.
fn spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !is_word(b[i]) || (i > 0 && is_word(b[i - 1])) {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < b.len() && is_word(b[end]) {
            end += 1;
        }
        let word = &s[i..end];
        if let Some(n) = prefixed_key(word) {
            out.push((i, i + n));
            i = end;
            continue;
        }
        let value = if is_secret_name(word) {
            value_after(b, end, word.starts_with("--"))
        } else if word.eq_ignore_ascii_case("bearer") {
            value_after(b, end, true).filter(|(a, z)| z - a >= 8)
        } else {
            None
        };
        match value {
            Some(span) => {
                i = span.1;
                out.push(span);
            }
            None => i = end,
        }
    }
    out.extend(url_userinfo(b));
    out.sort_unstable();
    // Merge what overlaps (a key inside a URL's user info).
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(out.len());
    for (a, z) in out {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(z),
            _ => merged.push((a, z)),
        }
    }
    merged
}

/// The length of a well-known key at the start of `word`, when it is one.
fn prefixed_key(word: &str) -> Option<usize> {
    PREFIXES.iter().find_map(|(p, min)| {
        let body = word.strip_prefix(p)?;
        ((body.len() >= *min && body.bytes().any(|c| c.is_ascii_digit())) || body.len() >= 24)
            .then_some(word.len())
    })
}

/// The value written after a secret's name at `at`: `name=value`, `name: value`, `"name": "value"`
/// or, for a flag (`--api-key value`), after white space; a `Bearer`/`Basic` scheme word is kept.
fn value_after(b: &[u8], mut at: usize, flag: bool) -> Option<(usize, usize)> {
    if at < b.len() && (b[at] == b'"' || b[at] == b'\'') {
        at += 1;
    }
    let spaced = at < b.len() && (b[at] == b' ' || b[at] == b'\t');
    while at < b.len() && (b[at] == b' ' || b[at] == b'\t') {
        at += 1;
    }
    if at < b.len() && (b[at] == b'=' || b[at] == b':') {
        at += 1;
    } else if !(flag && spaced) {
        return None;
    }
    while at < b.len() && (b[at] == b' ' || b[at] == b'\t') {
        at += 1;
    }
    if at < b.len() && (b[at] == b'"' || b[at] == b'\'') {
        at += 1;
    }
    for scheme in ["bearer ", "basic ", "token "] {
        if b.len() >= at + scheme.len()
            && b[at..at + scheme.len()].eq_ignore_ascii_case(scheme.as_bytes())
        {
            at += scheme.len();
        }
    }
    // Masked already (a text read twice): nothing more to mask.
    if b[at..].starts_with(MASK.as_bytes()) {
        return None;
    }
    let mut end = at;
    while end < b.len() && !is_value_end(b[end]) {
        end += 1;
    }
    let v = std::str::from_utf8(&b[at..end]).ok()?;
    let plain = v.is_empty()
        || v.parse::<f64>().is_ok()
        || PLACEHOLDERS.iter().any(|p| v.eq_ignore_ascii_case(p))
        || v.starts_with('$')
        || v.starts_with("--");
    (!plain).then_some((at, end))
}

/// `scheme://user:password@host`: the user info, when it has a password.
fn url_userinfo(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 <= b.len() {
        if &b[i..i + 3] != b"://" {
            i += 1;
            continue;
        }
        let start = i + 3;
        let mut j = start;
        while j < b.len() && !is_value_end(b[j]) && b[j] != b'/' && b[j] != b'@' {
            j += 1;
        }
        if j < b.len() && b[j] == b'@' && b[start..j].contains(&b':') {
            out.push((start, j));
        }
        i = j.max(i + 3);
    }
    out
}

/// Masks the secrets of an optional string in place.
pub fn opt(s: &mut Option<String>) {
    if let Some(s) = s {
        in_place(s);
    }
}

fn meta(m: &mut Metadata) {
    for s in [
        &mut m.engine,
        &mut m.engine_version,
        &mut m.model,
        &mut m.precision,
        &mut m.gpu,
        &mut m.date,
        &mut m.notes,
    ] {
        opt(s);
    }
    for (k, v) in m.labels.iter_mut() {
        if is_secret_name(k) && !v.is_empty() {
            *v = MASK.to_owned();
        } else {
            in_place(v);
        }
    }
}

/// Masks the secrets of a report: its metadata, run labels, file names and request outcomes.
pub fn report(r: &mut Report) {
    meta(&mut r.meta);
    for run in &mut r.runs {
        in_place(&mut run.label.setup);
        if let Some(f) = &mut run.label.folder {
            in_place(f);
        }
        meta(&mut run.meta);
        for p in &mut run.points {
            in_place(&mut p.source_file);
            // The server's metrics URL (AIPerf's endpoint_url, llm-d's pods, bench's --server-metrics).
            if let Some(s) = &mut p.server {
                in_place(&mut s.source);
            }
            if let Some(q) = &mut p.requests {
                for o in &mut q.outcome {
                    if let Outcome::Failed(m) | Outcome::Invalid(m) = o {
                        if let Some(t) = text(m) {
                            *m = t.into();
                        }
                    }
                }
            }
        }
    }
}

/// Masks the secrets of diagnostics (a message may quote the file).
pub fn diagnostics(ds: &mut [Diagnostic]) {
    for d in ds {
        in_place(&mut d.file);
        in_place(&mut d.field);
        in_place(&mut d.message);
    }
}

/// Masks the secrets of an error (it may quote the file's first line or a value).
pub fn error(mut e: ParseError) -> ParseError {
    in_place(&mut e.file);
    opt(&mut e.field);
    match e.kind.as_mut() {
        ParseErrorKind::Syntax(s) | ParseErrorKind::Shape(s) | ParseErrorKind::NoData(s) => {
            in_place(s)
        }
        ParseErrorKind::UnknownFormat { looked_like, .. } => in_place(looked_like),
        ParseErrorKind::UnknownVersion { found, .. } => in_place(found),
        ParseErrorKind::Empty => {}
    }
    e
}

#[cfg(test)]
mod tests;
