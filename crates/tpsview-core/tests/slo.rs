//! The analysis's `slo` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::metrics::PointMetrics;
use tpsview_core::metrics::{compute_point, MetricOptions};
use tpsview_core::model::Point;
use tpsview_core::slo::*;
use tpsview_core::vocabulary::Latency;
use tpsview_core::vocabulary::Stat;

/// A vLLM file of one level (concurrency 4) with five requests, by hand:
/// | # | TTFT s | E2E s | tokens | TPOT ms = (E2E − TTFT) / (n − 1) | state |
/// | 0 | 0.100  | 1.000 | 10     | 100                               | ok    |
/// | 1 | 0.500  | 1.400 | 10     | 100                               | ok    |  TTFT exactly 500 ms
/// | 2 | 0.200  | 2.000 | 10     | 200                               | ok    |
/// | 3 | 0.300  | 0.300 | 1      | none (one token)                  | ok    |
/// | 4 | 0      | 0     | 0      | —                                 | failed|
/// Send times 0 … 0.4 s, duration (first send → last token) = 2.0 + 0.2 = 2.2 s.
fn level() -> (Point, PointMetrics) {
    let doc = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4, "duration": 2.2,
        "completed": 4, "failed": 1, "output_throughput": 14.0,
        "input_lens": [5, 5, 5, 5, 5], "output_lens": [10, 10, 10, 1, 0],
        "ttfts": [0.1, 0.5, 0.2, 0.3, 0.0], "latencies": [1.0, 1.4, 2.0, 0.3, 0.0],
        "start_times": [0.0, 0.1, 0.2, 0.3, 0.4],
        "itls": [[0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1], [0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1],
                 [0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2], [], []],
        "errors": ["", "", "", "", "timeout"]}"#;
    let parsed = tpsview_core::parse_any("l.json", doc).unwrap();
    let point = parsed.report.runs[0].points[0].clone();
    let (m, _) = compute_point(&point, &MetricOptions::default());
    (point, m)
}

#[test]
fn attainment_counts_failed_requests_and_a_target_met_exactly() {
    let (p, m) = level();
    assert_eq!(m.requests_ok, Some(4));
    let d = m.duration_s.unwrap();
    // TTFT ≤ 500 ms and TPOT ≤ 100 ms: requests 0, 1 (TTFT exactly 500), 3 (no TPOT) → 3 of 5.
    let slo = Slo::parse("ttft_ms=500,tpot_ms=100").unwrap();
    let e = evaluate(&p, &m, &slo);
    assert_eq!(e.attainment, Some(3.0 / 5.0));
    assert!((e.goodput_rps.unwrap() - 3.0 / d).abs() < 1e-12);
    // Their output tokens: 10 + 10 + 1.
    assert!((e.goodput_tps.unwrap() - 21.0 / d).abs() < 1e-12);
    // 0.6 < the default 0.9: not met; with attainment=0.6 it is.
    assert_eq!(e.met, Some(false));
    let slo = Slo::parse("ttft_ms=500,tpot_ms=100,attainment=0.6").unwrap();
    assert_eq!(evaluate(&p, &m, &slo).met, Some(true));
    // A stricter TTFT drops request 1: 3 of 5 (0, 2, 3); with TPOT ≤ 100 too, request 2 goes.
    let slo = Slo::parse("ttft_ms=499").unwrap();
    assert_eq!(evaluate(&p, &m, &slo).attainment, Some(3.0 / 5.0)); // 0, 2, 3
    let slo = Slo::parse("ttft_ms=499,tpot_ms=100").unwrap();
    assert_eq!(evaluate(&p, &m, &slo).attainment, Some(2.0 / 5.0)); // 0, 3
}

#[test]
fn level_targets_use_the_levels_statistics_and_p95_from_the_requests() {
    let (p, m) = level();
    // TPOT over requests 0, 1, 2 (request 3 has none): 100, 100, 200 ms. Mean 133.3; numpy-linear
    // p95 = 100 + (200 − 100) × 0.9 = 190.
    let slo = Slo::parse("tpot_mean_ms=134").unwrap();
    assert_eq!(evaluate(&p, &m, &slo).met, Some(true));
    assert_eq!(
        evaluate(&p, &m, &Slo::parse("tpot_mean_ms=133").unwrap()).met,
        Some(false)
    );
    assert_eq!(
        evaluate(&p, &m, &Slo::parse("tpot_p95_ms=190").unwrap()).met,
        Some(true)
    );
    assert_eq!(
        evaluate(&p, &m, &Slo::parse("tpot_p95_ms=189.9").unwrap()).met,
        Some(false)
    );
    // Level targets alone: no attainment.
    assert_eq!(
        evaluate(&p, &m, &Slo::parse("tpot_p95_ms=190").unwrap()).attainment,
        None
    );
    // ITL has no per-request p95: unknown, unless another target already fails.
    assert_eq!(
        evaluate(&p, &m, &Slo::parse("itl_p95_ms=1000").unwrap()).met,
        None
    );
    assert_eq!(
        evaluate(
            &p,
            &m,
            &Slo::parse("itl_p95_ms=1000,tpot_mean_ms=1").unwrap()
        )
        .met,
        Some(false)
    );
}

