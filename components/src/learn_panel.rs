//! The guided walkthrough: a list of steps (each a deep link, `#learn/N`), the current step's text
//! and highlighted values, and its chart with the level highlighted. ←/→ move between steps.

use leptos::prelude::*;
use tpsview_core::chart_spec::ChartSpec;
use tpsview_core::learn::Step;
use tpsview_core::vocabulary::ChartKind;

use crate::format::{fmt_num, fmt_value};
use crate::Chart;

/// Shows step `current` (0-based) of `steps`, with the chart of that id from `charts`.
#[component]
pub fn LearnPanel(
    /// The walkthrough of the run being explained.
    steps: Signal<Vec<Step>>,
    /// Charts to show, by id.
    charts: Signal<Vec<ChartSpec>>,
    /// The current step (0-based).
    current: Signal<usize>,
    /// Asks for another step.
    #[prop(into)]
    on_step: Callback<usize>,
    /// Where drawing errors go.
    #[prop(into)]
    on_error: Callback<String>,
) -> impl IntoView {
    let step = Memo::new(move |_| {
        steps.with(|s| s.get(current.get().min(s.len().saturating_sub(1))).cloned())
    });
    let spec = Signal::derive(move || {
        let id = step.with(|s| s.as_ref().map_or(ChartKind::Throughput, |s| s.chart));
        charts
            .with(|c| c.iter().find(|c| c.id == id).or(c.first()).cloned())
            .unwrap_or_else(|| ChartSpec::empty(ChartKind::Throughput))
    });
    let pinned = Signal::derive(move || step.with(|s| s.as_ref().and_then(|s| s.highlight)));
    let total = move || steps.with(Vec::len);
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        // A focused chart uses the arrows to step its tooltip; it marks them handled.
        if ev.default_prevented() {
            return;
        }
        let i = current.get_untracked();
        match ev.key().as_str() {
            "ArrowRight" if i + 1 < total() => on_step.run(i + 1),
            "ArrowLeft" if i > 0 => on_step.run(i - 1),
            _ => {}
        }
    };
    view! {
        <div class="learn-panel" data-testid="learn" tabindex="0" on:keydown=on_key
            aria-label="walkthrough: left and right arrows change the step">
            <ol class="learn-panel-steps">
                {move || steps.get().into_iter().enumerate().map(|(i, s)| view! {
                    <li class:learn-panel-current=move || current.get() == i>
                        <a href=format!("#learn/{}", i + 1) aria-current=move || (current.get() == i).then_some("step")>{s.title}</a>
                    </li>
                }).collect_view()}
            </ol>
            {move || step.get().map(|s| view! {
                <article class="learn-panel-step" data-testid="learn-step" data-slug=s.slug>
                    <h3>{format!("{} / {} — {}", current.get() + 1, total(), s.title)}</h3>
                    {s.body.iter().map(|p| view! { <p class="learn-panel-text">{p.clone()}</p> }).collect_view()}
                    <dl class="learn-panel-values" data-testid="learn-values">
                        {s.values.iter().map(|(k, v)| view! {
                            <div><dt>{k.clone()}</dt><dd data-value=fmt_value(Some(*v))>{fmt_num(Some(*v), if v.abs() >= 100.0 || v.fract() == 0.0 { 0 } else { 1 })}</dd></div>
                        }).collect_view()}
                    </dl>
                </article>
            })}
            <Chart spec=spec label="the chart for this step, with the level it discusses highlighted" on_error=on_error pinned=pinned/>
            <nav class="learn-panel-nav" aria-label="walkthrough steps">
                <a href=move || format!("#learn/{}", current.get().max(1)) class:learn-panel-disabled={move || current.get() == 0}>"← Previous"</a>
                <a href=move || format!("#learn/{}", (current.get() + 2).min(total().max(1))) class:learn-panel-disabled={move || current.get() + 1 >= total()}>"Next →"</a>
            </nav>
        </div>
    }
}
