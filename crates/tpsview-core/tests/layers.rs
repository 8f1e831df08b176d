//! The core is three crates whose direction Cargo enforces — `tpsview-model` at the bottom,
//! `tpsview-formats` (the readers) and `tpsview-analysis` (the definitions) on it, neither on the
//! other — and within each crate the modules form ranked layers: a module names only modules of a
//! lower rank (the rust-analyzer rule, house-style.md), so no two import each other; the web app's
//! modules (`src/`) form no cycle either. Read from whole files: every `crate::<module>` a
//! module's non-test code names (`use` lines, paths, serde attributes) is an edge, wherever it sits
//! in the file; only items under `#[cfg(test)]` are left out, each to its own end.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn crates() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The web app's sources (the workspace's root crate).
fn app_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../src")
}

/// Where the item that starts at `from` ends: its `;` or its closing `}` at depth 0 (strings and
/// character literals skipped).
fn item_end(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0i32, from);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if i + 2 < b.len() && b[i + 2] == b'\'' => i += 2,
            b'{' | b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The whole text of a file less its comments and its items under `#[cfg(test)]` (each cut at its
/// own end, so code after a test module still counts).
fn code(path: &Path) -> String {
    let text: String = std::fs::read_to_string(path)
        .expect("source")
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = &text[..];
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = i + "#[cfg(test)]".len();
        rest = &rest[item_end(rest, after)..];
    }
    out.push_str(rest);
    out
}

/// Every file of a top-level module under `root`: `m.rs` and `m/**.rs`, tests excluded.
fn files_of(root: &Path, module: &str) -> Vec<PathBuf> {
    let mut out = vec![root.join(format!("{module}.rs"))];
    let mut stack = vec![root.join(module)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs")
                && p.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(p);
            }
        }
    }
    out
}

/// The modules named after `crate::` in `text`, including those inside `crate::{a, b::c}`.
fn named(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let idents: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            group
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or(""))
                .collect()
        } else {
            vec![rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")]
        };
        out.extend(
            idents
                .into_iter()
                .filter(|m| modules.contains(*m))
                .map(str::to_owned),
        );
    }
    out
}

/// The module graph of the crate whose root file is `root/top` (`lib.rs`, `main.rs`).
fn graph_of(root: &Path, top: &str) -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(root.join(top)).expect("crate root");
    let modules: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod ")
                .or(l.trim().strip_prefix("mod "))
        })
        .map(|m| m.trim_end_matches(';').to_owned())
        .collect();
    modules
        .iter()
        .map(|m| {
            let mut deps = BTreeSet::new();
            for f in files_of(root, m) {
                deps.extend(named(&code(&f), &modules));
            }
            deps.remove(m);
            (m.clone(), deps)
        })
        .collect()
}

/// A cycle through `start`, if there is one.
fn cycle_from(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in &g[&at] {
            if next == start {
                let mut c = path.clone();
                c.push(start.to_owned());
                return Some(c);
            }
            if seen.insert(next.clone()) {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    None
}

fn graph(krate: &str) -> BTreeMap<String, BTreeSet<String>> {
    let g = graph_of(&crates().join(krate).join("src"), "lib.rs");
    assert!(g.len() > 5, "{krate}: {:?}", g.keys());
    g
}

/// Each crate's modules, bottom layer first: a module may name only modules of earlier layers.
/// A new module takes the lowest layer above everything it names.
const RANKS: &[(&str, &[&[&str]])] = &[
    (
        "tpsview-model",
        &[
            &[
                "bounds",
                "error",
                "format",
                "par",
                "server",
                "text",
                "vocabulary",
            ],
            &["stats", "tools"],
            &["model"],
            &["requests"],
        ],
    ),
    (
        "tpsview-formats",
        &[
            &["lenient", "progress", "redact", "scan", "synthetic"],
            &["formats"],
            &["group", "transfer"],
        ],
    ),
    (
        "tpsview-analysis",
        &[
            &["metrics", "roofline", "server", "simulate"],
            &["audit", "claim", "probe"],
            &["energy", "slo"],
            &["summary"],
            &["answer", "compare", "learn", "spec"],
            &["health", "noise"],
            &["chart_spec"],
            &["viewer"],
        ],
    ),
];

fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    g.keys()
        .filter_map(|m| cycle_from(g, m))
        .map(|c| c.join(" → "))
        .collect()
}

#[test]
fn no_two_modules_of_the_web_app_import_each_other() {
    let g = graph_of(&app_src(), "main.rs");
    assert!(g.len() > 8, "{:?}", g.keys());
    assert!(
        g["state"].contains("load"),
        "the reader sees the app's imports"
    );
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles: {found:#?}");
}

#[test]
fn each_crate_s_modules_name_only_lower_layers() {
    for (krate, layers) in RANKS {
        let g = graph(krate);
        let rank: BTreeMap<&str, usize> = layers
            .iter()
            .enumerate()
            .flat_map(|(r, l)| l.iter().map(move |m| (*m, r)))
            .collect();
        let unranked: Vec<&String> = g
            .keys()
            .filter(|m| !rank.contains_key(m.as_str()))
            .collect();
        assert!(
            unranked.is_empty(),
            "{krate}: modules without a layer: {unranked:?}"
        );
        let upward: Vec<String> = g
            .iter()
            .flat_map(|(m, deps)| deps.iter().map(move |d| (m, d)))
            .filter(|(m, d)| rank[d.as_str()] >= rank[m.as_str()])
            .map(|(m, d)| {
                format!(
                    "{m} (layer {}) names {d} (layer {})",
                    rank[m.as_str()],
                    rank[d.as_str()]
                )
            })
            .collect();
        assert!(upward.is_empty(), "{krate}: {upward:#?}");
        let found = cycles(&g);
        assert!(found.is_empty(), "{krate}: import cycles: {found:#?}");
    }
}

/// The `tpsview-*` crates a manifest's dependency tables (normal, build, dev; any target) name.
fn tpsview_deps(krate: &str) -> BTreeSet<String> {
    let toml = std::fs::read_to_string(crates().join(krate).join("Cargo.toml")).expect("manifest");
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in toml.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_deps = l.contains("dependencies");
        } else if in_deps && l.starts_with("tpsview-") {
            out.insert(l.split([' ', '=', '.']).next().unwrap_or("").to_owned());
        }
    }
    out
}

