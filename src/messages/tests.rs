use super::*;

#[test]
fn a_truncated_file_is_named_with_its_position_and_a_hint() {
    let e = tpsview_core::parse_any("cut.json", br#"{"mean_tpot_ms": 1, "#).expect_err("truncated");
    let text = parse_error(&e);
    assert!(text.starts_with("cut.json"), "{text}");
    assert!(text.contains("line 1"), "{text}");
    assert!(
        text.ends_with("is the file complete? A truncated download ends mid-value."),
        "{text}"
    );
}

#[test]
fn each_fetch_failure_has_its_own_words() {
    let url = "http://x/r.json";
    let cases = [
        (
            FetchFailure::Scheme,
            "only http:// and https:// addresses can be loaded",
        ),
        (FetchFailure::Status(404), "the server answered HTTP 404"),
        (
            FetchFailure::Html,
            "sent an HTML page, not a benchmark file",
        ),
        (
            FetchFailure::Network("refused".into()),
            "could not be fetched (refused)",
        ),
    ];
    for (cause, want) in cases {
        let text = fetch_error(url, &cause);
        assert!(text.starts_with(url) && text.contains(want), "{text}");
    }
}
