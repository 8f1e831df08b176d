//! The analysis's `summary` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::*;
use tpsview_core::vocabulary::Metric;

#[test]
fn a_figures_only_report_reads_back_with_every_figure_and_no_request() {
    let report = tpsview_core::simulate::seed_report();
    let text = tpsview_core::formats::tpsview::write(&report);
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).unwrap();
    let grouped = tpsview_core::group::group(vec![parsed]).0;
    let (runs, _) = summarize_report(&grouped, &MetricOptions::default());
    let full = Summary {
        runs,
        diagnostics: Vec::new(),
    };
    let slim = figures_only(&grouped, &full);
    assert!(slim
        .runs
        .iter()
        .flat_map(|r| &r.points)
        .all(|p| p.requests.is_none()));
    let slim_text = tpsview_core::formats::tpsview::write(&slim);
    assert!(
        slim_text.len() * 20 < text.len(),
        "{} bytes of {}",
        slim_text.len(),
        text.len()
    );
    let back = tpsview_core::summarize(
        vec![tpsview_core::parse_any("slim.json", slim_text.as_bytes()).unwrap()],
        &MetricOptions::default(),
    );
    assert_eq!(back.runs.len(), full.runs.len());
    let mut compared = 0;
    for (a, b) in full.runs.iter().zip(&back.runs) {
        assert_eq!(a.label, b.label);
        assert_eq!(a.meta, b.meta);
        for (p, q) in a.points.iter().zip(&b.points) {
            assert_eq!(q.metrics.basis, tpsview_core::metrics::Basis::Reported);
            for m in Metric::ALL {
                // Equal to the last bit or two (a quotient may be formed again when read back).
                match (p.get(m), q.get(m)) {
                    (Some(x), Some(y)) => assert!(
                        (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                        "{m} at {:?}: {x} vs {y}",
                        p.metrics.concurrency
                    ),
                    (x, y) => assert_eq!(x, y, "{m} at {:?}", p.metrics.concurrency),
                }
                compared += usize::from(p.get(m).is_some());
            }
        }
    }
    assert!(compared > 50, "{compared} figures compared");
}

#[test]
fn undefined_figures_say_why_and_the_decode_context_is_prompt_plus_half_the_output() {
    let doc = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4, "duration": 2.0,
        "completed": 0, "failed": 3, "output_throughput": 0.0, "mean_tpot_ms": 0.0}"#;
    let s = tpsview_core::summarize(
        vec![tpsview_core::parse_any("f.json", doc).unwrap()],
        &MetricOptions::default(),
    );
    let p = &s.runs[0].points[0];
    assert_eq!(p.get(Metric::SystemTps), None);
    assert!(p
        .why_undefined(Metric::SystemTps)
        .contains("no request completed"));
    assert_eq!(s.runs[0].mean_decode_context(), None, "no per-request data");
    // Prompts 10 and 20, outputs 5 and 7: 15 + 6 / 2 = 18.
    let doc = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 2, "duration": 1.0,
        "completed": 2, "failed": 0, "output_throughput": 12.0, "input_lens": [10, 20],
        "output_lens": [5, 7], "ttfts": [0.1, 0.1], "latencies": [0.5, 0.7],
        "itls": [[0.1,0.1,0.1,0.1], [0.1,0.1,0.1,0.1,0.1,0.1]], "errors": ["", ""]}"#;
    let s = tpsview_core::summarize(
        vec![tpsview_core::parse_any("g.json", doc).unwrap()],
        &MetricOptions::default(),
    );
    assert_eq!(s.runs[0].mean_decode_context(), Some(18.0));
    let p = &s.runs[0].points[0];
    assert!(p
        .why_undefined(Metric::ConcurrencyAchieved)
        .contains("send time"));
}

#[test]
fn the_server_audit_takes_the_window_of_the_levels_duration() {
    // The real llama.cpp run with the server's series; in its first level the request that ends
    // last is made a failure that ends 5 s later still: the duration leaves its end out, and so
    // must the window the server's rate is taken over.
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json"
    ))
    .unwrap();
    let parsed = tpsview_core::parse_any("run.json", &text).unwrap();
    let mut report = tpsview_core::group::group(vec![parsed]).0;
    let req = report.runs[0].points[0].requests.as_mut().unwrap();
    let start = req.start_s.clone().unwrap();
    let (last, _) = start
        .iter()
        .zip(&req.e2e_s)
        .map(|(s, e)| s + e)
        .enumerate()
        .fold(
            (0, f64::MIN),
            |b, (i, end)| if end > b.1 { (i, end) } else { b },
        );
    let first = start.iter().copied().fold(f64::INFINITY, f64::min);
    req.outcome[last] = tpsview_core::model::Outcome::Failed("test".into());
    req.e2e_s[last] += 5.0;
    // The ends of the requests still counted, recomputed here.
    let end = (0..start.len())
        .filter(|&i| i != last)
        .map(|i| start[i] + req.e2e_s[i])
        .fold(f64::MIN, f64::max);
    let (runs, _) = summarize_report(&report, &MetricOptions::default());
    let p = &runs[0].points[0];
    let server = p.server.as_ref().expect("the level has a server series");
    let window = server.window_s.expect("a series' window");
    assert_eq!(window, (first, end));
    let d = p.metrics.duration_s.unwrap();
    assert!((window.1 - window.0 - d).abs() < 1e-9, "{d}");
}
