use super::*;

#[test]
fn detection_looks_at_the_end_of_the_file_too() {
    let mut big = String::from(r#"{"ttfts": ["#);
    big.push_str(&"0.1, ".repeat(40_000));
    big.push_str(r#"0.1], "mean_tpot_ms": 1.0}"#);
    assert_eq!(detect(big.as_bytes()), Some(Format::VllmServe));
}

#[test]
fn every_format_has_an_id_that_maps_back() {
    for f in Format::ALL {
        assert_eq!(Format::from_id(f.id()), Some(f));
    }
}

#[test]
fn every_format_has_one_spec() {
    // Exhaustive: a new variant does not compile here until it is listed, and the list is checked
    // against SPECS below.
    let every = |f: Format| match f {
        Format::Tpsview
        | Format::VllmServe
        | Format::VllmLatency
        | Format::VllmThroughput
        | Format::SglangServe
        | Format::SglangOneBatch
        | Format::GenaiPerfExport
        | Format::GenaiPerfSummary
        | Format::GenaiPerfCsv
        | Format::AiperfRecords
        | Format::AiperfSummary
        | Format::AiperfServerMetrics
        | Format::AiperfGpuTelemetry
        | Format::AiperfServerStats
        | Format::TrtllmReport
        | Format::TrtllmRequests
        | Format::TrtllmConsole
        | Format::LlamaBench
        | Format::LlamaBenchTable
        | Format::LlmperfSummary
        | Format::LlmperfResponses
        | Format::Guidellm
        | Format::InferenceBenchmarker
        | Format::MlperfSummary
        | Format::MlperfDetail
        | Format::MlperfSystem
        | Format::Inferencex
        | Format::AiperfSweep
        | Format::LlmdReport
        | Format::VllmSweepCsv
        | Format::InferencePerf
        | Format::GenaiBench
        | Format::Mapped
        | Format::Evalscope
        | Format::Ollama
        | Format::LlamaServer
        | Format::OptimumBenchmark
        | Format::LlamaBenchy
        | Format::ServingConsole => f,
    };
    for f in Format::ALL {
        assert_eq!(every(f).spec().format, f);
        assert_eq!(Format::ALL.iter().filter(|g| **g == f).count(), 1, "{f:?}");
    }
    assert_eq!(Format::ALL.len(), 39);
    let ids: std::collections::BTreeSet<&str> = SPECS.iter().map(|s| s.format.id()).collect();
    assert_eq!(ids.len(), SPECS.len());
}

#[test]
fn unknown_json_names_its_keys_the_count_of_formats_and_the_mapping() {
    let e = parse_any("x.json", br#"{"hello": 1, "<b>": 2}"#).unwrap_err();
    let text = e.to_string();
    let n = Format::ALL.len() - 1;
    assert!(
        text.contains("x.json")
            && text.contains("hello")
            && text.contains(&format!("none of the {n} supported formats"))
            && text.contains("tpsview map"),
        "{text}"
    );
    // Short: the list of formats is `tpsview formats`, not this line.
    assert!(!text.contains("vLLM bench latency JSON"), "{text}");
}

#[test]
fn a_utf8_bom_is_accepted() {
    let mut b = b"\xEF\xBB\xBF".to_vec();
    b.extend_from_slice(br#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"concurrency":1,"reported":{"tool":"tpsview/1","figures":{"system_tps":5}}}]}]}"#);
    let p = parse_any("bom.json", &b).unwrap();
    assert_eq!(p.format, Format::Tpsview);
}

#[test]
fn a_genai_perf_export_reads_the_same_streamed_or_as_a_tree() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/genai-perf");
    let mut compared = 0;
    for name in ["profile_export.json", "bad-records_profile_export.json"] {
        let bytes = std::fs::read(dir.join(name)).expect("fixture");
        let streamed = genai_perf::parse_export(name, &bytes).expect("streamed");
        let tree = genai_perf::parse_export_tree(name, &bytes).expect("tree");
        let wire =
            |(report, diagnostics): (crate::model::Report, Vec<crate::error::Diagnostic>)| {
                crate::transfer::encode(&Parsed {
                    file: name.into(),
                    format: Format::GenaiPerfExport,
                    report,
                    diagnostics,
                    run_label: None,
                })
            };
        assert_eq!(wire(streamed), wire(tree), "{name}");
        compared += 1;
    }
    // Bad records keep their own index in the streamed path's diagnostics.
    let bytes = std::fs::read(dir.join("bad-records_profile_export.json")).expect("fixture");
    let (_, diags) = genai_perf::parse_export("b.json", &bytes).expect("reads");
    assert!(
        diags
            .iter()
            .any(|d| d.field.contains("requests[") && !d.field.contains("requests[0]")),
        "{diags:?}"
    );
    assert_eq!(compared, 2);
}

mod genai_perf_requests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// A value of any kind, for a key that should hold something else.
    fn odd() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            Just(json!("12")),
            Just(json!(1.5)),
            Just(json!(-3)),
            Just(json!(u64::MAX)),
            Just(json!(true)),
            Just(json!([1, "a"])),
            Just(json!({"a": 1})),
        ]
    }

    fn output() -> impl Strategy<Value = Value> {
        prop_oneof![
            6 => prop_oneof![Just("tok"), Just(""), Just("\"q\"")].prop_map(|t| {
                let chunk = json!({"id": "c", "choices": [{"index": 0, "delta": {"content": t}}]});
                json!({ "response": format!("data: {chunk}") })
            }),
            1 => (0u32..40).prop_map(|n| json!({ "response": format!("data: {}", json!({"choices": [], "usage": {"completion_tokens": n}})) })),
            1 => Just(json!({ "response": "data: [DONE]" })),
            1 => Just(json!({ "response": "data: {\"choices\":[{\"delta\":{\"content\":\"a\",\"content\":\"\"}}]}" })),
            1 => prop_oneof![Just(json!("x")), Just(json!(""))].prop_map(|t| json!({ "text_output": t })),
            1 => prop_oneof![odd(), Just(json!(""))].prop_map(|v| json!({ "text_output": v, "response": "data: {\"choices\":[{\"text\":\"b\"}]}" })),
            1 => odd(),
        ]
    }

    fn request() -> impl Strategy<Value = Value> {
        (
            prop_oneof![8 => (0i64..1_000_000).prop_map(|t| json!(1_764_000_000_000_000_000i64 + t)), 1 => odd()],
            prop::collection::vec(prop_oneof![9 => (1i64..50_000_000).prop_map(|t| json!(t)), 1 => odd()], 0..6),
            prop::collection::vec(output(), 0..6),
            0u8..12,
        )
            .prop_map(|(sent, gaps, outputs, shape)| {
                let mut t = 1_764_000_000_100_000_000i64;
                let stamps: Vec<Value> = gaps
                    .into_iter()
                    .map(|g| match g.as_i64() {
                        Some(d) => {
                            t += d;
                            json!(t)
                        }
                        None => g,
                    })
                    .collect();
                let mut r = json!({
                    "timestamp": sent,
                    "request_inputs": {"payload": "{\"model\": \"m\", \"stream\": true}"},
                    "response_timestamps": stamps,
                    "response_outputs": outputs,
                });
                match shape {
                    0 => r["response_outputs"] = json!("none"),
                    1 => r["response_timestamps"] = json!(7),
                    2 => r = json!([1, 2]),
                    // The model is the first that a request names.
                    3 => r["request_inputs"] = json!({"payload": "{\"model\": \"other\"}"}),
                    4 => {
                        r.as_object_mut().map(|o| o.remove("request_inputs"));
                    }
                    _ => {}
                }
                r
            })
    }

    proptest! {
        #[test]
        fn requests_of_any_shape_read_the_same_streamed_or_as_a_tree(
            reqs in prop::collection::vec(request(), 1..8),
            repeat in 0usize..8,
        ) {
            let mut text = json!({"experiments": [{"experiment": {"mode": "concurrency", "value": 4}, "requests": reqs}]}).to_string();
            // A repeated key (the last one counts in a JSON value): a timestamp before the
            // request's own, an integer or not.
            if repeat < 4 {
                if let Some(at) = text.match_indices("\"timestamp\":").nth(repeat / 2).map(|(i, _)| i) {
                    text.insert_str(at, if repeat % 2 == 0 { "\"timestamp\":1.5," } else { "\"timestamp\":5," });
                }
            }
            let wire = |r: Result<(crate::model::Report, Vec<crate::error::Diagnostic>), ParseError>| {
                r.map(|(report, diagnostics)| {
                    crate::transfer::encode(&Parsed {
                        file: "e.json".into(),
                        format: Format::GenaiPerfExport,
                        report,
                        diagnostics,
                        run_label: None,
                    })
                })
                .map_err(|e| e.to_string())
            };
            prop_assert_eq!(
                wire(genai_perf::parse_export("e.json", text.as_bytes())),
                wire(genai_perf::parse_export_tree("e.json", text.as_bytes())),
                "{}", text
            );
        }
    }

    /// Whether a request of `exps` is not an object (the chunked reader gives way on one).
    fn has_a_request_that_is_not_an_object(exps: &[(Vec<Value>, u8)]) -> bool {
        exps.iter()
            .any(|(reqs, shape)| *shape != 2 && reqs.iter().any(|r| !r.is_object()))
    }

    proptest! {
        #[test]
        fn exports_read_in_any_chunks_equal_the_whole_reading(
            exps in prop::collection::vec((prop::collection::vec(request(), 0..12), 0u8..4), 1..4),
            sizes in prop::collection::vec(1usize..80, 1..4),
            pretty in any::<bool>(),
            bom in any::<bool>(),
        ) {
            let experiments: Vec<Value> = exps
                .iter()
                .enumerate()
                .map(|(k, (reqs, shape))| match shape {
                    0 => json!({"experiment": {"mode": "concurrency", "value": k + 1}, "requests": reqs}),
                    1 => json!({"requests": reqs, "experiment": {"mode": "request_rate", "value": 2.5}, "note": "a \"quoted\" {[}] \\ é 😀"}),
                    // No requests list: the whole reader warns and skips it.
                    2 => json!({"experiment": {"mode": "concurrency", "value": 4}}),
                    // A `requests` key below an experiment's own is not one of its lists.
                    _ => json!({"experiment": {"mode": "concurrency", "value": 8}, "requests": reqs, "extra": [1, {"requests": [1]}, []]}),
                })
                .collect();
            let root = json!({"service_kind": "openai", "experiments": experiments, "version": "0.0.9"});
            let mut text = if pretty {
                serde_json::to_string_pretty(&root).expect("text")
            } else {
                root.to_string()
            };
            if bom {
                text.insert(0, '\u{feff}');
            }
            let whole = format!("{:?}", parse(Format::GenaiPerfExport, "e.json", text.as_bytes()));
            let streamed = read_in_chunks(Format::GenaiPerfExport, "e.json", text.as_bytes(), &sizes);
            if has_a_request_that_is_not_an_object(&exps) {
                prop_assert!(streamed.is_none(), "{}", text);
            } else {
                prop_assert_eq!(streamed.as_deref(), Some(whole.as_str()), "{}", text);
            }
        }
    }
}

