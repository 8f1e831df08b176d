//! `tpsview convert`: files grouped into runs and written as one `tpsview/1` report, each tool's
//! own figures kept; or, `--to parquet`, as two Parquet tables (a row per level, a row per
//! request) for DuckDB, Polars or Spark.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::formats;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::{summarize_report, Summary};

use crate::inputs::Inputs;

/// Arguments of `tpsview convert`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Output: a file for `--to tpsview`, a directory for `--to parquet` (created if missing;
    /// `points.parquet` and `requests.parquet` are written into it).
    #[arg(short, long)]
    output: PathBuf,
    /// What to write: one `tpsview/1` report, or Parquet tables.
    #[arg(long, value_enum, default_value_t = To::Tpsview)]
    to: To,
    /// With `--to parquet`: SLO and cost columns, as `summarize` computes them.
    #[command(flatten)]
    capacity: crate::capacity::Capacity,
}

/// Output formats of `tpsview convert`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum To {
    /// One `tpsview/1` report (raw data and each tool's figures).
    Tpsview,
    /// `points.parquet` (a row per run and level, every figure of `summarize --json`) and
    /// `requests.parquet` (a row per request).
    Parquet,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let slo = match args.capacity.check() {
        Ok(slo) => slo,
        Err(code) => return Ok(code),
    };
    let c = &args.capacity;
    if args.to == To::Tpsview && (c.slo.is_some() || c.gpu_hour_usd.is_some() || c.gpus.is_some()) {
        eprintln!("error: --slo, --gpu-hour-usd and --gpus add columns to --to parquet; a tpsview/1 report keeps the raw data, and the viewer applies an SLO and a price to it");
        return Ok(ExitCode::from(2));
    }
    let loaded = args.inputs.load();
    if loaded.failed > 0 || loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let (report, diags) = tpsview_core::group::group(loaded.parsed);
    for d in &diags {
        eprintln!("{d}");
    }
    let output = &args.output;
    if args.to == To::Parquet {
        let (runs, d) = summarize_report(&report, &MetricOptions::default());
        let mut summary = Summary {
            runs,
            diagnostics: d,
        };
        let slo_text = match args.capacity.apply(&report, &mut summary, slo.as_ref()) {
            Ok(t) => t,
            Err(code) => return Ok(code),
        };
        let (points, requests) = crate::parquet_out::write(
            output,
            &report,
            &summary,
            slo_text.is_some(),
            c.gpu_hour_usd.is_some(),
        )?;
        eprintln!(
            "wrote {0}/points.parquet ({points} rows: runs × levels) and {0}/requests.parquet ({requests} rows)",
            output.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(output, formats::tpsview::write(&report))
        .with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!(
        "wrote {} ({} runs, {} points)",
        output.display(),
        report.runs.len(),
        report.runs.iter().map(|r| r.points.len()).sum::<usize>()
    );
    Ok(ExitCode::SUCCESS)
}
