use super::fast_read;
use crate::audit::discrepancies;
use crate::formats::{detect, parse_any, Format};
use crate::metrics::{compute_point, Basis, MetricOptions};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/vllm/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 1e-9 * b.abs().max(1.0))
}

#[test]
fn detects_vllm_by_key_signature() {
    assert_eq!(
        detect(&fixture("detailed-small.json")),
        Some(Format::VllmServe)
    );
    assert_eq!(
        detect(&fixture("summary-only-c16.json")),
        Some(Format::VllmServe)
    );
    assert_eq!(detect(&fixture("old-keys.json")), Some(Format::VllmServe));
}

#[test]
fn recomputes_detailed_file_by_hand() {
    let parsed = parse_any("detailed-small.json", &fixture("detailed-small.json")).unwrap();
    let run = &parsed.report.runs[0];
    assert_eq!(
        run.meta.model.as_deref(),
        Some("meta-llama/Llama-3.1-8B-Instruct")
    );
    let point = &run.points[0];
    assert_eq!(point.concurrency, Some(2.0));
    assert_eq!(point.request_rate, Some(f64::INFINITY));
    let (m, _) = compute_point(point, &MetricOptions::default());
    assert_eq!(m.basis, Basis::Recomputed);
    assert_eq!(m.requests_ok, Some(4));
    assert_eq!(m.requests_failed, Some(1));
    assert_eq!(m.output_tokens, Some(10));
    // duration = last token (start 1000.2 + 0.14) − first send (1000.0)
    assert!(close(m.duration_s, 0.34));
    assert!(close(m.system_tps, 10.0 / 0.34));
    // tpot over requests with ≥ 2 tokens: 0.1/3, 0.1/2, 0.04/1
    let mean_tpot = (0.1 / 3.0 + 0.05 + 0.04) / 3.0;
    assert!(close(m.tpot_ms.mean, mean_tpot * 1e3));
    assert!(close(m.per_stream_tps, 1.0 / mean_tpot));
    assert!(close(m.tpot_ms.p50, 40.0));
    assert!(close(m.tpot_ms.p99, 49.8));
    assert!(close(m.ttft_ms.mean, 100.0));
    assert!(close(m.e2e_ms.mean, 160.0));
    assert!(close(m.itl_ms.mean, 40.0));
    assert!(close(m.itl_ms.p50, 45.0));
    assert!(close(m.request_throughput, 4.0 / 0.34));
    assert!(close(m.concurrency_achieved, 0.64 / 0.34));
    assert_eq!(m.excluded.len(), 1);
    assert_eq!(m.excluded[0].index, 3);
    assert!(m.excluded[0].failed);
    assert!(m.excluded[0].reason.contains("ReadTimeout"));
}

