//! The baseline diff: for each other run and level, each figure's ratio and % change against the
//! baseline, interpolated cells marked, and each change's verdict against noise. Numbers come
//! from `tpsview_core::compare`, verdicts from `tpsview_core::noise`.

use std::collections::HashMap;

use leptos::prelude::*;
use tpsview_core::compare::{Comparison, COMPARED};
use tpsview_core::noise::{Judged, Verdict, CONFIDENCE};
use tpsview_core::vocabulary::{Metric, RunId};

use crate::format::{fmt_num, fmt_value};

/// The diff table (`data-testid="diff-table"`); rows carry `data-run` and `data-concurrency`,
/// cells `data-metric`, the unrounded `data-ratio` and `data-change`, `data-interpolated="true"`
/// where interpolated, and where judged `data-verdict` (`regression`, `improvement`,
/// `within_noise`) with its badge; the interval, or why a figure is not judged, in the cell's
/// title. Its cells are the page's most numerous elements: each attribute costs a string handed
/// to the DOM, so they carry no more than these.
#[component]
pub fn DiffTable(
    /// The comparison, or none (fewer than two runs).
    #[prop(into)]
    comparison: Signal<Option<Comparison>>,
    /// The verdicts of the comparison's cells (`noise::judge` against its baseline).
    #[prop(into)]
    verdicts: Signal<Vec<Judged>>,
) -> impl IntoView {
    // Past `many::PAGE` rows the table pages (dozens of runs × their levels).
    let page = RwSignal::new(0usize);
    let rows = Signal::derive(move || {
        comparison.with(|c| {
            c.as_ref()
                .map_or(0, |c| c.runs.iter().map(|r| r.rows.len()).sum())
        })
    });
    let table = move || {
        verdicts.with(|v| {
        // Each judged figure by run, level and metric (borrowed: the view is built at once).
        let judged: HashMap<(&RunId, u64, Metric), &Judged> = v
            .iter()
            .map(|j| ((&j.run, j.concurrency.to_bits(), j.metric), j))
            .collect();
        let judged = &judged;
        comparison.with(|c| {
            c.as_ref().map(|c| {
                view! {
                    <div class="summary-table-wrap" tabindex="0" role="region" aria-label="the baseline diff (scrolls sideways)">
                        <table class="diff-table" data-testid="diff-table">
                            <caption>{format!(
                                "% change against “{}”{} — ~ marks a baseline value interpolated between two of its levels (log₂ concurrency). worse / better: beyond noise ({:.0} % interval over requests excludes 0) and over {} %; ≈: within noise; unmarked: not judged (why in its title)",
                                c.baseline,
                                if c.per_gpu { ", system-wide figures per GPU" } else { "" },
                                CONFIDENCE * 100.0,
                                fmt_num(Some(tpsview_core::noise::DEFAULT_THRESHOLD_PCT), 0)
                            )}</caption>
                            <thead>
                                <tr>
                                    <th scope="col">"run"</th>
                                    <th scope="col">"concurrency"</th>
                                    {COMPARED.iter().map(|m| view! { <th scope="col" data-metric=m.key()>{format!("{} ({})", m.label(), m.unit())}</th> }).collect_view()}
                                </tr>
                            </thead>
                            <tbody>
                                {c.runs.iter().flat_map(|r| r.rows.iter().map(move |row| (r, row)))
                                    .skip(crate::many::page_range(rows.get(), page.get()).start)
                                    .take(crate::many::page_range(rows.get(), page.get()).len())
                                    .map(|(r, row)| {
                                    let label = r.label.to_string();
                                    view! {
                                        <tr data-run=label.clone() data-concurrency=fmt_value(Some(row.concurrency))>
                                            <th scope="row">{label.clone()}</th>
                                            <td>{fmt_num(Some(row.concurrency), 0)}</td>
                                            {row.cells.iter().map(|cell| {
                                                let text = cell.change_pct.map(|p| format!(
                                                    "{}{}{} %",
                                                    if cell.interpolated { "~" } else { "" },
                                                    if p >= 0.0 { "+" } else { "−" },
                                                    fmt_num(Some(p.abs()), 1)
                                                ));
                                                let mut title = match (cell.value, cell.baseline) {
                                                    (Some(v), Some(b)) => format!("{} vs baseline {}{}", fmt_num(Some(v), 2), fmt_num(Some(b), 2), if cell.interpolated { " (interpolated)" } else { "" }),
                                                    (Some(_), None) => "the baseline has no level around this one".to_owned(),
                                                    _ => "no value".to_owned(),
                                                };
                                                let j = judged.get(&(&r.label, row.concurrency.to_bits(), cell.metric));
                                                let verdict = j.and_then(|j| j.verdict);
                                                if let Some(j) = j {
                                                    title.push_str(&judgement(j));
                                                }
                                                view! {
                                                    <td data-testid="diff-cell"
                                                        data-metric=cell.metric.key() data-ratio=fmt_value(cell.ratio) data-change=fmt_value(cell.change_pct)
                                                        data-interpolated=cell.interpolated.then_some("true")
                                                        data-verdict=verdict.map(Verdict::key)
                                                        class:diff-table-better=cell.better == Some(true)
                                                        class:diff-table-worse=cell.better == Some(false)
                                                        title=title>
                                                        {text.unwrap_or_else(|| "–".into())}
                                                        {verdict.map(badge)}
                                                    </td>
                                                }
                                            }).collect_view()}
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })
        })
        })
    };
    view! {
        {table}
        {crate::many::pager(rows, page, "diff-table-pager")}
    }
}

/// A verdict's key, as `tpsview compare --json` writes it.
/// A verdict's badge.
fn badge(v: Verdict) -> impl IntoView {
    let text = match v {
        Verdict::Regression => "worse",
        Verdict::Improvement => "better",
        Verdict::WithinNoise => "≈",
    };
    view! { <span class="diff-badge" data-verdict=v.key()>{text}</span> }
}

/// What a cell's title adds about its verdict: the interval, or why it is not judged.
fn judgement(j: &Judged) -> String {
    let pct = |p: f64| {
        format!(
            "{}{} %",
            if p >= 0.0 { "+" } else { "−" },
            fmt_num(Some(p.abs()), 1)
        )
    };
    match (&j.change, j.verdict, &j.not_judged) {
        (Some(c), Some(v), _) => format!(
            "\n{:.0} % interval {} … {}{}: {}",
            CONFIDENCE * 100.0,
            pct(c.low_pct),
            pct(c.high_pct),
            j.repeats.map_or(String::new(), |[a, b]| format!(
                " of the change of the means over {b} repeats against {a} ({})",
                pct(c.change_pct)
            )),
            match v {
                Verdict::Regression => "a regression",
                Verdict::Improvement => "an improvement",
                Verdict::WithinNoise => "within noise",
            }
        ),
        (_, _, Some(why)) => format!("\nnot judged: {why}"),
        _ => String::new(),
    }
}
