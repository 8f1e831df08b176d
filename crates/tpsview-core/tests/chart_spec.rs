//! The analysis's `chart_spec` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::chart_spec::*;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::Summary;

fn seed() -> (tpsview_core::model::Report, Summary) {
    let report = tpsview_core::simulate::seed_report();
    let text = tpsview_core::formats::tpsview::write(&report);
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).unwrap();
    let summary = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    (report, summary)
}

#[test]
fn throughput_has_two_panels_over_concurrency_on_log2() {
    let (_, s) = seed();
    let c = throughput(&s, &ChartOptions::default());
    assert_eq!(c.x.scale, Scale::Log2);
    assert!(c.x.range.0 < 1.0 && c.x.range.1 > 128.0);
    assert_eq!(c.panels.len(), 2);
    let sys = &c.panels[0].series[0];
    assert_eq!(
        sys.points.iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![1.0, 16.0, 64.0, 128.0]
    );
    assert_eq!(
        sys.points[2].1,
        s.runs[0].points[2].metrics.system_tps.unwrap()
    );
    assert!(c.panels[0].y.range.1 > sys.points[3].1);
    let lin = throughput(
        &s,
        &ChartOptions {
            linear_x: true,
            ..Default::default()
        },
    );
    assert_eq!(lin.x.scale, Scale::Linear);
}

#[test]
fn hidden_series_are_left_out() {
    let (_, s) = seed();
    let c = throughput(
        &s,
        &ChartOptions {
            hidden: vec!["per-stream T/s".into()],
            ..Default::default()
        },
    );
    assert_eq!(c.panels[1].series.len(), 0);
    assert_eq!(c.panels[0].series.len(), 1);
}

#[test]
fn hidden_runs_the_chosen_statistic_and_per_gpu_shape_the_charts() {
    let (_, s) = seed();
    let label = s.runs[0].id.clone();
    let hidden = ChartOptions {
        hidden_runs: vec![label.clone()],
        ..Default::default()
    };
    assert!(throughput(&s, &hidden)
        .panels
        .iter()
        .all(|p| p.series.is_empty()));
    assert!(interactivity(&s, &hidden).panels[0].series.is_empty());
    // The latency line follows the chosen statistic.
    let p99 = latency(
        &s,
        &ChartOptions {
            stat: tpsview_core::stats::Stat::P99,
            ..Default::default()
        },
    );
    assert_eq!(
        p99.panels[0].series[0].points[3].1,
        s.runs[0].points[3].metrics.tpot_ms.p99.unwrap()
    );
    assert!(p99.panels[0].title.contains("line: p99"));
    // Per GPU: the user's count wins over the metadata's; per-stream T/s is not divided.
    let per_gpu = throughput(
        &s,
        &ChartOptions {
            per_gpu: true,
            gpu_counts: vec![(label, 4)],
            ..Default::default()
        },
    );
    assert_eq!(
        per_gpu.panels[0].series[0].points[3].1,
        s.runs[0].points[3].metrics.system_tps.unwrap() / 4.0
    );
    assert_eq!(
        per_gpu.panels[1].series[0].points[3].1,
        s.runs[0].points[3].metrics.per_stream_tps.unwrap()
    );
}

#[test]
fn latency_bands_span_p50_to_p99() {
    let (_, s) = seed();
    let c = latency(&s, &ChartOptions::default());
    let tpot = &c.panels[0].series[0];
    assert_eq!(tpot.band.len(), 4);
    for (b, p) in tpot.band.iter().zip(&s.runs[0].points) {
        assert_eq!(
            (b.1, b.2),
            (
                p.metrics.tpot_ms.p50.unwrap(),
                p.metrics.tpot_ms.p99.unwrap()
            )
        );
        assert!(b.1 <= b.2);
    }
}

#[test]
fn pareto_frontier_keeps_only_unbeaten_points() {
    let pts = [
        (50.0, 50.0),
        (45.0, 700.0),
        (40.0, 600.0),
        (38.0, 2400.0),
        (28.0, 3500.0),
        (20.0, 3000.0),
    ];
    assert_eq!(
        pareto_frontier(&pts),
        vec![(28.0, 3500.0), (38.0, 2400.0), (45.0, 700.0), (50.0, 50.0)]
    );
    assert!(pareto_frontier(&[]).is_empty());
}

