//! Fuzzes the Ollama importer (`ollama run --verbose` blocks, llm_benchmark's logs): parse, group
//! and summarise arbitrary bytes. Nothing may panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tpsview_core::fuzz_one(tpsview_core::Format::Ollama, data);
});