#[test]
fn the_analysis_cannot_know_a_file_format() {
    assert!(
        tpsview_deps("tpsview-model").is_empty(),
        "{:?}",
        tpsview_deps("tpsview-model")
    );
    assert_eq!(
        tpsview_deps("tpsview-analysis"),
        BTreeSet::from(["tpsview-model".to_owned()])
    );
    // The readers' normal dependencies are the model's; the metric engine only in their tests.
    let formats =
        std::fs::read_to_string(crates().join("tpsview-formats/Cargo.toml")).expect("manifest");
    let normal = &formats[formats.find("[dependencies]").expect("deps")
        ..formats.find("[dev-dependencies]").expect("dev")];
    assert!(!normal.contains("tpsview-analysis"), "{normal}");
    // And Cargo agrees: the analysis crate's whole tree (every edge kind; natively and for the
    // browser) has no reader.
    for target in [None, Some("wasm32-unknown-unknown")] {
        let mut args = vec!["tree", "-p", "tpsview-analysis", "-e", "normal,build,dev"];
        args.extend(target.map(|t| ["--target", t]).into_iter().flatten());
        args.extend(["--prefix", "none"]);
        let out = std::process::Command::new(env!("CARGO"))
            .args(&args)
            .current_dir(crates())
            .output()
            .expect("cargo tree");
        let tree = String::from_utf8_lossy(&out.stdout);
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && tree.contains("tpsview-model"),
            "{tree}{why}"
        );
        assert!(!tree.contains("tpsview-formats"), "{target:?}: {tree}");
    }
    // No source of the analysis names the readers' crate.
    for f in files_of(&crates().join("tpsview-analysis"), "src") {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.contains("tpsview_formats"), "{}", f.display());
    }
}

#[test]
fn the_checker_sees_a_cycle_and_grouped_imports() {
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    assert_eq!(
        named("use crate::{a::X, b};\nlet y = crate::c::f();", &modules),
        modules
    );
    let mut g = BTreeMap::new();
    g.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    g.insert("b".to_owned(), BTreeSet::from(["c".to_owned()]));
    g.insert("c".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(
        cycle_from(&g, "a").map(|c| c.join(" → ")).as_deref(),
        Some("a → b → c → a")
    );
    g.insert("c".to_owned(), BTreeSet::new());
    assert_eq!(cycle_from(&g, "a"), None);
}

#[test]
fn code_after_a_test_module_counts_and_test_items_do_not() {
    let dir = std::env::temp_dir().join(format!("tpsview-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("m.rs");
    std::fs::write(
        &f,
        "use crate::a::X;\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\nconst T: [&str; 1] = [\"}\"];\n\
         #[cfg(test)]\nmod inline { use crate::b::Y; fn f() { let _ = '}'; } }\n\
         // crate::d in a comment\nfn g() -> crate::c::Z { todo!() }\n",
    )
    .expect("write");
    let modules: BTreeSet<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
    let seen = named(&code(&f), &modules);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(seen, BTreeSet::from(["a".to_owned(), "c".to_owned()]));
}

/// What in a reader's code computes a figure of a level: a statistic of the model's `stats`
/// (mean, distribution, percentiles) or a figure put into `Reported::recomputed`.
fn computes_a_figure(code: &str) -> Vec<&'static str> {
    [
        "stats::mean(",
        "Dist::of(",
        "dist_in_place(",
        "percentiles(",
        "percentile_sorted(",
        ".recomputed",
    ]
    .into_iter()
    .filter(|p| code.contains(p))
    .collect()
}

#[test]
fn the_readers_compute_no_figure() {
    // The checker sees what the readers did before their raw data was typed (vllm_offline.rs's
    // mean of the latencies, llmperf.rs's mean ITL).
    assert_eq!(
        computes_a_figure("let d = crate::stats::Dist::of(&mut lat);\n p.reported.recomputed = r;"),
        ["Dist::of(", ".recomputed"]
    );
    let formats = crates().join("tpsview-formats/src");
    let mut found = Vec::new();
    for f in files_of(&formats, "formats") {
        // tpsview/1 stores what reports written before `Point::samples` carried, and reads it back.
        if f.ends_with("formats/tpsview.rs") {
            continue;
        }
        let what = computes_a_figure(&code(&f));
        if !what.is_empty() {
            found.push(format!("{}: {what:?}", f.display()));
        }
    }
    assert!(
        found.is_empty(),
        "readers copy what a tool wrote; raw data that is not per request goes to \
         Point::samples for the analysis to reduce: {found:#?}"
    );
}
