//! The readers of 2026's tools on what their real files do not show (tests/wild holds the real
//! files, checked against tests/wild/expected.py): inference-perf's short stage and its
//! line-timed TPOT, a folder's configuration naming its runs, genai-bench's units, errors and
//! statistics over fewer requests, and broken input named by file and field. Every expected
//! value is written out here from the input's own numbers.

#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::{parse_any, summarize, Diagnostic, Format};

fn stats(mean: f64, median: f64) -> Value {
    json!({"mean": mean, "min": 0.0, "max": 2.0 * mean, "median": median, "p90": 1.5 * mean, "p99": 1.9 * mean})
}

/// A stage report as inference-perf v0.4.0 writes it (`reportgen/base.py` 115–198), with the
/// given ITL median (seconds) and load summary.
fn stage(itl_median: f64, load: Value) -> Vec<u8> {
    json!({
        "load_summary": load,
        "successes": {
            "count": 10,
            "latency": {
                "request_latency": stats(2.0, 2.0),
                "normalized_time_per_output_token": stats(0.02, 0.02),
                "time_per_output_token": stats(0.010, 0.010),
                "time_to_first_token": stats(0.2, 0.2),
                "inter_token_latency": stats(0.010, itl_median)
            },
            "throughput": {"input_tokens_per_sec": 500.0, "output_tokens_per_sec": 400.0,
                           "total_tokens_per_sec": 900.0, "requests_per_sec": 2.0},
            "prompt_len": stats(250.0, 250.0), "output_len": stats(200.0, 200.0)
        },
        "failures": {"count": 0, "request_latency": null, "prompt_len": null}
    })
    .to_string()
    .into_bytes()
}

fn point(files: &[(&str, Vec<u8>)]) -> (Value, Vec<Diagnostic>) {
    let parsed: Vec<_> = files
        .iter()
        .map(|(n, b)| parse_any(n, b).unwrap())
        .collect();
    let mut diags: Vec<Diagnostic> = parsed.iter().flat_map(|p| p.diagnostics.clone()).collect();
    let s = summarize(parsed, &MetricOptions::default());
    diags.extend(s.diagnostics.clone());
    (serde_json::to_value(&s).unwrap(), diags)
}

#[test]
fn an_inference_perf_stage_is_a_level_with_the_figures_it_states() {
    let load =
        json!({"count": 10, "send_duration": 4.0, "requested_rate": 2.5, "achieved_rate": 2.5});
    let bytes = stage(0.009, load);
    assert_eq!(tpsview_core::detect(&bytes), Some(Format::InferencePerf));
    let (s, diags) = point(&[("stage_0_lifecycle_metrics.json", bytes)]);
    let p = &s["runs"][0]["points"][0];
    assert_eq!(p["request_rate"], json!(2.5));
    assert_eq!(p["concurrency"], Value::Null);
    // Seconds in the file, ms here; TPOT 10 ms → 100 T/s per stream.
    assert!((p["ttft_ms"]["mean"].as_f64().unwrap() - 200.0).abs() < 1e-9);
    assert!((p["tpot_ms"]["mean"].as_f64().unwrap() - 10.0).abs() < 1e-9);
    assert!((p["per_stream_tps"].as_f64().unwrap() - 100.0).abs() < 1e-9);
    assert_eq!(p["system_tps"], json!(400.0));
    assert!(!diags
        .iter()
        .any(|d| d.field == "load_summary.achieved_rate"));
}

#[test]
fn a_stage_that_could_not_keep_its_rate_is_said() {
    let load = json!({"count": 120, "send_duration": 4039.5, "requested_rate": 0.25, "achieved_rate": 0.0297});
    let (_, diags) = point(&[("stage_0_lifecycle_metrics.json", stage(0.009, load))]);
    let d = diags
        .iter()
        .find(|d| d.field == "load_summary.achieved_rate")
        .expect("a warning on the achieved rate");
    assert!(
        d.message.contains("0.25") && d.message.contains("0.0297"),
        "{}",
        d.message
    );
}

