//! The analysis's `spec` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::spec::*;
use tpsview_core::summary::PointSummary;

fn level() -> PointSummary {
    let path = format!(
        "{}/../../tests/fixtures/vllm/detailed-small.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let p =
        tpsview_core::formats::parse_any("d.json", &std::fs::read(path).expect("fixture")).unwrap();
    let s = tpsview_core::summary::summarize(vec![p], &tpsview_core::MetricOptions::default());
    s.runs[0].points[0].clone()
}

#[test]
fn a_level_without_spec_figures_has_none_and_one_with_them_is_described() {
    let mut p = level();
    assert_eq!(of(&p), None);
    p.reported
        .insert("spec_decode_acceptance_length".into(), 2.5);
    p.reported
        .insert("spec_decode_acceptance_rate".into(), 50.0);
    p.metrics.itl_ms.mean = Some(80.0);
    p.metrics.tpot_ms.mean = Some(32.0);
    let s = of(&p).expect("spec figures");
    assert_eq!(s.itl_over_tpot, Some(2.5));
    let text = s.describe(Some(32.0), Some(80.0));
    assert!(
        text.contains("yields 2.50 tokens on average (50.0 % of draft tokens accepted)"),
        "{text}"
    );
    assert!(
        text.contains("here ITL 80.0 ms = 2.50 × TPOT 32.0 ms"),
        "{text}"
    );
    assert!(text.contains("single-stream bound"), "{text}");
    // SGLang names it accept_length.
    let mut q = level();
    q.reported.insert("accept_length".into(), 3.1);
    assert_eq!(of(&q).and_then(|s| s.acceptance_length), Some(3.1));
}
