//! Requests as the importers read them, one row at a time, into the report's columns.

use crate::error::Diagnostic;
use crate::model::{Outcome, Ragged, Requests};
use crate::requests::{token_counts, validate_requests};

/// One request as an importer reads it. Times in seconds; `ttft_s` and `e2e_s` from the send.
#[derive(Debug, Default)]
pub(crate) struct Row {
    pub start_s: Option<f64>,
    pub ttft_s: f64,
    pub e2e_s: f64,
    pub input_tokens: Option<f64>,
    pub output_tokens: f64,
    pub gaps_s: Option<Vec<f64>>,
    pub error: Option<String>,
    /// Unusable, for a reason the importer has already reported on this field.
    pub invalid: Option<&'static str>,
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

/// Builds request columns row by row; columns that no row has are left out. A row's chunk gaps
/// are moved into one flat column as it is pushed, so that a big file's gaps are never held
/// twice (once per row and once flattened).
#[derive(Default)]
pub(crate) struct Rows {
    rows: Vec<Row>,
    gaps: Ragged,
    /// Whether a row that did not fail has gaps.
    any_gaps: bool,
}

impl Rows {
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

    pub fn len(&self) -> usize {
        self.rows.len()
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
        };
        diags.extend(validate_requests(file, &mut req));
        req
    }
}
