use super::*;

pub(crate) fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

#[test]
fn a_file_the_worker_read_becomes_a_loaded_file_with_its_bytes_kept() {
    let f = read_as(
        "c16.json",
        fixture("vllm/summary-only-c16.json").into(),
        None,
        false,
    );
    assert_eq!(f.status.error, None);
    assert_eq!(f.status.format_id, Some("vllm-bench-serve"));
    assert_eq!(
        f.status.run_label,
        "vllm · meta-llama/Llama-3.1-8B-Instruct"
    );
    assert!(f.status.can_reread && f.bytes.is_some());
    assert!(f.parsed.is_some() && !f.is_sample);
}

#[test]
fn the_page_reads_tpsview_reports_itself_and_nothing_else() {
    let report = fixture("compare/before.tpsview.json");
    let f = from_bytes("before.json", &report, true);
    assert_eq!(f.status.error, None);
    assert_eq!(f.status.format_id, Some(tpsview_core::formats::tpsview::ID));
    assert!(f.is_sample && f.bytes.is_some());
    // Another tool's file is the worker's to read: here it is an error that names the file, with
    // its bytes kept so that it can be read again (by the worker) as what it is.
    let f = from_bytes("c16.json", &fixture("vllm/summary-only-c16.json"), false);
    let err = f.status.error.expect("not tpsview/1");
    assert!(err.starts_with("c16.json: "), "{err}");
    assert!(f.status.can_reread && f.bytes.is_some());
}

#[test]
fn a_broken_file_becomes_an_error_naming_it_and_can_be_read_again() {
    let f = read_as(
        "cut.json",
        fixture("vllm/truncated.json").into(),
        None,
        true,
    );
    let err = f.status.error.expect("an error");
    assert!(err.starts_with("cut.json: "), "{err}");
    assert!(f.parsed.is_none());
    assert!(
        f.status.can_reread,
        "its bytes are kept to read it as another format"
    );
    let again = read_as(
        "cut.json",
        f.bytes.expect("kept"),
        Some(Format::Tpsview),
        false,
    );
    assert!(again.status.error.is_some());
}

#[test]
fn urls_are_named_and_only_http_is_fetched() {
    assert_eq!(url_name("https://h/x/run-c16.json"), "run-c16.json");
    assert_eq!(url_name("samples/a.json"), "a.json");
    assert_eq!(url_name("https://h/dir/"), "https://h/dir/");
    for ok in ["samples/a.json", "/fx/a.json", "http://h/a", "HTTPS://h/a"] {
        assert!(scheme_ok(ok), "{ok}");
    }
    for bad in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/plain,x",
        " ftp://h/a",
    ] {
        assert!(!scheme_ok(bad), "{bad}");
    }
}

#[test]
fn a_bundle_hands_back_its_view() {
    let v = crate::view::View {
        baseline: Some("x".into()),
        ..Default::default()
    };
    let report = tpsview_core::formats::tpsview::write(&tpsview_core::simulate::seed_report());
    let text = crate::view::bundle(&report, &v);
    let f = from_bytes("b.json", text.as_bytes(), false);
    assert_eq!(bundle_view(&f), Some(v));
    assert_eq!(
        bundle_view(&from_bytes("r.json", report.as_bytes(), false)),
        None
    );
}

#[test]
fn a_folder_reads_its_runs_in_order_and_says_what_it_left_out() {
    let named: Vec<(String, usize)> = [
        "exp/summary.csv",
        "exp/SERVE--s=16-BENCH--max_concurrency=1/run=0.json",
        "exp/SERVE--s=16-BENCH--max_concurrency=1/summary.json",
        "exp/SERVE--s=8-BENCH--max_concurrency=1/summary.json",
        "exp/SERVE--s=8-BENCH--max_concurrency=1/run=0.json",
        "exp/plot.png",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| ((*n).to_owned(), i))
    .collect();
    let (read, note) = super::from_folder(named);
    let order: Vec<usize> = read.iter().map(|(_, i)| *i).collect();
    assert_eq!(order, [4, 1], "natural order: s=8 before s=16");
    let note = note.expect("a note");
    assert!(note.starts_with("From the folder, 2 file(s) are read; left out: 2 × summary.json (the run=N.json files beside it"), "{note}");
    assert!(
        note.contains("; summary.csv (")
            && note.ends_with("1 file(s) that are not .json, .jsonl, .csv, .yaml or MLPerf logs."),
        "{note}"
    );
    // Plain files (no folder): all of them, as given, and nothing to say.
    let (read, note) = super::from_folder(vec![("b.json".to_owned(), 0), ("a.json".to_owned(), 1)]);
    assert_eq!(
        read.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["b.json", "a.json"]
    );
    assert_eq!(note, None);
}
