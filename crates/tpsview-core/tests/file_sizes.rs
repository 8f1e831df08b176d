//! Files by concern (issue 42): no source file of the product — the crates, the components, the
//! web app — has more than [`MAX_LINES`] lines before its inline test module. Test files (a
//! `tests.rs`, anything under a `tests/` folder) are not counted: they grow with the cases.

use std::path::{Path, PathBuf};

/// The most lines a source file may have before its `#[cfg(test)]` module.
const MAX_LINES: usize = 700;

/// Every `.rs` file under `dir`, test files left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "tests" && name != "target" {
                sources(&p, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(p);
        }
    }
}

/// Lines before the first `#[cfg(test)]` at the start of a line (the whole file without one).
fn counted(text: &str) -> usize {
    text.lines()
        .position(|l| l.trim_end() == "#[cfg(test)]")
        .unwrap_or_else(|| text.lines().count())
}

#[test]
fn no_source_file_is_over_the_line_limit_before_its_tests() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["crates", "components/src", "src"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut over: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let n = counted(&std::fs::read_to_string(p).ok()?);
            let rel = p.strip_prefix(&root).unwrap_or(p).display().to_string();
            (n > MAX_LINES && !rel.contains("/tests/")).then(|| format!("{rel}: {n}"))
        })
        .collect();
    over.sort();
    assert!(
        over.is_empty(),
        "over {MAX_LINES} lines before the test module (split by concern): {over:#?}"
    );
}

#[test]
fn the_count_stops_at_the_test_module() {
    let text = "a\nb\n#[cfg(test)]\nmod tests;\n";
    assert_eq!(counted(text), 2);
    assert_eq!(counted("a\nb\nc\n"), 3);
    // Indented (a test item inside a module) does not end the count.
    assert_eq!(counted("a\n    #[cfg(test)]\n    fn t() {}\nb\n"), 4);
}
