//! Fuzzes detection itself: any bytes are recognised as one format and read by it, or refused
//! with a message that says what they most resemble. Nothing may panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    match tpsview_core::parse_any("fuzz.json", data) {
        Ok(p) => {
            let (report, _) = tpsview_core::group::group(vec![p]);
            let _ = tpsview_core::formats::tpsview::write(&report);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
