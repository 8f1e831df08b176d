//! Fuzzes the secret scanner: any text is masked without a panic, masking is idempotent (a
//! masked text has nothing left to mask), and what is not a secret is kept byte for byte.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if let Some(masked) = tpsview_core::redact::text(s) {
        assert!(masked.contains(tpsview_core::redact::MASK));
        assert_eq!(tpsview_core::redact::text(&masked), None, "masking twice changed {masked:?}");
    }
});
