//! Fuzzes the mapping of a file no reader knows: arbitrary bytes as a mapping document and as a
//! file inspected, mapped by the proposal and read through it. Nothing may panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tpsview_core::fuzz_mapping(data);
});