#[test]
fn summary_only_levels_are_checked_against_the_tools_percentiles_and_attainment_is_undefined() {
    let doc = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 16, "duration": 20.0,
        "completed": 200, "failed": 0, "output_throughput": 720.0, "mean_tpot_ms": 22.0,
        "median_tpot_ms": 21.9, "p99_tpot_ms": 24.5, "mean_ttft_ms": 60.0, "p99_ttft_ms": 120.0}"#;
    let parsed = tpsview_core::parse_any("s.json", doc).unwrap();
    let p = &parsed.report.runs[0].points[0];
    let (m, _) = compute_point(p, &MetricOptions::default());
    assert_eq!(
        evaluate(p, &m, &Slo::parse("tpot_p99_ms=25").unwrap()).met,
        Some(true)
    );
    assert_eq!(
        evaluate(p, &m, &Slo::parse("tpot_p99_ms=24").unwrap()).met,
        Some(false)
    );
    let e = evaluate(p, &m, &Slo::parse("ttft_ms=500").unwrap());
    assert_eq!((e.attainment, e.goodput_rps, e.met), (None, None, None));
}

#[test]
fn capacity_is_the_fastest_level_that_meets_the_slo() {
    let levels = [
        (Some(1.0), Some(50.0), Some(true)),
        (Some(16.0), Some(700.0), Some(true)),
        (Some(64.0), Some(2200.0), Some(false)),
        (Some(128.0), Some(3200.0), None),
    ];
    assert_eq!(
        capacity(levels),
        Some(Capacity {
            point: 1,
            concurrency: 16.0,
            system_tps: 700.0
        })
    );
    assert_eq!(capacity([(Some(1.0), Some(50.0), Some(false))]), None);
}

#[test]
fn bad_slo_text_names_the_part() {
    for (text, part, why) in [
        ("tpot_p97_ms=50", "tpot_p97_ms=50", "unknown statistic"),
        ("foo_mean_ms=1", "foo_mean_ms=1", "unknown metric"),
        ("ttft_ms=-5", "ttft_ms=-5", "positive"),
        ("ttft_ms=0", "ttft_ms=0", "positive"),
        ("ttft_ms=abc", "ttft_ms=abc", "not a number"),
        ("attainment=1.5,ttft_ms=1", "attainment=1.5", "at most 1"),
        ("ttft", "ttft", "NAME=VALUE"),
        ("attainment=0.5", "attainment=0.5", "no target"),
    ] {
        let e = Slo::parse(text).unwrap_err();
        assert_eq!(e.part, part, "{text}");
        assert!(e.why.contains(why), "{text}: {}", e.why);
    }
    let s = Slo::parse(" ttft_ms=500 , tpot_p99_ms=80 ").unwrap();
    assert_eq!(s.ttft_ms, Some(500.0));
    assert_eq!(s.level, [(Latency::Tpot, LevelStat::Stat(Stat::P99), 80.0)]);
    assert_eq!(s.attainment, 0.9);
}

#[test]
fn cost_per_million_tokens_is_the_hours_price_over_the_hours_tokens() {
    // 2 GPUs at 2.50 USD/h = 5 USD/h; 1,000 T/s = 3.6 M tokens/h → 5 / 3.6 = 1.3889 USD per M.
    let c = usd_per_million_output_tokens(1000.0, 2.5, 2).unwrap();
    assert!((c - 5.0 / 3.6).abs() < 1e-12, "{c}");
    assert_eq!(usd_per_million_output_tokens(0.0, 2.5, 2), None);
    assert_eq!(usd_per_million_output_tokens(1000.0, 2.5, 0), None);
}