#[test]
fn interactivity_labels_points_by_concurrency() {
    let (_, s) = seed();
    let c = interactivity(&s, &ChartOptions::default());
    assert_eq!(c.panels[0].series[0].labels, vec!["1", "16", "64", "128"]);
    assert_eq!(c.panels[0].series.last().unwrap().name, "Pareto frontier");
    let h = c
        .hover(
            c.panels[0].series[0].points[2].0 + 0.1,
            Some(c.panels[0].series[0].points[2].1 - 5.0),
            0,
        )
        .unwrap();
    assert!(h.title.ends_with("concurrency 64"), "{}", h.title);
    // The tooltip names the point by index, not by value.
    assert_eq!(
        h.at,
        [HoverAt::Point {
            panel: 0,
            series: 0,
            point: 2
        }]
    );
}

#[test]
fn hover_snaps_to_the_nearest_level_and_lists_every_series() {
    let (_, s) = seed();
    let c = throughput(&s, &ChartOptions::default());
    let h = c.hover(50.0, None, 0).unwrap();
    assert_eq!(h.x, 64.0);
    assert_eq!(h.rows.len(), 2);
    assert_eq!(
        h.rows[0].value,
        s.runs[0].points[2].metrics.system_tps.unwrap()
    );
    assert_eq!(h.rows[1].series, "per-stream T/s");
    // Each row's point, by index: the seed's level 64 is its third point in both panels.
    let third = |panel| HoverAt::Point {
        panel,
        series: 0,
        point: 2,
    };
    assert_eq!(h.at, [third(0), third(1)]);
    assert!(c.hover(-1.0, None, 0).is_none(), "log2 axis has no x ≤ 0");
}

#[test]
fn timeline_rows_follow_send_order_and_shade_the_steady_window() {
    let (report, _) = seed();
    let point = &report.runs[0].points[1];
    let c = timeline(point).unwrap();
    assert_eq!(c.bars.len(), 128);
    assert!(c.bars.windows(2).all(|w| w[0].start <= w[1].start));
    assert_eq!(c.bars[0].start, 0.0);
    assert!(c
        .bars
        .iter()
        .all(|b| b.start <= b.first_token && b.first_token <= b.end));
    let (a, b, _) = c.shade.clone().unwrap();
    assert!(a >= 0.0 && b > a && b < c.x.range.1);
    let h = c.hover(1.0, Some(3.5), 0).unwrap();
    assert!(h.title.contains("row 3"));
    assert_eq!(h.rows.len(), 4);
    assert_eq!(h.at, [HoverAt::Bar(3)]);
    // Two requests sent at the same instant: each row's tooltip points at its own bar.
    let mut twins = c.clone();
    twins.bars[4].start = twins.bars[3].start;
    assert_eq!(
        twins.hover(1.0, Some(4.5), 0).unwrap().at,
        [HoverAt::Bar(4)]
    );
}

#[test]
fn degenerate_data_gives_sane_ranges() {
    assert_eq!(
        range_of([5.0, 5.0].into_iter(), Scale::Linear, true),
        (0.0, 5.4)
    );
    let (lo, hi) = range_of([0.0, 4.0].into_iter(), Scale::Log2, false);
    assert!(
        lo > 0.0 && hi > 4.0,
        "zero cannot sit on a log axis: ignored"
    );
    assert_eq!(range_of(std::iter::empty(), Scale::Log2, false), (1.0, 2.0));
    let (lo, hi) = range_of([1e-6, 1e6].into_iter(), Scale::Log2, false);
    assert!(lo < 1e-6 && hi > 1e6);
}

#[test]
fn roofline_overlays_the_run_on_the_bound_and_rates_efficiency() {
    let (_, s) = seed();
    let g = &tpsview_core::roofline::GPUS[0];
    let model = tpsview_core::roofline::DecodeInputs {
        hbm_bytes_per_s: g.hbm_bytes_per_s,
        peak_flops: g.fp8_flops,
        params: 70.6e9,
        bytes_per_param: 1.0,
        kv_bytes_per_token: 0.0,
        context_tokens: 0.0,
    };
    let c = roofline(&model, Some(&s.runs[0]), 64.0, &ChartOptions::default());
    assert_eq!(c.panels[0].series.len(), 2);
    assert_eq!(
        c.panels[0].series[0].points.len(),
        9,
        "batches 1..256: twice the run's highest level"
    );
    assert_eq!(
        roofline(&model, None, 1000.0, &ChartOptions::default()).panels[0].series[0]
            .points
            .len(),
        11,
        "1..2048"
    );
    assert_eq!(
        c.panels[0].series[1].points.len(),
        4,
        "the run's four levels"
    );
    let e = efficiency(&s.runs[0], &model);
    assert_eq!(e.len(), 4);
    // At batch 1 the simulated engine runs at ~50 T/s against a 47.45 T/s bound: a bound on the
    // weights alone, which the simulation (not a physical GPU) may exceed.
    assert!((e[0].per_stream_bound - 47.45).abs() < 0.01);
    assert!((e[0].per_stream_ratio() - e[0].per_stream_tps / e[0].per_stream_bound).abs() < 1e-12);
    assert!((e[3].ratio() - e[3].system_tps / e[3].system_bound).abs() < 1e-12);
}

