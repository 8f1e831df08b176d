//! tpsview's own report format, `tpsview/1` (docs/report-format.md): metadata, runs, points, and
//! per-request data as columns, one array per field, so that a 100 MB report is a handful of
//! number arrays that parse without a heap object per request or per chunk gap.

use super::{Format, FormatSpec};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::lenient::{Column, Num};
use crate::model::{
    Metadata, Outcome, Point, Ragged, Report, Reported, Requests, Run, SampleKind, Samples,
    Telemetry,
};
use crate::requests::{token_counts, validate_requests, FactColumns};
use crate::server::{ServerMetric, ServerStats, WindowStat};

pub use crate::tools::tpsview::{figure_groups, figures, ID};

/// tpsview's own report format, `tpsview/1`.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Tpsview,
    detect: |has, _| has("\"tpsview/") && has("\"format\""),
    keys: &["tpsview/1", "runs", "points", "requests"],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

#[derive(Deserialize)]
struct Version {
    format: String,
}

#[derive(Deserialize)]
struct RawReport {
    format: String,
    #[serde(default)]
    meta: Metadata,
    runs: Vec<RawRun>,
}

#[derive(Deserialize)]
struct RawRun {
    label: String,
    #[serde(default)]
    source_format: Option<String>,
    #[serde(default)]
    meta: Metadata,
    #[serde(default)]
    axis: Option<String>,
    points: Vec<RawPoint>,
}

#[derive(Deserialize)]
struct RawPoint {
    #[serde(default)]
    source_file: Option<String>,
    #[serde(default)]
    concurrency: Option<Num>,
    #[serde(default)]
    request_rate: Option<Num>,
    #[serde(default)]
    requests: Option<RawRequests>,
    #[serde(default)]
    reported: Option<RawReported>,
    #[serde(default)]
    sampled_from: Option<u64>,
    #[serde(default)]
    server: Option<crate::server::ServerSeries>,
    #[serde(default)]
    server_stats: Option<ServerStats>,
    #[serde(default)]
    telemetry: Option<Telemetry>,
    #[serde(default)]
    epoch_window_s: Option<(f64, f64)>,
    #[serde(default)]
    samples: Option<RawSamples>,
}

/// A point's raw data that is not per request (`model::Samples`), as stored.
#[derive(Deserialize)]
struct RawSamples {
    of: String,
    values: Column,
    #[serde(default)]
    tokens: Option<Num>,
}

#[derive(Deserialize)]
struct RawRequests {
    #[serde(default)]
    start_s: Option<Column>,
    ttft_s: Column,
    e2e_s: Column,
    #[serde(default)]
    input_tokens: Option<Column>,
    output_tokens: Column,
    #[serde(default)]
    chunk_counts: Option<Column>,
    #[serde(default)]
    chunk_gaps_s: Option<Column>,
    /// In place of `chunk_gaps_s` for huge reports: the gaps' distribution, in seconds.
    #[serde(default)]
    itl_pooled_s: Option<crate::stats::Dist>,
    // The facts of 2026's tools (`model::RequestFacts`), `null` where a request lacks one.
    #[serde(default)]
    session: Option<Vec<Option<String>>>,
    #[serde(default)]
    turn: Option<Column>,
    #[serde(default)]
    reasoning_tokens: Option<Column>,
    #[serde(default)]
    ttfvt_s: Option<Column>,
    #[serde(default)]
    cached_prompt_tokens: Option<Column>,
    #[serde(default)]
    errors: Vec<RawError>,
}

#[derive(Deserialize, Serialize)]
struct RawError {
    index: usize,
    message: String,
}

#[derive(Deserialize, Serialize)]
struct RawReported {
    tool: String,
    #[serde(default)]
    figures: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    recomputed: BTreeMap<String, f64>,
}

