//! Pixel decimation: what a timeline of more requests than pixel rows draws. A drawing concern
//! (it depends on the canvas's size in pixels), so it lives here, not in the core's chart specs.

use tpsview_core::chart_spec::Bar;

/// One rectangle of a drawn timeline: rows `row0..row1`, x from `x0` to `x1` (seconds), the
/// waiting + prefill part or the decode part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// First row covered.
    pub row0: f64,
    /// One past the last row covered.
    pub row1: f64,
    /// Start, seconds.
    pub x0: f64,
    /// End, seconds.
    pub x1: f64,
    /// Decode (true) or waiting + prefill (false).
    pub decode: bool,
}

/// The rectangles that draw `bars` on `pixel_rows` × `pixel_cols` pixels spanning `x_range`.
/// With no more requests than pixel rows, two per request. With more, the requests that share a
/// pixel row are drawn together: per row group, the union of their waiting spans, then the union
/// of their decode spans, gaps under one pixel column closed — what those pixels would show
/// anyway, in a few rectangles instead of thousands (a 10,000-request timeline stays one frame).
pub fn timeline_spans(
    bars: &[Bar],
    pixel_rows: usize,
    pixel_cols: usize,
    x_range: (f64, f64),
) -> Vec<Span> {
    let ok = bars.iter().filter(|b| !b.failed);
    // Rows, not bars: a session's lane holds all its turns.
    let rows = bars.iter().map(|b| b.row).max().unwrap_or(0) + 1
        - bars.iter().map(|b| b.row).min().unwrap_or(0);
    if bars.len() <= pixel_rows.max(1) || rows <= pixel_rows.max(1) {
        return ok
            .flat_map(|b| {
                let (r0, r1) = (b.row as f64, b.row as f64 + 1.0);
                [
                    Span {
                        row0: r0,
                        row1: r1,
                        x0: b.start,
                        x1: b.first_token,
                        decode: false,
                    },
                    Span {
                        row0: r0,
                        row1: r1,
                        x0: b.first_token,
                        x1: b.end,
                        decode: true,
                    },
                ]
            })
            .collect();
    }
    let group = bars.len().div_ceil(pixel_rows.max(1));
    let eps = (x_range.1 - x_range.0).abs() / pixel_cols.max(1) as f64;
    let mut out = Vec::new();
    let mut wait: Vec<(f64, f64)> = Vec::with_capacity(group);
    let mut decode: Vec<(f64, f64)> = Vec::with_capacity(group);
    for (g, chunk) in bars.chunks(group).enumerate() {
        wait.clear();
        decode.clear();
        for b in chunk.iter().filter(|b| !b.failed) {
            wait.push((b.start, b.first_token));
            decode.push((b.first_token, b.end));
        }
        let (r0, r1) = ((g * group) as f64, (g * group + chunk.len()) as f64);
        for (list, is_decode) in [(&mut wait, false), (&mut decode, true)] {
            list.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let mut cur: Option<(f64, f64)> = None;
            let span = |(x0, x1): (f64, f64)| Span {
                row0: r0,
                row1: r1,
                x0,
                x1,
                decode: is_decode,
            };
            for &(a, b) in list.iter() {
                cur = match cur {
                    Some((x0, x1)) if a <= x1 + eps => Some((x0, x1.max(b))),
                    Some(done) => {
                        out.push(span(done));
                        Some((a, b))
                    }
                    None => Some((a, b)),
                };
            }
            if let Some(done) = cur {
                out.push(span(done));
            }
        }
    }
    out
}
