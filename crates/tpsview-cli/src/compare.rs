//! `tpsview compare`: runs against a baseline, level by level. Files are grouped into runs exactly
//! as `summarize` and the viewer group them (a sweep written one file per level is one run); the
//! first run is the baseline unless `--baseline` names another. Each compared figure at each level
//! is judged against noise (`tpsview_core::noise`): regression, improvement or within noise;
//! `--fail-on-regression` turns the regressions into exit status 1 for a CI job.

use std::process::ExitCode;

use anyhow::Context;
use tpsview_core::compare::{compare, CompareOptions};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::noise::{judge, JudgeOptions, Judged, Verdict};
use tpsview_core::vocabulary::Metric;

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
    /// Exit with status 1 when any judged figure regressed beyond noise and the threshold,
    /// listing them (0 when none).
    #[arg(long)]
    fail_on_regression: bool,
    /// The change (%) a figure must exceed, in its bad direction, to be a regression.
    #[arg(long, value_name = "PCT", default_value_t = tpsview_core::noise::DEFAULT_THRESHOLD_PCT)]
    threshold: f64,
    /// The figures judged, by key (e.g. `tpot_mean_ms,ttft_p99_ms,per_stream_tps`). Default:
    /// every compared figure.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    metrics: Vec<String>,
    /// Print the comparison as a Markdown table (for a CI job's summary) instead of the text table.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// The runs as a history of one setup: ordered by date (or as given where a run states none),
    /// each headline figure's trend, and each run against the one before it, judged against
    /// noise.
    #[arg(long, conflicts_with_all = ["baseline", "markdown", "per_gpu"])]
    history: bool,
}

