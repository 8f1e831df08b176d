use super::*;
use crate::server::ServerMetric;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/aiperf/telemetry-c1/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_real_gpu_telemetry_export_counts_its_one_gpu_once() {
    // ai-dynamo/aiperf's qwen_concurrency1 fixture: one RTX 6000 Ada scraped by two DCGM
    // exporters, 10 samples each over 3.0 s. The figures below were recounted from the file by
    // tests/golden/check-companions-2026-12-03.py (it does not run tpsview): each exporter's
    // counter rise 252.982 J and 262.101 J, mean power 92.5317 W and 93.0612 W.
    let (report, diags) = parse_gpu_telemetry(
        "gpu_telemetry_export.jsonl",
        &fixture("gpu_telemetry_export.jsonl"),
    )
    .unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let run = &report.runs[0];
    let t = run.points[0].telemetry.unwrap();
    assert!(
        (t.energy_j.unwrap() - (252.982 + 262.101) / 2.0).abs() < 1e-3,
        "{t:?}"
    );
    assert!(
        (t.mean_power_w.unwrap() - (92.5317 + 93.0612) / 2.0).abs() < 1e-4,
        "{t:?}"
    );
    assert!((t.window_s.unwrap() - 2.996489325).abs() < 1e-6, "{t:?}");
    // Nothing of it among the tool's own figures.
    assert!(run.points[0].reported.figures.is_empty());
    // The first sample, 1762551530.946074466 s after the epoch (an f64 keeps it to ~0.2 µs).
    let (from, _) = run.points[0].epoch_window_s.unwrap();
    assert!((from - 1_762_551_530.946_074_5).abs() < 1e-5);
    assert!(run.points[0].requests.is_none());
    let gpus = &run.meta.labels[super::super::aiperf::GPUS_LABEL];
    assert!(
        gpus.starts_with("1 GPU: NVIDIA RTX 6000 Ada Generation (GPU-ef6ef310")
            && gpus.contains("2 exporters"),
        "{gpus}"
    );
    assert_eq!(
        super::super::detect(&fixture("gpu_telemetry_export.jsonl")),
        Some(Format::AiperfGpuTelemetry)
    );
}

