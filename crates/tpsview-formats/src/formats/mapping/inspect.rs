//! What a file holds, as rows of named fields: a JSON array of objects (or the largest one inside
//! a JSON document), JSON lines, CSV rows, or one JSON object (one row); each field with sample
//! values and, where numeric, its range.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{ParseError, ParseErrorKind};
use crate::formats::common;

/// How the file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShapeKind {
    /// One JSON document.
    Json,
    /// One JSON value per line.
    Jsonl,
    /// Comma-separated values with a header row.
    Csv,
}

/// One field of the rows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FieldInfo {
    /// Its name (nested keys joined with `.`).
    pub name: String,
    /// In how many rows it is present.
    pub present: usize,
    /// In how many of those it is a number.
    pub numeric: usize,
    /// Its smallest and largest number.
    pub range: Option<(f64, f64)>,
    /// Its median number (of the rows looked at).
    pub median: Option<f64>,
    /// Up to three sample values, as written (each at most 40 characters).
    pub samples: Vec<String>,
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// How it is written.
    pub kind: ShapeKind,
    /// Where its rows are (a JSON path; `""`: the document itself).
    pub records: String,
    /// How many rows.
    pub rows: usize,
    /// Its fields, in first-seen order (at most [`MAX_FIELDS_SHOWN`]).
    pub fields: Vec<FieldInfo>,
    /// The rows' key set, sorted: what a saved mapping is matched by.
    pub keys: Vec<String>,
}

/// Fields shown at most (a file of thousands of keys is cut, said by the count).
pub const MAX_FIELDS_SHOWN: usize = 200;
/// Rows looked at for samples and ranges.
const ROWS_LOOKED_AT: usize = 20_000;
/// Nesting read inside a row.
const DEPTH: usize = 3;

/// A row: its fields' scalar values by name.
pub(crate) type RowValues = BTreeMap<String, Value>;

/// The rows of a file: at `records` when given (a JSON path), else where they are found.
pub(crate) fn rows_of(
    file: &str,
    bytes: &[u8],
    records: Option<&str>,
) -> Result<(ShapeKind, String, Vec<RowValues>), ParseError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ParseError::new(file, ParseErrorKind::Syntax("not UTF-8 text".into())))?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return csv_rows(file, trimmed).map(|r| (ShapeKind::Csv, String::new(), r));
    }
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    if values.len() > 1 {
        let rows = values.iter().filter_map(flat).collect();
        return Ok((ShapeKind::Jsonl, String::new(), rows));
    }
    let doc = &values[0];
    let path = match records {
        Some(p) => p.to_owned(),
        None => largest_array(doc, "", 0)
            .map(|(p, _)| p)
            .unwrap_or_default(),
    };
    let at = if path.is_empty() {
        Some(doc)
    } else {
        common::at(doc, &path)
    };
    let rows = match at {
        Some(Value::Array(a)) => a.iter().filter_map(flat).collect(),
        Some(v @ Value::Object(_)) => flat(v).into_iter().collect(),
        _ => {
            return Err(ParseError::new(
                file,
                ParseErrorKind::NoData(format!("no rows at `{path}`")),
            ))
        }
    };
    Ok((ShapeKind::Json, path, rows))
}

/// The largest array of objects in `v` (up to three levels down): its path and length.
fn largest_array(v: &Value, prefix: &str, depth: usize) -> Option<(String, usize)> {
    match v {
        Value::Array(a) if a.iter().any(Value::is_object) => Some((prefix.to_owned(), a.len())),
        Value::Object(m) if depth < 3 => m
            .iter()
            .filter_map(|(k, x)| {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                largest_array(x, &p, depth + 1)
            })
            .max_by_key(|(_, n)| *n),
        _ => None,
    }
}

/// An object's scalar leaves by dotted name (arrays and deeper levels left out).
fn flat(v: &Value) -> Option<RowValues> {
    fn walk(v: &Value, prefix: &str, depth: usize, out: &mut RowValues) {
        match v {
            Value::Object(m) if depth < DEPTH => {
                for (k, x) in m {
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(x, &p, depth + 1, out);
                }
            }
            Value::Object(_) | Value::Array(_) => {}
            scalar if !prefix.is_empty() => {
                out.insert(prefix.to_owned(), scalar.clone());
            }
            _ => {}
        }
    }
    let mut out = RowValues::new();
    v.is_object().then(|| walk(v, "", 0, &mut out))?;
    Some(out)
}

/// CSV rows under their header (quoted fields honoured; values kept as text).
fn csv_rows(file: &str, text: &str) -> Result<Vec<RowValues>, ParseError> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines
        .next()
        .map(common::csv_fields)
        .filter(|h| h.len() >= 2)
        .ok_or_else(|| {
            ParseError::new(
                file,
                ParseErrorKind::Shape(
                    "neither JSON nor CSV with a header of two columns or more".into(),
                ),
            )
        })?;
    Ok(lines
        .map(|l| {
            header
                .iter()
                .zip(common::csv_fields(l))
                .map(|(k, v)| (k.trim().to_owned(), Value::String(v)))
                .collect()
        })
        .collect())
}

/// A value as a number: a JSON number or a numeric string.
pub(crate) fn number(v: &Value) -> Option<f64> {
    common::num_of(Some(v)).value().filter(|x| x.is_finite())
}

/// What the file holds: its rows' fields with samples and ranges.
pub fn inspect(file: &str, bytes: &[u8]) -> Result<Shape, ParseError> {
    let (kind, records, rows) = rows_of(file, bytes, None)?;
    if rows.is_empty() {
        return Err(ParseError::new(
            file,
            ParseErrorKind::NoData("no rows of named fields".into()),
        ));
    }
    let mut order: Vec<String> = Vec::new();
    let mut info: BTreeMap<String, (FieldInfo, Vec<f64>)> = BTreeMap::new();
    for row in rows.iter().take(ROWS_LOOKED_AT) {
        for (k, v) in row {
            let (f, nums) = info.entry(k.clone()).or_insert_with(|| {
                order.push(k.clone());
                (
                    FieldInfo {
                        name: k.clone(),
                        present: 0,
                        numeric: 0,
                        range: None,
                        median: None,
                        samples: Vec::new(),
                    },
                    Vec::new(),
                )
            });
            if v.is_null() {
                continue;
            }
            f.present += 1;
            if let Some(x) = number(v) {
                f.numeric += 1;
                nums.push(x);
            }
            let s = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let s: String = s.chars().take(40).collect();
            if f.samples.len() < 3 && !f.samples.contains(&s) {
                f.samples.push(s);
            }
        }
    }
    let mut keys: Vec<String> = info.keys().cloned().collect();
    keys.sort();
    let fields = order
        .into_iter()
        .take(MAX_FIELDS_SHOWN)
        .filter_map(|k| {
            let (mut f, mut nums) = info.remove(&k)?;
            if !nums.is_empty() {
                nums.sort_by(f64::total_cmp);
                f.range = Some((nums[0], nums[nums.len() - 1]));
                f.median = Some(nums[nums.len() / 2]);
            }
            Some(f)
        })
        .collect();
    Ok(Shape {
        kind,
        records,
        rows: rows.len(),
        fields,
        keys,
    })
}