#[test]
fn pin_highlights_a_level_on_line_and_scatter_charts() {
    let (_, s) = seed();
    let t = throughput(&s, &ChartOptions::default());
    assert_eq!(t.pin(16.0).unwrap().x, 16.0);
    let i = interactivity(&s, &ChartOptions::default());
    let per_stream_at_128 = s.runs[0].points[3].metrics.per_stream_tps.unwrap();
    let h = i.pin(per_stream_at_128).unwrap();
    assert!(h.title.ends_with("concurrency 128"));
    assert_eq!(i.pin_level(128.0), Some(h));
    assert_eq!(t.pin_level(64.0).unwrap().x, 64.0);
    assert!(t.pin(3.0).is_none());
}

#[test]
fn arrow_keys_step_through_levels_and_stop_at_the_ends() {
    let (_, s) = seed();
    let c = latency(&s, &ChartOptions::default());
    assert_eq!(c.levels(), vec![1.0, 16.0, 64.0, 128.0]);
    assert_eq!(c.step_hover(None, 1).unwrap().x, 1.0);
    assert_eq!(c.step_hover(Some(16.0), 1).unwrap().x, 64.0);
    assert_eq!(c.step_hover(Some(128.0), 1).unwrap().x, 128.0);
    assert_eq!(c.step_hover(Some(1.0), -1).unwrap().x, 1.0);
    let empty = throughput(
        &Summary {
            runs: vec![],
            diagnostics: vec![],
        },
        &ChartOptions::default(),
    );
    assert!(empty.step_hover(None, 1).is_none());
}

/// Two runs with one label and different models (kept apart by grouping): hiding one by its id
/// leaves the other on every chart, and legends name them apart.
#[test]
fn runs_that_share_a_label_are_hidden_one_at_a_time() {
    let mut report = tpsview_core::simulate::seed_report();
    let mut twin = report.runs[0].clone();
    twin.meta.model = Some("other-model".into());
    report.runs.push(twin);
    let text = tpsview_core::formats::tpsview::write(&report);
    let parsed = tpsview_core::parse_any("two.json", text.as_bytes()).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    assert_eq!(s.runs.len(), 2);
    assert_eq!(s.runs[0].label, s.runs[1].label);
    assert_ne!(s.runs[0].id, s.runs[1].id);
    assert!(
        s.runs[1].id.as_str().ends_with("· other-model"),
        "{:?}",
        s.runs[1].id
    );
    let opts = ChartOptions {
        hidden_runs: vec![s.runs[1].id.clone()],
        ..Default::default()
    };
    for spec in [
        throughput(&s, &opts),
        latency(&s, &opts),
        interactivity(&s, &opts),
    ] {
        let shown: Vec<Option<usize>> = spec.panels[0]
            .series
            .iter()
            .map(|x| x.run.as_ref().map(|r| r.index))
            .filter(Option::is_some)
            .collect();
        assert_eq!(shown, [Some(0)], "{:?}", spec.id);
        assert_eq!(spec.panels[0].series[0].run_label, s.runs[0].id.as_str());
    }
}

