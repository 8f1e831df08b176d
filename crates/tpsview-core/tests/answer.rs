//! The analysis's `answer` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::answer::*;
use tpsview_core::metrics::MetricOptions;

/// A summary-only tpsview/1 run: (concurrency, system T/s, per-stream T/s, mean TTFT ms) per level.
fn run(levels: &[(f64, f64, f64, f64)], meta: &str) -> tpsview_core::summary::Summary {
    let points: Vec<String> = levels
        .iter()
        .map(|(c, s, p, t)| {
            format!(
                r#"{{"concurrency": {c}, "reported": {{"tool": "tpsview/1", "figures": {{"system_tps": {s}, "per_stream_tps": {p}, "ttft_mean_ms": {t}}}}}}}"#
            )
        })
        .collect();
    let doc = format!(
        r#"{{"format": "tpsview/1", "meta": {meta}, "runs": [{{"label": "r", "points": [{}]}}]}}"#,
        points.join(",")
    );
    let parsed = tpsview_core::parse_any("r.json", doc.as_bytes()).unwrap();
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

#[test]
fn the_knee_is_the_first_level_whose_next_step_gains_under_a_quarter_per_doubling() {
    // Gains per doubling, by hand: 1→2 190/100 − 1 = 0.90; 2→4 360/190 − 1 = 0.895;
    // 4→8 400/360 − 1 = 0.111 < 0.25: the knee is 4. 8→16 gains 0.05.
    let s = run(
        &[
            (1.0, 100.0, 100.0, 20.0),
            (2.0, 190.0, 95.0, 22.0),
            (4.0, 360.0, 90.0, 25.0),
            (8.0, 400.0, 50.0, 40.0),
            (16.0, 420.0, 26.25, 90.0),
        ],
        "{}",
    );
    let a = answers(&s.runs[0]);
    match a.knee {
        Knee::At {
            concurrency,
            system_tps,
            gain,
        } => {
            assert_eq!((concurrency, system_tps), (4.0, 360.0));
            assert!((gain - (400.0 / 360.0 - 1.0)).abs() < 1e-12);
        }
        k => panic!("{k:?}"),
    }
    let peak = a.peak_system.unwrap();
    assert_eq!(
        (peak.concurrency, peak.value, peak.point),
        (Some(16.0), 420.0, 4)
    );
    assert_eq!(peak.per_stream_tps, Some(26.25));
    assert_eq!(peak.ttft_mean_ms, Some(90.0));
    let best = a.best_per_stream.unwrap();
    assert_eq!(
        (best.concurrency, best.value, best.system_tps),
        (Some(1.0), 100.0, Some(100.0))
    );
}

#[test]
fn a_knee_beyond_the_levels_measured_is_not_reached_and_uneven_steps_are_per_doubling() {
    // The compare fixture's levels 1, 4, 16, 64 (two doublings a step): 95, 340, 1100, 2600 T/s.
    // Last step by hand: sqrt(2600 / 1100) − 1 = 0.5374 per doubling: still above a quarter.
    let s = run(
        &[
            (1.0, 95.0, 95.0, 30.0),
            (4.0, 340.0, 85.0, 35.0),
            (16.0, 1100.0, 70.0, 60.0),
            (64.0, 2600.0, 42.0, 160.0),
        ],
        "{}",
    );
    match knee(&s.runs[0]) {
        Knee::NotReached { gain, highest } => {
            assert_eq!(highest, 64.0);
            assert!((gain - ((2600.0f64 / 1100.0).sqrt() - 1.0)).abs() < 1e-12);
        }
        k => panic!("{k:?}"),
    }
    let one = run(&[(8.0, 100.0, 12.5, 30.0)], "{}");
    assert_eq!(knee(&one.runs[0]), Knee::Unknown);
}

#[test]
fn the_header_says_only_what_the_file_states() {
    let s = run(
        &[(1.0, 50.0, 50.0, 20.0)],
        r#"{"model": "Llama-3.1-70B", "precision": "fp8", "gpu": "H100 SXM", "gpu_count": 8,
            "engine": "vllm", "engine_version": "0.11.0", "date": "20261130-101500"}"#,
    );
    let h = header(&s.runs[0]);
    let text: Vec<(&str, &str)> = h.iter().map(|(p, t)| (p.key(), t.as_str())).collect();
    assert_eq!(
        text,
        [
            ("model", "Llama-3.1-70B (fp8)"),
            ("hardware", "8 × H100 SXM"),
            ("engine", "vllm 0.11.0"),
            ("tool", "tpsview"),
            ("date", "2026-11-30 10:15:00"),
        ]
    );
    // Nothing stated: the tool alone; a model that names its precision is not repeated.
    let bare = run(&[(1.0, 50.0, 50.0, 20.0)], "{}");
    assert_eq!(
        header(&bare.runs[0]),
        [(HeaderPart::Tool, "tpsview".to_owned())]
    );
    let fp8 = run(
        &[(1.0, 50.0, 50.0, 20.0)],
        r#"{"model": "x-FP8", "precision": "fp8"}"#,
    );
    assert_eq!(header(&fp8.runs[0])[0].1, "x-FP8");
}

