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
    /// The run to compare the others with, by label, or by id where labels repeat (`LABEL ·
    /// MODEL`, as the table names it). Default: the first run.
    #[arg(long, value_name = "RUN")]
    baseline: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Divide system-wide figures (system T/s, requests/s) by each run's GPU count.
    #[arg(long)]
    per_gpu: bool,
    /// GPU count for a run whose metadata has none: `RUN=N`, the run named as for --baseline
    /// (repeatable).
    #[arg(long = "gpus", value_name = "RUN=N")]
    gpus: Vec<String>,
}

/// A usage error: exit status 2, like clap's own.
fn usage(message: String) -> anyhow::Result<ExitCode> {
    eprintln!("error: {message}");
    Ok(ExitCode::from(2))
}

/// Runs the command.
/// The run `name` names: the run whose id it is, else the one run with that label.
fn resolve(summary: &tpsview_core::Summary, flag: &str, name: &str) -> Result<usize, String> {
    if let Some(i) = summary.runs.iter().position(|r| r.id == name) {
        return Ok(i);
    }
    let matches: Vec<usize> = (0..summary.runs.len())
        .filter(|&i| summary.runs[i].label == name)
        .collect();
    let ids = |which: &mut dyn Iterator<Item = usize>| {
        which
            .map(|i| summary.runs[i].id.to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    match matches[..] {
        [one] => Ok(one),
        [] => Err(format!(
            "{flag} {name:?}: no run has that name; the runs are: {}",
            ids(&mut (0..summary.runs.len()))
        )),
        _ => Err(format!(
            "{flag} {name:?}: {} runs have that label (their models or engines differ); name one \
             by its id: {}",
            matches.len(),
            ids(&mut matches.iter().copied())
        )),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut gpus = Vec::new();
    for g in &args.gpus {
        let Some((name, n)) = g
            .rsplit_once('=')
            .and_then(|(l, n)| Some((l.to_owned(), n.trim().parse::<u32>().ok()?)))
        else {
            return usage(format!("--gpus {g:?}: expected RUN=N"));
        };
        gpus.push((name, n));
    }
    let loaded = args.inputs.load();
    if loaded.failed > 0 || loaded.parsed.is_empty() {
        return Ok(ExitCode::from(1));
    }
    let summary = summarize(loaded.parsed, &MetricOptions::default());
    if summary.runs.len() < 2 {
        let ids: Vec<String> = summary.runs.iter().map(|r| r.id.to_string()).collect();
        eprintln!(
            "error: the files make {} run{} ({}): files of the same engine, model and label are one \
             run, as in `tpsview summarize`; give runs apart a name each with --run-name FILE=NAME",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            ids.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    let baseline = match &args.baseline {
        None => 0,
        Some(want) => match resolve(&summary, "--baseline", want) {
            Ok(i) => i,
            Err(e) => return usage(e),
        },
    };
    let mut gpu_counts = Vec::new();
    for (name, n) in gpus {
        match resolve(&summary, "--gpus", &name) {
            Ok(i) => gpu_counts.push((summary.runs[i].id.clone(), n)),
            Err(e) => return usage(e),
        }
    }
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
