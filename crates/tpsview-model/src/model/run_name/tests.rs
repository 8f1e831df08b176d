use super::*;

#[test]
fn a_label_reads_into_its_parts_and_prints_back_the_same() {
    for (label, setup, folder, repeat) in [
        ("Llama-3-8B · H100", "Llama-3-8B · H100", None, None),
        (
            "m · max_num_seqs=32 · run=2",
            "m · max_num_seqs=32",
            None,
            Some((RepeatKey::Run, 2)),
        ),
        (
            "m · folder=sweep-b · repeat=3",
            "m",
            Some("sweep-b"),
            Some((RepeatKey::Repeat, 3)),
        ),
        ("m · warm-up", "m · warm-up", None, None),
        // Not a repeat: no number, or not all digits.
        ("m · run=x · run=", "m · run=x · run=", None, None),
    ] {
        let n = RunName::parse(label);
        assert_eq!(n.setup, setup, "{label}");
        assert_eq!(n.folder.as_deref(), folder, "{label}");
        assert_eq!(n.repeat.map(|r| (r.key, r.n)), repeat, "{label}");
        assert_eq!(n.to_string(), label);
    }
}

#[test]
fn the_repeats_of_one_setup_share_their_name_less_the_repeat() {
    let a = RunName::setup("m · tp=2").with_repeat(RepeatKey::Run, 1);
    let b = RunName::setup("m · tp=2").with_repeat(RepeatKey::Run, 2);
    assert_ne!(a, b);
    assert_eq!(a.without_repeat(), b.without_repeat());
    assert_eq!(a.without_repeat().to_string(), "m · tp=2");
    let f = RunName {
        folder: Some("x".into()),
        ..a
    };
    assert_eq!(f.to_string(), "m · tp=2 · folder=x · run=1");
    assert_eq!(f.settings(), ["tp=2", "folder=x", "run=1"]);
}

#[test]
fn a_name_equals_the_text_it_prints_and_no_other() {
    let n = RunName::parse("m · tp=2 · run=1");
    assert!(n == "m · tp=2 · run=1");
    assert!(n != "m · tp=2");
    assert!(n != "m · tp=2 · run=1 · x");
    assert!(RunName::default() == "");
}

#[test]
fn its_debug_is_its_text_as_a_string_debugs() {
    let n = RunName::parse("m \"x\" · run=2");
    assert_eq!(format!("{n:?}"), format!("{:?}", "m \"x\" · run=2"));
}
