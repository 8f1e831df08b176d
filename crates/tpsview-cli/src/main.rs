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
