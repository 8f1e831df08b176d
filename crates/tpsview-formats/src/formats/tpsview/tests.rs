use super::*;
use crate::formats::{detect, parse_any, Format};
use crate::metrics::{compute_point, MetricOptions};
use crate::vocabulary::Metric;

fn seed_json() -> String {
    write(&crate::simulate::seed_report())
}

#[test]
fn round_trips_the_seed_report() {
    let report = crate::simulate::seed_report();
    let text = write(&report);
    assert_eq!(detect(text.as_bytes()), Some(Format::Tpsview));
    let parsed = parse_any("seed.json", text.as_bytes()).unwrap();
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.report.runs[0].points, report.runs[0].points);
    assert_eq!(parsed.report.runs[0].meta, report.runs[0].meta);
}

#[test]
fn round_trips_a_converted_vllm_file_with_its_failures_and_figures() {
    let path = format!(
        "{}/../../tests/fixtures/vllm/detailed-small.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = parse_any("d.json", &std::fs::read(path).unwrap()).unwrap();
    let text = write(&src.report);
    let back = parse_any("d.tpsview.json", text.as_bytes()).unwrap();
    let (a, b) = (
        &src.report.runs[0].points[0],
        &back.report.runs[0].points[0],
    );
    assert_eq!(a.reported, b.reported);
    assert_eq!(back.report.runs[0].source_format, crate::formats::vllm::ID);
    let (ma, _) = compute_point(a, &MetricOptions::default());
    let (mb, _) = compute_point(b, &MetricOptions::default());
    for name in Metric::ALL {
        assert_eq!(ma.get(name), mb.get(name), "{name}");
    }
}

#[test]
fn reads_the_documented_minimal_example() {
    let path = format!(
        "{}/../../docs/examples/minimal.tpsview.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let parsed = parse_any("minimal.tpsview.json", &std::fs::read(path).unwrap()).unwrap();
    let points = &parsed.report.runs[0].points;
    assert_eq!(points.len(), 2);
    let (m, _) = compute_point(&points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(2));
    assert_eq!(m.requests_failed, Some(1));
    let (m, _) = compute_point(&points[1], &MetricOptions::default());
    assert_eq!(
        m.system_tps,
        Some(700.0),
        "summary-only point uses its figures"
    );
}

#[test]
fn unknown_version_is_named() {
    let text = seed_json().replacen("tpsview/1", "tpsview/9", 1);
    let e = crate::formats::parse(Format::Tpsview, "v.json", text.as_bytes()).unwrap_err();
    assert!(
        e.to_string().contains("tpsview/9") && e.to_string().contains("tpsview/1"),
        "{e}"
    );
}

#[test]
fn wrong_type_names_the_path() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"requests":{"ttft_s":{"a":1},"e2e_s":[],"output_tokens":[]}}]}]}"#;
    let e = crate::formats::parse(Format::Tpsview, "w.json", text.as_bytes()).unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("runs[0].points[0].requests.ttft_s"),
        "{e}"
    );
}

#[test]
fn missing_required_field_is_named() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"requests":{"ttft_s":[1],"e2e_s":[2]}}]}]}"#;
    let e = crate::formats::parse(Format::Tpsview, "m.json", text.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("output_tokens"), "{e}");
}

#[test]
fn columns_of_different_lengths_are_an_error_naming_the_field() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"requests":{"ttft_s":[0.1],"e2e_s":[1,2],"output_tokens":[3,4]}}]}]}"#;
    let e = crate::formats::parse(Format::Tpsview, "l.json", text.as_bytes()).unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("runs[0].points[0].requests.ttft_s")
    );
    assert!(e.to_string().contains("1 entries"), "{e}");
}

#[test]
fn chunk_counts_must_add_up() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"requests":{"ttft_s":[0.1],"e2e_s":[1],"output_tokens":[3],"chunk_counts":[2],"chunk_gaps_s":[0.4]}}]}]}"#;
    let e = crate::formats::parse(Format::Tpsview, "c.json", text.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("add up to 2"), "{e}");
}

#[test]
fn null_and_string_numbers_are_diagnosed_per_request() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"concurrency":"inf","requests":{"start_s":[0,0],"ttft_s":[null,"0.1"],"e2e_s":[1,1],"output_tokens":[3,3.5]}}]}]}"#;
    let parsed = crate::formats::parse(Format::Tpsview, "n.json", text.as_bytes()).unwrap();
    let fields: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.field.as_str(), d.index))
        .collect();
    assert!(
        fields.contains(&("runs[0].points[0].concurrency", None)),
        "{fields:?}"
    );
    assert!(
        fields.contains(&("runs[0].points[0].requests.output_tokens", Some(1))),
        "{fields:?}"
    );
    assert!(
        fields.contains(&("runs[0].points[0].requests.ttft", Some(0))),
        "{fields:?}"
    );
}

