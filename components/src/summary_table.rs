//! The summary table: one row per point, every metric with its unit and aggregation scope, the
//! unrounded value in `data-value`, and the tool's own figure flagged where it disagrees.

use leptos::prelude::*;
use tpsview_core::summary::{IntervalOver, PointSummary, Summary};
use tpsview_core::vocabulary::{Latency, Metric, Stat};

use crate::format::{fmt_num, fmt_value};

/// The columns: each metric (its header, unit, scope, glossary term and definition come from
/// the vocabulary) with the decimals it is shown with.
const COLS: [(Metric, usize); 9] = [
    (Metric::RequestsOk, 0),
    (Metric::SystemTps, 0),
    (Metric::PerStreamTps, 1),
    (Metric::Latency(Latency::Tpot, Stat::Mean), 2),
    (Metric::Latency(Latency::Tpot, Stat::P99), 2),
    (Metric::Latency(Latency::Ttft, Stat::Mean), 1),
    (Metric::Latency(Latency::Itl, Stat::Mean), 2),
    (Metric::Latency(Latency::E2e, Stat::Mean), 0),
    (Metric::ConcurrencyAchieved, 1),
];

/// Renders every point of every run as a row.
#[component]
pub fn SummaryTable(
    /// The summary to show.
    summary: Signal<Summary>,
) -> impl IntoView {
    // Past `many::PAGE` rows the table pages: a sweep of hundreds of levels stays one screen.
    let page = RwSignal::new(0usize);
    let rows = Signal::derive(move || {
        summary.with(|s| s.runs.iter().map(|r| r.points.len()).sum::<usize>())
    });
    view! {
        <p class="summary-table-caption" id="summary-table-caption">"Every figure recomputed from the raw per-request data (or shown as reported where a file has none). ≠ marks a figure the tool printed differently (its value beneath), ✓ one it printed the same (hover for it); – is undefined (hover for why). The table scrolls sideways."</p>
        <div class="summary-table-wrap" tabindex="0" role="region" aria-label="every figure (scrolls sideways)">
            <table class="summary-table" data-testid="summary-table" aria-describedby="summary-table-caption">
                <thead>
                    <tr>
                        <th scope="col">"run"</th>
                        <th scope="col">"concurrency"</th>
                        {COLS.iter().map(|&(m, _)| view! {
                            <th scope="col" title=m.definition() data-scope=m.scope().name()>
                                <a href=format!("#glossary-{}", m.term()) class="summary-table-term">{m.label()}</a><span class="summary-table-unit">{format!(" {}", m.unit())}</span>
                                <span class="summary-table-scope">{m.scope().name()}</span>
                            </th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {move || summary.with(|s| {
                        let shown = crate::many::page_range(rows.get(), page.get());
                        s.runs.iter().flat_map(|run| run.points.iter().map(move |p| (run, p)))
                            .skip(shown.start).take(shown.len())
                            .map(|(run, p)| row(&run.id.to_string(), p))
                            .collect_view()
                    })}
                </tbody>
            </table>
        </div>
        {crate::many::pager(rows, page, "summary-table-pager")}
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
            <td data-label="concurrency">{conc_text}</td>
            {COLS.iter().map(|&(metric, decimals)| {
                let v = p.get(metric);
                let disc = p.discrepancies.iter().find(|d| d.metric == metric && !d.tool_defined);
                // The tool's own figure, when the recomputation had raw data to compare it with.
                let tool = (!reported_basis).then(|| p.reported_as(metric)).flatten();
                let title = match (disc, v, tool) {
                    (Some(d), _, _) => format!(
                        "tool's {} = {}; recomputed {} ({:+.2} %). Likely cause: {}",
                        d.tool_metric, d.reported, d.recomputed, d.relative_diff * 100.0, d.likely_cause
                    ),
                    (None, None, _) => p.why_undefined(metric).to_owned(),
                    (None, _, _) if reported_basis => "as reported by the tool (no per-request data)".to_owned(),
                    (None, _, Some((name, r))) => format!("{} — the tool's {name} agrees: {}", metric.definition(), fmt_num(Some(r), decimals)),
                    (None, _, None) => metric.definition().to_owned(),
                };
                let label = format!("{} ({})", metric.label(), metric.unit());
                // The figure's 99 % interval where it has one: ± its half-width, what it is over
                // and its bounds in the title (over the setup's repeats it is the mean's).
                let iv = p.interval_of(metric);
                view! {
                    <td data-metric=metric.key() data-value=fmt_value(v) title=title data-label=label
                        class:summary-table-differs=disc.is_some()
                        class:summary-table-reported=reported_basis>
                        {fmt_num(v, decimals)}
                        {disc.map(|_| view! { <span class="summary-table-flag" aria-label="differs from the tool's figure">" ≠"</span> })}
                        {iv.map(|iv| {
                            let bounds = format!("{:.0} % interval {} … {}", tpsview_core::noise::CONFIDENCE * 100.0,
                                fmt_num(Some(iv.low), decimals), fmt_num(Some(iv.high), decimals));
                            let (testid, title) = match iv.over {
                                IntervalOver::Repeats(n) => ("over-repeats", format!("its setup over {n} repeats: the mean's {bounds} (Student t)")),
                                IntervalOver::Requests => ("over-requests", format!("over this level's requests: {bounds} (bootstrap)")),
                            };
                            view! {
                                <span class="summary-table-repeats" data-testid=testid data-low=fmt_value(Some(iv.low)) data-high=fmt_value(Some(iv.high)) title=title>
                                    {format!(" ±{}", fmt_num(Some(iv.half_width()), decimals))}
                                </span>
                            }
                        })}
                        // The tool's own value only where it differs; a tick where it agrees.
                        {tool.map(|(name, r)| if disc.is_some() {
                            view! {
                                <span class="summary-table-tool" data-reported=fmt_value(Some(r)) title=format!("the tool's {name}")>
                                    {format!("tool: {}", fmt_num(Some(r), decimals))}
                                </span>
                            }.into_any()
                        } else {
                            view! {
                                <span class="summary-table-agrees" data-reported=fmt_value(Some(r))
                                    aria-label=format!("the tool's {name} agrees")>" ✓"</span>
                            }.into_any()
                        })}
                    </td>
                }
            }).collect_view()}
        </tr>
    }
}
