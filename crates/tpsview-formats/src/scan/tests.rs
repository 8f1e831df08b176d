use super::*;
use proptest::prelude::*;

fn num(s: &str) -> Option<f64> {
    Scanner::new(s.as_bytes()).number()
}

#[test]
fn numbers_match_the_standard_parser() {
    for s in [
        "0",
        "-0",
        "1",
        "0.023457",
        "12.5",
        "-3.25e-4",
        "1e308",
        "1e-320",
        "123456789012345678901234",
        "0.018234567891234567",
        "2.5E+3",
    ] {
        assert_eq!(
            num(s).map(f64::to_bits),
            s.parse::<f64>().ok().map(f64::to_bits),
            "{s}"
        );
    }
}

#[test]
fn non_json_numbers_give_up() {
    for s in [
        "", "-", "01", "1.", ".5", "1e", "NaN", "Infinity", "null", "\"1\"", "+1",
    ] {
        assert_eq!(num(s), None, "{s:?}");
    }
}

#[test]
fn arrays() {
    let mut v = Vec::new();
    Scanner::new(b" [1, 2.5 ,3e1] ").f64_array(&mut v).unwrap();
    assert_eq!(v, vec![1.0, 2.5, 30.0]);
    assert!(Scanner::new(b"[1, null]")
        .f64_array(&mut Vec::new())
        .is_none());
    assert!(Scanner::new(b"[1, 2").f64_array(&mut Vec::new()).is_none());
}

