//! The `tpsview` command line: summarise, convert, validate, simulate and chart benchmark files,
//! on the same core the web app runs. Exit status: 0 ok, 1 bad input, 2 usage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tpsview_core::chart_spec;
use tpsview_core::formats::{self, Format, Parsed};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::summarize;

mod bench;
mod table;

#[derive(Parser)]
#[command(
    name = "tpsview",
    version,
    about = "What does this tokens-per-second number actually measure?"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Group files into runs, recompute every metric and print a table (or JSON).
    Summarize {
        /// Benchmark files (any format `tpsview formats` lists).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the JSON summary instead of a table.
        #[arg(long)]
        json: bool,
        /// Also compute system T/s inside the steady-state window.
        #[arg(long)]
        steady_state: bool,
        /// Read every file as this format instead of detecting it.
        #[arg(long, value_parser = format_id)]
        format: Option<Format>,
    },
    /// Convert files to one tpsview/1 report.
    Convert {
        /// Benchmark files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
        /// Read every file as this format instead of detecting it.
        #[arg(long, value_parser = format_id)]
        format: Option<Format>,
    },
    /// List every problem in the files, with file, field and request index.
    Validate {
        /// Benchmark files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Read every file as this format instead of detecting it.
        #[arg(long, value_parser = format_id)]
        format: Option<Format>,
    },
    /// Write the seed example: the brief's H100 / Llama 3.1 70B FP8 shape, simulated.
    Simulate {
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Compare runs with a baseline, level by level: ratio and % change of each figure. Each file
    /// is one run; the first is the baseline. Levels the baseline lacks are interpolated on a log₂
    /// concurrency axis (marked `~`).
    Compare {
        /// The baseline file.
        base: PathBuf,
        /// The files compared with it.
        #[arg(required = true)]
        others: Vec<PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Divide system-wide figures (system T/s, requests/s) by each run's GPU count.
        #[arg(long)]
        per_gpu: bool,
        /// GPU count for a run whose metadata has none: `LABEL=N` (repeatable).
        #[arg(long = "gpus", value_name = "LABEL=N")]
        gpus: Vec<String>,
        /// Read every file as this format instead of detecting it.
        #[arg(long, value_parser = format_id)]
        format: Option<Format>,
    },
    /// Measure an OpenAI-compatible streaming server at several concurrency levels and write
    /// tpsview/1 with every request's send time and chunk arrivals (docs/bench.md).
    Bench {
        /// Server base URL, e.g. http://127.0.0.1:8000.
        #[arg(long)]
        url: String,
        /// Model name sent with each request.
        #[arg(long)]
        model: String,
        /// Concurrency levels, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,2,4,8")]
        concurrency: Vec<u32>,
        /// Recorded requests per level (warm-up requests are extra).
        #[arg(long, default_value_t = 32)]
        requests_per_level: usize,
        /// max_tokens of each request.
        #[arg(long, default_value_t = 128)]
        max_tokens: u32,
        /// Approximate prompt length in tokens.
        #[arg(long, default_value_t = 128)]
        prompt_tokens: u32,
        /// Endpoint to call.
        #[arg(long, value_enum, default_value_t = bench::Endpoint::Chat)]
        endpoint: bench::Endpoint,
        /// Open-loop Poisson arrivals at this rate (requests/s), at most LEVEL in flight.
        #[arg(long)]
        rate: Option<f64>,
        /// Per-request timeout in seconds.
        #[arg(long, default_value_t = 120.0)]
        timeout: f64,
        /// Warm-up requests per level (default: one per client).
        #[arg(long)]
        warmup: Option<usize>,
        /// Send `ignore_eos: true` so every request runs to max_tokens (vLLM, SGLang, llama.cpp).
        #[arg(long)]
        ignore_eos: bool,
        /// Run label (default: the model name and the server's engine).
        #[arg(long)]
        label: Option<String>,
        /// Seed of the Poisson arrivals.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// A stand-in streaming server for tests and overhead measurements.
    #[command(hide = true)]
    StubServer {
        /// Port (0: any free one).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Milliseconds between chunks.
        #[arg(long, default_value_t = 10.0)]
        interval_ms: f64,
    },
    /// List the formats tpsview reads and each tool's figures mapped to tpsview's metrics.
    Formats {
        /// Print the mapping tables as Markdown (the text of docs/formats.md).
        #[arg(long)]
        markdown: bool,
    },
    /// Draw a chart as an SVG: throughput (default), latency or interactivity.
    Chart {
        /// Benchmark files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output SVG file.
        #[arg(short, long)]
        output: PathBuf,
        /// Which chart.
        #[arg(long, value_enum, default_value_t = ChartKind::Throughput)]
        kind: ChartKind,
        /// Concurrency on a linear axis instead of log2.
        #[arg(long)]
        linear: bool,
        /// Read every file as this format instead of detecting it.
        #[arg(long, value_parser = format_id)]
        format: Option<Format>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ChartKind {
    /// System and per-stream T/s against concurrency.
    Throughput,
    /// TPOT and TTFT (mean, p50–p99 band) against concurrency.
    Latency,
    /// System T/s against per-stream T/s, with the Pareto frontier.
    Interactivity,
}

fn format_id(s: &str) -> Result<Format, String> {
    Format::from_id(s).ok_or_else(|| {
        format!(
            "unknown format; one of: {}",
            Format::ALL
                .iter()
                .map(|f| f.id())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Reads and parses every file; errors are printed and counted, good files returned.
fn load(files: &[PathBuf], format: Option<Format>) -> (Vec<Parsed>, usize) {
    let mut parsed = Vec::new();
    let mut failed = 0;
    for path in files {
        let name = display_name(path);
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {name}: cannot read: {e}");
                failed += 1;
                continue;
            }
        };
        let result = match format {
            Some(f) => formats::parse(f, &name, &bytes),
            None => formats::parse_any(&name, &bytes),
        };
        match result {
            Ok(p) => parsed.push(p),
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    (parsed, failed)
}

fn display_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn status(failed: usize) -> ExitCode {
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Summarize {
            files,
            json,
            steady_state,
            format,
        } => {
            let (parsed, failed) = load(&files, format);
            if parsed.is_empty() {
                return Ok(ExitCode::from(1));
            }
            let summary = summarize(parsed, &MetricOptions { steady_state });
            if json {
                println!("{}", serde_json::to_string_pretty(&summary)?);
            } else {
                print!("{}", table::render(&summary));
                for d in summary
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == tpsview_core::error::Severity::Warning)
                {
                    eprintln!("{d}");
                }
            }
            Ok(status(failed))
        }
        Command::Convert {
            files,
            output,
            format,
        } => {
            let (parsed, failed) = load(&files, format);
            if failed > 0 || parsed.is_empty() {
                return Ok(ExitCode::from(1));
            }
            let (report, diags) = tpsview_core::group::group(parsed);
            for d in &diags {
                eprintln!("{d}");
            }
            std::fs::write(&output, formats::tpsview::write(&report))
                .with_context(|| format!("cannot write {}", output.display()))?;
            eprintln!(
                "wrote {} ({} runs, {} points)",
                output.display(),
                report.runs.len(),
                report.runs.iter().map(|r| r.points.len()).sum::<usize>()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files, format } => {
            let (parsed, mut failed) = load(&files, format);
            for p in &parsed {
                let summary = summarize(vec![p.clone()], &MetricOptions::default());
                let warnings: Vec<_> = summary
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == tpsview_core::error::Severity::Warning)
                    .collect();
                for d in &warnings {
                    println!("{d}");
                }
                if warnings.is_empty() {
                    println!("{}: ok ({})", p.file, p.format.name());
                } else {
                    failed += 1;
                }
            }
            Ok(status(failed))
        }
        Command::Compare {
            base,
            mut others,
            json,
            per_gpu,
            gpus,
            format,
        } => {
            others.insert(0, base);
            let (mut parsed, failed) = load(&others, format);
            if failed > 0 || parsed.len() < 2 {
                return Ok(ExitCode::from(1));
            }
            tpsview_core::compare::one_run_per_file(&mut parsed);
            let mut gpu_counts = Vec::new();
            for g in &gpus {
                let (label, n) = g
                    .rsplit_once('=')
                    .and_then(|(l, n)| Some((l.to_owned(), n.trim().parse::<u32>().ok()?)))
                    .with_context(|| format!("--gpus {g:?}: expected LABEL=N"))?;
                gpu_counts.push((label, n));
            }
            let summary = summarize(parsed, &MetricOptions::default());
            let opts = tpsview_core::compare::CompareOptions {
                per_gpu,
                gpu_counts,
            };
            let c = tpsview_core::compare::compare(&summary, 0, &opts)
                .context("no run to use as the baseline")?;
            if json {
                println!("{}", serde_json::to_string_pretty(&c)?);
            } else {
                print!("{}", table::render_comparison(&c));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::StubServer { port, interval_ms } => {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            rt.block_on(bench::stub::serve(
                port,
                std::time::Duration::from_secs_f64(interval_ms.max(0.001) / 1e3),
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            url,
            model,
            concurrency,
            requests_per_level,
            max_tokens,
            prompt_tokens,
            endpoint,
            rate,
            timeout,
            warmup,
            ignore_eos,
            label,
            seed,
            output,
        } => {
            let cfg = bench::Config {
                url,
                model,
                levels: concurrency,
                requests_per_level,
                max_tokens,
                prompt_tokens,
                endpoint,
                rate,
                timeout: std::time::Duration::from_secs_f64(timeout.max(0.001)),
                warmup,
                seed,
                ignore_eos,
            };
            anyhow::ensure!(
                !cfg.levels.is_empty() && cfg.levels.iter().all(|l| *l > 0),
                "--concurrency needs positive levels"
            );
            anyhow::ensure!(
                rate.is_none_or(|r| r > 0.0 && r.is_finite()),
                "--rate must be a positive number of requests per second"
            );
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            rt.block_on(run_bench(cfg, label, output))
        }
        Command::Formats { markdown } => {
            if markdown {
                print!("{}", formats::vocabularies_markdown());
            } else {
                for f in Format::ALL {
                    println!("{:<24} {}", f.id(), f.name());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { output } => {
            let report = tpsview_core::simulate::seed_report();
            std::fs::write(&output, formats::tpsview::write(&report))
                .with_context(|| format!("cannot write {}", output.display()))?;
            eprintln!("wrote {}", output.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Chart {
            files,
            output,
            kind,
            linear,
            format,
        } => {
            let (parsed, failed) = load(&files, format);
            if parsed.is_empty() {
                return Ok(ExitCode::from(1));
            }
            let summary = summarize(parsed, &MetricOptions::default());
            let opts = chart_spec::ChartOptions {
                linear_x: linear,
                ..Default::default()
            };
            let spec = match kind {
                ChartKind::Throughput => chart_spec::throughput(&summary, &opts),
                ChartKind::Latency => chart_spec::latency(&summary, &opts),
                ChartKind::Interactivity => chart_spec::interactivity(&summary, &opts),
            };
            let svg = tpsview_plot::chart_svg(&spec, (900, 600))
                .map_err(|e| anyhow::anyhow!("cannot draw: {e}"))?;
            std::fs::write(&output, svg)
                .with_context(|| format!("cannot write {}", output.display()))?;
            Ok(status(failed))
        }
    }
}

/// `tpsview bench`: every level in turn, a progress bar each, then the report and its summary.
async fn run_bench(
    cfg: bench::Config,
    label: Option<String>,
    output: PathBuf,
) -> anyhow::Result<ExitCode> {
    use std::sync::atomic::Ordering;
    let interrupt = bench::Interrupt::install();
    let client = reqwest::Client::builder()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(4096)
        .build()?;
    let (models, engine) = bench::server_models(&client, &cfg).await;
    let bars = indicatif::MultiProgress::new();
    let style = indicatif::ProgressStyle::with_template(
        "{prefix:>16} [{bar:30}] {pos}/{len} requests  {msg}",
    )?
    .progress_chars("=> ");
    let run_start = std::time::Instant::now();
    let mut levels: Vec<(u32, Vec<bench::Record>)> = Vec::new();
    for &level in &cfg.levels {
        if interrupt.stop.load(Ordering::Relaxed) {
            break;
        }
        let bar = bars.add(indicatif::ProgressBar::new(cfg.requests_per_level as u64));
        bar.set_style(style.clone());
        bar.set_prefix(format!("concurrency {level}"));
        let progress = std::sync::Arc::new(bench::Progress::default());
        let (p, b) = (progress.clone(), bar.clone());
        let started = std::time::Instant::now();
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                let done = p.done.load(Ordering::Relaxed) as u64;
                let chunks = p.chunks.load(Ordering::Relaxed) as f64;
                b.set_position(done);
                b.set_message(format!(
                    "{:.0} tokens/s so far",
                    chunks / started.elapsed().as_secs_f64().max(1e-3)
                ));
            }
        });
        let recs =
            bench::run_level(&client, &cfg, level, run_start, &interrupt.stop, &progress).await;
        ticker.abort();
        let failed = recs.iter().filter(|r| r.error.is_some()).count();
        bar.set_position(recs.len() as u64);
        bar.finish_with_message(format!("{} ok, {failed} failed", recs.len() - failed));
        if bars.is_hidden() {
            eprintln!(
                "concurrency {level}: {} requests, {failed} failed",
                recs.len()
            );
        }
        if let Some(e) = recs.iter().find_map(|r| r.error.as_deref()) {
            if failed == recs.len() {
                eprintln!("concurrency {level}: every request failed, e.g. {e}");
            }
        }
        levels.push((level, recs));
    }
    let interrupted = interrupt.stop.load(Ordering::Relaxed);
    let (events, client_ns) = levels
        .iter()
        .flat_map(|(_, r)| r.iter())
        .fold((0u64, 0u64), |a, r| (a.0 + r.events, a.1 + r.client_ns));
    let mut labels = std::collections::BTreeMap::new();
    labels.insert(
        "command".to_owned(),
        std::env::args().collect::<Vec<_>>().join(" "),
    );
    labels.insert(
        "endpoint".to_owned(),
        format!("{:?}", cfg.endpoint).to_lowercase(),
    );
    labels.insert("max_tokens".to_owned(), cfg.max_tokens.to_string());
    labels.insert("prompt_words".to_owned(), cfg.prompt_tokens.to_string());
    labels.insert(
        "client".to_owned(),
        format!("tpsview bench {}", env!("CARGO_PKG_VERSION")),
    );
    if let Some(h) = bench::host_name() {
        labels.insert("client_host".to_owned(), h);
    }
    if let Some(m) = &models {
        labels.insert("server_models".to_owned(), m.clone());
    }
    if events > 0 {
        labels.insert(
            "client_us_per_event".to_owned(),
            format!("{:.2}", client_ns as f64 / events as f64 / 1e3),
        );
    }
    // Finish reasons per level (`length` when max_tokens ended the request, `stop` for EOS…).
    let reasons: Vec<String> = levels
        .iter()
        .map(|(level, recs)| {
            let mut counts = std::collections::BTreeMap::<&str, usize>::new();
            for r in recs.iter().filter(|r| r.error.is_none()) {
                *counts
                    .entry(r.finish_reason.as_deref().unwrap_or("none"))
                    .or_default() += 1;
            }
            let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
            format!("concurrency {level}: {}", parts.join(", "))
        })
        .collect();
    labels.insert("finish_reasons".to_owned(), reasons.join("; "));
    if interrupted {
        labels.insert(
            "interrupted".to_owned(),
            "true: Ctrl-C; unfinished requests are not recorded".to_owned(),
        );
    }
    let meta = tpsview_core::model::Metadata {
        engine: engine.clone(),
        model: Some(cfg.model.clone()),
        date: Some(bench::now_rfc3339()),
        labels,
        ..Default::default()
    };
    let label = label.unwrap_or_else(|| match &engine {
        Some(e) => format!("{} · {e}", cfg.model),
        None => cfg.model.clone(),
    });
    let (mut report, chunk_counted) = bench::report(&cfg, &levels, meta, label);
    if chunk_counted > 0 {
        report.runs[0].meta.labels.insert(
            "token_counts".to_owned(),
            format!("{chunk_counted} requests carried no usage: their output tokens are their content chunks"),
        );
        eprintln!("note: {chunk_counted} responses carried no usage count: their output tokens are their content chunks");
    }
    std::fs::write(&output, formats::tpsview::write(&report))
        .with_context(|| format!("cannot write {}", output.display()))?;
    let (runs, diagnostics) =
        tpsview_core::summary::summarize_report(&report, &MetricOptions::default());
    let summary = tpsview_core::summary::Summary { runs, diagnostics };
    print!("{}", table::render(&summary));
    if events > 0 {
        eprintln!(
            "client overhead: {:.1} µs per streamed event read (parse and bookkeeping)",
            client_ns as f64 / events as f64 / 1e3
        );
    }
    eprintln!(
        "wrote {} ({} levels{})",
        output.display(),
        levels.len(),
        if interrupted {
            ", interrupted by Ctrl-C"
        } else {
            ""
        }
    );
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}
