//! Synthetic benchmark files of a chosen size, for benchmarks and scale tests: a vLLM
//! `--save-detailed` result with `requests` requests of about `gaps` chunk gaps each, laid out the
//! way vLLM writes it (one line). Times are written either rounded to microseconds (~10 bytes a
//! gap, the issue's "100 MB for 10,000 × 1,000") or in full Python float repr (~20 bytes a gap, as
//! `perf_counter` differences really come out). Deterministic for a given seed.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt::Write;

/// Writes a vLLM detailed result: ~`requests` × `gaps` × 10 bytes (21 with `full_repr`).
pub fn vllm_detailed(requests: usize, gaps: usize, seed: u64, full_repr: bool) -> String {
    let round = |x: f64| {
        if full_repr {
            x
        } else {
            (x * 1e6).round() / 1e6
        }
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out_lens = Vec::with_capacity(requests);
    let mut ttfts = Vec::with_capacity(requests);
    let mut itls: Vec<Vec<f64>> = Vec::with_capacity(requests);
    let mut starts = Vec::with_capacity(requests);
    let mut t = 0.0;
    for _ in 0..requests {
        let n = gaps + rng.random_range(0..=gaps / 10);
        out_lens.push(n + 1);
        ttfts.push(round(0.05 + rng.random::<f64>() * 0.2));
        itls.push(
            (0..n)
                .map(|_| round(0.018 + rng.random::<f64>() * 0.01))
                .collect(),
        );
        starts.push(round(t));
        t += rng.random::<f64>() * 0.05;
    }
    let latencies: Vec<f64> = (0..requests)
        .map(|i| round(ttfts[i] + itls[i].iter().sum::<f64>()))
        .collect();
    let mut s = String::with_capacity(requests * gaps * 22 + 4096);
    s.push_str(r#"{"date": "20261130-120000", "endpoint_type": "vllm", "backend": "vllm", "label": null, "model_id": "synthetic/model", "tokenizer_id": "synthetic/model", "num_prompts": "#);
    let _ = write!(
        s,
        r#"{requests}, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 64, "duration": {:.6}, "completed": {requests}, "failed": 0"#,
        t + 30.0
    );
    let list = |s: &mut String, name: &str, v: &mut dyn Iterator<Item = String>| {
        let _ = write!(s, r#", "{name}": ["#);
        let mut first = true;
        for x in v {
            if !first {
                s.push_str(", ");
            }
            first = false;
            s.push_str(&x);
        }
        s.push(']');
    };
    list(
        &mut s,
        "input_lens",
        &mut (0..requests).map(|_| "512".to_owned()),
    );
    list(
        &mut s,
        "output_lens",
        &mut out_lens.iter().map(|n| n.to_string()),
    );
    list(&mut s, "ttfts", &mut ttfts.iter().map(|x| format!("{x:?}")));
    list(
        &mut s,
        "start_times",
        &mut starts.iter().map(|x| format!("{x:?}")),
    );
    list(
        &mut s,
        "latencies",
        &mut latencies.iter().map(|x| format!("{x:?}")),
    );
    s.push_str(r#", "itls": ["#);
    for (i, row) in itls.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push('[');
        for (j, x) in row.iter().enumerate() {
            if j > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{x:?}");
        }
        s.push(']');
    }
    s.push(']');
    list(
        &mut s,
        "generated_texts",
        &mut (0..requests).map(|i| format!("\"synthetic text {i}\"")),
    );
    list(
        &mut s,
        "errors",
        &mut (0..requests).map(|_| "\"\"".to_owned()),
    );
    s.push_str(r#", "mean_ttft_ms": 150.0, "median_ttft_ms": 150.0, "p99_ttft_ms": 248.0, "mean_tpot_ms": 23.0, "median_tpot_ms": 23.0, "p99_tpot_ms": 23.5}"#);
    s
}
