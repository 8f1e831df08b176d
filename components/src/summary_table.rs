//! The summary table: one row per point, every metric with its unit and aggregation scope, the
//! unrounded value in `data-value`, and the tool's own figure flagged where it disagrees.

use leptos::prelude::*;
use tpsview_core::summary::{PointSummary, Summary};

use crate::format::{fmt_num, fmt_value};

/// A column: metric name (as in docs/metrics.md), header, unit, scope, decimals, definition.
struct Col {
    metric: &'static str,
    /// Glossary anchor.
    term: &'static str,
    header: &'static str,
    unit: &'static str,
    scope: &'static str,
    decimals: usize,
    definition: &'static str,
}

const COLS: &[Col] = &[
    Col { metric: "requests_ok", term: "concurrency", header: "ok", unit: "requests", scope: "run", decimals: 0, definition: "completed requests with usable data; failed ones are counted apart and never averaged in" },
    Col { metric: "system_tps", term: "system", header: "system", unit: "T/s", scope: "system", decimals: 0, definition: "Σ output tokens of all requests / duration (first send → last token)" },
    Col { metric: "per_stream_tps", term: "per-stream", header: "per-stream", unit: "T/s", scope: "per-stream", decimals: 1, definition: "1 / mean TPOT: one request's decode rate" },
    Col { metric: "tpot_mean_ms", term: "tpot", header: "TPOT mean", unit: "ms", scope: "per-stream", decimals: 2, definition: "(e2e − ttft) / (output tokens − 1), mean over requests" },
    Col { metric: "tpot_p99_ms", term: "tpot", header: "TPOT p99", unit: "ms", scope: "per-stream", decimals: 2, definition: "99th percentile of per-request TPOT (numpy linear)" },
    Col { metric: "ttft_mean_ms", term: "ttft", header: "TTFT mean", unit: "ms", scope: "per-stream", decimals: 1, definition: "first token's arrival − send time, mean" },
    Col { metric: "itl_mean_ms", term: "itl", header: "ITL mean", unit: "ms", scope: "per-stream", decimals: 2, definition: "gaps between streamed chunks, pooled over all requests; a chunk may carry several tokens" },
    Col { metric: "e2e_mean_ms", term: "e2e", header: "E2E mean", unit: "ms", scope: "per-stream", decimals: 0, definition: "last token's arrival − send time, mean" },
    Col { metric: "concurrency_achieved", term: "concurrency", header: "achieved conc.", unit: "streams", scope: "system", decimals: 1, definition: "Σ e2e / duration (Little's law)" },
];

/// Renders every point of every run as a row.
#[component]
pub fn SummaryTable(
    /// The summary to show.
    summary: Signal<Summary>,
) -> impl IntoView {
    view! {
        <div class="summary-table-wrap">
            <table class="summary-table" data-testid="summary-table">
                <caption>"Every figure recomputed from the raw per-request data (or shown as reported where a file has none)"</caption>
                <thead>
                    <tr>
                        <th scope="col">"run"</th>
                        <th scope="col">"concurrency"</th>
                        {COLS.iter().map(|c| view! {
                            <th scope="col" title=c.definition data-scope=c.scope>
                                <a href=format!("#glossary-{}", c.term) class="summary-table-term">{c.header}</a><span class="summary-table-unit">{format!(" {}", c.unit)}</span>
                                <span class="summary-table-scope">{c.scope}</span>
                            </th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {move || summary.with(|s| s.runs.iter().flat_map(|run| {
                        let label = run.label.clone();
                        run.points.iter().map(move |p| row(&label, p)).collect::<Vec<_>>()
                    }).collect_view())}
                </tbody>
            </table>
        </div>
    }
}

fn row(run: &str, p: &PointSummary) -> impl IntoView {
    let conc = p.metrics.concurrency;
    let conc_text = match (conc, p.metrics.request_rate) {
        (Some(c), _) => fmt_num(Some(c), 0),
        (None, Some(r)) if r.is_infinite() => "rate ∞".to_owned(),
        (None, Some(r)) => format!("{} req/s", fmt_num(Some(r), 1)),
        _ => "?".to_owned(),
    };
    let reported_basis = p.metrics.basis == tpsview_core::metrics::Basis::Reported;
    view! {
        <tr data-testid="summary-row" data-run=run.to_owned() data-concurrency=fmt_value(conc)>
            <th scope="row">{run.to_owned()}</th>
            <td>{conc_text}</td>
            {COLS.iter().map(|c| {
                let v = p.get(c.metric);
                let disc = p.discrepancies.iter().find(|d| d.metric == c.metric && !d.tool_defined);
                // The tool's own figure, when the recomputation had raw data to compare it with.
                let tool = (!reported_basis).then(|| p.reported_as(c.metric)).flatten();
                let title = match disc {
                    Some(d) => format!(
                        "tool's {} = {}; recomputed {} ({:+.2} %). Likely cause: {}",
                        d.tool_metric, d.reported, d.recomputed, d.relative_diff * 100.0, d.likely_cause
                    ),
                    None if reported_basis => "as reported by the tool (no per-request data)".to_owned(),
                    None => c.definition.to_owned(),
                };
                view! {
                    <td data-metric=c.metric data-value=fmt_value(v) title=title
                        class:summary-table-differs=disc.is_some()
                        class:summary-table-reported=reported_basis>
                        {fmt_num(v, c.decimals)}
                        {disc.map(|_| view! { <span class="summary-table-flag" aria-label="differs from the tool's figure">" ≠"</span> })}
                        {tool.map(|(name, r)| view! {
                            <span class="summary-table-tool" data-reported=fmt_value(Some(r)) title=format!("the tool's {name}")>
                                {format!("tool: {}", fmt_num(Some(r), c.decimals))}
                            </span>
                        })}
                    </td>
                }
            }).collect_view()}
        </tr>
    }
}
