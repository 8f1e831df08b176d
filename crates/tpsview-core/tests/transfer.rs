//! A parsed file crossing from the loading worker to the page (`transfer`), its figures checked
//! through the summary (the readers' crate has no analysis but in tests).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::formats::{parse_any, tpsview};
use tpsview_core::metrics::{fold_gaps, FOLD_GAPS_ABOVE};
use tpsview_core::model::Outcome;
use tpsview_core::summary::summarize;
use tpsview_core::transfer::{decode, encode};
use tpsview_core::MetricOptions;

fn summary_json(p: &tpsview_core::Parsed) -> String {
    serde_json::to_string(&summarize(vec![p.clone()], &MetricOptions::default())).expect("json")
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut out = Vec::new();
    // Every file under it, a sweep's nested directories included.
    let mut todo = vec![root];
    while let Some(dir) = todo.pop() {
        for f in std::fs::read_dir(&dir).expect("dir").flatten() {
            if f.path().is_dir() {
                todo.push(f.path());
                continue;
            }
            let name = f.file_name().to_string_lossy().into_owned();
            out.push((name, std::fs::read(f.path()).expect("file")));
        }
    }
    assert!(out.len() > 20, "found {} fixtures", out.len());
    out
}

#[test]
fn every_fixture_crosses_unchanged() {
    let mut crossed = 0;
    for (name, bytes) in fixtures() {
        let Ok(p) = parse_any(&name, &bytes) else {
            continue;
        };
        let wire = encode(&p);
        let back = decode(&wire).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Bit-for-bit (NaN != NaN, so compare the encodings and the summaries).
        assert_eq!(encode(&back), wire, "{name}");
        assert_eq!(summary_json(&back), summary_json(&p), "{name}");
        assert_eq!(back.diagnostics, p.diagnostics, "{name}");
        assert_eq!(back.report.meta, p.report.meta, "{name}");
        crossed += 1;
    }
    assert!(crossed > 20, "{crossed}");
}

#[test]
fn garbage_does_not_decode_into_a_report() {
    assert!(decode(b"").is_err());
    assert!(decode(&[0xff; 64]).is_err());
}

/// A big vLLM file with one failed and one unusable request.
fn big() -> tpsview_core::Parsed {
    let text = tpsview_core::synthetic::vllm_detailed(1_100, 1_000, 7, false);
    let mut p = parse_any("big.json", text.as_bytes()).expect("parses");
    let req = p.report.runs[0].points[0]
        .requests
        .as_mut()
        .expect("requests");
    req.outcome[3] = Outcome::Failed("boom".into());
    req.output_tokens[5] = 0;
    p
}

#[test]
fn folding_keeps_every_figure_and_shrinks_the_report() {
    let mut p = big();
    let before = summary_json(&p);
    let size_before = encode(&p).len();
    let folded = fold_gaps(&mut p.report);
    assert!(folded > FOLD_GAPS_ABOVE, "{folded}");
    let g = p.report.runs[0].points[0]
        .requests
        .as_ref()
        .unwrap()
        .chunk_gaps
        .as_ref()
        .unwrap();
    assert!(g.values.is_empty() && g.pooled.is_some());
    assert!(g.row_len(0) >= 1_000);
    assert_eq!(summary_json(&p), before);
    let size_after = encode(&p).len();
    assert!(
        size_after * 50 < size_before,
        "{size_after} vs {size_before}"
    );
    // Folding twice changes nothing; a small report is left alone.
    assert_eq!(fold_gaps(&mut p.report), 0);
    assert_eq!(summary_json(&p), before);
    let mut small = parse_any(
        "s.json",
        tpsview_core::synthetic::vllm_detailed(10, 20, 1, false).as_bytes(),
    )
    .unwrap();
    assert_eq!(fold_gaps(&mut small.report), 0);
}

#[test]
fn a_folded_report_exports_and_reads_back_with_the_same_figures() {
    let mut p = big();
    fold_gaps(&mut p.report);
    let text = tpsview::write(&p.report);
    assert!(text.contains("itl_pooled_s") && !text.contains("chunk_gaps_s"));
    let back = parse_any("export.json", text.as_bytes()).expect("reads back");
    let s = |p: &tpsview_core::Parsed| {
        let s = summarize(vec![p.clone()], &MetricOptions::default());
        let m = &s.runs[0].points[0].metrics;
        (
            m.itl_ms,
            m.tpot_ms,
            m.system_tps,
            m.requests_ok,
            m.requests_failed,
        )
    };
    assert_eq!(s(&back), s(&p));
}

