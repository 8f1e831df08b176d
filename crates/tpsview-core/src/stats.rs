//! Means and percentiles. Percentiles interpolate linearly between closest ranks (numpy's
//! default), so that figures match the tools that use numpy.

/// Mean, p50, p90 and p99 of a sample; every field is `None` for an empty sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Dist {
    /// Arithmetic mean.
    pub mean: Option<f64>,
    /// Median (numpy-linear).
    pub p50: Option<f64>,
    /// 90th percentile (numpy-linear).
    pub p90: Option<f64>,
    /// 99th percentile (numpy-linear).
    pub p99: Option<f64>,
}

impl Dist {
    /// Summarises `values`, reordering them in place. NaNs must have been filtered out by the
    /// caller. Uses selection rather than a full sort: O(n) for the millions of pooled chunk gaps
    /// of a big file.
    pub fn of(values: &mut [f64]) -> Dist {
        if values.is_empty() {
            return Dist::default();
        }
        let m = mean(values);
        let [p50, p90, p99] = percentiles(values, [50.0, 90.0, 99.0]);
        Dist {
            mean: m,
            p50,
            p90,
            p99,
        }
    }

    /// Every field multiplied by `k` (e.g. seconds → milliseconds).
    pub fn scaled(self, k: f64) -> Dist {
        let s = |v: Option<f64>| v.map(|x| x * k);
        Dist {
            mean: s(self.mean),
            p50: s(self.p50),
            p90: s(self.p90),
            p99: s(self.p99),
        }
    }
}

/// Arithmetic mean; `None` for an empty slice.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

/// The `p`-th percentile (0–100) of an ascending slice, interpolating linearly between the closest
/// ranks as numpy's default method does; `None` for an empty slice.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * (p / 100.0).clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    let frac = h - lo as f64;
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * frac)
}

/// Several numpy-linear percentiles of an unsorted slice (reordered in place), ascending `ps`.
/// Each needs the values at two adjacent ranks; successive selections work on the part of the
/// slice right of the previous rank, so the whole costs a few linear passes.
pub fn percentiles<const K: usize>(values: &mut [f64], ps: [f64; K]) -> [Option<f64>; K] {
    let n = values.len();
    let mut out = [None; K];
    if n == 0 {
        return out;
    }
    let mut floor = 0usize;
    for (k, p) in ps.into_iter().enumerate() {
        let h = (n - 1) as f64 * (p / 100.0).clamp(0.0, 1.0);
        let lo = (h.floor() as usize).max(floor);
        let (_, &mut lo_v, right) =
            values[floor..].select_nth_unstable_by(lo - floor, f64::total_cmp);
        let hi_v = if lo + 1 < n {
            right.iter().copied().fold(f64::INFINITY, f64::min)
        } else {
            lo_v
        };
        out[k] = Some(lo_v + (hi_v - lo_v) * (h - lo as f64));
        floor = lo;
    }
    out
}

#[cfg(test)]
mod tests;
