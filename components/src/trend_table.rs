//! A history's runs in order under its trend chart: each run's date, headline figures and what
//! moved beyond noise against the run before. Entries come from `tpsview_core::noise::history`.

use leptos::prelude::*;
use tpsview_core::noise::history::Entry;
use tpsview_core::noise::Judged;

use crate::format::{fmt_num, fmt_value};

/// The most moves a cell's title lists (the rest are counted).
const LISTED: usize = 12;

fn listed(moves: &[Judged]) -> String {
    let mut out: Vec<String> = moves
        .iter()
        .take(LISTED)
        .map(|j| {
            let change = j.change.map_or_else(
                || "–".to_owned(),
                |c| {
                    format!(
                        "{:+.1} % ({:+.1} … {:+.1})",
                        c.change_pct, c.low_pct, c.high_pct
                    )
                },
            );
            format!(
                "{} at {}: {change}",
                j.metric.label(),
                fmt_num(Some(j.concurrency), 0)
            )
        })
        .collect();
    if moves.len() > LISTED {
        out.push(format!("and {} more", moves.len() - LISTED));
    }
    out.join("; ")
}

/// The table (`data-testid="trend-table"`): one `trend-row` per run in order (`data-run`,
/// `data-place`, `data-regressions`, `data-improvements`, `data-judged`), the figures' unrounded
/// values in `data-value`.
#[component]
pub fn TrendTable(
    /// The history's runs, in order.
    entries: Vec<Entry>,
    /// Each entry's run id.
    ids: Vec<String>,
    /// False while the moves are being judged.
    judged: bool,
) -> impl IntoView {
    let at = |v: Option<(f64, Option<f64>)>, decimals: usize| {
        let text = match v {
            Some((x, Some(c))) => {
                format!("{} at {}", fmt_num(Some(x), decimals), fmt_num(Some(c), 0))
            }
            Some((x, None)) => fmt_num(Some(x), decimals),
            None => "–".to_owned(),
        };
        view! { <td data-value=fmt_value(v.map(|v| v.0))>{text}</td> }
    };
    // Past `many::PAGE` runs (a year of nightly runs) the table pages.
    let n = entries.len();
    let page = RwSignal::new(0usize);
    let data = StoredValue::new((entries, ids));
    let rows = move || {
        let shown = crate::many::page_range(n, page.get());
        data.with_value(|(entries, ids)| {
            entries[shown.clone()]
                .iter()
                .zip(&ids[shown.clone()])
                .zip(shown.clone())
                .map(|((e, name), k)| {
                    let key = name.clone();
                    let name = name.clone();
                    let moved = if k == 0 {
                        "first run".to_owned()
                    } else if !judged {
                        "judging…".to_owned()
                    } else if e.regressions.is_empty() && e.improvements.is_empty() {
                        format!("nothing beyond noise ({} figures judged)", e.judged)
                    } else {
                        format!("of {} judged", e.judged)
                    };
            let badge = |moves: &[Judged], class: &'static str, arrow: &str, word: &str| {
                (!moves.is_empty()).then(|| view! {
                    <span class=class title=listed(moves)>{format!("{arrow} {} {word}", moves.len())}</span>" "
                })
            };
            view! {
                <tr data-testid="trend-row" data-run=key data-place=k + 1
                    data-regressions=e.regressions.len() data-improvements=e.improvements.len() data-judged=e.judged>
                    <td>{k + 1}</td>
                    <th scope="row">{name}</th>
                    <td>{e.date.clone().unwrap_or_else(|| "–".to_owned())}</td>
                    {at(e.peak_system, 0)}
                    {at(e.best_per_stream, 1)}
                    <td>
                        {badge(&e.regressions, "diff-table-worse", "▼", "worse")}
                        {badge(&e.improvements, "diff-table-better", "▲", "better")}
                        {moved}
                    </td>
                </tr>
            }
        })
        .collect_view()
        })
    };
    view! {
        <div class="summary-table-wrap" tabindex="0" role="region" aria-label="the runs of the history (scrolls sideways)">
            <table class="diff-table" data-testid="trend-table">
                <caption>{format!(
                    "each run against the one before it: ▼ worse / ▲ better beyond noise ({:.0} % interval excludes 0, change over {} %; hover for the figures)",
                    tpsview_core::noise::CONFIDENCE * 100.0,
                    fmt_num(Some(tpsview_core::noise::DEFAULT_THRESHOLD_PCT), 0)
                )}</caption>
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        <th scope="col">"run"</th>
                        <th scope="col">"date"</th>
                        <th scope="col">"peak system T/s"</th>
                        <th scope="col">"best per-stream T/s"</th>
                        <th scope="col">"against the run before"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {crate::many::pager(Signal::stored(n), page, "trend-table-pager")}
    }
}