#[test]
fn lengths_are_means_over_completed_requests() {
    // Three requests, the third failed: ISL (10 + 20) / 2 = 15, OSL (5 + 7) / 2 = 6.
    let doc = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 2, "duration": 1.0,
        "completed": 2, "failed": 1, "output_throughput": 12.0, "input_lens": [10, 20, 30], "output_lens": [5, 7, 0],
        "ttfts": [0.1, 0.1, 0.0], "latencies": [0.5, 0.7, 0.0], "itls": [[0.1,0.1,0.1,0.1],
        [0.1,0.1,0.1,0.1,0.1,0.1], []], "errors": ["", "", "boom"]}"#;
    let parsed = tpsview_core::parse_any("v.json", doc).unwrap();
    assert_eq!(
        parsed.report.runs[0].mean_lengths(),
        (Some(15.0), Some(6.0))
    );
    let s = tpsview_core::summarize(vec![parsed.clone()], &MetricOptions::default());
    let h = header(&s.runs[0]);
    assert!(
        h.contains(&(HeaderPart::Lengths, "ISL 15 / OSL 6".to_owned())),
        "{h:?}"
    );
    assert!(
        h.contains(&(HeaderPart::Tool, "vLLM bench serve".to_owned())),
        "{h:?}"
    );
}

#[test]
fn an_export_says_what_it_shows_of_which_runs_and_files() {
    let s = run(
        &[(1.0, 50.0, 50.0, 20.0), (2.0, 90.0, 45.0, 22.0)],
        r#"{"model": "M-8B"}"#,
    );
    assert_eq!(
        provenance(&s, "throughput chart", "2026-11-30"),
        format!(
            "throughput chart · r (M-8B) · r.json · exported 2026-11-30 by tpsview {}",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn past_three_runs_the_run_with_the_highest_peak_leads_alone() {
    let mut all = Vec::new();
    for (i, peak) in [120.0, 300.0, 250.0, 300.0, 90.0].into_iter().enumerate() {
        let mut s = run(
            &[(1.0, peak / 2.0, 50.0, 20.0), (4.0, peak, 40.0, 30.0)],
            "{}",
        );
        let mut r = s.runs.remove(0);
        r.id = tpsview_core::vocabulary::RunId::new(format!("run {i}"));
        all.push(r);
    }
    // Up to three runs: each leads, in order.
    assert_eq!(leading(&all[..3]), [0, 1, 2]);
    // Five: the highest peak (300, first of the two that tie) alone.
    assert_eq!(leading(&all), [1]);
    // None with a system T/s: the first.
    let mut none = all.clone();
    for r in &mut none {
        for p in &mut r.points {
            p.metrics.system_tps = None;
        }
    }
    assert_eq!(leading(&none), [0]);
}

#[test]
fn the_energy_card_shows_the_peak_where_it_has_energy_else_the_first_level_that_does() {
    // AIPerf's two real runs with GPU telemetry (concurrency 1 and 4) as one run of two levels.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/aiperf/");
    let parsed: Vec<_> = ["telemetry-c1", "telemetry-c4"]
        .iter()
        .map(|f| {
            let name = format!("{f}_profile_export_aiperf.json");
            let bytes = std::fs::read(format!("{dir}{name}")).expect("fixture");
            tpsview_core::parse_any(&name, &bytes).expect("reads")
        })
        .collect();
    let mut s = tpsview_core::summarize(parsed, &MetricOptions::default());
    let run = s
        .runs
        .iter_mut()
        .find(|r| r.points.len() == 2)
        .expect("one run of two levels");
    assert!(run.points.iter().all(|p| p.energy.is_some()));
    // The peak, by a plain scan.
    let peak = (0..2)
        .max_by(|&a, &b| {
            let v = |k: usize| run.points[k].metrics.system_tps.unwrap();
            v(a).total_cmp(&v(b))
        })
        .unwrap();
    let e = answers(run).energy.expect("energy");
    assert_eq!((e.point, e.at_peak), (peak, true));
    assert_eq!(e.concurrency, run.points[peak].metrics.concurrency);
    // Without energy at the peak: the other level, not the peak.
    run.points[peak].energy = None;
    let e = answers(run).energy.expect("energy");
    assert_eq!((e.point, e.at_peak), (1 - peak, false));
    // Without any: none (never a 0).
    run.points[1 - peak].energy = None;
    assert_eq!(answers(run).energy, None);
}
