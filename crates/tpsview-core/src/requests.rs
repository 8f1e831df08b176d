//! Building per-request columns one request at a time, ending in the same validation every
//! importer ends in ([`crate::metrics::validate_requests`]): a source that measures requests
//! itself (`tpsview bench`) gets the same rules for bad requests as one that reads a file.

use crate::error::Diagnostic;
use crate::metrics::validate_requests;
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
                ttft_s: Vec::with_capacity(n),
                e2e_s: Vec::with_capacity(n),
                input_tokens: Some(Vec::with_capacity(n)),
                output_tokens: Vec::with_capacity(n),
                chunk_gaps: None,
                outcome: Vec::with_capacity(n),
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

#[cfg(test)]
mod tests;
