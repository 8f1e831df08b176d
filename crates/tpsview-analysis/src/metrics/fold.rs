//! The per-request series a point's metrics average in, as distributions; and folding a large
//! report's columns into them (what the page keeps of a huge file).

use super::{request_metrics, RequestMetrics};
use crate::model::{Report, RequestDists, Requests};
use crate::stats::Dist;

/// The distributions of a point's per-request series over the requests its metrics average in
/// (each mean summed in request order, as everywhere).
pub fn request_dists(req: &Requests) -> RequestDists {
    let mut s = Series::with_capacity(req.len());
    for r in (0..req.len()).filter_map(|i| request_metrics(req, i)) {
        s.push(&r);
    }
    s.dists()
}

/// The per-request series of the requests a point's metrics average in, in request order.
pub(super) struct Series {
    ttft: Vec<f64>,
    e2e: Vec<f64>,
    tpot: Vec<f64>,
    rate: Vec<f64>,
    user: Vec<f64>,
    e2e_per_token: Vec<f64>,
}

impl Series {
    pub(super) fn with_capacity(n: usize) -> Self {
        Series {
            ttft: Vec::with_capacity(n),
            e2e: Vec::with_capacity(n),
            tpot: Vec::with_capacity(n),
            rate: Vec::with_capacity(n),
            user: Vec::new(),
            e2e_per_token: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, r: &RequestMetrics) {
        self.ttft.push(r.ttft);
        self.e2e.push(r.e2e);
        self.tpot.extend(r.tpot);
        self.rate.extend(r.per_stream_rate);
        self.user.extend(r.user_rate);
        self.e2e_per_token.extend(r.e2e_per_token);
    }

    pub(super) fn dists(mut self) -> RequestDists {
        RequestDists {
            ttft: Dist::of(&mut self.ttft),
            e2e: Dist::of(&mut self.e2e),
            tpot: Dist::of(&mut self.tpot),
            per_stream_rate: Dist::of(&mut self.rate),
            user_rate: Dist::of(&mut self.user),
            e2e_per_token: Dist::of(&mut self.e2e_per_token),
        }
    }
}

/// Computes and keeps every point's [`RequestDists`] (see [`Requests::dists`]): what the
/// browser's loading worker does to a file before the page gets it, so that the page's summary
/// does not select percentiles over every request on its own thread. Figures are unchanged.
pub fn fold_requests(report: &mut Report) {
    for req in report
        .runs
        .iter_mut()
        .flat_map(|r| &mut r.points)
        .filter_map(|p| p.requests.as_mut())
    {
        if req.dists.is_none() {
            req.dists = Some(Box::new(request_dists(req)));
        }
    }
}

/// Reports with more chunk gaps than this (8 MB of `f64`) have them folded by [`fold_gaps`].
pub const FOLD_GAPS_ABOVE: usize = 1 << 20;

/// Folds the chunk gaps of every point whose report holds more than [`FOLD_GAPS_ABOVE`] gaps in
/// all: each point keeps its chunk counts and the exact distribution (mean, p50, p90, p99) of the
/// gaps of the requests [`compute_point`] averages in, so every figure stays the same while the
/// report shrinks to a few numbers per request. Returns how many gaps were folded away.
pub fn fold_gaps(report: &mut Report) -> usize {
    let gaps = |r: &Report| -> usize {
        r.runs
            .iter()
            .flat_map(|run| &run.points)
            .filter_map(|p| p.requests.as_ref()?.chunk_gaps.as_ref())
            .map(|g| g.values.len())
            .sum()
    };
    let total = gaps(report);
    if total <= FOLD_GAPS_ABOVE {
        return 0;
    }
    for point in report.runs.iter_mut().flat_map(|run| &mut run.points) {
        let Some(req) = point.requests.as_mut() else {
            continue;
        };
        let usable: Vec<usize> = (0..req.len())
            .filter(|&i| req.is_ok(i) && request_metrics(req, i).is_some())
            .collect();
        if let Some(g) = req.chunk_gaps.as_mut() {
            g.fold(&usable);
        }
    }
    total
}
