use super::*;

#[test]
fn toggling_a_run_twice_shows_it_again() {
    let mut v = View::default();
    v.toggle_run(&"a".into());
    v.toggle_run(&"b".into());
    assert_eq!(v.hidden_runs, ["a", "b"]);
    v.toggle_run(&"a".into());
    assert_eq!(v.hidden_runs, ["b"]);
    // A removed run is forgotten: shown, without a GPU count, and no longer the baseline.
    v.set_gpu_count(&"b".into(), 2);
    v.baseline = Some("b".into());
    v.forget_run(&"b".into());
    assert_eq!(v, View::default());
}

#[test]
fn gpu_counts_are_set_replaced_and_cleared() {
    let mut v = View::default();
    v.set_gpu_count(&"a".into(), 2);
    v.set_gpu_count(&"b".into(), 8);
    v.set_gpu_count(&"a".into(), 4);
    assert_eq!(v.gpu_counts, [("b".into(), 8), ("a".into(), 4)]);
    v.set_gpu_count(&"b".into(), 0);
    assert_eq!(v.gpu_counts, [("a".into(), 4)]);
}

#[test]
fn the_view_round_trips_through_json_and_the_default_is_empty() {
    assert_eq!(View::default().to_json(), "{}");
    let mut v = View {
        baseline: Some("after".into()),
        linear: true,
        per_gpu: true,
        ..View::default()
    };
    v.toggle_run(&"before".into());
    v.set_gpu_count(&"after".into(), 2);
    v.hidden_series.push("TTFT".into());
    let mut o = v.chart_options();
    o.stat = Stat::P99;
    v.set_chart_options(&o);
    assert_eq!(v.stat, "p99");
    let text = v.to_json();
    assert_eq!(View::from_json(&text), v);
    // Broken or foreign input gives the default view, never a panic.
    assert_eq!(View::from_json("{not json"), View::default());
    assert_eq!(View::from_json(r#"{"linear": "yes"}"#), View::default());
    // The mean is the default statistic: not written.
    o.stat = Stat::Mean;
    v.set_chart_options(&o);
    assert!(!v.to_json().contains("stat"));
}

#[test]
fn a_bundle_carries_its_view_and_stays_a_report() {
    let v = View {
        baseline: Some("b".into()),
        ..View::default()
    };
    let report = r#"{"format":"tpsview/1","runs":[]}"#;
    let b = bundle(report, &v);
    assert_eq!(
        b,
        r#"{"view":{"baseline":"b"},"format":"tpsview/1","runs":[]}"#
    );
    assert_eq!(view_of_bundle(b.as_bytes()), Some(v));
    assert_eq!(view_of_bundle(report.as_bytes()), None);
    // Not an object: left as it is.
    assert_eq!(bundle("[1]", &View::default()), "[1]");
}

#[test]
fn the_slo_and_the_price_travel_in_the_view_and_reach_the_charts() {
    let v = View {
        slo: "ttft_p90_ms=500,tpot_p90_ms=50".into(),
        gpu_hour_usd: Some(2.5),
        cost_axis: true,
        ..View::default()
    };
    let back = View::from_json(&v.to_json());
    assert_eq!(back, v);
    let o = back.chart_options();
    assert_eq!(o.slo.unwrap().tightest_tpot_ms(), Some(50.0));
    assert!(o.cost_axis);
    // A bad SLO reaches no chart and names its part; no price, no cost axis.
    let bad = View {
        slo: "ttft_p97_ms=5".into(),
        cost_axis: true,
        ..View::default()
    };
    assert_eq!(bad.slo().unwrap().unwrap_err().part, "ttft_p97_ms=5");
    assert_eq!(bad.chart_options().slo, None);
    assert!(!bad.chart_options().cost_axis);
}
