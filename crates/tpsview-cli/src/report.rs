//! `tpsview report`: one self-contained HTML file — the viewer's own components rendered natively
//! (leptos `ssr`): each answered run's header and cards, the throughput chart, every figure, the
//! data's health, the latency and interactivity charts as SVG with their legends, how each tool
//! defines its numbers; and the data inside as a tpsview/1 bundle. Readable with JavaScript off,
//! from `file://`, with no network. By default the interactive viewer is inside too (`embed.rs`:
//! a Trunk build's page and worker modules, compressed), which replaces the static body once it
//! shows the same data; its CSP allows those scripts by hash and no connection beyond the blob:
//! URLs it makes. `--static` leaves it out: no script at all.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use leptos::prelude::*;
use tpsview_components::{
    answered, first_view, Chart, FirstViewData, FirstViewSlots, HealthPanel, ToolDefinitions,
};
use tpsview_core::chart_spec::ChartSpec;
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::compare::CompareOptions;
use tpsview_core::summary::Summary;

use crate::inputs::Inputs;
use crate::summarize::{summarized, Summarized};

/// The viewer's stylesheet, inlined (the report fetches nothing).
const CSS: &str = include_str!("../../../public/styles/app.css");

/// The static report's policy: no script runs, nothing is fetched; styles inline (the legend's
/// colour marks are style attributes), images only as data.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// Arguments of `tpsview report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The HTML file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Leave the interactive viewer out: the report is static HTML and SVG, with no script.
    #[arg(long = "static")]
    static_only: bool,
    /// The viewer to embed: a Trunk build of tpsview's web app (its dist/ folder). Default:
    /// $TPSVIEW_APP, else the dist/ of the source tree this tpsview was built from.
    #[arg(long, value_name = "DIST_DIR", conflicts_with = "static_only")]
    app: Option<PathBuf>,
    /// Also compute system T/s inside the steady-state window.
    #[arg(long)]
    steady_state: bool,
    #[command(flatten)]
    capacity: crate::capacity::Capacity,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Summarized {
        files,
        report,
        summary,
        status,
        ..
    } = match summarized(&args.inputs, args.steady_state, &args.capacity) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    let app = if args.static_only {
        None
    } else {
        let dir = crate::embed::app_dir(args.app.as_deref());
        match crate::embed::App::read(&dir) {
            Ok(app) => Some(app),
            Err(e) => {
                eprintln!(
                    "error: {e:#}\nthe interactive viewer is embedded from a build of the web app: run `trunk build --release` (README.md) or name one with --app DIST_DIR; --static writes the report without it"
                );
                return Ok(ExitCode::from(2));
            }
        }
    };
    let health = tpsview_core::health::health(&report, &summary, &CompareOptions::default());
    let bundle = tpsview_core::formats::tpsview::write(&report);
    let today: String = crate::bench::now_rfc3339().chars().take(10).collect();
    let html = render(&summary, health, &files, &bundle, app.as_ref(), &today);
    std::fs::write(&args.output, &html)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!(
        "wrote {} ({} bytes, {}; the data {} bytes)",
        args.output.display(),
        html.len(),
        match &app {
            None => "static, no script".to_owned(),
            Some(a) => format!(
                "the interactive viewer inside: {} bytes of it",
                a.embedded_len()
            ),
        },
        bundle.len()
    );
    Ok(status)
}

/// A chart's provenance line, as its exports carry it: the runs, the files, the date, tpsview's
/// version.
fn provenance(line: String) -> impl IntoView {
    view! { <p class="viewer-page-note" data-testid="chart-provenance">{line}</p> }
}

/// A chart's section under its heading, as the viewer titles it, with its provenance.
fn chart_section(
    id: &'static str,
    title: &'static str,
    spec: ChartSpec,
    label: &'static str,
    on_error: Callback<String>,
    line: String,
) -> impl IntoView {
    view! {
        <section aria-labelledby=format!("h-{id}")>
            <h2 id=format!("h-{id}")>{title}</h2>
            <div class="chart-slot">
                <Chart spec=Signal::stored(spec) label=label on_error=on_error/>
            </div>
            {provenance(line)}
        </section>
    }
}

/// `text` safe inside `<script type="application/json">`: no `</script>` (nor `<!--`) can end or
/// open anything early.
fn json_in_script(text: &str) -> String {
    text.replace('<', "\\u003c")
}

/// The whole document.
pub fn render(
    summary: &Summary,
    health: Vec<tpsview_core::health::HealthItem>,
    files: &[String],
    bundle: &str,
    app: Option<&crate::embed::App>,
    date: &str,
) -> String {
    let opts = ChartOptions::default();
    let line = |what: &str| tpsview_core::answer::provenance(summary, what, date);
    let lines = [
        line("throughput chart"),
        line("latency chart"),
        line("interactivity chart"),
    ];
    let (answers, more) = answered(summary);
    let throughput = chart_spec::throughput(summary, &opts);
    let latency = chart_spec::latency(summary, &opts);
    let interactivity = chart_spec::interactivity(summary, &opts);
    let s = summary.clone();
    let shown = files.join(", ");
    let body = Owner::new().with(move || {
        let health = Memo::new(move |_| health.clone());
        let summary = Signal::stored(s);
        let on_error = Callback::new(|e: String| eprintln!("warning: {e}"));
        let data = FirstViewData {
            answers: Memo::new(move |_| answers.clone()),
            more_runs: Signal::stored(more),
            health,
            throughput: Signal::stored(throughput),
            summary,
            table: signal(true).0,
        };
        let [l_throughput, l_latency, l_interactivity] = lines;
        view! {
            <div class="viewer-page">
                <header class="viewer-page-header">
                    <h1>"tpsview report"</h1>
                    <p class="viewer-page-hint" data-testid="report-files">{format!("Read from {shown} by tpsview {}.", env!("CARGO_PKG_VERSION"))}</p>
                </header>
                <main class="viewer-page-main" data-testid="viewer" data-ready="true">
                    {first_view(data, on_error, FirstViewSlots {
                        between: view! { <HealthPanel items=Signal::from(health)/> },
                        above_chart: (),
                        in_chart: (),
                        under_chart: provenance(l_throughput),
                        under_table: (),
                    })}
                    {chart_section("latency", "Latency: TPOT and TTFT", latency,
                        "TPOT and TTFT against concurrency, mean with p50 to p99 band", on_error, l_latency)}
                    {chart_section("interactivity", "Throughput against interactivity", interactivity,
                        "system tokens per second against per-stream tokens per second", on_error, l_interactivity)}
                    <section aria-labelledby="h-definitions">
                        <h2 id="h-definitions">"How each tool defines its numbers"</h2>
                        <ToolDefinitions summary=summary/>
                    </section>
                </main>
            </div>
        }
        .to_html()
    });
    let (csp, head, boot, tail) = match app {
        None => (CSP.to_owned(), String::new(), ("", ""), String::new()),
        Some(a) => (
            a.csp(),
            a.head(),
            ("<div id=\"boot\">", "</div><div id=\"app\"></div>"),
            a.tail(),
        ),
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"{}><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <meta name=\"color-scheme\" content=\"light dark\"/>\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\"/>\
         <title>tpsview report</title><style>{CSS}</style>{head}</head><body>{}{body}{}\
         <script type=\"application/json\" id=\"tpsview-bundle\">{}</script>{tail}</body></html>\n",
        if app.is_some() { " data-report" } else { "" },
        boot.0,
        boot.1,
        json_in_script(bundle)
    )
}
