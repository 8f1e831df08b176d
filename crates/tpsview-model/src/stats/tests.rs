use super::*;
use proptest::prelude::*;

#[test]
fn percentiles_match_numpy_linear() {
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) == [2.5, 3.7, 3.97]
    let v = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(percentile_sorted(&v, 50.0), Some(2.5));
    assert!((percentile_sorted(&v, 90.0).unwrap() - 3.7).abs() < 1e-12);
    assert!((percentile_sorted(&v, 99.0).unwrap() - 3.97).abs() < 1e-12);
    assert_eq!(percentile_sorted(&v, 0.0), Some(1.0));
    assert_eq!(percentile_sorted(&v, 100.0), Some(4.0));
    assert_eq!(percentile_sorted(&[7.0], 99.0), Some(7.0));
    assert_eq!(percentile_sorted(&[], 50.0), None);
}

#[test]
fn dist_of_empty_sample_is_all_none() {
    assert_eq!(Dist::of(&mut []), Dist::default());
}

#[test]
fn dist_sorts_and_summarises() {
    let mut v = vec![4.0, 1.0, 3.0, 2.0];
    let d = Dist::of(&mut v);
    assert_eq!(d.mean, Some(2.5));
    assert_eq!(d.p50, Some(2.5));
    assert_eq!(d.scaled(1000.0).mean, Some(2500.0));
}

proptest! {
    #[test]
    fn percentiles_are_monotone_and_bounded(mut v in prop::collection::vec(-1e6f64..1e6, 1..200)) {
        v.sort_unstable_by(f64::total_cmp);
        let mut last = f64::NEG_INFINITY;
        for p in [0.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0] {
            let x = percentile_sorted(&v, p).unwrap();
            prop_assert!(x >= last);
            prop_assert!(x >= v[0] && x <= v[v.len() - 1]);
            last = x;
        }
    }
}

proptest! {
    #[test]
    fn selection_percentiles_equal_sorted_ones(v in prop::collection::vec(-1e3f64..1e3, 1..300)) {
        let mut sorted = v.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let mut work = v.clone();
        let got = percentiles(&mut work, [0.0, 50.0, 90.0, 99.0, 100.0]);
        for (g, p) in got.iter().zip([0.0, 50.0, 90.0, 99.0, 100.0]) {
            let want = percentile_sorted(&sorted, p).unwrap();
            prop_assert!((g.unwrap() - want).abs() <= 1e-9 * want.abs().max(1.0), "p{} {} {}", p, g.unwrap(), want);
        }
    }
}

#[test]
fn finite_non_negative_check() {
    assert!(all_finite_non_negative(&[0.0, 1.0, 1e300]));
    assert!(all_finite_non_negative(&[]));
    assert!(!all_finite_non_negative(&[1.0, -0.5]));
    assert!(!all_finite_non_negative(&[1.0, f64::NAN]));
    assert!(!all_finite_non_negative(&[f64::INFINITY]));
    // The bit test's edges: -0 and subnormals pass; the most negative subnormal, -∞, a NaN with
    // its sign bit set and the largest finite value's neighbours are told apart.
    assert!(all_finite_non_negative(&[
        -0.0,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE
    ]));
    assert!(!all_finite_non_negative(&[-5e-324]));
    assert!(!all_finite_non_negative(&[f64::NEG_INFINITY]));
    assert!(!all_finite_non_negative(&[-f64::NAN]));
    assert!(!all_finite_non_negative(&[f64::MIN]));
    // Compared with the float comparison on every kind of value, alone and in a long slice.
    let kinds = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        5e-324,
        -5e-324,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
    ];
    for x in kinds {
        let expect = (0.0..f64::INFINITY).contains(&x);
        assert_eq!(all_finite_non_negative(&[x]), expect, "{x}");
        let mut long = vec![0.02; 3 << 20];
        long[(3 << 20) - 7] = x;
        assert_eq!(
            all_finite_non_negative(&long),
            expect,
            "{x} in a long slice"
        );
    }
}