#[test]
fn a_report_without_points_is_no_data() {
    let e = crate::formats::parse(
        Format::Tpsview,
        "e.json",
        br#"{"format":"tpsview/1","runs":[]}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("no points"), "{e}");
}

#[test]
fn trailing_garbage_is_a_syntax_error_with_position() {
    let text = format!("{} x", r#"{"format":"tpsview/1","runs":[]}"#);
    let e = crate::formats::parse(Format::Tpsview, "g.json", text.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.to_string().contains("trailing"), "{e}");
}

#[test]
fn a_levels_server_series_round_trips_and_older_files_have_none() {
    use crate::server::{ServerMetric, ServerSeries};
    let mut report = crate::simulate::seed_report();
    let series = ServerSeries {
        source: "http://127.0.0.1:8080/metrics".into(),
        t_s: vec![0.5, 0.75, 1.0],
        values: [
            (ServerMetric::Running, vec![Some(4.0), Some(4.0), None]),
            (
                ServerMetric::DecodeCalls,
                vec![Some(10.0), Some(14.0), Some(18.0)],
            ),
        ]
        .into_iter()
        .collect(),
    };
    report.runs[0].points[1].server = Some(series.clone());
    let text = write(&report);
    // Stored under the metrics' keys, a poll without a value as null.
    assert!(text.contains(r#""server":{"source":"http://127.0.0.1:8080/metrics","t_s":[0.5,0.75,1.0],"values":{"running":[4.0,4.0,null],"waiting":null,"kv_cache_usage":null,"generation_tokens_total":null,"prompt_tokens_total":null,"decode_calls_total":[10.0,14.0,18.0],"engine_generation_tps":null,"prompt_tokens_cached_total":null,"prefix_cache_queries_total":null}}"#), "{}", &text[..text.len().min(400)]);
    let parsed = parse_any("s.json", text.as_bytes()).unwrap();
    assert_eq!(parsed.report.runs[0].points[1].server, Some(series));
    assert_eq!(parsed.report.runs[0].points[0].server, None);
    // A file written before (the seed sample) reads with none.
    let old = parse_any("seed.json", seed_json().as_bytes()).unwrap();
    assert!(old.report.runs[0].points.iter().all(|p| p.server.is_none()));
}

#[test]
fn a_levels_typed_facts_round_trip_under_their_own_keys_not_the_tools_figures() {
    use crate::model::Telemetry;
    use crate::server::{ServerMetric, ServerStats, WindowStat};
    let mut report = crate::simulate::seed_report();
    let mut stats = ServerStats::default();
    stats.set(ServerMetric::Running, WindowStat::Mean, 3.5);
    stats.set(ServerMetric::GenerationTokens, WindowStat::Rate, 200.25);
    let telemetry = Telemetry {
        energy_j: Some(4450.5),
        mean_power_w: Some(271.5),
        window_s: None,
    };
    {
        let p = &mut report.runs[0].points[0];
        p.server_stats = Some(Box::new(stats.clone()));
        p.telemetry = Some(telemetry);
        p.epoch_window_s = Some((1_762_551_530.5, 1_762_551_546.25));
    }
    let text = write(&report);
    // What follows the first point's requests (the facts), to show when a check fails.
    let facts = text
        .find(r#""server_stats""#)
        .map_or("(no server_stats)", |i| &text[i..(i + 600).min(text.len())]);
    // Written as the schema says (docs/report-format.md), typed keys spelled out by hand.
    for want in [
        r#""server_stats":{"running":{"mean":3.5,"p50":null,"max":null,"total":null,"rate":null},"waiting":null,"kv_cache_usage":null,"generation_tokens_total":{"mean":null,"p50":null,"max":null,"total":null,"rate":200.25},"prompt_tokens_total":null,"decode_calls_total":null,"engine_generation_tps":null,"prompt_tokens_cached_total":null,"prefix_cache_queries_total":null}"#,
        r#""telemetry":{"energy_j":4450.5,"mean_power_w":271.5,"window_s":null}"#,
        r#""epoch_window_s":[1762551530.5,1762551546.25]"#,
    ] {
        assert!(text.contains(want), "{want}\nnot in\n{facts}");
    }
    let back = parse_any("t.json", text.as_bytes()).unwrap();
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    let p = &back.report.runs[0].points[0];
    assert_eq!(p.server_stats.as_deref(), Some(&stats));
    assert_eq!(p.telemetry, Some(telemetry));
    assert_eq!(p.epoch_window_s, Some((1_762_551_530.5, 1_762_551_546.25)));
    assert!(back.report.runs[0].points[1].telemetry.is_none());
}

#[test]
fn a_report_written_before_typed_facts_has_them_moved_out_of_the_figures() {
    // As tpsview wrote a level with AIPerf's telemetry and server statistics before 2026-12-04:
    // the facts among the tool's figures under made-up keys.
    let old = r#"{"format":"tpsview/1","runs":[{"label":"a","points":[{"concurrency":4,
        "reported":{"tool":"aiperf","figures":{"request_throughput.avg":2.5,
        "telemetry.energy_j":4450.0,"telemetry.mean_power_w":271.5,"telemetry.window_s":16.0,
        "server_stats.running.mean":3.6667,"server_stats.generation_tokens_total.total":1604.0,
        "server_stats.not_a_metric.mean":1.0,
        "companion.from_epoch_s":10.0,"companion.to_epoch_s":26.0}}}]}]}"#;
    let parsed = parse_any("old.json", old.as_bytes()).unwrap();
    let p = &parsed.report.runs[0].points[0];
    let t = p.telemetry.unwrap();
    assert_eq!(
        (t.energy_j, t.mean_power_w, t.window_s),
        (Some(4450.0), Some(271.5), Some(16.0))
    );
    let s = p.server_stats.as_ref().unwrap();
    use crate::server::{ServerMetric, WindowStat};
    assert_eq!(
        s.stat(ServerMetric::Running, WindowStat::Mean),
        Some(3.6667)
    );
    assert_eq!(
        s.stat(ServerMetric::GenerationTokens, WindowStat::Total),
        Some(1604.0)
    );
    assert_eq!(p.epoch_window_s, Some((10.0, 26.0)));
    // What is not a fact tpsview knows stays a figure; the tool's own stay.
    let keys: Vec<&str> = p.reported.figures.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["request_throughput.avg", "server_stats.not_a_metric.mean"]
    );
    // A key of that shape tpsview does not know is kept as the figure it was, silently.
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn raw_data_that_is_not_per_request_round_trips_as_samples_and_audits_alike() {
    let dir = format!("{}/../../tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    for (name, path) in [
        ("bench.json", "llama-bench/discrepant-and-broken.json"),
        ("latency.json", "vllm-latency/latency.json"),
        (
            "x_individual_responses.json",
            "llmperf/llama-3-8b_550_150_individual_responses.json",
        ),
    ] {
        let src = parse_any(name, &std::fs::read(format!("{dir}/{path}")).unwrap()).unwrap();
        let points: Vec<&Point> = src.report.runs.iter().flat_map(|r| &r.points).collect();
        assert!(
            points.iter().any(|p| p.samples.is_some()),
            "{path}: the reader keeps its samples"
        );
        let text = write(&src.report);
        assert!(text.contains("\"samples\":{\"of\":"), "{path}");
        let back = parse_any("back.tpsview.json", text.as_bytes()).unwrap();
        let again: Vec<&Point> = back.report.runs.iter().flat_map(|r| &r.points).collect();
        assert_eq!(points.len(), again.len(), "{path}");
        for (a, b) in points.iter().zip(&again) {
            assert_eq!(a.samples, b.samples, "{path}");
            assert_eq!(
                crate::audit::from_samples(a),
                crate::audit::from_samples(b),
                "{path}"
            );
        }
    }
}

