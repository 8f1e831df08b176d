//! vLLM's offline benchmarks: `vllm bench latency --output-json` (whole-batch latencies of one
//! static batch) and `vllm bench throughput --output-json` (one offline `LLM.generate` over a
//! dataset). Neither records concurrency, prompt or output lengths, so both are shown as reported
//! with only what the definitions allow.

use super::{Format, FormatSpec};
pub use crate::tools::vllm_offline::{
    LATENCY_ID, LATENCY_VOCABULARY, THROUGHPUT_ID, THROUGHPUT_VOCABULARY,
};

use super::common::{self, num, read_values, summary_point};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, SampleKind, Samples};

/// vLLM `bench latency --output-json`.
pub const LATENCY_SPEC: FormatSpec = FormatSpec {
    format: Format::VllmLatency,
    detect: |has, _| has("\"avg_latency\"") && has("\"latencies\"") && has("\"percentiles\""),
    keys: &["avg_latency", "latencies", "percentiles"],
    parse: |f, b, _| parse_latency(f, b),
    summary_partners: &[],
    stream: None,
};

/// vLLM `bench throughput --output-json`.
pub const THROUGHPUT_SPEC: FormatSpec = FormatSpec {
    format: Format::VllmThroughput,
    detect: |has, _| has("\"elapsed_time\"") && has("\"tokens_per_second\""),
    keys: &[
        "elapsed_time",
        "tokens_per_second",
        "requests_per_second",
        "total_num_tokens",
    ],
    parse: |f, b, _| parse_throughput(f, b),
    summary_partners: &[],
    stream: None,
};

fn meta() -> Metadata {
    Metadata {
        engine: Some("vllm".into()),
        ..Metadata::default()
    }
}

/// Parses `bench latency --output-json`.
pub fn parse_latency(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let mut points = Vec::new();
    for (k, v) in values.iter().enumerate() {
        let mut figures = common::flatten_numbers(v, 2);
        if figures.is_empty() {
            continue;
        }
        figures.remove("std_latency");
        let mut samples = None;
        match common::at(v, "latencies").and_then(|l| l.as_array()) {
            Some(list) => {
                let mut lat: Vec<f64> = Vec::with_capacity(list.len());
                for (i, x) in list.iter().enumerate() {
                    match common::num_of(Some(x)) {
                        crate::lenient::Num::Value(s) if s.is_finite() && s > 0.0 => lat.push(s),
                        _ => diags.push(Diagnostic::warning(
                            file,
                            "latencies",
                            Some(i),
                            format!("{x} is not a positive latency: left out"),
                        )),
                    }
                }
                samples = Some(Samples {
                    of: SampleKind::IterationLatencyS,
                    values: lat,
                    tokens: None,
                });
            }
            None => diags.push(Diagnostic::info(
                file,
                "latencies",
                "no per-iteration latencies: figures as reported",
            )),
        }
        let mut p = summary_point(
            &if values.len() > 1 {
                format!("{file}#{}", k + 1)
            } else {
                file.to_owned()
            },
            LATENCY_ID,
            None,
            None,
            figures,
        );
        p.samples = samples;
        points.push(p);
    }
    if points.is_empty() {
        return Err(common::no_data(file, "no latency object"));
    }
    diags.push(Diagnostic::info(
        file,
        "(file)",
        "vllm bench latency does not record batch size or lengths: whole-batch latencies only, no T/s",
    ));
    Ok((
        common::one_run("vLLM bench latency", LATENCY_ID, meta(), points),
        diags,
    ))
}

/// Parses `bench throughput --output-json`.
pub fn parse_throughput(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = read_values(file, bytes, &mut diags)?;
    let points: Vec<_> = values
        .iter()
        .filter(|v| num(v, "elapsed_time").is_some())
        .enumerate()
        .map(|(k, v)| {
            summary_point(
                &if values.len() > 1 {
                    format!("{file}#{}", k + 1)
                } else {
                    file.to_owned()
                },
                THROUGHPUT_ID,
                None,
                None,
                common::flatten_numbers(v, 1),
            )
        })
        .collect();
    if points.is_empty() {
        return Err(common::no_data(
            file,
            "no object with a numeric elapsed_time",
        ));
    }
    diags.push(Diagnostic::info(
        file,
        "tokens_per_second",
        "counts prompt and output tokens: not comparable with output T/s",
    ));
    Ok((
        common::one_run("vLLM bench throughput", THROUGHPUT_ID, meta(), points),
        diags,
    ))
}