#[test]
fn radix_ranks_match_sorting_on_big_narrow_and_mixed_samples() {
    let n = 200_000;
    // Narrow range (one exponent), like chunk gaps of ~20 ms, with duplicates and a few negatives.
    let narrow: Vec<f64> = (0..n)
        .map(|i| 0.018 + ((i * 7919) % 10007) as f64 * 1e-6)
        .collect();
    let mixed: Vec<f64> = (0..n)
        .map(|i| ((i as f64) * 1.618).sin() * 10f64.powi((i % 13) as i32 - 6))
        .collect();
    for v in [narrow, mixed] {
        let mut sorted = v.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        // In order, out of order with repeats, and more ranks than the gathering keeps apart.
        let many: Vec<usize> = (0..300).map(|k| (k * 7_919) % n).collect();
        for ranks in [
            vec![0, 1, n / 2, n * 9 / 10, n * 99 / 100, n - 1],
            vec![
                n - 1,
                0,
                n / 2,
                n / 2,
                1,
                n * 99 / 100,
                n * 9 / 10,
                n / 2 + 1,
            ],
            many,
        ] {
            assert_eq!(
                values_at_ranks(&v, &ranks),
                ranks.iter().map(|&r| sorted[r]).collect::<Vec<_>>(),
                "{} ranks",
                ranks.len()
            );
        }
        let d = dist_in_place(&v);
        let mut w = v.clone();
        assert_eq!(d, Dist::of(&mut w));
    }
}

#[test]
fn the_finer_histogram_of_millions_of_values_finds_the_same_ranks_as_sorting() {
    // Above FINE_FROM values the histogram has 20-bit buckets: narrow data, a few outliers.
    let n = FINE_FROM + 12_345;
    let mut v: Vec<f64> = (0..n as u64)
        .map(|i| 0.018 + ((i * 104_729) % 99_991) as f64 * 1e-7)
        .collect();
    v[3] = 1e-9;
    v[n / 2] = 30.0;
    v[n - 2] = 0.0;
    let mut sorted = v.clone();
    sorted.sort_by(f64::total_cmp);
    let ranks = [0, 1, 2, n / 2, n * 9 / 10, n * 99 / 100, n - 2, n - 1];
    let expect: Vec<f64> = ranks.iter().map(|&r| sorted[r]).collect();
    assert_eq!(values_at_ranks(&v, &ranks), expect);
}

#[test]
fn sums_and_means_are_numpys_to_the_bit() {
    use super::numpy_fixture::{numpy_cases, numpy_family};
    // tests/fixtures/numpy-sums.json: numpy's np.add.reduce and np.mean of arrays regenerated
    // here from the same formulas (tests/golden/numpy-sums-2026-12-01.py wrote it).
    let cases = numpy_cases();
    assert!(cases.len() >= 160);
    for (family, n, want_sum, want_mean) in cases {
        let v = numpy_family(&family, n);
        assert_eq!(sum(&v).to_bits(), want_sum.to_bits(), "{family} {n}: sum");
        assert_eq!(
            mean(&v).map(f64::to_bits),
            want_mean.map(f64::to_bits),
            "{family} {n}: mean"
        );
        if n > 0 {
            assert_eq!(
                dist_in_place(&v).mean.map(f64::to_bits),
                want_mean.map(f64::to_bits),
                "{family} {n}: the distribution's mean"
            );
        }
    }
    // The order matters, so this is not the plain sum in order: numpy's is closer.
    let v = numpy_family("order", 100_003);
    assert_ne!(sum(&v), v.iter().sum::<f64>());
}

