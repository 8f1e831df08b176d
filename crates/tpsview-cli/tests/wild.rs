//! The corpus of real files (`tests/wild/`, see its README and PROVENANCE.md): every file, read by
//! `tpsview summarize --json`, against the figures `tests/wild/expected.py` computes from the file
//! itself without tpsview (Python's standard library and PyYAML). A case is one folder of the
//! corpus, read together as a user would drop it (so a tool's pairs pair). A figure off by more
//! than 0.5 % fails, unless `tests/wild/README.md` lists the file as a known gap — and a listed
//! gap that now reads right fails too, so the list stays true.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The known gaps: `- \`<path under tests/wild>\`: reason` lines of the README's "Known gaps".
fn gaps() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root().join("tests/wild/README.md")).expect("README");
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Known gaps";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- `") {
            if let Some((path, why)) = rest.split_once('`') {
                out.insert(
                    path.to_owned(),
                    why.trim_start_matches(':').trim().to_owned(),
                );
            }
        }
    }
    out
}

fn expected() -> Value {
    let out = Command::new("python3")
        .arg(root().join("tests/wild/expected.py"))
        .output()
        .expect("python3 runs (scripts/install-tools.sh installs PyYAML)");
    assert!(
        out.status.success(),
        "expected.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("expected.py writes JSON")
}

/// The value at a dotted path of a point (`ttft_ms.mean`, `reported.output_throughput`): the last
/// part of a `reported` path may itself hold dots (the tool's nested keys joined with `.`).
fn at<'a>(point: &'a Value, path: &str) -> Option<&'a Value> {
    if let Some(key) = path.strip_prefix("reported.") {
        return point.get("reported")?.get(key);
    }
    path.split('.').try_fold(point, |v, k| v.get(k))
}

fn close(got: &Value, want: &Value) -> bool {
    match (got.as_f64(), want.as_f64()) {
        (Some(g), Some(w)) => {
            if w == 0.0 {
                g.abs() < 1e-9
            } else {
                ((g - w) / w).abs() <= 0.005
            }
        }
        _ => got == want,
    }
}

