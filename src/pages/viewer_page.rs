//! The viewer: the runs' legend, the charts with their data-driven explanations and exports, the
//! summary table, the baseline comparison, and sharing. This file is the wiring — the state the
//! sections share and the order they come in; what they show is computed by the core
//! (`tpsview_core::viewer`), how each is laid out is in `sections` and `exports`, and the long
//! computations run in `steps`.

use leptos::prelude::*;
use tpsview_components::{
    first_view, Answered, ChartControls, FirstViewData, FirstViewSlots, GapNotes, HealthPanel,
    RunLegend,
};
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::compare::{self, CompareOptions};
use tpsview_core::health::{self, HealthItem};
use tpsview_core::noise;
use tpsview_core::viewer;
use tpsview_core::vocabulary::RunId;

use crate::state::{use_analysis, use_files, use_view, Analysis};

mod exports;
mod sections;
mod steps;

use exports::{download_csv, empty_note, exports};
use sections::{
    chart_section, compare_section, definitions_section, share_section, timeline_section,
};
use steps::{intervals_once_below, verdicts_once_shown, Stages};
pub(crate) use steps::{VERDICT_BUDGET, VERDICT_MAX, VERDICT_STEP};

/// The viewer.
#[component]
pub fn ViewerPage() -> impl IntoView {
    let Analysis { report, ready, .. } = use_analysis();
    let view = use_view();
    let files = use_files();
    let compare_opts = Signal::derive(move || {
        view.0.with(|v| CompareOptions {
            per_gpu: v.per_gpu,
            gpu_counts: v.gpu_counts.clone(),
        })
    });
    // Every figure, with each level against the SLO and priced when the view asks (capacity.rs).
    let summary = super::capacity::planned();
    let (chart_error, set_chart_error) = signal(None::<String>);
    let on_error = Callback::new(move |e: String| set_chart_error.set(Some(e)));
    let options = Signal::derive(move || view.0.with(|v| v.chart_options()));
    let set_options = move |o: ChartOptions| view.0.update(|v| v.set_chart_options(&o));
    let throughput =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::throughput(s, o))));
    // Each level's own intervals over its requests, computed in steps once the table is up (see
    // below): the table's ± and the latency chart's interval band read them.
    let intervals = RwSignal::new(None::<Vec<Vec<Option<noise::LevelIntervals>>>>);
    let with_intervals = Memo::new(move |_| {
        summary
            .with(|s| intervals.with(|iv| viewer::with_intervals(s, iv.as_deref().unwrap_or(&[]))))
    });
    let latency = Signal::derive(move || {
        options.with(|o| {
            if o.latency_interval {
                with_intervals.with(|s| chart_spec::latency(s, o))
            } else {
                summary.with(|s| chart_spec::latency(s, o))
            }
        })
    });
    let interactivity =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::interactivity(s, o))));
    let series_names = Signal::derive(move || summary.with(viewer::series_names));

    // Runs, the baseline and the comparison.
    let run_ids = Signal::derive(move || {
        summary.with(|s| s.runs.iter().map(|r| r.id.clone()).collect::<Vec<_>>())
    });
    let hidden_runs = Signal::derive(move || view.0.with(|v| v.hidden_runs.clone()));
    let baseline_index = Memo::new(move |_| {
        view.0
            .with(|v| summary.with(|s| viewer::baseline_index(s, v.baseline.as_ref())))
    });
    // A memo: the diff table, its pager and the CSV read it, and with dozens of runs a
    // comparison is not free.
    let comparison = Memo::new(move |_| {
        let opts = compare_opts.get();
        let b = baseline_index.get();
        summary.with(|s| {
            (s.runs.len() > 1)
                .then(|| compare::compare(s, b, &opts))
                .flatten()
        })
    });
    // The answer first: each run's header and answer cards, and the data's health — derived once
    // the summary is the current files' (until then the last answer stays, so nothing flickers).
    // Past three runs, the cards of the run with the highest peak system T/s and a line saying how
    // many more (`answer::leading`): with dozens of runs the charts and the table come next.
    let answers = Memo::new(move |prev: Option<&Vec<Answered>>| {
        if !ready.get() {
            return prev.cloned().unwrap_or_default();
        }
        summary.with(|s| tpsview_components::answered(s).0)
    });
    let health_items = Memo::new(move |prev: Option<&Vec<HealthItem>>| {
        if !ready.get() {
            return prev.cloned().unwrap_or_default();
        }
        let opts = compare_opts.get();
        report.with(|g| summary.with(|s| health::health(&g.report, s, &opts)))
    });
    let more_runs = Signal::derive(move || {
        summary
            .with(|s| s.runs.len())
            .saturating_sub(answers.with(Vec::len))
    });
    // Every metric named on a chart links to its glossary entry.
    let terms = tpsview_components::terms;
    let has_data = move || summary.with(|s| !s.runs.is_empty());
    // The tables, then the intervals and the diff's verdicts, a task at a time (steps.rs).
    let Stages {
        below,
        diff: diff_shown,
        defs: defs_shown,
    } = Stages::new(ready);
    let judged_ids = Memo::new(move |_| run_ids.get());
    intervals_once_below(report, intervals, judged_ids, below);
    let verdicts = verdicts_once_shown(report, summary, baseline_index, judged_ids, diff_shown);

    view! {
        {move || chart_error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
        <main class="viewer-page-main" class:viewer-page-empty=move || !has_data()
            data-testid="viewer" data-ready=move || ready.get().to_string()
            data-intervals=move || intervals.with(|i| if i.is_some() { "done" } else { "pending" })>
            {first_view(
                FirstViewData {
                    answers,
                    more_runs,
                    health: health_items,
                    throughput,
                    summary: Signal::from(with_intervals),
                    table: below,
                },
                on_error,
                FirstViewSlots {
                    between: view! {
                    {move || has_data().then(|| view! { <HealthPanel items=Signal::from(health_items)/> })}
                    <RunLegend runs=run_ids hidden=hidden_runs
                        on_toggle=move |id: RunId| view.0.update(|v| v.toggle_run(&id))
                        on_remove=move |id: RunId| {
                            if let Some(key) = report.with_untracked(|g| files.key_of(g, &id)) {
                                files.remove_run(&key);
                            }
                            view.0.update(|v| v.forget_run(&id));
                        }/>
                    },
                    above_chart: terms(tpsview_components::THROUGHPUT_TERMS),
                    in_chart: empty_note(throughput),
                    // Under the chart, not above it: the chart starts in the first screen.
                    under_chart: view! {
                    <ChartControls names=series_names options=options on_change=set_options/>
                    {exports(throughput, on_error)}
                    <GapNotes summary=Signal::from(summary)/>
                    // Offered only where the walkthrough has levels to walk (a concurrency and both
                    // aggregations).
                    {move || summary.with(|s| s.runs.iter().any(tpsview_core::learn::available)).then(|| view! {
                        <p><a href="#learn/1" data-testid="explain-link">"Explain this run step by step →"</a></p>
                    })}
                    {super::capacity::capacity_panel(Signal::from(summary))}
                    },
                    under_table: view! {
                    <p class="viewer-page-exports">
                        <button type="button" data-testid="export-csv-summary"
                            on:click=move |_| download_csv("tpsview-summary.csv", summary.with(compare::summary_csv), on_error)>"Download the table (CSV)"</button>
                    </p>
                    },
                },
            )}
            {chart_section("h-latency", "Latency: TPOT and TTFT", None,
                &[("tpot", "TPOT"), ("ttft", "TTFT"), ("itl", "ITL (not plotted: chunk gaps)")],
                latency, "TPOT and TTFT against concurrency, mean with p50 to p99 band", None, on_error)}
            {chart_section("h-interactivity", "Throughput against interactivity",
                Some("Each point is one concurrency level: moving right serves each user faster, moving up serves more tokens in all. The dashed line joins the levels no other level beats on both."),
                &[("per-stream", "per-stream T/s"), ("system", "system T/s")],
                interactivity, "system tokens per second against per-stream tokens per second, or tokens per second per user",
                Some(view! {
                    <label class="chart-axis-choice">
                        <input type="checkbox" data-testid="per-user-x" prop:checked=move || view.0.with(|v| v.per_user)
                            on:change=move |ev| { let on = event_target_checked(&ev); view.0.update(|v| v.per_user = on); }/>
                        " x: tokens/s per user at p90 (output tokens ÷ the whole request's time, the rate 90 % of requests reach: the agentic benchmarks' axis)"
                    </label>
                }.into_any()),
                on_error)}
            {timeline_section(report, summary, on_error)}
            {compare_section(summary, run_ids, comparison, baseline_index, verdicts, diff_shown, on_error)}
            {super::trend::trend_section(report, summary, options, defs_shown, on_error)}
            {share_section(report, summary, on_error)}
            {definitions_section(summary, defs_shown)}
        </main>
    }
}