fn summary_of(name: &str, bytes: &[u8]) -> Summary {
    let parsed = tpsview_core::parse_any(name, bytes).unwrap();
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../tests/fixtures/{p}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn an_empty_chart_says_why_and_a_drawn_one_says_nothing() {
    let (_, s) = seed();
    let none = ChartOptions::default();
    assert_eq!(why_empty(&throughput(&s, &none), &s, &none), None);
    let hidden = ChartOptions {
        hidden_runs: vec![s.runs[0].id.clone()],
        ..Default::default()
    };
    assert_eq!(
        why_empty(&throughput(&s, &hidden), &s, &hidden),
        Some(Empty::AllHidden)
    );
    let off = ChartOptions {
        hidden: vec!["system T/s".into(), "per-stream T/s".into()],
        ..Default::default()
    };
    assert_eq!(
        why_empty(&throughput(&s, &off), &s, &off),
        Some(Empty::SeriesOff)
    );
    // A trtllm-bench report records no concurrency: the concurrency charts are empty and say
    // which file; the interactivity chart (x = per-stream T/s) never blames concurrency.
    let t = summary_of("report.json", &fixture("trtllm/minimal-report.json"));
    match why_empty(&throughput(&t, &none), &t, &none) {
        Some(Empty::NoConcurrency { files }) => assert_eq!(files, ["report.json"]),
        e => panic!("{e:?}"),
    }
    assert!(Empty::NoConcurrency {
        files: vec!["report.json".into()]
    }
    .words()
    .contains("report.json records no concurrency"));
    assert!(!matches!(
        why_empty(&interactivity(&t, &none), &t, &none),
        Some(Empty::NoConcurrency { .. })
    ));
    // Every request failed: nothing to draw, and no other reason.
    let failed = summary_of(
        "f.json",
        br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4, "duration": 2.0,
            "completed": 0, "failed": 3, "output_throughput": 0.0, "mean_tpot_ms": 0.0}"#,
    );
    assert_eq!(
        why_empty(&latency(&failed, &none), &failed, &none),
        Some(Empty::NoFigures)
    );
}

#[test]
fn the_throughput_chart_marks_each_runs_peak_and_knee_on_its_line() {
    // System T/s 100, 190, 360, 400, 420 at 1…16: peak at 16; knee at 4 (4 → 8 gains 11 %).
    let points: Vec<String> = [(1, 100), (2, 190), (4, 360), (8, 400), (16, 420)]
        .iter()
        .map(|(c, s)| {
            format!(
                r#"{{"concurrency": {c}, "reported": {{"tool": "tpsview/1", "figures": {{"system_tps": {s}, "per_stream_tps": {}}}}}}}"#,
                f64::from(*s) / f64::from(*c)
            )
        })
        .collect();
    let doc = format!(
        r#"{{"format": "tpsview/1", "meta": {{"gpu_count": 2}}, "runs": [{{"label": "k", "points": [{}]}}]}}"#,
        points.join(",")
    );
    let s = summary_of("k.json", doc.as_bytes());
    let c = throughput(&s, &ChartOptions::default());
    let marks: Vec<(&str, f64, f64)> = c
        .marks
        .iter()
        .map(|m| (m.text.as_str(), m.x, m.y))
        .collect();
    assert_eq!(marks, [("peak", 16.0, 420.0), ("knee", 4.0, 360.0)]);
    // Two levels apart, both labels sit above their rings.
    assert!(c.marks.iter().all(|m| !m.below));
    // A knee a level from the peak (360 at 4, 370 at 8): its label goes under its ring.
    let near = doc.replace(r#""system_tps": 400,"#, r#""system_tps": 370,"#).replace(
        r#"{"concurrency": 16, "reported": {"tool": "tpsview/1", "figures": {"system_tps": 420, "per_stream_tps": 26.25}}}"#,
        "",
    ).replace(",]", "]");
    let c2 = throughput(
        &summary_of("near.json", near.as_bytes()),
        &ChartOptions::default(),
    );
    let marks: Vec<(&str, f64, bool)> = c2
        .marks
        .iter()
        .map(|m| (m.text.as_str(), m.x, m.below))
        .collect();
    assert_eq!(marks, [("peak", 8.0, false), ("knee", 4.0, true)]);
    // Per GPU the mark sits on the divided line.
    let per_gpu = ChartOptions {
        per_gpu: true,
        ..Default::default()
    };
    let c = throughput(&s, &per_gpu);
    assert_eq!((c.marks[0].x, c.marks[0].y), (16.0, 210.0));
    // A hidden run has no marks; the seed (no knee within its levels) only its peak.
    let hidden = ChartOptions {
        hidden_runs: vec![s.runs[0].id.clone()],
        ..Default::default()
    };
    assert!(throughput(&s, &hidden).marks.is_empty());
    let (_, seed) = seed();
    let m = throughput(&seed, &ChartOptions::default()).marks;
    assert_eq!(m.len(), 1);
    assert_eq!((m[0].text.as_str(), m[0].x), ("peak", 128.0));
}

