//! The viewer's mapping panel, as the core does it (issue 44): a person's corrections one at a
//! time, which mapping a file of a shape is read through (given, saved for its key set, or
//! proposed), and a file no reader knows read through it with its samples masked. Expected
//! values are worked out by hand from the rows below.

#![allow(clippy::unwrap_used)]

use tpsview_core::formats;
use tpsview_core::mapping::{
    choose, edit, inspect, kept, kept_with, propose, Mapping, Origin, Quantity, Scope, Unit, KEEP,
};

/// One JSON line per request; `wait` is the time to first token in µs, which no name says.
const ROWS: &str = r#"{"wait":150000,"total_s":1.15,"n_out":101,"users":4,"token":"sk-abcdefghijklmnopqrstuvwxyz123456"}
{"wait":250000,"total_s":2.25,"n_out":201,"users":4,"token":"sk-abcdefghijklmnopqrstuvwxyz123456"}
"#;

#[test]
fn corrections_keep_the_mapping_valid_one_choice_at_a_time() {
    let shape = inspect("own.jsonl", ROWS.as_bytes()).unwrap();
    let m = propose(&shape);
    // Nothing says TTFT: the proposal cannot be read as requests yet.
    assert_eq!(m.quantity_of("wait"), Quantity::Ignore);
    assert!(m.check().is_err());
    // `wait` is the TTFT: its unit from its magnitude, as ms (a median of 200,000 is 200 s in ms,
    // under the 300 s a TTFT may take, 200 ks in s), which the person corrects to µs.
    let m = m.with_quantity(&shape, "wait", Quantity::Ttft);
    assert_eq!(
        (m.quantity_of("wait"), m.unit_of("wait")),
        (Quantity::Ttft, Unit::Ms)
    );
    let m = m.with_unit("wait", Unit::Us);
    assert_eq!(m.unit_of("wait"), Unit::Us);
    let m = m
        .with_quantity(&shape, "total_s", Quantity::E2e)
        .with_quantity(&shape, "n_out", Quantity::OutputTokens)
        .with_quantity(&shape, "users", Quantity::Concurrency);
    assert_eq!(m.unit_of("total_s"), Unit::S, "the suffix says seconds");
    m.check().unwrap();
    // A second field for TTFT takes it from the first: one field a quantity.
    let moved = m.with_quantity(&shape, "total_s", Quantity::Ttft);
    assert_eq!(moved.quantity_of("wait"), Quantity::Ignore);
    assert_eq!(moved.quantity_of("total_s"), Quantity::Ttft);
    // A unit the quantity does not take is refused; one it takes is kept.
    assert_eq!(m.with_unit("n_out", Unit::Ms).unit_of("n_out"), Unit::Count);
    assert_eq!(m.with_unit("wait", Unit::Ns).unit_of("wait"), Unit::Ns);
    // Rows as levels drop what a level row cannot hold (none of these), and back.
    let level = m.with_scope(Scope::Level);
    assert_eq!(level.scope, Scope::Level);
    assert_eq!(level.fields.len(), 4);
    // Ignore drops the field.
    assert_eq!(
        m.with_quantity(&shape, "users", Quantity::Ignore)
            .fields
            .len(),
        3
    );
    // A concurrency below 1 is not a level.
    assert_eq!(m.with_concurrency(Some(0.5)).concurrency, None);
    assert_eq!(m.with_concurrency(Some(8.0)).concurrency, Some(8.0));
}

#[test]
fn a_file_is_read_through_the_given_then_the_saved_then_the_proposed_mapping() {
    let shape = inspect("own.jsonl", ROWS.as_bytes()).unwrap();
    let mine = propose(&shape)
        .with_quantity(&shape, "wait", Quantity::Ttft)
        .with_unit("wait", Unit::Us)
        .with_quantity(&shape, "total_s", Quantity::E2e)
        .with_quantity(&shape, "n_out", Quantity::OutputTokens);
    let mut other = mine.clone();
    other.keys = vec!["something".into(), "else".into()];
    assert_eq!(choose(&shape, None, &[]).1, Origin::Proposed);
    assert_eq!(choose(&shape, None, &[other.clone()]).1, Origin::Proposed);
    let (m, o) = choose(&shape, None, &[other.clone(), mine.clone()]);
    assert_eq!((o, &m), (Origin::Saved, &mine));
    assert_eq!(
        choose(&shape, Some(&other), std::slice::from_ref(&mine)).1,
        Origin::Given
    );

    // Read through the saved one: TTFT 150 and 250 ms; TPOT (1150 − 150) / 100 = 10 ms and
    // (2250 − 250) / 200 = 10 ms.
    let (parsed, offer) = formats::read_unknown(
        "own.jsonl",
        ROWS.as_bytes(),
        |_| None,
        std::slice::from_ref(&mine),
    )
    .unwrap();
    assert_eq!(offer.origin, Origin::Saved);
    let parsed = parsed.unwrap();
    let req = parsed.report.runs[0].points[0].requests.as_ref().unwrap();
    assert_eq!(req.ttft_s, vec![0.15, 0.25]);
    // The secret in a sample never leaves: masked in the offer, whose JSON round-trips.
    let token = offer
        .shape
        .fields
        .iter()
        .find(|f| f.name == "token")
        .unwrap();
    assert!(
        token.samples.iter().all(|s| !s.contains("sk-abc")),
        "{token:?}"
    );
    let panel = offer.panel();
    let token = panel.fields.iter().find(|f| f.name == "token").unwrap();
    assert!(!token.samples.contains("sk-abcdefghij"), "{token:?}");

    // With nothing saved the proposal cannot read it: the error names what is missing, and the
    // offer still says what the file holds.
    let (parsed, offer) =
        formats::read_unknown("own.jsonl", ROWS.as_bytes(), |_| None, &[]).unwrap();
    let e = parsed.unwrap_err().to_string();
    assert!(e.contains("own.jsonl") && e.contains("ttft"), "{e}");
    assert_eq!(offer.origin, Origin::Proposed);
    assert_eq!(offer.shape.rows, 2);

    // Bytes with no rows of named fields have nothing to offer.
    assert!(formats::read_unknown("x.txt", b"hello", |_| None, &[]).is_none());
}