/// Parses a `tpsview/1` report.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let bytes = super::strip_bom(bytes);
    let raw: RawReport = match serde_json::from_slice(bytes) {
        Ok(r) => r,
        Err(e) => {
            if let Ok(v) = serde_json::from_slice::<Version>(bytes) {
                check_version(file, &v.format)?;
            }
            let path = super::path_of_error(bytes, &e);
            return Err(ParseError::from_json(file, &e, path));
        }
    };
    check_version(file, &raw.format)?;
    let mut diags = Vec::new();
    let mut runs = Vec::with_capacity(raw.runs.len());
    for (r, run) in raw.runs.into_iter().enumerate() {
        let mut meta = run.meta;
        meta.inherit(&raw.meta);
        let mut points = Vec::with_capacity(run.points.len());
        for (p, point) in run.points.into_iter().enumerate() {
            let path = format!("runs[{r}].points[{p}]");
            points.push(into_point(file, &path, point, &mut diags)?);
        }
        runs.push(Run {
            label: run.label.into(),
            source_format: run.source_format.unwrap_or_else(|| ID.into()),
            meta,
            points,
            axis: run.axis,
        });
    }
    if runs.iter().all(|r| r.points.is_empty()) {
        return Err(ParseError::new(
            file,
            ParseErrorKind::NoData("the report has no points".into()),
        )
        .at_field("runs"));
    }
    Ok((
        Report {
            meta: raw.meta,
            runs,
        },
        diags,
    ))
}

fn check_version(file: &str, found: &str) -> Result<(), ParseError> {
    if found == ID {
        Ok(())
    } else {
        Err(ParseError::new(
            file,
            ParseErrorKind::UnknownVersion {
                found: found.to_owned(),
                supported: ID,
            },
        )
        .at_field("format"))
    }
}

fn into_point(
    file: &str,
    path: &str,
    raw: RawPoint,
    diags: &mut Vec<Diagnostic>,
) -> Result<Point, ParseError> {
    let source_file = raw.source_file.unwrap_or_else(|| file.to_owned());
    let concurrency = match raw.concurrency {
        None | Some(Num::Missing) => None,
        Some(Num::Value(c)) if c > 0.0 && c.is_finite() => Some(c),
        Some(other) => {
            diags.push(Diagnostic::warning(
                file,
                &format!("{path}.concurrency"),
                None,
                format!("{other:?} is not a positive concurrency: ignored"),
            ));
            None
        }
    };
    let request_rate = match raw.request_rate {
        Some(Num::Value(r)) if r > 0.0 => Some(r),
        _ => None,
    };
    let requests = raw
        .requests
        .map(|r| into_requests(file, path, r, diags))
        .transpose()?;
    let mut reported = raw
        .reported
        .map(|r| Reported {
            tool: r.tool,
            figures: r.figures,
            recomputed: r.recomputed,
        })
        .unwrap_or_else(|| Reported {
            tool: ID.into(),
            ..Reported::default()
        });
    let mut server_stats = raw.server_stats.unwrap_or_default();
    let mut telemetry = raw.telemetry.filter(|t| !t.is_empty());
    let mut epoch_window_s = raw.epoch_window_s;
    legacy_facts(
        &mut reported.figures,
        &mut server_stats,
        &mut telemetry,
        &mut epoch_window_s,
    );
    let samples = raw.samples.and_then(|s| {
        let of = SampleKind::of_id(&s.of);
        if of.is_none() {
            diags.push(Diagnostic::warning(
                file,
                &format!("{path}.samples.of"),
                None,
                format!(
                    "samples of an unknown kind {:?}: ignored",
                    s.of.chars().take(40).collect::<String>()
                ),
            ));
        }
        Some(Samples {
            of: of?,
            values: s.values.values,
            tokens: s.tokens.and_then(Num::value),
        })
    });
    if requests.is_none() && reported.figures.is_empty() {
        diags.push(Diagnostic::warning(
            file,
            path,
            None,
            "the point has neither requests nor reported figures",
        ));
    }
    Ok(Point {
        source_file,
        concurrency,
        request_rate,
        requests,
        reported,
        sampled_from: raw.sampled_from,
        server: raw.server,
        server_stats: (!server_stats.is_empty()).then(|| Box::new(server_stats)),
        telemetry,
        epoch_window_s,
        samples,
    })
}

