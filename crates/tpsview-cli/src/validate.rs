//! `tpsview validate`: every problem in each file, with file, field and request index; exit 1 when
//! any file has one.

use std::process::ExitCode;

use tpsview_core::error::Severity;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::summarize;

use crate::inputs::{status, Inputs};

/// Arguments of `tpsview validate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let loaded = args.inputs.load();
    let mut failed = loaded.failed;
    for p in &loaded.parsed {
        let summary = summarize(vec![p.clone()], &MetricOptions::default());
        let warnings: Vec<_> = summary
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
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
