//! The `tpsview` command line: summarise, convert, validate, compare, chart and measure benchmark
//! files, on the same core the web app runs. Exit status: 0 ok, 1 bad input, 2 usage. Each
//! subcommand lives in its own file; the input arguments they share are `inputs::Inputs`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod capacity;
mod chart;
mod compare;
mod convert;
mod embed;
mod formats;
mod ingest;
mod inputs;
mod map;
mod parquet_out;
mod probe;
mod report;
mod simulate;
mod summarize;
mod table;
mod validate;

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
    Summarize(summarize::Args),
    /// Convert files to one tpsview/1 report.
    Convert(convert::Args),
    /// List every problem in the files, with file, field and request index.
    Validate(validate::Args),
    /// Write the seed example: an H100 SXM / Llama 3.1 70B FP8 sweep, simulated.
    Simulate(simulate::Args),
    /// Measure the batching effect on this machine: decode-step time against batch size.
    Probe(probe::Args),
    /// Compare runs with a baseline, level by level: ratio and % change of each figure. Files
    /// are grouped into runs as `summarize` groups them; the first run is the baseline unless
    /// --baseline names another. Levels the baseline lacks are interpolated on a log₂
    /// concurrency axis (marked `~`).
    Compare(compare::Args),
    /// Measure an OpenAI-compatible streaming server at several concurrency levels and write
    /// tpsview/1 with every request's send time and chunk arrivals (docs/bench.md).
    Bench(bench::cli::Args),
    /// A stand-in streaming server for tests and overhead measurements.
    #[command(hide = true)]
    StubServer(bench::cli::StubArgs),
    /// List the formats tpsview reads and each tool's figures mapped to tpsview's metrics.
    Formats(formats::Args),
    /// Show what a file no reader knows holds and propose a mapping for it (a small JSON
    /// document to correct and give back with --map).
    Map(map::Args),
    /// Draw a chart as an SVG: throughput (default), latency or interactivity.
    Chart(chart::Args),
    /// Write one self-contained HTML report: run headers, answer cards, data health, every chart
    /// as SVG, the table, each tool's definitions, and the data inside as tpsview/1. Readable
    /// with JavaScript off, from disk, with no network.
    Report(report::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The core splits its hottest loops in two through this (see tpsview_core::par).
    tpsview_core::par::set_join(|a, b| {
        rayon::join(a, b);
    });
    let result = match cli.command {
        Command::Summarize(a) => summarize::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Probe(a) => probe::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Bench(a) => bench::cli::run(a),
        Command::StubServer(a) => bench::cli::run_stub(a),
        Command::Formats(a) => formats::run(a),
        Command::Map(a) => map::run(a),
        Command::Chart(a) => chart::run(a),
        Command::Report(a) => report::run(a),
    };
    result.unwrap_or_else(|e| {
        eprintln!("error: {e:#}");
        ExitCode::from(1)
    })
}