#[test]
fn line_timed_tpot_and_itl_are_left_out_not_shown_as_tpsviews() {
    // ITL median 27 µs against a mean of 10 ms: timestamps per streamed line (blank lines too).
    let load =
        json!({"count": 10, "send_duration": 4.0, "requested_rate": 2.5, "achieved_rate": 2.5});
    let (s, diags) = point(&[("stage_0_lifecycle_metrics.json", stage(27e-6, load))]);
    let p = &s["runs"][0]["points"][0];
    assert_eq!(p["tpot_ms"]["mean"], Value::Null, "{}", p["tpot_ms"]);
    assert_eq!(p["per_stream_tps"], Value::Null);
    assert_eq!(p["itl_ms"]["mean"], Value::Null);
    // The rest stays: TTFT, E2E, system T/s.
    assert_eq!(p["system_tps"], json!(400.0));
    let d = diags
        .iter()
        .find(|d| d.field == "successes.latency.inter_token_latency")
        .expect("said");
    assert!(d.message.contains("10.000 ms"), "{}", d.message);
}

#[test]
fn a_folders_configuration_names_its_stages_and_summary_and_nothing_else() {
    let config = b"api:\n  type: completion\nload:\n  type: concurrent\n  stages:\n  - num_requests: 8\n    concurrency_level: 8\nreport:\n  request_lifecycle:\n    summary: true\nserver:\n  type: vllm\n  model_name: acme/Model-7B\n  api_key: sk-live-abcdefghijklmnopqrstuvwx\n".to_vec();
    assert_eq!(tpsview_core::detect(&config), Some(Format::InferencePerf));
    let conc = json!({"count": 8, "send_duration": 0.9, "requested_rate": 8.0, "achieved_rate": 8.8, "concurrency": 8});
    let summary = stage(0.009, json!({"count": 8}));
    let (s, _) = point(&[
        ("run/config.yaml", config.clone()),
        (
            "run/stage_0_lifecycle_metrics.json",
            stage(0.009, conc.clone()),
        ),
        ("run/summary_lifecycle_metrics.json", summary),
        ("other/stage_0_lifecycle_metrics.json", stage(0.009, conc)),
    ]);
    let labels: Vec<&str> = s["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    // The stage is a level at concurrency 8 (not its rate), named after the model; the summary a
    // run of its own; the other folder's stage keeps the tool's name.
    assert!(labels.contains(&"acme/Model-7B"), "{labels:?}");
    assert!(labels.contains(&"acme/Model-7B · all stages"), "{labels:?}");
    assert!(labels.contains(&"inference-perf"), "{labels:?}");
    let run = s["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "acme/Model-7B")
        .unwrap();
    assert_eq!(run["points"][0]["concurrency"], json!(8.0));
    assert_eq!(run["points"][0]["request_rate"], Value::Null);
    // The key in the configuration reaches no output.
    assert!(!s.to_string().contains("sk-live"));
}

/// A genai-bench run file as 0.0.5 writes it (`aggregated_metrics_collector.py` `save()`).
fn genai(unit: Option<&str>, requests: Value, stats_n: f64) -> Vec<u8> {
    let mut doc = json!({
        "aggregated_metrics": {
            "scenario": "D(100,100)", "num_concurrency": 2, "batch_size": 1,
            "iteration_type": "num_concurrency", "run_duration": 10.0,
            "mean_output_throughput_tokens_per_s": 30.0, "requests_per_second": 0.3,
            "error_codes_frequency": {}, "error_rate": 0, "num_error_requests": 1,
            "num_completed_requests": 2, "num_requests": 3,
            "stats": {"num_output_tokens": {"mean": 100.0, "sum": 100.0 * stats_n},
                      "ttft": {"mean": 0.5, "p50": 0.5, "p90": 0.6, "p99": 0.7}}
        },
        "individual_request_metrics": requests
    });
    if let Some(u) = unit {
        doc["_time_unit"] = json!(u);
    }
    if unit == Some("ms") {
        doc["aggregated_metrics"]["stats"]["ttft"] =
            json!({"mean": 500.0, "p50": 500.0, "p90": 600.0, "p99": 700.0});
    }
    doc.to_string().into_bytes()
}

fn requests(f: f64) -> Value {
    json!([
        {"ttft": 0.2 * f, "tpot": 0.01 * f, "e2e_latency": 1.19 * f, "output_latency": 0.99 * f,
         "num_input_tokens": 100, "num_output_tokens": 100, "error_code": null, "error_message": null},
        {"ttft": 0.4 * f, "tpot": 0.02 * f, "e2e_latency": 2.38 * f, "output_latency": 1.98 * f,
         "num_input_tokens": 100, "num_output_tokens": 100, "error_code": null, "error_message": null},
        {"ttft": null, "tpot": null, "e2e_latency": null, "output_latency": null,
         "num_input_tokens": 100, "num_output_tokens": null, "error_code": 500, "error_message": "boom"}
    ])
}

#[test]
fn genai_bench_reads_seconds_and_milliseconds_alike() {
    for (unit, f) in [(None, 1.0), (Some("s"), 1.0), (Some("ms"), 1e3)] {
        let bytes = genai(unit, requests(f), 2.0);
        assert_eq!(tpsview_core::detect(&bytes), Some(Format::GenaiBench));
        let (s, _) = point(&[(
            "D100_100_text-to-text_num_concurrency_2_time_10s.json",
            bytes,
        )]);
        let p = &s["runs"][0]["points"][0];
        assert_eq!(p["concurrency"], json!(2.0), "{unit:?}");
        assert_eq!(p["requests_ok"], json!(2));
        assert_eq!(p["requests_failed"], json!(1));
        // (0.2 + 0.4) / 2 s; TPOT (1.19 − 0.2) / 99 = 10 ms and (2.38 − 0.4) / 99 = 20 ms.
        assert!(
            (p["ttft_ms"]["mean"].as_f64().unwrap() - 300.0).abs() < 1e-9,
            "{unit:?}"
        );
        assert!(
            (p["tpot_ms"]["mean"].as_f64().unwrap() - 15.0).abs() < 1e-9,
            "{unit:?}"
        );
        // 200 output tokens over the file's run duration (no send times).
        assert!(
            (p["system_tps"].as_f64().unwrap() - 20.0).abs() < 1e-9,
            "{unit:?}"
        );
        // Its TTFT mean, 0.5 s (500 in a file of ms), kept in seconds under its own name.
        assert!(
            (p["reported"]["aggregated_metrics.stats.ttft.mean"]
                .as_f64()
                .unwrap()
                - 0.5)
                .abs()
                < 1e-12
        );
    }
}

#[test]
fn genai_bench_statistics_over_fewer_requests_are_said_and_a_bad_unit_is_an_error() {
    let (_, diags) = point(&[("r.json", genai(None, requests(1.0), 1.0))]);
    assert!(
        diags.iter().any(
            |d| d.field == "aggregated_metrics.stats" && d.message.contains("cover 1 of the 3")
        ),
        "{diags:?}"
    );
    let e = parse_any("r.json", &genai(Some("us"), requests(1.0), 2.0)).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("r.json") && text.contains("_time_unit"),
        "{text}"
    );
    let e = parse_any(
        "r.json",
        br#"{"aggregated_metrics": {"run_duration": 1}, "individual_request_metrics": 3}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("individual_request_metrics"), "{e}");
}

/// Every real file of the three tools, whole, cut and with bytes overwritten, through its reader
/// and the whole pipeline: nothing panics (libFuzzer explores further: fuzz/fuzz_targets/).
#[test]
fn the_real_files_survive_cuts_and_corruption() {
    let wild = format!("{}/../../tests/wild", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for tool in ["inference-perf", "genai-bench", "evalscope"] {
        let mut walk = vec![std::path::PathBuf::from(format!("{wild}/{tool}"))];
        while let Some(d) = walk.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk.push(p);
                    continue;
                }
                let bytes = std::fs::read(&p).unwrap();
                let format = tpsview_core::detect(&bytes).unwrap();
                assert!(
                    matches!(
                        format,
                        Format::InferencePerf | Format::GenaiBench | Format::Evalscope
                    ),
                    "{}: {format:?}",
                    p.display()
                );
                n += 1;
                tpsview_core::fuzz_cut_and_corrupted(format, &bytes);
            }
        }
    }
    assert_eq!(n, 67);
}

