//! The rules every source of per-request data obeys: [`validate_requests`], which every importer
//! ends in, [`token_counts`], through which every importer reads token counts, and [`Rows`], the
//! one builder of request columns, one [`Row`] at a time, ending in both — so a source that
//! measures requests itself (`tpsview bench`) gets the same rules for bad requests as one that
//! reads a file. Below the importers and the metric engine: it
//! imports only the model, the error types and the statistics helpers.

use crate::error::Diagnostic;
use crate::model::{Outcome, Ragged, Requests};

mod facts;
pub use facts::{FactColumns, RowFacts};

/// One request as an importer reads it. Times in seconds; `ttft_s` and `e2e_s` from the send.
#[derive(Debug, Default)]
pub struct Row {
    /// Send time on the source's clock, when known.
    pub start_s: Option<f64>,
    /// First output token's arrival − send time.
    pub ttft_s: f64,
    /// Last output token's arrival − send time.
    pub e2e_s: f64,
    /// Prompt tokens, when known (as the file wrote them: checked to be whole when built).
    pub input_tokens: Option<f64>,
    /// Output tokens (checked to be whole when built).
    pub output_tokens: f64,
    /// Gaps between successive streamed chunks, when the source saw them.
    pub gaps_s: Option<Vec<f64>>,
    /// The tool's error, for a failed request.
    pub error: Option<String>,
    /// Unusable, for a reason the importer has already reported on this field.
    pub invalid: Option<&'static str>,
    /// Its session, turn, reasoning tokens, first visible token and cached prompt tokens, where
    /// the source records them (checked when built).
    pub facts: RowFacts,
}

impl Row {
    /// A request whose data cannot be used; the importer has named the problem.
    pub fn invalid(field: &'static str) -> Row {
        Row {
            ttft_s: f64::NAN,
            e2e_s: f64::NAN,
            invalid: Some(field),
            ..Row::default()
        }
    }

    /// A failed request: its timings are never used.
    pub fn failed(message: String) -> Row {
        Row {
            ttft_s: f64::NAN,
            e2e_s: f64::NAN,
            error: Some(message),
            ..Row::default()
        }
    }
}

/// Builds request columns row by row — every source of per-request data does, the importers and
/// `tpsview bench` alike; columns that no row has are left out. A row's chunk gaps
/// are moved into one flat column as it is pushed, so that a big file's gaps are never held
/// twice (once per row and once flattened).
#[derive(Default)]
pub struct Rows {
    rows: Vec<Row>,
    gaps: Ragged,
    /// Whether a row that did not fail has gaps.
    any_gaps: bool,
}

impl Rows {
    /// Adds a request.
    pub fn push(&mut self, mut r: Row) {
        let gaps = r.gaps_s.take();
        self.any_gaps |= r.error.is_none() && gaps.is_some();
        self.gaps.push_row(gaps.as_deref().unwrap_or(&[]));
        self.rows.push(r);
    }

    /// Makes room for the rows and gaps still to come when `read` of `total` bytes gave the rows
    /// held now (a streamed file's estimate, 2 % over): a column that grows by doubling holds its
    /// old and new buffers at once, and a wasm memory never gives back what that peak took.
    pub fn reserve_for_rest(&mut self, read: u64, total: u64) {
        if read == 0 || read >= total {
            return;
        }
        let more = |n: usize| (n as f64 * (total - read) as f64 / read as f64 * 1.02) as usize;
        self.rows.reserve(more(self.rows.len()));
        self.gaps.offsets.reserve(more(self.rows.len()));
        self.gaps.values.reserve(more(self.gaps.values.len()));
    }

    /// Sets row `i`'s send time (for formats whose clock origin is known only at the end).
    pub fn set_start(&mut self, i: usize, start_s: Option<f64>) {
        if let Some(r) = self.rows.get_mut(i) {
            r.start_s = start_s;
        }
    }

    /// How many requests so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether none yet.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The columns, validated with the rules every importer shares. `prefix` names the records in
    /// diagnostics (e.g. `requests`).
    pub fn finish(self, file: &str, prefix: &str, diags: &mut Vec<Diagnostic>) -> Requests {
        let ok_rows = self.rows.iter().filter(|r| r.error.is_none());
        let has_start = ok_rows.clone().any(|r| r.start_s.is_some());
        let has_input = self.rows.iter().any(|r| r.input_tokens.is_some());
        let has_gaps = self.any_gaps;
        let mut outcome: Vec<Outcome> = self
            .rows
            .iter()
            .map(|r| match (&r.error, r.invalid) {
                (Some(e), _) => Outcome::Failed(e.as_str().into()),
                (None, Some(f)) => Outcome::Invalid(f.into()),
                (None, None) => Outcome::Ok,
            })
            .collect();
        let out: Vec<f64> = self
            .rows
            .iter()
            .map(|r| {
                if r.error.is_some() || r.invalid.is_some() {
                    0.0
                } else {
                    r.output_tokens
                }
            })
            .collect();
        let output_tokens = token_counts(
            file,
            &format!("{prefix}.output_tokens"),
            "output_tokens",
            &out,
            &mut outcome,
            diags,
        );
        let input_tokens = has_input.then(|| {
            let v: Vec<f64> = self
                .rows
                .iter()
                .map(|r| r.input_tokens.unwrap_or(0.0))
                .collect();
            token_counts(
                file,
                &format!("{prefix}.input_tokens"),
                "input_tokens",
                &v,
                &mut outcome,
                diags,
            )
        });
        let start_s = has_start.then(|| {
            self.rows
                .iter()
                .map(|r| r.start_s.unwrap_or(f64::NAN))
                .collect::<Vec<_>>()
        });
        let chunk_gaps = has_gaps.then_some(self.gaps);
        let mut req = Requests {
            start_s,
            epoch_s: None,
            ttft_s: self.rows.iter().map(|r| r.ttft_s).collect(),
            e2e_s: self.rows.iter().map(|r| r.e2e_s).collect(),
            input_tokens,
            output_tokens,
            chunk_gaps,
            outcome,
            dists: None,
            facts: None,
        };
        diags.extend(validate_requests(file, &mut req));
        if self.rows.iter().any(|r| r.facts != RowFacts::default()) {
            let facts: Vec<RowFacts> = self.rows.into_iter().map(|r| r.facts).collect();
            req.facts = FactColumns::of_rows(&facts).check(file, prefix, &req, diags);
        }
        req
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
