//! Secrets a file carries (API keys, bearer tokens, `Authorization` headers, `--api-key …`,
//! `api_key=…`, keys in URLs) reach no output: keys are planted in each place the readers keep
//! text from — a vLLM result's string fields and a failed request's error, an AIPerf summary's
//! command line and endpoint, an LLMPerf summary's name, an unread file's keys — and every command that
//! writes something (summarize, its JSON, convert to tpsview/1 and to Parquet, compare,
//! validate, the HTML report) is searched for them, stdout, stderr and files alike.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

const KEYS: [&str; 6] = [
    "sk-proj-PLANTEDa1b2c3d4e5f6g7h8i9j0",
    "hf_PLANTEDabcdefghijklmnop12345",
    "PLANTEDbearer0123456789abcdef",
    "PLANTEDflag0123456789abcdef",
    "PLANTEDquery0123456789abcdef",
    "PLANTEDurlpass0123456789",
];

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join("tests/fixtures").join(rel)).expect("fixture");
    serde_json::from_str(&text).expect("JSON fixture")
}

fn planted_files(dir: &Path) -> Vec<String> {
    let [sk, hf, bearer, flag, query, pass] = KEYS;
    // vLLM: string fields it keeps as the run's labels, and a failed request's error text.
    let mut v = fixture("vllm/detailed-small.json");
    v["api_key"] = json!(sk);
    v["base_url"] = json!(format!("https://me:{pass}@llm.example/v1?api_key={query}"));
    v["command"] = json!(format!(
        "vllm bench serve --api-key {flag} --header 'Authorization: Bearer {bearer}'"
    ));
    let errors = v["errors"].as_array_mut().expect("errors");
    errors[0] = json!(format!(
        "401 Unauthorized: Incorrect API key provided: {sk}"
    ));
    std::fs::write(dir.join("vllm-c2.json"), v.to_string()).expect("write");
    // AIPerf: the command line and the endpoint it ran against.
    let mut a = fixture("aiperf/profile_export_aiperf.json");
    a["input_config"]["cli_command"] = json!(format!(
        "aiperf profile -m x --api-key {flag} --header Authorization:Bearer {bearer} HF_TOKEN={hf}"
    ));
    a["input_config"]["endpoint"]["urls"] =
        json!([format!("http://h:8000/v1?key={query}&token={sk}")]);
    std::fs::write(dir.join("profile_export_aiperf.json"), a.to_string()).expect("write");
    // LLMPerf: the run's own name (kept as a label) and the model.
    let mut l = fixture("llmperf/minimal_summary.json");
    l["name"] = json!(format!("run api_key={sk}"));
    std::fs::write(dir.join("llmperf_summary.json"), l.to_string()).expect("write");
    // One that is not a benchmark: what it looked like is quoted in the error.
    std::fs::write(
        dir.join("notes.json"),
        format!("{{\"token\": \"{sk}\", \"x\": 1}}"),
    )
    .expect("write");
    [
        "vllm-c2.json",
        "profile_export_aiperf.json",
        "llmperf_summary.json",
        "notes.json",
    ]
    .iter()
    .map(|f| dir.join(f).to_string_lossy().into_owned())
    .collect()
}

fn assert_clean(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for k in KEYS {
        assert!(!text.contains(k), "{what} carries the planted key {k}");
    }
}

#[test]
fn a_planted_key_reaches_no_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = planted_files(dir.path());
    let out_dir = dir.path().join("out");
    let bundle = dir.path().join("bundle.tpsview.json");
    let report = dir.path().join("report.html");
    let runs: Vec<Vec<String>> = vec![
        vec![
            "report".into(),
            "--static".into(),
            "-o".into(),
            report.to_string_lossy().into(),
        ],
        vec!["summarize".into()],
        vec!["summarize".into(), "--json".into()],
        vec!["validate".into()],
        vec!["compare".into(), "--json".into()],
        vec![
            "convert".into(),
            "--to".into(),
            "tpsview".into(),
            "-o".into(),
            bundle.to_string_lossy().into(),
        ],
        vec![
            "convert".into(),
            "--to".into(),
            "parquet".into(),
            "-o".into(),
            out_dir.to_string_lossy().into(),
        ],
    ];
    let mut read_some = false;
    for args in runs {
        // A conversion stops at a file it cannot read: the three benchmark files alone.
        let inputs = if args[0] == "convert" {
            &files[..3]
        } else {
            &files[..]
        };
        let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
            .args(&args)
            .args(inputs)
            .output()
            .expect("tpsview runs");
        let what = args.join(" ");
        assert_clean(&format!("`{what}` stdout"), &out.stdout);
        assert_clean(&format!("`{what}` stderr"), &out.stderr);
        read_some |= args == ["summarize", "--json"]
            && String::from_utf8_lossy(&out.stdout).contains("[redacted]");
    }
    assert!(
        read_some,
        "the files were read and their secrets masked (not left out)"
    );
    let mut written = 0;
    for f in std::fs::read_dir(&out_dir)
        .expect("parquet written")
        .flatten()
    {
        assert_clean(
            &f.path().display().to_string(),
            &std::fs::read(f.path()).expect("read"),
        );
        written += 1;
    }
    assert!(written >= 2, "points.parquet and requests.parquet");
    assert_clean(
        "the tpsview/1 bundle",
        &std::fs::read(&bundle).expect("bundle written"),
    );
    let html = std::fs::read(&report).expect("report written");
    assert_clean("the HTML report", &html);
    assert!(String::from_utf8_lossy(&html).contains("[redacted]"));
}
