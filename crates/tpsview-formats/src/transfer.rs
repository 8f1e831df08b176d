//! The binary form in which a parsed file crosses from the loading Web Worker to the page
//! (postcard: compact, and every `f64` — NaN included — goes through bit for bit). Types that skip
//! absent fields when written as JSON (metadata, diagnostics) travel as JSON strings inside it,
//! since a non-self-describing format cannot skip fields.
//!
//! A big file crosses in pieces ([`split`], [`Assembly`]): a skeleton (everything, with the
//! per-request columns left empty) and each column's raw bytes, so that the page takes them one
//! task at a time — a million requests never cost the page's thread one long task.

use crate::formats::Parsed;
use crate::model::{packed, Requests};

/// Encodes a parsed file.
pub fn encode(parsed: &Parsed) -> Vec<u8> {
    // Every type in `Parsed` has a known length and serialises without error.
    postcard::to_allocvec(parsed).unwrap_or_default()
}

/// Decodes what [`encode`] wrote.
pub fn decode(bytes: &[u8]) -> Result<Parsed, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the loader's answer did not decode: {e}"))
}

/// A parsed file in pieces: see [`split`].
pub struct Pieces {
    /// The file with every per-request column emptied (columns that were absent stay `None`).
    pub skeleton: Vec<u8>,
    /// The columns' bytes, in the order [`Assembly::put`] takes them.
    pub columns: Vec<Vec<u8>>,
}

/// One per-request column.
#[derive(Debug, Clone, Copy)]
enum Column {
    Ttft,
    E2e,
    Output,
    Outcome,
    Start,
    Input,
    GapOffsets,
    GapValues,
}

/// Where each column goes: (run, point, column), in the order the pieces carry them. The same
/// for a file and its skeleton, since the skeleton keeps which optional columns exist.
fn slots(parsed: &Parsed) -> Vec<(usize, usize, Column)> {
    let mut out = Vec::new();
    for (r, run) in parsed.report.runs.iter().enumerate() {
        for (p, point) in run.points.iter().enumerate() {
            let Some(req) = &point.requests else { continue };
            for c in [Column::Ttft, Column::E2e, Column::Output, Column::Outcome] {
                out.push((r, p, c));
            }
            if req.start_s.is_some() {
                out.push((r, p, Column::Start));
            }
            if req.input_tokens.is_some() {
                out.push((r, p, Column::Input));
            }
            if req.chunk_gaps.is_some() {
                out.push((r, p, Column::GapOffsets));
                out.push((r, p, Column::GapValues));
            }
        }
    }
    out
}

fn requests_mut(parsed: &mut Parsed, r: usize, p: usize) -> Option<&mut Requests> {
    parsed
        .report
        .runs
        .get_mut(r)?
        .points
        .get_mut(p)?
        .requests
        .as_mut()
}

/// Splits a parsed file into a skeleton and its columns' bytes (the worker's side).
pub fn split(mut parsed: Parsed) -> Pieces {
    let slots = slots(&parsed);
    let mut columns = Vec::with_capacity(slots.len());
    for (r, p, c) in slots {
        let Some(req) = requests_mut(&mut parsed, r, p) else {
            continue;
        };
        // The column's bytes, leaving it empty (an optional column stays `Some`, marking it).
        fn out<T: packed::Le>(v: Option<&mut Vec<T>>) -> Vec<u8> {
            packed::to_bytes(&v.map(std::mem::take).unwrap_or_default())
        }
        columns.push(match c {
            Column::Ttft => out(Some(&mut req.ttft_s)),
            Column::E2e => out(Some(&mut req.e2e_s)),
            Column::Output => out(Some(&mut req.output_tokens)),
            Column::Outcome => {
                let o = std::mem::take(&mut req.outcome);
                packed::outcomes_to_bytes(&o)
            }
            Column::Start => out(req.start_s.as_mut()),
            Column::Input => out(req.input_tokens.as_mut()),
            Column::GapOffsets => out(req.chunk_gaps.as_mut().map(|g| &mut g.offsets)),
            Column::GapValues => out(req.chunk_gaps.as_mut().map(|g| &mut g.values)),
        });
    }
    Pieces {
        skeleton: encode(&parsed),
        columns,
    }
}

/// A parsed file being put together from [`Pieces`] (the page's side): the skeleton first, then
/// each column, one call (one task) at a time.
pub struct Assembly {
    parsed: Parsed,
    slots: Vec<(usize, usize, Column)>,
    next: usize,
}

impl Assembly {
    /// Starts from the skeleton.
    pub fn new(skeleton: &[u8]) -> Result<Assembly, String> {
        let parsed = decode(skeleton)?;
        let slots = slots(&parsed);
        Ok(Assembly {
            parsed,
            slots,
            next: 0,
        })
    }

    /// How many columns it still needs.
    pub fn missing(&self) -> usize {
        self.slots.len() - self.next
    }

    /// Puts the next column in its place.
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), String> {
        let bad = |what: &str| format!("the loader's answer did not decode: {what}");
        let &(r, p, c) = self
            .slots
            .get(self.next)
            .ok_or_else(|| bad("a column too many"))?;
        self.next += 1;
        let req = requests_mut(&mut self.parsed, r, p)
            .ok_or_else(|| bad("a column without its point"))?;
        let f64s = || packed::from_bytes::<f64>(bytes).ok_or_else(|| bad("a cut column"));
        let u32s = || packed::from_bytes::<u32>(bytes).ok_or_else(|| bad("a cut column"));
        match c {
            Column::Ttft => req.ttft_s = f64s()?,
            Column::E2e => req.e2e_s = f64s()?,
            Column::Output => req.output_tokens = u32s()?,
            Column::Outcome => {
                req.outcome =
                    packed::outcomes_from_bytes(bytes).ok_or_else(|| bad("a cut column"))?
            }
            Column::Start => req.start_s = Some(f64s()?),
            Column::Input => req.input_tokens = Some(u32s()?),
            Column::GapOffsets => {
                if let Some(g) = req.chunk_gaps.as_mut() {
                    g.offsets = u32s()?;
                }
            }
            Column::GapValues => {
                if let Some(g) = req.chunk_gaps.as_mut() {
                    g.values = f64s()?;
                }
            }
        }
        Ok(())
    }

    /// The file, once every column is in and every point's columns agree in length.
    pub fn finish(self) -> Result<Parsed, String> {
        let bad = |what: String| format!("the loader's answer did not decode: {what}");
        if self.missing() > 0 {
            return Err(bad(format!("{} columns missing", self.missing())));
        }
        for point in self.parsed.report.runs.iter().flat_map(|r| &r.points) {
            let Some(req) = &point.requests else { continue };
            let n = req.outcome.len();
            let lens = [
                Some(req.ttft_s.len()),
                Some(req.e2e_s.len()),
                Some(req.output_tokens.len()),
                req.start_s.as_ref().map(Vec::len),
                req.input_tokens.as_ref().map(Vec::len),
                req.chunk_gaps
                    .as_ref()
                    .map(|g| g.offsets.len().saturating_sub(1)),
            ];
            if lens.iter().flatten().any(|&l| l != n) {
                return Err(bad(format!(
                    "columns of different lengths in {}",
                    point.source_file
                )));
            }
        }
        Ok(self.parsed)
    }
}
