//! AIPerf's companion exports (server metrics, GPU telemetry) join the records of their level:
//! by folder, else by time; their series on the records' clock, their energy over the level.
//! The expected figures are worked by hand from the lines written here (AIPerf's layout, from its
//! source: `server_metrics/jsonl_writer.py`'s `SlimRecord`, `gpu_telemetry`'s records).

use tpsview_core::error::Severity;
use tpsview_core::formats::{parse_any, Format, Parsed};
use tpsview_core::summary::{summarize, Summary};
use tpsview_core::MetricOptions;

const T0_NS: u64 = 1_760_000_000_000_000_000;

/// Four requests: sent at +0, +0, +1, +1 s, each 2 s long with 100 output tokens — the level's
/// window is [0, 3] s, its system T/s 400 / 3.
fn records(t0_ns: u64) -> String {
    [0u64, 0, 1, 1]
        .iter()
        .map(|s| {
            format!(
                r#"{{"metadata": {{"request_start_ns": {}, "benchmark_phase": "profiling", "was_cancelled": false}}, "metrics": {{"time_to_first_token": {{"value": 100.0, "unit": "ms"}}, "request_latency": {{"value": 2000.0, "unit": "ms"}}, "output_sequence_length": {{"value": 100, "unit": "tokens"}}, "input_sequence_length": {{"value": 10, "unit": "tokens"}}}}}}"#,
                t0_ns + s * 1_000_000_000
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Scrapes every 0.5 s from −0.5 s to +3.5 s: 2 running, 1 waiting until +1 s, the token counter
/// rising 400 over the window (from 1000 at 0 s to 1400 at 3 s, flat outside).
fn server_metrics(t0_ns: u64) -> String {
    (-1i64..=7)
        .map(|k| {
            let t = k as f64 * 0.5;
            let gen = 1000.0 + 400.0 * (t.clamp(0.0, 3.0) / 3.0);
            let waiting = if t < 1.0 { 1.0 } else { 0.0 };
            format!(
                r#"{{"endpoint_url": "http://localhost:8000/metrics", "timestamp_ns": {}, "endpoint_latency_ns": 1500000, "metrics": {{"vllm:num_requests_running": [{{"labels": {{"model_name": "m"}}, "value": 2.0}}], "vllm:num_requests_waiting": [{{"labels": {{"model_name": "m"}}, "value": {waiting}}}], "vllm:generation_tokens": [{{"labels": {{"model_name": "m"}}, "value": {gen}}}]}}}}"#,
                (t0_ns as i64 + k * 500_000_000) as u64
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One GPU at 300 W from −0.5 s to +3.5 s, its counter (MJ) rising 300 J a second: 1200 J over
/// the 4 s the samples span.
fn gpu_telemetry(t0_ns: u64, from_k: i64) -> String {
    (from_k..=7)
        .map(|k| {
            let t = k as f64 * 0.5;
            format!(
                r#"{{"timestamp_ns": {}, "dcgm_url": "http://localhost:9400/metrics", "gpu_index": 0, "gpu_uuid": "GPU-aaaa", "gpu_model_name": "NVIDIA H100 80GB HBM3", "telemetry_data": {{"gpu_power_usage": 300.0, "energy_consumption": {}, "gpu_utilization": 90.0}}}}"#,
                (t0_ns as i64 + k * 500_000_000) as u64,
                10.0 + 300e-6 * (t + 0.5)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parsed(name: &str, text: &str) -> Parsed {
    parse_any(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sum(files: Vec<Parsed>) -> Summary {
    summarize(files, &MetricOptions::default())
}

fn warnings(s: &Summary) -> Vec<String> {
    s.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(ToString::to_string)
        .collect()
}

#[test]
fn each_folders_exports_join_its_own_records_on_their_clock() {
    let later = T0_NS + 1_000_000_000_000; // 1000 s on
    let files = vec![
        parsed("c1/profile_export.jsonl", &records(T0_NS)),
        parsed("c4/profile_export.jsonl", &records(later)),
        // The second folder's exports come first: the folder decides, not the order.
        parsed("c4/server_metrics_export.jsonl", &server_metrics(later)),
        parsed("c1/server_metrics_export.jsonl", &server_metrics(T0_NS)),
        parsed("c1/gpu_telemetry_export.jsonl", &gpu_telemetry(T0_NS, -1)),
    ];
    assert_eq!(files[2].format, Format::AiperfServerMetrics);
    assert_eq!(files[4].format, Format::AiperfGpuTelemetry);
    let s = sum(files);
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    let points: Vec<_> = s.runs.iter().flat_map(|r| &r.points).collect();
    assert_eq!(points.len(), 2, "the exports make no point of their own");
    for p in &points {
        let srv = p
            .server
            .as_ref()
            .unwrap_or_else(|| panic!("{}", p.source_file));
        // On the records' clock: the window [0, 3] s holds the scrapes at 0, 0.5 … 3.
        assert_eq!(srv.window_s, Some((0.0, 3.0)));
        assert_eq!(srv.polls, Some(7));
        let running = srv.running.expect("running");
        assert_eq!((running.mean, running.max), (2.0, Some(2.0)));
        // Waiting at 0 and 0.5 s of the 7 polls.
        assert!((srv.waiting.expect("waiting").mean - 2.0 / 7.0).abs() < 1e-12);
        // 400 tokens over the 3 s window, as the client counted.
        assert!((srv.generation_tps.expect("rate") - 400.0 / 3.0).abs() < 1e-9);
        assert!((srv.client_system_tps.expect("client") - 400.0 / 3.0).abs() < 1e-9);
        assert!(srv.difference_pct.expect("audit").abs() < 1e-9);
    }
    let c1 = points
        .iter()
        .find(|p| p.source_file.starts_with("c1/"))
        .unwrap();
    let e = c1.energy.as_ref().expect("c1 has its GPU's energy");
    assert!((e.joules.unwrap() - 1200.0).abs() < 1e-6, "{e:?}");
    assert!((e.joules_per_output_token - 3.0).abs() < 1e-9);
    assert_eq!(e.mean_power_w, Some(300.0));
    assert!(e.window.as_deref().unwrap().contains("4.0 s"), "{e:?}");
    assert!(e
        .gpus
        .as_deref()
        .unwrap()
        .contains("NVIDIA H100 80GB HBM3 (GPU-aaaa)"));
    let c4 = points
        .iter()
        .find(|p| p.source_file.starts_with("c4/"))
        .unwrap();
    assert!(c4.energy.is_none(), "no telemetry in c4/");
}

#[test]
fn exports_without_a_folder_join_the_records_nearest_in_time() {
    let later = T0_NS + 1_000_000_000_000;
    let s = sum(vec![
        parsed("early.jsonl", &records(T0_NS)),
        parsed("late.jsonl", &records(later)),
        parsed("server_metrics_export.jsonl", &server_metrics(later)),
    ]);
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    let points: Vec<_> = s.runs.iter().flat_map(|r| &r.points).collect();
    let with: Vec<&str> = points
        .iter()
        .filter(|p| p.server.is_some())
        .map(|p| p.source_file.as_str())
        .collect();
    assert_eq!(with, ["late.jsonl"]);
}

#[test]
fn an_export_with_nowhere_to_go_is_said_and_draws_nothing() {
    // Alone.
    let s = sum(vec![parsed(
        "server_metrics_export.jsonl",
        &server_metrics(T0_NS),
    )]);
    assert!(s.runs.is_empty());
    let w = warnings(&s);
    assert!(
        w.iter().any(
            |m| m.contains("server_metrics_export.jsonl") && m.contains("profile_export.jsonl")
        ),
        "{w:?}"
    );
    // An hour away from the only records, with no folder to tell.
    let hour = T0_NS + 3_600_000_000_000;
    let s = sum(vec![
        parsed("a/profile_export.jsonl", &records(T0_NS)),
        parsed("b/server_metrics_export.jsonl", &server_metrics(hour)),
    ]);
    assert!(s.runs[0].points[0].server.is_none());
    assert_eq!(warnings(&s).len(), 1, "{:?}", warnings(&s));
}

#[test]
fn gpu_samples_that_miss_most_of_the_level_give_it_no_energy() {
    // Samples from +2.5 s to +3.5 s: 0.5 s of the 3 s window, 17 %.
    let s = sum(vec![
        parsed("c1/profile_export.jsonl", &records(T0_NS)),
        parsed("c1/gpu_telemetry_export.jsonl", &gpu_telemetry(T0_NS, 5)),
    ]);
    assert!(s.runs[0].points[0].energy.is_none());
    let w = warnings(&s);
    assert!(
        w.iter()
            .any(|m| m.contains("gpu_telemetry_export.jsonl") && m.contains("cover 1.0 s, 17 %")),
        "{w:?}"
    );
}

#[test]
fn the_real_aiperf_telemetry_export_is_said_to_miss_its_trimmed_records() {
    // ai-dynamo/aiperf's qwen_concurrency1 fixture (tests/fixtures/aiperf/telemetry-c1/): its
    // 3 s of GPU samples end 0.85 s before the first of its 10 records (AIPerf trimmed both).
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/aiperf/telemetry-c1/"
    );
    let read = |f: &str| {
        let name = format!("telemetry-c1/{f}");
        let bytes = std::fs::read(format!("{dir}{f}")).expect("fixture");
        parse_any(&name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let s = sum(vec![
        read("profile_export.jsonl"),
        read("gpu_telemetry_export.jsonl"),
    ]);
    assert_eq!(s.runs.len(), 1);
    assert!(s.runs[0].points[0].energy.is_none());
    let w = warnings(&s);
    assert!(
        w.iter()
            .any(|m| m.contains("telemetry-c1/gpu_telemetry_export.jsonl")
                && m.contains("cover 3.0 s, 0 %")),
        "{w:?}"
    );
}

/// AIPerf's statistics of the server's metrics (`server_metrics_export.json`) over the level of
/// [`records`]: one endpoint, 2 running throughout, 1 waiting at most, its token counter up 400
/// over 3.2 s (from the scrape before the first request to the last one after the end), dated
/// by its endpoint's first and last update.
fn server_stats(t0_ns: u64) -> String {
    format!(
        r#"{{"schema_version": "1.0", "aiperf_version": "0.8.0", "summary": {{"endpoints_configured": ["http://localhost:8000/metrics"],
        "endpoint_info": {{"http://localhost:8000/metrics": {{"first_update_ns": {}, "last_update_ns": {}}}}}}},
        "metrics": {{
          "vllm:num_requests_running": {{"type": "gauge", "series": [{{"endpoint_url": "http://localhost:8000/metrics", "labels": {{"engine": "0"}}, "stats": {{"avg": 2.0, "p50": 2.0, "max": 2.0}}}}]}},
          "vllm:num_requests_waiting": {{"type": "gauge", "series": [{{"endpoint_url": "http://localhost:8000/metrics", "stats": {{"avg": 0.25, "p50": 0.0, "max": 1.0}}}}]}},
          "vllm:generation_tokens": {{"type": "counter", "series": [{{"endpoint_url": "http://localhost:8000/metrics", "stats": {{"total": 400.0, "rate": 125.0}}}}]}}
        }}}}"#,
        t0_ns - 500_000_000,
        t0_ns + 3_500_000_000
    )
}

#[test]
fn aiperfs_server_statistics_join_their_level_by_time_and_are_audited() {
    let later = T0_NS + 1_000_000_000_000;
    let files = vec![
        parsed("a/profile_export.jsonl", &records(T0_NS)),
        parsed("b/profile_export.jsonl", &records(later)),
        parsed("stats/server_metrics_export.json", &server_stats(later)),
    ];
    assert_eq!(files[2].format, Format::AiperfServerStats);
    let s = sum(files);
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    let points: Vec<_> = s.runs.iter().flat_map(|r| &r.points).collect();
    assert_eq!(points.len(), 2, "the statistics make no point of their own");
    let b = points
        .iter()
        .find(|p| p.source_file.starts_with("b/"))
        .unwrap();
    let srv = b.server.as_ref().expect("b/ has the server's statistics");
    assert_eq!(
        (srv.window_s, srv.polls),
        (None, None),
        "AIPerf's own window"
    );
    assert!(
        srv.source.contains("server_metrics_export.json"),
        "{}",
        srv.source
    );
    let running = srv.running.expect("running");
    assert_eq!(
        (running.mean, running.p50, running.max, running.samples),
        (2.0, Some(2.0), Some(2.0), None)
    );
    assert_eq!(srv.waiting.and_then(|w| w.max), Some(1.0));
    // 125 T/s against the client's 400 / 3: 6.25 % fewer, named.
    assert_eq!(srv.generation_tps, Some(125.0));
    assert!((srv.difference_pct.unwrap() + 6.25).abs() < 1e-9);
    assert!(srv.audit.as_deref().unwrap().contains("fewer"));
    assert_eq!(
        srv.undefined.tokens_per_decode_step.as_deref(),
        Some("the server does not report decode_calls_total")
    );
    let a = points
        .iter()
        .find(|p| p.source_file.starts_with("a/"))
        .unwrap();
    assert!(a.server.is_none(), "1000 s away: not a/'s");
    // The batch it ran at the level: asked nothing (records alone), ran 2.
    let ran = b.ran().expect("ran");
    assert_eq!(ran.text(), "ran 2");
}

#[test]
fn undated_server_statistics_with_no_level_in_their_folder_are_said_and_left_out() {
    let csv = "# AIPerf Server Metrics Export (CSV)\n#\nEndpoint,Type,Metric,Unit,avg,min,max,p50\nlocalhost:8000,gauge,vllm:num_requests_running,requests,2.0,0.0,2.0,2.0\n";
    let s = sum(vec![
        parsed("a/profile_export.jsonl", &records(T0_NS)),
        parsed("elsewhere/server_metrics_export.csv", csv),
    ]);
    let w = warnings(&s);
    assert!(
        w.iter()
            .any(|m| m.contains("elsewhere/server_metrics_export.csv") && m.contains("fit it")),
        "{w:?}"
    );
    assert!(s
        .runs
        .iter()
        .flat_map(|r| &r.points)
        .all(|p| p.server.is_none()));
}
