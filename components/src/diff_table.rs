//! The baseline diff: for each other run and level, each figure's ratio and % change against the
//! baseline, interpolated cells marked. Numbers come from `tpsview_core::compare`.

use leptos::prelude::*;
use tpsview_core::compare::{Comparison, COMPARED};

use crate::format::{fmt_num, fmt_value};

/// The diff table (`data-testid="diff-table"`); cells carry `data-run`, `data-concurrency`,
/// `data-metric`, the unrounded `data-ratio` and `data-change`, and `data-interpolated`.
#[component]
pub fn DiffTable(
    /// The comparison, or none (fewer than two runs).
    comparison: Signal<Option<Comparison>>,
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
        comparison.with(|c| {
            c.as_ref().map(|c| {
                view! {
                    <div class="summary-table-wrap" tabindex="0" role="region" aria-label="the baseline diff (scrolls sideways)">
                        <table class="diff-table" data-testid="diff-table">
                            <caption>{format!(
                                "% change against “{}”{} — ~ marks a baseline value interpolated between two of its levels (log₂ concurrency)",
                                c.baseline,
                                if c.per_gpu { ", system-wide figures per GPU" } else { "" }
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
                                                let title = match (cell.value, cell.baseline) {
                                                    (Some(v), Some(b)) => format!("{} vs baseline {}{}", fmt_num(Some(v), 2), fmt_num(Some(b), 2), if cell.interpolated { " (interpolated)" } else { "" }),
                                                    (Some(_), None) => "the baseline has no level around this one".to_owned(),
                                                    _ => "no value".to_owned(),
                                                };
                                                view! {
                                                    <td data-testid="diff-cell" data-run=label.clone() data-concurrency=fmt_value(Some(row.concurrency))
                                                        data-metric=cell.metric.key() data-ratio=fmt_value(cell.ratio) data-change=fmt_value(cell.change_pct)
                                                        data-interpolated=cell.interpolated.to_string()
                                                        class:diff-table-better=cell.better == Some(true)
                                                        class:diff-table-worse=cell.better == Some(false)
                                                        title=title>
                                                        {text.unwrap_or_else(|| "–".into())}
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
    };
    view! {
        {table}
        {crate::many::pager(rows, page, "diff-table-pager")}
    }
}
