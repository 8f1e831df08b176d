//! tpsview's core as its callers see it: the model (`tpsview-model`), the readers
//! (`tpsview-formats`) and the analysis (`tpsview-analysis`) under their old paths, and what joins
//! a reader to the analysis: [`summary::summarize`] (parsed files grouped into runs, then
//! summarised) and [`fuzz_one`]. It takes bytes and returns values: no I/O, no clock, no web
//! dependency. The direction is Cargo's: the analysis crate does not depend on the readers.
#![warn(missing_docs)]

// What the callers (the CLI, the components, the app, the fuzz targets, the tests) name, and no
// more: a module only the crates below use is theirs (`tpsview_analysis::audit`,
// `tpsview_formats::lenient`, `tpsview_model::tools`).
pub use tpsview_analysis::{
    answer, chart_spec, claim, compare, energy, health, learn, metrics, noise, probe, roofline,
    server, simulate, slo, spec, viewer,
};
pub use tpsview_formats::formats::mapping;
pub use tpsview_formats::{formats, group, progress, redact, scan, synthetic, transfer};
pub use tpsview_model::{bounds, error, model, par, requests, stats, text, vocabulary};

/// The `--json` contract ([`tpsview_analysis::summary`]), and [`summarize`](summary::summarize):
/// parsed files grouped into runs, then summarised.
pub mod summary {
    pub use tpsview_analysis::summary::*;

    use tpsview_analysis::metrics::MetricOptions;
    use tpsview_formats::formats::Parsed;

    /// Groups parsed files into runs and summarises them.
    pub fn summarize(files: Vec<Parsed>, opts: &MetricOptions) -> Summary {
        let (report, mut diagnostics) = tpsview_formats::group::group(files);
        let (runs, d) = summarize_report(&report, opts);
        diagnostics.extend(d);
        Summary { runs, diagnostics }
    }
}

pub use error::{Diagnostic, ParseError};
pub use formats::{detect, parse_any, Format, Parsed};
pub use metrics::MetricOptions;
pub use summary::{summarize, Summary};

/// [`fuzz_one`] on a file whole, cut at five places and with a byte overwritten at six (the
/// tests' quick stand-in for libFuzzer on the real files and fixtures of a reader).
pub fn fuzz_cut_and_corrupted(format: Format, bytes: &[u8]) {
    fuzz_one(format, bytes);
    for cut in [
        1,
        5,
        bytes.len() / 3,
        bytes.len() / 2,
        bytes.len().saturating_sub(1),
    ] {
        fuzz_one(format, &bytes[..cut.min(bytes.len())]);
    }
    if bytes.is_empty() {
        return;
    }
    for (i, b) in [b'{', b'"', b'-', b'\n', 0xFF, b'9'].iter().enumerate() {
        let mut bad = bytes.to_vec();
        bad[(bytes.len() * (i + 1)) / 7] = *b;
        fuzz_one(format, &bad);
    }
}

/// What the mapping's fuzz target runs (fuzz/fuzz_targets/mapping.rs): `data` as a mapping
/// document, and as a file no reader knows — inspected, a mapping proposed, the file read
/// through it. Any panic is a bug.
pub fn fuzz_mapping(data: &[u8]) {
    // Arbitrary bytes as a mapping document: refused or accepted, never a panic.
    let _ = mapping::Mapping::from_json("fuzz-mapping.json", data);
    // Arbitrary bytes as a file no reader knows: inspected, a mapping proposed (which, written
    // out, reads back the same where it is complete), and the file read through it.
    let Ok(shape) = mapping::inspect("fuzz.json", data) else {
        return;
    };
    let m = mapping::propose(&shape);
    if m.check().is_ok() {
        let back = mapping::Mapping::from_json("m.json", m.to_json().as_bytes());
        assert_eq!(
            back.ok().as_ref(),
            Some(&m),
            "a proposal does not read back the same"
        );
    }
    if let Ok(parsed) = formats::parse_mapped("fuzz.json", data, &m) {
        let s = summarize(vec![parsed], &MetricOptions::default());
        let _ = chart_spec::throughput(&s, &chart_spec::ChartOptions::default());
    }
    // The viewer's corrections, a quantity and a unit for a field the input picks, read through
    // `read_unknown` as the loading worker does, and the panel made of what it found.
    let pick = |k: usize| data.get(k).map_or(0, |&b| usize::from(b));
    if let Some(field) = shape.fields.get(pick(0) % shape.fields.len().max(1)) {
        let q = mapping::Quantity::ALL[pick(1) % mapping::Quantity::ALL.len()];
        let corrected = |s: &mapping::Shape| {
            let m = mapping::edit(&m, s, "quantity", &field.name, q.id());
            let u = q.units()[pick(2) % q.units().len()];
            Some(mapping::edit(&m, s, "unit", &field.name, u.id()))
        };
        if let Some((_, offer)) = formats::read_unknown("fuzz.json", data, corrected, &[]) {
            let p = offer.panel();
            assert_eq!(p.fields.len(), offer.shape.fields.len());
            assert!(p
                .fields
                .iter()
                .all(|f| f.units.is_empty() == (f.quantity == "ignore")));
        }
    }
}

/// What every fuzz target runs (fuzz/): parse `data` as `format` (for the formats read as they
/// arrive — vLLM, SGLang, AIPerf records, LLMPerf responses, GenAI-Perf exports — also chunk by
/// chunk, which must read the same), then group, summarise and audit it, and read it back after
/// writing it as `tpsview/1`. Any panic is a bug.
pub fn fuzz_one(format: Format, data: &[u8]) {
    // Read as it arrives (vLLM, SGLang, AIPerf records, LLMPerf responses, GenAI-Perf exports), in
    // chunks of a size the input picks, a file reads as it does whole, or the streamed reader
    // gives way to the whole-file reader.
    if let Some(mut s) = formats::Stream::new(format, "fuzz.json", Some(data.len() as u64)) {
        let step = 1 + data.first().map_or(0, |&b| usize::from(b) % 61);
        for c in data.chunks(step) {
            if !s.feed(c, &mut progress::Silent) {
                break;
            }
        }
        if let Some(streamed) = s.finish(&mut progress::Silent) {
            let whole = formats::parse(format, "fuzz.json", data);
            assert_eq!(
                format!("{streamed:?}"),
                format!("{whole:?}"),
                "the streamed and the whole reading differ"
            );
        }
    }
    if let Ok(parsed) = formats::parse(format, "fuzz.json", data) {
        let (report, _) = group::group(vec![parsed.clone()]);
        let written = formats::tpsview::write(&report);
        let _ = formats::parse(Format::Tpsview, "fuzz-roundtrip.json", written.as_bytes());
        let s = summarize(vec![parsed], &MetricOptions { steady_state: true });
        let _ = chart_spec::throughput(&s, &chart_spec::ChartOptions::default());
    }
}
