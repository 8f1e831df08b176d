//! The `tpsview` binary on fixtures: the --json contract, exit codes, conversion round trips,
//! validation messages and the reproducible seed example.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(p: &str) -> String {
    root()
        .join("tests/fixtures")
        .join(p)
        .to_string_lossy()
        .into_owned()
}

fn tpsview(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .args(args)
        .output()
        .expect("runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn summarize_json_follows_the_contract() {
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        &fixture("vllm/detailed-small.json"),
    ]));
    let run = &v["runs"][0];
    assert_eq!(run["source_format"], "vllm-bench-serve");
    assert_eq!(run["model"], "meta-llama/Llama-3.1-8B-Instruct");
    assert!(run["label"].is_string());
    let p = &run["points"][0];
    for key in [
        "concurrency",
        "requests_ok",
        "requests_failed",
        "output_tokens",
        "duration_s",
        "system_tps",
        "per_stream_tps",
        "reported",
        "discrepancies",
    ] {
        assert!(p.get(key).is_some(), "missing {key}");
    }
    for dist in ["tpot_ms", "ttft_ms", "itl_ms", "e2e_ms"] {
        for stat in ["mean", "p50", "p90", "p99"] {
            assert!(p[dist].get(stat).is_some(), "missing {dist}.{stat}");
        }
    }
    assert_eq!(p["concurrency"], 2.0);
    assert_eq!(p["request_rate"], "inf");
    assert_eq!(p["requests_ok"], 4);
    assert_eq!(p["requests_failed"], 1);
    assert_eq!(p["output_tokens"], 10);
    let sys = p["system_tps"].as_f64().unwrap();
    assert!((sys - 10.0 / 0.34).abs() < 1e-9, "unrounded: {sys}");
    assert_eq!(p["reported"]["mean_tpot_ms"], 41.111111111111114);
    assert_eq!(p["discrepancies"].as_array().unwrap().len(), 0);
}

#[test]
fn summary_only_points_have_null_where_nothing_applies() {
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        &fixture("vllm/summary-only-c16.json"),
    ]));
    let p = &v["runs"][0]["points"][0];
    assert_eq!(p["basis"], "reported");
    assert_eq!(p["system_tps"], 720.0);
    assert!(p["tpot_ms"]["p90"].is_null());
    assert!(p["gap"].is_null());
}

#[test]
fn discrepancies_carry_metric_values_and_cause() {
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        &fixture("vllm/detailed-discrepant.json"),
    ]));
    let d = v["runs"][0]["points"][0]["discrepancies"]
        .as_array()
        .unwrap()
        .clone();
    let tpot = d
        .iter()
        .find(|d| d["metric"] == "tpot_mean_ms")
        .expect("tpot flagged");
    assert_eq!(tpot["reported"], 45.0);
    assert!(tpot["recomputed"].as_f64().unwrap() < 42.0);
    assert!(tpot["likely_cause"]
        .as_str()
        .unwrap()
        .contains("token counts"));
}

#[test]
fn files_of_one_run_become_one_run_sorted_by_concurrency() {
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        &fixture("vllm/summary-only-c16.json"),
        &fixture("vllm/append-result.json"),
    ]));
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "same engine, model and label");
    let levels: Vec<f64> = runs[0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["concurrency"].as_f64().unwrap())
        .collect();
    assert_eq!(levels, vec![1.0, 4.0, 16.0]);
}

