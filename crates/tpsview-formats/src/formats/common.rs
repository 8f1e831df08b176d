//! What the importers of tools other than vLLM share: reading one JSON document or a JSON-lines
//! stream into `serde_json::Value`s (these files are small summaries or per-request records, so a
//! tree costs little), lenient number access by dotted path, building request columns row by row,
//! and flattening a summary's numeric leaves into the tool's named figures.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::lenient::{parse_num_str, Num};
use crate::model::{Metadata, Point, RepeatKey, Report, Reported, Requests, Run, RunName};

/// Reads every JSON value in the file: one document, or several one after another (JSON lines,
/// appended results). Bare `NaN`/`Infinity` (Python's `json.dumps`) are read as numbers, with a
/// note. When the stream breaks, each line is read on its own, so the good records of a JSONL file
/// load and each bad line is named.
pub(crate) fn read_values(
    file: &str,
    bytes: &[u8],
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<Value>, ParseError> {
    let v = read_stream::<Value>(file, bytes, "record", diags)?;
    non_empty(file, v.into_iter().map(|(_, v)| v).collect())
}

/// The note of a file read with bare `NaN`/`Infinity` quoted.
pub(crate) const QUOTED: &str = "bare NaN/Infinity literals (not valid JSON) were read as numbers";

/// The one reader of record streams, for any record type `T` (a JSON value, or a format's own
/// record read straight into columns): every value of the file, each with its place in the stream
/// (its ordinal among the file's non-blank lines when lines had to be read one by one, so that a
/// skipped record keeps the places of the others). Recovery, in order: bare `NaN`/`Infinity`
/// quoted and the whole file read again (with a note); else, in a file of two lines or more, each
/// line read on its own, a broken one skipped with a warning that names its line and calls it a
/// `what`. The error of the whole file when nothing can be read. May be empty.
pub(crate) fn read_stream<T: serde::de::DeserializeOwned>(
    file: &str,
    bytes: &[u8],
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<(usize, T)>, ParseError> {
    let bytes = super::strip_bom(bytes);
    let stream = |b: &[u8]| {
        serde_json::Deserializer::from_slice(b)
            .into_iter::<T>()
            .enumerate()
            .map(|(i, v)| v.map(|v| (i, v)))
            .collect::<Result<Vec<_>, _>>()
    };
    let e = match stream(bytes) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    if let Some(fixed) = crate::lenient::quote_nonfinite_literals(bytes) {
        if let Ok(v) = stream(&fixed) {
            diags.push(Diagnostic::info(file, "(file)", QUOTED));
            return Ok(v);
        }
    }
    let whole = || ParseError::from_json(file, &e, super::path_of_error(bytes, &e));
    let lines: Vec<(usize, &[u8])> = bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .collect();
    if lines.len() < 2 {
        return Err(whole());
    }
    let mut good = Vec::new();
    let (mut skipped, mut quoted) = (Vec::new(), false);
    for (ordinal, (n, line)) in lines.into_iter().enumerate() {
        let fixed = crate::lenient::quote_nonfinite_literals(line);
        match serde_json::from_slice::<T>(fixed.as_deref().unwrap_or(line)) {
            Ok(v) => {
                quoted |= fixed.is_some();
                good.push((ordinal, v));
            }
            Err(le) => skipped.push(Diagnostic::warning(
                file,
                &format!("line {}", n + 1),
                None,
                format!(
                    "{what} skipped: {}",
                    ParseError::from_json(file, &le, None).kind
                ),
            )),
        }
    }
    if good.is_empty() {
        return Err(whole());
    }
    if quoted {
        diags.push(Diagnostic::info(file, "(file)", QUOTED));
    }
    diags.append(&mut skipped);
    Ok(good)
}

fn non_empty(file: &str, v: Vec<Value>) -> Result<Vec<Value>, ParseError> {
    if v.is_empty() {
        Err(ParseError::new(
            file,
            ParseErrorKind::NoData("no JSON value in the file".into()),
        ))
    } else {
        Ok(v)
    }
}

/// A JSON value written back out as text, for the typed reader of its shape: the tree path
/// reads a record with the same reader as its bytes. (Reading the value in place would link a
/// second copy of every typed reader, one per deserializer.)
pub(crate) fn text_of(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}

/// A JSON value read by the typed reader of its shape (see [`text_of`]).
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
    serde_json::from_slice(&text_of(v)).ok()
}

/// `f` of each record of a file that holds either one JSON array of records or one record per
/// line, with one record's JSON value in memory at a time (big raw-data files are mostly text the
/// importers only count). Anything unusual (a broken line, bare NaN, trailing data) is read again
/// through [`read_values`], which keeps what it can and names the rest; what `f` said on the first
/// attempt is then dropped, and `f` is called again from record 0 (a closure that keeps state of
/// its own starts it afresh at index 0, as the AIPerf reader's does).
pub(crate) fn map_records<T>(
    file: &str,
    bytes: &[u8],
    diags: &mut Vec<Diagnostic>,
    mut f: impl FnMut(usize, &Value, &mut Vec<Diagnostic>) -> T,
) -> Result<Vec<T>, ParseError> {
    let bytes = super::strip_bom(bytes);
    let mut out = Vec::new();
    let mut said = Vec::new();
    let streamed = if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        serde::de::DeserializeSeed::deserialize(
            EachElement {
                f: &mut f,
                out: &mut out,
                diags: &mut said,
            },
            &mut de,
        )
        .and_then(|()| de.end())
    } else {
        serde_json::Deserializer::from_slice(bytes)
            .into_iter::<Value>()
            .try_for_each(|v| {
                let v = v?;
                out.push(f(out.len(), &v, &mut said));
                Ok(())
            })
    };
    if streamed.is_ok() && !out.is_empty() {
        diags.append(&mut said);
        return Ok(out);
    }
    let values = records(read_values(file, bytes, diags)?);
    Ok(values
        .iter()
        .enumerate()
        .map(|(i, v)| f(i, v, diags))
        .collect())
}

