//! `tpsview summarize`: files grouped into runs, every metric recomputed, printed as a table with
//! the gap explanation, or as the `--json` contract of docs/cli.md.

use std::process::ExitCode;

use tpsview_core::error::Severity;
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::{summarize_report, Summary};

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
    /// Give each per-request figure (TTFT, TPOT, E2E: mean, p50, p90, p99; per-stream T/s) its
    /// 99 % bootstrap interval over the level's requests (seeded: the same files give the same
    /// bits): `intervals` per level in `--json`, `[low … high]` lines under the table.
    #[arg(long)]
    intervals: bool,
    #[command(flatten)]
    capacity: crate::capacity::Capacity,
}

/// The files read, grouped into runs and summarised, with the SLO and the price applied: what
/// `summarize` prints and `report` renders.
pub struct Summarized {
    /// The files' names, as given.
    pub files: Vec<String>,
    /// The runs, grouped.
    pub report: tpsview_core::model::Report,
    /// Every figure.
    pub summary: Summary,
    /// The SLO applied, in words.
    pub slo_text: Option<String>,
    /// The exit status of the reading (1 when a file failed).
    pub status: ExitCode,
}

/// Reads `inputs` and summarises them; `Err` holds the exit status to stop with (no file read,
/// or a usage error, already printed).
pub fn summarized(
    inputs: &Inputs,
    steady_state: bool,
    capacity: &crate::capacity::Capacity,
) -> Result<Summarized, ExitCode> {
    let slo = capacity.check()?;
    let loaded = inputs.load();
    if loaded.parsed.is_empty() {
        return Err(ExitCode::from(1));
    }
    let status = loaded.status();
    let files = loaded.parsed.iter().map(|p| p.file.clone()).collect();
    // Grouped here (as `summarize` groups) so that the SLO can read each level's requests.
    let (report, mut diagnostics) = tpsview_core::group::group(loaded.parsed);
    let (runs, d) = summarize_report(&report, &MetricOptions { steady_state });
    diagnostics.extend(d);
    let mut summary = Summary { runs, diagnostics };
    let slo_text = capacity.apply(&report, &mut summary, slo.as_ref())?;
    Ok(Summarized {
        files,
        report,
        summary,
        slo_text,
        status,
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Summarized {
        mut summary,
        report,
        slo_text,
        status,
        ..
    } = match summarized(&args.inputs, args.steady_state, &args.capacity) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    if args.intervals {
        tpsview_core::noise::apply_intervals(&report, &mut summary.runs);
        tpsview_core::noise::apply_repeats(&mut summary.runs);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", table::render(&summary));
        if args.intervals {
            print!("{}", intervals_text(&summary));
        }
        if let Some(text) = &slo_text {
            println!("\nSLO {text}");
            let f = |v: Option<f64>, d: usize| v.map_or("–".to_owned(), |v| format!("{v:.d$}"));
            for rs in &summary.runs {
                println!("{}", rs.id);
                for p in &rs.points {
                    let Some(e) = p.slo else { continue };
                    println!(
                        "  conc {:>6}  attainment {:>6}  goodput {:>8} req/s {:>9} tok/s  {}",
                        f(p.metrics.concurrency, 0),
                        f(e.attainment, 3),
                        f(e.goodput_rps, 2),
                        f(e.goodput_tps, 1),
                        match e.met {
                            Some(true) => "met",
                            Some(false) => "not met",
                            None => "– (cannot be checked)",
                        }
                    );
                    if let Some(t) = e.tool_goodput {
                        println!(
                            "              the tool's {}: {:.3} req/s{}",
                            t.key,
                            t.reported_rps,
                            match (t.agrees, t.relative_diff) {
                                (Some(true), _) => " (equal to tpsview's under this SLO)".to_owned(),
                                (Some(false), Some(d)) => format!(
                                    " (tpsview's under this SLO differs by {:+.2} %: the tool used the SLO it was given, which the file does not record)",
                                    d * 100.0
                                ),
                                _ => " (not comparable: give per-request targets)".to_owned(),
                            }
                        );
                    }
                }
                match rs.slo_capacity.flatten() {
                    Some(c) => println!(
                        "  capacity under the SLO: concurrency {}, {:.1} system T/s",
                        c.concurrency, c.system_tps
                    ),
                    None => println!("  capacity under the SLO: no level meets it"),
                }
            }
        }
        if let Some(price) = args.capacity.gpu_hour_usd {
            println!("\nCost at {price} USD per GPU-hour (your price)");
            for rs in &summary.runs {
                println!("{}", rs.id);
                for p in &rs.points {
                    let c = p.usd_per_million_output_tokens.flatten();
                    println!(
                        "  conc {:>6}  {:>10} USD per million output tokens  {:>12} tokens per USD",
                        p.metrics.concurrency.map_or("–".into(), |c| format!("{c}")),
                        c.map_or("–".into(), |c| format!("{c:.3}")),
                        c.map_or("–".into(), |c| format!("{:.0}", 1e6 / c)),
                    );
                }
            }
        }
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

/// `--intervals` under the table: per level, each figure with its interval, or why none.
fn intervals_text(summary: &Summary) -> String {
    use std::fmt::Write;
    let mut out = format!(
        "\nIntervals ({:.0} %: bootstrap over each level's requests; over a setup's repeats, Student t)\n",
        tpsview_core::noise::CONFIDENCE * 100.0
    );
    for rs in &summary.runs {
        let _ = writeln!(out, "{}", rs.id);
        for p in &rs.points {
            let conc = p.metrics.concurrency.map_or("–".into(), |c| format!("{c}"));
            // Over a setup's repeats: under the first of them.
            if let Some(rl) = p
                .repeats
                .as_ref()
                .filter(|rl| rl.runs.first() == Some(&rs.label))
            {
                out.push_str(&table::repeat_lines(&conc, rl));
            }
            let Some(li) = &p.intervals else { continue };
            for m in tpsview_core::noise::LEVEL_METRICS {
                if let (Some([lo, hi]), Some(v)) = (li.intervals.get(m.key()), p.get(m)) {
                    let _ = writeln!(
                        out,
                        "  conc {conc:>6}  {:<16} {v:>10.2}  [{lo:.2} … {hi:.2}]",
                        m.key()
                    );
                }
            }
            if !li.not_computed.is_empty() {
                let keys: Vec<&str> = li.not_computed.keys().copied().collect();
                let _ = writeln!(
                    out,
                    "  conc {conc:>6}  no interval: {} (`--json` says why)",
                    keys.join(", ")
                );
            }
        }
    }
    out
}