#[test]
fn table_explains_the_gap() {
    let out = tpsview(&[
        "summarize",
        &root()
            .join("public/samples/h100-llama70b-fp8.tpsview.json")
            .to_string_lossy(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("at 64: 64 streams ×"), "{text}");
    assert!(text.contains("concurrency shortfall"), "{text}");
}

#[test]
fn convert_round_trips_every_figure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.tpsview.json");
    let src = fixture("vllm/detailed-discrepant.json");
    let status = tpsview(&["convert", &src, "-o", &out.to_string_lossy()]);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let a = json(&tpsview(&["summarize", "--json", &src]));
    let b = json(&tpsview(&["summarize", "--json", &out.to_string_lossy()]));
    let (pa, pb) = (&a["runs"][0]["points"][0], &b["runs"][0]["points"][0]);
    for key in [
        "system_tps",
        "per_stream_tps",
        "tpot_ms",
        "ttft_ms",
        "itl_ms",
        "e2e_ms",
        "requests_ok",
        "requests_failed",
        "discrepancies",
        "reported",
    ] {
        assert_eq!(pa[key], pb[key], "{key}");
    }
}

#[test]
fn validate_lists_problems_with_file_field_and_index() {
    let out = tpsview(&["validate", &fixture("vllm/negative-times.json")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("negative-times.json: warning: field `ttft`, request 1"),
        "{text}"
    );
    assert!(text.contains("field `itls`, request 0"), "{text}");
    let ok = tpsview(&["validate", &fixture("vllm/detailed-small.json")]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
}

#[test]
fn bad_input_exits_1_and_names_the_file() {
    let out = tpsview(&["summarize", &fixture("vllm/truncated.json")]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("truncated.json") && err.contains("line 1 column"),
        "{err}"
    );
    let out = tpsview(&["summarize", &fixture("vllm/csv-instead.json")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("none of the 38 supported formats reads it"));
    let out = tpsview(&["summarize", "/nonexistent/file.json"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn one_bad_file_among_good_ones_still_summarises_the_good() {
    let out = tpsview(&[
        "summarize",
        "--json",
        &fixture("vllm/truncated.json"),
        &fixture("vllm/detailed-small.json"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(tpsview(&["summarize"]).status.code(), Some(2));
    assert_eq!(tpsview(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        tpsview(&["summarize", "--format", "nope", "x.json"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn simulate_reproduces_the_committed_seed_example() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seed.json");
    assert!(tpsview(&["simulate", "-o", &out.to_string_lossy()])
        .status
        .success());
    let fresh = std::fs::read(&out).unwrap();
    let committed =
        std::fs::read(root().join("public/samples/h100-llama70b-fp8.tpsview.json")).unwrap();
    assert!(fresh == committed, "public/samples is stale: regenerate it with `tpsview simulate -o public/samples/h100-llama70b-fp8.tpsview.json`");
}

#[test]
fn chart_writes_an_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.svg");
    let st = tpsview(&[
        "chart",
        &fixture("vllm/append-result.json"),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("system T/s"));
    let st = tpsview(&[
        "chart",
        &fixture("vllm/append-result.json"),
        "--kind",
        "latency",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(st.status.success());
    assert!(std::fs::read_to_string(&out).unwrap().contains("TPOT"));
}

#[test]
fn docs_formats_md_holds_the_generated_mapping_tables() {
    let out = tpsview(&["formats", "--markdown"]);
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let doc = std::fs::read_to_string(root().join("docs/formats.md")).unwrap();
    let begin = "<!-- begin: tpsview formats --markdown -->\n";
    let start = doc.find(begin).expect("begin marker") + begin.len();
    let end = doc
        .find("<!-- end: tpsview formats --markdown -->")
        .expect("end marker");
    assert!(
        doc[start..end] == generated,
        "docs/formats.md is stale: regenerate its last section with `tpsview formats --markdown`"
    );
    // Every format is listed by `tpsview formats`.
    let list = String::from_utf8(tpsview(&["formats"]).stdout).unwrap();
    for id in [
        "genai-perf-export",
        "aiperf-records",
        "llama-bench",
        "guidellm",
        "llmperf",
    ] {
        assert!(list.contains(id), "{list}");
    }
}

#[test]
fn summarize_pairs_a_tools_files_and_reports_a_discrepancy() {
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        &fixture("genai-perf/profile_export.json"),
        &fixture("genai-perf/discrepant-retokenized_genai_perf.json"),
    ]));
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
    let p = &v["runs"][0]["points"][0];
    assert_eq!(p["reported_tool"], "genai-perf");
    let d = p["discrepancies"].as_array().unwrap();
    assert!(d
        .iter()
        .any(|d| d["tool_metric"] == "inter_token_latency.avg"
            && d["likely_cause"].as_str().unwrap().contains("re-tokenizes")));
    // The table names the tool's figure and the cause.
    let out = tpsview(&[
        "summarize",
        &fixture("genai-perf/profile_export.json"),
        &fixture("genai-perf/discrepant-retokenized_genai_perf.json"),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("inter_token_latency.avg"), "{text}");
}

#[test]
fn a_llama_bench_sweep_s_table_names_its_swept_parameter_not_concurrency() {
    // The threads sweep's levels are n_threads values (the file's own), not concurrencies.
    let f = fixture("llama-bench/threads-sweep.json");
    let v = json(&tpsview(&["summarize", "--json", &f]));
    let axis = v["runs"][0]["axis"].as_str().expect("a swept parameter");
    let out = tpsview(&["summarize", &f]);
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text.lines().nth(1).expect("a header");
    assert!(header.trim_start().starts_with(axis), "{header}");
    assert!(!header.contains("conc"), "{header}");
    // A concurrency sweep keeps "conc".
    let out = tpsview(&["summarize", &fixture("genai-perf/profile_export.json")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .trim_start()
            .starts_with("conc"),
        "{text}"
    );
}

#[test]
fn format_override_reads_a_file_as_the_named_format() {
    // Detection says SGLang; forced as vLLM the same arrays load under vLLM's names.
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--format",
        "vllm-bench-serve",
        &fixture("sglang/bench-serving-details.jsonl"),
    ]));
    assert_eq!(v["runs"][0]["source_format"], "vllm-bench-serve");
    let bad = tpsview(&[
        "summarize",
        "--format",
        "nope",
        &fixture("sglang/one-batch.jsonl"),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("llama-bench"));
}

#[test]
fn validate_names_bad_records_in_every_format() {
    for (file, needle) in [
        ("aiperf/broken-lines.jsonl", "line 6"),
        ("trtllm/bad-records-requests.json", "request 4"),
        ("llmperf/broken_individual_responses.json", "field `[4]`"),
        (
            "guidellm/bad-requests.json",
            "benchmarks[1].requests.output_tokens",
        ),
    ] {
        let out = tpsview(&["validate", &fixture(file)]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(needle), "{file}: {text}");
    }
}

#[test]
fn compare_json_gives_ratios_marks_interpolation_and_normalises_per_gpu() {
    let before = fixture("compare/before.tpsview.json");
    let after = fixture("compare/after.tpsview.json");
    let v = json(&tpsview(&["compare", "--json", &before, &after]));
    assert_eq!(v["baseline"], "before: vLLM 0.11 defaults");
    let rows = v["runs"][0]["rows"].as_array().unwrap();
    let cell = |level: f64, metric: &str| {
        rows.iter().find(|r| r["concurrency"] == level).unwrap()["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metric"] == metric)
            .unwrap()
            .clone()
    };
    let c = cell(16.0, "system_tps");
    assert_eq!(c["interpolated"], false);
    assert!((c["ratio"].as_f64().unwrap() - 1250.0 / 1100.0).abs() < 1e-12);
    // 8 lies halfway between 4 and 16 on log2: the baseline is (340 + 1100) / 2.
    let c = cell(8.0, "system_tps");
    assert_eq!(c["interpolated"], true);
    assert!((c["baseline"].as_f64().unwrap() - 720.0).abs() < 1e-9);
    assert!(
        cell(128.0, "system_tps")["ratio"].is_null(),
        "no extrapolation"
    );
    // Per GPU: the second file has no GPU count until one is given.
    let v = json(&tpsview(&[
        "compare",
        "--json",
        "--per-gpu",
        &before,
        &after,
    ]));
    assert_eq!(
        v["missing_gpu_count"][0],
        "after: <i>chunked prefill</i>, max_num_seqs 256"
    );
    let v = json(&tpsview(&[
        "compare",
        "--json",
        "--per-gpu",
        "--gpus",
        "after: <i>chunked prefill</i>, max_num_seqs 256=2",
        &before,
        &after,
    ]));
    let c = &v["runs"][0]["rows"][2]["cells"][0];
    assert_eq!(c["metric"], "system_tps");
    assert!((c["value"].as_f64().unwrap() - 625.0).abs() < 1e-9);
    // The same file twice is one run, as `summarize` and the viewer group it: nothing to compare,
    // said so; named apart with --run-name it is two runs, equal at every level.
    let out = tpsview(&["compare", "--json", &before, &before]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the files make 1 run"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = format!("{before}=first");
    let v = json(&tpsview(&[
        "compare",
        "--json",
        &before,
        "--run-name",
        &first,
        &after,
    ]));
    assert_eq!(v["baseline"], "first");
    let before_copy =
        std::env::temp_dir().join(format!("tpsview-before-{}.json", std::process::id()));
    std::fs::copy(&before, &before_copy).unwrap();
    let copy = before_copy.to_string_lossy().into_owned();
    let named = format!("{copy}=copy");
    let v = json(&tpsview(&[
        "compare",
        "--json",
        "--run-name",
        &first,
        "--run-name",
        &named,
        &before,
        &copy,
    ]));
    std::fs::remove_file(&before_copy).ok();
    assert_eq!(v["baseline"], "first");
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
    assert_eq!(v["runs"][0]["label"], "copy");
    assert!(
        (v["runs"][0]["rows"][0]["cells"][0]["ratio"]
            .as_f64()
            .unwrap()
            - 1.0)
            .abs()
            < 1e-12
    );
}

/// Two runs with one label and different models: `compare` names them by id, `--baseline` by
/// label is refused as ambiguous (exit 2, the ids listed), by id it is taken, and `--gpus` names a
/// run the same way.
#[test]
fn compare_tells_runs_with_one_label_apart_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("compare/before.tpsview.json")).unwrap();
    let qwen = dir.path().join("qwen.json");
    std::fs::write(&qwen, text.replace("Llama-3.1-8B", "Qwen3-8B")).unwrap();
    let (llama, qwen) = (
        fixture("compare/before.tpsview.json"),
        qwen.to_string_lossy().into_owned(),
    );
    let label = "before: vLLM 0.11 defaults";
    let v = json(&tpsview(&["compare", "--json", &llama, &qwen]));
    assert_eq!(v["baseline"], format!("{label} · Llama-3.1-8B"));
    assert_eq!(v["runs"][0]["label"], format!("{label} · Qwen3-8B"));
    let o = tpsview(&["compare", "--baseline", label, &llama, &qwen]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 runs have that label") && err.contains("· Qwen3-8B"),
        "{err}"
    );
    let id = format!("{label} · Qwen3-8B");
    let gpus = format!("{id}=2");
    let v = json(&tpsview(&[
        "compare",
        "--json",
        "--per-gpu",
        "--baseline",
        &id,
        "--gpus",
        &gpus,
        &llama,
        &qwen,
    ]));
    assert_eq!(v["baseline"], id.as_str());
    // Llama's metadata says 1 GPU, Qwen's copy too, but the user's 2 wins for Qwen: at every
    // level Llama's per-GPU system T/s is twice Qwen's (the files are otherwise the same).
    let c = &v["runs"][0]["rows"][0]["cells"][0];
    assert_eq!(c["metric"], "system_tps");
    assert!((c["ratio"].as_f64().unwrap() - 2.0).abs() < 1e-12, "{c}");
    let o = tpsview(&["compare", "--gpus", "nobody=2", &llama, &qwen]);
    assert_eq!(o.status.code(), Some(2));
}

/// The stub server's process, killed when dropped (a failed assertion does not leave it running).
struct Stub(std::process::Child);

impl Stub {
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts the hidden stub server on a free port; returns it and its URL.
fn stub_server(interval_ms: &str) -> (Stub, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .args(["stub-server", "--port", "0", "--interval-ms", interval_ms])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("stub starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("listening line")
        .to_owned();
    (Stub(child), url)
}

/// `tpsview bench` against `url` (model `stub`) at `concurrency`, `requests` per level of
/// `tokens` each, written to `out`, with `extra` arguments.
fn bench(
    url: &str,
    concurrency: &str,
    requests: &str,
    tokens: &str,
    out: &std::path::Path,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "bench",
        "--url",
        url,
        "--model",
        "stub",
        "--concurrency",
        concurrency,
        "--requests-per-level",
        requests,
        "--max-tokens",
        tokens,
        "-o",
        out.to_str().expect("a UTF-8 path"),
    ];
    args.extend_from_slice(extra);
    tpsview(&args)
}

#[test]
fn bench_writes_a_report_summarize_reads_back() {
    let (mut stub, url) = stub_server("5");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bench.json");
    let o = bench(&url, "1,4", "8", "12", &out, &[]);
    stub.kill();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("client overhead:"), "{stderr}");
    let v = json(&tpsview(&["summarize", "--json", out.to_str().unwrap()]));
    let run = &v["runs"][0];
    assert_eq!(run["meta"]["engine"], "tpsview-stub");
    assert!(run["meta"]["labels"]["command"]
        .as_str()
        .unwrap()
        .contains("bench"));
    assert!(run["meta"]["date"].as_str().unwrap().ends_with('Z'));
    assert_eq!(
        run["meta"]["labels"]["finish_reasons"],
        "concurrency 1: stop 8; concurrency 4: stop 8"
    );
    for p in run["points"].as_array().unwrap() {
        assert_eq!(p["requests_ok"], 8);
        assert_eq!(p["output_tokens"], 8 * 12);
        // The stub sends a chunk every 5 ms: TPOT is measured as that or later — its ticks come
        // late, never early, when the machine is busy (tests in parallel, another process on a
        // core: 9.4 ms was seen so), so the upper bound is loose.
        let tpot = p["tpot_ms"]["mean"].as_f64().unwrap();
        assert!((4.0..25.0).contains(&tpot), "{tpot}");
    }
    assert_eq!(
        tpsview(&["validate", out.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn bench_repeat_writes_a_run_per_repeat_and_summarize_gives_their_interval() {
    let (mut stub, url) = stub_server("5");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bench.json");
    let o = bench(&url, "1,4", "8", "12", &out, &["--repeat", "3"]);
    stub.kill();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("Over the repeats"), "{stdout}");
    // The file itself: three runs, each the whole sweep, each with its own date.
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let runs = file["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    let mut dates = Vec::new();
    // Each repeat's system T/s per level, from its requests: output tokens over first send to
    // last end (every stub request succeeds).
    let mut tps: Vec<Vec<f64>> = Vec::new();
    for (k, r) in runs.iter().enumerate() {
        assert_eq!(
            r["label"],
            format!("stub · tpsview-stub · repeat={}", k + 1)
        );
        assert_eq!(r["meta"]["labels"]["repeats"], "3");
        dates.push(r["meta"]["date"].as_str().unwrap().to_owned());
        let points = r["points"].as_array().unwrap();
        assert_eq!(points.len(), 2);
        tps.push(
            points
                .iter()
                .map(|p| {
                    let col = |name: &str| -> Vec<f64> {
                        p["requests"][name]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|x| x.as_f64().unwrap())
                            .collect()
                    };
                    let (start, e2e, outs) = (col("start_s"), col("e2e_s"), col("output_tokens"));
                    let first = start.iter().copied().fold(f64::INFINITY, f64::min);
                    let last = (0..start.len())
                        .map(|i| start[i] + e2e[i])
                        .fold(f64::NEG_INFINITY, f64::max);
                    outs.iter().sum::<f64>() / (last - first)
                })
                .collect(),
        );
    }
    assert!(dates.windows(2).all(|w| w[0] <= w[1]), "{dates:?}");
    // summarize --intervals: each level's values over the three, their mean and t interval.
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--intervals",
        out.to_str().unwrap(),
    ]));
    for (j, p) in v["runs"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let rep = &p["repeats"];
        assert_eq!(rep["setup"], "stub · tpsview-stub");
        let f = &rep["figures"]["system_tps"];
        let values: Vec<f64> = f["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let want: Vec<f64> = tps.iter().map(|r| r[j]).collect();
        for (a, b) in values.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-9 * b, "level {j}: {a} vs {b}");
        }
        let mean = want.iter().sum::<f64>() / 3.0;
        let s = (want.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
        // t(0.995, 2 df) = 9.925, from a printed table.
        let half = 9.925 * s / 3f64.sqrt();
        let lo = f["interval"][0].as_f64().unwrap();
        assert!(
            (lo - (mean - half)).abs() <= 1e-4 * half + 1e-9,
            "{lo} vs {}",
            mean - half
        );
        // Every repeat's level carries the same.
        for r in 1..3 {
            assert_eq!(&v["runs"][r]["points"][j]["repeats"], rep);
        }
    }
    assert!(
        tpsview(&["bench", "--url", &url, "--model", "m", "--repeat", "0", "-o", "x.json"])
            .status
            .code()
            == Some(2)
    );
}

#[test]
fn aiperf_trials_read_as_repeats_and_its_aggregate_is_left_out() {
    // The layout AIPerf's multi-run mode writes (`--num-profile-runs 3`, its code and tests:
    // `profile_runs/run_NNNN/`, `aggregate/profile_export_aiperf_aggregate.json`), each trial a
    // copy of a real summary with its own output token throughput.
    let dir = tempfile::tempdir().unwrap();
    let base: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("aiperf/profile_export_aiperf.json")).unwrap(),
    )
    .unwrap();
    let tps = [95.1, 97.4, 93.8];
    for (k, t) in tps.iter().enumerate() {
        let trial = dir.path().join(format!("profile_runs/run_{:04}", k + 1));
        std::fs::create_dir_all(&trial).unwrap();
        let mut v = base.clone();
        v["output_token_throughput"]["avg"] = serde_json::json!(t);
        std::fs::write(trial.join("profile_export_aiperf.json"), v.to_string()).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("aggregate")).unwrap();
    std::fs::write(
        dir.path().join("aggregate/profile_export_aiperf_aggregate.json"),
        r#"{"metadata": {"aggregation_type": "confidence", "num_profile_runs": 3, "num_successful_runs": 3, "confidence_level": 0.95},
            "metrics": {"output_token_throughput_avg": {"mean": 95.43, "std": 1.82, "ci_low": 90.9, "ci_high": 99.9, "t_critical": 4.303, "unit": "tokens/sec"}}}"#,
    )
    .unwrap();
    let o = tpsview(&[
        "summarize",
        "--json",
        "--intervals",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "profile_export_aiperf_aggregate.json: skipped: AIPerf's aggregate over the trials"
        ),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for (k, r) in runs.iter().enumerate() {
        assert!(
            r["label"]
                .as_str()
                .unwrap()
                .ends_with(&format!(" · run={}", k + 1)),
            "{}",
            r["label"]
        );
    }
    let f = &runs[0]["points"][0]["repeats"]["figures"]["system_tps"];
    let values: Vec<f64> = f["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(values, tps);
    let mean = tps.iter().sum::<f64>() / 3.0;
    let s = (tps.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    // t(0.995, 2 df) = 9.925, from a printed table.
    let hi = f["interval"][1].as_f64().unwrap();
    assert!((hi - (mean + 9.925 * s / 3f64.sqrt())).abs() < 1e-3, "{hi}");
}

#[test]
fn bench_polls_the_servers_metrics_and_summarize_audits_them() {
    // The stub reports llama.cpp's names: requests streaming now, and every chunk sent as one
    // token and one decode call (it does not batch).
    let (mut stub, url) = stub_server("5");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bench.json");
    // A poll may take no longer than the interval; on a loaded machine (CI keeps a core busy) the
    // stub can miss one, which the bench says, and which moves the counters' boundary polls. Such
    // a run is not what this test checks: it is run again, up to three times in all.
    let mut stderr = String::new();
    for _ in 0..3 {
        let o = bench(
            &url,
            "1,4",
            "12",
            "40",
            &out,
            &["--server-metrics", "--server-metrics-interval-ms", "100"],
        );
        stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{stderr}");
        if !stderr.contains("polls of the server's metrics failed") {
            break;
        }
    }
    stub.kill();
    assert!(
        !stderr.contains("polls of the server's metrics failed"),
        "{stderr}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let v = json(&tpsview(&["summarize", "--json", out.to_str().unwrap()]));
    for (i, level) in [1.0, 4.0].into_iter().enumerate() {
        let stored = &report["runs"][0]["points"][i]["server"];
        assert_eq!(stored["source"], format!("{url}/metrics"));
        let polls = stored["t_s"].as_array().unwrap().len();
        // 480 ms of streaming at 4, 1.9 s at 1; a poll every 100 ms, and one after each end.
        assert!(polls >= 4, "{polls} polls at {level}");
        let s = &v["runs"][0]["points"][i]["server"];
        assert_eq!(s["source"], format!("{url}/metrics"));
        let running = &s["running"];
        assert!(running["max"].as_f64().unwrap() <= level, "{running}");
        // Every chunk is a decode call: one token each, exactly.
        assert_eq!(s["tokens_per_decode_step"], 1.0, "{s}");
        // The stub's counter counts the very tokens the client received, over the same window.
        let (server, client) = (
            s["generation_tps"].as_f64().unwrap(),
            v["runs"][0]["points"][i]["system_tps"].as_f64().unwrap(),
        );
        assert_eq!(s["client_system_tps"].as_f64(), Some(client));
        assert!(
            (server - client).abs() / client < 0.01,
            "server {server} client {client}"
        );
        assert_eq!(s["audit"], serde_json::Value::Null, "{s}");
    }
    // At 4 the server ran about 4 most of the time; at 1, never more than 1.
    let at4 = v["runs"][0]["points"][1]["server"]["running"]["mean"]
        .as_f64()
        .unwrap();
    assert!(at4 > 2.5, "running mean at 4: {at4}");
}

#[test]
fn a_missing_slow_or_foreign_metrics_endpoint_is_said_and_the_bench_goes_on() {
    let (mut stub, url) = stub_server("2");
    let dir = tempfile::tempdir().unwrap();
    for (path, said) in [
        ("/metrics/none", "HTTP 404"),
        ("/metrics/html", "not Prometheus text"),
        ("/metrics/slow", "timed out"),
    ] {
        let out = dir.path().join("bench.json");
        let endpoint = format!("{url}{path}");
        let o = bench(
            &url,
            "2",
            "6",
            "20",
            &out,
            &[
                "--server-metrics",
                &endpoint,
                "--server-metrics-interval-ms",
                "50",
            ],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{path}: {stderr}");
        assert!(
            stderr.contains("polls of the server's metrics failed") && stderr.contains(said),
            "{path}: {stderr}"
        );
        // The level is there, with its requests and no server series.
        let v = json(&tpsview(&["summarize", "--json", out.to_str().unwrap()]));
        let p = &v["runs"][0]["points"][0];
        assert_eq!(p["requests_ok"], 6, "{path}");
        assert!(p.get("server").is_none(), "{path}: {p}");
    }
    stub.kill();
}

#[test]
fn ctrl_c_writes_what_finished_and_exits_cleanly() {
    let (mut stub, url) = stub_server("10");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("partial.json");
    let mut bench = Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .args([
            "bench",
            "--url",
            &url,
            "--model",
            "stub",
            "--concurrency",
            "2,4",
            "--requests-per-level",
            "1000",
            "--max-tokens",
            "10",
            "-o",
            out.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &bench.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = bench.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "bench did not stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    stub.kill();
    assert_eq!(status.code(), Some(130));
    let v = json(&tpsview(&["summarize", "--json", out.to_str().unwrap()]));
    let p = &v["runs"][0]["points"][0];
    let ok = p["requests_ok"].as_u64().unwrap();
    assert!(ok > 0 && ok < 1000, "{ok}");
    assert_eq!(
        p["requests_failed"], 0,
        "unfinished requests are not recorded as failures"
    );
    assert!(v["runs"][0]["meta"]["labels"]["interrupted"].is_string());
}

/// A vLLM summary-only result for one level of a sweep, as `vllm bench serve` writes one file per
/// `--max-concurrency`: output tokens/s given, everything else plausible.
fn vllm_level(model: &str, concurrency: u32, output_tps: f64) -> String {
    format!(
        r#"{{"date": "20261130-101500", "backend": "vllm", "label": null, "model_id": "{model}",
        "num_prompts": 100, "request_rate": "inf", "max_concurrency": {concurrency}, "duration": 10.0,
        "completed": 100, "failed": 0, "total_input_tokens": 1000, "total_output_tokens": {tokens},
        "request_throughput": 10.0, "output_throughput": {output_tps}, "mean_ttft_ms": 50.0,
        "median_ttft_ms": 50.0, "p99_ttft_ms": 90.0, "mean_tpot_ms": 20.0, "median_tpot_ms": 20.0,
        "p99_tpot_ms": 25.0, "mean_itl_ms": 20.0, "median_itl_ms": 20.0, "p99_itl_ms": 30.0,
        "mean_e2el_ms": 1000.0, "median_e2el_ms": 1000.0, "p99_e2el_ms": 1500.0}}"#,
        tokens = output_tps * 10.0
    )
}

#[test]
fn compare_groups_per_level_files_into_runs_as_summarize_does() {
    let dir = tempfile::tempdir().unwrap();
    let levels = [1u32, 16, 64, 128];
    // Sweep a: 50 T/s per stream-ish; sweep b: 10 % more at every level.
    let a_tps = [50.0, 700.0, 2200.0, 3500.0];
    let mut files = Vec::new();
    for (sweep, model, scale) in [("a", "org/model-a", 1.0), ("b", "org/model-b", 1.1)] {
        let sub = dir.path().join(sweep);
        std::fs::create_dir(&sub).unwrap();
        // Not a benchmark file: a directory argument skips it with a note.
        std::fs::write(sub.join("notes.json"), r#"{"hello": "world"}"#).unwrap();
        std::fs::write(sub.join("plot.png"), b"\x89PNG").unwrap();
        for (k, c) in levels.iter().enumerate() {
            let path = sub.join(format!("{sweep}-c{c}.json"));
            std::fs::write(&path, vllm_level(model, *c, a_tps[k] * scale)).unwrap();
            files.push(path.to_string_lossy().into_owned());
        }
    }
    let check = |v: &serde_json::Value| {
        assert_eq!(v["baseline"], "vllm · org/model-a");
        let runs = v["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1, "one compared run: {v}");
        assert_eq!(runs[0]["label"], "vllm · org/model-b");
        let rows = runs[0]["rows"].as_array().unwrap();
        let got: Vec<f64> = rows
            .iter()
            .map(|r| r["concurrency"].as_f64().unwrap())
            .collect();
        assert_eq!(got, vec![1.0, 16.0, 64.0, 128.0]);
        for (k, r) in rows.iter().enumerate() {
            let cell = &r["cells"][0];
            assert_eq!(cell["metric"], "system_tps");
            assert_eq!(cell["interpolated"], false);
            assert_eq!(cell["baseline"].as_f64().unwrap(), a_tps[k]);
            assert!(
                (cell["ratio"].as_f64().unwrap() - 1.1).abs() < 1e-12,
                "{cell}"
            );
        }
    };
    // Every file named.
    let mut args = vec!["compare", "--json"];
    args.extend(files.iter().map(String::as_str));
    let summarized = json(&tpsview(&{
        let mut a = vec!["summarize", "--json"];
        a.extend(files.iter().map(String::as_str));
        a
    }));
    assert_eq!(summarized["runs"].as_array().unwrap().len(), 2);
    check(&json(&tpsview(&args)));
    // The two directories.
    let (a, b) = (
        dir.path().join("a").to_string_lossy().into_owned(),
        dir.path().join("b").to_string_lossy().into_owned(),
    );
    let out = tpsview(&["compare", "--json", &a, &b]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("notes.json"),
        "the skipped file is named"
    );
    check(&json(&out));
    // --baseline picks the other run; an unknown label is a usage error naming the runs.
    let v = json(&tpsview(&[
        "compare",
        "--json",
        "--baseline",
        "vllm · org/model-b",
        &a,
        &b,
    ]));
    assert_eq!(v["baseline"], "vllm · org/model-b");
    let r = v["runs"][0]["rows"][0]["cells"][0]["ratio"]
        .as_f64()
        .unwrap();
    assert!((r - 1.0 / 1.1).abs() < 1e-12, "{r}");
    let out = tpsview(&["compare", "--baseline", "nope", &a, &b]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("vllm · org/model-a") && err.contains("vllm · org/model-b"),
        "{err}"
    );
    // A directory with no benchmark file at all is an error.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = tpsview(&["summarize", &empty.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no benchmark file inside"));
}

/// The `--json` contracts, byte for byte: every case of tests/golden/cases.jsonl (every fixture's
/// `summarize --json`, the pairs, the samples, `compare --json`) against the output recorded before
/// the vocabulary refactor (tests/golden/README.md), with the same exit status.
#[test]
fn json_outputs_are_byte_identical_to_the_recorded_contract() {
    let golden = root().join("tests/golden");
    let cases = std::fs::read_to_string(golden.join("cases.jsonl")).expect("cases");
    let mut covered = std::collections::BTreeSet::new();
    let mut n = 0;
    for line in cases.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a case");
        let name = case["name"].as_str().expect("name");
        let args: Vec<&str> = case["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_str().expect("an argument"))
            .collect();
        covered.extend(args.iter().map(|a| a.to_string()));
        let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
            .args(&args)
            .current_dir(root())
            .output()
            .expect("runs");
        let want = std::fs::read(golden.join(format!("{name}.json"))).expect("recorded output");
        assert_eq!(
            out.status.code(),
            case["code"].as_i64().map(|c| c as i32),
            "{name}: exit status"
        );
        if out.stdout != want {
            let (got, want) = (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&want),
            );
            let at = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            panic!(
                "{name}: output differs from the recorded contract at line {}:\n  got:  {:?}\n  want: {:?}",
                at + 1,
                got.lines().nth(at),
                want.lines().nth(at)
            );
        }
        n += 1;
    }
    assert!(n >= 60, "{n} cases");
    // Every fixture file has its case, so a new fixture cannot slip past the contract.
    let mut missing = Vec::new();
    for dir in std::fs::read_dir(root().join("tests/fixtures")).expect("fixtures") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("fixture dir") {
            let p = f.expect("entry").path();
            let rel = p
                .strip_prefix(root())
                .expect("under root")
                .to_string_lossy()
                .into_owned();
            if p.extension().is_some_and(|e| e != "py" && e != "md") && !covered.contains(&rel) {
                missing.push(rel);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fixtures without a recorded case: {missing:?}"
    );
}

/// `summarize --slo`: each level's attainment equals the share of its requests whose own TTFT and
/// TPOT meet the targets, computed here from the sample's request columns; the run's capacity is
/// the fastest level that meets the SLO; a bad target is a usage error naming the part.
#[test]
fn summarize_slo_adds_attainment_goodput_met_and_capacity() {
    let sample = root().join("public/samples/h100-llama70b-fp8.tpsview.json");
    let sample = sample.to_str().unwrap();
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--slo",
        "ttft_ms=500,tpot_ms=50,attainment=0.9",
        sample,
    ]));
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample).unwrap()).unwrap();
    let run = &v["runs"][0];
    let mut best: Option<(f64, f64)> = None;
    for (k, p) in raw["runs"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let r = &p["requests"];
        let col = |name: &str| -> Vec<f64> {
            r[name]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let (ttft, e2e, out) = (col("ttft_s"), col("e2e_s"), col("output_tokens"));
        let good = (0..ttft.len())
            .filter(|&i| {
                let tpot_ok = out[i] < 2.0 || (e2e[i] - ttft[i]) / (out[i] - 1.0) * 1e3 <= 50.0;
                ttft[i] * 1e3 <= 500.0 && tpot_ok
            })
            .count();
        let point = &run["points"][k];
        let want = good as f64 / ttft.len() as f64;
        assert_eq!(
            point["slo"]["attainment"].as_f64().unwrap(),
            want,
            "level {k}"
        );
        let d = point["duration_s"].as_f64().unwrap();
        assert!((point["slo"]["goodput_rps"].as_f64().unwrap() - good as f64 / d).abs() < 1e-9);
        let met = want >= 0.9;
        assert_eq!(point["slo"]["met"], met, "level {k}");
        let sys = point["system_tps"].as_f64().unwrap();
        if met && best.is_none_or(|b| sys > b.1) {
            best = Some((point["concurrency"].as_f64().unwrap(), sys));
        }
    }
    let (c, s) = best.expect("a level meets it");
    assert_eq!(run["slo_capacity"]["concurrency"], c);
    assert_eq!(run["slo_capacity"]["system_tps"], s);
    // Nothing meets an impossible target: capacity null.
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--slo",
        "ttft_ms=0.001",
        sample,
    ]));
    assert!(v["runs"][0]["slo_capacity"].is_null());
    // Without --slo the contract is unchanged: no such keys.
    let v = json(&tpsview(&["summarize", "--json", sample]));
    assert!(v["runs"][0].get("slo_capacity").is_none());
    assert!(v["runs"][0]["points"][0].get("slo").is_none());
    for bad in ["tpot_p97_ms=50", "ttft_ms=-1", "foo=1"] {
        let o = tpsview(&["summarize", "--slo", bad, sample]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(bad), "{bad}");
    }
}

/// `--gpu-hour-usd`: USD per million output tokens = price × GPUs ÷ (system T/s × 3,600) × 10⁶ at
/// every level; a run without a GPU count needs --gpus (exit 2 names the run); bad prices exit 2.
#[test]
fn summarize_prices_a_million_tokens_from_a_gpu_hour() {
    let sample = root().join("public/samples/h100-llama70b-fp8.tpsview.json");
    let sample = sample.to_str().unwrap();
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--gpu-hour-usd",
        "2.5",
        sample,
    ]));
    // The sample states one GPU.
    for p in v["runs"][0]["points"].as_array().unwrap() {
        let sys = p["system_tps"].as_f64().unwrap();
        let want = 2.5 * 1.0 / (sys * 3600.0) * 1e6;
        let got = p["usd_per_million_output_tokens"].as_f64().unwrap();
        assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    }
    let one = fixture("vllm/summary-only-c16.json");
    let o = tpsview(&["summarize", "--json", "--gpu-hour-usd", "2.5", &one]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give --gpus N"));
    // 720 T/s on 4 GPUs at 2.5 USD: 10 USD/h over 2.592 M tokens/h.
    let v = json(&tpsview(&[
        "summarize",
        "--json",
        "--gpu-hour-usd",
        "2.5",
        "--gpus",
        "4",
        &one,
    ]));
    let got = v["runs"][0]["points"][0]["usd_per_million_output_tokens"]
        .as_f64()
        .unwrap();
    assert!((got - 10.0 / 2.592).abs() < 1e-9, "{got}");
    for bad in [["--gpu-hour-usd", "-1"], ["--gpus", "0"]] {
        let o = tpsview(&["summarize", bad[0], bad[1], &one]);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
    // Without a price, no such key.
    let v = json(&tpsview(&["summarize", "--json", &one]));
    assert!(v["runs"][0]["points"][0]
        .get("usd_per_million_output_tokens")
        .is_none());
}

/// A vLLM file big enough to be read as it arrives (4 MB or more: a second thread reads 1 MB
/// chunks, the gap rows split over both cores) gives what the core's whole-file reader gives.
#[test]
fn a_big_file_read_as_it_arrives_summarizes_as_the_whole_file_reader_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 17-digit numbers, so that chunk edges fall inside numbers; ~7 MB.
    let text = tpsview_core::synthetic::vllm_detailed(300, 1_000, 11, true);
    assert!(text.len() > 5 << 20, "{} bytes", text.len());
    let path = dir.path().join("big.json");
    std::fs::write(&path, &text).expect("writes");
    let name = path.to_string_lossy().into_owned();
    let out = tpsview(&["summarize", "--json", &name]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole = tpsview_core::parse_any(&name, text.as_bytes()).expect("parses");
    let expect = serde_json::to_string_pretty(&tpsview_core::summarize(
        vec![whole],
        &tpsview_core::MetricOptions::default(),
    ))
    .expect("json");
    // As text: the contract is byte-identical output (serde_json's default float parser can read
    // a printed 17-digit figure one last place off, so parsed values are not compared).
    assert_eq!(String::from_utf8_lossy(&out.stdout), expect + "\n");
    // Cut short: the streamed reader gives way, and the message is the whole-file reader's.
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &text.as_bytes()[..text.len() - 100_000]).expect("writes");
    let cut_name = cut.to_string_lossy().into_owned();
    let out = tpsview(&["summarize", "--json", &cut_name]);
    assert_eq!(out.status.code(), Some(1));
    let err = tpsview_core::parse_any(&cut_name, &text.as_bytes()[..text.len() - 100_000])
        .expect_err("truncated");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&err.to_string()),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Record files big enough to be read as they arrive (AIPerf's JSON lines, LLMPerf's array of
/// responses, a GenAI-Perf export's requests: whole records cut as they complete) give what the
/// core's whole-file reader gives — and so does one cut short, which the streamed reader hands to
/// the whole-file reader.
#[test]
fn big_record_files_read_as_they_arrive_summarize_as_the_whole_file_reader_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut aiperf = String::new();
    let mut llmperf = String::from("[");
    // Two experiments, the second's requests a third of them.
    let mut genai = String::from(
        "{\"experiments\": [{\"experiment\": {\"mode\": \"concurrency\", \"value\": 8}, \"requests\": [",
    );
    for i in 0..24_000u64 {
        // Escapes and braces inside strings, 17-digit numbers, failures now and then.
        let ttft = 50.0 + (i % 97) as f64 * 1.234_567_890_123_456_7;
        let e2e = ttft + 400.0 + (i % 13) as f64 * 17.5;
        aiperf.push_str(&format!(
            "{{\"metadata\": {{\"request_start_ns\": {}, \"x_request_id\": \"r{i} {{\\\"}}\"}}, \"metrics\": {{\"time_to_first_token\": {{\"value\": {ttft}, \"unit\": \"ms\"}}, \"request_latency\": {{\"value\": {e2e}, \"unit\": \"ms\"}}, \"output_sequence_length\": {{\"value\": {}}}, \"input_sequence_length\": {{\"value\": 128}}}}}}\n",
            1_764_000_000_000_000_000 + i * 7_000_001,
            20 + i % 50
        ));
        if i > 0 {
            llmperf.push_str(",\n");
        }
        let error = if i % 101 == 0 { "429" } else { "null" };
        llmperf.push_str(&format!(
            "{{\"error_code\": {error}, \"error_msg\": \"{{[é]}}\", \"inter_token_latency_s\": 0.0{}, \"ttft_s\": {}, \"end_to_end_latency_s\": {}, \"number_input_tokens\": 550, \"number_output_tokens\": {}}}",
            30 + i % 9,
            ttft / 1e3,
            e2e / 1e3,
            100 + i % 60
        ));
    }
    llmperf.push(']');
    for i in 0..3_600u64 {
        let sep = match i {
            0 => "",
            2_400 => {
                "]}, {\"experiment\": {\"mode\": \"concurrency\", \"value\": 16}, \"requests\": ["
            }
            _ => ",\n ",
        };
        let sent = 1_764_000_000_000_000_000 + i * 9_000_001;
        let stamps: Vec<String> = (0..24 + i % 7)
            .map(|k| (sent + 150_000_000 + k * (20_000_000 + i % 5 * 1_000)).to_string())
            .collect();
        let outputs: Vec<&str> = (0..stamps.len())
            .map(|k| match k {
                0 => r#"{"response": "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}"}"#,
                _ if k % 5 == 0 => r#"{"response": "data: {\"choices\":[{\"delta\":{\"content\":\"{[é}] \\\"x\\\"\"}}]}"}"#,
                _ => r#"{"response": "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}"}"#,
            })
            .collect();
        genai.push_str(&format!(
            "{sep}{{\"timestamp\": {sent}, \"request_inputs\": {{\"payload\": \"{{\\\"model\\\": \\\"m-{{}}\\\", \\\"stream\\\": true}}\"}}, \"response_timestamps\": [{}], \"response_outputs\": [{}]}}",
            stamps.join(", "),
            outputs.join(", ")
        ));
    }
    genai.push_str("]}], \"version\": \"0.0.9\"}\n");
    for (file, text) in [
        ("big_profile_export.jsonl", aiperf),
        ("big_individual_responses.json", llmperf),
        ("big_profile_export.json", genai),
    ] {
        assert!(text.len() > 4 << 20, "{file}: {} bytes", text.len());
        let cut_at = text.len() - 1_000;
        for (name, bytes) in [
            (file.to_owned(), text.as_bytes()),
            (format!("cut-{file}"), &text.as_bytes()[..cut_at]),
        ] {
            let path = dir.path().join(&name);
            std::fs::write(&path, bytes).expect("writes");
            let name = path.to_string_lossy().into_owned();
            let out = tpsview(&["summarize", "--json", &name]);
            let whole = tpsview_core::parse_any(&name, bytes);
            match whole {
                Ok(parsed) => {
                    assert!(
                        out.status.success(),
                        "{name}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    let expect = serde_json::to_string_pretty(&tpsview_core::summarize(
                        vec![parsed],
                        &tpsview_core::MetricOptions::default(),
                    ))
                    .expect("json");
                    assert_eq!(
                        String::from_utf8_lossy(&out.stdout),
                        expect + "\n",
                        "{name}"
                    );
                }
                Err(e) => {
                    assert_eq!(out.status.code(), Some(1), "{name}");
                    assert!(
                        String::from_utf8_lossy(&out.stderr).contains(&e.to_string()),
                        "{name}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            }
        }
    }
}

/// Every row of a Parquet file, as (column, value) pairs.
fn parquet_rows(path: &std::path::Path) -> Vec<Vec<(String, parquet::record::Field)>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let file = std::fs::File::open(path).expect("a Parquet file");
    let reader = SerializedFileReader::new(file).expect("Parquet");
    reader
        .get_row_iter(None)
        .expect("rows")
        .map(|r| {
            r.expect("a row")
                .get_column_iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .collect()
}

/// `convert --to parquet FILE -o OUT`, and the rows of its points table.
fn points_parquet(file: &str, out: &std::path::Path) -> Vec<Vec<(String, parquet::record::Field)>> {
    let run = tpsview(&[
        "convert",
        "--to",
        "parquet",
        "-o",
        out.to_str().expect("a UTF-8 path"),
        file,
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    parquet_rows(&out.join("points.parquet"))
}

/// `convert --to parquet` of a bench run with the server's metrics: its figures per level, equal
/// to `summarize --json`'s (whose values the recorded case checks against the file's arrays).
#[test]
fn parquet_carries_the_servers_figures_per_level() {
    use parquet::record::Field;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    let file = root().join("tests/fixtures/tpsview-bench/llamacpp-4slots-server-metrics.json");
    let file = file.to_str().unwrap();
    let rows = points_parquet(file, &out);
    let v = json(&tpsview(&["summarize", "--json", file]));
    let levels = v["runs"][0]["points"].as_array().unwrap();
    assert_eq!(rows.len(), levels.len());
    for (row, level) in rows.iter().zip(levels) {
        let get = |k: &str| {
            row.iter()
                .find(|(n, _)| n == k)
                .unwrap_or_else(|| panic!("no column {k}"))
                .1
                .clone()
        };
        let s = &level["server"];
        for (col, want) in [
            ("server_running_mean", &s["running"]["mean"]),
            ("server_running_max", &s["running"]["max"]),
            ("server_waiting_max", &s["waiting"]["max"]),
            ("server_generation_tps", &s["generation_tps"]),
            (
                "server_tokens_per_decode_step",
                &s["tokens_per_decode_step"],
            ),
            ("server_difference_pct", &s["difference_pct"]),
        ] {
            assert_eq!(get(col), Field::Double(want.as_f64().unwrap()), "{col}");
        }
        // llama.cpp reports no KV-cache usage: null, never 0.
        assert_eq!(get("server_kv_cache_usage_mean"), Field::Null);
        // Nor, in this file, its cached prompt tokens: no hit rate, null.
        assert_eq!(get("server_prefix_cache_hit_rate"), Field::Null);
    }
    // A real AIPerf summary with GPU telemetry: its energy, as summarize --json writes it.
    let aiperf = root().join("tests/fixtures/aiperf/telemetry-c4_profile_export_aiperf.json");
    let aiperf = aiperf.to_str().unwrap();
    let row = points_parquet(aiperf, &dir.path().join("energy")).remove(0);
    let e = &json(&tpsview(&["summarize", "--json", aiperf]))["runs"][0]["points"][0]["energy"];
    let get = |k: &str| row.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(
        get("joules_per_output_token"),
        Some(Field::Double(
            e["joules_per_output_token"].as_f64().unwrap()
        ))
    );
    assert_eq!(
        get("energy_basis"),
        Some(Field::Str("energy counter".into()))
    );
    assert_eq!(
        get("server_running_mean"),
        None,
        "no server columns without server metrics"
    );
}

/// `convert --to parquet`: a row per request, a failed request's times are nulls (never 0), an
/// undefined figure is a null; the SLO and price options belong to Parquet output and are checked.
/// (scripts/parquet-duckdb.sh reads the same tables with DuckDB and recomputes the figures.)
#[test]
fn convert_to_parquet_writes_points_and_requests_with_nulls_for_undefined() {
    use parquet::record::Field;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    let vllm = root().join("tests/fixtures/vllm/detailed-small.json");
    let llmperf =
        root().join("tests/fixtures/llmperf/llama-3-8b_550_150_individual_responses.json");
    let (vllm, llmperf) = (vllm.to_str().unwrap(), llmperf.to_str().unwrap());
    let args = [
        "convert",
        "--to",
        "parquet",
        "-o",
        out.to_str().unwrap(),
        vllm,
        llmperf,
    ];
    let run = tpsview(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let rows = |name: &str| parquet_rows(&out.join(name));
    let get = |row: &[(String, Field)], key: &str| {
        row.iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no column {key}"))
            .1
            .clone()
    };
    // The fixtures' own request lists, counted here.
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(vllm).unwrap()).unwrap();
    let l: serde_json::Value = serde_json::from_slice(&std::fs::read(llmperf).unwrap()).unwrap();
    let n_vllm = v["ttfts"].as_array().unwrap().len();
    let n_llmperf = l.as_array().unwrap().len();
    let requests = rows("requests.parquet");
    assert_eq!(requests.len(), n_vllm + n_llmperf);
    let failed: Vec<_> = requests
        .iter()
        .filter(|r| get(r, "status") == Field::Str("failed".into()))
        .collect();
    let errors = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.as_str().is_some_and(|e| !e.is_empty()))
        .count();
    assert!(errors > 0 && failed.len() >= errors);
    for r in &failed {
        assert_eq!(get(r, "ok"), Field::Bool(false));
        assert_eq!(
            get(r, "ttft_s"),
            Field::Null,
            "a failed request has no TTFT"
        );
        assert!(matches!(get(r, "error"), Field::Str(_)));
    }
    // LLMPerf's responses have no send times: start_s is null, and so is the level's system T/s.
    let points = rows("points.parquet");
    let lp = points
        .iter()
        .find(|p| get(p, "source_format") == Field::Str("llmperf-responses".into()))
        .expect("the LLMPerf level");
    assert_eq!(get(lp, "system_tps"), Field::Null);
    assert!(matches!(get(lp, "ttft_mean_ms"), Field::Double(x) if x > 0.0));
    assert!(points.iter().all(|p| p.iter().all(|(k, _)| k != "slo_met")));
    // vLLM's request_rate "inf" (all at once) is +∞, not a null.
    let vp = points
        .iter()
        .find(|p| get(p, "source_format") == Field::Str("vllm-bench-serve".into()))
        .expect("the vLLM level");
    assert_eq!(get(vp, "request_rate"), Field::Double(f64::INFINITY));
    // The SLO and price are Parquet columns; for a tpsview/1 report they are a usage error.
    let file = dir.path().join("one.json");
    let bad = tpsview(&[
        "convert",
        "--slo",
        "ttft_ms=200",
        "-o",
        file.to_str().unwrap(),
        vllm,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--to parquet"));
    assert!(!file.exists());
    let bad = tpsview(&[
        "convert",
        "--to",
        "parquet",
        "--slo",
        "ttft_ms=fast",
        "-o",
        out.to_str().unwrap(),
        vllm,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--slo"));
}

/// The `output_throughput` the sweep fixture's Python wrote in a run file.
fn sweep_file_tps(exp: &std::path::Path, seqs: u32, c: f64, repeat: u32) -> f64 {
    let file = exp.join(format!(
        "SERVE--max_num_seqs={seqs}-BENCH--max_concurrency={c}/run={repeat}.json"
    ));
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("run file")).expect("JSON");
    written["output_throughput"].as_f64().expect("a number")
}

/// The run labels of a `summarize --json` output.
fn run_labels(v: &serde_json::Value) -> Vec<String> {
    v["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| r["label"].as_str().expect("a label").to_owned())
        .collect()
}

/// A `vllm bench sweep serve` experiment directory (tests/fixtures/vllm-sweep, laid out as vLLM
/// lays it out): a run per server setting and repeat, levels by concurrency, each run=N.json read
/// once (summary.json, warmup.json and summary.csv repeat them and are skipped with a note), the
/// failed repeat a warning naming its file and error; every level's system T/s equals the figure
/// the fixture's Python wrote for it.
#[test]
fn a_vllm_sweep_directory_becomes_runs_by_setting_and_repeat() {
    let exp = root().join("tests/fixtures/vllm-sweep/exp-20261130");
    let out = tpsview(&["summarize", "--json", exp.to_str().unwrap()]);
    let v = json(&out);
    let labels = run_labels(&v);
    assert_eq!(
        labels,
        [
            "vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=0",
            "vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=1",
            "vllm · Qwen/Qwen3-8B · max_num_seqs=16 · run=0",
            "vllm · Qwen/Qwen3-8B · max_num_seqs=16 · run=1",
        ]
    );
    for run in v["runs"].as_array().unwrap() {
        let label = run["label"].as_str().unwrap();
        let (seqs, repeat) = if label.contains("seqs=8 ") {
            (8, 0)
        } else {
            (16, 0)
        };
        let repeat = if label.ends_with("run=1") { 1 } else { repeat };
        let levels: Vec<f64> = run["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["concurrency"].as_f64().unwrap())
            .collect();
        // max_num_seqs=16's second repeat at concurrency 4 failed.
        let want: &[f64] = if (seqs, repeat) == (16, 1) {
            &[1.0]
        } else {
            &[1.0, 4.0]
        };
        assert_eq!(levels, want, "{label}");
        assert_eq!(run["meta"]["labels"]["max_num_seqs"], format!("{seqs}"));
        for p in run["points"].as_array().unwrap() {
            let c = p["concurrency"].as_f64().unwrap();
            let want = sweep_file_tps(&exp, seqs, c, repeat);
            let got = p["system_tps"].as_f64().unwrap();
            assert!(
                (got - want).abs() < 1e-9 * want,
                "{label} at {c}: {got} vs {want}"
            );
            assert!(
                p["discrepancies"].as_array().unwrap().is_empty(),
                "{label} at {c}"
            );
            assert!(
                !p["reported"]
                    .as_object()
                    .unwrap()
                    .contains_key("max_num_seqs"),
                "an override is not one of the tool's figures"
            );
        }
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("run=1.failure.json: warning: field `error`: run 1 of this setting failed (RuntimeError: Server <died> during benchmark)"), "{err}");
    assert_eq!(err.matches("summary.json: skipped").count(), 4, "{err}");
    assert!(
        err.contains("warmup.json: skipped: the sweep's warm-up run"),
        "{err}"
    );
    assert!(err.contains("summary.csv: skipped"), "{err}");
    // The experiment's summary.csv alone: the same runs and levels, each level's system T/s the
    // run file's output_throughput (the setting is the column that varies, max_num_seqs).
    let csv = exp.join("summary.csv");
    let v = json(&tpsview(&["summarize", "--json", csv.to_str().unwrap()]));
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(run_labels(&v), labels);
    for run in runs {
        let label = run["label"].as_str().unwrap();
        let seqs = if label.contains("seqs=8 ") { 8 } else { 16 };
        let repeat = if label.ends_with("run=1") { 1 } else { 0 };
        for p in run["points"].as_array().unwrap() {
            let c = p["concurrency"].as_f64().unwrap();
            let want = sweep_file_tps(&exp, seqs, c, repeat);
            let got = p["system_tps"].as_f64().unwrap();
            assert!((got - want).abs() < 1e-9 * want, "csv {label} at {c}");
        }
    }
    // A combination's summary.json alone (vLLM writes it as an array): the same two repeats.
    let comb = exp.join("SERVE--max_num_seqs=8-BENCH--max_concurrency=4/summary.json");
    let v = json(&tpsview(&["summarize", "--json", comb.to_str().unwrap()]));
    assert_eq!(
        run_labels(&v),
        [
            "vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=0",
            "vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=1"
        ]
    );
}

/// `--slo file`: the targets an MLPerf run's logs state (its scenario's p99 limits) are applied;
/// files stating different ones are a usage error naming each with its runs.
#[test]
fn slo_file_applies_the_targets_the_files_state() {
    let acme = root().join("tests/fixtures/mlperf/closed/Acme");
    let server = acme.join("results/h200x8_vllm/llama2-70b-99/Server");
    let out = tpsview(&[
        "summarize",
        "--json",
        "--slo",
        "file",
        server.to_str().unwrap(),
    ]);
    let v = json(&out);
    let p = &v["runs"][0]["points"][0];
    // The fixture's p99s (ns in the summary) against its limits (2000 ms, 200 ms), read here.
    let text =
        std::fs::read_to_string(server.join("performance/run_1/mlperf_log_summary.txt")).unwrap();
    let p99 = |key: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.rsplit(':').next())
            .and_then(|x| x.trim().parse::<f64>().ok())
            .unwrap()
            / 1e6
    };
    let met = p99("99.00 percentile first token latency (ns)") <= 2000.0
        && p99("99.00 percentile time to output token (ns)") <= 200.0;
    assert_eq!(p["slo"]["met"], serde_json::json!(met));
    let both = tpsview(&["summarize", "--slo", "file", acme.to_str().unwrap()]);
    assert_eq!(both.status.code(), Some(2));
    let err = String::from_utf8_lossy(&both.stderr);
    assert!(
        err.contains("the files state different targets: tpot_p99_ms=200,ttft_p99_ms=2000 (llama2-70b-99 · Server · h200x8_vllm); tpot_p99_ms=40,ttft_p99_ms=450 (llama2-70b-interactive-99 · Interactive · h200x8_vllm)"),
        "{err}"
    );
    let none = root().join("tests/fixtures/vllm/detailed-small.json");
    let none = tpsview(&["summarize", "--slo", "file", none.to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(2));
}

/// `tpsview probe` on this machine's CPU, short: the report is tpsview/1 that `summarize` reads,
/// the batch its axis, and batch 8's system T/s exceeds batch 1's (one weight read serves 8
/// streams); CUDA without a GPU build and GPU dtypes on the CPU are clear errors.
#[test]
fn a_short_cpu_probe_shows_the_batching_effect() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probe.json");
    let out_s = out.to_str().unwrap();
    let run = tpsview(&[
        "probe",
        "--weights-mb",
        "64",
        "--batch",
        "1,8",
        "--steps",
        "5",
        "-o",
        out_s,
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v = json(&tpsview(&["summarize", "--json", out_s]));
    let run = &v["runs"][0];
    assert_eq!(run["meta"]["labels"]["backend"], "cpu");
    assert_eq!(run["meta"]["labels"]["dtype"], "f32");
    // Power: read from RAPL where this machine lets it, else said — and then no energy figure.
    let power = run["meta"]["labels"]["power"].as_str().expect("power said");
    let energies: Vec<bool> = run["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.get("energy").is_some())
        .collect();
    if power.starts_with("not readable: ") {
        assert!(energies.iter().all(|e| !e), "{power}");
    } else {
        assert!(power.starts_with("RAPL "), "{power}");
        assert!(energies.iter().any(|e| *e), "{power}");
    }
    assert!(
        run["meta"]["labels"]["bandwidth_gbs"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
            > 0.0
    );
    let points = run["points"].as_array().unwrap();
    let at = |b: f64| {
        points
            .iter()
            .find(|p| p["concurrency"].as_f64() == Some(b))
            .unwrap_or_else(|| panic!("batch {b}"))
    };
    let (one, eight) = (at(1.0), at(8.0));
    let s1 = one["system_tps"].as_f64().unwrap();
    let s8 = eight["system_tps"].as_f64().unwrap();
    assert!(
        s8 > s1,
        "system T/s at 8 ({s8}) must exceed that at 1 ({s1})"
    );
    // Per-stream T/s is 1 / median step, the step its TPOT: the two agree.
    let ps = eight["per_stream_tps"].as_f64().unwrap();
    let tpot = eight["tpot_ms"]["p50"].as_f64().unwrap();
    assert!((ps * tpot / 1e3 - 1.0).abs() < 1e-9);
    let cuda = tpsview(&["probe", "--backend", "cuda", "-o", out_s]);
    assert_eq!(cuda.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&cuda.stderr).contains("--backend cuda"));
    // fp8 asks for the GPU first, like every CUDA dtype (no GPU in CI: the same message).
    let fp8 = tpsview(&["probe", "--backend", "cuda", "--dtype", "fp8", "-o", out_s]);
    assert_eq!(fp8.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&fp8.stderr).contains("--backend cuda"));
    let bf16 = tpsview(&["probe", "--dtype", "bf16", "-o", out_s]);
    assert_eq!(bf16.status.code(), Some(1));
    let zero = tpsview(&["probe", "--batch", "0,8", "-o", out_s]);
    assert_eq!(zero.status.code(), Some(2));
}

#[test]
fn report_shows_strings_from_files_as_text_and_says_its_size() {
    // A vLLM result whose strings hold markup: in the report they are text (escaped), never
    // elements, and the data block cannot be closed early from inside.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.html");
    let st = tpsview(&[
        "report",
        "--static",
        &fixture("vllm/html-in-strings.json"),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let html = std::fs::read_to_string(&out).expect("written");
    assert!(
        !html.contains("<img src=x"),
        "markup from the file became an element"
    );
    assert!(
        !html.contains("<script>alert"),
        "a script from the file became an element"
    );
    assert!(
        html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"),
        "the label shown as text"
    );
    // One script element only: the data block (not run).
    assert_eq!(html.matches("<script").count(), 1);
    let said = String::from_utf8_lossy(&st.stderr);
    assert!(
        said.contains(&format!("{} bytes", html.len())),
        "the size is said: {said}"
    );
}

/// A Trunk build's shape, small: index.html naming the start script, the page's module and wasm
/// and the loading worker (as pkg-config/csp.py writes it), the worker's boot script importing
/// its glue, which exports its init as wasm-bindgen does.
fn fake_build(dir: &std::path::Path) -> Vec<(&'static str, Vec<u8>)> {
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("boot-0123456789abcdef.js", b"(() => { document.documentElement.dataset.x = '1'; })();\n".to_vec()),
        ("tpsview-web-0123456789abcdef.js", b"export default async function init() {}\n".to_vec()),
        ("tpsview-web-0123456789abcdef_bg.wasm", (0u8..=255).cycle().take(5000).collect()),
        ("loader-worker-fedcba9876543210.js", b"import init from './tpsview-worker-fedcba9876543210.js';\nself.onmessage = async (e) => { await init({ module_or_path: e.data.module }); };\n".to_vec()),
        ("tpsview-worker-fedcba9876543210.js", b"function __wbg_init(m) { return new URL('x', import.meta.url); }\nfunction initSync() {}\n\nexport { initSync, __wbg_init as default };\n".to_vec()),
        ("tpsview-worker-fedcba9876543210_bg.wasm", vec![7u8; 3000]),
        ("teach-boot-aaaabbbbccccdddd.js", b"import init from './tpsview-teach-aaaabbbbccccdddd.js';\ninit();\n".to_vec()),
        ("tpsview-teach-aaaabbbbccccdddd.js", b"function __wbg_init(m) {}\nexport { __wbg_init as default };\n".to_vec()),
        ("tpsview-teach-aaaabbbbccccdddd_bg.wasm", vec![9u8; 2000]),
    ];
    let index = "<!DOCTYPE html><html><head>\
        <meta name=\"tpsview-worker\" content=\"./loader-worker-fedcba9876543210.js\" data-wasm=\"./tpsview-worker-fedcba9876543210_bg.wasm\" />\
        <meta name=\"tpsview-teach\" content=\"./teach-boot-aaaabbbbccccdddd.js\" data-wasm=\"./tpsview-teach-aaaabbbbccccdddd_bg.wasm\" />\
        <script src=\"./boot-0123456789abcdef.js\" integrity=\"sha384-x\"></script>\
        <script type=\"module\" src=\"./init-0000000000000000.js\"></script>\
        <link rel=\"modulepreload\" href=\"./tpsview-web-0123456789abcdef.js\" crossorigin=\"anonymous\">\
        <link rel=\"preload\" href=\"./tpsview-web-0123456789abcdef_bg.wasm\" as=\"fetch\" type=\"application/wasm\">\
        </head><body></body></html>";
    std::fs::write(dir.join("index.html"), index).expect("index");
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).expect("file");
    }
    files
}

/// The text of every `<script …attrs>…</script>` whose opening tag contains `attrs`.
fn scripts_with<'a>(html: &'a str, attrs: &str) -> Vec<&'a str> {
    html.split("<script")
        .skip(1)
        .filter(|s| s.split('>').next().is_some_and(|tag| tag.contains(attrs)))
        .filter_map(|s| {
            s.split_once('>')
                .and_then(|(_, rest)| rest.split_once("</script>"))
                .map(|(body, _)| body)
        })
        .collect()
}

#[test]
fn report_embeds_the_viewer_its_parts_and_scripts_as_the_build_wrote_them() {
    use base64::Engine as _;
    use sha2::Digest as _;
    use std::io::Read as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let app = dir.path().join("dist");
    std::fs::create_dir(&app).expect("dist");
    let files = fake_build(&app);
    let out = dir.path().join("r.html");
    let st = tpsview(&[
        "report",
        &fixture("vllm/detailed-small.json"),
        "--app",
        &app.to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let html = std::fs::read_to_string(&out).expect("written");
    assert!(html.contains("<html lang=\"en\" data-report>"));
    assert!(html.contains("<div id=\"boot\">") && html.contains("<div id=\"app\"></div>"));
    // Each part decoded and decompressed is the build's file; the worker's is its glue without
    // its exports and its boot script with the glue's init in place of the import.
    let part = |id: &str| -> Vec<u8> {
        let text = scripts_with(&html, &format!("id=\"{id}\""));
        assert_eq!(text.len(), 1, "{id}");
        let gz = base64::engine::general_purpose::STANDARD
            .decode(text[0])
            .expect("base64");
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut out)
            .expect("gzip");
        out
    };
    assert_eq!(part("tpsview-app-page-js"), files[1].1);
    assert_eq!(part("tpsview-app-page-wasm"), files[2].1);
    assert_eq!(part("tpsview-app-worker-wasm"), files[5].1);
    // The teaching module's glue and wasm as the build wrote them (the start module makes their boot).
    assert_eq!(part("tpsview-app-teach-js"), files[7].1);
    assert_eq!(part("tpsview-app-teach-wasm"), files[8].1);
    let worker = String::from_utf8(part("tpsview-app-worker-js")).expect("utf-8");
    assert!(worker.contains("function __wbg_init(m) { return new URL('x', self.location.href); }"));
    assert!(
        !worker.contains("export ") && !worker.contains("import "),
        "{worker}"
    );
    assert!(
        worker.contains("const init = __wbg_init;\nself.onmessage"),
        "{worker}"
    );
    // The two inline scripts (boot.js as built, the start module), each allowed by its SHA-256,
    // and no other source of script; no connection but to blob: and data: URLs.
    let classic: Vec<&str> = html
        .split("<script>")
        .skip(1)
        .filter_map(|s| s.split("</script>").next())
        .collect();
    assert_eq!(
        classic,
        vec![String::from_utf8(files[0].1.clone())
            .expect("utf-8")
            .as_str()]
    );
    let start = scripts_with(&html, "type=\"module\"");
    assert_eq!(start.len(), 1);
    let csp = html
        .split("http-equiv=\"Content-Security-Policy\" content=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a CSP");
    let sha = |t: &str| {
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(t.as_bytes()))
        )
    };
    assert!(
        csp.contains(&format!(
            "script-src {} {} 'wasm-unsafe-eval' blob:;",
            sha(classic[0]),
            sha(start[0])
        )),
        "{csp}"
    );
    assert!(
        csp.contains("connect-src blob: data:;") && !csp.contains("http"),
        "{csp}"
    );
    // The size is said, with the viewer's share.
    let said = String::from_utf8_lossy(&st.stderr);
    assert!(
        said.contains(&format!(
            "{} bytes, the interactive viewer inside",
            html.len()
        )),
        "{said}"
    );
}

#[test]
fn report_without_a_build_of_the_viewer_says_how_to_get_one_or_to_go_static() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.html");
    let st = tpsview(&[
        "report",
        &fixture("vllm/detailed-small.json"),
        "--app",
        &dir.path().join("nowhere").to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_eq!(st.status.code(), Some(2));
    let said = String::from_utf8_lossy(&st.stderr);
    assert!(
        said.contains("no build of the web app at") && said.contains("--static"),
        "{said}"
    );
    assert!(!out.exists(), "nothing written");
}

/// The built-in example and a copy of it whose decode is 10 % slower at concurrency 16 (each
/// request's E2E − TTFT × 1.1), named apart: written to `dir`.
fn slower_at_16(dir: &std::path::Path) -> (String, String) {
    let sample = root().join("public/samples/h100-llama70b-fp8.tpsview.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sample).expect("sample")).expect("json");
    let base = dir.join("base.json");
    v["runs"][0]["label"] = "tonight".into();
    std::fs::write(&base, v.to_string()).expect("write");
    v["runs"][0]["label"] = "tomorrow".into();
    for p in v["runs"][0]["points"].as_array_mut().expect("points") {
        if p["concurrency"] != 16.0 {
            continue;
        }
        let r = &mut p["requests"];
        let ttft: Vec<f64> = r["ttft_s"]
            .as_array()
            .expect("ttft")
            .iter()
            .map(|x| x.as_f64().expect("a number"))
            .collect();
        for (e, t) in r["e2e_s"].as_array_mut().expect("e2e").iter_mut().zip(ttft) {
            let e2e = e.as_f64().expect("a number");
            *e = (t + (e2e - t) * 1.1).into();
        }
    }
    let other = dir.join("other.json");
    std::fs::write(&other, v.to_string()).expect("write");
    (
        base.to_string_lossy().into_owned(),
        other.to_string_lossy().into_owned(),
    )
}

#[test]
fn compare_fails_on_a_regression_beyond_noise_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let (base, other) = slower_at_16(dir.path());
    // The same requests against themselves (named apart): nothing moved, exit 0.
    let same_dir = tempfile::tempdir().unwrap();
    let (same, _) = slower_at_16(same_dir.path());
    let o = tpsview(&["compare", "--fail-on-regression", &base, &same]);
    // Both are named "tonight": one run; give them names.
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = tpsview(&[
        "compare",
        "--fail-on-regression",
        "--run-name",
        &format!("{same}=again"),
        &base,
        &same,
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // 10 % slower decode at 16: TPOT and per-stream T/s (and E2E) regress there, nowhere else.
    let o = tpsview(&["compare", "--fail-on-regression", &base, &other]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("regression"), "{err}");
    assert!(
        err.contains("tomorrow at concurrency 16: TPOT mean +10.0 %"),
        "{err}"
    );
    assert!(
        err.lines().skip(1).all(|l| l.contains("at concurrency 16")),
        "{err}"
    );
    // The JSON carries each verdict with its interval; the regressed ones' intervals exclude 0.
    let v = json(&tpsview(&["compare", "--json", &base, &other]));
    assert_eq!(v["confidence"], 0.99);
    let verdicts = v["verdicts"].as_array().unwrap();
    let regressed: Vec<&serde_json::Value> = verdicts
        .iter()
        .filter(|j| j["verdict"] == "regression")
        .collect();
    assert!(regressed.iter().any(|j| j["metric"] == "tpot_mean_ms"));
    assert!(regressed.iter().any(|j| j["metric"] == "per_stream_tps"));
    for j in &regressed {
        assert_eq!(j["concurrency"], 16.0);
        let c = &j["change"];
        let (lo, hi) = (
            c["low_pct"].as_f64().unwrap(),
            c["high_pct"].as_f64().unwrap(),
        );
        assert!(lo > 0.0 || hi < 0.0, "{j}");
    }
    // TTFT did not move: within noise wherever judged (at 16 it is; a level with fewer than 10
    // requests is not, and says so).
    let ttft: Vec<&serde_json::Value> = verdicts
        .iter()
        .filter(|j| j["metric"] == "ttft_mean_ms")
        .collect();
    assert!(ttft
        .iter()
        .all(|j| j["verdict"] == "within_noise" || j["not_judged"].is_string()));
    assert!(ttft
        .iter()
        .any(|j| j["concurrency"] == 16.0 && j["verdict"] == "within_noise"));
    // A threshold above the change, or only TTFT judged: no regression.
    let o = tpsview(&[
        "compare",
        "--fail-on-regression",
        "--threshold",
        "15",
        &base,
        &other,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = tpsview(&[
        "compare",
        "--fail-on-regression",
        "--metrics",
        "ttft_mean_ms,ttft_p99_ms",
        &base,
        &other,
    ]);
    assert_eq!(o.status.code(), Some(0));
    // Usage errors: exit 2.
    for bad in [
        &["--metrics", "tpot_mean_sec"][..],
        &["--threshold", "-1"][..],
        &["--threshold", "NaN"][..],
    ] {
        let mut args = vec!["compare", "--fail-on-regression"];
        args.extend_from_slice(bad);
        args.extend([base.as_str(), other.as_str()]);
        assert_eq!(tpsview(&args).status.code(), Some(2), "{bad:?}");
    }
    // Markdown for a CI job's summary.
    let md = tpsview(&["compare", "--markdown", &base, &other]);
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("| run | concurrency | figure |"), "{md}");
    assert!(
        md.contains("| tomorrow | 16 | TPOT mean |") && md.contains("**regression**"),
        "{md}"
    );
    assert!(
        md.contains("not judged") || md.contains("Not judged"),
        "{md}"
    );
}

#[test]
fn history_orders_runs_by_date_and_marks_what_moved_beyond_noise() {
    let dir = tempfile::tempdir().unwrap();
    let (base, other) = slower_at_16(dir.path());
    // Three nights, given out of order: the slower decode arrives on the second and stays.
    let dated = |path: &str, label: &str, date: &str| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        v["runs"][0]["label"] = label.into();
        v["runs"][0]["meta"]["date"] = date.into();
        let out = dir.path().join(format!("{label}.json"));
        std::fs::write(&out, v.to_string()).unwrap();
        out.to_string_lossy().into_owned()
    };
    let n1 = dated(&base, "night-1", "2026-12-01T02:00:00Z");
    let n2 = dated(&other, "night-2", "2026-12-02T02:00:00Z");
    let n3 = dated(&other, "night-3", "2026-12-03T02:00:00Z");
    let v = json(&tpsview(&["compare", "--history", "--json", &n3, &n1, &n2]));
    assert_eq!(v["order"], "date");
    let runs: Vec<&str> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run"].as_str().unwrap())
        .collect();
    assert_eq!(runs, ["night-1", "night-2", "night-3"]);
    let moved: Vec<(&str, &str, f64, &str)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["verdict"] == "regression" || m["verdict"] == "improvement")
        .map(|m| {
            (
                m["run"].as_str().unwrap(),
                m["against"].as_str().unwrap(),
                m["concurrency"].as_f64().unwrap(),
                m["metric"].as_str().unwrap(),
            )
        })
        .collect();
    // Night 2 against night 1 at 16: TPOT (and per-stream T/s) regressed; night 3 = night 2.
    assert!(
        moved.contains(&("night-2", "night-1", 16.0, "tpot_mean_ms")),
        "{moved:?}"
    );
    assert!(
        moved.iter().all(|m| m.0 == "night-2" && m.2 == 16.0),
        "{moved:?}"
    );
    // The text names the order and the move.
    let o = tpsview(&["compare", "--history", &n3, &n1, &n2]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("history of 3 runs, ordered by date"),
        "{text}"
    );
    assert!(
        text.contains("night-2 (against night-1) at concurrency 16: TPOT mean +10.0 %"),
        "{text}"
    );
    // Without a date on every run: as given.
    let v = json(&tpsview(&["compare", "--history", "--json", &base, &n2]));
    assert_eq!(v["order"], "given");
}

/// numpy's linear percentile of sorted `v`.
fn percentile_sorted(v: &[f64], p: f64) -> f64 {
    let h = (v.len() - 1) as f64 * p / 100.0;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (h - lo as f64)
}

#[test]
fn summarize_intervals_are_the_99_percent_bootstrap_of_each_levels_requests() {
    // Recomputed here from the file's own arrays with another generator (a 64-bit LCG) and 4,000
    // resamples: TPOT = (e2e − ttft) ÷ (output − 1) per request with more than one token, and
    // its mean and median; E2E's mean. The CLI's bounds (1,000 resamples, its own generator) must
    // fall within a tenth of the interval's width of these.
    let file = "public/samples/h100-llama70b-fp8.tpsview.json";
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(file)).expect("the sample"))
            .expect("JSON");
    let path = root().join(file).to_string_lossy().into_owned();
    let out = json(&tpsview(&["summarize", "--json", "--intervals", &path]));
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    let mut checked = 0;
    for (p, q) in doc["runs"][0]["points"]
        .as_array()
        .expect("points")
        .iter()
        .zip(out["runs"][0]["points"].as_array().expect("points"))
    {
        let r = &p["requests"];
        let col = |k: &str| -> Vec<f64> {
            r[k].as_array()
                .expect("a column")
                .iter()
                .map(|v| v.as_f64().expect("a number"))
                .collect()
        };
        let (ttft, e2e, outs) = (col("ttft_s"), col("e2e_s"), col("output_tokens"));
        let tpot: Vec<f64> = (0..e2e.len())
            .filter(|&i| outs[i] > 1.0)
            .map(|i| (e2e[i] - ttft[i]) / (outs[i] - 1.0) * 1e3)
            .collect();
        let e2e_ms: Vec<f64> = e2e.iter().map(|e| e * 1e3).collect();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            percentile_sorted(v, 50.0)
        };
        for (key, values, stat) in [
            ("tpot_mean_ms", &tpot, 0),
            ("tpot_p50_ms", &tpot, 1),
            ("e2e_mean_ms", &e2e_ms, 0),
        ] {
            let Some(got) = q["intervals"]["intervals"][key].as_array() else {
                // Too few requests: said why.
                assert!(
                    q["intervals"]["not_computed"][key].is_string(),
                    "{key}: {q:?}"
                );
                continue;
            };
            let mut stats: Vec<f64> = (0..4000)
                .map(|_| {
                    let mut draw: Vec<f64> = (0..values.len())
                        .map(|_| values[next(values.len())])
                        .collect();
                    if stat == 0 {
                        mean(&draw)
                    } else {
                        median(&mut draw)
                    }
                })
                .collect();
            stats.sort_by(f64::total_cmp);
            let (lo, hi) = (
                percentile_sorted(&stats, 0.5),
                percentile_sorted(&stats, 99.5),
            );
            let (glo, ghi) = (got[0].as_f64().unwrap(), got[1].as_f64().unwrap());
            let tol = 0.1 * (hi - lo);
            assert!(
                (glo - lo).abs() <= tol && (ghi - hi).abs() <= tol,
                "{key} at {}: {glo} … {ghi} against {lo} … {hi}",
                p["concurrency"]
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "{checked}");
    assert_eq!(out["runs"][0]["points"][0]["intervals"]["confidence"], 0.99);
}

/// The table gives a level's numbers of 2026 where present, each as worked out by hand in
/// tests/fixtures/sessions/README.md.
#[test]
fn the_table_shows_reasoning_the_prefix_cache_sessions_and_tokens_per_user() {
    let f = root().join("tests/fixtures/sessions/two-sessions.tpsview.json");
    let out = tpsview(&["summarize", f.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        // 1 / p90(E2E ÷ OSL) = 8.98; Σ OSL ÷ Σ E2E = 206 / 14.05 = 14.66.
        "at 2: tok/s per user: per-stream 13.3, whole-request p50 11.9 and p90 9.0 (slow tail), aggregate 14.7",
        "at 2: first visible token 950.0 ms (p90 1900.0), first token 341.7 ms",
        // 131 visible tokens over 10.3 s.
        "at 2: 75 of 206 output tokens reasoning (36 %); visible 12.7 T/s of 20.0 T/s",
        "at 2: prefix cache 750 of 1200 prompt tokens (62.5 %): prompt T/s computed 43.7, cached 72.8",
        "at 2: 2 sessions of 3.0 turns: TTFT first turns 550.0 ms, later turns 237.5 ms",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
    // A level without the facts gets only its tokens per user.
    let f = root().join("tests/fixtures/vllm/detailed-small.json");
    let out = tpsview(&["summarize", f.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("tok/s per user: per-stream"), "{text}");
    assert!(
        !text.contains("sessions of") && !text.contains("prefix cache"),
        "{text}"
    );
}
