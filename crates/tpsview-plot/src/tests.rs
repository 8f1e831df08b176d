use super::*;
use tpsview_core::metrics::MetricOptions;

fn seed_summary() -> Summary {
    let text = tpsview_core::formats::tpsview::write(&tpsview_core::simulate::seed_report());
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).unwrap();
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

#[test]
fn series_follow_the_summary() {
    let (system, stream) = throughput_series(&seed_summary());
    assert_eq!(system.len(), 1);
    let xs: Vec<f64> = system[0].points.iter().map(|p| p.0).collect();
    assert_eq!(xs, vec![1.0, 16.0, 64.0, 128.0]);
    assert!(
        system[0].points.windows(2).all(|w| w[1].1 > w[0].1),
        "system T/s rises with batch"
    );
    assert!(
        stream[0].points.windows(2).all(|w| w[1].1 < w[0].1),
        "per-stream T/s falls with batch"
    );
}

#[test]
fn svg_has_both_panels_a_line_per_series_and_the_axis_labels() {
    let svg = throughput_svg(&seed_summary(), (800, 600)).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("system T/s (all streams together)"));
    assert!(svg.contains("per-stream T/s (one request"));
    assert_eq!(
        svg.matches(r#"stroke-width="2""#).count(),
        2,
        "one data line per panel"
    );
    assert_eq!(svg.matches("<circle").count(), 8, "a marker per point");
    for label in [">\n1\n<", ">\n16\n<", ">\n64\n<", ">\n128\n<"] {
        assert!(svg.contains(label), "x label {label:?}");
    }
}

#[test]
fn an_empty_summary_draws_without_error() {
    let empty = Summary {
        runs: vec![],
        diagnostics: vec![],
    };
    let svg = throughput_svg(&empty, (400, 300)).unwrap();
    assert!(svg.contains("<rect"));
}
