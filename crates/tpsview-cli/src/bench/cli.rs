//! The `tpsview bench` command: its arguments, the levels run in turn with a progress bar each,
//! then the report written and summarised; and the hidden stub server's arguments.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::formats;
use tpsview_core::metrics::MetricOptions;

use crate::table;

/// Arguments of `tpsview bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Server base URL, e.g. http://127.0.0.1:8000.
    #[arg(long)]
    pub url: String,
    /// Model name sent with each request.
    #[arg(long)]
    pub model: String,
    /// Concurrency levels, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8")]
    pub concurrency: Vec<u32>,
    /// Recorded requests per level (warm-up requests are extra).
    #[arg(long, default_value_t = 32)]
    pub requests_per_level: usize,
    /// max_tokens of each request.
    #[arg(long, default_value_t = 128)]
    pub max_tokens: u32,
    /// Approximate prompt length in tokens.
    #[arg(long, default_value_t = 128)]
    pub prompt_tokens: u32,
    /// Endpoint to call.
    #[arg(long, value_enum, default_value_t = super::Endpoint::Chat)]
    pub endpoint: super::Endpoint,
    /// Open-loop Poisson arrivals at this rate (requests/s), at most LEVEL in flight.
    #[arg(long)]
    pub rate: Option<f64>,
    /// Per-request timeout in seconds.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
    /// Warm-up requests per level (default: one per client).
    #[arg(long)]
    pub warmup: Option<usize>,
    /// Send `ignore_eos: true` so every request runs to max_tokens (vLLM, SGLang, llama.cpp).
    #[arg(long)]
    pub ignore_eos: bool,
    /// Multi-turn sessions per level instead of independent requests: `--concurrency C` keeps C
    /// sessions in flight; each turn sends the conversation so far (a shared system prefix, the
    /// earlier turns and their answers) plus a new user message of --prompt-tokens words. Each
    /// level records sessions × turns requests (--requests-per-level is not used).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub sessions: Option<u32>,
    /// Turns per session (with --sessions).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1000), requires = "sessions")]
    pub turns: u32,
    /// Words of the system prefix every session shares (with --sessions), so that a server's
    /// prefix cache can serve it.
    #[arg(long, default_value_t = 0, requires = "sessions")]
    pub shared_prefix_tokens: u32,
    /// Run label (default: the model name and the server's engine).
    #[arg(long)]
    pub label: Option<String>,
    /// Seed of the Poisson arrivals.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Poll the server's own Prometheus metrics through each level (running and waiting
    /// requests, KV-cache usage, its token counters): at URL, or the server's `/metrics` when no
    /// URL is given.
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = "")]
    pub server_metrics: Option<String>,
    /// Milliseconds between two polls of the server's metrics (50 to 5000).
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(50..=5000))]
    pub server_metrics_interval_ms: u64,
    /// Run the whole sweep this many times, each a run of its own labelled `repeat=K`: the
    /// repeats give system T/s and requests/s an interval (`summarize --intervals`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
    /// Output file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Arguments of the hidden `tpsview stub-server`.
#[derive(clap::Args, Debug)]
pub struct StubArgs {
    /// Port (0: any free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Milliseconds between chunks.
    #[arg(long, default_value_t = 10.0)]
    pub interval_ms: f64,
}

