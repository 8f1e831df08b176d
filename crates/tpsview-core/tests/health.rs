//! The analysis's `health` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::compare::CompareOptions;
use tpsview_core::health::*;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::Summary;

/// Files read, grouped and summarised as the viewer does; the health under `opts`.
fn health_of(files: &[(&str, &[u8])], opts: &CompareOptions) -> (Summary, Vec<HealthItem>) {
    let parsed = files
        .iter()
        .map(|(name, bytes)| tpsview_core::parse_any(name, bytes).unwrap())
        .collect();
    let (report, mut diagnostics) = tpsview_core::group::group(parsed);
    let (runs, d) = tpsview_core::summary::summarize_report(&report, &MetricOptions::default());
    diagnostics.extend(d);
    let summary = Summary { runs, diagnostics };
    let items = health(&report, &summary, opts);
    (summary, items)
}

fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../tests/fixtures/{p}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

const ALL_FAILED: &[u8] = br#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4,
    "duration": 2.0, "completed": 0, "failed": 10, "output_throughput": 0.0,
    "mean_ttft_ms": 0.0, "mean_tpot_ms": 0.0, "p99_tpot_ms": 0.0}"#;

#[test]
fn a_run_where_every_request_failed_is_an_error_first_and_said_once() {
    let (_, items) = health_of(&[("failed.json", ALL_FAILED)], &CompareOptions::default());
    let first = &items[0];
    assert_eq!(
        (first.severity, first.concern),
        (Severity::Error, Concern::AllFailed)
    );
    assert!(
        first
            .title
            .contains("no request completed at 1 of 1 level (concurrency 4)"),
        "{}",
        first.title
    );
    assert!(
        first.detail.starts_with("10 requests failed"),
        "{}",
        first.detail
    );
    // The per-file warning that says the same is folded into it.
    assert!(!items
        .iter()
        .any(|i| i.concern == Concern::Note && i.title.contains("no request completed")));
    // Ranked: no warning or note before an error.
    let ranks: Vec<Severity> = items.iter().map(|i| i.severity).collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted);
}

#[test]
fn levels_without_send_times_are_one_warning_per_run_with_the_levels() {
    // SGLang objects 1 and 3 of this file carry no start times (object 2 is a broken line).
    let (s, items) = health_of(
        &[("one-bad-line.jsonl", &fixture("sglang/one-bad-line.jsonl"))],
        &CompareOptions::default(),
    );
    let send: Vec<&HealthItem> = items
        .iter()
        .filter(|i| i.concern == Concern::NoSendTimes)
        .collect();
    assert_eq!(send.len(), 1, "{items:#?}");
    assert_eq!(send[0].severity, Severity::Warning);
    assert_eq!(send[0].count, 2);
    let levels: Vec<String> = s.runs[0]
        .points
        .iter()
        .filter_map(|p| p.metrics.concurrency)
        .map(|c| format!("{c}"))
        .collect();
    assert!(
        send[0]
            .title
            .contains(&format!("(concurrency {})", levels.join(", "))),
        "{}",
        send[0].title
    );
    // The per-file info note is not repeated beside it; the skipped line is a warning note.
    assert!(!items
        .iter()
        .any(|i| i.concern == Concern::Note && i.title.starts_with("No send times")));
    assert!(items.iter().any(|i| i.concern == Concern::Note
        && i.severity == Severity::Warning
        && i.title.starts_with("Result object skipped")));
}

#[test]
fn per_gpu_names_the_run_it_leaves_out_and_no_concurrency_is_a_warning() {
    let before = fixture("compare/before.tpsview.json");
    let after = fixture("compare/after.tpsview.json");
    let opts = CompareOptions {
        per_gpu: true,
        gpu_counts: Vec::new(),
    };
    let (s, items) = health_of(&[("b.json", &before), ("a.json", &after)], &opts);
    let left: Vec<&HealthItem> = items
        .iter()
        .filter(|i| i.concern == Concern::NoGpuCount)
        .collect();
    // Only the second file lacks a GPU count (compare fixtures: `gpu_count` in before's meta).
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].run, Some(1));
    assert!(left[0].title.starts_with(s.runs[1].id.as_str()));
    let given = CompareOptions {
        per_gpu: true,
        gpu_counts: vec![(s.runs[1].id.clone(), 2)],
    };
    let (_, items) = health_of(&[("b.json", &before), ("a.json", &after)], &given);
    assert!(!items.iter().any(|i| i.concern == Concern::NoGpuCount));
    // This trtllm-bench report records no concurrency.
    let csv = fixture("trtllm/minimal-report.json");
    let (_, items) = health_of(&[("report.json", &csv)], &CompareOptions::default());
    assert!(
        items
            .iter()
            .any(|i| i.concern == Concern::NoConcurrency && i.severity == Severity::Warning),
        "{items:#?}"
    );
    assert_eq!(counts(&items).0, 0);
}

#[test]
fn repeated_notes_are_grouped_with_their_count() {
    let text = String::from_utf8(fixture("vllm/append-result.json")).unwrap();
    let (_, items) = health_of(
        &[("append.json", text.as_bytes())],
        &CompareOptions::default(),
    );
    let notes: Vec<&HealthItem> = items
        .iter()
        .filter(|i| i.title.starts_with("No per-request data"))
        .collect();
    assert_eq!(notes.len(), 1);
    assert_eq!((notes[0].severity, notes[0].count), (Severity::Info, 2));
    assert_eq!(notes[0].detail, "append.json#1, append.json#2");
}
