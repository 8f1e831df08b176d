//! The rules every source of per-request data obeys: [`validate_requests`], which every importer
//! ends in, [`token_counts`], through which every importer reads token counts, and
//! [`RequestsBuilder`], which builds columns one request at a time and ends in the same
//! validation, so a source that measures requests itself (`tpsview bench`) gets the same rules
//! for bad requests as one that reads a file. Below the importers and the metric engine: it
//! imports only the model, the error types and the statistics helpers.

use crate::error::Diagnostic;
use crate::model::{Outcome, Ragged, Requests};

/// Per-request columns under construction. Send times, prompt lengths and chunk gaps are kept
/// when the source has them for every request (a column of all-unknown prompt lengths is dropped).
#[derive(Debug, Default)]
pub struct RequestsBuilder {
    req: Requests,
    gaps: Ragged,
    has_gaps: bool,
}

/// One completed request, in seconds from its own send time.
#[derive(Debug, Clone, Copy)]
pub struct Completed<'a> {
    /// Send time on the source's clock.
    pub start_s: f64,
    /// First output token's arrival − send time.
    pub ttft_s: f64,
    /// Last output token's arrival − send time.
    pub e2e_s: f64,
    /// Prompt tokens, when known.
    pub input_tokens: Option<u32>,
    /// Output tokens.
    pub output_tokens: u32,
    /// Gaps between successive streamed chunks, when the source saw them.
    pub chunk_gaps: Option<&'a [f64]>,
}

impl RequestsBuilder {
    /// An empty set of requests with room for `n`.
    pub fn with_capacity(n: usize) -> Self {
        RequestsBuilder {
            req: Requests {
                start_s: Some(Vec::with_capacity(n)),
                epoch_s: None,
                ttft_s: Vec::with_capacity(n),
                e2e_s: Vec::with_capacity(n),
                input_tokens: Some(Vec::with_capacity(n)),
                output_tokens: Vec::with_capacity(n),
                chunk_gaps: None,
                outcome: Vec::with_capacity(n),
                dists: None,
            },
            gaps: Ragged::default(),
            has_gaps: false,
        }
    }

    fn push_common(&mut self, start_s: f64, input_tokens: Option<u32>) {
        if let Some(s) = self.req.start_s.as_mut() {
            s.push(start_s);
        }
        if let Some(i) = self.req.input_tokens.as_mut() {
            i.push(input_tokens.unwrap_or(0));
        }
    }

    /// Adds a request that completed.
    pub fn push_ok(&mut self, r: Completed<'_>) {
        self.push_common(r.start_s, r.input_tokens);
        self.req.ttft_s.push(r.ttft_s);
        self.req.e2e_s.push(r.e2e_s);
        self.req.output_tokens.push(r.output_tokens);
        self.has_gaps |= r.chunk_gaps.is_some();
        self.gaps.push_row(r.chunk_gaps.unwrap_or(&[]));
        self.req.outcome.push(Outcome::Ok);
    }

    /// Adds a request that failed, with the reason.
    pub fn push_failed(&mut self, start_s: f64, input_tokens: Option<u32>, reason: &str) {
        self.push_common(start_s, input_tokens);
        self.req.ttft_s.push(f64::NAN);
        self.req.e2e_s.push(f64::NAN);
        self.req.output_tokens.push(0);
        self.gaps.push_row(&[]);
        self.req.outcome.push(Outcome::Failed(reason.into()));
    }

    /// The columns, validated like every importer's: requests that break a rule are marked
    /// invalid (left out of every figure) and named in the diagnostics, by `file` and index.
    pub fn finish(mut self, file: &str) -> (Requests, Vec<Diagnostic>) {
        if self
            .req
            .input_tokens
            .as_ref()
            .is_some_and(|i| i.iter().all(|t| *t == 0))
        {
            self.req.input_tokens = None;
        }
        if self.has_gaps {
            self.req.chunk_gaps = Some(self.gaps);
        }
        let diags = validate_requests(file, &mut self.req);
        (self.req, diags)
    }
}

/// Checks raw columns, marks unusable requests [`Outcome::Invalid`] and returns one diagnostic per
/// problem, naming the field and request index. Every importer calls it, so every format gets the
/// same rules: NaN or negative times, end before first token, no output tokens, backwards clocks.
pub fn validate_requests(file: &str, req: &mut Requests) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut mark = |i: usize, field: &'static str, msg: String, outcome: &mut Outcome| {
        diags.push(Diagnostic::warning(file, field, Some(i), msg));
        *outcome = Outcome::Invalid(field.into());
    };
    // One pass over every gap (split over two cores where the caller allows) spares the check
    // row by row when, as nearly always, none is bad.
    let gaps_ok = req
        .chunk_gaps
        .as_ref()
        .is_some_and(|g| crate::stats::all_finite_non_negative(&g.values));
    for i in 0..req.len() {
        if !matches!(req.outcome[i], Outcome::Ok) {
            continue;
        }
        let (t, e) = (req.ttft_s[i], req.e2e_s[i]);
        let outcome = &mut req.outcome[i];
        if req.output_tokens[i] == 0 {
            mark(
                i,
                "output_tokens",
                "no output tokens: TTFT and TPOT are not defined; left out".into(),
                outcome,
            );
        } else if !t.is_finite() || t < 0.0 {
            mark(i, "ttft", format!("TTFT is {t}: left out"), outcome);
        } else if !e.is_finite() || e < t {
            mark(
                i,
                "e2e",
                format!("end-to-end time {e} s is before the first token ({t} s): left out"),
                outcome,
            );
        } else if req.start_s.as_ref().is_some_and(|s| !s[i].is_finite()) {
            mark(
                i,
                "start_time",
                "send time is not a number: left out".into(),
                outcome,
            );
        } else if let Some(g) = &req.chunk_gaps {
            if !gaps_ok && !crate::stats::all_finite_non_negative(g.row(i)) {
                mark(
                    i,
                    "itls",
                    "a chunk gap is negative or not a number (clock went backwards?): left out"
                        .into(),
                    outcome,
                );
            }
        }
    }
    diags
}

/// Token counts from a column: non-negative integers that fit a `u32`. Any other entry (NaN from a
/// missing or unreadable value, negative, fractional) marks its request invalid with a diagnostic on
/// `field_path` and reads as 0. Every importer reads token counts through this.
pub fn token_counts(
    file: &str,
    field_path: &str,
    field: &'static str,
    values: &[f64],
    outcome: &mut [Outcome],
    diags: &mut Vec<Diagnostic>,
) -> Vec<u32> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) {
                v as u32
            } else {
                if matches!(outcome[i], Outcome::Ok) {
                    outcome[i] = Outcome::Invalid(field.into());
                    diags.push(Diagnostic::warning(
                        file,
                        field_path,
                        Some(i),
                        format!("token count {v} is not a non-negative integer: left out"),
                    ));
                }
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
