//! The core's modules form layers: no two import each other, directly or through others (the
//! rust-analyzer rule, house-style.md), and `vocabulary` is the bottom that imports nothing; the
//! web app's modules (`src/`) too. Read from the sources: every `crate::<module>` a module's
//! non-test code names (`use` lines, paths, serde attributes) is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The web app's sources (the workspace's root crate).
fn app_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../src")
}

/// The text of a file without its `#[cfg(test)]` items and its comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("source");
    let text = match text.find("#[cfg(test)]") {
        // Test modules sit at the end of each file in this crate.
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
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

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let g = graph_of(&src(), "lib.rs");
    assert!(g.len() > 15, "{:?}", g.keys());
    g
}

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
fn no_two_modules_of_the_core_import_each_other() {
    let g = graph();
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles: {found:#?}");
    assert!(
        g["vocabulary"].is_empty(),
        "vocabulary imports {:?}",
        g["vocabulary"]
    );
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