#[test]
fn matching_reported_figures_raise_no_discrepancy() {
    let parsed = parse_any("detailed-small.json", &fixture("detailed-small.json")).unwrap();
    let point = &parsed.report.runs[0].points[0];
    let (m, _) = compute_point(point, &MetricOptions::default());
    let d = discrepancies(point, &m);
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn flags_reported_figures_that_disagree_with_raw_data() {
    let parsed = parse_any(
        "detailed-discrepant.json",
        &fixture("detailed-discrepant.json"),
    )
    .unwrap();
    let point = &parsed.report.runs[0].points[0];
    let (m, _) = compute_point(point, &MetricOptions::default());
    let d = discrepancies(point, &m);
    let names: Vec<_> = d.iter().map(|d| d.tool_metric).collect();
    assert_eq!(names, vec!["output_throughput", "mean_tpot_ms"]);
    assert_eq!(d[1].reported, 45.0);
    assert!(d[1].likely_cause.contains("token counts"));
    assert!(d[0].likely_cause.contains("duration window"));
}

#[test]
fn summary_only_file_is_shown_as_reported() {
    let parsed = parse_any("s.json", &fixture("summary-only-c16.json")).unwrap();
    let point = &parsed.report.runs[0].points[0];
    assert!(point.requests.is_none());
    assert_eq!(point.concurrency, Some(16.0));
    let (m, diags) = compute_point(point, &MetricOptions::default());
    assert_eq!(m.basis, Basis::Reported);
    assert_eq!(m.system_tps, Some(720.0));
    assert_eq!(m.tpot_ms.mean, Some(22.0));
    assert!(close(m.per_stream_tps, 1000.0 / 22.0));
    assert_eq!(m.e2e_ms.p99, Some(1900.0));
    assert_eq!(m.tpot_ms.p90, None, "vLLM does not print p90 by default");
    assert!(diags.iter().any(|d| d.message.contains("as reported")));
    assert!(discrepancies(point, &m).is_empty());
}

#[test]
fn old_key_set_without_start_times_uses_reported_duration() {
    let parsed = parse_any("old.json", &fixture("old-keys.json")).unwrap();
    let point = &parsed.report.runs[0].points[0];
    assert_eq!(
        point.concurrency, None,
        "max_concurrency null means unbounded"
    );
    let req = point.requests.as_ref().unwrap();
    assert!(req.start_s.is_none());
    // e2e = ttft + Σ itls when latencies are missing
    assert!((req.e2e_s[0] - 0.2).abs() < 1e-12);
    let (m, diags) = compute_point(point, &MetricOptions::default());
    assert_eq!(m.duration_s, Some(0.341));
    assert!(m.duration_as_reported);
    assert!(close(m.system_tps, 10.0 / 0.341));
    assert!(diags.iter().any(|d| d.field == "start_times"));
    // The typo key `request_goodput:` with null is dropped; numbers keep their names.
    assert!(point
        .reported
        .figures
        .contains_key("total_token_throughput"));
    assert!(discrepancies(point, &m)
        .iter()
        .all(|d| d.metric != crate::vocabulary::Metric::SystemTps));
}

#[test]
fn append_result_file_gives_one_point_per_object() {
    let parsed = parse_any("a.json", &fixture("append-result.json")).unwrap();
    assert_eq!(parsed.report.runs.len(), 1);
    let points = &parsed.report.runs[0].points;
    assert_eq!(points.len(), 2);
    assert_eq!(points[0].concurrency, Some(1.0));
    assert_eq!(points[1].concurrency, Some(4.0));
    assert_eq!(points[1].source_file, "a.json#2");
}

#[test]
fn one_broken_line_is_named_and_the_rest_load() {
    let parsed = parse_any("b.json", &fixture("one-bad-line.json")).unwrap();
    let points = &parsed.report.runs[0].points;
    assert_eq!(
        points.iter().map(|p| p.concurrency).collect::<Vec<_>>(),
        vec![Some(1.0), Some(8.0)]
    );
    let bad: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.field == "line 2")
        .collect();
    assert_eq!(bad.len(), 1, "{:?}", parsed.diagnostics);
    assert!(bad[0].message.contains("skipped"));
}

#[test]
fn truncated_file_reports_line_and_column() {
    let err = parse_any("t.json", &fixture("truncated.json")).unwrap_err();
    assert_eq!(err.file, "t.json");
    assert_eq!(err.line, Some(1));
    assert!(err.column.is_some());
    assert!(err.to_string().contains("t.json"), "{err}");
}

#[test]
fn wrong_type_names_the_field() {
    let err = parse_any("w.json", &fixture("wrong-type.json")).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("ttfts"), "{err}");
    assert!(err.to_string().contains("expected an array"), "{err}");
}

#[test]
fn arrays_of_different_lengths_fall_back_to_the_summary_with_a_warning() {
    let parsed = parse_any("m.json", &fixture("mismatched-lengths.json")).unwrap();
    let point = &parsed.report.runs[0].points[0];
    assert!(point.requests.is_none());
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.field == "ttfts")
        .unwrap();
    assert!(
        d.message.contains("3 entries") && d.message.contains("has 5"),
        "{d}"
    );
}

#[test]
fn bare_nan_literal_marks_only_that_request() {
    let parsed = parse_any("n.json", &fixture("nan-literal.json")).unwrap();
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("NaN/Infinity")));
    let bad = parsed
        .diagnostics
        .iter()
        .find(|d| d.field == "ttft")
        .unwrap();
    assert_eq!(bad.index, Some(0));
    let (m, _) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(3));
    assert_eq!(m.requests_invalid, 1);
    assert!(m.ttft_ms.mean.unwrap().is_finite());
}

#[test]
fn negative_times_are_named_with_their_request() {
    let parsed = parse_any("neg.json", &fixture("negative-times.json")).unwrap();
    let fields: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.index.is_some())
        .map(|d| (d.field.as_str(), d.index.unwrap()))
        .collect();
    assert_eq!(fields, vec![("itls", 0), ("ttft", 1)]);
    let (m, _) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(2));
}

