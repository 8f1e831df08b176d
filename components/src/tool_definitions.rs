//! Beside the numbers of a file from another tool: how that tool defines each of its figures,
//! which tpsview metric it corresponds to, its value at each level, and whether tpsview's
//! recomputation under the tool's own definition agrees.

use leptos::prelude::*;
use tpsview_core::formats::vocabulary;
use tpsview_core::summary::{RunSummary, Summary};
use tpsview_core::vocabulary::{Figure, Vocabulary};

use crate::format::{fmt_num, fmt_value};

/// One block per (run, tool) with a known vocabulary.
#[component]
pub fn ToolDefinitions(
    /// The summary to explain.
    summary: Signal<Summary>,
) -> impl IntoView {
    // One block per run and tool: past a dozen runs, behind one control with a filter (`many`).
    let filter = RwSignal::new(String::new());
    let count = Signal::derive(move || summary.with(|s| s.runs.len()));
    let blocks = move || {
        summary.with(|s| {
            s.runs
                .iter()
                .filter(|run| crate::many::kept(&run.id.to_string(), &filter.get()))
                .flat_map(|run| {
                    let mut tools: Vec<&str> = Vec::new();
                    for p in &run.points {
                        if !p.reported.is_empty() && !tools.contains(&p.reported_tool.as_str()) {
                            tools.push(&p.reported_tool);
                        }
                    }
                    tools
                        .into_iter()
                        .filter_map(vocabulary)
                        .map(|v| block(run, v))
                        .collect::<Vec<_>>()
                })
                .collect_view()
        })
    };
    crate::many::collapsible(
        count,
        "runs' definitions",
        "tool-definitions-many",
        filter,
        blocks,
    )
}

fn digits(v: f64) -> usize {
    match v.abs() {
        x if x >= 100.0 => 1,
        x if x >= 1.0 => 3,
        _ => 5,
    }
}

/// A tool figure's cell: its value, and the audit's mark (`class`: agrees, differs, unchecked)
/// with the reason on hover.
fn audit_cell(
    value: Option<f64>,
    mark: &'static str,
    class: &'static str,
    title: String,
) -> impl IntoView {
    view! {
        <td data-value=fmt_value(value) data-audit=class title=title>
            {value.map(|x| fmt_num(Some(x), digits(x)))}
            <span class="tool-definitions-mark">{mark}</span>
        </td>
    }
}