#[test]
fn a_gpu_counter_that_goes_down_gives_no_energy_but_power_stays() {
    let line = |t: u64, e: f64, p: f64| {
        format!(
            r#"{{"timestamp_ns": {t}, "dcgm_url": "http://h:9400/metrics", "gpu_index": 0, "gpu_uuid": "GPU-1", "gpu_model_name": "H100", "telemetry_data": {{"gpu_power_usage": {p}, "energy_consumption": {e}}}}}"#
        )
    };
    let text = [
        line(1_000_000_000_000_000_000, 5.0, 100.0),
        line(1_000_000_001_000_000_000, 4.0, 300.0),
    ]
    .join("\n");
    let (report, diags) = parse_gpu_telemetry("t.jsonl", text.as_bytes()).unwrap();
    let t = report.runs[0].points[0].telemetry.unwrap();
    assert_eq!(t.energy_j, None, "{t:?}");
    assert_eq!(t.mean_power_w, Some(200.0));
    assert!(
        diags
            .iter()
            .any(|d| d.field == "telemetry_data.energy_consumption"
                && d.message.contains("went down")),
        "{diags:?}"
    );
    // No power and no energy anywhere: said, naming the file.
    let e = parse_gpu_telemetry(
        "bare.jsonl",
        br#"{"timestamp_ns": 1, "gpu_uuid": "GPU-1", "telemetry_data": {"gpu_utilization": 3}}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("bare.jsonl"), "{e}");
}

/// One scrape line as AIPerf's `ServerMetricsJSONLWriter` writes it (its `SlimRecord`).
fn scrape(url: &str, t_ms: u64, families: &str) -> String {
    format!(
        r#"{{"endpoint_url": "{url}", "timestamp_ns": {}, "endpoint_latency_ns": 2100000, "metrics": {{{families}}}}}"#,
        1_700_000_000_000_000_000u64 + t_ms * 1_000_000
    )
}

#[test]
fn server_metrics_are_read_under_prometheus_clients_names_and_summed_over_endpoints() {
    let a = "http://a:8000/metrics";
    let b = "http://b:8000/metrics";
    let fam = |running: f64, kv: f64, gen: f64| {
        format!(
            r#""vllm:num_requests_running": [{{"labels": {{"engine": "0"}}, "value": {running}}}], "vllm:kv_cache_usage_perc": [{{"value": {kv}}}], "vllm:generation_tokens": [{{"value": {gen}}}], "vllm:e2e_request_latency_seconds": [{{"buckets": {{"0.5": 1, "+Inf": 2}}, "sum": 1.5, "count": 2}}]"#
        )
    };
    let text = [
        scrape(a, 0, &fam(2.0, 0.2, 100.0)),
        scrape(b, 100, &fam(3.0, 0.4, 1000.0)),
        scrape(a, 250, &fam(4.0, 0.6, 150.0)),
        // b's scrape at 350 was unchanged, so AIPerf left it out: its value holds.
        scrape(a, 500, &fam(1.0, 0.2, 190.0)),
        scrape(b, 600, &fam(0.0, 0.0, 1100.0)),
    ]
    .join("\n");
    assert_eq!(
        super::super::detect(text.as_bytes()),
        Some(Format::AiperfServerMetrics)
    );
    let (report, diags) =
        parse_server_metrics("server_metrics_export.jsonl", text.as_bytes()).unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let p = &report.runs[0].points[0];
    let s = p.server.as_ref().expect("a series");
    // From b's first scrape on (both endpoints known), at every scrape of either.
    let t0 = 1_700_000_000.0;
    let t: Vec<f64> = s.t_s.iter().map(|t| ((t - t0) * 1000.0).round()).collect();
    assert_eq!(t, [100.0, 250.0, 500.0, 600.0]);
    let col = |m: ServerMetric| s.values.get(m).cloned().expect("reported");
    assert_eq!(
        col(ServerMetric::Running),
        [Some(5.0), Some(7.0), Some(4.0), Some(1.0)]
    );
    assert_eq!(
        col(ServerMetric::GenerationTokens),
        [Some(1100.0), Some(1150.0), Some(1190.0), Some(1290.0)]
    );
    let kv = col(ServerMetric::KvUsage);
    for (got, want) in kv.iter().zip([0.3, 0.5, 0.3, 0.1]) {
        assert!((got.unwrap() - want).abs() < 1e-12, "{kv:?}");
    }
    assert!(s.values.get(ServerMetric::Waiting).is_none());
    assert!(
        s.source.contains("http://a:8000/metrics") && s.source.contains("http://b:8000/metrics")
    );
    assert_eq!(p.epoch_window_s.map(|w| w.0), Some(s.t_s[0]));
    // Nothing under a name tpsview reads: said, naming the file.
    let e = parse_server_metrics(
        "other.jsonl",
        scrape(a, 0, r#""http_requests": [{"value": 3}]"#).as_bytes(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("other.jsonl"), "{e}");
}

#[test]
fn a_secret_in_an_endpoint_url_reaches_no_output() {
    let url = "http://admin:hunter2@gpu-node:8000/metrics?api_key=sk-live-0123456789abcdef";
    let text = [
        scrape(url, 0, r#""vllm:num_requests_running": [{"value": 1}]"#),
        scrape(url, 250, r#""vllm:num_requests_running": [{"value": 2}]"#),
    ]
    .join("\n");
    let p = super::super::parse_any("server_metrics_export.jsonl", text.as_bytes()).unwrap();
    let source = &p.report.runs[0].points[0].server.as_ref().unwrap().source;
    assert!(
        !source.contains("hunter2") && !source.contains("sk-live") && source.contains("[redacted]"),
        "{source}"
    );
    let gpu = r#"{"timestamp_ns": 1700000000000000000, "dcgm_url": "http://u:pw-s3cret@h:9400/metrics", "gpu_uuid": "GPU-1", "telemetry_data": {"gpu_power_usage": 100.0}}"#;
    let p = super::super::parse_any("gpu_telemetry_export.jsonl", gpu.as_bytes()).unwrap();
    let label = &p.report.runs[0].meta.labels[super::super::aiperf::GPUS_LABEL];
    assert!(!label.contains("pw-s3cret"), "{label}");
}

fn stats_fixture(path: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/aiperf/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Statistic `stat` (its key) of `m` among a point's server statistics.
fn stat(f: &crate::server::ServerStats, m: ServerMetric, stat: &str) -> Option<f64> {
    f.stat(m, crate::server::WindowStat::from_key(stat).unwrap())
}

#[test]
fn aiperfs_server_statistics_csv_gives_each_metric_its_own_cells() {
    // The gauge, counter, histogram and info sections of AIPerf's csv_exporter.py; the values
    // are the CSV's own cells (tests/fixtures/make_fixtures.py computed them from its scrapes).
    let bytes = stats_fixture("server-stats-c8/server_metrics_export.csv");
    assert_eq!(
        super::super::detect(&bytes),
        Some(Format::AiperfServerStats)
    );
    let (report, diags) = stats::parse("server_metrics_export.csv", &bytes).unwrap();
    let p = &report.runs[0].points[0];
    assert!(p.reported.figures.is_empty(), "{:?}", p.reported.figures);
    let f = p.server_stats.as_ref().unwrap();
    assert_eq!(stat(f, ServerMetric::Running, "mean"), Some(3.6667));
    assert_eq!(stat(f, ServerMetric::Running, "p50"), Some(4.0));
    assert_eq!(stat(f, ServerMetric::Running, "max"), Some(4.0));
    assert_eq!(stat(f, ServerMetric::Waiting, "mean"), Some(3.0417));
    assert_eq!(stat(f, ServerMetric::KvUsage, "max"), Some(0.49));
    assert_eq!(
        stat(f, ServerMetric::GenerationTokens, "rate"),
        Some(200.7007)
    );
    assert_eq!(
        stat(f, ServerMetric::GenerationTokens, "total"),
        Some(1604.0)
    );
    // Undated: no place in time, said.
    assert_eq!(p.epoch_window_s, None);
    assert!(diags.iter().any(|d| d.message.contains("no scrape times")));
    let source = &report.runs[0].meta.labels[crate::server::STATS_SOURCE_LABEL];
    assert!(source.contains("server_metrics_export.csv") && source.contains("localhost:8000"));
}

#[test]
fn aiperfs_server_statistics_json_of_two_replicas_sum_but_give_no_median_or_max() {
    let bytes = stats_fixture("server-stats-json-c4/server_metrics_export.json");
    assert_eq!(
        super::super::detect(&bytes),
        Some(Format::AiperfServerStats)
    );
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let series = |family: &str, key: &str| -> Vec<f64> {
        doc["metrics"][family]["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["stats"][key].as_f64().unwrap())
            .collect()
    };
    let (report, _) = stats::parse("server_metrics_export.json", &bytes).unwrap();
    let p = &report.runs[0].points[0];
    let f = p.server_stats.as_ref().unwrap();
    let running = series("vllm:num_requests_running", "avg");
    assert_eq!(running.len(), 2);
    assert_eq!(
        stat(f, ServerMetric::Running, "mean"),
        Some(running[0] + running[1])
    );
    // KV-cache usage is a fraction: averaged over the replicas.
    let kv = series("vllm:kv_cache_usage_perc", "avg");
    assert_eq!(
        stat(f, ServerMetric::KvUsage, "mean"),
        Some((kv[0] + kv[1]) / 2.0)
    );
    assert_eq!(stat(f, ServerMetric::Running, "p50"), None);
    assert_eq!(stat(f, ServerMetric::Running, "max"), None);
    let rate = series("vllm:generation_tokens", "rate");
    assert_eq!(
        stat(f, ServerMetric::GenerationTokens, "rate"),
        Some(rate[0] + rate[1])
    );
    // Dated by the endpoints' first and last update (epoch ns), and its level from input_config.
    let first = doc["summary"]["endpoint_info"]["http://10.0.0.11:8000/metrics"]["first_update_ns"]
        .as_f64()
        .unwrap();
    assert!((p.epoch_window_s.unwrap().0 - first * 1e-9).abs() < 1e-6);
    assert_eq!(p.concurrency, Some(4.0));
}

#[test]
fn server_statistics_without_a_known_metric_or_a_metrics_object_are_refused_by_name() {
    let csv = "# AIPerf Server Metrics Export (CSV)\n#\nEndpoint,Type,Metric,Unit,avg,min,max\nlocalhost:8000,gauge,process_open_fds,,59.6,49.0,65.0\n";
    let e = stats::parse("sm.csv", csv.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("sm.csv"), "{e}");
    assert!(e.to_string().contains("running"), "{e}");
    let json = r#"{"summary": {"endpoints_configured": []}, "metrics": [1, 2]}"#;
    let e = stats::parse("sm.json", json.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("metrics"), "{e}");
    // A stat only some series carry is left out, said; NaN is not a number here.
    let json = r#"{"summary": {"endpoints_configured": []}, "metrics": {"vllm:num_requests_running": {"type": "gauge", "series": [
        {"endpoint_url": "a", "stats": {"avg": 2.0, "max": 3.0}},
        {"endpoint_url": "b", "stats": {"avg": 1.0}}]}}}"#;
    let (report, diags) = stats::parse("sm.json", json.as_bytes()).unwrap();
    let f = report.runs[0].points[0].server_stats.as_ref().unwrap();
    assert_eq!(stat(f, ServerMetric::Running, "mean"), Some(3.0));
    assert_eq!(stat(f, ServerMetric::Running, "max"), None);
    assert!(diags
        .iter()
        .any(|d| d.message.contains("1 of its 2 series")));
    // AIPerf's summary and its records are not taken for it, nor it for them.
    assert_ne!(
        super::super::detect(&stats_fixture("server-stats-c8/profile_export_aiperf.json")),
        Some(Format::AiperfServerStats)
    );
}
