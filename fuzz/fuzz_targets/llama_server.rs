//! Fuzzes the llama-server importer (answers with their `timings`): parse, group and summarise
//! arbitrary bytes. Nothing may panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tpsview_core::fuzz_one(tpsview_core::Format::LlamaServer, data);
});
