//! A file read through a [`Mapping`]: per-request rows become each level's requests (grouped by
//! a concurrency field, where one is mapped), checked by the rules every reader shares; per-level
//! rows become points with the figures they state, in tpsview's units under tpsview's names.

use std::collections::BTreeMap;

use serde_json::Value;

use super::inspect::{number, rows_of, RowValues};
use super::{Mapping, Quantity, Scope, SOURCE};
use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::formats::common::{self, Row, Rows};
use crate::model::{Metadata, Point, Report, RunName};
use crate::vocabulary::{Latency, Metric, Stat};

/// Reads `bytes` through `m`: a report of one run, named by the mapping or after the file.
pub fn apply(
    file: &str,
    bytes: &[u8],
    m: &Mapping,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    m.check()
        .map_err(|e| ParseError::new(file, ParseErrorKind::Shape(format!("mapping: {e}"))))?;
    let (_, _, rows) = rows_of(file, bytes, Some(&m.records))?;
    let mut diags = Vec::new();
    for f in &m.fields {
        if f.quantity != Quantity::Ignore && !rows.iter().any(|r| r.contains_key(&f.field)) {
            diags.push(Diagnostic::warning(
                file,
                &f.field,
                None,
                format!("mapped to {} but in no row of the file", f.quantity.id()),
            ));
        }
    }
    let field = |q: Quantity| m.fields.iter().find(|f| f.quantity == q);
    let value = |row: &RowValues, q: Quantity| -> Option<f64> {
        let f = field(q)?;
        row.get(&f.field)
            .and_then(number)
            .map(|v| v * f.unit.to_base())
    };
    let points = match m.scope {
        Scope::Request => requests(file, &rows, m, &value, &mut diags),
        Scope::Level => rows
            .iter()
            .enumerate()
            .map(|(i, r)| level(file, i, r, m, &value, &mut diags))
            .collect(),
    };
    if points.is_empty() {
        return Err(common::no_data(file, "no row read through the mapping"));
    }
    let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let label = m.label.clone().unwrap_or_else(|| stem.to_owned());
    Ok((
        common::one_run(RunName::from(label), SOURCE, Metadata::default(), points),
        diags,
    ))
}

type ValueOf<'a> = dyn Fn(&RowValues, Quantity) -> Option<f64> + 'a;

/// Whether a row's error field says it failed: a non-empty text other than `ok`/`success`/
/// `none`/`false`, `true`, a non-zero number (an HTTP status of 400 or more where it looks like
/// one).
fn failed(v: &Value) -> Option<String> {
    match v {
        Value::Null | Value::Bool(false) => None,
        Value::Bool(true) => Some("error".into()),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            let status = (100.0..600.0).contains(&x);
            ((status && x >= 400.0) || (!status && x != 0.0)).then(|| format!("error {n}"))
        }
        Value::String(s) => {
            let t = s.trim().to_ascii_lowercase();
            (!t.is_empty()
                && !["ok", "success", "none", "false", "0", "null", "200"].contains(&t.as_str()))
            .then(|| s.chars().take(200).collect())
        }
        _ => Some("error".into()),
    }
}

/// Per-request rows: one point per concurrency value (or the mapping's level).
fn requests(
    file: &str,
    rows: &[RowValues],
    m: &Mapping,
    value: &ValueOf,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Point> {
    let error = m.fields.iter().find(|f| f.quantity == Quantity::Error);
    // (level bits, rows) in first-seen order.
    let mut groups: Vec<(Option<u64>, Rows)> = Vec::new();
    let mut missing: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let level = value(r, Quantity::Concurrency)
            .or(m.concurrency)
            .filter(|c| c.is_finite() && *c >= 1.0)
            .map(f64::to_bits);
        let row = match error.and_then(|f| r.get(&f.field)).and_then(failed) {
            Some(why) => Row::failed(why),
            None => one(r, value, &mut missing, i),
        };
        match groups.iter_mut().find(|(l, _)| *l == level) {
            Some((_, g)) => g.push(row),
            None => {
                let mut g = Rows::default();
                g.push(row);
                groups.push((level, g));
            }
        }
    }
    for (what, (n, first)) in missing {
        diags.push(Diagnostic::warning(
            file,
            what,
            Some(first),
            format!("{n} rows lack a number here (the first is row {first}): left out"),
        ));
    }
    groups
        .into_iter()
        .map(|(level, g)| {
            let req = g.finish(file, "rows", diags);
            let mut p = common::requests_point(file, SOURCE, req);
            p.concurrency = level.map(f64::from_bits);
            p
        })
        .collect()
}

