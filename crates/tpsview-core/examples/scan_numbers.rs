//! How fast the byte scanner reads the chunk-gap rows of a generated vLLM detailed file (one
//! core, memory already written): ns per value, best of 7.
//! `cargo run --release -p tpsview-core --example scan_numbers [requests] [gaps] [full]`
//! (`full`: 17-digit numbers, as Python's repr writes them, instead of vLLM's usual short ones.)
use std::time::Instant;

use tpsview_core::scan::Scanner;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let g = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let full = args.iter().any(|a| a == "full");
    let text = tpsview_core::synthetic::vllm_detailed(n, g, 42, full);
    let at = text.find("\"itls\": [").expect("a detailed file") + "\"itls\": [".len();
    let rows = &text.as_bytes()[at..];
    let mut values: Vec<f64> = Vec::with_capacity(n * g + n);
    let mut best = f64::MAX;
    for _ in 0..7 {
        values.clear();
        let t = Instant::now();
        let mut s = Scanner::new(rows);
        while s.f64_array(&mut values).is_some() && s.eat(b',') {}
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} values: best {:.1} ms, {:.2} ns per value, {:.0} MB/s",
        values.len(),
        best * 1e3,
        best * 1e9 / values.len() as f64,
        rows.len() as f64 / best / 1e6
    );
}