#[test]
fn strings_with_html_are_kept_verbatim() {
    let parsed = parse_any("h.json", &fixture("html-in-strings.json")).unwrap();
    let run = &parsed.report.runs[0];
    assert_eq!(
        run.meta.model.as_deref(),
        Some("<img src=x onerror=alert(1)>")
    );
    assert_eq!(run.label, "<script>alert(2)</script>");
}

#[test]
fn unusable_inputs_get_clear_errors() {
    let e = parse_any("empty.json", b"").unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = parse_any("ws.json", b" \n\t ").unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = parse_any("p.json", &fixture("not-json.png.json")).unwrap_err();
    assert!(e.to_string().contains("PNG"), "{e}");
    let e = parse_any("c.json", &fixture("csv-instead.json")).unwrap_err();
    assert!(e.to_string().contains("supported formats reads it"), "{e}");
    let e = parse_any("u16.json", &[0xFF, 0xFE, b'{', 0]).unwrap_err();
    assert!(e.to_string().contains("UTF-16"), "{e}");
    let e = parse_any("arr.json", b"[1, 2, 3]").unwrap_err();
    assert!(e.to_string().contains("array of 3"), "{e}");
}

#[test]
fn output_lengths_zero_and_one_leave_tpot_undefined() {
    let parsed = parse_any("d.json", &fixture("detailed-small.json")).unwrap();
    let req = parsed.report.runs[0].points[0].requests.as_ref().unwrap();
    let one = crate::metrics::request_metrics(req, 4).unwrap();
    assert_eq!(one.tpot, None);
    assert_eq!(one.per_stream_rate, None);
    assert!(
        crate::metrics::request_metrics(req, 3).is_none(),
        "failed request has no metrics"
    );
}

#[test]
fn deep_nesting_neither_crashes_nor_loses_the_rest() {
    // 10,000 levels inside an unknown key: skipped without recursion, the figure still loads.
    let mut s = String::from("{\"mean_tpot_ms\": 1, \"x\": ");
    s.push_str(&"[".repeat(10_000));
    s.push_str(&"]".repeat(10_000));
    s.push('}');
    let parsed = parse_any("deep.json", s.as_bytes()).unwrap();
    assert_eq!(
        parsed.report.runs[0].points[0]
            .reported
            .figures
            .get("mean_tpot_ms"),
        Some(&1.0)
    );
    // Inside a per-request array it is a bad entry, named, not a crash.
    let mut t = String::from(
        "{\"mean_tpot_ms\": 1, \"output_lens\": [2], \"latencies\": [1.0], \"ttfts\": [",
    );
    t.push_str(&"[".repeat(10_000));
    t.push_str(&"]".repeat(10_000));
    t.push_str("]}");
    let parsed = parse_any("deep2.json", t.as_bytes()).unwrap();
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.field == "ttft" && d.index == Some(0)),
        "{:?}",
        parsed.diagnostics
    );
    // Unbalanced nesting is a syntax error with a position.
    let e = parse_any(
        "deep3.json",
        format!("{{\"mean_tpot_ms\": 1, \"x\": {}", "[".repeat(10_000)).as_bytes(),
    )
    .unwrap_err();
    assert!(e.line.is_some(), "{e}");
}

#[test]
fn concurrency_that_is_not_positive_is_ignored_with_a_warning() {
    let mut v: serde_json::Value =
        serde_json::from_slice(&fixture("summary-only-c16.json")).unwrap();
    v["max_concurrency"] = serde_json::json!(-4);
    let parsed = parse_any("c.json", v.to_string().as_bytes()).unwrap();
    assert_eq!(parsed.report.runs[0].points[0].concurrency, None);
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.field == "max_concurrency"));
}

#[test]
fn fast_and_serde_paths_agree_on_every_fixture() {
    let dir = format!("{}/../../tests/fixtures/vllm", env!("CARGO_MANIFEST_DIR"));
    let mut fast_taken = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if fast_read(&bytes, &mut crate::progress::Silent).is_some() {
            fast_taken += 1;
        }
        // Debug text, because NaN != NaN for PartialEq but prints the same.
        let a = format!(
            "{:?}",
            super::parse_with(
                &name,
                &bytes,
                true,
                super::VLLM,
                &mut crate::progress::Silent
            )
        );
        let b = format!(
            "{:?}",
            super::parse_with(
                &name,
                &bytes,
                false,
                super::VLLM,
                &mut crate::progress::Silent
            )
        );
        assert_eq!(a, b, "{name}");
    }
    assert!(
        fast_taken >= 6,
        "the fast path reads the well-formed fixtures ({fast_taken})"
    );
}

