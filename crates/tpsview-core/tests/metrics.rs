//! The analysis's `metrics` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tpsview_core::metrics::*;
use tpsview_core::model::{Outcome, Point, Ragged, Requests};
use tpsview_core::requests::validate_requests;
use tpsview_core::stats::Dist;
use tpsview_core::vocabulary::{Latency, Metric, Stat};

/// Requests from (start, ttft, e2e, output tokens) rows, chunk gaps spread evenly.
fn requests(rows: &[(f64, f64, f64, u32)]) -> Requests {
    let mut gaps = Ragged {
        offsets: vec![0],
        ..Ragged::default()
    };
    for &(_, t, e, n) in rows {
        let k = n.saturating_sub(1) as usize;
        gaps.push_row(&vec![(e - t) / k.max(1) as f64; k]);
    }
    Requests {
        start_s: Some(rows.iter().map(|r| r.0).collect()),
        epoch_s: None,
        ttft_s: rows.iter().map(|r| r.1).collect(),
        e2e_s: rows.iter().map(|r| r.2).collect(),
        input_tokens: None,
        output_tokens: rows.iter().map(|r| r.3).collect(),
        chunk_gaps: Some(gaps),
        outcome: vec![Outcome::Ok; rows.len()],
        dists: None,
        facts: None,
    }
}

fn point(req: Requests, concurrency: Option<f64>) -> Point {
    Point {
        source_file: "t".into(),
        concurrency,
        request_rate: None,
        requests: Some(req),
        reported: Default::default(),
        sampled_from: None,
        server: None,
        ..Point::default()
    }
}

#[test]
fn per_request_definitions_by_hand() {
    let req = requests(&[(0.0, 0.5, 2.5, 5)]);
    let r = request_metrics(&req, 0).unwrap();
    assert_eq!(r.ttft, 0.5);
    assert_eq!(r.e2e, 2.5);
    assert_eq!(r.tpot, Some(0.5)); // (2.5 − 0.5) / (5 − 1)
    assert_eq!(r.per_stream_rate, Some(2.0));
    assert_eq!(r.user_rate, Some(2.0)); // 5 / 2.5
}

#[test]
fn point_figures_by_hand() {
    // Two streams side by side, then one alone.
    let req = requests(&[
        (0.0, 0.2, 1.2, 11),
        (0.0, 0.2, 2.2, 11),
        (1.2, 0.1, 1.0, 10),
    ]);
    let (m, _) = compute_point(&point(req, Some(2.0)), &MetricOptions::default());
    assert_eq!(m.output_tokens, Some(32));
    assert_eq!(m.duration_s, Some(2.2));
    assert!((m.system_tps.unwrap() - 32.0 / 2.2).abs() < 1e-12);
    // tpots: 0.1, 0.2, 0.1 → mean 0.4/3
    assert!((m.per_stream_tps.unwrap() - 3.0 / 0.4).abs() < 1e-9);
    assert!((m.tpot_ms.p50.unwrap() - 100.0).abs() < 1e-9);
    assert!((m.concurrency_achieved.unwrap() - 4.4 / 2.2).abs() < 1e-12);
    assert!((m.request_throughput.unwrap() - 3.0 / 2.2).abs() < 1e-12);
    // ITL pooled: 10 gaps of 0.1, 10 of 0.2, 9 of 0.1
    assert!((m.itl_ms.mean.unwrap() - (19.0 * 100.0 + 10.0 * 200.0) / 29.0).abs() < 1e-9);
}

#[test]
fn failed_requests_are_counted_and_never_averaged_in() {
    let mut req = requests(&[(0.0, 0.1, 1.1, 11), (0.0, 9.0, 99.0, 2)]);
    req.outcome[1] = Outcome::Failed("boom".into());
    let (m, _) = compute_point(&point(req, None), &MetricOptions::default());
    assert_eq!((m.requests_ok, m.requests_failed), (Some(1), Some(1)));
    assert_eq!(m.ttft_ms.mean, Some(100.0));
    assert_eq!(m.excluded[0].reason, "boom");
}

#[test]
fn all_failed_and_empty_points_say_so() {
    let mut req = requests(&[(0.0, 0.1, 1.1, 11)]);
    req.outcome[0] = Outcome::Failed("x".into());
    let (m, d) = compute_point(&point(req, None), &MetricOptions::default());
    assert_eq!(m.system_tps, None);
    assert_eq!(m.per_stream_tps, None);
    assert!(d.iter().any(|d| d.message.contains("no request completed")));
    let (m, d) = compute_point(&point(requests(&[]), None), &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(0));
    assert!(d.iter().any(|d| d.message.contains("no requests")));
}

