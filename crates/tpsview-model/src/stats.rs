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

/// One of a [`Dist`]'s statistics (defined with the rest of the product's words).
pub use crate::vocabulary::Stat;

impl Dist {
    /// One statistic.
    pub fn stat(&self, k: Stat) -> &Option<f64> {
        match k {
            Stat::Mean => &self.mean,
            Stat::P50 => &self.p50,
            Stat::P90 => &self.p90,
            Stat::P99 => &self.p99,
        }
    }

    /// One statistic, to set it.
    pub fn stat_mut(&mut self, k: Stat) -> &mut Option<f64> {
        match k {
            Stat::Mean => &mut self.mean,
            Stat::P50 => &mut self.p50,
            Stat::P90 => &mut self.p90,
            Stat::P99 => &mut self.p99,
        }
    }

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

/// Arithmetic mean, its sum taken as numpy takes it ([`sum`]); `None` for an empty slice.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| sum(values) / values.len() as f64)
}

/// The sum of `values` as numpy adds float64s (`np.add.reduce`, behind `np.sum` and `np.mean`):
/// pairwise, onto +0. Fewer than 8 values are added in order from +0; up to 128, into eight
/// running sums (value k into sum k mod 8) combined as ((s0 + s1) + (s2 + s3)) + ((s4 + s5) +
/// (s6 + s7)), the last n mod 8 values then added in order; more are split at half their count
/// rounded down to a multiple of 8, and the two sides' sums added. So a mean tpsview recomputes
/// is the one numpy gives to the bit — the arithmetic of vLLM, SGLang and the other numpy-based
/// tools whose figures the audit compares — its rounding error grows with log n rather than n,
/// and a big slice's two halves are independent: two cores take one each and give the same bits.
pub fn sum(values: &[f64]) -> f64 {
    numpy_total(halves_at(values, pairwise_half(values.len()), pairwise))
}

/// numpy's sum from the pairwise sums of the whole or of its two halves (cut at
/// [`pairwise_half`]): added, onto numpy's identity +0 (so a sum of negative zeros is +0).
fn numpy_total(parts: Vec<f64>) -> f64 {
    parts.into_iter().reduce(|a, b| a + b).unwrap_or(0.0) + 0.0
}

/// Where numpy's pairwise sum splits `n` values (more than 128).
fn pairwise_half(n: usize) -> usize {
    let h = n / 2;
    h - h % 8
}

fn pairwise(v: &[f64]) -> f64 {
    pairwise_visiting(v, &mut |_| {})
}

/// [`pairwise`], handing each block it adds at once (at most 128 values, in order, together
/// all of `v`) to `visit` as well: another pass over the values rides along while the block is
/// in cache.
fn pairwise_visiting(v: &[f64], visit: &mut impl FnMut(&[f64])) -> f64 {
    if v.len() > 128 {
        let (a, b) = v.split_at(pairwise_half(v.len()));
        return pairwise_visiting(a, visit) + pairwise_visiting(b, visit);
    }
    visit(v);
    pairwise_block(v)
}

/// numpy's sum of at most 128 values.
fn pairwise_block(v: &[f64]) -> f64 {
    let n = v.len();
    if n < 8 {
        let mut s = 0.0;
        for &x in v {
            s += x;
        }
        s
    } else {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&v[..8]);
        let whole = n - n % 8;
        for block in v[8..whole].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(block) {
                *acc += x;
            }
        }
        let mut s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &v[whole..] {
            s += x;
        }
        s
    }
}

/// The `p`-th percentile (0–100) of an ascending slice, interpolating linearly between the closest
/// ranks as numpy's default method does ([`linear_rank`], [`lerp`]: numpy's own double); `None`
/// for an empty slice.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let (lo, hi, t) = linear_rank(n, p);
    Some(lerp(sorted[lo], sorted[hi], t))
}

/// Where numpy's linear method (`np.percentile`'s default) places percentile `p` (0–100) among
/// `n` sorted values, as numpy computes it: the virtual index h = (n − 1) · (p / 100), its two
/// closest ranks and the fraction between them. At or past the last rank numpy takes the last
/// value twice with a fraction of h + 1 (its index −1 subtracted from h), which only the sign of
/// a zero can tell apart, and is kept so.
fn linear_rank(n: usize, p: f64) -> (usize, usize, f64) {
    let h = (n - 1) as f64 * (p / 100.0).clamp(0.0, 1.0);
    if h >= (n - 1) as f64 {
        return (n - 1, n - 1, h + 1.0);
    }
    let lo = h.floor();
    (lo as usize, lo as usize + 1, h - lo)
}

/// The value a fraction `t` of the way from `a` to `b`, as numpy's `_lerp` takes it: up from `a`
/// below one half, back down from `b` from one half on (the two differ in the last bit for some
/// values; this way the percentile is the very double numpy gives).
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let d = b - a;
    if t >= 0.5 {
        b - d * (1.0 - t)
    } else {
        a + d * t
    }
}

