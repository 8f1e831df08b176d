//! `tpsview simulate`: writes the seed example (docs/simulate.md), byte-identical every time.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::formats;

/// Arguments of `tpsview simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = tpsview_core::simulate::seed_report();
    std::fs::write(&args.output, formats::tpsview::write(&report))
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
}
