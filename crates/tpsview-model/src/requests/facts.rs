//! The per-request facts of 2026's tools (`model::RequestFacts`) as a source gives them, and the
//! one check every source's facts go through: the importers' rows ([`super::Rows`]) and
//! tpsview/1's columns alike. A bad entry is left out with a warning that names its column and
//! request; the request itself stays (its timings are not in doubt).

use crate::error::Diagnostic;
use crate::model::{RequestFacts, Requests};

/// One request's facts as a file wrote them (numbers unchecked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFacts {
    /// Its session's id.
    pub session: Option<String>,
    /// Its turn in the session.
    pub turn: Option<f64>,
    /// Its reasoning tokens.
    pub reasoning_tokens: Option<f64>,
    /// Send → first visible token, s.
    pub ttfvt_s: Option<f64>,
    /// Its prompt tokens served from the prefix cache.
    pub cached_prompt_tokens: Option<f64>,
}

/// Facts as columns, one entry per request (`NaN` or `None` where a request lacks one), before
/// [`FactColumns::check`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FactColumns {
    /// Session ids.
    pub session: Option<Vec<Option<String>>>,
    /// Turns.
    pub turn: Option<Vec<f64>>,
    /// Reasoning tokens.
    pub reasoning_tokens: Option<Vec<f64>>,
    /// Send → first visible token, s.
    pub ttfvt_s: Option<Vec<f64>>,
    /// Cached prompt tokens.
    pub cached_prompt_tokens: Option<Vec<f64>>,
}

/// Whether a count is one as the facts take it: a non-negative integer that fits a `u32`.
fn is_count(v: f64) -> bool {
    v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX)
}

impl FactColumns {
    /// The columns of rows' facts; a column is present when any row has it.
    pub fn of_rows(rows: &[RowFacts]) -> FactColumns {
        let num = |f: fn(&RowFacts) -> Option<f64>| {
            rows.iter()
                .any(|r| f(r).is_some())
                .then(|| rows.iter().map(|r| f(r).unwrap_or(f64::NAN)).collect())
        };
        FactColumns {
            session: rows
                .iter()
                .any(|r| r.session.is_some())
                .then(|| rows.iter().map(|r| r.session.clone()).collect()),
            turn: num(|r| r.turn),
            reasoning_tokens: num(|r| r.reasoning_tokens),
            ttfvt_s: num(|r| r.ttfvt_s),
            cached_prompt_tokens: num(|r| r.cached_prompt_tokens),
        }
    }

    /// The facts of `req`'s requests, each entry checked (`prefix` names the records in
    /// diagnostics): a count is a non-negative integer; a request that completed has no more
    /// reasoning tokens than output tokens and no more cached prompt tokens than prompt tokens,
    /// and its first visible token comes between its first token and its last. A column of
    /// another length than the requests is left out whole, said once. `None` when no column is
    /// left.
    pub fn check(
        self,
        file: &str,
        prefix: &str,
        req: &Requests,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Box<RequestFacts>> {
        let n = req.len();
        let mut fits = |name: &str, len: Option<usize>| match len {
            Some(l) if l != n => {
                diags.push(Diagnostic::warning(
                    file,
                    &format!("{prefix}.{name}"),
                    None,
                    format!("{l} entries for {n} requests: the column is left out"),
                ));
                false
            }
            Some(_) => true,
            None => false,
        };
        let session = fits("session", self.session.as_ref().map(Vec::len)).then_some(self.session);
        let turn = fits("turn", self.turn.as_ref().map(Vec::len)).then_some(self.turn);
        let reasoning = fits(
            "reasoning_tokens",
            self.reasoning_tokens.as_ref().map(Vec::len),
        )
        .then_some(self.reasoning_tokens);
        let ttfvt = fits("ttfvt_s", self.ttfvt_s.as_ref().map(Vec::len)).then_some(self.ttfvt_s);
        let cached = fits(
            "cached_prompt_tokens",
            self.cached_prompt_tokens.as_ref().map(Vec::len),
        )
        .then_some(self.cached_prompt_tokens);

        let mut warn = |name: &str, i: usize, msg: String| {
            diags.push(Diagnostic::warning(
                file,
                &format!("{prefix}.{name}"),
                Some(i),
                format!("{msg}: left out"),
            ));
        };
        // Each entry of a count column, at most `most(i)` (NaN: not given, no word).
        let mut counts = |name: &str, col: Vec<f64>, most: &dyn Fn(usize) -> Option<u32>| {
            col.into_iter()
                .enumerate()
                .map(|(i, v)| {
                    if v.is_nan() {
                        return v;
                    }
                    if !is_count(v) {
                        warn(name, i, format!("{v} is not a non-negative integer"));
                        return f64::NAN;
                    }
                    match most(i) {
                        Some(m) if v > f64::from(m) => {
                            warn(name, i, format!("{v} is more than the request's {m}"));
                            f64::NAN
                        }
                        _ => v,
                    }
                })
                .collect::<Vec<_>>()
        };
        let ok_output = |i: usize| req.is_ok(i).then(|| req.output_tokens[i]);
        let ok_input = |i: usize| {
            req.is_ok(i)
                .then(|| req.input_tokens.as_ref().map(|t| t[i]))
                .flatten()
        };
        let facts = RequestFacts {
            session: session.flatten().map(|c| {
                c.into_iter()
                    .map(|s| s.filter(|s| !s.is_empty()).map(String::into_boxed_str))
                    .collect()
            }),
            turn: turn.flatten().map(|c| counts("turn", c, &|_| None)),
            reasoning_tokens: reasoning
                .flatten()
                .map(|c| counts("reasoning_tokens", c, &ok_output)),
            cached_prompt_tokens: cached
                .flatten()
                .map(|c| counts("cached_prompt_tokens", c, &ok_input)),
            ttfvt_s: ttfvt.flatten().map(|c| {
                c.into_iter()
                    .enumerate()
                    .map(|(i, v)| {
                        if v.is_nan() {
                            return v;
                        }
                        let (t, e) = (req.ttft_s[i], req.e2e_s[i]);
                        // A first visible token before the first token, or after the last, is a
                        // clock or a field read wrong (a nanosecond's slack for rounding).
                        let within = !req.is_ok(i) || (v >= t - 1e-9 && v <= e + 1e-9);
                        if v.is_finite() && v >= 0.0 && within {
                            v
                        } else {
                            warn(
                                "ttfvt_s",
                                i,
                                format!(
                                    "first visible token at {v} s is outside the request \
                                     (first token {t} s, last {e} s)"
                                ),
                            );
                            f64::NAN
                        }
                    })
                    .collect()
            }),
        };
        (!facts.is_empty()).then(|| Box::new(facts))
    }
}