#[test]
fn skips_values_with_strings_escapes_and_nesting() {
    let src = br#"{"a": ["x\"]}", {"b": [1, 2]}], "c": 3}"#;
    let mut s = Scanner::new(src);
    s.expect(b'{').unwrap();
    assert_eq!(s.key(), Some("a"));
    assert_eq!(s.skip_value().unwrap(), br#"["x\"]}", {"b": [1, 2]}]"#);
    assert!(s.eat(b','));
    assert_eq!(s.key(), Some("c"));
    assert_eq!(s.skip_value().unwrap(), b"3");
    assert!(s.eat(b'}'));
    assert!(s.at_end());
}

#[test]
fn deep_nesting_and_truncation_give_up_without_panicking() {
    let deep = "[".repeat(10_000);
    assert!(Scanner::new(deep.as_bytes()).skip_value().is_none());
    assert!(Scanner::new(br#""abc\"#).string_raw().is_none());
    assert!(Scanner::new(b"[1,2,").f64_array(&mut Vec::new()).is_none());
}

proptest! {
    #[test]
    fn any_finite_double_round_trips(x in any::<f64>().prop_filter("finite", |x| x.is_finite())) {
        let text = serde_json::to_string(&x).unwrap();
        prop_assert_eq!(num(&text).map(f64::to_bits), Some(x.to_bits()), "{}", text);
    }

    #[test]
    fn never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut s = Scanner::new(&bytes);
        let _ = s.skip_value();
        let _ = Scanner::new(&bytes).f64_array(&mut Vec::new());
    }
}

#[test]
fn path_at_names_the_enclosing_value() {
    let text = br#"{"format": "x", "runs": [{"label": "a", "points": [{}, {"requests": {"ttft_s": {"a": 1}}}]}]}"#;
    let at = |needle: &str| {
        let k = text
            .windows(needle.len())
            .position(|w| w == needle.as_bytes())
            .unwrap();
        path_at(text, k + needle.len())
    };
    assert_eq!(at(r#""ttft_s": {"#), "runs[0].points[1].requests.ttft_s");
    assert_eq!(at(r#""label": "a""#), "runs[0].label");
    assert_eq!(at(r#""points": [{}, "#), "runs[0].points[1]");
    assert_eq!(path_at(b"", 5), "");
    assert_eq!(path_at(br#"{"a\"b": [1, 2"#, 14), "a\\\"b[1]");
}

#[test]
fn offsets_follow_lines_and_columns() {
    let t = b"ab\ncdef\ng";
    assert_eq!(offset_of(t, 1, 1), 1);
    assert_eq!(offset_of(t, 2, 3), 6);
    assert_eq!(offset_of(t, 9, 1), t.len());
}

/// The digit loop one byte at a time (the scanner's own, for integer parts): what the
/// eight-at-a-time reading must equal.
fn digits_bytewise(b: &[u8], i: &mut usize, mant: &mut u64) -> u32 {
    accumulate_digits_bytewise(b, i, mant)
}

#[test]
fn eight_bytes_at_a_time_read_digits_as_one_at_a_time_does() {
    // Every run length 0..=20 after every offset, followed by each kind of byte that ends a run
    // (including ':' and '/', the neighbours of the digits, and bytes ≥ 0xFA that carry).
    let enders: [u8; 9] = [b'.', b',', b'/', b':', b'e', b' ', 0xFA, 0xFF, 0x00];
    for run in 0..=20usize {
        for &end in &enders {
            for lead in 0..3 {
                let mut b: Vec<u8> = vec![b'x'; lead];
                b.extend((0..run).map(|k| b'0' + ((k * 7 + 3) % 10) as u8));
                b.push(end);
                b.extend_from_slice(b"12345678");
                let (mut i1, mut m1) = (lead, 77u64);
                let (mut i2, mut m2) = (lead, 77u64);
                let n1 = accumulate_digits(&b, &mut i1, &mut m1);
                let n2 = digits_bytewise(&b, &mut i2, &mut m2);
                assert_eq!(
                    (n1, i1, m1),
                    (n2, i2, m2),
                    "run {run}, end {end:#x}, lead {lead}"
                );
            }
        }
    }
}

proptest! {
    #[test]
    fn any_bytes_read_as_digits_alike(b in proptest::collection::vec(
        prop_oneof![b'0'..=b'9', any::<u8>()], 0..40), start in 0usize..40) {
        let start = start.min(b.len());
        let (mut i1, mut m1) = (start, 5u64);
        let (mut i2, mut m2) = (start, 5u64);
        let n1 = accumulate_digits(&b, &mut i1, &mut m1);
        let n2 = digits_bytewise(&b, &mut i2, &mut m2);
        prop_assert_eq!((n1, i1, m1), (n2, i2, m2));
    }
}

/// An array's tokens, each read alone by the standard library's parser (correctly rounded):
/// what `f64_array` must give, whichever of its paths reads them.
fn std_values(tokens: &[String]) -> Vec<u64> {
    tokens
        .iter()
        .map(|t| t.parse::<f64>().expect("a JSON number").to_bits())
        .collect()
}

/// `tokens` joined by `seps` (cycled) inside brackets, read by `f64_array`.
fn read_array(tokens: &[String], seps: &[&str]) -> Option<(Vec<u64>, usize, usize)> {
    let mut text = String::from("[");
    for (k, t) in tokens.iter().enumerate() {
        if k > 0 {
            text.push_str(seps[k % seps.len()]);
        }
        text.push_str(t);
    }
    text.push_str("] ,");
    let mut v = Vec::new();
    let mut s = Scanner::new(text.as_bytes());
    s.f64_array(&mut v)?;
    Some((
        v.into_iter().map(f64::to_bits).collect(),
        s.pos(),
        text.len() - 2,
    ))
}

#[test]
fn short_decimals_in_arrays_read_as_the_standard_parser_reads_them() {
    // Every fraction length the one-step path takes (1–7) and those it leaves (8+), every
    // integer digit, values that round, the array's last value and its edges near the end.
    let mut tokens = Vec::new();
    for d in 0..10 {
        for frac in [
            "5",
            "25",
            "125",
            "0625",
            "03125",
            "015625",
            "0078125",
            "00390625",
            "123456789",
        ] {
            tokens.push(format!("{d}.{frac}"));
        }
    }
    tokens.extend(["0.1", "0.2", "0.3", "9.9999999", "0.0000001", "1.0"].map(String::from));
    for seps in [
        &[", "][..],
        &[","],
        &[",  "],
        &[",\n"],
        &[" , "],
        &[", ", ",", ",\t"],
    ] {
        let (got, end, want_end) = read_array(&tokens, seps).expect("reads");
        assert_eq!(got, std_values(&tokens), "{seps:?}");
        assert_eq!(end, want_end, "{seps:?}: stops just after the `]`");
    }
    // Short arrays: fewer than 16 bytes left after a value.
    for n in 1..6 {
        let t: Vec<String> = (0..n).map(|k| format!("0.{k}5")).collect();
        let (got, _, _) = read_array(&t, &[", "]).expect("reads");
        assert_eq!(got, std_values(&t));
    }
}

#[test]
fn what_the_one_step_path_leaves_is_read_or_refused_as_before() {
    let mut v = Vec::new();
    // Exponents, signs, long fractions and integers between short decimals.
    Scanner::new(b"[0.5, 1.5e3, 0.25, -0.75, 0.125, 2.5E-1, 12.5, 7, 0.123456789, 0.5]")
        .f64_array(&mut v)
        .expect("reads");
    assert_eq!(
        v,
        [
            0.5,
            1500.0,
            0.25,
            -0.75,
            0.125,
            0.25,
            12.5,
            7.0,
            0.123456789,
            0.5
        ]
    );
    // JSON's grammar still holds: a leading zero, a bare point, a second point, a missing
    // value, text where a value belongs.
    for bad in [
        "[0.5, 01.5, 0.25]",
        "[0.5, 1., 0.25]",
        "[0.5, 1.5.5, 0.25]",
        "[0.5, , 0.25]",
        "[0.5, 0.25,]",
        "[0.5, null, 0.25]",
        "[0.5, 0.25",
        "[0.5, 0.25 0.5]",
    ] {
        assert!(
            Scanner::new(bad.as_bytes())
                .f64_array(&mut Vec::new())
                .is_none(),
            "{bad}"
        );
    }
}

proptest! {
    #[test]
    fn arrays_of_any_numbers_read_as_the_standard_parser_reads_them(
        tokens in prop::collection::vec(
            prop_oneof![
                (0u8..10, 0u32..10_000_000, 1usize..8).prop_map(|(d, f, k)| {
                    format!("{d}.{:0k$}", f % 10u32.pow(k as u32))
                }),
                any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| serde_json::to_string(&x).unwrap()),
                (0u64..1_000_000).prop_map(|n| n.to_string()),
            ],
            1..40,
        ),
        seps in prop::collection::vec(prop_oneof![Just(", "), Just(","), Just(" ,"), Just(",\n  ")], 1..4),
    ) {
        let (got, end, want_end) = read_array(&tokens, &seps).expect("reads");
        prop_assert_eq!(got, std_values(&tokens));
        prop_assert_eq!(end, want_end);
    }
}

/// Text that is or nearly is a JSON number: digits (leading zeros too), points, exponents, signs,
/// the words fast-float2 reads but JSON does not, and what may follow a number.
fn numberish() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        4 => "[0-9]{1,20}",
        2 => Just(".".to_owned()),
        2 => prop_oneof![Just("e"), Just("E"), Just("e-"), Just("e+"), Just("E+0")].prop_map(str::to_owned),
        1 => prop_oneof![Just("-"), Just("+"), Just("0"), Just("00")].prop_map(str::to_owned),
        1 => prop_oneof![Just("NaN"), Just("nan"), Just("inf"), Just("Infinity"), Just("-inf")].prop_map(str::to_owned),
        1 => prop_oneof![Just(","), Just("]"), Just(" "), Just("}"), Just("x"), Just("\"")].prop_map(str::to_owned),
    ];
    prop::collection::vec(part, 1..6).prop_map(|p| p.concat())
}

proptest! {
    /// The scanner's one-pass number reader (fast-float2, then JSON's grammar checked on what it
    /// read) accepts and refuses what the digit-by-digit reader does, stops at the same byte,
    /// and reads the same double.
    #[test]
    fn numbers_read_in_one_pass_as_digit_by_digit(text in numberish()) {
        let b = text.as_bytes();
        let mut one = Scanner::new(b);
        let mut two = Scanner::new(b);
        let (x, y) = (one.number(), two.number_by_parts());
        prop_assert_eq!(x.map(f64::to_bits), y.map(f64::to_bits), "{:?}", text);
        if x.is_some() {
            prop_assert_eq!(one.pos(), two.pos(), "{:?}", text);
        }
    }

    /// Python's repr of any double (17 significant digits at most, as vLLM's files hold them),
    /// with an exponent or without, reads back as that double.
    #[test]
    fn reprs_of_any_double_read_back_exactly(x in any::<f64>().prop_filter("finite", |x| x.is_finite()), sci in any::<bool>()) {
        let text = if sci { format!("{x:e}") } else { format!("{x}") };
        let mut s = Scanner::new(text.as_bytes());
        prop_assert_eq!(s.number().map(f64::to_bits), Some(x.to_bits()), "{}", text);
    }
}
