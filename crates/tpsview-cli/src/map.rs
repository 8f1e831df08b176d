//! `tpsview map FILE`: what a file no reader knows holds (its rows' fields, with samples and
//! ranges, on stderr) and a first mapping of it (a `tpsview-mapping/1` document, on stdout or to
//! `--out`), to correct and give back with `--map`.

use std::path::PathBuf;
use std::process::ExitCode;

use tpsview_core::mapping::{inspect, propose};

/// Arguments of `tpsview map`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The file (JSON, JSON lines or CSV).
    file: PathBuf,
    /// Write the mapping here instead of stdout.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = crate::inputs::display_name(&args.file);
    let bytes =
        std::fs::read(&args.file).map_err(|e| anyhow::anyhow!("{name}: cannot read: {e}"))?;
    if let Some(f) = tpsview_core::detect(&bytes) {
        eprintln!(
            "note: {name} reads as {} (id {}): no mapping is needed",
            f.name(),
            f.id()
        );
    }
    let shape = inspect(&name, &bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
    eprintln!(
        "{name}: {} rows{} ({:?}); fields:",
        shape.rows,
        if shape.records.is_empty() {
            String::new()
        } else {
            format!(" at `{}`", shape.records)
        },
        shape.kind
    );
    for f in &shape.fields {
        let range = f
            .range
            .map_or_else(String::new, |(a, b)| format!("  [{a} … {b}]"));
        eprintln!(
            "  {:<40} {:>6} of {}{range}  e.g. {}",
            f.name,
            f.present,
            shape.rows,
            f.samples.join(", ")
        );
    }
    let m = propose(&shape);
    let doc = m.to_json() + "\n";
    match &args.out {
        Some(p) => std::fs::write(p, doc)?,
        None => print!("{doc}"),
    }
    if let Err(e) = m.check() {
        eprintln!("the proposal is not complete yet: {e} — correct it, then --map it");
    }
    Ok(ExitCode::SUCCESS)
}