#[test]
fn a_broken_genai_perf_export_falls_back_to_the_tree_path_and_names_the_problem() {
    let e = genai_perf::parse_export("cut.json", br#"{"experiments": [{"experiment": {"mode": "concurrency", "value": 4}, "requests": [{"timestamp": 1"#).unwrap_err();
    assert!(e.to_string().contains("cut.json"), "{e}");
}

#[test]
fn records_are_read_one_at_a_time_from_an_array_or_lines_and_broken_lines_fall_back() {
    let ids = |bytes: &[u8]| {
        let mut diags = Vec::new();
        let out = common::map_records("r.json", bytes, &mut diags, |i, v, _| {
            (i, v.get("id").and_then(serde_json::Value::as_i64))
        })
        .expect("reads");
        (out, diags.len())
    };
    let want = vec![(0, Some(1)), (1, Some(2)), (2, Some(3))];
    assert_eq!(
        ids(br#"[{"id": 1}, {"id": 2}, {"id": 3}]"#),
        (want.clone(), 0)
    );
    assert_eq!(ids(b"{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n"), (want, 0));
    // A broken line: the tree path keeps the good lines and names the bad one.
    let (out, said) = ids(b"{\"id\": 1}\n{\"id\": \n{\"id\": 3}\n");
    assert_eq!(out, vec![(0, Some(1)), (1, Some(3))]);
    assert_eq!(said, 1);
}

/// The one record-stream reader: a broken line is skipped and named, the others keep their places
/// in the stream, bare NaN is read as a number and said so once — for a JSON value and for a
/// format's own record type alike.
#[test]
fn record_streams_recover_line_by_line_keeping_places() {
    let bytes = b"{\"a\": 1}\n\n{\"a\": [\n{\"a\": NaN}\n";
    let mut diags = Vec::new();
    let got: Vec<(usize, serde_json::Value)> =
        common::read_stream("s.jsonl", bytes, "thing", &mut diags).unwrap();
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(got[0].1["a"], 1);
    assert_eq!(
        got[1].1["a"], "nan",
        "quoted, for the lenient number reader"
    );
    let said: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d.field.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert_eq!(said[0].0, "(file)");
    assert!(said[0].1.contains("NaN"));
    assert_eq!(said[1].0, "line 3");
    assert!(said[1].1.starts_with("thing skipped:"), "{}", said[1].1);
    // Typed records go through the same path.
    #[derive(serde::Deserialize)]
    struct A {
        a: f64,
    }
    let mut diags = Vec::new();
    let typed: Vec<(usize, A)> = common::read_stream(
        "s.jsonl",
        b"{\"a\": 2}\n{\"a\": \"x\"}\n",
        "record",
        &mut diags,
    )
    .unwrap();
    assert_eq!(typed.len(), 1);
    assert_eq!((typed[0].0, typed[0].1.a), (0, 2.0));
    assert_eq!(diags[0].field, "line 2");
    // Nothing readable: the whole file's error.
    assert!(common::read_stream::<A>("s.json", b"{\"a\": ", "record", &mut Vec::new()).is_err());
}

/// llama-bench with prompt-processing and generation tests at four depths: one run per test kind,
/// depth on the x axis (not a run per depth).
#[test]
fn llama_bench_depth_sweeps_are_one_run_per_test_kind() {
    let mut lines = Vec::new();
    for d in [0, 512, 1024, 2048] {
        for (np, ng, ts) in [
            (512, 0, 1000.0 - f64::from(d) / 10.0),
            (0, 128, 40.0 - f64::from(d) / 200.0),
        ] {
            lines.push(format!(
                r#"{{"model_type": "llama 8B Q4_0", "n_prompt": {np}, "n_gen": {ng}, "n_depth": {d}, "n_threads": 8, "avg_ts": {ts}}}"#
            ));
        }
    }
    let p = parse_any("d.jsonl", lines.join("\n").as_bytes()).unwrap();
    let runs = &p.report.runs;
    assert_eq!(
        runs.len(),
        2,
        "{:?}",
        runs.iter().map(|r| &r.label).collect::<Vec<_>>()
    );
    for r in runs {
        assert_eq!(r.axis.as_deref(), Some("n_depth"));
        let levels: Vec<f64> = r.points.iter().filter_map(|p| p.concurrency).collect();
        assert_eq!(levels, [0.0, 512.0, 1024.0, 2048.0], "{}", r.label);
    }
    let labels: Vec<String> = runs.iter().map(|r| r.label.to_string()).collect();
    assert!(
        labels.iter().any(|l| l == "llama 8B Q4_0 · pp512")
            && labels.iter().any(|l| l == "llama 8B Q4_0 · tg128"),
        "{labels:?}"
    );
}

/// Runs a tool names itself are named after what they ran: the model (and the GPU where the file
/// states one); the tool's name only when the file names no model.
#[test]
fn tool_named_runs_take_the_model_and_hardware() {
    let read = |p: &str| {
        let bytes = std::fs::read(format!(
            "{}/../../tests/fixtures/{p}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        parse_any(p, &bytes).unwrap().report.runs[0].label.clone()
    };
    assert_eq!(read("aiperf/minimal-phases_aiperf.json"), "qwen3-0.6b");
    assert_eq!(read("aiperf/broken-lines.jsonl"), "AIPerf");
    assert_eq!(
        read("trtllm/concurrency8-report.json"),
        "meta-llama/Llama-3.1-8B · NVIDIA H100 80GB HBM3"
    );
    assert_eq!(
        read("sglang/one-batch.jsonl"),
        "SGLang bench_one_batch · default"
    );
}

#[test]
fn the_reader_free_tables_say_what_the_specs_say() {
    for f in Format::ALL {
        let s = f.spec();
        assert_eq!(
            (f.id(), f.name(), f.summary_partners()),
            (s.format.id(), s.format.name(), s.summary_partners)
        );
        assert_eq!(s.format, f);
    }
}

#[test]
fn the_page_s_own_reader_reads_tpsview_reports_as_parse_does() {
    let root = format!("{}/../../public/samples", env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for entry in std::fs::read_dir(root).expect("samples") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("sample");
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        assert_eq!(
            parse_tpsview(&name, &bytes),
            parse(Format::Tpsview, &name, &bytes),
            "{name}"
        );
        read += 1;
    }
    assert!(read >= 2);
    // Not a report: the same error either way, never a panic.
    for bad in [
        &b""[..],
        b"  ",
        b"{\"mean_tpot_ms\": 1}",
        b"{\"format\": \"tpsview/1\", \"runs\": 3}",
    ] {
        assert_eq!(
            format!("{:?}", parse_tpsview("x.json", bad)),
            format!("{:?}", parse(Format::Tpsview, "x.json", bad))
        );
    }
}

#[test]
fn json_numbers_are_read_as_python_reads_them() {
    // Tools write floats as Python's repr does: the shortest decimal that reads back to the same
    // double, often 17 digits. serde_json's default reader takes ~14 % of those one last bit off
    // (e.g. 0.023646704290710478 → 0.02364670429071048); a timestamp in epoch seconds one bit off
    // moves a TTFT by 0.24 µs. The workspace enables its `float_roundtrip`, which reads each as
    // Python's float() and Rust's str::parse do, correctly rounded: checked on latencies,
    // fractions, epoch timestamps and token rates.
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let scales = [1.0, 1e-3, 0.02, 1.764e9, 3.1e3, 7e-7];
    let mut texts = String::from("[");
    let mut want = Vec::new();
    for k in 0..60_000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let x = f64::from_bits((s >> 12) | 0x3ff0_0000_0000_0000) * scales[k % scales.len()];
        if k > 0 {
            texts.push(',');
        }
        texts.push_str(&format!("{x:?}"));
        want.push(x);
    }
    texts.push(']');
    let read: Vec<f64> = serde_json::from_str(&texts).expect("a JSON array of numbers");
    let value: serde_json::Value = serde_json::from_str(&texts).expect("a JSON array of numbers");
    for (k, x) in want.iter().enumerate() {
        assert_eq!(
            read[k].to_bits(),
            x.to_bits(),
            "{x:?} read as {:?}",
            read[k]
        );
        let v = value[k].as_f64().expect("a number");
        assert_eq!(v.to_bits(), x.to_bits(), "{x:?} read into a Value as {v:?}");
    }
}

/// A GenAI-Perf export with what is hard to cut: a byte-order mark, escapes, braces and quotes in
/// strings, multi-byte UTF-8, an experiment without requests, CRLF and blank space between the
/// requests.
const HARD_EXPORT: &str = "\u{feff}{\"experiments\" : [ {\"experiment\": {\"mode\": \"concurrency\", \"value\": 2}, \"note\": \"}{ ][ \\\"é 😀\\\\\",\r\n \"requests\": [\r\n {\"timestamp\": 1000, \"request_inputs\": {\"payload\": \"{\\\"model\\\": \\\"m}{\\\"}\"}, \"response_timestamps\": [2000, 3000, 4000], \"response_outputs\": [{\"response\": \"data: {\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"é}\\\"}}]}\"}, {\"text_output\": \"😀\"}, {\"text_output\": \"\"}]} ,\n\t{\"timestamp\": 1500, \"response_timestamps\": [2500, 3500], \"response_outputs\": [{\"text_output\": \"a\"}, {\"text_output\": \"b\"}]} ]},\n {\"experiment\": {\"mode\": \"request_rate\", \"value\": 1.5}},\n {\"requests\": [], \"experiment\": {\"mode\": \"concurrency\", \"value\": 1e0}} ], \"version\": \"0.0.9\"}\n";

#[test]
fn every_two_chunk_cut_of_a_hard_genai_perf_export_reads_the_same() {
    let bytes = HARD_EXPORT.as_bytes();
    let whole = format!("{:?}", parse(Format::GenaiPerfExport, "e.json", bytes));
    assert!(
        whole.starts_with("Ok(") && whole.contains("\"m}{\""),
        "{whole}"
    );
    for cut in 1..=bytes.len() {
        assert_eq!(
            read_in_chunks(
                Format::GenaiPerfExport,
                "e.json",
                bytes,
                &[cut, bytes.len()]
            )
            .as_deref(),
            Some(whole.as_str()),
            "cut at {cut}"
        );
    }
    for sizes in TEST_CHUNKINGS {
        assert_eq!(
            read_in_chunks(Format::GenaiPerfExport, "e.json", bytes, sizes).as_deref(),
            Some(whole.as_str()),
            "chunks of {sizes:?}"
        );
    }
}

#[test]
fn what_the_genai_perf_cutter_does_not_take_gives_way_to_the_whole_reader() {
    let req = r#"{"timestamp": 1, "response_timestamps": [2, 3], "response_outputs": [{"text_output": "a"}, {"text_output": "b"}]}"#;
    let exp = |reqs: &str| {
        format!(r#"{{"experiment": {{"mode": "concurrency", "value": 1}}, "requests": {reqs}}}"#)
    };
    let ok = format!(
        r#"{{"experiments": [{}]}}"#,
        exp(&format!("[{req}, {req}]"))
    );
    assert!(read_in_chunks(Format::GenaiPerfExport, "e.json", ok.as_bytes(), &[5]).is_some());
    let cases = [
        // The last of a repeated key counts in JSON.
        format!(
            r#"{{"experiments": [{}], "experiments": []}}"#,
            exp(&format!("[{req}]"))
        ),
        format!(r#"{{"experiments": [{{"requests": [{req}], "requests": []}}]}}"#),
        // A key spelled with an escape.
        format!(r#"{{"experiments": [{{"requ\u0065sts": [{req}]}}]}}"#),
        // A bare NaN (read leniently by the tree path), a request that is not an object.
        format!(r#"{{"experiments": [{}]}}"#, exp(r#"[{"timestamp": NaN}]"#)),
        format!(r#"{{"experiments": [{}]}}"#, exp("[[1, 2]]")),
        format!(r#"{{"experiments": [{}]}}"#, exp(r#"["a"]"#)),
        // Commas missing, doubled or trailing between requests.
        format!(r#"{{"experiments": [{}]}}"#, exp(&format!("[{req} {req}]"))),
        format!(
            r#"{{"experiments": [{}]}}"#,
            exp(&format!("[{req},, {req}]"))
        ),
        format!(r#"{{"experiments": [{}]}}"#, exp(&format!("[{req},]"))),
        format!(r#"{{"experiments": [{}]}}"#, exp(&format!("[, {req}]"))),
        // Not lists, not objects, text after the root, a cut file, an empty one.
        format!(r#"{{"experiments": {}}}"#, exp("[]")),
        format!(r#"{{"experiments": [{}]}}"#, exp("{}")),
        format!(r#"{{"experiments": [1, {}]}}"#, exp("[]")),
        r#"[{"experiments": []}]"#.to_owned(),
        format!("{ok} x"),
        format!("{ok}{ok}"),
        ok[..ok.len() - 10].to_owned(),
        ok[..ok.len() - 1].to_owned(),
        String::new(),
        "  ".to_owned(),
        format!(r#"{{"experiments": [{}]"#, exp("[]")),
        // Broken JSON outside the requests: the skeleton does not parse.
        format!(
            r#"{{"experiments": [{}], "version": }}"#,
            exp(&format!("[{req}]"))
        ),
        format!(
            r#"{{"experiments": [{}] "version": 1}}"#,
            exp(&format!("[{req}]"))
        ),
    ];
    for text in &cases {
        for sizes in TEST_CHUNKINGS {
            assert_eq!(
                read_in_chunks(Format::GenaiPerfExport, "e.json", text.as_bytes(), sizes),
                None,
                "{text} in chunks of {sizes:?}"
            );
        }
    }
}

mod genai_perf_mutations {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A hard export with a few bytes changed to JSON's structural characters (or cut short),
        /// read in any chunks: the same answer as the whole-file reader, or way given to it —
        /// never a third answer, never a panic.
        #[test]
        fn a_mangled_export_reads_as_the_whole_reader_or_gives_way(
            edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"{}[]\",:\\ 1an".to_vec())), 1..4),
            cut in any::<prop::sample::Index>(),
            shorten in any::<bool>(),
            sizes in prop::collection::vec(1usize..200, 1..4),
        ) {
            let mut bytes = HARD_EXPORT.as_bytes().to_vec();
            for (at, b) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
            if shorten {
                bytes.truncate(cut.index(bytes.len()));
            }
            let whole = format!("{:?}", parse(Format::GenaiPerfExport, "e.json", &bytes));
            if let Some(streamed) = read_in_chunks(Format::GenaiPerfExport, "e.json", &bytes, &sizes) {
                prop_assert_eq!(streamed, whole, "{}", String::from_utf8_lossy(&bytes));
            }
        }
    }
}

#[test]
fn the_genai_perf_fixtures_read_in_any_chunks_as_whole() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/genai-perf");
    let mut streamed_files = 0;
    for name in ["profile_export.json", "bad-records_profile_export.json"] {
        let bytes = std::fs::read(dir.join(name)).expect("fixture");
        let whole = format!("{:?}", parse(Format::GenaiPerfExport, name, &bytes));
        assert!(whole.starts_with("Ok("), "{name}: {whole}");
        for sizes in TEST_CHUNKINGS {
            match read_in_chunks(Format::GenaiPerfExport, name, &bytes, sizes) {
                Some(s) => assert_eq!(s, whole, "{name} in chunks of {sizes:?}"),
                None => panic!("{name} in chunks of {sizes:?}: gave way"),
            }
        }
        streamed_files += 1;
    }
    assert_eq!(streamed_files, 2);
    // A cut file gives way to the whole reader, which says where it ends.
    let cut = std::fs::read(dir.join("truncated_profile_export.json")).expect("fixture");
    for sizes in TEST_CHUNKINGS {
        assert_eq!(
            read_in_chunks(Format::GenaiPerfExport, "t.json", &cut, sizes),
            None,
            "chunks of {sizes:?}"
        );
    }
}

#[test]
fn a_file_that_is_not_read_is_told_what_it_most_resembles_and_what_it_lacks() {
    // An LLMPerf summary cut down to its settings: no `results_*` figure to detect it by.
    let bytes = br#"{"version": "2023-08-31", "name": "x_550_150_summary", "model": "m",
        "num_concurrent_requests": 4, "results_inter_token_latency_s_mean": 0.03}"#;
    let e = parse_any("cut_summary.json", bytes).expect_err("not a benchmark file");
    let text = e.to_string();
    assert!(text.contains("cut_summary.json"), "{text}");
    assert!(text.contains("it looks most like LLMPerf"), "{text}");
    assert!(
        text.contains("num_concurrent_requests"),
        "what it has: {text}"
    );
    assert!(
        text.contains("results_ttft_s_mean"),
        "what it lacks: {text}"
    );
    assert!(text.contains("docs/formats.md"), "{text}");
    // Nothing like any format: no guess.
    let e = parse_any("n.json", br#"{"colour": "blue"}"#).expect_err("not a benchmark file");
    assert!(!e.to_string().contains("looks most like"), "{e}");
}

#[test]
fn a_key_in_a_file_reaches_no_parsed_field_nor_error() {
    let key = "sk-proj-abcdefghijklmnop123456";
    let bytes = format!(r#"{{"token": "{key}", "note": "Authorization: Bearer {key}"}}"#);
    let e = parse_any("k.json", bytes.as_bytes()).expect_err("not a benchmark file");
    assert!(!e.to_string().contains(key), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/vllm/detailed-small.json"
        ))
        .expect("fixture"),
    )
    .expect("JSON");
    v["base_url"] = serde_json::json!(format!("http://h/v1?api_key={key}"));
    v["errors"][0] = serde_json::json!(format!("Incorrect API key provided: {key}"));
    let p = parse_any("v.json", v.to_string().as_bytes()).expect("read");
    let all = format!("{p:?}");
    assert!(!all.contains(key), "the key is in {all}");
    assert!(all.contains("api_key=[redacted]"), "{all}");
}

#[test]
fn the_signature_scan_finds_a_needle_wherever_a_slice_comparison_does() {
    // Against the plain reading: a comparison at every offset.
    let naive = |h: &[u8], n: &[u8]| n.is_empty() || h.windows(n.len()).any(|w| w == n);
    let hay = b"aab\"mean_ttft_ms\": 1, aaab \"ttfts\": [] aa";
    for needle in [
        &b""[..],
        b"a",
        b"aab",
        b"aaab",
        b"\"ttfts\"",
        b"aa",
        b" aa",
        b"mean_ttft_ms\":",
        b"mean_tpot_ms",
        b"aaaa",
        b"aa aa",
        b"x",
    ] {
        assert_eq!(
            super::contains(hay, needle),
            naive(hay, needle),
            "{:?}",
            String::from_utf8_lossy(needle)
        );
    }
    assert!(!super::contains(b"ab", b"abc"));
    assert!(!super::contains(b"", b"a"));
}

#[test]
fn an_aiperf_trials_files_name_their_repeat() {
    use super::common::{aiperf_trial, with_trial};
    for (path, want) in [
        (
            "out/profile_runs/run_0002/profile_export_aiperf.json",
            Some(2),
        ),
        (
            "profile_runs/trial_0003/concurrency_10/profile_export.jsonl",
            Some(3),
        ),
        (
            "concurrency_10/profile_runs/trial_0001/profile_export_aiperf.csv",
            Some(1),
        ),
        (
            r"C:\out\profile_runs\run_0004\profile_export_aiperf.json",
            Some(4),
        ),
        ("runs/run_0001/profile_export_aiperf.json", None),
        ("profile_runs/run_/profile_export_aiperf.json", None),
        ("profile_runs/run_01x/profile_export_aiperf.json", None),
        ("profile_export_aiperf.json", None),
    ] {
        assert_eq!(aiperf_trial(path), want, "{path}");
    }
    assert_eq!(
        with_trial("AIPerf · m".into(), "a/profile_runs/run_0002/x.json"),
        "AIPerf · m · run=2"
    );
    assert_eq!(with_trial("AIPerf · m".into(), "a/x.json"), "AIPerf · m");
}
