//! Record files read as they arrive must read exactly as when read whole, or give way to the
//! whole-file reader — never a third answer.

use super::Cutter;
use crate::formats::{parse, Format, Stream};
use crate::progress::Silent;

fn fixture(path: &str) -> Vec<u8> {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
    std::fs::read(format!("{p}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `text` read whole, and fed to a [`Stream`] whole, in chunks of 7 and 64 bytes, and of 4 KB:
/// the same answer each way.
fn streamed_as_whole(
    format: Format,
    text: &str,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let bytes = text.as_bytes();
    let expect = whole(format, bytes);
    for sizes in [&[bytes.len()][..], &[7, 64], &[4096]] {
        let got = streamed(format, bytes, sizes);
        proptest::prop_assert_eq!(got.as_deref(), Some(expect.as_str()), "{}", text);
    }
    Ok(())
}

/// `bytes` fed to a [`Stream`] in the given chunk sizes (cycled); `None` when it gave way.
fn streamed(format: Format, bytes: &[u8], sizes: &[usize]) -> Option<String> {
    crate::formats::read_in_chunks(format, "r.json", bytes, sizes)
}

fn whole(format: Format, bytes: &[u8]) -> String {
    format!("{:?}", parse(format, "r.json", bytes))
}

const FILES: [(Format, &str); 2] = [
    (Format::AiperfRecords, "aiperf/profile_export.jsonl"),
    (
        Format::LlmperfResponses,
        "llmperf/llama-3-8b_550_150_individual_responses.json",
    ),
];

#[test]
fn record_files_read_in_any_chunks_equal_the_whole_reading() {
    for (format, path) in FILES {
        let bytes = fixture(path);
        let expect = whole(format, &bytes);
        assert!(expect.starts_with("Ok("), "{path}: {expect}");
        for sizes in crate::formats::TEST_CHUNKINGS {
            assert_eq!(
                streamed(format, &bytes, sizes).as_deref(),
                Some(expect.as_str()),
                "{path} in chunks of {sizes:?}"
            );
        }
    }
}

#[test]
fn every_two_chunk_cut_of_hard_text_reads_the_same() {
    // A byte-order mark; braces, brackets, quotes and backslashes inside strings; a \u escape;
    // multi-byte UTF-8; an exponent; a record spread over lines; CRLF; two records with nothing
    // between them.
    let jsonl = "\u{feff}{\"metadata\": {\"request_start_ns\": 1000, \"x_request_id\": \"a{[\\\"}]\\\\\"}, \
        \"metrics\": {\"time_to_first_token\": {\"value\": 1.5e1, \"unit\": \"ms\"}, \
        \"request_latency\": {\"value\": 120.0, \"unit\": \"ms\"}, \"output_sequence_length\": {\"value\": 5}}}\r\n\
        {\"metadata\": {\"request_start_ns\": 2000, \"error\": \"é — 😀 \\u00e9\"},\n \"metrics\": \
        {\"time_to_first_token\": {\"value\": 20, \"unit\": \"ms\"}, \"request_latency\": {\"value\": 200, \"unit\": \"ms\"}, \
        \"output_sequence_length\": {\"value\": 9}}}{\"metadata\": {\"request_start_ns\": 3000}, \"metrics\": \
        {\"time_to_first_token\": {\"value\": 30, \"unit\": \"ms\"}, \"request_latency\": {\"value\": 300, \"unit\": \"ms\"}, \
        \"output_sequence_length\": {\"value\": 4}}}\n";
    let array = "[ {\"ttft_s\": 0.1, \"end_to_end_latency_s\": 1.0, \"number_output_tokens\": 10, \
        \"error_msg\": \"}{][\\\"\", \"error_code\": null},\n{\"ttft_s\": 2E-1, \"end_to_end_latency_s\": 2.0, \
        \"number_output_tokens\": 20, \"error_code\": 500, \"error_msg\": \"😀 é\"} ]\n";
    for (format, text) in [
        (Format::AiperfRecords, jsonl),
        (Format::LlmperfResponses, array),
    ] {
        let bytes = text.as_bytes();
        let expect = whole(format, bytes);
        assert!(expect.starts_with("Ok("), "{expect}");
        for cut in 0..=bytes.len() {
            assert_eq!(
                streamed(format, bytes, &[cut.max(1), bytes.len()]).as_deref(),
                Some(expect.as_str()),
                "{format:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn what_the_cutter_does_not_take_gives_way_to_the_whole_reader() {
    let good = String::from_utf8(fixture(
        "llmperf/llama-3-8b_550_150_individual_responses.json",
    ))
    .expect("utf-8");
    let good = good.trim_end();
    let first_end = good.find("},").expect("two records") + 1;
    let variants = [
        // A truncated file, two ways.
        good[..good.len() / 2].to_owned(),
        good[..first_end].to_owned(),
        // A scalar or a nested array where a record belongs; a doubled, a trailing or a missing
        // comma; text after the array; an empty array; NaN inside a record.
        format!("[1, {}", &good[1..]),
        format!("[[{}]]", &good[1..good.len() - 1]),
        format!("{},{}", &good[..first_end + 1], &good[first_end + 1..]),
        format!("{},]", &good[..good.len() - 1]),
        format!("{}{}", &good[..first_end], &good[first_end + 1..]),
        format!("{good} x"),
        "[]".to_owned(),
        good.replacen("\"ttft_s\": 0.", "\"ttft_s\": NaN, \"x\": 0.", 1),
    ];
    for (k, v) in variants.iter().enumerate() {
        assert_ne!(v.as_str(), good, "variant {k} is the file itself");
        let got = streamed(Format::LlmperfResponses, v.as_bytes(), &[17]);
        assert_eq!(got, None, "variant {k} was read streamed: {v:.80}");
    }
    // Two bytes of a byte-order mark (not text the whole reader takes), however they arrive.
    let partial = [&b"\xEF\xBB"[..], good.as_bytes()].concat();
    for size in [1, 2, 17] {
        assert_eq!(streamed(Format::LlmperfResponses, &partial, &[size]), None);
    }
    // AIPerf's broken line: the whole reader skips it with a warning; streamed, it gives way.
    let broken = fixture("aiperf/broken-lines.jsonl");
    assert!(whole(Format::AiperfRecords, &broken).starts_with("Ok("));
    assert_eq!(streamed(Format::AiperfRecords, &broken, &[64]), None);
}

#[test]
fn text_that_is_not_utf8_in_a_field_no_reader_uses_reads_as_the_whole_file_does() {
    // Found by the fuzzer (aiperf_records): a byte that is not UTF-8 inside a string the typed
    // record reading skips. The whole reader (JSON values) refuses it; streamed, the record is
    // refused too and the stream gives way, in any chunks — not a report the whole reader never
    // gives.
    for (format, path, key) in [
        (
            Format::AiperfRecords,
            "aiperf/profile_export.jsonl",
            "\"metadata\": {",
        ),
        (
            Format::LlmperfResponses,
            "llmperf/llama-3-8b_550_150_individual_responses.json",
            "{",
        ),
    ] {
        let good = fixture(path);
        let at = good
            .windows(key.len())
            .position(|w| w == key.as_bytes())
            .expect("the key")
            + key.len();
        let bad = [&good[..at], b"\"zz\": \"a\xF9b\", ", &good[at..]].concat();
        let expect = whole(format, &bad);
        for sizes in [&[bad.len()][..], &[7, 64], &[4096]] {
            let got = streamed(format, &bad, sizes);
            assert!(
                got.is_none() || got.as_deref() == Some(expect.as_str()),
                "{path} in chunks of {sizes:?}: {got:.200?} but whole: {expect:.200}"
            );
        }
    }
}

#[test]
fn every_prefix_streams_exactly_as_the_whole_reader_reads_it_or_gives_way() {
    // A prefix that ends just after a JSON-lines record is a complete file: streamed, it reads as
    // the whole reader reads it; a prefix cut inside a record gives way.
    let bytes = fixture("aiperf/profile_export.jsonl");
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    for cut in 1..bytes.len() {
        let part = &bytes[..cut];
        let got = streamed(Format::AiperfRecords, part, &[5]);
        // Complete: everything up to a line's closing brace (and maybe its newline).
        let complete = ends.iter().any(|&e| cut == e || cut == e + 1);
        if complete {
            assert_eq!(
                got,
                Some(whole(Format::AiperfRecords, part)),
                "prefix {cut}"
            );
        } else {
            assert_eq!(got, None, "prefix {cut}");
        }
    }
}

#[test]
fn the_cutter_hands_over_whole_records_only() {
    let text = br#"[{"a":"}"},{"b":[1,{"c":"\"{"}]} ,{}]"#;
    for size in 1..text.len() {
        let mut c = Cutter::new();
        let mut got: Vec<String> = Vec::new();
        for chunk in text.chunks(size) {
            assert!(c.feed(chunk, &mut |r: &[u8]| {
                got.push(String::from_utf8(r.to_vec()).expect("utf-8"));
                true
            }));
        }
        assert!(c.complete());
        assert_eq!(
            got,
            [r#"{"a":"}"}"#, r#"{"b":[1,{"c":"\"{"}]}"#, "{}"],
            "size {size}"
        );
    }
}

#[test]
fn a_big_record_file_reports_progress() {
    let mut text = String::from("[");
    for i in 0..3000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{"ttft_s": 0.1, "end_to_end_latency_s": 1.0, "number_output_tokens": {}}}"#,
            i + 2
        ));
    }
    text.push(']');
    let mut s = Stream::new(Format::LlmperfResponses, "p.json", None).expect("streams");
    let mut seen = Vec::new();
    let mut watch = |r, b| seen.push((r, b));
    for c in text.as_bytes().chunks(1000) {
        assert!(s.feed(c, &mut watch));
    }
    // After each chunk that completed a record: its count and the bytes read, both growing.
    assert_eq!(seen.len(), text.len().div_ceil(1000));
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
    assert_eq!(seen.last().copied(), Some((3000, text.len() as u64)));
    let got = s.finish(&mut Silent).expect("streamed").expect("parses");
    assert_eq!(got.report.request_count(), 3000);
}

#[test]
fn a_streamed_file_sizes_its_gap_column_once_not_by_doubling() {
    // 2,100 AIPerf records of 300 gaps each: 630,000 gaps. Told the file's size, the reader
    // reserves for the whole file after its first 1 MB, so the column ends close to its length
    // (doubling from the first records would leave up to twice it, and held both buffers at once).
    let mut text = String::new();
    for i in 0..2_100u64 {
        let gaps: Vec<String> = (0..300)
            .map(|k| format!("{}.25", 20 + (i + k) % 9))
            .collect();
        text.push_str(&format!(
            "{{\"metadata\": {{\"request_start_ns\": {}}}, \"metrics\": {{\"time_to_first_token\": {{\"value\": 40, \"unit\": \"ms\"}}, \
             \"request_latency\": {{\"value\": 7000, \"unit\": \"ms\"}}, \"output_sequence_length\": {{\"value\": 301}}, \
             \"inter_chunk_latency\": {{\"value\": [{}], \"unit\": \"ms\"}}}}}}\n",
            1_000_000 + i * 1_000,
            gaps.join(", ")
        ));
    }
    let read = |size: Option<u64>| {
        let mut s = Stream::new(Format::AiperfRecords, "a.jsonl", size).expect("streams");
        for c in text.as_bytes().chunks(64 << 10) {
            assert!(s.feed(c, &mut Silent));
        }
        let parsed = s.finish(&mut Silent).expect("streamed").expect("parses");
        // Moved out, not cloned (a clone would be sized exactly).
        let mut runs = parsed.report.runs;
        let req = runs.remove(0).points.remove(0).requests.expect("requests");
        let g = req.chunk_gaps.expect("gaps");
        (g.values.len(), g.values.capacity())
    };
    let (len, cap) = read(Some(text.len() as u64));
    assert_eq!(len, 630_000);
    assert!(cap >= len && cap <= len + len / 20, "{cap} for {len}");
    // Without the size, the column grows by doubling (std's growth: 300 · 2^k here, so 1,228,800)
    // — what the estimate avoids.
    let (len, cap) = read(None);
    assert!(cap > len + len / 20, "{cap} for {len}");
}

mod aiperf_records_of_any_shape {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// A value of any kind, for a key that should hold something else.
    fn odd() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            Just(json!("12.5")),
            Just(json!("x")),
            Just(json!("nan")),
            Just(json!(7)),
            Just(json!(-3)),
            Just(json!(2.25)),
            Just(json!(true)),
            Just(json!([1, "warmup"])),
            Just(json!({"value": 3})),
        ]
    }

    /// A metric as AIPerf writes it, or in another shape.
    fn metric() -> impl Strategy<Value = Value> {
        prop_oneof![
            6 => (1.0f64..500.0).prop_map(|v| json!({"value": v, "unit": "ms"})),
            1 => (1.0f64..5e8).prop_map(|v| json!({"unit": "ns", "value": v})),
            1 => (odd(), prop_oneof![Just(json!("s")), Just(json!("us")), odd()])
                .prop_map(|(v, u)| json!({"value": v, "unit": u})),
            1 => odd(),
        ]
    }

    fn record() -> impl Strategy<Value = Value> {
        (
            (metric(), metric(), metric(), metric()),
            prop_oneof![
                6 => prop::collection::vec(prop_oneof![9 => (1.0f64..40.0).prop_map(|x| json!(x)), 1 => odd()], 0..6)
                    .prop_map(|v| json!({"value": v, "unit": "ms"})),
                1 => prop::collection::vec(0.001f64..0.04, 0..4).prop_map(|v| json!({"unit": "s", "value": v})),
                1 => odd(),
            ],
            prop_oneof![8 => (0i64..1_000_000).prop_map(|t| json!(1_764_000_000_000_000_000i64 + t)), 1 => odd()],
            prop_oneof![8 => Just(json!("profiling")), 1 => Just(json!("warmup")), 1 => odd()],
            prop_oneof![8 => Just(json!(false)), 1 => Just(json!(true)), 1 => odd()],
            prop_oneof![8 => Just(Value::Null), 1 => Just(json!({"message": "boom"})), 1 => Just(json!("bad"))],
            0u8..12,
        )
            .prop_map(|((ttft, e2e, osl, isl), icl, sent, phase, cancelled, error, shape)| {
                let mut r = json!({
                    "metadata": {"request_start_ns": sent, "benchmark_phase": phase, "was_cancelled": cancelled},
                    "metrics": {"time_to_first_token": ttft, "request_latency": e2e,
                                "output_sequence_length": osl, "input_sequence_length": isl,
                                "inter_chunk_latency": icl},
                    "error": error,
                });
                match shape {
                    0 => r["metrics"] = json!("none"),
                    1 => r["metadata"] = json!([1]),
                    2 => {
                        r["metrics"]["output_token_count"] = r["metrics"]["output_sequence_length"].take();
                    }
                    3 => {
                        if let Some(m) = r["metrics"].as_object_mut() {
                            m.remove("output_sequence_length");
                        }
                    }
                    _ => {}
                }
                r
            })
    }

    proptest! {
        #[test]
        fn streamed_records_read_as_the_whole_file_reads_them(
            records in prop::collection::vec(record(), 1..8),
            repeat in 0usize..6,
        ) {
            let mut text: String = records.iter().map(|r| format!("{r}\n")).collect();
            // A repeated key (the last one counts in a JSON value), before the record's own.
            if repeat < 4 {
                let (key, value) = [("\"metrics\":", "\"metrics\":{\"request_latency\":9},"),
                    ("\"request_start_ns\":", "\"request_start_ns\":5,"),
                    ("\"error\":", "\"error\":{\"message\":\"x\"},"),
                    ("\"value\":", "\"value\":1.5,")][repeat];
                if let Some(at) = text.find(key) {
                    text.insert_str(at, value);
                }
            }
            streamed_as_whole(Format::AiperfRecords, &text)?;
        }
    }
}

mod llmperf_responses_of_any_shape {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    fn number() -> impl Strategy<Value = Value> {
        prop_oneof![
            8 => (0.001f64..5.0).prop_map(|x| json!(x)),
            1 => (1u32..900).prop_map(|n| json!(n)),
            1 => prop_oneof![
                Just(Value::Null),
                Just(json!("0.25")),
                Just(json!("1,146")),
                Just(json!("nan")),
                Just(json!("x")),
                Just(json!(true)),
                Just(json!([1])),
                Just(json!({"v": 1})),
            ],
        ]
    }

    fn response() -> impl Strategy<Value = Value> {
        (
            prop_oneof![8 => Just(Value::Null), 1 => Just(json!(429)), 1 => Just(json!("timeout"))],
            (number(), number(), number(), number(), number()),
            0u8..8,
        )
            .prop_map(|(code, (itl, ttft, e2e, out, inp), shape)| {
                let mut r = json!({"error_code": code, "error_msg": "slow down",
                    "inter_token_latency_s": itl, "ttft_s": ttft, "end_to_end_latency_s": e2e,
                    "number_output_tokens": out, "number_input_tokens": inp,
                    "request_output_throughput_token_per_s": 35.7});
                if shape == 0 {
                    if let Some(m) = r.as_object_mut() {
                        m.remove("ttft_s");
                    }
                }
                r
            })
    }

    proptest! {
        #[test]
        fn streamed_responses_read_as_the_whole_file_reads_them(
            responses in prop::collection::vec(response(), 1..8),
            repeat in 0usize..6,
        ) {
            let mut text = Value::Array(responses).to_string();
            // A repeated key (the last one counts in a JSON value), before the record's own.
            if repeat < 3 {
                let (key, value) = [("\"ttft_s\":", "\"ttft_s\":9.5,"),
                    ("\"error_code\":", "\"error_code\":500,"),
                    ("\"error_code\":", "\"error_code\":null,")][repeat];
                if let Some(at) = text.rfind(key) {
                    text.insert_str(at, value);
                }
            }
            streamed_as_whole(Format::LlmperfResponses, &text)?;
        }
    }
}