#[test]
fn columns_cross_as_raw_bytes_with_every_outcome_and_bit_pattern() {
    let mut p = big();
    let req = p.report.runs[0].points[0]
        .requests
        .as_mut()
        .expect("requests");
    req.outcome[9] = Outcome::Invalid("ttft".into());
    req.outcome[10] = Outcome::Failed("<b>html</b> — é".into());
    req.ttft_s[0] = f64::NAN;
    req.ttft_s[1] = -0.0;
    req.e2e_s[2] = f64::INFINITY;
    let back = reassembled(&p).expect("reassembles");
    assert_eq!(encode(&back), encode(&p));
    let r = back.report.runs[0].points[0]
        .requests
        .as_ref()
        .expect("requests");
    assert_eq!(r.outcome[3], Outcome::Failed("boom".into()));
    assert_eq!(r.outcome[9], Outcome::Invalid("ttft".into()));
    assert_eq!(r.outcome[10], Outcome::Failed("<b>html</b> — é".into()));
    assert!(r.ttft_s[0].is_nan() && r.ttft_s[1].to_bits() == (-0.0f64).to_bits());
    assert_eq!(r.e2e_s[2], f64::INFINITY);
    // The columns' own bytes, without per-element framing: 8 per time, 4 per count, 4 per row
    // offset and 8 per gap; outcomes a byte each after their count, then the three texts.
    let n = r.len();
    let gaps = r.chunk_gaps.as_ref().expect("gaps").values.len();
    let pieces = tpsview_core::transfer::split(p);
    let sizes: Vec<usize> = pieces.columns.iter().map(Vec::len).collect();
    assert_eq!(
        sizes[..3],
        [8 * n, 8 * n, 4 * n],
        "ttft, e2e, output tokens"
    );
    assert!(
        (4 + n..4 + n + 64).contains(&sizes[3]),
        "outcomes: {}",
        sizes[3]
    );
    assert!(sizes.contains(&(8 * gaps)) && sizes.contains(&(4 * (n + 1))));
    assert!(
        pieces.skeleton.len() < 16 << 10,
        "{}",
        pieces.skeleton.len()
    );
}

#[test]
fn a_cut_answer_is_an_error_not_a_panic() {
    let wire = encode(&big());
    for cut in [wire.len() / 3, wire.len() / 2, wire.len() - 9] {
        assert!(decode(&wire[..cut]).is_err(), "cut at {cut}");
    }
}

/// `p` split and put back together, column by column, as the page does.
fn reassembled(p: &tpsview_core::Parsed) -> Result<tpsview_core::Parsed, String> {
    let pieces = tpsview_core::transfer::split(p.clone());
    let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton)?;
    assert_eq!(a.missing(), pieces.columns.len());
    for c in &pieces.columns {
        a.put(c)?;
    }
    a.finish()
}

#[test]
fn every_fixture_crosses_in_pieces_unchanged() {
    let mut crossed = 0;
    for (name, bytes) in fixtures() {
        let Ok(p) = parse_any(&name, &bytes) else {
            continue;
        };
        let back = reassembled(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(encode(&back), encode(&p), "{name}");
        crossed += 1;
    }
    assert!(crossed > 20, "{crossed}");
    // A big file with failed and unusable requests, folded as the worker folds it.
    let mut p = big();
    tpsview_core::metrics::fold_requests(&mut p.report);
    let back = reassembled(&p).expect("reassembles");
    assert_eq!(encode(&back), encode(&p));
    assert_eq!(summary_json(&back), summary_json(&p));
}

#[test]
fn pieces_out_of_order_cut_or_missing_are_errors_not_panics() {
    let pieces = tpsview_core::transfer::split(big());
    assert!(pieces.columns.len() >= 6, "{}", pieces.columns.len());
    // A column missing.
    let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton).expect("skeleton");
    for c in &pieces.columns[1..] {
        let _ = a.put(c);
    }
    assert!(a.finish().is_err());
    // Two columns swapped (an f64 column where the u32 one belongs has another length).
    let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton).expect("skeleton");
    let mut cols = pieces.columns.clone();
    cols.swap(0, 2);
    assert!(
        cols.iter().all(|c| a.put(c).is_ok()),
        "whole numbers of values either way"
    );
    assert!(a.finish().is_err(), "but the lengths disagree");
    // A cut column, a column too many, a cut skeleton.
    let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton).expect("skeleton");
    assert!(a.put(&pieces.columns[0][..13]).is_err());
    let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton).expect("skeleton");
    for c in &pieces.columns {
        a.put(c).expect("puts");
    }
    assert!(a.put(&pieces.columns[0]).is_err());
    assert!(
        tpsview_core::transfer::Assembly::new(&pieces.skeleton[..pieces.skeleton.len() / 2])
            .is_err()
    );
    // The outcome column (the fourth): cut before its texts, or with a tag that is none.
    let outcomes = &pieces.columns[3];
    let put_fourth = |col: &[u8]| {
        let mut a = tpsview_core::transfer::Assembly::new(&pieces.skeleton).expect("skeleton");
        for c in &pieces.columns[..3] {
            a.put(c).expect("puts");
        }
        a.put(col)
    };
    assert!(put_fourth(outcomes).is_ok());
    assert!(put_fourth(&outcomes[..outcomes.len() - 3]).is_err());
    let mut bad = outcomes.clone();
    bad[4] = 7;
    assert!(put_fourth(&bad).is_err());
}