/// Reports written before a point had typed facts (2026-12) kept them among the tool's figures
/// under made-up keys: `telemetry.{energy_j, mean_power_w, window_s}`,
/// `server_stats.<metric>.<stat>`, `companion.{from,to}_epoch_s`. They are moved to the point's
/// fields (the typed ones, where a file has both, win).
fn legacy_facts(
    figures: &mut BTreeMap<String, f64>,
    server_stats: &mut ServerStats,
    telemetry: &mut Option<Telemetry>,
    epoch_window_s: &mut Option<(f64, f64)>,
) {
    if !figures.keys().any(|k| {
        k.starts_with("telemetry.") || k.starts_with("server_stats.") || k.starts_with("companion.")
    }) {
        return;
    }
    let old = Telemetry {
        energy_j: figures.remove("telemetry.energy_j"),
        mean_power_w: figures.remove("telemetry.mean_power_w"),
        window_s: figures.remove("telemetry.window_s"),
    };
    if telemetry.is_none() && !old.is_empty() {
        *telemetry = Some(old);
    }
    let from = figures.remove("companion.from_epoch_s");
    let to = figures.remove("companion.to_epoch_s");
    *epoch_window_s = epoch_window_s.or(from.zip(to));
    let keys: Vec<String> = figures
        .keys()
        .filter(|k| k.starts_with("server_stats."))
        .cloned()
        .collect();
    for key in keys {
        let rest = &key["server_stats.".len()..];
        let parsed = rest
            .rsplit_once('.')
            .and_then(|(m, s)| Some((ServerMetric::from_key(m)?, WindowStat::from_key(s)?)));
        if let Some((m, s)) = parsed {
            if let Some(v) = figures.remove(&key) {
                if server_stats.stat(m, s).is_none() {
                    server_stats.set(m, s, v);
                }
            }
        }
    }
}

