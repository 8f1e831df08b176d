//! The SLO table: each level of each run against the SLO the user set — attainment, goodput,
//! whether it meets it, the cost of a million output tokens, and the tool's own goodput beside
//! tpsview's. Every value comes from `tpsview_core::slo` (through the summary's points); an
//! undefined one is "–" with its reason.

use leptos::prelude::*;
use tpsview_core::slo::{why_no_attainment, Slo, SloPoint};
use tpsview_core::summary::Summary;

use crate::format::{fmt_num, fmt_value};

/// A level's SLO cells: attainment, goodput (requests and tokens per second), met.
fn slo_cells(slo: &Slo, e: &SloPoint) -> impl IntoView {
    let why = why_no_attainment(e, slo).unwrap_or_default();
    let per_request = slo.has_request_targets();
    let met = match e.met {
        Some(true) => "yes",
        Some(false) => "no",
        None => "–",
    };
    let met_why = tpsview_core::slo::why_met_unknown(e, slo).unwrap_or_default();
    // Checked against the tool's own statistics (a summary-only file): said beside the answer.
    let tool_stats = e.from_tool_figures && e.met.is_some();
    view! {
        {per_request.then(|| view! {
            <td data-label="attainment" data-testid="slo-attainment" data-value=fmt_value(e.attainment) title=why>
                {e.attainment.map_or_else(|| "–".to_owned(), |a| format!("{:.1} %", a * 100.0))}
            </td>
            <td data-label="goodput req/s" data-testid="slo-goodput-rps" data-value=fmt_value(e.goodput_rps)>{fmt_num(e.goodput_rps, 3)}</td>
            <td data-label="goodput T/s" data-testid="slo-goodput-tps" data-value=fmt_value(e.goodput_tps)>{fmt_num(e.goodput_tps, 0)}</td>
        })}
        <td data-label="meets the SLO" data-testid="slo-met" title=met_why>{met}{tool_stats.then_some(" (tool's statistics)")}</td>
    }
}

/// The levels of every run against `slo`, with their cost.
#[component]
pub fn SloTable(
    /// The summary, its points evaluated against `slo` (and priced, when a price was given).
    summary: Signal<Summary>,
    /// The SLO, when one is set (without one the table shows the cost of each level).
    slo: Signal<Option<Slo>>,
) -> impl IntoView {
    let priced = move || {
        summary.with(|s| {
            s.runs
                .iter()
                .flat_map(|r| &r.points)
                .any(|p| p.usd_per_million_output_tokens.is_some())
        })
    };
    let tool = move || {
        summary.with(|s| {
            s.runs
                .iter()
                .flat_map(|r| &r.points)
                .any(|p| p.slo.is_some_and(|e| e.tool_goodput.is_some()))
        })
    };
    let rows = move || {
        let slo = slo.get();
        let tool = tool() && slo.is_some();
        summary.with(|s| {
            s.runs
                .iter()
                .flat_map(|r| r.points.iter().map(move |p| (r, p)))
                .map(|(r, p)| {
                    let slo_cells = slo.as_ref().zip(p.slo).map(|(slo, e)| slo_cells(slo, &e));
                    let met = p.slo.and_then(|e| e.met);
                    let cost = p.usd_per_million_output_tokens.map(|u| {
                        let why = if u.is_none() {
                            "no GPU count for this run, or no system T/s: enter the GPUs it used"
                        } else {
                            ""
                        };
                        view! { <td data-label="USD per million output tokens" data-value=fmt_value(u) title=why>{u.map_or_else(|| "–".to_owned(), |u| format!("${u:.3}"))}</td> }
                    });
                    let tool_cell = tool.then(|| {
                        let t = p.slo.and_then(|e| e.tool_goodput);
                        let text = t.map_or_else(
                            || "–".to_owned(),
                            |t| match t.relative_diff {
                                Some(_) if t.agrees == Some(true) => format!("{} req/s ✓", fmt_num(Some(t.reported_rps), 3)),
                                Some(d) => format!("{} req/s ≠ ({:+.1} %)", fmt_num(Some(t.reported_rps), 3), d * 100.0),
                                None => format!("{} req/s", fmt_num(Some(t.reported_rps), 3)),
                            },
                        );
                        let title = t.map_or("", |t| match t.agrees {
                            Some(true) => "the tool's goodput equals tpsview's under this SLO",
                            Some(false) => "differs: the tool counted under the SLO it was given, which its file does not record; set the same per-request targets to compare",
                            None => "tpsview has no goodput to compare under this SLO (it needs per-request targets and each request's latencies)",
                        });
                        view! {
                            <td data-label="the tool's own goodput" data-testid="slo-tool-goodput" data-key=t.map(|t| t.key).unwrap_or_default()
                                data-agrees=t.and_then(|t| t.agrees).map(|a| a.to_string()).unwrap_or_default()
                                title=title>{text}</td>
                        }
                    });
                    let level = p.metrics.concurrency;
                    view! {
                        <tr data-testid="slo-row" data-run=r.id.to_string() data-concurrency=fmt_value(level)
                            data-met=met.map(|m| m.to_string()).unwrap_or_default()
                            class:slo-met=met == Some(true)>
                            <th scope="row">{r.id.to_string()}</th>
                            <td data-label="concurrency" data-value=fmt_value(level)>{fmt_num(level, 0)}</td>
                            <td data-label="system T/s" data-value=fmt_value(p.metrics.system_tps)>{fmt_num(p.metrics.system_tps, 0)}</td>
                            {slo_cells}
                            {cost}
                            {tool_cell}
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <p class="summary-table-caption" id="slo-table-caption">"Each level against the SLO. Attainment: the share of all its requests (failed ones count as missing) within every per-request target; goodput: those requests, and their output tokens, per second. – is undefined (hover for why); \u{201c}tool's statistics\u{201d}: the file has no per-request data, so level targets were checked against the percentiles the tool printed."</p>
        <div class="summary-table-wrap">
            <table class="summary-table slo-table" data-testid="slo-table" aria-describedby="slo-table-caption">
                <thead>
                    <tr>
                        <th scope="col">"run"</th>
                        <th scope="col">"concurrency"</th>
                        <th scope="col">"system T/s"</th>
                        {move || slo.with(|s| s.as_ref().is_some_and(Slo::has_request_targets)).then(|| view! {
                            <th scope="col">"attainment"</th>
                            <th scope="col">"goodput req/s"</th>
                            <th scope="col">"goodput T/s"</th>
                        })}
                        {move || slo.with(Option::is_some).then(|| view! { <th scope="col">"meets the SLO"</th> })}
                        {move || priced().then(|| view! { <th scope="col">"USD per million output tokens"</th> })}
                        {move || tool().then(|| view! { <th scope="col">"the tool's own goodput"</th> })}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
