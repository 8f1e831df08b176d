//! Ingest benchmark: summarise a generated vLLM `--save-detailed` file end to end (detect, parse,
//! validate, recompute every metric) and, in the same run, parse the same bytes into a plain
//! `serde_json::Value` as the baseline. Criterion prints MB/s for both, for two encodings of the
//! same 10,000 requests × ~1,000 chunk gaps: times rounded to microseconds (~105 MB, the size the
//! issue names) and Python's full float repr (~228 MB, what vLLM really writes).
//! Run: `cargo bench -p tpsview-core --bench ingest`. Size: TPSVIEW_BENCH_REQUESTS (default
//! 10,000) × TPSVIEW_BENCH_GAPS (default 1,000).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tpsview_core::metrics::MetricOptions;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn ingest(c: &mut Criterion) {
    let requests = env("TPSVIEW_BENCH_REQUESTS", 10_000);
    let gaps = env("TPSVIEW_BENCH_GAPS", 1_000);
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    for (encoding, full) in [("compact", false), ("python_repr", true)] {
        let text = tpsview_core::synthetic::vllm_detailed(requests, gaps, 42, full);
        let bytes = text.as_bytes();
        let id = format!("{encoding}_{:.0}MB", bytes.len() as f64 / 1e6);
        eprintln!(
            "{id}: {requests} requests × ~{gaps} chunk gaps = {} bytes",
            bytes.len()
        );
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("tpsview_summarize", &id),
            bytes,
            |b, bytes| {
                b.iter(|| {
                    let parsed = tpsview_core::parse_any("bench.json", black_box(bytes))
                        .expect("generated file parses");
                    black_box(tpsview_core::summarize(
                        vec![parsed],
                        &MetricOptions::default(),
                    ))
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("serde_json_value", &id),
            bytes,
            |b, bytes| {
                b.iter(|| {
                    black_box(
                        serde_json::from_slice::<serde_json::Value>(black_box(bytes))
                            .expect("valid JSON"),
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, ingest);
criterion_main!(benches);
