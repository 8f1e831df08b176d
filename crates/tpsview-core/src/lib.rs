//! tpsview's core: the report model, the importers for benchmark files, the metric engine that
//! recomputes every figure from raw per-request data, and the engine simulator behind the seed
//! example. It takes bytes and returns values: no I/O, no clock, no web dependency.
#![warn(missing_docs)]

pub mod answer;
pub mod audit;
pub mod bounds;
pub mod chart_spec;
pub mod claim;
pub mod compare;
pub mod energy;
pub mod error;
pub mod formats;
pub mod group;
pub mod health;
pub mod learn;
pub mod lenient;
pub mod metrics;
pub mod model;
pub mod noise;
pub mod par;
pub mod probe;
pub mod progress;
pub mod redact;
pub mod requests;
pub mod roofline;
pub mod scan;
pub mod server;
pub mod simulate;
pub mod slo;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod synthetic;
pub mod text;
pub mod transfer;
pub mod vocabulary;

pub use error::{Diagnostic, ParseError, ParseErrorKind};
pub use formats::{detect, parse, parse_any, Format, Parsed};
pub use metrics::{compute_point, MetricOptions, PointMetrics};
pub use model::{Metadata, Point, Report, Requests, Run};
pub use summary::{summarize, Summary};

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
            let whole = parse(format, "fuzz.json", data);
            assert_eq!(
                format!("{streamed:?}"),
                format!("{whole:?}"),
                "the streamed and the whole reading differ"
            );
        }
    }
    if let Ok(parsed) = parse(format, "fuzz.json", data) {
        let (report, _) = group::group(vec![parsed.clone()]);
        let written = formats::tpsview::write(&report);
        let _ = parse(Format::Tpsview, "fuzz-roundtrip.json", written.as_bytes());
        let s = summarize(vec![parsed], &MetricOptions { steady_state: true });
        let _ = chart_spec::throughput(&s, &chart_spec::ChartOptions::default());
    }
}