/// Runs `tpsview stub-server`.
pub fn run_stub(args: StubArgs) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(super::stub::serve(
        args.port,
        std::time::Duration::from_secs_f64(args.interval_ms.max(0.001) / 1e3),
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `tpsview bench`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cfg = super::Config {
        url: args.url,
        model: args.model,
        levels: args.concurrency,
        requests_per_level: args.requests_per_level,
        max_tokens: args.max_tokens,
        prompt_tokens: args.prompt_tokens,
        endpoint: args.endpoint,
        rate: args.rate,
        timeout: std::time::Duration::from_secs_f64(args.timeout.max(0.001)),
        warmup: args.warmup,
        seed: args.seed,
        ignore_eos: args.ignore_eos,
        sessions: args.sessions.map(|n| super::sessions::Plan {
            count: n as usize,
            turns: args.turns,
            shared_prefix_tokens: args.shared_prefix_tokens,
        }),
    };
    anyhow::ensure!(
        cfg.sessions.is_none() || args.rate.is_none(),
        "--sessions runs closed-loop sessions: it takes no --rate"
    );
    anyhow::ensure!(
        !cfg.levels.is_empty() && cfg.levels.iter().all(|l| *l > 0),
        "--concurrency needs positive levels"
    );
    anyhow::ensure!(
        args.rate.is_none_or(|r| r > 0.0 && r.is_finite()),
        "--rate must be a positive number of requests per second"
    );
    let metrics = args.server_metrics.map(|u| {
        let url = if u.is_empty() {
            format!("{}/metrics", cfg.base())
        } else {
            u
        };
        (
            url,
            std::time::Duration::from_millis(args.server_metrics_interval_ms),
        )
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run_bench(
        cfg,
        args.label,
        args.output,
        metrics,
        args.repeat,
    ))
}

/// `tpsview bench`: every level in turn, a progress bar each, then the report and its summary.
async fn run_bench(
    cfg: super::Config,
    label: Option<String>,
    output: PathBuf,
    metrics: Option<(String, std::time::Duration)>,
    repeats: u32,
) -> anyhow::Result<ExitCode> {
    use std::sync::atomic::Ordering;
    let interrupt = super::Interrupt::install();
    let client = reqwest::Client::builder()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(4096)
        .build()?;
    let (models, engine) = super::server_models(&client, &cfg).await;
    let bars = indicatif::MultiProgress::new();
    let style = indicatif::ProgressStyle::with_template(
        "{prefix:>16} [{bar:30}] {pos}/{len} requests  {msg}",
    )?
    .progress_chars("=> ");
    // Each repeat: its levels' records, the server's series, when it ended.
    let mut sweeps: Vec<Sweep> = Vec::new();
    for repeat in 1..=repeats {
        if interrupt.stop.load(Ordering::Relaxed) {
            break;
        }
        let run_start = std::time::Instant::now();
        let mut levels: Vec<(u32, Vec<super::Record>)> = Vec::new();
        let mut servers: Vec<Option<tpsview_core::server::ServerSeries>> = Vec::new();
        for &level in &cfg.levels {
            if interrupt.stop.load(Ordering::Relaxed) {
                break;
            }
            let bar = bars.add(indicatif::ProgressBar::new(cfg.recorded_per_level() as u64));
            bar.set_style(style.clone());
            bar.set_prefix(if repeats > 1 {
                format!("{repeat}/{repeats} concurrency {level}")
            } else {
                format!("concurrency {level}")
            });
            let progress = std::sync::Arc::new(super::Progress::default());
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
            // The server's metrics polled alongside, until the level's last request is done; once
            // between the warm-up and the recorded requests (`metrics::poll`).
            let (warmed, resume) = (tokio::sync::Notify::new(), tokio::sync::Notify::new());
            let between = metrics.as_ref().map(|_| (&warmed, &resume));
            let run = super::run_level(
                &client,
                &cfg,
                level,
                run_start,
                &interrupt.stop,
                &progress,
                between,
            );
            let (recs, server) = match &metrics {
                Some((url, every)) => {
                    let done = std::sync::atomic::AtomicBool::new(false);
                    let (recs, (series, failed)) = tokio::join!(
                        async {
                            let r = run.await;
                            done.store(true, Ordering::Relaxed);
                            r
                        },
                        super::metrics::poll(
                            &client,
                            url,
                            *every,
                            run_start,
                            &done,
                            (&warmed, &resume)
                        )
                    );
                    if let Some((n, why)) = failed {
                        eprintln!(
                        "concurrency {level}: {n} of {} polls of the server's metrics failed, the last: {why}",
                        n + series.t_s.len()
                    );
                    }
                    (recs, (!series.t_s.is_empty()).then_some(series))
                }
                None => (run.await, None),
            };
            ticker.abort();
            let failed = recs.iter().filter(|r| r.error.is_some()).count();
            bar.set_position(recs.len() as u64);
            bar.finish_with_message(format!("{} ok, {failed} failed", recs.len() - failed));
            if bars.is_hidden() {
                eprintln!("{}: {} requests, {failed} failed", bar.prefix(), recs.len());
            }
            if let Some(e) = recs.iter().find_map(|r| r.error.as_deref()) {
                if failed == recs.len() {
                    eprintln!("concurrency {level}: every request failed, e.g. {e}");
                }
            }
            levels.push((level, recs));
            servers.push(server);
        }
        sweeps.push(Sweep {
            levels,
            servers,
            ended: super::now_rfc3339(),
        });
    }
    let interrupted = interrupt.stop.load(Ordering::Relaxed);
    let (events, client_ns) = sweeps
        .iter()
        .flat_map(|s| s.levels.iter())
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
    if let Some(h) = super::host_name() {
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
    if repeats > 1 {
        labels.insert("repeats".to_owned(), repeats.to_string());
    }
    let base = tpsview_core::model::Metadata {
        engine: engine.clone(),
        model: Some(cfg.model.clone()),
        labels,
        ..Default::default()
    };
    let label = label.unwrap_or_else(|| match &engine {
        Some(e) => format!("{} · {e}", cfg.model),
        None => cfg.model.clone(),
    });
    let mut report = tpsview_core::model::Report::default();
    let (mut chunk_counted, mut invalid) = (0, Vec::new());
    for (k, sweep) in sweeps.into_iter().enumerate() {
        let mut meta = base.clone();
        meta.date = Some(sweep.ended);
        // The setup's name, and which repeat of it this sweep is.
        let name = tpsview_core::model::RunName::setup(label.clone());
        let label = if repeats > 1 {
            name.with_repeat(tpsview_core::model::RepeatKey::Repeat, k as u64 + 1)
        } else {
            name
        };
        let (r, counted, bad) =
            run_report(&cfg, &sweep.levels, sweep.servers, meta, label, interrupted);
        if report.runs.is_empty() {
            report.meta = r.meta;
        }
        report.runs.extend(r.runs);
        chunk_counted += counted;
        invalid.extend(bad);
    }
    // Requests that completed but break a rule of docs/metrics.md (validated like any file's).
    for d in &invalid {
        eprintln!("{d}");
    }
    if chunk_counted > 0 {
        eprintln!("note: {chunk_counted} responses carried no usage count: their output tokens are their content chunks");
    }
    std::fs::write(&output, formats::tpsview::write(&report))
        .with_context(|| format!("cannot write {}", output.display()))?;
    let (runs, diagnostics) =
        tpsview_core::summary::summarize_report(&report, &MetricOptions::default());
    let mut summary = tpsview_core::summary::Summary { runs, diagnostics };
    print!("{}", table::render(&summary));
    if repeats > 1 {
        tpsview_core::noise::apply_repeats(&mut summary.runs);
        print!("{}", repeats_text(&summary));
    }
    if events > 0 {
        eprintln!(
            "client overhead: {:.1} µs per streamed event read (parse and bookkeeping)",
            client_ns as f64 / events as f64 / 1e3
        );
    }
    let levels: usize = report.runs.iter().map(|r| r.points.len()).sum();
    eprintln!(
        "wrote {} ({levels} levels{}{})",
        output.display(),
        if report.runs.len() > 1 {
            format!(" in {} runs", report.runs.len())
        } else {
            String::new()
        },
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

/// One repeat of the sweep.
struct Sweep {
    levels: Vec<(u32, Vec<super::Record>)>,
    servers: Vec<Option<tpsview_core::server::ServerSeries>>,
    ended: String,
}

/// One repeat's run: its finish reasons, its server series and its token counting in the
/// metadata; (the report of one run, requests counted by chunks, invalid requests).
fn run_report(
    cfg: &super::Config,
    levels: &[(u32, Vec<super::Record>)],
    servers: Vec<Option<tpsview_core::server::ServerSeries>>,
    mut meta: tpsview_core::model::Metadata,
    label: tpsview_core::model::RunName,
    interrupted: bool,
) -> (
    tpsview_core::model::Report,
    usize,
    Vec<tpsview_core::error::Diagnostic>,
) {
    let labels = &mut meta.labels;
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
    let (mut report, chunk_counted, invalid) = super::report(cfg, levels, meta, label);
    for (point, server) in report.runs[0].points.iter_mut().zip(servers) {
        point.server = server;
    }
    if chunk_counted > 0 {
        report.runs[0].meta.labels.insert(
            "token_counts".to_owned(),
            format!("{chunk_counted} requests carried no usage: their output tokens are their content chunks"),
        );
    }
    (report, chunk_counted, invalid)
}

/// The repeats' lines under the table: each level's system T/s and requests/s over the repeats.
fn repeats_text(summary: &tpsview_core::summary::Summary) -> String {
    let mut out = format!(
        "\nOver the repeats ({:.0} % Student-t interval of the mean)\n",
        tpsview_core::noise::CONFIDENCE * 100.0
    );
    for p in summary.runs.iter().take(1).flat_map(|r| &r.points) {
        if let Some(rl) = &p.repeats {
            let conc = p.metrics.concurrency.map_or("–".into(), |c| format!("{c}"));
            out.push_str(&table::repeat_lines(&conc, rl));
        }
    }
    out
}
