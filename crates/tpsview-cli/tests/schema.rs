//! `summarize --json` against docs/summarize.schema.json: every key the CLI writes is declared
//! there with its type, and every required key is written — with and without `--slo` and a price,
//! on raw, summary-only and sweep files. The checker below reads the subset of JSON Schema the
//! file uses (type, required, properties, additionalProperties, items, enum, oneOf, $ref,
//! minimum, maximum); a schema using more fails the test rather than passing unchecked.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("docs/summarize.schema.json"))
        .expect("docs/summarize.schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

const KNOWN: [&str; 14] = [
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "enum",
    "oneOf",
    "minimum",
];

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        other => panic!("type {other} not read by this checker"),
    }
}

/// The problems of `v` against schema `s` (`root` resolves `$ref`), each with its path.
fn check(root: &Value, s: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
    let s = s.as_object().expect("a schema is an object");
    for k in s.keys() {
        assert!(
            KNOWN.contains(&k.as_str()) || k == "maximum",
            "keyword {k} not read by this checker"
        );
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local refs only");
        check(root, &root["$defs"][name], v, at, out);
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts
                .iter()
                .any(|t| type_ok(t.as_str().expect("type names"), v)),
            _ => panic!("type must be a string or a list"),
        };
        if !ok {
            out.push(format!("{at}: {v} is not {t}"));
            return;
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            out.push(format!("{at}: {v} not in {e:?}"));
        }
    }
    if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < min {
            out.push(format!("{at}: {x} < {min}"));
        }
    }
    if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), v.as_f64()) {
        if x > max {
            out.push(format!("{at}: {x} > {max}"));
        }
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
        let fits = one
            .iter()
            .filter(|o| {
                let mut e = Vec::new();
                check(root, o, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if fits != 1 {
            out.push(format!("{at}: fits {fits} of oneOf"));
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !obj.contains_key(r.as_str().expect("required names")) {
                out.push(format!("{at}: missing {r}"));
            }
        }
        for (k, x) in obj {
            match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
                (Some(ps), _) => check(root, ps, x, &format!("{at}.{k}"), out),
                (None, Some(Value::Bool(false))) => out.push(format!("{at}: undeclared key {k}")),
                (None, Some(extra @ Value::Object(_))) => {
                    check(root, extra, x, &format!("{at}.{k}"), out)
                }
                _ => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (s.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            check(root, items, x, &format!("{at}[{i}]"), out);
        }
    }
}

fn summarize(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .current_dir(root())
        .args(["summarize", "--json"])
        .args(args)
        .output()
        .expect("the tpsview binary runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn summarize_json_follows_its_schema() {
    let s = schema();
    let cases: [&[&str]; 16] = [
        &[
            "public/samples/h100-llama70b-fp8.tpsview.json",
            "--steady-state",
        ],
        // Sessions, reasoning, the first visible token and the prefix cache (issue 43).
        &["tests/fixtures/sessions/two-sessions.tpsview.json"],
        &["tests/fixtures/sessions/profile_export.jsonl"],
        // Each level's intervals (a p99 over too few requests says why it has none).
        &[
            "public/samples/h100-llama70b-fp8.tpsview.json",
            "--intervals",
        ],
        &[
            "tests/fixtures/vllm/goodput-ttft250-tpot33.json",
            "--slo",
            "ttft_ms=250,tpot_ms=33",
            "--gpu-hour-usd",
            "2.5",
            "--gpus",
            "1",
        ],
        &[
            "tests/fixtures/vllm/summary-only-c16.json",
            "--slo",
            "tpot_p99_ms=50,ttft_ms=300",
            "--gpu-hour-usd",
            "1",
            "--gpus",
            "8",
        ],
        &[
            "tests/fixtures/llama-bench/threads-sweep.json",
            "--slo",
            "tpot_mean_ms=1000",
        ],
        &[
            "tests/fixtures/genai-perf/profile_export_genai_perf.json",
            "--slo",
            "e2e_p99_ms=100000",
        ],
        // A real bench run with the server's metrics, and a real AIPerf summary with energy.
        &["tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json"],
        &["tests/fixtures/aiperf/telemetry-c4_profile_export_aiperf.json"],
        // AIPerf's companion exports joined to their records; llm-d's and GenAI-Perf's own.
        &["tests/fixtures/aiperf/companions-c4"],
        // AIPerf's statistics of the server: a summary's level, and two replicas' (nulls).
        &["tests/fixtures/aiperf/server-stats-c8"],
        &["tests/fixtures/aiperf/server-stats-json-c4"],
        &["tests/fixtures/llm-d/observed-c8_benchmark_report.yaml"],
        &["tests/fixtures/genai-perf/telemetry_genai_perf.json"],
        // A real sweep of three repeats: each level's figures over them.
        &[
            "tests/wild/vllm-sweep/yifanzhang-pro-FlashSampling-1",
            "--intervals",
        ],
    ];
    for args in cases {
        if !root().join(args[0]).exists() {
            panic!("fixture {} is gone: name another", args[0]);
        }
        let v = summarize(args);
        let mut problems = Vec::new();
        check(&s, &s, &v, "$", &mut problems);
        assert!(problems.is_empty(), "{args:?}: {problems:#?}");
        assert!(!v["runs"].as_array().unwrap().is_empty());
    }
}

#[test]
fn a_level_with_the_servers_metrics_follows_the_schema() {
    // The built-in example with a server series put on its second level (as `tpsview bench
    // --server-metrics` writes it): one metric missing in a poll, one never reported.
    let text =
        std::fs::read_to_string(root().join("public/samples/h100-llama70b-fp8.tpsview.json"))
            .expect("sample");
    let mut v: Value = serde_json::from_str(&text).expect("json");
    v["runs"][0]["points"][1]["server"] = serde_json::json!({
        "source": "http://127.0.0.1:8080/metrics",
        "t_s": [0.0, 0.25, 0.5, 100.0],
        "values": { "running": [16.0, 16.0, null, 16.0], "generation_tokens_total": [0.0, 100.0, 200.0, 9000.0] }
    });
    let dir = std::env::temp_dir().join(format!("tpsview-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("server.tpsview.json");
    std::fs::write(&file, v.to_string()).expect("write");
    let out = summarize(&[&file.to_string_lossy()]);
    let server = &out["runs"][0]["points"][1]["server"];
    assert!(server.is_object(), "the level's server figures are written");
    assert!(
        server["tokens_per_decode_step"].is_null()
            && server["undefined"]["tokens_per_decode_step"].is_string()
    );
    assert!(
        out["runs"][0]["points"][0].get("server").is_none(),
        "absent without metrics"
    );
    let s = schema();
    let mut problems = Vec::new();
    check(&s, &s, &out, "$", &mut problems);
    assert!(problems.is_empty(), "{problems:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_checker_finds_an_undeclared_key_a_wrong_type_and_a_missing_key() {
    let s = schema();
    let mut v = summarize(&[
        "tests/fixtures/vllm/goodput-ttft250-tpot33.json",
        "--slo",
        "ttft_ms=250",
    ]);
    v["runs"][0]["points"][0]["slo"]["surprise"] = Value::from(1);
    v["runs"][0]["points"][0]["system_tps"] = Value::from("fast");
    v["runs"][0].as_object_mut().unwrap().remove("label");
    let mut problems = Vec::new();
    check(&s, &s, &v, "$", &mut problems);
    assert_eq!(problems.len(), 3, "{problems:#?}");
}
