//! `tpsview chart`: the viewer's charts drawn as SVG.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::chart_spec;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::summarize;

use crate::inputs::Inputs;

/// Arguments of `tpsview chart`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Output SVG file.
    #[arg(short, long)]
    output: PathBuf,
    /// Which chart.
    #[arg(long, value_enum, default_value_t = Kind::Throughput)]
    kind: Kind,
    /// Concurrency on a linear axis instead of log2.
    #[arg(long)]
    linear: bool,
}

/// The charts the CLI draws.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Kind {
    /// System and per-stream T/s against concurrency.
    Throughput,
    /// TPOT and TTFT (mean, p50–p99 band) against concurrency.
    Latency,
    /// System T/s against per-stream T/s, with the Pareto frontier.
    Interactivity,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let loaded = args.inputs.load();
    if loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let status = loaded.status();
    let summary = summarize(loaded.parsed, &MetricOptions::default());
    let opts = chart_spec::ChartOptions {
        linear_x: args.linear,
        ..Default::default()
    };
    let spec = match args.kind {
        Kind::Throughput => chart_spec::throughput(&summary, &opts),
        Kind::Latency => chart_spec::latency(&summary, &opts),
        Kind::Interactivity => chart_spec::interactivity(&summary, &opts),
    };
    let svg = tpsview_plot::chart_svg(&spec, (900, 600))
        .map_err(|e| anyhow::anyhow!("cannot draw: {e}"))?;
    std::fs::write(&args.output, svg)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(status)
}