#[test]
fn every_real_file_reads_as_its_own_figures_say() {
    let expected = expected();
    let gaps = gaps();
    let cases = expected["cases"].as_array().expect("cases");
    assert!(cases.len() >= 20, "the corpus has {} cases", cases.len());
    let mut failures: Vec<String> = Vec::new();
    let mut gapped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut checked = 0usize;
    let mut read_files = std::collections::BTreeSet::new();
    let mut wrong_files = std::collections::BTreeSet::new();
    for case in cases {
        let args: Vec<String> = case["args"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| f.as_str().expect("a path").to_owned())
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
            .current_dir(root().join("tests/wild"))
            .arg("summarize")
            .arg("--json")
            .args(&args)
            .output()
            .expect("tpsview runs");
        let got: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        let points: Vec<&Value> = got["runs"]
            .as_array()
            .map(|runs| {
                runs.iter()
                    .flat_map(|r| r["points"].as_array().into_iter().flatten())
                    .collect()
            })
            .unwrap_or_default();
        for want in case["points"].as_array().expect("points") {
            let source = want["source"].as_str().expect("source");
            let file = want["file"].as_str().expect("file").to_owned();
            let mut problems = Vec::new();
            let found = points.iter().find(|p| {
                p["source_file"].as_str() == Some(source)
                    || p["source_file"]
                        .as_str()
                        .is_some_and(|s| s.ends_with(&format!("/{source}")))
            });
            match found {
                None => problems.push(format!(
                    "no point from {source} (exit {:?}; stderr: {})",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .take(3)
                        .collect::<Vec<_>>()
                        .join(" | ")
                )),
                Some(p) => {
                    for (path, w) in want["figures"].as_object().expect("figures") {
                        checked += 1;
                        match at(p, path) {
                            Some(g) if close(g, w) => {}
                            g => problems
                                .push(format!("{source}: {path} = {g:?}, the file says {w}")),
                        }
                    }
                    if let Some(label) = want.get("label").and_then(Value::as_str) {
                        let run = got["runs"].as_array().and_then(|runs| {
                            runs.iter().find(|r| {
                                r["points"]
                                    .as_array()
                                    .is_some_and(|ps| ps.iter().any(|q| std::ptr::eq(q, *p)))
                            })
                        });
                        let l = run.and_then(|r| r["label"].as_str()).unwrap_or("");
                        if !l.contains(label) {
                            problems
                                .push(format!("{source}: run named {l:?}, not after {label:?}"));
                        }
                    }
                }
            }
            read_files.insert(file.clone());
            if problems.is_empty() {
                continue;
            }
            wrong_files.insert(file.clone());
            if gaps.contains_key(&file) {
                gapped.entry(file).or_default().extend(problems);
            } else {
                failures.extend(problems.into_iter().map(|p| format!("{file}: {p}")));
            }
        }
    }
    let exact: Vec<&String> = read_files.difference(&wrong_files).collect();
    // A gap listed for a file that now reads right is stale; one for no file of the corpus, too.
    for path in gaps.keys() {
        if !read_files.contains(path) {
            failures.push(format!(
                "{path} is listed as a known gap but is no file of the corpus"
            ));
        } else if !wrong_files.contains(path) {
            failures.push(format!(
                "{path} is listed as a known gap in tests/wild/README.md but now reads right: take it off the list"
            ));
        }
    }
    eprintln!(
        "tests/wild: {} of {} files read exactly ({checked} figures checked); {} known gaps",
        exact.len(),
        read_files.len(),
        gapped.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every file of the corpus is named in PROVENANCE.md and every row names a file there; the
/// corpus holds what issue 29 asks (60 files, 25 repositories, 10 tools, each file ≤ 5 MB) and
/// nothing from the repositories reserved for acceptance checks.
#[test]
fn the_corpus_is_what_its_provenance_says() {
    let wild = root().join("tests/wild");
    let text = std::fs::read_to_string(wild.join("PROVENANCE.md")).expect("PROVENANCE.md");
    let mut rows = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| file"))
    {
        let cells: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let file = cells[0].trim_start_matches("| ").to_owned();
        rows.insert(file, cells[1].to_owned());
    }
    let mut files = std::collections::BTreeSet::new();
    for tool in std::fs::read_dir(&wild).expect("tests/wild") {
        let tool = tool.expect("entry").path();
        if !tool.is_dir() {
            continue;
        }
        for source in std::fs::read_dir(&tool).expect("tool folder") {
            // A source's files, in the folders its tool wrote them in (a sweep's per-setting
            // folders) where it has them.
            let mut todo = vec![source.expect("entry").path()];
            while let Some(dir) = todo.pop() {
                for f in std::fs::read_dir(&dir).expect("source folder") {
                    let f = f.expect("entry").path();
                    if f.is_dir() {
                        todo.push(f);
                        continue;
                    }
                    let size = std::fs::metadata(&f).expect("size").len();
                    let rel = f
                        .strip_prefix(&wild)
                        .expect("under")
                        .to_string_lossy()
                        .into_owned();
                    assert!(size <= 5 << 20, "{rel}: {size} bytes");
                    files.insert(rel);
                }
            }
        }
    }
    let listed: std::collections::BTreeSet<String> = rows.keys().cloned().collect();
    assert_eq!(
        files.difference(&listed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "files without a PROVENANCE row"
    );
    assert_eq!(
        listed.difference(&files).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "PROVENANCE rows without a file"
    );
    let repos: std::collections::BTreeSet<&String> = rows.values().collect();
    // vLLM's bench commands (serve, latency, throughput, sweep) are one tool.
    let tools: std::collections::BTreeSet<&str> = files
        .iter()
        .map(|f| f.split('/').next().unwrap_or(""))
        .map(|t| if t.starts_with("vllm") { "vllm" } else { t })
        .collect();
    assert!(files.len() >= 60, "{} files", files.len());
    assert!(repos.len() >= 25, "{} repositories", repos.len());
    assert!(tools.len() >= 10, "{} tools: {tools:?}", tools.len());
    const RESERVED: &[&str] = &[
        "er0080/vllm-benchmarking",
        "TonyLi15/sglang-benchmark",
        "databloom/aiperf-lab-tests",
        "akamaslabs/vllm-benchmark",
        "NVIDIA/cloudai",
        "danielkorat/guidellm-bench",
        "neuralmagic/guidellm",
        "Orion-zhen/llama-bench-dashboard",
        "ray-project/llmperf-leaderboard",
        "nerdalert/vllm-bench-automation",
        "big-yellow-duck/vllm-bench-collection",
        "SemiAnalysisAI/InferenceX",
        "SemiAnalysisAI/InferenceX-app",
        "llm-d/llm-d-benchmark",
        "dstackai/benchmarks",
        "LambdaLabsML/vllm-benchmark",
        "datacrunch-research/h200-benchmarks",
        "wellflat/k8s-dev",
        "lhl/strix-halo-testing",
        "brayniac/llm-performance",
        "shaamil101-etched/trtllm-benchmarks",
        "masahiro-kubota/trtllm-latency",
        "HongxuanZhang/LLMPerf",
        "apeterson7/triton-llm",
        "jhurlocker/guidellm-pipeline",
        // Issue 44's: its acceptance checks' files (the results committed inside
        // kubernetes-sigs/inference-perf and sgl-project/genai-bench are reserved too).
        "DerekLiu35/huggingface-quantization-benchmarking-code",
        "Gabe298/vLLM-llama-benchy-testing-result",
        "Wentao274/vllm-benchmark-test",
        "dangtruong-github/vllm_benchmark",
        "nelstevens/llm-benchmark",
        "freeletics/ollama-benchmark",
        "sabreshao/sglang_disagg",
        "yyq0210/FlashKDA",
        "ajcasagrande/aiperf",
        "kubernetes-sigs/inference-perf",
        "sgl-project/genai-bench",
    ];
    for r in &repos {
        assert!(
            !RESERVED.iter().any(|x| x.eq_ignore_ascii_case(r)) && !r.starts_with("mlcommons/"),
            "{r} is reserved for acceptance checks"
        );
    }
    println!(
        "tests/wild: {} files, {} repositories, {} tools",
        files.len(),
        repos.len(),
        tools.len()
    );
}

/// A real sweep of three repeats (`vllm bench sweep serve --num-runs 3`, FlashSampling's
/// baseline: nine levels, `run=0.json`…`run=2.json` in each level's folder) reads as three runs of
/// nine levels, and `summarize --intervals` gives each level's system T/s and requests/s over
/// the repeats: the values the files state, their mean and `mean ± t·s/√3`, with t(0.995, 2 df)
/// = 9.925 from a printed table, everything computed here from the files.
#[test]
fn a_real_sweep_of_three_repeats_gives_each_level_its_interval_over_them() {
    let case = "vllm-sweep/yifanzhang-pro-FlashSampling-1";
    let got = in_wild(&["summarize", "--json", "--intervals", case]);
    let runs = got["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 3, "three repeats");
    // From the files: level → each repeat's (output_throughput, request_throughput).
    let (tps, rps) = (
        sweep_repeats(case, "output_throughput"),
        sweep_repeats(case, "request_throughput"),
    );
    let files: BTreeMap<u64, Vec<(f64, f64)>> = tps
        .iter()
        .map(|(c, t)| (*c, t.iter().copied().zip(rps[c].iter().copied()).collect()))
        .collect();
    assert_eq!(files.len(), 9);
    for (r, run) in runs.iter().enumerate() {
        assert!(
            run["label"]
                .as_str()
                .is_some_and(|l| l.ends_with(&format!("run={r}"))),
            "{}",
            run["label"]
        );
        let points = run["points"].as_array().expect("points");
        assert_eq!(points.len(), 9, "{}", run["label"]);
        for p in points {
            let c = p["concurrency"].as_f64().expect("level") as u64;
            let reps = &p["repeats"];
            assert_eq!(reps["runs"].as_array().map(Vec::len), Some(3), "at {c}");
            for (key, pick) in [("system_tps", 0usize), ("request_throughput", 1)] {
                let want: Vec<f64> = files[&c]
                    .iter()
                    .map(|t| if pick == 0 { t.0 } else { t.1 })
                    .collect();
                let f = &reps["figures"][key];
                let values: Vec<f64> = f["values"]
                    .as_array()
                    .expect("values")
                    .iter()
                    .filter_map(Value::as_f64)
                    .collect();
                assert_eq!(values.len(), 3, "{key} at {c}");
                for (a, b) in values.iter().zip(&want) {
                    assert!(
                        (a - b).abs() <= 1e-9 * b,
                        "{key} at {c}: {a} vs the file's {b}"
                    );
                }
                let mean = want.iter().sum::<f64>() / 3.0;
                let s = (want.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
                let half = 9.925 * s / 3f64.sqrt();
                let lo = f["interval"][0].as_f64().expect("low");
                let hi = f["interval"][1].as_f64().expect("high");
                assert!((f["mean"].as_f64().expect("mean") - mean).abs() <= 1e-9 * mean);
                // The table's t is rounded to 4 figures: within 1e-4 of the half-width.
                assert!(
                    (lo - (mean - half)).abs() <= 1e-4 * half + 1e-12,
                    "{key} at {c}: {lo} vs {}",
                    mean - half
                );
                assert!(
                    (hi - (mean + half)).abs() <= 1e-4 * half + 1e-12,
                    "{key} at {c}: {hi} vs {}",
                    mean + half
                );
            }
        }
    }
}

/// `tpsview ARGS` run in tests/wild, its JSON output (it must succeed).
fn in_wild(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .current_dir(root().join("tests/wild"))
        .args(args)
        .output()
        .expect("tpsview runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Each level's `key` in each of a sweep's repeats (in `run_number` order), from its
/// `run=N.json` files.
fn sweep_repeats(case: &str, key: &str) -> BTreeMap<u64, Vec<f64>> {
    let mut out: BTreeMap<u64, BTreeMap<u64, f64>> = BTreeMap::new();
    let mut todo = vec![root().join("tests/wild").join(case)];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).expect("folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                todo.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("run="))
            {
                let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).expect("read"))
                    .expect("JSON");
                out.entry(v["max_concurrency"].as_u64().expect("level"))
                    .or_default()
                    .insert(
                        v["run_number"].as_u64().expect("run_number"),
                        v[key].as_f64().expect("a number"),
                    );
            }
        }
    }
    out.into_iter()
        .map(|(c, runs)| (c, runs.into_values().collect()))
        .collect()
}

/// The same two real sweeps loaded with no names: their runs are alike (same model, same
/// settings, same repeats), so they once merged into three runs with every level twice. Each
/// is now its own setup, named after its folder, and each run's levels are its own files'.
#[test]
fn two_real_sweeps_alike_without_names_stay_apart_by_their_folder() {
    let cases = [
        "vllm-sweep/yifanzhang-pro-FlashSampling-1",
        "vllm-sweep/yifanzhang-pro-FlashSampling-2",
    ];
    let got = in_wild(&["summarize", "--json", cases[0], cases[1]]);
    let runs = got["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 6, "two setups × three repeats");
    let mut seen = BTreeMap::new();
    for run in runs {
        let label = run["label"].as_str().expect("label");
        let case = cases
            .iter()
            .copied()
            .find(|c| label.contains(&format!(" · folder={} · run=", &c[11..])))
            .unwrap_or_else(|| panic!("{label}: named after neither folder"));
        let n: usize = label.rsplit("run=").next().unwrap().parse().expect("run=N");
        let want = sweep_repeats(case, "output_throughput");
        let levels: Vec<u64> = run["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["concurrency"].as_f64().unwrap() as u64)
            .collect();
        assert_eq!(levels, want.keys().copied().collect::<Vec<_>>(), "{label}");
        for p in run["points"].as_array().unwrap() {
            let c = p["concurrency"].as_f64().unwrap() as u64;
            let tps = p["system_tps"].as_f64().expect("system T/s");
            assert!((tps - want[&c][n]).abs() < 1e-9 * tps, "{label} at {c}");
        }
        *seen.entry(case).or_insert(0) += 1;
    }
    assert_eq!(seen.values().copied().collect::<Vec<_>>(), [3, 3]);
}

/// FlashSampling's FlashInfer variant against its baseline, each three repeats of nine levels
/// (named apart with `--run-name`, which keeps the repeats apart): system T/s is judged over the
/// repeats — the change of the means and Welch's 99 % interval recomputed here from the files
/// (t at Welch's degrees of freedom bracketed by a printed table's), and the verdict from them.
/// Its authors read "−10 % TPOT at 128" off one repeat; over three, 128 is within noise.
#[test]
fn two_real_sweeps_of_three_repeats_are_judged_over_their_repeats() {
    let (a, b) = (
        "vllm-sweep/yifanzhang-pro-FlashSampling-1",
        "vllm-sweep/yifanzhang-pro-FlashSampling-2",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .current_dir(root().join("tests/wild"))
        .args([
            "compare",
            "--json",
            "--metrics",
            "system_tps",
            "--baseline",
            "baseline · run=0",
        ])
        .args([
            "--run-name",
            &format!("{a}=baseline"),
            "--run-name",
            &format!("{b}=flashinfer"),
            a,
            b,
        ])
        .output()
        .expect("tpsview runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let (base, other) = (
        sweep_repeats(a, "output_throughput"),
        sweep_repeats(b, "output_throughput"),
    );
    // t(0.995, ν) for ν = 2…8 from a printed table: it falls as ν grows.
    const T: [f64; 7] = [9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355];
    let stats = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        (
            m,
            v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64,
        )
    };
    let verdicts = got["verdicts"].as_array().expect("verdicts");
    let mut judged = 0;
    for j in verdicts {
        let run = j["run"].as_str().expect("run");
        let c = j["concurrency"].as_f64().expect("level") as u64;
        if run.starts_with("baseline") {
            assert!(
                j["not_judged"]
                    .as_str()
                    .is_some_and(|w| w.contains("own setup")),
                "{j}"
            );
            continue;
        }
        judged += 1;
        assert_eq!(j["repeats"], serde_json::json!([3, 3]), "{run} at {c}");
        let ((ma, va), (mb, vb)) = (stats(&base[&c]), stats(&other[&c]));
        let d = mb - ma;
        let change = j["change"]["change_pct"].as_f64().expect("change");
        assert!(
            (change - d / ma * 100.0).abs() < 1e-9,
            "{run} at {c}: {change}"
        );
        let (ea, eb) = (va / 3.0, vb / 3.0);
        let nu = (ea + eb).powi(2) / (ea * ea / 2.0 + eb * eb / 2.0);
        let t =
            (j["change"]["high_pct"].as_f64().expect("high") / 100.0 * ma - d) / (ea + eb).sqrt();
        let (lo_nu, hi_nu) = (nu.floor() as usize, nu.ceil() as usize);
        assert!((2..=8).contains(&lo_nu) && hi_nu <= 8, "ν {nu}");
        assert!(
            t <= T[lo_nu - 2] + 1e-3 && t >= T[hi_nu - 2] - 1e-3,
            "{run} at {c}: t {t} at ν {nu}"
        );
        let low = j["change"]["low_pct"].as_f64().expect("low");
        let want = if low > 0.0 && change > 2.0 {
            "improvement"
        } else if j["change"]["high_pct"].as_f64().expect("high") < 0.0 && change < -2.0 {
            "regression"
        } else {
            "within_noise"
        };
        assert_eq!(j["verdict"], want, "{run} at {c}");
        if c == 128 {
            assert_eq!(j["verdict"], "within_noise");
        }
    }
    assert_eq!(judged, 27);
}
