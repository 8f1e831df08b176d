//! The first view: the answer first (each answered run's header and cards, and a line for the
//! runs left unanswered), the throughput chart, the table of every figure. The viewer page builds
//! its top from it, its own controls in the slots; natively (leptos `ssr`) the same component is
//! the prerendered first view and the top of `tpsview report`, without them.

use leptos::prelude::*;
use tpsview_core::answer::{Answers, HeaderPart};
use tpsview_core::chart_spec::ChartSpec;
use tpsview_core::health::HealthItem;
use tpsview_core::summary::{RunSummary, Summary};

use crate::{Chart, RunAnswer, SummaryTable};

/// A run with its header parts and answers, as the answer cards show it.
pub type Answered = (RunSummary, Vec<(HeaderPart, String)>, Answers);

/// The answered runs of `summary` (`tpsview_core::answer::leading`) with their headers and
/// answers, and how many runs are left unanswered.
pub fn answered(summary: &Summary) -> (Vec<Answered>, usize) {
    let shown: Vec<Answered> = tpsview_core::answer::leading(&summary.runs)
        .into_iter()
        .map(|i| &summary.runs[i])
        .map(|r| {
            (
                r.clone(),
                tpsview_core::answer::header(r),
                tpsview_core::answer::answers(r),
            )
        })
        .collect();
    let more = summary.runs.len().saturating_sub(shown.len());
    (shown, more)
}

/// What the first view shows: the answered runs ([`answered`]), how many runs are not answered
/// (past three, only the highest peak is), the data-health counts of the whole page (errors,
/// warnings, notes), the throughput chart, every figure, and whether the table is built yet (the
/// page builds it a task after the rest).
///
/// The page's own reactive types (memos, a read signal), not `Signal`s made from them: each
/// `Signal<T>` of a new `T` costs the browser build its own copy of the signal machinery.
#[derive(Clone, Copy)]
pub struct FirstViewData {
    /// The answered runs.
    pub answers: Memo<Vec<Answered>>,
    /// How many runs are not answered here.
    pub more_runs: Signal<usize>,
    /// The data-health items of the whole page (counted on the health card).
    pub health: Memo<Vec<HealthItem>>,
    /// The throughput chart.
    pub throughput: Signal<ChartSpec>,
    /// Every figure.
    pub summary: Signal<Summary>,
    /// Whether the table is built yet.
    pub table: ReadSignal<bool>,
}

/// The page's own parts of the first view (`()` for none): between the answers and the chart's
/// section (legend, controls), under the chart's heading (terms), inside the chart's box (why it
/// is empty), under the chart (exports, notes), under the table (its download).
pub struct FirstViewSlots<B, A, I, U, T> {
    /// Between the answers and the chart's section.
    pub between: B,
    /// Under the chart's heading.
    pub above_chart: A,
    /// Inside the chart's box.
    pub in_chart: I,
    /// Under the chart.
    pub under_chart: U,
    /// Under the table.
    pub under_table: T,
}

impl FirstViewSlots<(), (), (), (), ()> {
    /// No slots: the first view alone (natively).
    pub const NONE: Self = FirstViewSlots {
        between: (),
        above_chart: (),
        in_chart: (),
        under_chart: (),
        under_table: (),
    };
}

/// Run headers and answer cards, the throughput chart and the summary table. A plain function,
/// its slots typed: in the browser build it costs no component of its own.
pub fn first_view<B, A, I, U, T>(
    data: FirstViewData,
    on_error: Callback<String>,
    slots: FirstViewSlots<B, A, I, U, T>,
) -> impl IntoView
where
    B: IntoView + 'static,
    A: IntoView + 'static,
    I: IntoView + 'static,
    U: IntoView + 'static,
    T: IntoView + 'static,
{
    let FirstViewData {
        answers,
        more_runs,
        health,
        throughput,
        summary,
        table,
    } = data;
    let FirstViewSlots {
        between,
        above_chart,
        in_chart,
        under_chart,
        under_table,
    } = slots;
    view! {
        <div class="viewer-answers">
            {move || {
                let counts = health.with(|h| tpsview_core::health::counts(h));
                answers.get().into_iter().map(|(run, header, a)| view! {
                    <RunAnswer run=run header=header answers=a health=counts/>
                }).collect_view()
            }}
            {move || (more_runs.get() > 0).then(|| view! {
                <p class="viewer-page-note" data-testid="more-runs">{format!("The run with the highest system T/s of {}; {} more runs are in the legend, the charts and the table.", more_runs.get() + 1, more_runs.get())}</p>
            })}
        </div>
        {between}
        <section aria-labelledby="h-throughput">
            <h2 id="h-throughput">"50 or 4,000? Per-stream and system tokens per second"</h2>
            {above_chart}
            <div class="chart-slot">
                <Chart spec=throughput label="system and per-stream tokens per second against concurrency" on_error=on_error/>
                {in_chart}
            </div>
            {under_chart}
        </section>
        <section aria-labelledby="h-table">
            <h2 id="h-table">"Every figure"</h2>
            {move || table.get().then(|| view! { <SummaryTable summary=summary/> })}
            {under_table}
        </section>
    }
}

/// The terms the throughput chart names, with their glossary entries (`#glossary-<id>`).
pub const THROUGHPUT_TERMS: &[(&str, &str)] = &[
    ("system", "system T/s"),
    ("per-stream", "per-stream T/s"),
    ("concurrency", "concurrency"),
];

/// A line linking each term a chart names to its glossary entry: (glossary id, name).
pub fn terms(ids: &'static [(&'static str, &'static str)]) -> impl IntoView {
    view! {
        <p class="viewer-page-terms">
            "Terms: "
            {ids.iter().map(|(id, name)| view! { <a href=format!("#glossary-{id}")>{*name}</a>" " }).collect_view()}
        </p>
    }
}