/// A generated file read by the fast path and by the serde path.
fn both_paths(text: &str) -> (ParsedVllm, ParsedVllm) {
    let read = |fast| {
        super::parse_with(
            "g.json",
            text.as_bytes(),
            fast,
            super::VLLM,
            &mut crate::progress::Silent,
        )
        .unwrap()
    };
    (read(true), read(false))
}

type ParsedVllm = (crate::model::Report, Vec<crate::error::Diagnostic>);

#[test]
fn fast_and_serde_paths_agree_on_generated_files() {
    // Short decimals: both paths are exact, so the reports are identical.
    let text = crate::synthetic::vllm_detailed(50, 40, 9, false);
    assert!(fast_read(text.as_bytes(), &mut crate::progress::Silent).is_some());
    let (a, b) = both_paths(&text);
    assert_eq!(a, b);
    // 17-digit Python repr: the fast path rounds correctly, serde_json's default parser may be one
    // ulp off; every figure agrees to 1e-14.
    let text = crate::synthetic::vllm_detailed(50, 40, 9, true);
    let (a, b) = both_paths(&text);
    let (ma, _) = compute_point(&a.0.runs[0].points[0], &MetricOptions::default());
    let (mb, _) = compute_point(&b.0.runs[0].points[0], &MetricOptions::default());
    for name in crate::vocabulary::Metric::ALL {
        match (ma.get(name), mb.get(name)) {
            (Some(x), Some(y)) => assert!(
                (x - y).abs() <= 1e-14 * x.abs().max(1.0),
                "{name}: {x} vs {y}"
            ),
            (x, y) => assert_eq!(x, y, "{name}"),
        }
    }
}

#[test]
fn fast_path_gives_way_on_null_entries() {
    let text = String::from_utf8(fixture("detailed-small.json"))
        .unwrap()
        .replace("\"ttfts\": [0.1,", "\"ttfts\": [null,");
    assert!(fast_read(text.as_bytes(), &mut crate::progress::Silent).is_none());
    let parsed = parse_any("n.json", text.as_bytes()).unwrap();
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.field == "ttft" && d.index == Some(0)));
}

#[test]
fn one_request_with_a_million_chunk_gaps() {
    let text = crate::synthetic::vllm_detailed(1, 1_000_000, 3, false);
    let parsed = parse_any("long.json", text.as_bytes()).unwrap();
    let req = parsed.report.runs[0].points[0].requests.as_ref().unwrap();
    assert!(req.chunk_gaps.as_ref().unwrap().values.len() >= 1_000_000);
    let (m, _) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(1));
    // Gaps are drawn from 18–28 ms.
    let itl = m.itl_ms.mean.unwrap();
    assert!((18.0..28.0).contains(&itl), "{itl}");
    assert!(
        (m.tpot_ms.mean.unwrap() - itl).abs() < 1e-6,
        "one token per chunk: TPOT = mean gap"
    );
}