#[test]
fn a_log_y_axis_spans_whole_decades_around_the_data() {
    let (_, s) = seed();
    let log = ChartOptions {
        log_y: true,
        ..Default::default()
    };
    let c = throughput(&s, &log);
    let sys = &c.panels[0];
    assert_eq!(sys.y.scale, Scale::Log10);
    assert!(sys.y.label.ends_with("(log)"));
    // The seed's system T/s runs from ~50 to ~3,200: the axis from just under 10 to just over
    // 10,000.
    let (lo, hi) = sys.y.range;
    let min = sys.series[0]
        .points
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    let max = sys.series[0].points.iter().map(|p| p.1).fold(0.0, f64::max);
    assert!(lo < min && hi > max);
    assert!((lo.log10() - (min.log10().floor() - 0.05)).abs() < 1e-12);
    assert!((hi.log10() - (max.log10().ceil() + 0.05)).abs() < 1e-12);
    assert_eq!(Scale::Log10.to_axis(1000.0), Some(3.0));
    assert_eq!(Scale::Log10.to_axis(0.0), None);
    assert!((Scale::Log10.from_axis(2.0) - 100.0).abs() < 1e-9);
    assert_eq!(
        throughput(&s, &ChartOptions::default()).panels[0].y.scale,
        Scale::Linear
    );
}

/// The seed evaluated against `slo`, and priced at $2 per GPU-hour on 1 GPU.
fn seed_against(slo: &str) -> Summary {
    let text = tpsview_core::formats::tpsview::write(&tpsview_core::simulate::seed_report());
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).unwrap();
    let (report, _) = tpsview_core::group::group(vec![parsed]);
    let (mut runs, diagnostics) =
        tpsview_core::summary::summarize_report(&report, &MetricOptions::default());
    let slo = tpsview_core::slo::Slo::parse(slo).unwrap();
    tpsview_core::summary::apply_slo(&report, &mut runs, &slo);
    tpsview_core::summary::apply_cost(&mut runs, 2.0, |_| Some(1));
    Summary { runs, diagnostics }
}

#[test]
fn the_slo_shades_where_it_is_met_and_marks_the_capacity() {
    // Levels 1, 16, 64, 128; mean TPOT grows with the level. A mean-TPOT bound between the
    // levels' values: by hand from their own TPOT, the levels at or under it.
    let base = seed().1;
    let tpots: Vec<(f64, f64)> = base.runs[0]
        .points
        .iter()
        .map(|p| {
            (
                p.metrics.concurrency.unwrap(),
                p.metrics.tpot_ms.mean.unwrap(),
            )
        })
        .collect();
    let bound = (tpots[1].1 + tpots[2].1) / 2.0; // 1 and 16 meet it, 64 and 128 do not
    let s = seed_against(&format!("tpot_mean_ms={bound}"));
    let opts = ChartOptions {
        slo: Some(tpsview_core::slo::Slo::parse(&format!("tpot_mean_ms={bound}")).unwrap()),
        ..ChartOptions::default()
    };
    let c = throughput(&s, &opts);
    let (a, b, caption) = c.shade.clone().expect("a window");
    assert_eq!((a, b), (tpots[0].0, tpots[1].0));
    assert_eq!(caption, "meets the SLO");
    let cap = c
        .marks
        .iter()
        .find(|m| m.text.starts_with("capacity"))
        .unwrap();
    assert_eq!(cap.x, 16.0);
    assert_eq!(cap.y, base.runs[0].points[1].metrics.system_tps.unwrap());
    // Level targets only: no goodput series (goodput needs per-request targets).
    assert!(c.panels[0].series.iter().all(|s| s.name != "goodput T/s"));
    // Per-request targets: a dashed goodput line, never above system T/s at any level.
    let s = seed_against(&format!("tpot_ms={bound},attainment=0.5"));
    let c = throughput(&s, &ChartOptions::default());
    let g = c.panels[0]
        .series
        .iter()
        .find(|s| s.name == "goodput T/s")
        .unwrap();
    assert_eq!(g.mark, Mark::Dashed);
    for (&(x, y), p) in g.points.iter().zip(&s.runs[0].points) {
        assert_eq!(Some(x), p.metrics.concurrency);
        assert!(y <= p.metrics.system_tps.unwrap() + 1e-9);
    }
}

