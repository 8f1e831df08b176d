use super::*;

#[test]
fn reads_numbers_written_as_strings() {
    assert_eq!(parse_num_str("12.5"), Num::Value(12.5));
    assert_eq!(parse_num_str(" 1,146.31 "), Num::Value(1146.31));
    assert_eq!(parse_num_str("inf"), Num::Value(f64::INFINITY));
    assert_eq!(parse_num_str("-Infinity"), Num::Value(f64::NEG_INFINITY));
    assert!(matches!(parse_num_str("nan"), Num::Value(v) if v.is_nan()));
    assert_eq!(parse_num_str("12 ms"), Num::Bad);
    assert_eq!(parse_num_str(""), Num::Missing);
}

#[test]
fn column_marks_bad_entries_and_keeps_the_rest() {
    let col: Column =
        serde_json::from_str(r#"[1, "2.5", null, "x", {"a":1}, [1], true, 3e2]"#).unwrap();
    assert_eq!(col.values.len(), 8);
    assert_eq!(col.values[0], 1.0);
    assert_eq!(col.values[1], 2.5);
    assert_eq!(col.values[7], 300.0);
    for i in 2..=6 {
        assert!(col.values[i].is_nan(), "entry {i} marked");
    }
    assert!(col.values[1].is_finite() && col.values[7].is_finite());
}

#[test]
fn ragged_column_flattens_rows() {
    let r: RaggedColumn =
        serde_json::from_str(r#"[[0.1, 0.2], [], null, [0.3, "x"], [0.5]]"#).unwrap();
    assert_eq!(r.data.rows(), 5);
    assert_eq!(r.data.row(0), &[0.1, 0.2]);
    assert!(r.data.row(1).is_empty());
    assert!(r.data.row(2).is_empty());
    assert_eq!(r.data.row(4), &[0.5]);
    assert_eq!(r.bad_rows, vec![2], "only the row that is not an array");
    assert!(r.data.row(3)[1].is_nan(), "a bad entry inside a row is NaN");
}

#[test]
fn quotes_bare_nonfinite_literals_outside_strings_only() {
    let src = br#"{"a": Infinity, "b": -Infinity, "c": NaN, "s": "NaN Infinity \" NaN"}"#;
    let out = quote_nonfinite_literals(src).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        r#"{"a": "inf", "b": "-inf", "c": "nan", "s": "NaN Infinity \" NaN"}"#
    );
    assert!(quote_nonfinite_literals(br#"{"a": 1}"#).is_none());
}