#[test]
fn a_hundred_thousand_one_token_requests() {
    let n = 100_000;
    let mut s = String::from(r#"{"mean_tpot_ms": 1.0, "max_concurrency": 64, "output_lens": ["#);
    s.push_str(&vec!["1"; n].join(","));
    s.push_str(r#"], "ttfts": ["#);
    s.push_str(&vec!["0.05"; n].join(","));
    s.push_str(r#"], "latencies": ["#);
    s.push_str(&vec!["0.05"; n].join(","));
    s.push_str(r#"], "start_times": ["#);
    s.push_str(
        &(0..n)
            .map(|i| format!("{}", i as f64 * 0.001))
            .collect::<Vec<_>>()
            .join(","),
    );
    s.push_str("]}");
    let parsed = parse_any("many.json", s.as_bytes()).unwrap();
    let (m, _) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(n as u64));
    assert_eq!(m.output_tokens, Some(n as u64));
    assert_eq!(m.tpot_ms.mean, None, "one token each: TPOT is not defined");
    assert_eq!(m.per_stream_tps, None);
    assert!((m.duration_s.unwrap() - (99.999 + 0.05)).abs() < 1e-9);
}

#[test]
fn an_itls_row_that_is_not_a_list_is_named() {
    let text = String::from_utf8(fixture("detailed-small.json"))
        .unwrap()
        .replace("[0.05, 0.05], [0.04]", "[0.05, 0.05], null");
    let parsed = parse_any("n.json", text.as_bytes()).unwrap();
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.field == "itls")
        .unwrap();
    assert_eq!(d.index, Some(2));
    assert!(d.message.contains("adds nothing to ITL"), "{d}");
    // Without latencies the end time is unknown: the request is left out, not given e2e = ttft.
    let old = String::from_utf8(fixture("old-keys.json"))
        .unwrap()
        .replace("[0.05, 0.05], [0.04]", "[0.05, 0.05], null");
    let parsed = parse_any("o.json", old.as_bytes()).unwrap();
    let (m, _) = compute_point(&parsed.report.runs[0].points[0], &MetricOptions::default());
    assert_eq!(m.requests_ok, Some(3));
    assert!(m.excluded.iter().any(|e| e.index == 2 && !e.failed));
}

#[test]
fn another_tools_file_read_as_vllm_is_no_data_not_an_empty_point() {
    let text = br#"{"format":"tpsview/1","meta":{},"runs":[{"label":"x","points":[]}]}"#;
    let e = super::parse("t.json", text).expect_err("no vLLM data");
    assert!(
        matches!(*e.kind, crate::error::ParseErrorKind::NoData(_)),
        "{e}"
    );
    assert!(e.to_string().starts_with("t.json"), "{e}");
}

use crate::formats::read_in_chunks as streamed;

/// What the whole-file fast path gives, in the same form; `None` when it gives way to serde or
/// finds no object (the stream leaves an empty file to the ordinary reader's words).
fn whole(format: Format, name: &str, bytes: &[u8]) -> Option<String> {
    let objects = fast_read(super::super::strip_bom(bytes), &mut crate::progress::Silent)?;
    if objects.is_empty() {
        return None;
    }
    Some(format!("{:?}", crate::formats::parse(format, name, bytes)))
}

#[test]
fn chunked_reading_equals_whole_file_reading_on_every_fixture_at_any_chunk_size() {
    let mut compared = 0;
    for (dir, format) in [("vllm", Format::VllmServe), ("sglang", Format::SglangServe)] {
        let dir = format!("{}/../../tests/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expect = whole(format, &name, &bytes);
            compared += usize::from(expect.is_some());
            for sizes in crate::formats::TEST_CHUNKINGS {
                assert_eq!(
                    streamed(format, &name, &bytes, sizes),
                    expect,
                    "{name} in chunks of {sizes:?}"
                );
            }
        }
    }
    assert!(compared >= 8, "fixtures read by the scanner: {compared}");
}

#[test]
fn a_chunk_boundary_inside_a_number_an_escape_or_a_utf8_sequence_changes_nothing() {
    // Every two-chunk split of a file with 17-digit numbers, exponents, an escaped quote, a \u
    // escape and multi-byte UTF-8 in error texts, and a byte-order mark.
    let text = "\u{feff}{\"input_lens\": [12, 7], \"output_lens\": [3, 2], \
        \"ttfts\": [0.12345678901234567, 1.5e-1], \"latencies\": [0.5, 0.25], \
        \"itls\": [[0.1, 0.2], [1E-1]], \"generated_texts\": [\"a \\\"b\\\" é\", \"😀\"], \
        \"errors\": [\"\", \"bad \\\"x\\\" \\u00e9 — 😀\"], \"mean_tpot_ms\": 100.0}\n";
    let bytes = text.as_bytes();
    let expect = whole(Format::VllmServe, "b.json", bytes).expect("the scanner reads it");
    assert!(expect.contains("bad \\\"x\\\" é — 😀"), "{expect}");
    for cut in 0..=bytes.len() {
        let mut s = crate::formats::Stream::new(Format::VllmServe, "b.json", None).unwrap();
        assert!(s.feed(&bytes[..cut], &mut crate::progress::Silent));
        assert!(s.feed(&bytes[cut..], &mut crate::progress::Silent));
        let got = s.finish(&mut crate::progress::Silent);
        assert_eq!(
            got.map(|r| format!("{r:?}")).as_deref(),
            Some(expect.as_str()),
            "cut at {cut}"
        );
    }
}

#[test]
fn a_truncated_or_broken_stream_gives_way_to_the_ordinary_reader() {
    let bytes = fixture("detailed-small.json");
    // Every prefix: the stream answers exactly when the whole-file scanner does (a prefix that
    // ends between objects is a complete file), else it gives way.
    for cut in 0..bytes.len() {
        let part = &bytes[..cut];
        assert_eq!(
            streamed(Format::VllmServe, "t.json", part, &[5]),
            whole(Format::VllmServe, "t.json", part),
            "prefix of {cut} bytes"
        );
    }
    // A bare NaN and a null in a column: the scanner gives up once more than its patience has
    // arrived past the step it cannot take, without waiting for the end.
    for bad in ["\"ttfts\": [NaN,", "\"ttfts\": [null,"] {
        let text = String::from_utf8(bytes.clone())
            .unwrap()
            .replace("\"ttfts\": [0.1,", bad);
        let mut s = crate::formats::Stream::new(Format::VllmServe, "n.json", None).unwrap();
        s.set_patience(200);
        let at = text.find(bad).unwrap();
        let mut fed = 0;
        for c in text.as_bytes().chunks(64) {
            if !s.feed(c, &mut crate::progress::Silent) {
                break;
            }
            fed += c.len();
        }
        assert!(
            fed > at && fed < at + 200 + 64,
            "{bad}: gave up after {fed} bytes, at {at}"
        );
        assert!(s.finish(&mut crate::progress::Silent).is_none());
    }
}

#[test]
fn chunked_reading_keeps_only_the_unread_rest_and_reports_progress() {
    let text = crate::synthetic::vllm_detailed(3_000, 5, 1, false);
    let mut s =
        crate::formats::Stream::new(Format::VllmServe, "p.json", Some(text.len() as u64)).unwrap();
    let mut seen = Vec::new();
    let mut watch = |r, b| seen.push((r, b));
    for c in text.as_bytes().chunks(1000) {
        assert!(s.feed(c, &mut watch));
    }
    let got = s.finish(&mut watch).unwrap().unwrap();
    assert_eq!(
        got,
        crate::formats::parse(Format::VllmServe, "p.json", text.as_bytes()).unwrap()
    );
    assert_eq!(seen.iter().map(|x| x.0).collect::<Vec<_>>(), [1_024, 2_048]);
    assert!(seen[0].1 < seen[1].1 && (seen[1].1 as usize) < text.len());
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(64))]
    #[test]
    fn any_chunking_of_a_generated_file_reads_the_same(
        sizes in proptest::collection::vec(1usize..3000, 1..40),
        long in proptest::bool::ANY,
    ) {
        // Python's 17-digit repr when `long`: numbers cut anywhere by the chunk sizes.
        let text = crate::synthetic::vllm_detailed(40, 30, 5, long);
        let expect = whole(Format::VllmServe, "g.json", text.as_bytes());
        proptest::prop_assert!(expect.is_some());
        proptest::prop_assert_eq!(streamed(Format::VllmServe, "g.json", text.as_bytes(), &sizes), expect);
    }
}

#[test]
fn a_sweep_summary_array_reads_each_result_and_a_cut_one_names_where() {
    let one =
        r#"{"model_id": "m", "max_concurrency": 2, "run_number": 0, "output_throughput": 10.5}"#;
    let two =
        r#"{"model_id": "m", "max_concurrency": 2, "run_number": 1, "output_throughput": 11.5}"#;
    let text = format!("[\n{one},\n{two}\n]");
    let (report, _) = super::parse(
        "SERVE--a=1-BENCH--max_concurrency=2/summary.json",
        text.as_bytes(),
    )
    .unwrap();
    let labels: Vec<String> = report.runs.iter().map(|r| r.label.to_string()).collect();
    assert_eq!(labels, ["m · a=1 · run=0", "m · a=1 · run=1"]);
    assert_eq!(
        report.runs[1].points[0].reported.figures["output_throughput"],
        11.5
    );
    let cut = &text[..text.len() - 20];
    let e = super::parse("summary.json", cut.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("summary.json") && e.contains("line 3"), "{e}");
}
