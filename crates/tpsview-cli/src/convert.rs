//! `tpsview convert`: files grouped into runs and written as one `tpsview/1` report, each tool's
//! own figures kept.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::formats;

use crate::inputs::Inputs;

/// Arguments of `tpsview convert`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let loaded = args.inputs.load();
    if loaded.failed > 0 || loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let (report, diags) = tpsview_core::group::group(loaded.parsed);
    for d in &diags {
        eprintln!("{d}");
    }
    let output = &args.output;
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
