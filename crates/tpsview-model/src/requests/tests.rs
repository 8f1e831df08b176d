use super::*;

fn ok(start: f64, ttft: f64, e2e: f64, out: u32, gaps: &[f64]) -> Completed<'_> {
    Completed {
        start_s: start,
        ttft_s: ttft,
        e2e_s: e2e,
        input_tokens: None,
        output_tokens: out,
        chunk_gaps: Some(gaps),
    }
}

#[test]
fn builds_columns_and_validates_like_an_importer() {
    let mut b = RequestsBuilder::with_capacity(4);
    b.push_ok(ok(0.0, 0.1, 0.5, 5, &[0.1, 0.1, 0.1, 0.1]));
    b.push_failed(0.2, None, "HTTP 500");
    // Last token before the first: E2E < TTFT breaks a rule every importer applies.
    b.push_ok(ok(0.3, 0.4, 0.2, 3, &[0.1, 0.1]));
    // No output tokens: TTFT and TPOT undefined.
    b.push_ok(ok(0.4, 0.1, 0.3, 0, &[]));
    let (req, diags) = b.finish("bench");
    assert_eq!(req.len(), 4);
    assert_eq!(req.start_s.as_deref(), Some(&[0.0, 0.2, 0.3, 0.4][..]));
    assert_eq!(req.input_tokens, None, "all unknown: dropped");
    assert_eq!(req.chunk_gaps.as_ref().map(Ragged::rows), Some(4));
    assert_eq!(req.chunk_gaps.as_ref().map(|g| g.row(0).len()), Some(4));
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
    let mut b = RequestsBuilder::with_capacity(1);
    b.push_ok(Completed {
        start_s: 1.0,
        ttft_s: 0.1,
        e2e_s: 0.2,
        input_tokens: Some(7),
        output_tokens: 2,
        chunk_gaps: None,
    });
    let (req, diags) = b.finish("x");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(req.input_tokens, Some(vec![7]));
    assert!(req.chunk_gaps.is_none());
}
