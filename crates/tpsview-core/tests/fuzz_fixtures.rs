//! What every fuzz target runs ([`tpsview_core::fuzz_one`]), on the committed fixtures.

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::Format;

#[test]
fn the_fuzz_check_runs_on_every_vllm_and_sglang_fixture_and_on_cut_ones() {
    // `fuzz_one` asserts that reading chunk by chunk equals reading whole; here on the fixtures
    // and on each of them cut at a few places (libFuzzer explores further: scripts/fuzz.sh).
    for (dir, format) in [("vllm", Format::VllmServe), ("sglang", Format::SglangServe)] {
        let dir = format!("{}/../../tests/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            tpsview_core::fuzz_one(format, &bytes);
            for cut in [1, 7, bytes.len() / 3, bytes.len() / 2] {
                tpsview_core::fuzz_one(format, &bytes[..cut.min(bytes.len())]);
            }
        }
    }
}
