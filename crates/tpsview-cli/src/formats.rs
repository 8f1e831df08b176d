//! `tpsview formats`: the formats tpsview reads, and each tool's figures mapped to tpsview's.

use std::process::ExitCode;

use tpsview_core::formats::{vocabularies_markdown, Format};

/// Arguments of `tpsview formats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the mapping tables as Markdown (the text of docs/formats.md).
    #[arg(long)]
    markdown: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.markdown {
        print!("{}", vocabularies_markdown());
    } else {
        for f in Format::ALL {
            println!("{:<24} {}", f.id(), f.name());
        }
    }
    Ok(ExitCode::SUCCESS)
}