#[test]
fn the_panel_says_each_field_in_words_and_reads_corrections_back() {
    let shape = inspect("own.jsonl", ROWS.as_bytes()).unwrap();
    // The viewer holds the mapping's document only: each correction is read against it.
    let (parsed, offer) = formats::read_unknown(
        "own.jsonl",
        ROWS.as_bytes(),
        |shape| {
            let m = propose(shape);
            let m = edit(&m, shape, "quantity", "wait", "ttft");
            let m = edit(&m, shape, "unit", "wait", "us");
            let m = edit(&m, shape, "quantity", "total_s", "e2e");
            Some(edit(&m, shape, "quantity", "n_out", "output_tokens"))
        },
        &[],
    )
    .unwrap();
    assert_eq!(offer.origin, Origin::Given);
    // 101 and 201 tokens over (1.15 − 0.15) and (2.25 − 0.25) s after the first.
    let req = parsed.unwrap().report.runs[0].points[0]
        .requests
        .clone()
        .unwrap();
    assert_eq!(req.output_tokens, vec![101, 201]);
    let panel = offer.panel();
    assert_eq!(
        (panel.origin.as_str(), panel.scope.as_str()),
        ("given", "request")
    );
    assert_eq!((panel.rows, panel.keys), (2, 5));
    let wait = panel.fields.iter().find(|f| f.name == "wait").unwrap();
    assert_eq!((wait.quantity.as_str(), wait.unit.as_str()), ("ttft", "us"));
    assert_eq!(wait.units, vec!["s", "ms", "us", "ns"]);
    assert_eq!(wait.samples, "150000, 250000");
    let users = panel.fields.iter().find(|f| f.name == "users").unwrap();
    assert_eq!(
        (users.quantity.as_str(), users.units.len()),
        ("concurrency", 1)
    );
    // A request row cannot hold a level's throughput: not offered.
    assert!(panel
        .quantities
        .iter()
        .all(|(id, _)| id != "output_throughput"));
    assert!(panel
        .quantities
        .iter()
        .any(|(id, w)| id == "ttft" && w == "TTFT"));
    // The document it carries reads back to the mapping; nonsense edits change nothing.
    let m = Mapping::from_json("m", panel.mapping.as_bytes()).unwrap();
    assert_eq!(m, offer.mapping);
    assert_eq!(edit(&m, &shape, "quantity", "wait", "bogus"), m);
    assert_eq!(edit(&m, &shape, "frobnicate", "wait", "ttft"), m);
    assert_eq!(
        edit(&m, &shape, "concurrency", "", "4").concurrency,
        Some(4.0)
    );
    assert_eq!(edit(&m, &shape, "concurrency", "", "").concurrency, None);
    assert_eq!(edit(&m, &shape, "scope", "", "level").scope, Scope::Level);
    // Ids round-trip with the document's own names.
    for q in Quantity::ALL {
        assert_eq!(
            serde_json::to_string(&q).unwrap(),
            format!("\"{}\"", q.id())
        );
        assert_eq!(Quantity::from_id(q.id()), Some(q));
    }
    for u in Unit::from_id("s")
        .into_iter()
        .chain(Quantity::ALL.iter().flat_map(|q| q.units().iter().copied()))
    {
        assert_eq!(
            serde_json::to_string(&u).unwrap(),
            format!("\"{}\"", u.id())
        );
        assert_eq!(Unit::from_id(u.id()), Some(u));
    }
}

#[test]
fn kept_mappings_one_per_key_set_newest_first_bounded() {
    let shape = inspect("own.jsonl", ROWS.as_bytes()).unwrap();
    let base = propose(&shape);
    let mut list = "[]".to_owned();
    for i in 0..30 {
        let mut m = base.clone();
        m.keys = vec![format!("k{i}")];
        list = kept_with(&list, &m);
    }
    let l = kept(&list);
    assert_eq!(l.len(), KEEP);
    assert_eq!(l[0].keys, vec!["k29"]);
    let mut again = base.with_concurrency(Some(2.0));
    again.keys = vec!["k25".into()];
    let l = kept(&kept_with(&list, &again));
    assert_eq!(l.len(), KEEP);
    assert_eq!(
        (l[0].keys[0].as_str(), l[0].concurrency),
        ("k25", Some(2.0))
    );
    assert_eq!(l.iter().filter(|x| x.keys == vec!["k25"]).count(), 1);
    assert!(kept("not json").is_empty());
    assert_eq!(kept(&kept_with("not json", &again)).len(), 1);
}