#[test]
fn percentiles_are_numpys_to_the_bit() {
    use super::numpy_fixture::{numpy_family, numpy_percentile_cases};
    // tests/fixtures/numpy-percentiles.json: np.percentile (linear) of the same arrays, written by
    // tests/golden/numpy-percentiles-2026-12-01.py. numpy places a percentile at the virtual
    // index (n − 1) · (p / 100) and interpolates back down from the upper value when the fraction
    // is ½ or more: (n − 1) · p / 100, or always interpolating up, differ in the last bit.
    let (ps, cases) = numpy_percentile_cases();
    assert_eq!(ps.len(), 8);
    assert!(cases.len() >= 140);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let some_bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
    let (mut up, mut down) = (0, 0);
    for (family, n, want) in cases {
        let v = numpy_family(&family, n);
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        let got: Vec<f64> = ps
            .iter()
            .map(|&p| percentile_sorted(&sorted, p).expect("values"))
            .collect();
        assert_eq!(bits(&got), bits(&want), "{family} {n}: percentile_sorted");
        let mut w = v.clone();
        let got: [Option<f64>; 8] = percentiles(&mut w, ps.clone().try_into().expect("8"));
        let want_some: Vec<Option<f64>> = want.iter().copied().map(Some).collect();
        assert_eq!(
            some_bits(&got),
            some_bits(&want_some),
            "{family} {n}: percentiles"
        );
        // Asked in another order, each answer is the same.
        let mut w = v.clone();
        let backwards: Vec<f64> = ps.iter().rev().copied().collect();
        let got: [Option<f64>; 8] = percentiles(&mut w, backwards.try_into().expect("8"));
        let want_back: Vec<Option<f64>> = want.iter().rev().copied().map(Some).collect();
        assert_eq!(
            some_bits(&got),
            some_bits(&want_back),
            "{family} {n}: percentiles asked backwards"
        );
        if n >= 1 << 20 {
            continue; // tests/parallel.rs, with two threads; one thread in turn here is slow.
        }
        let d = dist_in_place(&v);
        assert_eq!(
            some_bits(&[d.p50, d.p90, d.p99]),
            some_bits(&[Some(want[2]), Some(want[3]), Some(want[5])]),
            "{family} {n}: dist_in_place"
        );
        // Both of numpy's interpolations are exercised.
        for p in &ps {
            let (_, _, t) = linear_rank(n, *p);
            if (0.5..1.0).contains(&t) {
                down += 1;
            } else if t > 0.0 && t < 0.5 {
                up += 1;
            }
        }
    }
    assert!(up > 50 && down > 50, "{up} up, {down} down");
}

#[test]
fn python_hex_floats_read_back() {
    for x in [1.0, -2.5, 0.1, 1e16, -1e-300, 123456.789, f64::MAX] {
        let text = python_hex(x);
        assert_eq!(
            super::numpy_fixture::hex_float(&text).to_bits(),
            x.to_bits(),
            "{text}"
        );
    }
    assert_eq!(super::numpy_fixture::hex_float("0x0.0p+0").to_bits(), 0);
    assert_eq!(
        super::numpy_fixture::hex_float("-0x0.0p+0").to_bits(),
        (-0.0f64).to_bits()
    );
}

/// Python's float.hex written independently (for the round trip above).
fn python_hex(x: f64) -> String {
    let b = x.to_bits();
    let sign = if b >> 63 == 1 { "-" } else { "" };
    let e = ((b >> 52) & 0x7FF) as i32 - 1023;
    let f = format!("{:013x}", b & ((1 << 52) - 1));
    let f = f.trim_end_matches('0');
    format!("{sign}0x1.{}p{e:+}", if f.is_empty() { "0" } else { f })
}

#[test]
fn the_t_quantile_is_statrss_and_the_printed_tables() {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    // A printed table's t(0.995, ν) and t(0.975, ν).
    for (nu, t995, t975) in [
        (1.0, 63.657, 12.706),
        (2.0, 9.925, 4.303),
        (3.0, 5.841, 3.182),
        (4.0, 4.604, 2.776),
        (10.0, 3.169, 2.228),
        (30.0, 2.750, 2.042),
    ] {
        assert!(
            (t_quantile(0.995, nu).unwrap() - t995).abs() < 1e-3,
            "ν {nu}"
        );
        assert!(
            (t_quantile(0.975, nu).unwrap() - t975).abs() < 1e-3,
            "ν {nu}"
        );
    }
    // statrs at fractional and large ν (Welch's), and other levels.
    for nu in [0.7, 1.3, 2.5, 3.7, 6.2, 17.9, 150.0, 5000.0] {
        let d = StudentsT::new(0.0, 1.0, nu).unwrap();
        for p in [0.6, 0.9, 0.975, 0.995, 0.9995] {
            let (a, b) = (t_quantile(p, nu).unwrap(), d.inverse_cdf(p));
            assert!(
                (a - b).abs() <= 1e-7 * b.abs().max(1.0),
                "ν {nu} p {p}: {a} vs {b}"
            );
        }
    }
    for bad in [
        (0.5, 3.0),
        (1.0, 3.0),
        (0.99, 0.0),
        (0.99, f64::NAN),
        (0.99, f64::INFINITY),
    ] {
        assert_eq!(t_quantile(bad.0, bad.1), None, "{bad:?}");
    }
}