/// InferenceX's agentic results, both layouts (fixtures built from its code: make_agentic.py;
/// the same ten requests behind both): each is a level of its run, its ITL read as TPOT, its
/// output tokens/s as system T/s, and the nested layout's interactivity (1 ÷ mean ITL, rounded
/// to 5 decimals) agreeing with per-stream T/s.
#[test]
fn inferencex_agentic_results_read_in_both_layouts() {
    let dir = format!(
        "{}/../../tests/fixtures/inferencex",
        env!("CARGO_MANIFEST_DIR")
    );
    for (name, nested) in [
        ("agentic_flat_dsr1_users8_b200.json", false),
        ("agentic_nested_kimik2.7_conc8_mi355x.json", true),
    ] {
        let bytes = std::fs::read(format!("{dir}/{name}")).unwrap();
        assert_eq!(
            tpsview_core::detect(&bytes),
            Some(Format::Inferencex),
            "{name}"
        );
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        let (s, diags) = point(&[(name, bytes)]);
        let run = &s["runs"][0];
        let p = &run["points"][0];
        let (ttft, itl, e2e, out) = if nested {
            let l = &doc["request_metrics"]["latency"];
            (
                l["ttft"]["mean"].as_f64().unwrap(),
                l["itl"]["mean"].as_f64().unwrap(),
                l["e2el"]["mean"].as_f64().unwrap(),
                doc["request_metrics"]["throughput"]["output"]["tokens_per_second"]
                    .as_f64()
                    .unwrap(),
            )
        } else {
            (
                doc["mean_ttft"].as_f64().unwrap(),
                doc["mean_itl"].as_f64().unwrap(),
                doc["mean_ttlt"].as_f64().unwrap(),
                doc["output_tput_tps"].as_f64().unwrap(),
            )
        };
        assert_eq!(p["concurrency"], json!(8.0), "{name}");
        assert!((p["ttft_ms"]["mean"].as_f64().unwrap() - ttft * 1e3).abs() < 1e-9);
        assert!((p["tpot_ms"]["mean"].as_f64().unwrap() - itl * 1e3).abs() < 1e-9);
        assert!((p["e2e_ms"]["mean"].as_f64().unwrap() - e2e * 1e3).abs() < 1e-9);
        assert!((p["system_tps"].as_f64().unwrap() - out).abs() < 1e-9);
        // Its ITL is per request (not chunk gaps): tpsview's ITL stays undefined.
        assert_eq!(p["itl_ms"]["mean"], Value::Null);
        assert_eq!(run["meta"]["gpu_count"], json!(4));
        if nested {
            let intvty = doc["request_metrics"]["latency"]["intvty"]["mean"]
                .as_f64()
                .unwrap();
            let ps = p["per_stream_tps"].as_f64().unwrap();
            assert!((ps - intvty).abs() < 1e-3, "{ps} vs {intvty}");
        }
        assert!(
            !diags
                .iter()
                .any(|d| d.severity == tpsview_core::error::Severity::Warning),
            "{diags:?}"
        );
    }
}