/// vLLM's own `request_goodput`, written by tests/fixtures/make_fixtures.py the way vLLM counts
/// it under `--goodput ttft:250 tpot:33` (11 of 20 requests; two failed, one of one token).
#[test]
fn the_tools_goodput_is_audited_under_the_same_slo() {
    let bytes = include_bytes!("../../../tests/fixtures/vllm/goodput-ttft250-tpot33.json");
    let parsed = tpsview_core::parse_any("goodput.json", bytes).unwrap();
    let point = &parsed.report.runs[0].points[0];
    let (m, _) = compute_point(point, &MetricOptions::default());
    let e = evaluate(point, &m, &Slo::parse("ttft_ms=250,tpot_ms=33").unwrap());
    assert_eq!(e.attainment, Some(11.0 / 20.0));
    let t = e.tool_goodput.expect("the file's request_goodput");
    assert_eq!(t.key, "request_goodput");
    assert_eq!(t.agrees, Some(true), "{t:?}");
    // Another SLO: the tool's figure (under its own) no longer agrees, and says by how much.
    let e = evaluate(point, &m, &Slo::parse("ttft_ms=100,tpot_ms=33").unwrap());
    let t = e.tool_goodput.unwrap();
    assert_eq!(t.agrees, Some(false));
    assert!(t.relative_diff.unwrap() < 0.0);
    // Level targets only: no goodput of tpsview's to compare.
    let e = evaluate(point, &m, &Slo::parse("ttft_p90_ms=250").unwrap());
    assert_eq!(e.tool_goodput.unwrap().agrees, None);
    assert!(why_no_attainment(&e, &Slo::parse("ttft_p90_ms=250").unwrap()).is_some());
}

#[test]
fn cost_per_million_tokens_and_tokens_per_dollar_by_hand() {
    // 1,000 tokens/s on 2 GPUs at $2.50 each: $5 an hour for 3.6 M tokens → $1.3889 per million.
    let usd = usd_per_million_output_tokens(1000.0, 2.5, 2).unwrap();
    assert!((usd - 5.0 / 3.6).abs() < 1e-12);
    assert!((tokens_per_usd(usd).unwrap() - 720_000.0).abs() < 1e-6);
    assert_eq!(usd_per_million_output_tokens(0.0, 2.5, 2), None);
    assert_eq!(usd_per_million_output_tokens(1000.0, 2.5, 0), None);
    assert_eq!(tokens_per_usd(0.0), None);
}

#[test]
fn every_preset_parses() {
    for p in PRESETS {
        assert!(Slo::parse(p.text).is_ok(), "{}", p.name);
    }
}

/// A summary-only vLLM file (mean TTFT 60, p99 TTFT 120, p99 TPOT 24.5 ms as the tool printed
/// them): level targets are checked against the tool's own statistics; a statistic it did not
/// print (p90) leaves the level unknown; attainment is undefined, with the reason.
#[test]
fn summary_only_files_are_checked_against_the_tools_statistics() {
    let bytes = include_bytes!("../../../tests/fixtures/vllm/summary-only-c16.json");
    let parsed = tpsview_core::parse_any("s.json", bytes).unwrap();
    let point = &parsed.report.runs[0].points[0];
    let (m, _) = compute_point(point, &MetricOptions::default());
    let check = |text: &str| {
        let slo = Slo::parse(text).unwrap();
        let e = evaluate(point, &m, &slo);
        assert!(e.from_tool_figures);
        (e, slo)
    };
    assert_eq!(check("tpot_p99_ms=24.5,ttft_mean_ms=60").0.met, Some(true));
    assert_eq!(check("tpot_p99_ms=24.4").0.met, Some(false));
    assert_eq!(
        check("ttft_p90_ms=500").0.met,
        None,
        "p90 not printed by the tool"
    );
    // One failing target decides, whatever else is unknown.
    assert_eq!(check("ttft_p90_ms=500,ttft_p99_ms=100").0.met, Some(false));
    let (e, slo) = check("ttft_ms=500");
    assert_eq!((e.attainment, e.goodput_rps, e.met), (None, None, None));
    assert!(why_no_attainment(&e, &slo)
        .unwrap()
        .contains("summary figures only"));
}

/// GenAI-Perf's and AIPerf's summaries write goodput as a metric object (`{unit, avg}`): read as
/// `request_goodput.avg` and `goodput.avg`, in requests/s.
#[test]
fn genai_perf_and_aiperf_goodput_objects_are_read() {
    for (file, bytes, key) in [
        (
            "profile_export_genai_perf.json",
            &include_bytes!("../../../tests/fixtures/genai-perf/profile_export_genai_perf.json")[..],
            "request_goodput",
        ),
        (
            "profile_export_aiperf.json",
            &include_bytes!("../../../tests/fixtures/aiperf/profile_export_aiperf.json")[..],
            "goodput",
        ),
    ] {
        let mut v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        v[key] = serde_json::json!({"unit": "requests/sec", "avg": 0.14});
        let parsed = tpsview_core::parse_any(file, v.to_string().as_bytes()).unwrap();
        let point = &parsed.report.runs[0].points[0];
        assert_eq!(
            tool_goodput_figure(&point.reported.figures),
            Some((
                if key == "goodput" {
                    "goodput.avg"
                } else {
                    "request_goodput.avg"
                },
                0.14
            )),
            "{file}"
        );
    }
}
