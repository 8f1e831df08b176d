//! The benchmark files a command reads: the one set of input arguments every reading subcommand
//! flattens in, and the reading itself (a directory stands for every benchmark file inside it).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tpsview_core::formats::vllm::sweep;
use tpsview_core::formats::{self, Format, Parsed};
use tpsview_core::mapping::Mapping;

/// Files to read, and how to read them.
#[derive(clap::Args, Debug)]
pub struct Inputs {
    /// Benchmark files (any format `tpsview formats` lists), or directories: a directory stands
    /// for every file inside it that is a benchmark file.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub files: Vec<PathBuf>,
    /// Read every file as this format instead of detecting it.
    #[arg(long, value_parser = format_id)]
    pub format: Option<Format>,
    /// Name the run of a file, or of every file in a directory: `PATH=NAME` (repeatable). Files
    /// given the same name form one run, as the viewer's run-name box does.
    #[arg(long = "run-name", value_name = "PATH=NAME", value_parser = run_name)]
    pub run_names: Vec<(PathBuf, String)>,
    /// Read every file that no reader recognises through this mapping (a `tpsview-mapping/1`
    /// document: `tpsview map FILE` proposes one; docs/viewer.md, "A file no reader knows").
    #[arg(long = "map", value_name = "MAPPING.json")]
    pub map: Option<PathBuf>,
}

/// Parses a `--run-name PATH=NAME`.
fn run_name(s: &str) -> Result<(PathBuf, String), String> {
    match s.split_once('=') {
        Some((p, n)) if !p.is_empty() && !n.trim().is_empty() => {
            Ok((PathBuf::from(p), n.trim().to_owned()))
        }
        _ => Err("expected PATH=NAME".to_owned()),
    }
}

/// Parses a `--format` id.
pub fn format_id(s: &str) -> Result<Format, String> {
    Format::from_id(s).ok_or_else(|| {
        format!(
            "unknown format; one of: {}",
            Format::ALL
                .iter()
                .map(|f| f.id())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// What reading the inputs gave: the files that parsed, and how many failed (each already
/// reported on stderr, naming the file).
pub struct Loaded {
    /// Parsed files, in the order given (a directory's files by name).
    pub parsed: Vec<Parsed>,
    /// Files that could not be read or parsed.
    pub failed: usize,
}

impl Loaded {
    /// Exit status: 1 when a file failed.
    pub fn status(&self) -> ExitCode {
        status(self.failed)
    }
}

/// Exit status for a count of failures: 0 none, 1 some.
pub fn status(failed: usize) -> ExitCode {
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

impl Inputs {
    /// Reads and parses every file; errors are printed and counted, good files returned. A file
    /// named on the command line that fails is an error; a file inside a named directory that is
    /// not a benchmark file is skipped with a note (a results folder holds logs and plots too).
    pub fn load(&self) -> Loaded {
        let mut parsed = Vec::new();
        let mut failed = 0;
        // A bad mapping is one error, before any file is read.
        if let Err(e) = self.mapping() {
            eprintln!("error: --map {e}");
            return Loaded {
                parsed,
                failed: self.files.len().max(1),
            };
        }
        for path in &self.files {
            if path.is_dir() {
                match dir_files(path) {
                    Ok(inside) => {
                        let before = parsed.len();
                        let names: Vec<String> = inside.iter().map(|f| display_name(f)).collect();
                        let names: Vec<&str> = names.iter().map(String::as_str).collect();
                        // In natural order, less what a sweep's layout repeats.
                        let chosen = sweep::select(&names);
                        for (i, why) in chosen.skipped {
                            eprintln!("note: {}: skipped: {why}", names[i]);
                        }
                        for i in chosen.read {
                            let (f, name) = (&inside[i], names[i]);
                            // A sweep's run that failed: a warning, the other runs are read.
                            if name.ends_with(".failure.json") {
                                let bytes = std::fs::read(f).unwrap_or_default();
                                if let Some(d) = sweep::failure(name, &bytes) {
                                    eprintln!("{d}");
                                    continue;
                                }
                            }
                            match self.read(f) {
                                Ok(p) => parsed.push(p),
                                Err(e) => {
                                    eprintln!("note: skipped (not read as a benchmark file): {e}")
                                }
                            }
                        }
                        if parsed.len() == before {
                            eprintln!("error: {}: no benchmark file inside", display_name(path));
                            failed += 1;
                        }
                    }
                    Err(e) => {
                        eprintln!(
                            "error: {}: cannot read the directory: {e}",
                            display_name(path)
                        );
                        failed += 1;
                    }
                }
                continue;
            }
            match self.read(path) {
                Ok(p) => parsed.push(p),
                Err(e) => {
                    eprintln!("error: {e}");
                    failed += 1;
                }
            }
        }
        Loaded { parsed, failed }
    }

    /// The mapping `--map` names, read and checked (an error names the mapping's file and field).
    pub fn mapping(&self) -> Result<Option<Mapping>, String> {
        let Some(p) = &self.map else { return Ok(None) };
        let name = display_name(p);
        let bytes = std::fs::read(p).map_err(|e| format!("{name}: cannot read: {e}"))?;
        Mapping::from_json(&name, &bytes)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    fn read(&self, path: &Path) -> Result<Parsed, String> {
        let name = display_name(path);
        let cannot = |e: std::io::Error| format!("{name}: cannot read: {e}");
        if let (Some(m), None) = (self.mapping()?, self.format) {
            let bytes = std::fs::read(path).map_err(cannot)?;
            if formats::detect(&bytes).is_none() {
                let mut parsed =
                    formats::parse_mapped(&name, &bytes, &m).map_err(|e| e.to_string())?;
                self.name_run(path, &mut parsed);
                return Ok(parsed);
            }
        }
        let streamed = crate::ingest::read_streamed(path, &name, self.format).map_err(cannot)?;
        let mut parsed = match streamed {
            Some(p) => p,
            None => {
                let bytes = std::fs::read(path).map_err(cannot)?;
                match self.format {
                    Some(f) => formats::parse(f, &name, &bytes),
                    None => formats::parse_any(&name, &bytes),
                }
            }
        }
        .map_err(|e| e.to_string())?;
        self.name_run(path, &mut parsed);
        Ok(parsed)
    }

    /// The last --run-name that covers this file names its runs.
    fn name_run(&self, path: &Path, parsed: &mut Parsed) {
        if let Some((_, n)) = self
            .run_names
            .iter()
            .rev()
            .find(|(p, _)| path == p || path.starts_with(p))
        {
            parsed.run_label = Some(n.clone());
        }
    }
}

/// The files of a directory and its sub-directories (a sweep keeps a directory per setting); which
/// to read, in which order, is [`sweep::select`]'s choice. Links are not followed.
fn dir_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)?.filter_map(Result::ok) {
            let Ok(kind) = e.file_type() else { continue };
            let p = e.path();
            if kind.is_dir() {
                todo.push(p);
            } else if kind.is_file() {
                out.push(p);
            }
        }
    }
    Ok(out)
}

/// How a path is named in messages and in the report (the `file` of diagnostics).
pub fn display_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