/// A summary-only file where every request failed: the tool writes 0.0 for every figure; tpsview
/// shows them undefined, as it does for raw data where nothing completed, and says why.
#[test]
fn a_reported_point_with_no_completed_request_has_no_figures() {
    let text = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4, "duration": 2.0,
        "completed": 0, "failed": 10, "total_output_tokens": 0, "request_throughput": 0.0,
        "output_throughput": 0.0, "mean_ttft_ms": 0.0, "median_ttft_ms": 0.0, "p99_ttft_ms": 0.0,
        "mean_tpot_ms": 0.0, "median_tpot_ms": 0.0, "p99_tpot_ms": 0.0, "mean_e2el_ms": 0.0}"#;
    let parsed = tpsview_core::parse_any("f.json", text).unwrap();
    let (m, d) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!((m.requests_ok, m.requests_failed), (Some(0), Some(10)));
    assert_eq!(m.system_tps, None);
    assert_eq!(m.per_stream_tps, None);
    assert_eq!(m.request_throughput, None);
    assert_eq!(m.tpot_ms, Dist::default());
    assert_eq!(m.ttft_ms.p99, None);
    assert!(d
        .iter()
        .any(|d| d.field == "completed" && d.message.contains("undefined")));
}

#[test]
fn zero_duration_leaves_system_tps_undefined() {
    let req = requests(&[(0.0, 0.0, 0.0, 1)]);
    let (m, d) = compute_point(&point(req, None), &MetricOptions::default());
    assert_eq!(m.system_tps, None);
    assert!(d.iter().any(|d| d.field == "duration"));
}

#[test]
fn validation_marks_bad_requests_with_field_and_index() {
    let mut req = requests(&[
        (0.0, 0.1, 1.0, 5),
        (0.0, -0.1, 1.0, 5),
        (0.0, 0.5, 0.2, 5),
        (0.0, 0.1, 1.0, 0),
        (f64::NAN, 0.1, 1.0, 5),
    ]);
    let d = validate_requests("f.json", &mut req);
    let got: Vec<_> = d
        .iter()
        .map(|d| (d.field.as_str(), d.index.unwrap()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("ttft", 1),
            ("e2e", 2),
            ("output_tokens", 3),
            ("start_time", 4)
        ]
    );
    assert!(d.iter().all(|d| d.file == "f.json"));
    assert!(req.is_ok(0) && !req.is_ok(1));
}

#[test]
fn gap_factors_multiply_back_to_system_tps() {
    let req = tpsview_core::simulate::simulate_point(
        &tpsview_core::simulate::h100_70b_fp8(),
        &tpsview_core::simulate::Workload {
            concurrency: 16,
            requests_per_client: 3,
            input_tokens: (50, 60),
            output_tokens: (40, 60),
            seed: 1,
        },
    );
    let (m, _) = compute_point(&point(req, Some(16.0)), &MetricOptions::default());
    let g = m.gap.unwrap();
    let product: f64 = g.factors.iter().map(|f| f.factor).product();
    assert!((g.ideal_tps * product - g.system_tps).abs() / g.system_tps < 1e-9);
    let shares: f64 = g.factors.iter().filter_map(|f| f.share_of_gap).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    assert!(
        g.factors[0].factor < 1.0,
        "ramp-down leaves fewer than 16 in flight"
    );
}

#[test]
fn steady_state_window_covers_the_time_at_target_concurrency() {
    // Two clients: both busy from 0 to 1, then one alone until 2.
    let req = requests(&[(0.0, 0.1, 1.0, 10), (0.0, 0.1, 2.0, 20)]);
    let s = steady_state(&req, Some(2.0)).unwrap();
    assert_eq!((s.start_s, s.end_s), (0.0, 1.0));
    // request 0: all 10 tokens; request 1: first token + 19 × 0.9 / 1.9
    assert!((s.output_tokens - (10.0 + 1.0 + 19.0 * 0.9 / 1.9)).abs() < 1e-9);
    assert!(steady_state(&req, Some(3.0)).is_none(), "3 never in flight");
}

#[test]
fn metric_names_round_trip_through_get() {
    let req = requests(&[(0.0, 0.2, 1.2, 11), (0.5, 0.2, 2.2, 11)]);
    let (m, _) = compute_point(&point(req, Some(2.0)), &MetricOptions::default());
    for name in Metric::ALL {
        assert!(m.get(name).is_some(), "{name}");
    }
    assert_eq!(
        m.get(Metric::Latency(Latency::Tpot, Stat::Mean)),
        m.tpot_ms.mean
    );
    assert_eq!(
        Metric::parse("tpot_mean_ms").and_then(|k| m.get(k)),
        m.tpot_ms.mean
    );
    assert_eq!(Metric::parse("nonsense"), None);
}

