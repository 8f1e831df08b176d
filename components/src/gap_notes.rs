//! Annotations driven by the data: per point, how many streams share each read of the weights,
//! what each gets and what they get together, and the gap to N × per-stream broken into causes.

use leptos::prelude::*;
use tpsview_core::summary::Summary;

use crate::format::fmt_num;

/// One paragraph per point with a gap analysis, folded under one line (the chart above says the
/// same at a glance; the paragraphs are for the reader who asks why).
#[component]
pub fn GapNotes(
    /// The summary to explain.
    summary: Signal<Summary>,
) -> impl IntoView {
    view! {
        <details class="gap-notes" data-testid="gap-notes">
            <summary>{move || {
                let n = summary.with(|s| s.runs.iter().flat_map(|r| &r.points).filter(|p| p.metrics.gap.is_some()).count());
                format!("Why system T/s is not N × per-stream T/s, level by level ({n})")
            }}</summary>
            {move || summary.with(|s| s.runs.iter().flat_map(|run| run.points.iter().filter_map(|p| {
                let g = p.metrics.gap.clone()?;
                let per_stream = p.metrics.per_stream_tps?;
                let n = g.target_concurrency;
                let lead = if n <= 1.0 {
                    format!(
                        "At batch 1, one stream has the {} to itself: {} T/s per stream, {} T/s in all — the two aggregations agree.",
                        if run.meta.gpu.is_some() || run.meta.gpu_count.is_some() { "GPU" } else { "server" },
                        fmt_num(Some(per_stream), 0), fmt_num(Some(g.system_tps), 0)
                    )
                } else {
                    format!(
                        "At batch {}, {} streams share each read of the weights: {} T/s each, {} T/s together.",
                        fmt_num(Some(n), 0), fmt_num(Some(n), 0), fmt_num(Some(per_stream), 0), fmt_num(Some(g.system_tps), 0)
                    )
                };
                let detail = (n > 1.0).then(|| {
                    let parts: Vec<String> = g.factors.iter().filter(|f| (f.factor - 1.0).abs() > 0.001).map(|f| {
                        format!("×{:.3} from {}", f.factor, f.cause.words())
                    }).collect();
                    format!(
                        " {} × {} = {} T/s if every stream decoded all the time; measured {} T/s: {}.",
                        fmt_num(Some(n), 0), fmt_num(Some(per_stream), 1), fmt_num(Some(g.ideal_tps), 0),
                        fmt_num(Some(g.system_tps), 0), parts.join(", ")
                    )
                });
                // A speculative run: why ITL and TPOT part, and why it can beat the bound.
                let spec = tpsview_core::spec::of(p).map(|s| {
                    let text = s.describe(p.metrics.tpot_ms.mean, p.metrics.itl_ms.mean);
                    view! { <span data-testid="spec-decode">" "{text}</span> }
                });
                Some(view! {
                    <p class="gap-notes-point" data-concurrency=format!("{n}")>
                        <strong>{run.id.to_string()}</strong>": "{lead}{detail}{spec}
                    </p>
                })
            }).collect::<Vec<_>>()).collect_view())}
        </details>
    }
}