#[test]
fn the_interactivity_chart_shades_from_the_tpot_target_and_can_show_cost() {
    let s = seed_against("ttft_p90_ms=500,tpot_p90_ms=40");
    let opts = ChartOptions {
        slo: Some(tpsview_core::slo::Slo::parse("ttft_p90_ms=500,tpot_p90_ms=40").unwrap()),
        ..ChartOptions::default()
    };
    let c = interactivity(&s, &opts);
    // 1000 / 40 ms = 25 tokens/s per user.
    assert_eq!(c.shade.as_ref().unwrap().0, 25.0);
    let cost = interactivity(
        &s,
        &ChartOptions {
            cost_axis: true,
            ..opts
        },
    );
    let run = &cost.panels[0].series[0];
    // $2 an hour on one GPU over system T/s × 3,600 tokens, per million, by hand.
    for (&(_, y), p) in run.points.iter().zip(&s.runs[0].points) {
        let by_hand = 2.0 / (p.metrics.system_tps.unwrap() * 3600.0) * 1e6;
        assert!((y - by_hand).abs() < 1e-9);
    }
    assert!(cost.panels[0].y.label.starts_with("USD per million"));
    // The frontier keeps the cheapest levels: each frontier point is no dearer than any point
    // to its right.
    let f = cost.panels[0]
        .series
        .iter()
        .find(|s| s.name == "Pareto frontier")
        .unwrap();
    for (i, p) in f.points.iter().enumerate() {
        assert!(f.points[i..].iter().all(|q| q.1 >= p.1 - 1e-12));
    }
}

/// The real llama.cpp bench run with the server's metrics (4 slots; concurrency 1, 4, 8).
fn llamacpp_server() -> Summary {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json"
    );
    let bytes = std::fs::read(path).unwrap();
    let parsed = tpsview_core::parse_any("llamacpp.json", &bytes).unwrap();
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

#[test]
fn the_batch_the_server_ran_is_drawn_beside_the_concurrency_asked() {
    let s = llamacpp_server();
    let c = throughput(&s, &ChartOptions::default());
    let line = &c.panels[0].series[0];
    assert_eq!(line.name, "system T/s");
    let ran = c.panels[0]
        .series
        .iter()
        .find(|x| x.name == RAN)
        .expect("a ran series");
    assert_eq!(ran.mark, Mark::Dashed);
    assert_eq!(ran.run, line.run, "in the run's colour");
    // Each level's system T/s, placed at the server's running mean there: the polls inside each
    // level's window, averaged here from the file's own arrays.
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let means: Vec<f64> = report["runs"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let r = &p["requests"];
            let f = |k: &str| -> Vec<f64> {
                r[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect()
            };
            let (start, e2e) = (f("start_s"), f("e2e_s"));
            let first = start.iter().copied().fold(f64::INFINITY, f64::min);
            let last = start
                .iter()
                .zip(&e2e)
                .map(|(a, b)| a + b)
                .fold(0.0, f64::max);
            let t = p["server"]["t_s"].as_array().unwrap();
            let v = p["server"]["values"]["running"].as_array().unwrap();
            let inside: Vec<f64> = t
                .iter()
                .zip(v)
                .filter(|(t, _)| (first..=last).contains(&t.as_f64().unwrap()))
                .map(|(_, v)| v.as_f64().unwrap())
                .collect();
            inside.iter().sum::<f64>() / inside.len() as f64
        })
        .collect();
    let mut want: Vec<(f64, f64)> = means
        .iter()
        .zip(&line.points)
        .map(|(m, p)| (*m, p.1))
        .collect();
    want.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(ran.points.len(), 3);
    for (got, want) in ran.points.iter().zip(&want) {
        assert!(
            (got.0 - want.0).abs() < 1e-12 && got.1 == want.1,
            "{got:?} {want:?}"
        );
    }
    // At 8 the server ran its 4 slots while 4 requests waited: marked on the line there; at 4 it
    // ran (about) what was asked: no mark.
    let marks: Vec<&Annotation> = c
        .marks
        .iter()
        .filter(|m| m.text.starts_with("asked"))
        .collect();
    assert_eq!(marks.len(), 1, "{:?}", c.marks);
    assert_eq!((marks[0].x, marks[0].y), line.points[2]);
    assert_eq!(marks[0].text, "asked 8, ran 4: 4 waited");
    // Hovering where the folded line lies (x ≈ 3.8) names the level asked, 4.
    let h = c.hover(3.82, None, 0).expect("a hover");
    assert_eq!(h.x, 4.0);
    assert!(h.rows.iter().all(|r| r.series != RAN));
}

