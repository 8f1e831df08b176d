//! The core's two-core paths (`tpsview_core::par`), in a test binary of their own: the join is
//! installed once for the whole process, so every test here runs the split paths, and the other
//! test binaries run the plain ones. Each compares with what the plain code gives.

use std::sync::atomic::{AtomicUsize, Ordering};

use tpsview_core::formats::{self, Format, Stream};
use tpsview_core::stats::{dist_in_place, values_at_ranks, Dist};

#[path = "../../tpsview-model/src/stats/numpy_fixture.rs"]
mod numpy_fixture;

static JOINS: AtomicUsize = AtomicUsize::new(0);

fn install() {
    tpsview_core::par::set_join(|a, b| {
        JOINS.fetch_add(1, Ordering::SeqCst);
        std::thread::scope(|s| {
            s.spawn(a);
            b();
        });
    });
}

#[test]
fn percentiles_of_millions_split_over_two_threads_equal_sorting() {
    install();
    let before = JOINS.load(Ordering::SeqCst);
    // Gaps of ~20 ms (one octave, many duplicates), as in a big file (enough for the finer
    // histogram), plus a few odd ones.
    let mut v: Vec<f64> = (0..4_500_001u64)
        .map(|i| 0.018 + ((i * 7919) % 10_007) as f64 * 1e-6)
        .collect();
    v[17] = 0.0;
    v[1_000_003] = 4.5;
    v[4_499_999] = -0.0;
    let mut sorted = v.clone();
    sorted.sort_by(f64::total_cmp);
    let ranks = [0, 1, 2_250_000, 4_050_000, 4_455_000, 4_455_001, 4_500_000];
    let expect: Vec<f64> = ranks.iter().map(|&r| sorted[r]).collect();
    assert_eq!(values_at_ranks(&v, &ranks), expect);
    // The mean's two halves are numpy's own split, so it is the same bits as without the join.
    let mut copy = v.clone();
    assert_eq!(dist_in_place(&v), Dist::of(&mut copy));
    assert!(tpsview_core::stats::all_finite_non_negative(&v));
    v[2_000_000] = f64::NAN;
    assert!(!tpsview_core::stats::all_finite_non_negative(&v));
    assert!(JOINS.load(Ordering::SeqCst) > before, "the split paths ran");
}

/// `text` fed to a [`Stream`] in chunks of `size`.
fn streamed(text: &str, size: usize) -> formats::Parsed {
    let mut s =
        Stream::new(Format::VllmServe, "s.json", Some(text.len() as u64)).expect("streams vLLM");
    for c in text.as_bytes().chunks(size) {
        assert!(s.feed(c, &mut tpsview_core::progress::Silent));
    }
    s.finish(&mut tpsview_core::progress::Silent)
        .expect("the scanner reads it")
        .expect("parses")
}

#[test]
fn chunk_gaps_read_in_two_halves_equal_the_plain_reading() {
    install();
    let before = JOINS.load(Ordering::SeqCst);
    // 17-digit numbers, so that rows and numbers are cut anywhere, and vLLM's usual short
    // ones (read by the scanner's one-step path); chunks well over the split threshold, and odd
    // sizes. The other core's rows wait one window before they join the column, so several
    // windows in a row test their order.
    for full in [true, false] {
        let text = tpsview_core::synthetic::vllm_detailed(600, 200, 7, full);
        let whole = formats::parse(Format::VllmServe, "s.json", text.as_bytes()).expect("parses");
        for size in [300_001, 700_000, 1 << 20] {
            assert_eq!(
                streamed(&text, size),
                whole,
                "chunks of {size}, full {full}"
            );
        }
    }
    assert!(
        JOINS.load(Ordering::SeqCst) > before,
        "the gaps were read in halves"
    );
}

#[test]
fn text_that_looks_like_rows_of_gaps_is_not_taken_for_them() {
    install();
    // A gap array of ~2 MB, then texts full of `], [1, 2],`: windows that start inside the gaps
    // and whose middle falls in the texts find a "row start" there; that half's reading must be
    // thrown away, not spliced in. Many chunk sizes, so that some windows fall so.
    let fake = "], [1, 2], [3], ".repeat(60_000);
    let mut text = tpsview_core::synthetic::vllm_detailed(300, 300, 3, true);
    let at = text
        .find("\"generated_texts\"")
        .expect("the generator writes texts");
    text.insert_str(at, &format!("\"extra_texts\": [\"{fake}\", \"{fake}\"], "));
    let whole = formats::parse(Format::VllmServe, "s.json", text.as_bytes()).expect("parses");
    for size in (0..12).map(|k| 280_000 + k * 77_777) {
        assert_eq!(streamed(&text, size), whole, "chunks of {size}");
    }
}

#[test]
fn sums_split_over_two_threads_are_numpys_to_the_bit() {
    install();
    let before = JOINS.load(Ordering::SeqCst);
    let mut big = 0;
    for (family, n, want_sum, want_mean) in numpy_fixture::numpy_cases() {
        if n < 1 << 20 {
            continue;
        }
        big += 1;
        let v = numpy_fixture::numpy_family(&family, n);
        assert_eq!(
            tpsview_core::stats::sum(&v).to_bits(),
            want_sum.to_bits(),
            "{family} {n}"
        );
        assert_eq!(
            dist_in_place(&v).mean.map(f64::to_bits),
            want_mean.map(f64::to_bits),
            "{family} {n}"
        );
    }
    assert!(big >= 8, "the fixture has big arrays");
    assert!(JOINS.load(Ordering::SeqCst) > before, "the sums were split");
}

#[test]
fn percentiles_of_millions_split_over_two_threads_are_numpys_to_the_bit() {
    install();
    let before = JOINS.load(Ordering::SeqCst);
    let (ps, cases) = numpy_fixture::numpy_percentile_cases();
    let at = |p: f64| {
        ps.iter()
            .position(|&q| q == p)
            .expect("p50, p90, p99 in the fixture")
    };
    let mut big = 0;
    for (family, n, want) in cases {
        if n < 1 << 20 {
            continue;
        }
        big += 1;
        let d = dist_in_place(&numpy_fixture::numpy_family(&family, n));
        for (got, p) in [(d.p50, 50.0), (d.p90, 90.0), (d.p99, 99.0)] {
            assert_eq!(
                got.map(f64::to_bits),
                Some(want[at(p)].to_bits()),
                "{family} {n} p{p}"
            );
        }
    }
    assert!(big >= 8, "the fixture has big arrays");
    assert!(
        JOINS.load(Ordering::SeqCst) > before,
        "the gathering was split"
    );
}