/// Several numpy-linear percentiles of an unsorted slice (reordered in place), in any order.
/// Each needs the values at two adjacent ranks; taken in ascending order, each selection works on
/// the part of the slice right of the previous rank, so the whole costs a few linear passes.
pub fn percentiles<const K: usize>(values: &mut [f64], ps: [f64; K]) -> [Option<f64>; K] {
    let n = values.len();
    let mut out = [None; K];
    if n == 0 {
        return out;
    }
    let mut order: [usize; K] = std::array::from_fn(|k| k);
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
    let mut floor = 0usize;
    for k in order {
        let (lo, hi, t) = linear_rank(n, ps[k]);
        let (_, &mut lo_v, right) =
            values[floor..].select_nth_unstable_by(lo - floor, f64::total_cmp);
        let hi_v = if hi > lo {
            right.iter().copied().fold(f64::INFINITY, f64::min)
        } else {
            lo_v
        };
        out[k] = Some(lerp(lo_v, hi_v, t));
        floor = lo;
    }
    out
}

const INF_BITS: u64 = 0x7ff0_0000_0000_0000;
const NEG_ZERO_BITS: u64 = 0x8000_0000_0000_0000;

/// True when every value is finite and ≥ 0 (NaN fails). No early exit: it runs over every chunk
/// gap of a big file, where a branch per value costs more than reading them all.
pub fn all_finite_non_negative(xs: &[f64]) -> bool {
    halves(xs, |part| {
        let mut ok = true;
        // On the bits: below +∞'s are exactly the finite values ≥ +0 (NaNs and negatives sort
        // above), and -0 (≥ 0 as a number) is its own case. Integer compares vectorize where the
        // float ones did not (6× faster on 10M gaps).
        for &x in part {
            let b = x.to_bits();
            ok &= (b < INF_BITS) | (b == NEG_ZERO_BITS);
        }
        ok
    })
    .into_iter()
    .all(|ok| ok)
}

/// Maps a double to an integer with the same order (total order, -0 < +0).
fn order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// The histogram's resolution: the top bits of the order key. 16 bits (sign, exponent, 4
/// mantissa bits: 1/16 of an octave) for up to [`FINE_FROM`] values; above, 20 bits (1/256 of an
/// octave). Latencies cluster within an octave or two, so at 16 bits a third of a big file's
/// 10M gaps fell in one bucket to gather and select in; at 20 bits a bucket holds a few per cent,
/// and the few buckets such data touches stay in cache. The finer table (13 MB with its
/// companions) would cost more to clear than it saves on fewer values.
fn bucket_bits(n: usize) -> u32 {
    if n >= FINE_FROM {
        20
    } else {
        16
    }
}

const FINE_FROM: usize = 1 << 22;

/// Below this many values, copying and selecting is as fast as anything.
const RADIX_MIN: usize = 1 << 16;

/// The values at the given ranks (0-based, each < `values.len()`) of the ascending order of
/// `values`, without reordering or copying `values`: a histogram of each value's top order-key
/// bits ([`bucket_bits`]) finds the bucket of each rank, and only those buckets are gathered and
/// selected in.
/// Millions of chunk gaps cost two linear passes instead of a copy and several selections.
pub fn values_at_ranks(values: &[f64], ranks: &[usize]) -> Vec<f64> {
    ranks_and_sum(values, ranks).0
}

/// [`values_at_ranks`] and [`sum`] together: the sum's blocks are added in the histogram's pass,
/// one pass over millions of values less.
fn ranks_and_sum(values: &[f64], ranks: &[usize]) -> (Vec<f64>, f64) {
    // A copy and a selection per rank: for few values, and for more ranks than the gathering
    // below keeps apart.
    let by_selection = || {
        let mut v = values.to_vec();
        ranks
            .iter()
            .map(|&r| *v.select_nth_unstable_by(r, f64::total_cmp).1)
            .collect()
    };
    if values.len() < RADIX_MIN || ranks.is_empty() || ranks.len() >= usize::from(u8::MAX) {
        return (by_selection(), sum(values));
    }
    let bits = bucket_bits(values.len());
    let (buckets, shift) = (1usize << bits, 64 - bits);
    // Split where numpy's sum splits, so that the halves' sums add up to its sum.
    let (hist, total): (Vec<Vec<u32>>, Vec<f64>) =
        halves_at(values, pairwise_half(values.len()), |part| {
            let mut hist = vec![0u32; buckets];
            let s = pairwise_visiting(part, &mut |block| {
                for &x in block {
                    hist[(order_key(x) >> shift) as usize] += 1;
                }
            });
            (hist, s)
        })
        .into_iter()
        .unzip();
    let total = numpy_total(total);
    // Each rank's bucket and how many values lie below that bucket, in one walk over the
    // histograms (the halves' counts added as it goes, never merged into a table).
    let count = |b: usize| hist.iter().map(|h| u64::from(h[b])).sum::<u64>();
    let mut by_rank: Vec<usize> = (0..ranks.len()).collect();
    by_rank.sort_unstable_by_key(|&k| ranks[k]);
    let mut place = vec![(0usize, 0u64); ranks.len()];
    let (mut b, mut below) = (0usize, 0u64);
    for &k in &by_rank {
        let r = ranks[k] as u64;
        loop {
            let c = count(b);
            if below + c > r {
                break;
            }
            below += c;
            b += 1;
        }
        place[k] = (b, below);
    }
    let mut wanted: Vec<usize> = place.iter().map(|&(b, _)| b).collect();
    wanted.sort_unstable();
    wanted.dedup();
    // Which gathered list each wanted bucket fills (a table over every bucket: one load and one
    // compare per value, no branch that the data could make unpredictable).
    let mut slot = vec![u8::MAX; buckets];
    for (k, &b) in wanted.iter().enumerate() {
        slot[b] = k as u8;
    }
    let mut gathered = halves(values, |part| {
        let mut gathered: Vec<Vec<f64>> = wanted
            .iter()
            .map(|&b| Vec::with_capacity(count(b) as usize / 2))
            .collect();
        for &x in part {
            let k = slot[(order_key(x) >> shift) as usize];
            if k != u8::MAX {
                gathered[k as usize].push(x);
            }
        }
        gathered
    })
    .into_iter()
    .reduce(|mut a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| x.extend(y));
        a
    })
    .unwrap_or_default();
    let at = ranks
        .iter()
        .zip(&place)
        .map(|(&r, &(b, below))| {
            let k = slot[b] as usize;
            *gathered[k]
                .select_nth_unstable_by(r - below as usize, f64::total_cmp)
                .1
        })
        .collect();
    (at, total)
}

