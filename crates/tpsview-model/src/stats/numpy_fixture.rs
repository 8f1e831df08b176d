//! Test-only: numpy's sums, means and percentiles of arrays regenerated from formulas
//! (tests/fixtures/numpy-sums.json and numpy-percentiles.json, written by
//! tests/golden/numpy-sums-2026-12-01.py and numpy-percentiles-2026-12-01.py), shared by the unit
//! tests and the two-core test binary (`tests/parallel.rs`, through `#[path]`).

/// The arrays of tests/golden/numpy-sums-2026-12-01.py, from the same formulas.
pub fn numpy_family(name: &str, n: usize) -> Vec<f64> {
    const SCALE: [f64; 7] = [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3];
    (0..n)
        .map(|i| match name {
            "gaps" => ((i * 7919 + 13) % 10007) as f64 * 1e-6 + 0.018,
            "order" => match i % 4 {
                0 => 1e16,
                1 | 2 => 1.0,
                _ => -1e16 + (i % 7) as f64,
            },
            "zeros" => -0.0,
            "wide" => (((i as i64) * 48271) % 2_147_483_647 - 1_073_741_823) as f64 * SCALE[i % 7],
            _ => unreachable!("{name}"),
        })
        .collect()
}

/// A fixture case's array family and size.
fn family_and_size(c: &serde_json::Value) -> (String, usize) {
    (
        c["family"].as_str().expect("family").to_owned(),
        c["n"].as_u64().expect("n") as usize,
    )
}

/// The fixture's cases: family, size, numpy's sum, numpy's mean (none for no values).
pub fn numpy_cases() -> Vec<(String, usize, f64, Option<f64>)> {
    let text = include_str!("../../../../tests/fixtures/numpy-sums.json");
    let v: serde_json::Value = serde_json::from_str(text).expect("the fixture is JSON");
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let (family, n) = family_and_size(c);
            (
                family,
                n,
                hex_float(c["sum"].as_str().expect("sum")),
                c["mean"].as_str().map(hex_float),
            )
        })
        .collect()
}

/// A family, a size and numpy's percentiles of that array.
pub type PercentileCase = (String, usize, Vec<f64>);

/// The percentiles fixture: the percentiles asked for (ascending, 0–100), then each case's
/// family, size and numpy's `np.percentile` at each.
pub fn numpy_percentile_cases() -> (Vec<f64>, Vec<PercentileCase>) {
    let text = include_str!("../../../../tests/fixtures/numpy-percentiles.json");
    let v: serde_json::Value = serde_json::from_str(text).expect("the fixture is JSON");
    let ps = v["ps"]
        .as_array()
        .expect("ps")
        .iter()
        .map(|p| p.as_f64().expect("a percentile"))
        .collect();
    let cases = v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let (family, n) = family_and_size(c);
            (
                family,
                n,
                c["p"]
                    .as_array()
                    .expect("p")
                    .iter()
                    .map(|x| hex_float(x.as_str().expect("hex")))
                    .collect(),
            )
        })
        .collect();
    (ps, cases)
}

/// Python's `float.hex()` text (`-0x1.8p+1`, `0x0.0p+0`) as the double it names (normal numbers
/// and zeros: what the fixture holds).
pub fn hex_float(t: &str) -> f64 {
    let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
    let t = t.strip_prefix("0x").expect("0x");
    let (mant, exp) = t.split_once('p').expect("p");
    let (lead, frac) = mant.split_once('.').expect(".");
    let exp: i32 = exp.parse().expect("exponent");
    let frac_bits = u64::from_str_radix(&format!("{frac:0<13}"), 16).expect("hex digits");
    let bits = match lead {
        "0" => {
            assert_eq!(frac_bits, 0, "{t}: no subnormals in the fixture");
            0
        }
        "1" => (((exp + 1023) as u64) << 52) | frac_bits,
        _ => panic!("{t}"),
    };
    f64::from_bits(bits | (u64::from(neg) << 63))
}
