//! A file no reader knows, read through a mapping (issue 44): what `inspect` finds, what
//! `propose` guesses, what a checked mapping refuses (naming the field), and the figures read
//! through it — every expected value worked out here by hand from the rows below.

#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tpsview_core::mapping::{inspect, propose, Mapping, Quantity, Scope, ShapeKind, Unit};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::{formats, summarize};

/// A team's own harness: one JSON line per request, times in ms, send times in epoch seconds.
/// Level 1: two requests; level 2: three, the last a timeout.
const HARNESS: &str = r#"{"id":"a","sent_at":1765000000.0,"ttft_ms":100,"latency_ms":1090,"completion_tokens":100,"prompt_tokens":50,"concurrency":1,"status":"ok"}
{"id":"b","sent_at":1765000001.5,"ttft_ms":300,"latency_ms":2280,"completion_tokens":100,"prompt_tokens":50,"concurrency":1,"status":"ok"}
{"id":"c","sent_at":1765000010.0,"ttft_ms":200,"latency_ms":1200,"completion_tokens":51,"prompt_tokens":60,"concurrency":2,"status":"ok"}
{"id":"d","sent_at":1765000010.0,"ttft_ms":400,"latency_ms":1400,"completion_tokens":51,"prompt_tokens":60,"concurrency":2,"status":"ok"}
{"id":"e","sent_at":1765000010.5,"ttft_ms":null,"latency_ms":null,"completion_tokens":0,"prompt_tokens":60,"concurrency":2,"status":"timeout"}
"#;

#[test]
fn inspect_shows_the_rows_fields_with_samples_and_ranges() {
    let shape = inspect("harness.jsonl", HARNESS.as_bytes()).unwrap();
    assert_eq!(shape.kind, ShapeKind::Jsonl);
    assert_eq!(shape.rows, 5);
    let ttft = shape.fields.iter().find(|f| f.name == "ttft_ms").unwrap();
    assert_eq!((ttft.present, ttft.numeric), (4, 4));
    assert_eq!(ttft.range, Some((100.0, 400.0)));
    let status = shape.fields.iter().find(|f| f.name == "status").unwrap();
    assert_eq!(status.samples, vec!["ok", "timeout"]);
    assert_eq!(shape.keys.len(), 8);
}

#[test]
fn the_proposal_maps_the_names_it_knows_with_their_units() {
    let m = propose(&inspect("harness.jsonl", HARNESS.as_bytes()).unwrap());
    assert_eq!(m.scope, Scope::Request);
    let of = |q: Quantity| {
        m.fields
            .iter()
            .find(|f| f.quantity == q)
            .map(|f| (f.field.as_str(), f.unit))
    };
    assert_eq!(of(Quantity::Ttft), Some(("ttft_ms", Unit::Ms)));
    assert_eq!(of(Quantity::E2e), Some(("latency_ms", Unit::Ms)));
    assert_eq!(
        of(Quantity::OutputTokens),
        Some(("completion_tokens", Unit::Count))
    );
    assert_eq!(
        of(Quantity::InputTokens),
        Some(("prompt_tokens", Unit::Count))
    );
    assert_eq!(of(Quantity::Start), Some(("sent_at", Unit::S)));
    assert_eq!(
        of(Quantity::Concurrency),
        Some(("concurrency", Unit::Count))
    );
    assert_eq!(of(Quantity::Error), Some(("status", Unit::None)));
    assert!(m.check().is_ok());
    // The document goes out and comes back the same.
    assert_eq!(
        Mapping::from_json("m.json", m.to_json().as_bytes()).unwrap(),
        m
    );
}