fn arb_requests() -> impl Strategy<Value = Vec<(f64, f64, f64, u32)>> {
    prop::collection::vec(
        (0.0f64..100.0, 0.001f64..2.0, 0.0f64..30.0, 1u32..500),
        1..60,
    )
    .prop_map(|v| v.into_iter().map(|(s, t, d, n)| (s, t, t + d, n)).collect())
}

proptest! {
    #[test]
    fn system_tps_is_tokens_over_duration(rows in arb_requests()) {
        let req = requests(&rows);
        let (m, _) = compute_point(&point(req, None), &MetricOptions::default());
        let tokens: u64 = rows.iter().map(|r| u64::from(r.3)).sum();
        let first = rows.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let last = rows.iter().map(|r| r.0 + r.2).fold(f64::NEG_INFINITY, f64::max);
        let d = last - first;
        prop_assert_eq!(m.output_tokens, Some(tokens));
        prop_assert!((m.system_tps.unwrap() - tokens as f64 / d).abs() <= 1e-9 * (tokens as f64 / d));
    }

    #[test]
    fn permuting_requests_changes_nothing((rows, shuffled) in arb_requests().prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle()))) {
        let (a, _) = compute_point(&point(requests(&rows), Some(4.0)), &MetricOptions { steady_state: true });
        let (b, _) = compute_point(&point(requests(&shuffled), Some(4.0)), &MetricOptions { steady_state: true });
        for name in Metric::ALL {
            match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => prop_assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{} {} {}", name, x, y),
                (x, y) => prop_assert_eq!(x, y, "{}", name),
            }
        }
    }

    #[test]
    fn percentiles_of_every_distribution_are_ordered(rows in arb_requests()) {
        let (m, _) = compute_point(&point(requests(&rows), None), &MetricOptions::default());
        for d in [m.tpot_ms, m.ttft_ms, m.itl_ms, m.e2e_ms] {
            if let (Some(a), Some(b), Some(c)) = (d.p50, d.p90, d.p99) {
                prop_assert!(a <= b && b <= c);
            }
        }
    }

    #[test]
    fn at_batch_one_system_and_per_stream_agree(seed in 0u64..50) {
        let req = tpsview_core::simulate::simulate_point(
            &tpsview_core::simulate::h100_70b_fp8(),
            &tpsview_core::simulate::Workload { concurrency: 1, requests_per_client: 4, input_tokens: (20, 80), output_tokens: (100, 300), seed },
        );
        let (m, _) = compute_point(&point(req, Some(1.0)), &MetricOptions::default());
        let ratio = m.system_tps.unwrap() / m.per_stream_tps.unwrap();
        // Only TTFT (one prefill step and the network) separates them.
        prop_assert!((ratio - 1.0).abs() < 0.03, "ratio {}", ratio);
    }
}

#[test]
fn folding_the_per_request_distributions_changes_no_figure_and_the_page_uses_them() {
    // Failed, invalid and one-token requests, 17-digit numbers: every fixture-like case at once.
    let text = tpsview_core::synthetic::vllm_detailed(300, 20, 5, true);
    let mut parsed = tpsview_core::parse_any("f.json", text.as_bytes()).expect("parses");
    let req = parsed.report.runs[0].points[0]
        .requests
        .as_mut()
        .expect("requests");
    req.outcome[3] = Outcome::Failed("boom".into());
    req.outcome[7] = Outcome::Invalid("ttft".into());
    req.output_tokens[11] = 1;
    req.output_tokens[12] = 0;
    let plain = tpsview_core::summarize(vec![parsed.clone()], &MetricOptions::default());
    fold_requests(&mut parsed.report);
    fold_gaps(&mut parsed.report);
    // Through the worker's wire form, as the page gets it.
    let back =
        tpsview_core::transfer::decode(&tpsview_core::transfer::encode(&parsed)).expect("decodes");
    let req = back.report.runs[0].points[0]
        .requests
        .as_ref()
        .expect("requests");
    assert!(
        req.dists.is_some(),
        "the distributions travel with the requests"
    );
    let folded = tpsview_core::summarize(vec![back.clone()], &MetricOptions::default());
    assert_eq!(folded, plain);
    // The page reads them rather than going over the requests again: a changed figure shows.
    let mut changed = back;
    let req = changed.report.runs[0].points[0]
        .requests
        .as_mut()
        .expect("requests");
    if let Some(d) = req.dists.as_mut() {
        d.ttft.p50 = Some(12.5);
    }
    let (m, _) = compute_point(&changed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.ttft_ms.p50, Some(12_500.0));
}
