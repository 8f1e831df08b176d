//! `tpsview compare`: runs against a baseline, level by level. Files are grouped into runs exactly
//! as `summarize` and the viewer group them (a sweep written one file per level is one run); the
//! first run is the baseline unless `--baseline` names another.

use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::compare::{compare, CompareOptions};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::summarize;

use crate::inputs::Inputs;
use crate::table;

/// Arguments of `tpsview compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The run to compare the others with, by label (default: the first run).
    #[arg(long, value_name = "LABEL")]
    baseline: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Divide system-wide figures (system T/s, requests/s) by each run's GPU count.
    #[arg(long)]
    per_gpu: bool,
    /// GPU count for a run whose metadata has none: `LABEL=N` (repeatable).
    #[arg(long = "gpus", value_name = "LABEL=N")]
    gpus: Vec<String>,
}

/// A usage error: exit status 2, like clap's own.
fn usage(message: String) -> anyhow::Result<ExitCode> {
    eprintln!("error: {message}");
    Ok(ExitCode::from(2))
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut gpu_counts = Vec::new();
    for g in &args.gpus {
        let Some((label, n)) = g
            .rsplit_once('=')
            .and_then(|(l, n)| Some((l.to_owned(), n.trim().parse::<u32>().ok()?)))
        else {
            return usage(format!("--gpus {g:?}: expected LABEL=N"));
        };
        gpu_counts.push((label, n));
    }
    let loaded = args.inputs.load();
    if loaded.failed > 0 || loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let summary = summarize(loaded.parsed, &MetricOptions::default());
    let labels: Vec<&str> = summary.runs.iter().map(|r| r.label.as_str()).collect();
    if labels.len() < 2 {
        eprintln!(
            "error: the files make {} run{} ({}): files of the same engine, model and label are one \
             run, as in `tpsview summarize`; give runs apart a name each with --run-name FILE=NAME",
            labels.len(),
            if labels.len() == 1 { "" } else { "s" },
            labels.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    let baseline = match &args.baseline {
        None => 0,
        Some(want) => {
            let matches: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == want).collect();
            match matches[..] {
                [one] => one,
                [] => {
                    return usage(format!(
                        "--baseline {want:?}: no run has that label; the runs are: {}",
                        labels.join(" | ")
                    ))
                }
                _ => {
                    return usage(format!(
                        "--baseline {want:?}: {} runs have that label (their models differ); name \
                         them apart with --run-name FILE=NAME",
                        matches.len()
                    ))
                }
            }
        }
    };
    let opts = CompareOptions {
        per_gpu: args.per_gpu,
        gpu_counts,
    };
    let c = compare(&summary, baseline, &opts).context("no run to use as the baseline")?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&c)?);
    } else {
        print!("{}", table::render_comparison(&c));
    }
    Ok(ExitCode::SUCCESS)
}