#[test]
fn optimum_benchmark_gives_its_batch_as_the_level_and_its_figures_as_stated() {
    // tests/fixtures/optimum-benchmark/benchmark.json, written from the tool's source by
    // make_report.py (no public text-generation report with latencies outside a reserved
    // repository): batch 4, 100 new tokens, two iterations.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/optimum-benchmark/benchmark.json"
    );
    let bytes = std::fs::read(path).unwrap();
    let parsed = parse_any("benchmark.json", &bytes).unwrap();
    assert_eq!(parsed.format, Format::OptimumBenchmark);
    let run = &parsed.report.runs[0];
    assert_eq!(run.label.to_string(), "openai-community/gpt2 · pytorch");
    assert_eq!(run.meta.gpu.as_deref(), Some("NVIDIA A10G"));
    let s: Value =
        serde_json::to_value(summarize(vec![parsed], &MetricOptions::default())).unwrap();
    let p = &s["runs"][0]["points"][0];
    assert_eq!(p["concurrency"], json!(4.0));
    // The prefill's mean (0.05 + 0.07) / 2 s is every sequence's TTFT; a decode step's mean
    // (0.010 + 0.012) / 2 s its TPOT; decode throughput 4 × 99 / 1.1 as stated.
    let close = |v: &Value, w: f64| (v.as_f64().unwrap() / w - 1.0).abs() < 1e-9;
    assert!(close(&p["ttft_ms"]["mean"], 60.0), "{p}");
    assert!(close(&p["tpot_ms"]["mean"], 11.0), "{p}");
    assert!(close(&p["e2e_ms"]["mean"], 1160.0), "{p}");
    assert!(close(&p["system_tps"], 360.0), "{p}");
    // An energy-only report (AIEnergyScore's energy_star scenario: every latency and throughput
    // null) says so, naming the file.
    let energy = br#"{"prefill": {"memory": null, "latency": null, "throughput": null, "energy": {"unit": "kWh", "total": 0.001}, "efficiency": null},
 "decode": {"memory": null, "latency": null, "throughput": null, "energy": {"unit": "kWh", "total": 0.01}, "efficiency": null},
 "per_token": {"memory": null, "latency": null, "throughput": null, "energy": null, "efficiency": null}}"#;
    let e = parse_any("benchmark_report.json", energy)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("benchmark_report.json") && e.contains("energy-only"),
        "{e}"
    );
}
