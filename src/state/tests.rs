use leptos::prelude::*;

use super::*;
use crate::load::{from_bytes, read_as, LoadedFile};

fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

fn before() -> LoadedFile {
    from_bytes(
        "before.json",
        &fixture("compare/before.tpsview.json"),
        false,
    )
}

fn after() -> LoadedFile {
    from_bytes("after.json", &fixture("compare/after.tpsview.json"), false)
}

fn sample() -> LoadedFile {
    read_as(
        "c16.json",
        fixture("vllm/summary-only-c16.json").into(),
        None,
        true,
    )
}

/// File `i` read again as `format` from its kept bytes (what the worker gives back), put in its
/// place as the page does.
fn read_again(files: Files, i: usize, format: tpsview_core::Format) {
    let new = files.0.with_untracked(|f| {
        let old = &f[i];
        read_as(
            &old.status.name,
            old.bytes.clone().expect("kept"),
            Some(format),
            false,
        )
    });
    files.replace(i, new);
}

fn names(files: Files) -> Vec<String> {
    files
        .0
        .with_untracked(|f| f.iter().map(|x| x.status.name.clone()).collect())
}

/// Runs `f` with a reactive owner, as the app's components do.
fn with_owner(f: impl FnOnce()) {
    let owner = Owner::new();
    owner.set();
    f();
}

#[test]
fn the_example_gives_way_to_the_first_own_file_only() {
    with_owner(|| {
        let files = Files(RwSignal::new(Vec::new()));
        files.add(vec![sample()]);
        files.add(vec![before()]);
        assert_eq!(names(files), ["before.json"]);
        files.add(vec![after()]);
        assert_eq!(names(files), ["before.json", "after.json"]);
        // A sample added later joins the user's files.
        files.add(vec![sample()]);
        assert_eq!(names(files), ["before.json", "after.json", "c16.json"]);
    });
}

/// The grouped report of the files, as the viewer derives it.
fn grouped(files: Files) -> Report {
    let parsed = files.0.with_untracked(|f| {
        f.iter()
            .filter_map(|x| x.parsed.clone())
            .collect::<Vec<_>>()
    });
    tpsview_core::group::group(parsed).0
}

/// `before.json` read again with another model: the same label, so a run the grouping keeps apart.
fn before_on(model: &str) -> LoadedFile {
    let text = String::from_utf8(fixture("compare/before.tpsview.json"))
        .unwrap()
        .replace("Llama-3.1-8B", model);
    from_bytes(&format!("before-{model}.json"), text.as_bytes(), false)
}

#[test]
fn removing_a_run_drops_its_files_and_only_them() {
    with_owner(|| {
        let files = Files(RwSignal::new(vec![before(), after()]));
        let report = grouped(files);
        let ids = report.run_ids();
        let key = files.key_of(&report, &ids[1]).expect("a run");
        files.remove_run(&key);
        assert_eq!(names(files), ["before.json"]);
        assert_eq!(files.key_of(&report, &RunId::new("no such run")), None);
    });
}

#[test]
fn two_runs_with_one_label_are_removed_one_at_a_time() {
    with_owner(|| {
        let files = Files(RwSignal::new(vec![before(), before_on("Qwen3-8B")]));
        let report = grouped(files);
        assert_eq!(report.runs.len(), 2);
        let ids = report.run_ids();
        assert_eq!(ids[0], "before: vLLM 0.11 defaults · Llama-3.1-8B");
        assert_eq!(ids[1], "before: vLLM 0.11 defaults · Qwen3-8B");
        let key = files.key_of(&report, &ids[1]).expect("a run");
        files.remove_run(&key);
        assert_eq!(names(files), ["before.json"]);
        // The one left is the first run, its label alone its id again.
        let left = grouped(files);
        assert_eq!(left.runs[0].meta.model.as_deref(), Some("Llama-3.1-8B"));
        assert_eq!(left.run_ids(), [RunId::new("before: vLLM 0.11 defaults")]);
    });
}

#[test]
fn naming_runs_regroups_files_and_an_empty_name_restores_theirs() {
    with_owner(|| {
        let files = Files(RwSignal::new(vec![before(), after()]));
        let own = files.0.with_untracked(|f| f[0].status.run_label.clone());
        files.set_run_label(0, "  both ".into());
        files.set_run_label(1, "both".into());
        let labels = files.0.with_untracked(|f| {
            f.iter()
                .map(|x| x.parsed.as_ref().and_then(|p| p.run_label.clone()))
                .collect::<Vec<_>>()
        });
        assert_eq!(labels, [Some("both".to_owned()), Some("both".to_owned())]);
        // Grouped as the viewer groups them: one run now.
        let parsed = files.0.with_untracked(|f| {
            f.iter()
                .filter_map(|x| x.parsed.clone())
                .collect::<Vec<_>>()
        });
        let (report, _) = tpsview_core::group::group(parsed);
        assert_eq!(report.runs.len(), 1);
        files.set_run_label(0, String::new());
        assert_eq!(
            files.0.with_untracked(|f| f[0].status.run_label.clone()),
            own
        );
        // Out of range: nothing happens.
        files.set_run_label(9, "x".into());
        assert_eq!(files.0.with_untracked(Vec::len), 2);
    });
}

/// Reads file 0 again as tpsview/1: it parses, and its run is still named "mine".
fn read_back_as_mine(files: Files) {
    read_again(files, 0, tpsview_core::Format::Tpsview);
    let f = files.0.with_untracked(|f| f[0].clone());
    assert_eq!(f.status.error, None);
    assert_eq!(f.status.run_label, "mine");
    assert_eq!(
        f.parsed.as_ref().and_then(|p| p.run_label.as_deref()),
        Some("mine")
    );
}

#[test]
fn reading_a_file_again_as_another_format_keeps_its_run_name() {
    with_owner(|| {
        let files = Files(RwSignal::new(vec![before()]));
        files.set_run_label(0, "mine".into());
        read_back_as_mine(files);
        // Read as vLLM, a tpsview/1 report is an error that names the file; it stays in its place.
        read_again(files, 0, tpsview_core::Format::VllmServe);
        let f = files.0.with_untracked(|f| f[0].clone());
        assert_eq!(f.status.name, "before.json");
        let err = f.status.error.expect("not a vLLM result");
        assert!(err.starts_with("before.json"), "{err}");
        // Read back as what it is: the user's run name comes back with it.
        read_back_as_mine(files);
        // A file of another name is never put in its place.
        files.replace(0, after());
        assert_eq!(names(files), ["before.json"]);
    });
}

#[test]
fn a_file_without_concurrency_gets_the_one_the_user_gives() {
    with_owner(|| {
        let report = read_as(
            "report.json",
            fixture("trtllm/minimal-report.json").into(),
            None,
            false,
        );
        let files = Files(RwSignal::new(vec![report, before()]));
        let levels = |files: Files| {
            grouped(files)
                .runs
                .iter()
                .flat_map(|r| r.points.iter().map(|p| p.concurrency))
                .collect::<Vec<_>>()
        };
        assert!(levels(files).contains(&None));
        assert_eq!(files.set_concurrency("report.json", 0.0), 0, "not a level");
        assert_eq!(files.set_concurrency("other.json", 8.0), 0);
        assert_eq!(files.set_concurrency("report.json#1", 8.0), 1);
        let after = levels(files);
        assert!(!after.contains(&None), "{after:?}");
        assert!(after.contains(&Some(8.0)));
        // Levels that had one keep it.
        assert_eq!(files.set_concurrency("before.json", 2.0), 0);
    });
}