#[test]
fn a_short_level_at_the_peak_is_labelled_under_its_point() {
    // AIPerf's summary at concurrency 8 and its server statistics (running 3.67, up to 4
    // waiting): the one level is the peak and the short level, two labels at one point.
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/aiperf/server-stats-c8/"
    );
    let parsed: Vec<_> = ["profile_export_aiperf.json", "server_metrics_export.csv"]
        .iter()
        .map(|f| tpsview_core::parse_any(f, &std::fs::read(format!("{dir}{f}")).unwrap()).unwrap())
        .collect();
    let s = tpsview_core::summarize(parsed, &MetricOptions::default());
    let c = throughput(&s, &ChartOptions::default());
    let at8: Vec<&Annotation> = c.marks.iter().filter(|m| m.x == 8.0).collect();
    let peak = at8
        .iter()
        .find(|m| m.text.starts_with("peak"))
        .expect("peak");
    let short = at8
        .iter()
        .find(|m| m.text.starts_with("asked"))
        .expect("asked");
    assert_eq!(short.text, "asked 8, ran 3.7: 4 waited");
    assert!(!peak.below && short.below, "{at8:?}");
}

#[test]
fn the_timeline_shows_what_the_server_ran_under_the_requests() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json"
    );
    let parsed = tpsview_core::parse_any("llamacpp.json", &std::fs::read(path).unwrap()).unwrap();
    let point = &parsed.report.runs[0].points[2];
    assert_eq!(point.concurrency, Some(8.0));
    let c = timeline(point).expect("send times");
    assert_eq!(
        c.panels.len(),
        2,
        "requests, then running/waiting (llama.cpp reports no KV)"
    );
    let names: Vec<&str> = c.panels[1].series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["running (the batch)", "waiting"]);
    // The polls inside the shown time, on the requests' clock (first send = 0).
    let s = point.server.as_ref().unwrap();
    let origin = point
        .requests
        .as_ref()
        .unwrap()
        .start_s
        .as_ref()
        .unwrap()
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let inside: Vec<usize> = (0..s.t_s.len())
        .filter(|&i| (0.0..=c.x.range.1).contains(&(s.t_s[i] - origin)))
        .collect();
    let running = &c.panels[1].series[0];
    assert_eq!(running.points.len(), inside.len());
    assert_eq!(running.points[0].0, s.t_s[inside[0]] - origin);
    assert!(running.points.iter().all(|p| p.1 <= 4.0), "4 slots");
    assert!(
        c.panels[1].series[1].points.iter().any(|p| p.1 > 0.0),
        "some waited at 8"
    );
    // Hovering the server's panel names the values there; the requests' panel still its bars.
    let h = c.hover(running.points[3].0, Some(1.0), 1).expect("a hover");
    assert!(
        h.rows.iter().any(|r| r.series == "running (the batch)"),
        "{h:?}"
    );
    assert!(matches!(
        c.hover(0.01, Some(0.5), 0).unwrap().at[0],
        HoverAt::Bar(_)
    ));
    // A level without the server's metrics keeps its single panel.
    let (report, _) = seed();
    assert_eq!(
        timeline(&report.runs[0].points[1]).map(|c| c.panels.len()),
        Some(1)
    );
}

#[test]
fn the_decode_model_and_the_walkthrough_take_the_batch_the_server_ran() {
    let s = llamacpp_server();
    let run = &s.runs[0];
    let model = tpsview_core::roofline::DecodeInputs {
        hbm_bytes_per_s: 50e9,
        peak_flops: 1e12,
        params: 59_337_984.0,
        bytes_per_param: 4.0,
        kv_bytes_per_token: 0.0,
        context_tokens: 0.0,
    };
    let eff = efficiency(run, &model);
    for (e, p) in eff.iter().zip(&run.points) {
        let ran = p.server.as_ref().unwrap().running.unwrap().mean;
        assert!(e.measured_batch);
        assert_eq!(e.batch, ran);
        // The bound at the batch the server ran, not at the concurrency asked.
        assert_eq!(e.system_bound, model.step(ran).system_tps);
    }
    // At 8 the bound is the 4-stream one.
    assert_eq!(eff[2].concurrency, 8.0);
    assert_eq!(eff[2].batch, 4.0);
    let c = roofline(&model, Some(run), 1.0, &ChartOptions::default());
    let measured = c.panels[0]
        .series
        .iter()
        .find(|x| x.name == "system T/s measured")
        .expect("measured");
    assert!(
        measured.points.iter().all(|p| p.0 <= 4.0),
        "{:?}",
        measured.points
    );
    // The walkthrough's shared-read step says the server's batch.
    let steps = tpsview_core::learn::walkthrough(run);
    let shared = steps
        .iter()
        .find(|x| x.slug == "shared-read")
        .expect("step");
    let text = shared.body.join(" ");
    assert!(text.contains("the server ran"), "{text}");
    assert!(shared
        .values
        .iter()
        .any(|(k, _)| k == "batch the server ran"));
}