/// A seed that hands each element of a JSON array to `f` and drops it.
struct EachElement<'a, F, T> {
    f: &'a mut F,
    out: &'a mut Vec<T>,
    diags: &'a mut Vec<Diagnostic>,
}

impl<'de, F, T> serde::de::DeserializeSeed<'de> for EachElement<'_, F, T>
where
    F: FnMut(usize, &Value, &mut Vec<Diagnostic>) -> T,
{
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F, T> serde::de::Visitor<'de> for EachElement<'_, F, T>
where
    F: FnMut(usize, &Value, &mut Vec<Diagnostic>) -> T,
{
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of records")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(v) = seq.next_element::<Value>()? {
            let i = self.out.len();
            self.out.push((self.f)(i, &v, self.diags));
        }
        Ok(())
    }
}

/// The values of a file that holds either one JSON array of records or one record per line.
pub(crate) fn records(values: Vec<Value>) -> Vec<Value> {
    if values.len() == 1 && values[0].is_array() {
        match values.into_iter().next() {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        }
    } else {
        values
    }
}

/// The value at a dotted path (`a.b.c`; a numeric segment indexes an array).
pub(crate) fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// A number as a tool wrote it: a JSON number, a numeric string (`"12.5"`, `"1,146.31"`,
/// `"inf"`), or missing / bad.
pub(crate) fn num_of(v: Option<&Value>) -> Num {
    match v {
        None | Some(Value::Null) => Num::Missing,
        Some(Value::Number(n)) => n.as_f64().map_or(Num::Bad, Num::Value),
        Some(Value::String(s)) => parse_num_str(s),
        Some(_) => Num::Bad,
    }
}

/// The finite or infinite number at `path`; `None` when missing, bad or NaN.
pub(crate) fn num(v: &Value, path: &str) -> Option<f64> {
    num_of(at(v, path)).value()
}

/// The string at `path` (numbers are written out).
pub(crate) fn text(v: &Value, path: &str) -> Option<String> {
    match at(v, path)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.first().and_then(|f| f.as_str()).map(str::to_owned),
        _ => None,
    }
}

/// The first of several paths that holds a number.
pub(crate) fn first_num(v: &Value, paths: &[&str]) -> Option<f64> {
    paths.iter().find_map(|p| num(v, p))
}

/// The first of several paths that holds a string.
pub(crate) fn first_text(v: &Value, paths: &[&str]) -> Option<String> {
    paths.iter().find_map(|p| text(v, p))
}