fn into_requests(
    file: &str,
    path: &str,
    raw: RawRequests,
    diags: &mut Vec<Diagnostic>,
) -> Result<Requests, ParseError> {
    let n = raw.output_tokens.values.len();
    let mut lens = vec![
        ("ttft_s", raw.ttft_s.values.len()),
        ("e2e_s", raw.e2e_s.values.len()),
    ];
    if let Some(s) = &raw.start_s {
        lens.push(("start_s", s.values.len()));
    }
    if let Some(s) = &raw.input_tokens {
        lens.push(("input_tokens", s.values.len()));
    }
    if let Some(s) = &raw.chunk_counts {
        lens.push(("chunk_counts", s.values.len()));
    }
    if let Some((name, len)) = lens.iter().find(|(_, l)| *l != n) {
        return Err(ParseError::new(
            file,
            ParseErrorKind::Shape(format!(
                "{name} has {len} entries but output_tokens has {n}"
            )),
        )
        .at_field(format!("{path}.requests.{name}")));
    }
    let mut outcome = vec![Outcome::Ok; n];
    for e in raw.errors {
        match outcome.get_mut(e.index) {
            Some(o) => *o = Outcome::Failed(e.message.into()),
            None => diags.push(Diagnostic::warning(
                file,
                &format!("{path}.requests.errors"),
                Some(e.index),
                "error for a request that does not exist: ignored",
            )),
        }
    }
    let base = format!("{path}.requests");
    let output_tokens = token_counts(
        file,
        &format!("{base}.output_tokens"),
        "output_tokens",
        &raw.output_tokens.values,
        &mut outcome,
        diags,
    );
    let input_tokens = raw.input_tokens.as_ref().map(|c| {
        token_counts(
            file,
            &format!("{base}.input_tokens"),
            "input_tokens",
            &c.values,
            &mut outcome,
            diags,
        )
    });
    /// What stands beside `chunk_counts`: the gaps, or (a folded report) their distribution.
    enum Gaps {
        Values(Column),
        Pooled(crate::stats::Dist),
    }
    let gaps = match (raw.chunk_gaps_s, raw.itl_pooled_s) {
        (Some(g), _) => Some(Gaps::Values(g)),
        (None, Some(d)) => Some(Gaps::Pooled(d)),
        (None, None) => None,
    };
    let chunk_gaps = match (raw.chunk_counts, gaps) {
        (Some(counts), Some(gaps)) => {
            let mut offsets = Vec::with_capacity(n + 1);
            offsets.push(0u32);
            let mut total = 0u64;
            for &c in &counts.values {
                if !(c >= 0.0 && c.fract() == 0.0) {
                    return Err(ParseError::new(
                        file,
                        ParseErrorKind::Shape(format!(
                            "chunk count {c} is not a non-negative integer"
                        )),
                    )
                    .at_field(format!("{path}.requests.chunk_counts")));
                }
                total += c as u64;
                offsets.push(u32::try_from(total).unwrap_or(u32::MAX));
            }
            match gaps {
                // A huge report's gaps, folded: only their distribution was written.
                Gaps::Pooled(pooled) => Some(Ragged {
                    offsets,
                    values: Vec::new(),
                    pooled: Some(pooled),
                }),
                Gaps::Values(gaps) => {
                    if total != gaps.values.len() as u64 {
                        return Err(ParseError::new(
                            file,
                            ParseErrorKind::Shape(format!(
                                "chunk_counts add up to {total} but chunk_gaps_s has {} entries",
                                gaps.values.len()
                            )),
                        )
                        .at_field(format!("{path}.requests.chunk_gaps_s")));
                    }
                    Some(Ragged {
                        offsets,
                        values: gaps.values,
                        pooled: None,
                    })
                }
            }
        }
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            diags.push(Diagnostic::warning(file, &format!("{path}.requests.chunk_gaps_s"), None, "chunk_counts and chunk_gaps_s come together; one is missing, so chunk gaps are ignored"));
            None
        }
    };
    let mut req = Requests {
        start_s: raw.start_s.map(|c| c.values),
        epoch_s: None,
        ttft_s: raw.ttft_s.values,
        e2e_s: raw.e2e_s.values,
        input_tokens,
        output_tokens,
        chunk_gaps,
        outcome,
        dists: None,
        facts: None,
    };
    let mut found = validate_requests(file, &mut req);
    for d in &mut found {
        d.field = format!("{base}.{}", d.field);
    }
    diags.extend(found);
    let facts = FactColumns {
        session: raw.session,
        turn: raw.turn.map(|c| c.values),
        reasoning_tokens: raw.reasoning_tokens.map(|c| c.values),
        ttfvt_s: raw.ttfvt_s.map(|c| c.values),
        cached_prompt_tokens: raw.cached_prompt_tokens.map(|c| c.values),
    };
    if facts != FactColumns::default() {
        req.facts = facts.check(file, &base, &req, diags);
    }
    Ok(req)
}

// ---- writing ----

#[derive(Serialize)]
struct WReport<'a> {
    format: &'static str,
    #[serde(skip_serializing_if = "is_default_meta")]
    meta: &'a Metadata,
    runs: Vec<WRun<'a>>,
}

fn is_default_meta(m: &&Metadata) -> bool {
    **m == Metadata::default()
}

#[derive(Serialize)]
struct WRun<'a> {
    label: String,
    source_format: &'a str,
    #[serde(skip_serializing_if = "is_default_meta")]
    meta: &'a Metadata,
    #[serde(skip_serializing_if = "Option::is_none")]
    axis: Option<&'a str>,
    points: Vec<WPoint<'a>>,
}

#[derive(Serialize)]
struct WPoint<'a> {
    source_file: &'a str,
    concurrency: Option<f64>,
    #[serde(serialize_with = "crate::model::rate_as_json")]
    request_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    requests: Option<WRequests<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reported: Option<RawReported>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampled_from: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<&'a crate::server::ServerSeries>,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_stats: Option<&'a ServerStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    telemetry: Option<&'a Telemetry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    epoch_window_s: Option<(f64, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<WSamples<'a>>,
}