#[test]
fn a_setups_repeats_band_its_throughput_lines_with_the_means_interval() {
    // The example's run three times, each repeat's times stretched by its own factor (so its
    // system T/s differs), as `x · repeat=K`.
    let seed = tpsview_core::simulate::seed_report();
    let mut report = seed.clone();
    report.runs = [1.0, 1.05, 0.97]
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let mut r = seed.runs[0].clone();
            r.label = format!("x · repeat={}", k + 1).into();
            for p in &mut r.points {
                if let Some(q) = p.requests.as_mut() {
                    for i in 0..q.len() {
                        q.e2e_s[i] *= f;
                        q.ttft_s[i] *= f;
                    }
                    for s in q.start_s.as_mut().expect("send times") {
                        *s *= f;
                    }
                }
            }
            r
        })
        .collect();
    let mut s = Summary {
        runs: tpsview_core::summary::summarize_report(&report, &Default::default()).0,
        diagnostics: Vec::new(),
    };
    // Without repeats recognised, no band.
    let plain = throughput(&s, &ChartOptions::default());
    assert!(plain.panels[0].series.iter().all(|x| x.band.is_empty()));
    assert!(!plain.panels[0].title.contains("band"));
    tpsview_core::noise::apply_repeats(&mut s.runs);
    let c = throughput(&s, &ChartOptions::default());
    assert!(c.panels[0].title.contains("band: 99 % interval"));
    // The band at each level: the three values' mean ± t(0.995, 2) · sd / √3, t = 9.925 (a
    // printed t table).
    for run in 0..3 {
        let band = &c.panels[0].series[run].band;
        assert_eq!(band.len(), s.runs[0].points.len());
        for (k, &(x, lo, hi)) in band.iter().enumerate() {
            let v: Vec<f64> = (0..3)
                .map(|r| s.runs[r].points[k].metrics.system_tps.unwrap())
                .collect();
            let m = v.iter().sum::<f64>() / 3.0;
            let sd = (v.iter().map(|y| (y - m).powi(2)).sum::<f64>() / 2.0).sqrt();
            let half = 9.925 * sd / 3f64.sqrt();
            assert_eq!(Some(x), s.runs[0].points[k].metrics.concurrency);
            assert!((lo - (m - half)).abs() < 1e-3 * half && (hi - (m + half)).abs() < 1e-3 * half);
            assert!(half > 0.0);
        }
    }
    // Per GPU (2 each), the band is divided as the line is.
    let gpus = ChartOptions {
        per_gpu: true,
        gpu_counts: s.runs.iter().map(|r| (r.id.clone(), 2)).collect(),
        ..Default::default()
    };
    let g = throughput(&s, &gpus);
    for (a, b) in g.panels[0].series[0]
        .band
        .iter()
        .zip(&c.panels[0].series[0].band)
    {
        assert!((a.1 - b.1 / 2.0).abs() < 1e-9 && (a.2 - b.2 / 2.0).abs() < 1e-9);
    }
    // Per-stream T/s is banded over the repeats too.
    assert!(!c.panels[1].series[0].band.is_empty());
}

#[test]
fn the_latency_band_can_be_the_lines_interval() {
    let (report, mut s) = seed();
    tpsview_core::noise::apply_intervals(&report, &mut s.runs);
    let opts = ChartOptions {
        latency_interval: true,
        stat: tpsview_core::stats::Stat::P50,
        ..Default::default()
    };
    let c = latency(&s, &opts);
    assert!(c.panels[0].title.contains("band: 99 % interval of the p50"));
    let tpot = &c.panels[0].series[0];
    // One band point per level with an interval of TPOT p50, its bounds those of the level's.
    let want: Vec<(f64, f64, f64)> = s.runs[0]
        .points
        .iter()
        .filter_map(|p| {
            let [lo, hi] = *p.intervals.as_ref()?.intervals.get("tpot_p50_ms")?;
            Some((p.metrics.concurrency?, lo, hi))
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(tpot.band, want);
    // Each level's interval holds its line's value.
    for &(x, lo, hi) in &tpot.band {
        let y = tpot.points.iter().find(|p| p.0 == x).unwrap().1;
        assert!(lo <= y && y <= hi, "{lo} {y} {hi}");
    }
    // Without intervals computed, no band; the default stays p50–p99.
    let (_, plain) = seed();
    assert!(latency(&plain, &opts).panels[0].series[0].band.is_empty());
    assert!(latency(&plain, &ChartOptions::default()).panels[0]
        .title
        .contains("band: p50–p99"));
}
