//! `tpsview summarize`: files grouped into runs, every metric recomputed, printed as a table with
//! the gap explanation, or as the `--json` contract of docs/cli.md.

use std::process::ExitCode;

use tpsview_core::error::Severity;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::summarize;

use crate::inputs::Inputs;
use crate::table;

/// Arguments of `tpsview summarize`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Print the JSON summary instead of a table.
    #[arg(long)]
    json: bool,
    /// Also compute system T/s inside the steady-state window.
    #[arg(long)]
    steady_state: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let loaded = args.inputs.load();
    if loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let status = loaded.status();
    let summary = summarize(
        loaded.parsed,
        &MetricOptions {
            steady_state: args.steady_state,
        },
    );
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", table::render(&summary));
        for d in summary
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
        {
            eprintln!("{d}");
        }
    }
    Ok(status)
}
