//! The trend chart: where several runs of one setup are loaded on several dates
//! (`noise::history::setups`), their headline figures in date order and each run judged against
//! the one before it, as `tpsview compare --history` judges them, in steps.

use leptos::prelude::*;
use tpsview_components::{Chart, Latest, TrendTable};
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::noise::{self, history};

use crate::state::Grouped;

/// One step of the history's moves, then the next in a task of its own until all are judged.
fn judge_steps(
    stream: Latest,
    report: Memo<Grouped>,
    summary: Memo<tpsview_core::Summary>,
    setup: history::Setup,
    into: RwSignal<Option<Vec<noise::Judged>>>,
    mut at: history::Cursor,
    mut out: Vec<noise::Judged>,
) {
    stream.run_later(move || {
        let opts = noise::JudgeOptions {
            max_cost: Some(super::viewer_page::VERDICT_MAX),
            budget: Some(super::viewer_page::VERDICT_BUDGET),
            ..noise::JudgeOptions::default()
        };
        let done = report.try_with_untracked(|g| {
            summary.try_with_untracked(|s| {
                history::judge_some(
                    &g.report,
                    s,
                    &setup,
                    &opts,
                    &mut at,
                    super::viewer_page::VERDICT_STEP,
                    &mut out,
                )
            })
        });
        match done.flatten() {
            Some(true) => {
                into.try_set(Some(out));
            }
            Some(false) => judge_steps(stream, report, summary, setup, into, at, out),
            None => {}
        }
    });
}

/// The section (`data-testid="trend"`, `data-judged="pending|done"`), or nothing where no setup
/// makes a history. `start` is false until the page's tables are up: judging starts after them.
pub fn trend_section(
    report: Memo<Grouped>,
    summary: Memo<tpsview_core::Summary>,
    options: Signal<ChartOptions>,
    start: ReadSignal<bool>,
    on_error: Callback<String>,
) -> impl IntoView {
    let picked = RwSignal::new(0usize);
    // Every setup that makes a history, and the one shown.
    let setups = Memo::new(move |_| {
        let all = report.with(|g| history::setups(&g.report));
        let i = picked.get().min(all.len().saturating_sub(1));
        (all, i)
    });
    let moves = RwSignal::new(None::<Vec<noise::Judged>>);
    let judging = Latest::new();
    Effect::new(move |_| {
        let s = setups.with(|(all, i)| all.get(*i).cloned());
        moves.set(None);
        if let (Some(s), true) = (s, start.get()) {
            judge_steps(
                judging,
                report,
                summary,
                s,
                moves,
                Default::default(),
                Vec::new(),
            );
        }
    });
    let spec = Signal::derive(move || {
        setups.with(|(all, i)| match all.get(*i) {
            Some(s) => report.with(|g| {
                summary.with(|sum| {
                    let e = moves
                        .with(|m| history::entries(&g.report, sum, s, m.as_deref().unwrap_or(&[])));
                    options.with(|o| chart_spec::trend(sum, s, &e, o))
                })
            }),
            None => chart_spec::ChartSpec::empty(tpsview_core::vocabulary::ChartKind::Trend),
        })
    });
    move || {
        setups.with(|(all, i)| {
            let s = all.get(*i)?;
            let names: Vec<(String, usize)> = all.iter().map(|s| (s.name.clone(), s.runs.len())).collect();
            let (entries, ids, dates) = report.with(|g| {
                summary.with(|sum| {
                    let e = moves.with(|m| history::entries(&g.report, sum, s, m.as_deref().unwrap_or(&[])));
                    let ids: Vec<String> = e.iter().map(|e| sum.runs[e.run].id.to_string()).collect();
                    let mut d: Vec<&str> = e.iter().filter_map(|e| e.date.as_deref()).collect();
                    d.sort_unstable();
                    d.dedup();
                    (e.clone(), ids, d.len())
                })
            });
            let judged = moves.with(Option::is_some);
            let picked_now = *i;
            Some(view! {
                <section aria-labelledby="h-trend" data-testid="trend" data-judged=if judged { "done" } else { "pending" }>
                    <h2 id="h-trend">"Trend: runs of one setup over time"</h2>
                    <p class="viewer-page-note">{format!(
                        "{} runs of {} on {dates} dates, in date order: each run's peak system T/s and best per-stream T/s, and each run judged against the one before it as `tpsview compare --history` judges it.",
                        s.runs.len(), s.name
                    )}</p>
                    {(names.len() > 1).then(|| view! {
                        <label>
                            "Setup "
                            <select data-testid="trend-setup" aria-label="setup shown in the trend"
                                on:change=move |ev| {
                                    if let Ok(i) = event_target_value(&ev).parse() {
                                        picked.set(i);
                                    }
                                }>
                                {names.into_iter().enumerate().map(|(k, (name, n))| view! {
                                    <option value=k.to_string() selected=k == picked_now>{format!("{name} ({n} runs)")}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    })}
                    <div class="chart-slot">
                        <Chart spec=spec label="each run's peak system and best per-stream tokens per second, in date order" on_error=on_error/>
                    </div>
                    <TrendTable entries=entries ids=ids judged=judged/>
                </section>
            })
        })
    }
}