#[test]
fn samples_of_an_unknown_kind_are_left_out_with_a_warning_naming_the_field() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"r","points":[{"concurrency":1,
        "reported":{"tool":"llama-bench","figures":{"avg_ts":10}},
        "samples":{"of":"<b>per_moon</b>","values":[1,2]}}]}]}"#;
    let parsed = parse_any("odd.json", text.as_bytes()).unwrap();
    assert_eq!(parsed.report.runs[0].points[0].samples, None);
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.field == "runs[0].points[0].samples.of")
        .expect("a warning names samples.of");
    assert!(d.message.contains("unknown kind"), "{}", d.message);
}

#[test]
fn a_report_written_before_samples_is_audited_against_the_figures_it_stored() {
    // Reports of 2026-11 stored llama-bench's mean of per-repetition rates as `recomputed`.
    let text = r#"{"format":"tpsview/1","runs":[{"label":"r","points":[{"concurrency":1,
        "reported":{"tool":"llama-bench","figures":{"avg_ts":100},"recomputed":{"avg_ts":96}}}]}]}"#;
    let parsed = parse_any("old.json", text.as_bytes()).unwrap();
    let p = &parsed.report.runs[0].points[0];
    assert_eq!(p.samples, None);
    let (m, _) = compute_point(p, &MetricOptions::default());
    let d = crate::audit::discrepancies(p, &m);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].tool_metric, d[0].recomputed), ("avg_ts", 96.0));
}