/// `--history`: the runs in order, their headline figures, and each against the one before.
fn history(
    report: &tpsview_core::model::Report,
    summary: &tpsview_core::Summary,
    opts: &JudgeOptions,
    json: bool,
) -> anyhow::Result<ExitCode> {
    use tpsview_core::noise::history;
    let setup = history::all_runs(report);
    let moves = history::judge(report, summary, &setup, opts);
    let entries = history::entries(report, summary, &setup, &moves);
    let id = |i: usize| summary.runs[i].id.as_str();
    if json {
        let runs: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "run": id(e.run),
                    "date": e.date,
                    "peak_system_tps": e.peak_system.map(|p| p.0),
                    "peak_concurrency": e.peak_system.and_then(|p| p.1),
                    "best_per_stream_tps": e.best_per_stream.map(|p| p.0),
                    "best_per_stream_concurrency": e.best_per_stream.and_then(|p| p.1),
                })
            })
            .collect();
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|j| {
                let mut v = serde_json::to_value(j).unwrap_or_default();
                v["against"] = serde_json::json!(history::against(summary, &setup, j).map(id));
                v
            })
            .collect();
        let out = serde_json::json!({
            "order": setup.order,
            "threshold_pct": opts.threshold_pct,
            "confidence": tpsview_core::noise::CONFIDENCE,
            "runs": runs,
            "moves": moves,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "history of {} runs, ordered {}:",
        setup.runs.len(),
        match setup.order {
            tpsview_core::noise::Order::Date => "by date",
            tpsview_core::noise::Order::Given => "as given (a run states no date)",
        }
    );
    let fmt = |v: Option<(f64, Option<f64>)>| {
        v.map_or_else(
            || "–".to_owned(),
            |(x, c)| match c {
                Some(c) => format!("{x:.1} @ {c}"),
                None => format!("{x:.1}"),
            },
        )
    };
    let width = setup
        .runs
        .iter()
        .map(|&i| id(i).chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    println!(
        "  {:<width$}  {:<22}  {:>20}  {:>22}",
        "run", "date", "peak system T/s", "best per-stream T/s"
    );
    let mut prev_peak: Option<f64> = None;
    for e in &entries {
        let trend = match (prev_peak, e.peak_system) {
            (Some(a), Some((b, _))) if a > 0.0 => format!("  {:+.1} %", (b / a - 1.0) * 100.0),
            _ => String::new(),
        };
        prev_peak = e.peak_system.map(|p| p.0);
        println!(
            "  {:<width$}  {:<22}  {:>20}  {:>22}{trend}",
            id(e.run),
            e.date.as_deref().unwrap_or("–"),
            fmt(e.peak_system),
            fmt(e.best_per_stream)
        );
    }
    let moved: Vec<&Judged> = moves
        .iter()
        .filter(|j| matches!(j.verdict, Some(Verdict::Regression | Verdict::Improvement)))
        .collect();
    let judged = entries.iter().map(|e| e.judged).sum::<usize>();
    println!(
        "\nmoved beyond noise, each run against the one before ({judged} figures judged, {:.0} % intervals, threshold {} %):",
        tpsview_core::noise::CONFIDENCE * 100.0,
        opts.threshold_pct
    );
    if moved.is_empty() {
        println!("  nothing");
    }
    for j in moved {
        println!(
            "  {} (against {}) at concurrency {}: {} {} — {}",
            j.run,
            history::against(summary, &setup, j).map_or("–", id),
            j.concurrency,
            j.metric.label(),
            change_text(j),
            word(j)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--json`: the comparison with its verdicts.
#[derive(serde::Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    comparison: &'a tpsview_core::compare::Comparison,
    /// The threshold the verdicts used, %.
    threshold_pct: f64,
    /// The interval's coverage.
    confidence: f64,
    /// Every judged (or not judged) figure at every level.
    verdicts: &'a [Judged],
}

/// A verdict as a word.
fn word(j: &Judged) -> &'static str {
    j.verdict.map_or("not judged", Verdict::words)
}

/// A judged change as text: `+10.2 % (+6.1 … +14.5)`.
fn change_text(j: &Judged) -> String {
    j.change.map_or_else(
        || "–".to_owned(),
        |c| {
            let over = j.repeats.map_or(String::new(), |[a, b]| {
                format!(" of the means over {b} repeats against {a}")
            });
            format!(
                "{:+.1} % ({:+.1} … {:+.1}){over}",
                c.change_pct, c.low_pct, c.high_pct
            )
        },
    )
}

/// The comparison as a Markdown table, a row per judged figure (and the figures not judged,
/// counted with their reasons).
fn markdown(c: &tpsview_core::compare::Comparison, verdicts: &[Judged], threshold: f64) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### tpsview compare: against `{}`\n\nA change counts when its {:.0} % interval excludes 0 and it exceeds {threshold} % (docs/metrics.md, \"Noise\").\n",
        c.baseline,
        tpsview_core::noise::CONFIDENCE * 100.0
    );
    // A setup's repeats judged over them are one verdict, listed once.
    let listed = tpsview_core::noise::listed(verdicts);
    let count = |v: Option<Verdict>| listed.iter().filter(|(_, j)| j.verdict == v).count();
    let regressions = count(Some(Verdict::Regression));
    let _ = writeln!(
        out,
        "**{regressions} regression{}**, {} improvement(s), {} within noise, {} not judged.\n",
        if regressions == 1 { "" } else { "s" },
        count(Some(Verdict::Improvement)),
        count(Some(Verdict::WithinNoise)),
        count(None)
    );
    let _ = writeln!(
        out,
        "| run | concurrency | figure | baseline | value | change (interval) | verdict |\n|---|---:|---|---:|---:|---|---|"
    );
    let cell = |run: &str, level: f64, m: Metric| {
        c.runs
            .iter()
            .find(|r| r.label.as_str() == run)
            .and_then(|r| r.rows.iter().find(|row| row.concurrency == level))
            .and_then(|row| row.cells.iter().find(|x| x.metric == m))
    };
    let num = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.4}"));
    for (who, j) in listed.iter().filter(|(_, j)| j.verdict.is_some()) {
        let x = cell(j.run.as_str(), j.concurrency, j.metric);
        let verdict = match j.verdict {
            Some(Verdict::Regression) => "**regression**",
            _ => word(j),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {verdict} |",
            who.replace('|', "\\|"),
            j.concurrency,
            j.metric.label(),
            num(x.and_then(|x| x.baseline)),
            num(x.and_then(|x| x.value)),
            change_text(j)
        );
    }
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for j in verdicts.iter().filter(|j| j.verdict.is_none()) {
        let r = j.not_judged.as_deref().unwrap_or("");
        match reasons.iter_mut().find(|x| x.0 == r) {
            Some(x) => x.1 += 1,
            None => reasons.push((r, 1)),
        }
    }
    if !reasons.is_empty() {
        let _ = writeln!(out, "\nNot judged:");
        for (r, n) in reasons {
            let _ = writeln!(out, "- {n} × {r}");
        }
    }
    out
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
    let mut judged_metrics = Vec::new();
    for key in &args.metrics {
        match Metric::parse(key.trim()) {
            Some(m) => judged_metrics.push(m),
            None => {
                let keys: Vec<&str> = tpsview_core::compare::COMPARED
                    .iter()
                    .map(|m| m.key())
                    .collect();
                return usage(format!(
                    "--metrics: {key:?} is not a figure; the compared ones are {}",
                    keys.join(", ")
                ));
            }
        }
    }
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        return usage(format!(
            "--threshold {}: a percentage of 0 or more",
            args.threshold
        ));
    }
    let (report, mut diagnostics) = tpsview_core::group::group(loaded.parsed);
    let (runs, d) = tpsview_core::summary::summarize_report(&report, &MetricOptions::default());
    diagnostics.extend(d);
    let mut summary = tpsview_core::Summary { runs, diagnostics };
    // Runs that repeat a setup: their whole-level figures are judged over the repeats.
    tpsview_core::noise::apply_repeats(&mut summary.runs);
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
    let judge_opts = JudgeOptions {
        threshold_pct: args.threshold,
        metrics: if judged_metrics.is_empty() {
            JudgeOptions::default().metrics
        } else {
            judged_metrics
        },
        ..JudgeOptions::default()
    };
    if args.history {
        return history(&report, &summary, &judge_opts, args.json);
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
    let verdicts = judge(&report, &summary, baseline, &judge_opts);
    if args.json {
        let out = Output {
            comparison: &c,
            threshold_pct: args.threshold,
            confidence: tpsview_core::noise::CONFIDENCE,
            verdicts: &verdicts,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else if args.markdown {
        print!("{}", markdown(&c, &verdicts, args.threshold));
    } else {
        print!("{}", table::render_comparison(&c));
        let judged = verdicts.iter().filter(|j| j.verdict.is_some()).count();
        let not = verdicts.len() - judged;
        println!(
            "\nagainst noise ({:.0} % intervals over requests, or over repeats where both setups have them, threshold {} %): {judged} figure(s) judged, {not} not (--json or --markdown says why each)",
            tpsview_core::noise::CONFIDENCE * 100.0,
            args.threshold
        );
        for (who, j) in tpsview_core::noise::listed(&verdicts)
            .into_iter()
            .filter(|(_, j)| matches!(j.verdict, Some(Verdict::Regression | Verdict::Improvement)))
        {
            println!(
                "  {who} at concurrency {}: {} {} — {}",
                j.concurrency,
                j.metric.label(),
                change_text(j),
                word(j)
            );
        }
    }
    let regressions: Vec<(String, &Judged)> = tpsview_core::noise::listed(&verdicts)
        .into_iter()
        .filter(|(_, j)| j.verdict == Some(Verdict::Regression))
        .collect();
    if args.fail_on_regression && !regressions.is_empty() {
        eprintln!(
            "error: {} regression{} beyond noise and {} %:",
            regressions.len(),
            if regressions.len() == 1 { "" } else { "s" },
            args.threshold
        );
        for (who, j) in &regressions {
            eprintln!(
                "  {who} at concurrency {}: {} {}",
                j.concurrency,
                j.metric.label(),
                change_text(j)
            );
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
