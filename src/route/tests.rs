use super::*;

#[test]
fn hashes_map_to_screens() {
    let cases = [
        ("", Route::Viewer),
        ("#viewer", Route::Viewer),
        ("#learn", Route::Learn(0)),
        ("#learn/1", Route::Learn(0)),
        ("#learn/3", Route::Learn(2)),
        // Step 0 and garbage fall back to the first step, never panic.
        ("#learn/0", Route::Learn(0)),
        ("#learn/x", Route::Learn(0)),
        ("#model", Route::Model),
        ("#claim", Route::Claim),
        ("#glossary", Route::Glossary),
        ("#glossary-tpot", Route::Glossary),
        // An inline link's data, once read, leaves the viewer.
        ("#bundle=AbC_-", Route::Viewer),
        ("#nonsense", Route::Viewer),
    ];
    for (hash, want) in cases {
        assert_eq!(Route::parse(hash), want, "{hash:?}");
    }
}