/// One request's row: TTFT and output tokens, its end from E2E, or end − start, or TTFT + TPOT ·
/// (N − 1).
fn one(
    r: &RowValues,
    value: &ValueOf,
    missing: &mut BTreeMap<&'static str, (usize, usize)>,
    i: usize,
) -> Row {
    let mut lack = |what: &'static str| {
        let e = missing.entry(what).or_insert((0, i));
        e.0 += 1;
        Row::invalid(what)
    };
    let Some(ttft) = value(r, Quantity::Ttft) else {
        return lack("ttft");
    };
    let Some(out) = value(r, Quantity::OutputTokens) else {
        return lack("output_tokens");
    };
    let start = value(r, Quantity::Start);
    let tpot = value(r, Quantity::Tpot).or_else(|| value(r, Quantity::Itl));
    let e2e = value(r, Quantity::E2e)
        .or_else(|| Some(value(r, Quantity::End)? - start?))
        .or_else(|| Some(ttft + tpot? * (out - 1.0).max(0.0)));
    let Some(e2e) = e2e else {
        return lack("e2e");
    };
    Row {
        start_s: start,
        ttft_s: ttft,
        e2e_s: e2e,
        input_tokens: value(r, Quantity::InputTokens),
        output_tokens: out,
        ..Row::default()
    }
}

/// A per-level row: a point with the figures it states, in tpsview's units and names.
fn level(
    file: &str,
    i: usize,
    r: &RowValues,
    m: &Mapping,
    value: &ValueOf,
    diags: &mut Vec<Diagnostic>,
) -> Point {
    let mut figures = BTreeMap::new();
    let ms = |q| value(r, q).map(|v| v * 1e3);
    for (q, metric, v) in [
        (
            Quantity::Ttft,
            Metric::Latency(Latency::Ttft, Stat::Mean),
            ms(Quantity::Ttft),
        ),
        (
            Quantity::Tpot,
            Metric::Latency(Latency::Tpot, Stat::Mean),
            ms(Quantity::Tpot),
        ),
        (
            Quantity::Itl,
            Metric::Latency(Latency::Itl, Stat::Mean),
            ms(Quantity::Itl),
        ),
        (
            Quantity::E2e,
            Metric::Latency(Latency::E2e, Stat::Mean),
            ms(Quantity::E2e),
        ),
        (
            Quantity::OutputThroughput,
            Metric::SystemTps,
            value(r, Quantity::OutputThroughput),
        ),
        (
            Quantity::RequestThroughput,
            Metric::RequestThroughput,
            value(r, Quantity::RequestThroughput),
        ),
        (
            Quantity::Duration,
            Metric::DurationS,
            value(r, Quantity::Duration),
        ),
        (
            Quantity::RequestsOk,
            Metric::RequestsOk,
            value(r, Quantity::RequestsOk),
        ),
        (
            Quantity::RequestsFailed,
            Metric::RequestsFailed,
            value(r, Quantity::RequestsFailed),
        ),
        (
            Quantity::OutputTokens,
            Metric::OutputTokens,
            value(r, Quantity::OutputTokens),
        ),
    ] {
        match v {
            Some(x) if x >= 0.0 => {
                figures.insert(metric.key().to_owned(), x);
            }
            Some(x) => diags.push(Diagnostic::warning(
                file,
                &m.fields
                    .iter()
                    .find(|f| f.quantity == q)
                    .map_or_else(String::new, |f| f.field.clone()),
                Some(i),
                format!("{x} is negative: left out"),
            )),
            None => {}
        }
    }
    let concurrency = value(r, Quantity::Concurrency)
        .or(m.concurrency)
        .filter(|c| c.is_finite() && *c >= 1.0);
    let rate = value(r, Quantity::RequestRate).filter(|x| *x > 0.0);
    let name = format!("{file}#{}", i + 1);
    common::summary_point(
        &name,
        crate::tools::tpsview::ID,
        concurrency,
        rate.filter(|_| concurrency.is_none()),
        figures,
    )
}
