use super::*;

fn ok(start: f64, ttft: f64, e2e: f64, out: f64, gaps: &[f64]) -> Row {
    Row {
        start_s: Some(start),
        ttft_s: ttft,
        e2e_s: e2e,
        output_tokens: out,
        gaps_s: Some(gaps.to_vec()),
        ..Row::default()
    }
}

#[test]
fn builds_columns_and_validates_like_an_importer() {
    let mut b = Rows::default();
    b.push(ok(0.0, 0.1, 0.5, 5.0, &[0.1, 0.1, 0.1, 0.1]));
    b.push(Row {
        start_s: Some(0.2),
        ..Row::failed("HTTP 500".into())
    });
    // Last token before the first: E2E < TTFT breaks a rule every importer applies.
    b.push(ok(0.3, 0.4, 0.2, 3.0, &[0.1, 0.1]));
    // No output tokens: TTFT and TPOT undefined.
    b.push(ok(0.4, 0.1, 0.3, 0.0, &[]));
    assert_eq!(b.len(), 4);
    let mut diags = Vec::new();
    let req = b.finish("bench", "requests", &mut diags);
    assert_eq!(req.len(), 4);
    assert_eq!(req.start_s.as_deref(), Some(&[0.0, 0.2, 0.3, 0.4][..]));
    assert_eq!(req.input_tokens, None, "all unknown: dropped");
    assert_eq!(req.output_tokens, vec![5, 0, 3, 0]);
    assert_eq!(req.chunk_gaps.as_ref().map(Ragged::rows), Some(4));
    assert_eq!(req.chunk_gaps.as_ref().map(|g| g.row(0).len()), Some(4));
    assert_eq!(req.chunk_gaps.as_ref().map(|g| g.row(1).len()), Some(0));
    assert!(req.is_ok(0));
    assert!(matches!(&req.outcome[1], Outcome::Failed(r) if &**r == "HTTP 500"));
    assert!(
        matches!(req.outcome[2], Outcome::Invalid(_)),
        "{:?}",
        req.outcome[2]
    );
    assert!(
        matches!(req.outcome[3], Outcome::Invalid(_)),
        "{:?}",
        req.outcome[3]
    );
    let flagged: Vec<Option<usize>> = diags.iter().map(|d| d.index).collect();
    assert_eq!(flagged, vec![Some(2), Some(3)], "{diags:?}");
    assert!(diags.iter().all(|d| d.file == "bench"));
}

#[test]
fn keeps_prompt_lengths_when_known_and_no_gaps_when_none_were_seen() {
    let mut b = Rows::default();
    b.push(Row {
        start_s: Some(1.0),
        ttft_s: 0.1,
        e2e_s: 0.2,
        input_tokens: Some(7.0),
        output_tokens: 2.0,
        ..Row::default()
    });
    let mut diags = Vec::new();
    let req = b.finish("x", "requests", &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(req.input_tokens, Some(vec![7]));
    assert!(req.chunk_gaps.is_none());
}

#[test]
fn a_token_count_that_is_not_whole_is_named_by_its_field() {
    let mut b = Rows::default();
    b.push(ok(0.0, 0.1, 0.5, 2.5, &[]));
    let mut diags = Vec::new();
    let req = b.finish("f.json", "requests", &mut diags);
    assert!(!req.is_ok(0), "{:?}", req.outcome);
    assert!(
        diags
            .iter()
            .any(|d| d.field.contains("output_tokens") && d.file == "f.json"),
        "{diags:?}"
    );
}
