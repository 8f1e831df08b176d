//! The viewer: the charts with their data-driven explanations, and the summary table.

use leptos::prelude::*;
use tpsview_components::{Chart, ChartControls, GapNotes, SummaryTable, ToolDefinitions};
use tpsview_core::chart_spec::{self, ChartOptions};

use crate::state::{use_analysis, Analysis};

/// The viewer.
#[component]
pub fn ViewerPage() -> impl IntoView {
    let Analysis { report, summary } = use_analysis();
    let (chart_error, set_chart_error) = signal(None::<String>);
    let (options, set_options) = signal(ChartOptions::default());
    let throughput =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::throughput(s, o))));
    let latency =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::latency(s, o))));
    let interactivity =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::interactivity(s, o))));
    // From unfiltered specs: a hidden series must stay in the list to be shown again.
    let series_names = Signal::derive(move || {
        summary.with(|s| {
            let all = ChartOptions::default();
            let mut names = chart_spec::throughput(s, &all).series_names();
            names.extend(chart_spec::latency(s, &all).series_names());
            names
        })
    });

    // The timeline shows one point: (run, point) indices, defaulting to the busiest level.
    let (picked, set_picked) = signal(None::<(usize, usize)>);
    let timeline_choices = Signal::derive(move || {
        report.with(|r| {
            r.runs
                .iter()
                .enumerate()
                .flat_map(|(ri, run)| {
                    run.points
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.requests.as_ref().is_some_and(|q| q.start_s.is_some()))
                        .map(move |(pi, p)| {
                            let level = p
                                .concurrency
                                .map_or_else(|| "?".to_owned(), |c| format!("{c}"));
                            ((ri, pi), format!("{} — concurrency {level}", run.label))
                        })
                })
                .collect::<Vec<_>>()
        })
    });
    let timeline_at = Memo::new(move |_| {
        let choices = timeline_choices.get();
        picked
            .get()
            .filter(|p| choices.iter().any(|c| c.0 == *p))
            .or_else(|| choices.last().map(|c| c.0))
    });
    let timeline = Memo::new(move |_| {
        let (ri, pi) = timeline_at.get()?;
        report.with(|r| chart_spec::timeline(r.runs.get(ri)?.points.get(pi)?))
    });
    let on_error = move |e: String| set_chart_error.set(Some(e));
    // Every metric named on a chart links to its glossary entry.
    let terms = |ids: &'static [(&'static str, &'static str)]| {
        view! {
            <p class="viewer-page-terms">
                "Terms: "
                {ids.iter().map(|(id, name)| view! { <a href=format!("#glossary-{id}")>{*name}</a>" " }).collect_view()}
            </p>
        }
    };
    let has_data = move || summary.with(|s| !s.runs.is_empty());

    view! {
        {move || chart_error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
        <main class="viewer-page-main" class:viewer-page-empty=move || !has_data()>
            <ChartControls names=series_names options=Signal::from(options) on_change=move |o| set_options.set(o)/>
            <section aria-labelledby="h-throughput">
                <h2 id="h-throughput">"50 or 4,000? Per-stream and system tokens per second"</h2>
                {terms(&[("system", "system T/s"), ("per-stream", "per-stream T/s"), ("concurrency", "concurrency")])}
                <Chart spec=throughput label="system and per-stream tokens per second against concurrency" on_error=on_error/>
                <GapNotes summary=Signal::from(summary)/>
                <p><a href="#learn/1">"Explain this run step by step →"</a></p>
            </section>
            <section aria-labelledby="h-latency">
                <h2 id="h-latency">"Latency: TPOT and TTFT"</h2>
                {terms(&[("tpot", "TPOT"), ("ttft", "TTFT"), ("itl", "ITL (not plotted: chunk gaps)")])}
                <Chart spec=latency label="TPOT and TTFT against concurrency, mean with p50 to p99 band" on_error=on_error/>
            </section>
            <section aria-labelledby="h-interactivity">
                <h2 id="h-interactivity">"Throughput against interactivity"</h2>
                <p class="viewer-page-note">"Each point is one concurrency level: moving right serves each user faster, moving up serves more tokens in all. The dashed line joins the levels no other level beats on both."</p>
                {terms(&[("per-stream", "per-stream T/s"), ("system", "system T/s")])}
                <Chart spec=interactivity label="system tokens per second against per-stream tokens per second" on_error=on_error/>
            </section>
            <section aria-labelledby="h-timeline">
                <h2 id="h-timeline">"Request timeline"</h2>
                {terms(&[("ttft", "TTFT"), ("e2e", "E2E")])}
                <label>
                    "Level "
                    <select aria-label="level shown in the timeline" data-testid="timeline-point"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let parsed = v.split_once(':').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
                            set_picked.set(parsed);
                        }>
                        {move || timeline_choices.get().into_iter().map(|((ri, pi), text)| {
                            let selected = timeline_at.get() == Some((ri, pi));
                            view! { <option value=format!("{ri}:{pi}") selected=selected>{text}</option> }
                        }).collect_view()}
                    </select>
                </label>
                {move || match timeline.get() {
                    Some(spec) => view! {
                        <Chart spec=Signal::stored(spec) label="each request's wait and prefill, then decode, in send order" on_error=on_error/>
                    }.into_any(),
                    None => view! { <p class="viewer-page-note">"No level with send times: the timeline needs each request's send time (vLLM's start_times)."</p> }.into_any(),
                }}
            </section>
            <section aria-labelledby="h-table">
                <h2 id="h-table">"Every figure"</h2>
                <SummaryTable summary=Signal::from(summary)/>
            </section>
            <section aria-labelledby="h-definitions">
                <h2 id="h-definitions">"How each tool defines its numbers"</h2>
                <p class="viewer-page-note">"Tools name the same quantity differently (GenAI-Perf's \"ITL\" is tpsview's TPOT; LLMPerf's includes the first token). Each file's figures are mapped below; where the file has raw data, tpsview recomputes every figure the tool's way and checks it. Reference: docs/formats.md."</p>
                <ToolDefinitions summary=Signal::from(summary)/>
            </section>
        </main>
    }
}