#[derive(Serialize)]
struct WSamples<'a> {
    of: &'static str,
    values: &'a [f64],
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<f64>,
}

#[derive(Serialize)]
struct WRequests<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    start_s: Option<&'a [f64]>,
    ttft_s: &'a [f64],
    e2e_s: &'a [f64],
    #[serde(skip_serializing_if = "Option::is_none")]
    input_tokens: Option<&'a [u32]>,
    output_tokens: &'a [u32],
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_counts: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_gaps_s: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    itl_pooled_s: Option<crate::stats::Dist>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<RawError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a [Option<Box<str>>]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reasoning_tokens: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttfvt_s: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cached_prompt_tokens: Option<&'a [f64]>,
}

/// Writes a report as compact `tpsview/1` JSON. Invalid requests keep their data; only failures
/// are written as errors (the reader re-derives what is invalid).
pub fn write(report: &Report) -> String {
    let w = WReport {
        format: ID,
        meta: &report.meta,
        runs: report
            .runs
            .iter()
            .map(|run| WRun {
                label: run.label.to_string(),
                source_format: &run.source_format,
                meta: &run.meta,
                axis: run.axis.as_deref(),
                points: run.points.iter().map(write_point).collect(),
            })
            .collect(),
    };
    // Serialising plain structs of numbers and strings cannot fail.
    serde_json::to_string(&w).unwrap_or_default()
}

fn write_point(p: &Point) -> WPoint<'_> {
    WPoint {
        source_file: &p.source_file,
        concurrency: p.concurrency,
        request_rate: p.request_rate,
        requests: p.requests.as_ref().map(|r| WRequests {
            start_s: r.start_s.as_deref(),
            ttft_s: &r.ttft_s,
            e2e_s: &r.e2e_s,
            input_tokens: r.input_tokens.as_deref(),
            output_tokens: &r.output_tokens,
            chunk_counts: r
                .chunk_gaps
                .as_ref()
                .map(|g| g.offsets.windows(2).map(|w| w[1] - w[0]).collect()),
            chunk_gaps_s: r
                .chunk_gaps
                .as_ref()
                .filter(|g| g.pooled.is_none())
                .map(|g| g.values.as_slice()),
            itl_pooled_s: r.chunk_gaps.as_ref().and_then(|g| g.pooled),
            errors: r
                .outcome
                .iter()
                .enumerate()
                .filter_map(|(i, o)| match o {
                    Outcome::Failed(m) => Some(RawError {
                        index: i,
                        message: m.to_string(),
                    }),
                    _ => None,
                })
                .collect(),
            session: r.facts.as_ref().and_then(|f| f.session.as_deref()),
            turn: r.facts.as_ref().and_then(|f| f.turn.as_deref()),
            reasoning_tokens: r.facts.as_ref().and_then(|f| f.reasoning_tokens.as_deref()),
            ttfvt_s: r.facts.as_ref().and_then(|f| f.ttfvt_s.as_deref()),
            cached_prompt_tokens: r
                .facts
                .as_ref()
                .and_then(|f| f.cached_prompt_tokens.as_deref()),
        }),
        reported: (!p.reported.figures.is_empty() || !p.reported.recomputed.is_empty()).then(
            || RawReported {
                tool: p.reported.tool.clone(),
                figures: p.reported.figures.clone(),
                recomputed: p.reported.recomputed.clone(),
            },
        ),
        sampled_from: p.sampled_from,
        server: p.server.as_ref(),
        server_stats: p.server_stats.as_deref(),
        telemetry: p.telemetry.as_ref(),
        epoch_window_s: p.epoch_window_s,
        samples: p.samples.as_ref().map(|s| WSamples {
            of: s.of.id(),
            values: &s.values,
            tokens: s.tokens,
        }),
    }
}

#[cfg(test)]
mod tests;