/// Above this many values, a histogram pass is split in two halves (see [`crate::par`]).
const SPLIT_MIN: usize = 1 << 20;

/// `f` over each half of `values` through [`crate::par::join`] when that pays, else over the
/// whole: one or two results, in order.
fn halves<T: Send>(values: &[f64], f: impl Fn(&[f64]) -> T + Sync) -> Vec<T> {
    halves_at(values, values.len() / 2, f)
}

/// [`halves`] cut at `at`.
fn halves_at<T: Send>(values: &[f64], at: usize, f: impl Fn(&[f64]) -> T + Sync) -> Vec<T> {
    if values.len() < SPLIT_MIN || !crate::par::parallel() {
        return vec![f(values)];
    }
    let (a, b) = values.split_at(at);
    let (x, y) = crate::par::join(|| f(a), || f(b));
    vec![x, y]
}

/// Mean, p50, p90 and p99 of values that must stay as they are (e.g. the chunk gaps inside a
/// report), computed without copying them.
pub fn dist_in_place(values: &[f64]) -> Dist {
    let n = values.len();
    if n == 0 {
        return Dist::default();
    }
    let ps = [50.0, 90.0, 99.0];
    let mut ranks = Vec::with_capacity(6);
    for p in ps {
        let (lo, hi, _) = linear_rank(n, p);
        ranks.push(lo);
        ranks.push(hi);
    }
    // One pass for the histogram and the sum, one to gather; each split in two on two cores.
    let (at, total) = ranks_and_sum(values, &ranks);
    let avg = Some(total / n as f64);
    let pct = |k: usize, p: f64| lerp(at[2 * k], at[2 * k + 1], linear_rank(n, p).2);
    Dist {
        mean: avg,
        p50: Some(pct(0, ps[0])),
        p90: Some(pct(1, ps[1])),
        p99: Some(pct(2, ps[2])),
    }
}

/// The `p` quantile of Student's t distribution with `nu` degrees of freedom (any real ν > 0, as
/// Welch's are), for `p` in (½, 1): the t with P(T ≤ t) = p, found by bisection on the
/// distribution function, P(T > t) = ½ · I_{ν/(ν+t²)}(ν/2, ½), the regularized incomplete beta
/// function by its continued fraction. Written here rather than taken from statrs: its quantile
/// cost the page 12 KB gzip; the tests check this one against statrs and a printed table.
pub fn t_quantile(p: f64, nu: f64) -> Option<f64> {
    if !(p > 0.5 && p < 1.0 && nu > 0.0 && nu.is_finite()) {
        return None;
    }
    let tail = |t: f64| 0.5 * inc_beta(nu / (nu + t * t), nu / 2.0, 0.5);
    // The upper tail falls from ½ at 0; widen until it is below 1 − p, then halve the bracket.
    let want = 1.0 - p;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while tail(hi) > want {
        lo = hi;
        hi *= 2.0;
        if hi > 1e12 {
            return None;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > want {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// ln Γ(x), x > 0 (Lanczos, g = 7, 9 terms: ~15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[1..]
        .iter()
        .enumerate()
        .fold(C[0], |acc, (i, c)| acc + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1.
fn inc_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // The continued fraction converges fast below its mean; above, by symmetry.
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = guard(1.0 - (a + b) * x / (a + 1.0)).recip();
    let mut h = d;
    for m in 1..=300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        for aa in [
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ] {
            d = guard(1.0 + aa * d).recip();
            c = guard(1.0 + aa / c);
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod numpy_fixture;
#[cfg(test)]
mod tests;
