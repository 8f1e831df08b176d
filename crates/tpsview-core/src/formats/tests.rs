use super::*;

#[test]
fn detection_looks_at_the_end_of_the_file_too() {
    let mut big = String::from(r#"{"ttfts": ["#);
    big.push_str(&"0.1, ".repeat(40_000));
    big.push_str(r#"0.1], "mean_tpot_ms": 1.0}"#);
    assert_eq!(detect(big.as_bytes()), Some(Format::VllmServe));
}

#[test]
fn every_format_has_an_id_that_maps_back() {
    for f in Format::ALL {
        assert_eq!(Format::from_id(f.id()), Some(*f));
    }
}

#[test]
fn unknown_json_lists_supported_formats_and_its_keys() {
    let e = parse_any("x.json", br#"{"hello": 1, "<b>": 2}"#).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("x.json") && text.contains("hello") && text.contains("vLLM"),
        "{text}"
    );
}

#[test]
fn a_utf8_bom_is_accepted() {
    let mut b = b"\xEF\xBB\xBF".to_vec();
    b.extend_from_slice(br#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"concurrency":1,"reported":{"tool":"tpsview/1","figures":{"system_tps":5}}}]}]}"#);
    let p = parse_any("bom.json", &b).unwrap();
    assert_eq!(p.format, Format::Tpsview);
}
