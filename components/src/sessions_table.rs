//! A level's sessions in figures: how many, their turns and rate, the first turn's TTFT (a cold
//! prefix cache) against the later turns' (warm), each session's duration and its prefix-cache hit
//! rate — every figure from `tpsview_core::metrics::turns`, "–" where undefined.

use leptos::prelude::*;
use tpsview_core::metrics::turns::Turns;
use tpsview_core::stats::Dist;

use crate::format::fmt_num;

/// The figures of one level that has sessions (`turns.sessions`).
#[component]
pub fn SessionsTable(
    /// The level's figures of 2026.
    turns: Turns,
) -> impl IntoView {
    let Some(s) = turns.sessions else {
        return ().into_any();
    };
    let row = |label: &'static str, d: &Dist, k: f64, digits: usize| {
        let cell = move |v: Option<f64>| fmt_num(v.map(|v| v * k), digits);
        view! {
            <tr>
                <th scope="row">{label}</th>
                <td data-label="mean">{cell(d.mean)}</td>
                <td data-label="p50">{cell(d.p50)}</td>
                <td data-label="p90">{cell(d.p90)}</td>
            </tr>
        }
    };
    let line = format!(
        "{} sessions, {} turns each on average, {} sessions/s{}",
        s.count,
        fmt_num(Some(s.turns_mean), 1),
        fmt_num(s.per_s, 2),
        turns.cache_hit_rate.map_or_else(String::new, |h| format!(
            "; the prefix cache held {} % of all prompt tokens (token-weighted)",
            fmt_num(Some(h * 100.0), 1)
        ))
    );
    view! {
        <div class="sessions-figures" data-testid="sessions-figures" data-count=s.count>
            <p>{line}</p>
            <p class="viewer-page-note" id="sessions-caption">"Sessions at this level: a cold first turn against the warm turns after it"</p>
            <table class="summary-table sessions-table" aria-describedby="sessions-caption">
                <thead><tr><th scope="col">""</th><th scope="col">"mean"</th><th scope="col">"p50"</th><th scope="col">"p90"</th></tr></thead>
                <tbody>
                    {row("TTFT, first turn (ms)", &s.ttft_first_turn_ms, 1.0, 0)}
                    {row("TTFT, later turns (ms)", &s.ttft_later_turns_ms, 1.0, 0)}
                    {row("session duration (s)", &s.duration_s, 1.0, 2)}
                    {row("prefix-cache hit rate per session (%)", &s.cache_hit_rate, 100.0, 1)}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