fn block(run: &RunSummary, v: &'static Vocabulary) -> impl IntoView {
    let points: Vec<_> = run
        .points
        .iter()
        .filter(|p| p.reported_tool == v.tool)
        .collect();
    // One row per tool key present at some level; a key mapped to two metrics names both.
    let mut rows: Vec<(&Figure, Vec<&str>)> = Vec::new();
    for f in v.figures() {
        if !points.iter().any(|p| p.reported.contains_key(f.tool_key)) {
            continue;
        }
        match rows.iter_mut().find(|(g, _)| g.tool_key == f.tool_key) {
            Some((_, names)) => names.push(f.canonical.key()),
            None => rows.push((f, vec![f.canonical.key()])),
        }
    }
    let level = |p: &tpsview_core::summary::PointSummary| match (
        p.metrics.concurrency,
        p.metrics.request_rate,
    ) {
        (Some(c), _) => format!(
            "{} {}",
            run.axis.as_deref().unwrap_or("c ="),
            fmt_num(Some(c), 0)
        ),
        (None, Some(r)) if r.is_infinite() => "rate ∞".into(),
        (None, Some(r)) => format!("{} req/s", fmt_num(Some(r), 2)),
        _ => "level ?".into(),
    };
    let heads: Vec<String> = points.iter().map(|p| level(p)).collect();
    let body: Vec<_> = rows
        .into_iter()
        .map(|(f, names)| {
            let cells: Vec<_> = points
                .iter()
                .map(|p| {
                    let value = p.reported.get(f.tool_key).copied();
                    let disc = p.discrepancies.iter().find(|d| d.tool_metric == f.tool_key);
                    let checked = p.audited.contains(&f.tool_key);
                    let (mark, title, class) = match (disc, checked) {
                        (Some(d), _) => (
                            " ≠",
                            format!(
                                "recomputed under {}'s definition: {} ({:+.2} %). Likely cause: {}",
                                v.name,
                                fmt_num(Some(d.recomputed_as_tool), digits(d.recomputed_as_tool)),
                                d.relative_diff * 100.0,
                                d.likely_cause
                            ),
                            "differs",
                        ),
                        (None, true) => (
                            " ✓",
                            format!(
                                "recomputed under {}'s definition: agrees within 0.5 %",
                                v.name
                            ),
                            "agrees",
                        ),
                        (None, false) => (
                            "",
                            "no raw data to recompute it from".to_owned(),
                            "unchecked",
                        ),
                    };
                    audit_cell(value, mark, class, title)
                })
                .collect();
            view! {
                <tr data-tool-key=f.tool_key>
                    <th scope="row"><code>{f.tool_key}</code></th>
                    <td>{names.join(", ")}</td>
                    <td>{Vocabulary::relation(f)}</td>
                    {cells}
                </tr>
            }
        })
        .collect();
    let goodput = goodput_row(&points);
    view! {
        <details class="tool-definitions" data-testid="tool-definitions" data-tool=v.tool open=true>
            <summary>{format!("How {} defines the numbers of “{}”", v.name, run.label)}</summary>
            <ul class="tool-definitions-notes">
                {v.notes.iter().map(|n| view! { <li>{*n}</li> }).collect_view()}
            </ul>
            <div class="summary-table-wrap">
                <table class="tool-definitions-table">
                    <thead>
                        <tr>
                            <th scope="col">{format!("{} figure", v.name)}</th>
                            <th scope="col">"tpsview metric"</th>
                            <th scope="col">"how the tool defines it"</th>
                            {heads.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{body}{goodput}</tbody>
                </table>
            </div>
            <p class="tool-definitions-legend">"✓ recomputed from the raw data under the tool's own definition and agrees within 0.5 %; ≠ differs (hover for the recomputed value and the likely cause). Values in the tool's own units."</p>
        </details>
    }
}

/// The tool's own goodput, where its file has one: requests per second meeting the SLO the tool
/// was given, beside tpsview's under the SLO set in the capacity panel (`tpsview_core::slo`).
fn goodput_row(points: &[&tpsview_core::summary::PointSummary]) -> Option<impl IntoView> {
    let key = points
        .iter()
        .find_map(|p| tpsview_core::slo::tool_goodput_figure(&p.reported))?
        .0;
    let cells: Vec<_> = points
        .iter()
        .map(|p| {
            let value = tpsview_core::slo::tool_goodput_figure(&p.reported).map(|g| g.1);
            let check = p.slo.and_then(|e| e.tool_goodput);
            let (mark, class, title) = match check.and_then(|t| t.agrees.zip(t.relative_diff)) {
                Some((true, _)) => (" ✓", "agrees", "equal to tpsview's goodput under the SLO set in the capacity panel (within 0.5 %)".to_owned()),
                Some((false, d)) => (" ≠", "differs", format!(
                    "tpsview's goodput under the SLO set in the capacity panel differs by {:+.2} %: the tool counted under the SLO it was given, which the file does not record",
                    d * 100.0
                )),
                None => ("", "unchecked", "set the SLO the tool was given (its per-request targets) in the capacity panel to check it".to_owned()),
            };
            audit_cell(value, mark, class, title)
        })
        .collect();
    Some(view! {
        <tr data-tool-key=key>
            <th scope="row"><code>{key}</code></th>
            <td>"goodput (req/s)"</td>
            <td>"requests per second meeting the SLO the tool was given, which its file does not record; checked against tpsview's goodput under the SLO you set"</td>
            {cells}
        </tr>
    })
}
