//! Times each stage of ingesting a generated vLLM detailed file, to see where the time goes.
//! `cargo run --release -p tpsview-core --example profile_ingest [requests] [gaps]`
//! With `TPSVIEW_WRITE=PATH` it only writes the generated file there (scripts/ingest-vs-python.sh).
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (n, g) = (
        args.first().copied().unwrap_or(10_000),
        args.get(1).copied().unwrap_or(1_000),
    );
    let full = std::env::var("TPSVIEW_BENCH_FULL_REPR").is_ok_and(|v| v == "1");
    let text = tpsview_core::synthetic::vllm_detailed(n, g, 42, full);
    if let Ok(path) = std::env::var("TPSVIEW_WRITE") {
        std::fs::write(&path, &text).expect("writes the file");
        println!("wrote {path} ({:.1} MB)", text.len() as f64 / 1e6);
        return;
    }
    let mb = text.len() as f64 / 1e6;
    // TPSVIEW_PROFILE_REPEAT=n re-runs the ingest n times first (for perf record).
    for _ in 0..std::env::var("TPSVIEW_PROFILE_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
    {
        let p = tpsview_core::parse_any("p.json", text.as_bytes()).expect("parses");
        std::hint::black_box(tpsview_core::summarize(vec![p], &Default::default()));
    }
    let t = Instant::now();
    let parsed = tpsview_core::parse_any("p.json", text.as_bytes()).expect("parses");
    let parse = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let s = tpsview_core::summarize(vec![parsed], &Default::default());
    let metrics = t.elapsed().as_secs_f64();
    // What the browser's loading worker does after the read: fold the gaps, fold each point's
    // per-request distributions, cut the parsed file into pieces for the page.
    let mut worker = tpsview_core::parse_any("p.json", text.as_bytes()).expect("parses");
    let t = Instant::now();
    tpsview_core::metrics::fold_gaps(&mut worker.report);
    let fold_gaps = t.elapsed().as_secs_f64();
    let t = Instant::now();
    tpsview_core::metrics::fold_requests(&mut worker.report);
    let fold_requests = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let pieces = tpsview_core::transfer::split(worker);
    let split = t.elapsed().as_secs_f64();
    println!(
        "worker after the read: fold_gaps {fold_gaps:.3} s, fold_requests {fold_requests:.3} s, split {split:.3} s ({} pieces)",
        1 + pieces.columns.len()
    );
    let t = Instant::now();
    let v: serde_json::Value = serde_json::from_slice(text.as_bytes()).expect("valid");
    let value = t.elapsed().as_secs_f64();
    println!("{mb:.1} MB: parse {parse:.3} s, metrics {metrics:.3} s, total {:.0} MB/s; serde_json::Value {:.0} MB/s ({} runs, {})", mb / (parse + metrics), mb / value, s.runs.len(), v.is_object());
}