#[test]
fn read_through_the_mapping_the_figures_are_tpsviews() {
    let m = propose(&inspect("harness.jsonl", HARNESS.as_bytes()).unwrap());
    let parsed = formats::parse_mapped("harness.jsonl", HARNESS.as_bytes(), &m).unwrap();
    let s = summarize(vec![parsed], &MetricOptions::default());
    let v: Value = serde_json::to_value(&s).unwrap();
    let points = v["runs"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    // Level 1: TTFT (100 + 300) / 2 = 200 ms; TPOT (1090 − 100) / 99 = 10 ms and
    // (2280 − 300) / 99 = 20 ms → 15 ms; window 0 → 1.5 + 2.28 = 3.78 s; 200 tokens / 3.78 s.
    let p1 = &points[0];
    assert_eq!(p1["concurrency"], json!(1.0));
    assert!((p1["ttft_ms"]["mean"].as_f64().unwrap() - 200.0).abs() < 1e-9);
    assert!((p1["tpot_ms"]["mean"].as_f64().unwrap() - 15.0).abs() < 1e-9);
    // (Send times are kept to f32 precision from the level's first: relative 1e-6.)
    assert!((p1["system_tps"].as_f64().unwrap() / (200.0 / 3.78) - 1.0).abs() < 1e-6);
    // Level 2: two completed (TPOT (1200 − 200) / 50 = 20 ms, (1400 − 400) / 50 = 20 ms), one
    // failed with its status; window 0 → 1.4 s; 102 tokens / 1.4 s.
    let p2 = &points[1];
    assert_eq!(p2["requests_ok"], json!(2));
    assert_eq!(p2["requests_failed"], json!(1));
    assert!((p2["tpot_ms"]["mean"].as_f64().unwrap() - 20.0).abs() < 1e-9);
    assert!(
        (p2["system_tps"].as_f64().unwrap() / (102.0 / 1.4) - 1.0).abs() < 1e-6,
        "{p2}"
    );
    assert_eq!(v["runs"][0]["source_format"], json!("mapping"));
}

#[test]
fn per_level_rows_give_the_figures_they_state() {
    let csv = "Concurrency,Avg TTFT (ms),Avg TPOT (ms),Output token throughput (tok/s),P99 TTFT (ms)\n1,120.5,10,95.2,300\n8,480,16,410.8,900\n";
    let shape = inspect("sweep.csv", csv.as_bytes()).unwrap();
    assert_eq!(shape.kind, ShapeKind::Csv);
    let m = propose(&shape);
    assert_eq!(m.scope, Scope::Level);
    // The p99 column is not the mean: left for the person to map.
    assert!(
        !m.fields.iter().any(|f| f.field.starts_with("P99")),
        "{m:?}"
    );
    let parsed = formats::parse_mapped("sweep.csv", csv.as_bytes(), &m).unwrap();
    let s = summarize(vec![parsed], &MetricOptions::default());
    let v: Value = serde_json::to_value(&s).unwrap();
    let p = &v["runs"][0]["points"][1];
    assert_eq!(p["concurrency"], json!(8.0));
    assert_eq!(p["ttft_ms"]["mean"], json!(480.0));
    assert_eq!(p["tpot_ms"]["mean"], json!(16.0));
    assert_eq!(p["system_tps"], json!(410.8));
    // 1000 / 16 ms.
    assert!((p["per_stream_tps"].as_f64().unwrap() - 62.5).abs() < 1e-9);
}

#[test]
fn a_bad_mapping_is_refused_naming_the_field() {
    let cases = [
        (
            json!({"format": "other/1", "scope": "request", "fields": []}),
            "`format`",
        ),
        (
            json!({"format": "tpsview-mapping/1", "scope": "request",
                   "fields": [{"field": "t", "quantity": "ttft", "unit": "count"}]}),
            "`fields[0]` (\"t\")",
        ),
        (
            json!({"format": "tpsview-mapping/1", "scope": "request",
                   "fields": [{"field": "t", "quantity": "ttft", "unit": "ms"},
                              {"field": "u", "quantity": "ttft", "unit": "ms"}]}),
            "`fields[1]` (\"u\"): a second field for ttft",
        ),
        (
            json!({"format": "tpsview-mapping/1", "scope": "request",
                   "fields": [{"field": "t", "quantity": "ttft", "unit": "ms"}]}),
            "output_tokens",
        ),
        (
            json!({"format": "tpsview-mapping/1", "scope": "level",
                   "fields": [{"field": "t", "quantity": "start", "unit": "s"}]}),
            "not what a per-level row holds",
        ),
        // Data only: an unknown key (an expression, say) is refused, not ignored.
        (
            json!({"format": "tpsview-mapping/1", "scope": "level", "eval": "1+1",
                   "fields": [{"field": "t", "quantity": "ttft", "unit": "ms"}]}),
            "unknown field `eval`",
        ),
        (
            json!({"format": "tpsview-mapping/1", "scope": "level", "concurrency": -2,
                   "fields": [{"field": "t", "quantity": "ttft", "unit": "ms"}]}),
            "`concurrency`",
        ),
    ];
    for (doc, says) in cases {
        let e = Mapping::from_json("m.json", doc.to_string().as_bytes()).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("m.json") && text.contains(says),
            "{says}: {text}"
        );
    }
}

#[test]
fn hostile_rows_are_named_and_never_panic() {
    let m = propose(&inspect("harness.jsonl", HARNESS.as_bytes()).unwrap());
    // A row without TTFT, one with a negative time, HTML in a string, an empty file.
    let bad = "{\"ttft_ms\":\"<b>x</b>\",\"latency_ms\":5,\"completion_tokens\":3,\"concurrency\":1}\n{\"ttft_ms\":-5,\"latency_ms\":5,\"completion_tokens\":3,\"concurrency\":1}\n{\"ttft_ms\":1,\"latency_ms\":5,\"completion_tokens\":3,\"concurrency\":1}\n";
    let parsed = formats::parse_mapped("bad.jsonl", bad.as_bytes(), &m).unwrap();
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.field == "ttft" && d.message.contains("1 rows lack")),
        "{:?}",
        parsed.diagnostics
    );
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("sent_at") || d.field == "sent_at"));
    assert!(formats::parse_mapped("empty.jsonl", b"", &m).is_err());
    assert!(inspect("x.bin", &[0xff, 0xfe, 0x00]).is_err());
    for cut in 0..HARNESS.len() {
        let _ = inspect("cut.jsonl", &HARNESS.as_bytes()[..cut]);
        let _ = formats::parse_mapped("cut.jsonl", &HARNESS.as_bytes()[..cut], &m);
    }
}

#[test]
fn the_fuzz_entry_survives_the_harness_cut_and_corrupted() {
    for cut in (0..HARNESS.len()).step_by(7) {
        tpsview_core::fuzz_mapping(&HARNESS.as_bytes()[..cut]);
    }
    for (i, b) in [b'{', b'"', b'-', b'\n', 0xFF, b'9', b',']
        .iter()
        .enumerate()
    {
        let mut bad = HARNESS.as_bytes().to_vec();
        bad[(HARNESS.len() * (i + 1)) / 8] = *b;
        tpsview_core::fuzz_mapping(&bad);
    }
    tpsview_core::fuzz_mapping(b"a,b\n1,2\n");
    tpsview_core::fuzz_mapping(br#"{"format":"tpsview-mapping/1","scope":"level","fields":[]}"#);
}