/// Every numeric leaf under `v` (objects only, up to `depth` levels), by dotted path. Numeric
/// strings count; arrays are skipped.
pub(crate) fn flatten_numbers(v: &Value, depth: usize) -> BTreeMap<String, f64> {
    fn walk(v: &Value, prefix: &str, depth: usize, out: &mut BTreeMap<String, f64>) {
        match v {
            Value::Object(m) if depth > 0 => {
                for (k, x) in m {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(x, &path, depth - 1, out);
                }
            }
            Value::Number(_) | Value::String(_) => {
                if let Num::Value(x) = num_of(Some(v)) {
                    if !x.is_nan() && !prefix.is_empty() {
                        out.insert(prefix.to_owned(), x);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(v, "", depth, &mut out);
    out
}

/// A concurrency level written in a file name, as the tools name their artifact directories
/// (`…-concurrency8/`, `concurrency_16`, `c32`).
/// The trial of a file that AIPerf's multi-run mode wrote (`--num-profile-runs N`): the `N` of a
/// `profile_runs/run_NNNN/` or `profile_runs/trial_NNNN/` folder on its path (a sweep's trials
/// nest a `concurrency_C/` folder inside or outside it); `None` elsewhere.
pub(crate) fn aiperf_trial(name: &str) -> Option<u64> {
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    parts.windows(2).find_map(|w| {
        let n = w[1]
            .strip_prefix("run_")
            .or_else(|| w[1].strip_prefix("trial_"))?;
        (w[0] == "profile_runs" && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| n.parse().ok())
            .flatten()
    })
}

/// A run's name, repeat `N` of its setup where the file is an AIPerf trial's (` · run=N`).
pub(crate) fn with_trial(label: String, file: &str) -> RunName {
    let name = RunName::from(label);
    match aiperf_trial(file) {
        Some(n) => name.with_repeat(RepeatKey::Run, n),
        None => name,
    }
}

pub(crate) fn concurrency_from_name(name: &str) -> Option<f64> {
    let lower = name.to_ascii_lowercase();
    let i = lower.rfind("concurrency")?;
    let digits: String = lower[i + "concurrency".len()..]
        .trim_start_matches(['_', '-', '='])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse::<f64>().ok().filter(|c| *c >= 1.0)
}

/// A positive, finite level; anything else is ignored with a warning naming `field`.
pub(crate) fn level(
    file: &str,
    field: &str,
    v: Option<f64>,
    diags: &mut Vec<Diagnostic>,
) -> Option<f64> {
    match v {
        Some(c) if c >= 1.0 && c.is_finite() => Some(c),
        Some(c) => {
            diags.push(Diagnostic::warning(
                file,
                field,
                None,
                format!("{c} is not a positive level: ignored"),
            ));
            None
        }
        None => None,
    }
}

/// A point with the given figures and no raw data.
pub(crate) fn summary_point(
    file: &str,
    tool: &str,
    concurrency: Option<f64>,
    request_rate: Option<f64>,
    figures: BTreeMap<String, f64>,
) -> Point {
    Point {
        source_file: file.to_owned(),
        concurrency,
        request_rate,
        requests: None,
        reported: Reported {
            tool: tool.to_owned(),
            figures,
            recomputed: BTreeMap::new(),
        },
        sampled_from: None,
        server: None,
        ..Point::default()
    }
}

/// A report of one run. A run named after its model gets the hardware too, where the file states
/// it: `model · hardware`.
pub(crate) fn one_run(
    label: impl Into<RunName>,
    format: &str,
    meta: Metadata,
    points: Vec<Point>,
) -> Report {
    let mut label: RunName = label.into();
    // Named after its model alone: the GPU it ran on tells it from the same model elsewhere.
    if let (Some(m), Some(g)) = (&meta.model, &meta.gpu) {
        if label == *m.as_str() && !g.trim().is_empty() {
            label.setup = match meta.gpu_count {
                Some(n) if n > 1 => format!("{} · {n} × {g}", label.setup),
                _ => format!("{} · {g}", label.setup),
            };
        }
    }
    Report {
        meta: Metadata::default(),
        runs: vec![Run {
            label,
            source_format: format.to_owned(),
            meta,
            points,
            axis: None,
        }],
    }
}

/// A run's default name: what it ran — the model (the name the file gives the run, for tools that
/// name runs) — or, when the file says nothing of it, the tool. [`one_run`] adds the hardware.
pub(crate) fn label(tool: &str, model: Option<&str>) -> String {
    match model.map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => m.to_owned(),
        None => tool.to_owned(),
    }
}

/// A point of per-request data read from one file of `tool`, its concurrency from the file's name
/// (`…-c16…`, when it says).
pub(crate) fn requests_point(file: &str, tool: &str, requests: Requests) -> Point {
    Point {
        source_file: file.to_owned(),
        concurrency: concurrency_from_name(file),
        request_rate: None,
        requests: Some(requests),
        reported: Reported {
            tool: tool.to_owned(),
            ..Reported::default()
        },
        sampled_from: None,
        server: None,
        ..Point::default()
    }
}

/// Seconds since 1970-01-01 of an ISO-8601 timestamp `YYYY-MM-DDTHH:MM:SS[.fff…][Z|±HH:MM]`
/// (without a zone — AIPerf writes its telemetry window so, in local time — only differences
/// are meaningful).
pub(crate) fn iso_seconds(t: &str) -> Option<f64> {
    let (date, time) = t.trim().split_once(['T', ' '])?;
    let mut d = date.splitn(3, '-').map(|x| x.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let time = time.trim_end_matches('Z');
    // A zone offset after the seconds: `+00:00`, `-0500`.
    let (time, offset_s) = match time.rfind(['+', '-']) {
        Some(i) => {
            let z = time[i + 1..].replace(':', "");
            let (hh, mm) = (
                z.get(..2)?.parse::<f64>().ok()?,
                z.get(2..)
                    .filter(|m| !m.is_empty())
                    .map_or(Some(0.0), |m| m.parse::<f64>().ok())?,
            );
            let sign = if time.as_bytes()[i] == b'-' {
                -1.0
            } else {
                1.0
            };
            (&time[..i], sign * (hh * 3600.0 + mm * 60.0))
        }
        None => (time, 0.0),
    };
    let mut hms = time.splitn(3, ':');
    let (h, mi) = (
        hms.next()?.parse::<f64>().ok()?,
        hms.next()?.parse::<f64>().ok()?,
    );
    let sec: f64 = hms.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's days_from_civil).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 * 86_400.0 + h * 3600.0 + mi * 60.0 + sec - offset_s)
}

/// An error for a file whose every record was left out: `what` (nothing usable), with the first
/// reason said while reading (its field and message), so the message names where it broke.
pub(crate) fn none_usable(file: &str, what: &str, diags: &[Diagnostic]) -> ParseError {
    let why = diags.first().map_or_else(String::new, |d| {
        format!(" (field `{}`: {})", d.field, d.message)
    });
    no_data(file, &format!("{what}{why}"))
}

/// An error for a file that parsed as JSON but holds none of the records the format needs.
pub(crate) fn no_data(file: &str, what: &str) -> ParseError {
    ParseError::new(file, ParseErrorKind::NoData(what.to_owned()))
}

/// Splits one CSV line, honouring double quotes (`"1,146.31"`).
pub(crate) fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// A YAML value as JSON (mapping keys as text; numbers kept as numbers).
fn json_of(y: &yaml_rust2::Yaml) -> Value {
    use yaml_rust2::Yaml;
    match y {
        Yaml::Real(s) => s
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(s.clone()), Value::Number),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(json_of).collect()),
        Yaml::Hash(h) => Value::Object(
            h.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) | Yaml::Real(s) => s.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        _ => String::new(),
                    };
                    (key, json_of(v))
                })
                .collect(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// A file's document: JSON when it parses as JSON, else YAML (its first document) — llm-d's
/// reports and GuideLLM's `--output-path …yaml` are either.
pub(crate) fn json_or_yaml(file: &str, bytes: &[u8]) -> Result<Value, ParseError> {
    let bytes = crate::formats::strip_bom(bytes);
    if let Ok(v) = serde_json::from_slice::<Value>(bytes) {
        return Ok(v);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ParseError::new(file, ParseErrorKind::Syntax(format!("not UTF-8 text: {e}")))
    })?;
    let docs = yaml_rust2::YamlLoader::load_from_str(text).map_err(|e| {
        ParseError::new(
            file,
            ParseErrorKind::Shape(format!(
                "not valid YAML (nor JSON): {} at line {}, column {}",
                e.info(),
                e.marker().line(),
                e.marker().col() + 1
            )),
        )
    })?;
    docs.first()
        .map(json_of)
        .ok_or_else(|| no_data(file, "an empty YAML document"))
}

pub(crate) use crate::requests::{Row, Rows};
