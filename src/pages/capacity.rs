//! The viewer's capacity panel: the SLO (a preset or the user's own text), a GPU-hour price, the
//! cost axis, the GPU counts cost needs, and the SLO table. The choices live in the view (so the
//! permalink and bundles carry them); the arithmetic is `tpsview_core::slo`, applied to the
//! summary by [`planned`].

use leptos::prelude::*;
use tpsview_components::SloTable;
use tpsview_core::compare::{self, CompareOptions};
use tpsview_core::slo::{PRESETS, PRICE_EXAMPLES};
use tpsview_core::summary::{apply_cost, apply_slo, Summary};
use tpsview_core::vocabulary::RunId;

use crate::state::{use_analysis, use_view};

/// The summary with every level evaluated against the view's SLO and priced at its GPU-hour
/// price (as it was until the summary is the current files': the report and the summary must
/// be the same runs to be zipped). Recomputed only when the summary, the SLO, the price or the GPU
/// counts change — not on every change of the view (hiding a series re-evaluates nothing).
pub fn planned() -> Memo<Summary> {
    let analysis = use_analysis();
    let view = use_view();
    let inputs = Memo::new(move |_| {
        view.0.with(|v| {
            (
                v.slo().and_then(Result::ok),
                v.price(),
                v.gpu_counts.clone(),
            )
        })
    });
    Memo::new(move |prev: Option<&Summary>| {
        if !analysis.ready.get() {
            if let Some(p) = prev {
                return p.clone();
            }
        }
        let (slo, price, gpu_counts) = inputs.get();
        let mut s = analysis.summary.get();
        if let Some(slo) = &slo {
            analysis
                .report
                .with(|g| apply_slo(&g.report, &mut s.runs, slo));
        }
        if let Some(price) = price {
            let opts = CompareOptions {
                per_gpu: false,
                gpu_counts,
            };
            apply_cost(&mut s.runs, price, |r| compare::gpu_count(r, &opts));
        }
        s
    })
}

/// A GPU-count field for each run of `summary` whose metadata has none (with the count the user
/// gave), writing the view's GPU counts; `testid` names the fields, `why` says what needs it.
pub fn gpu_count_inputs(
    summary: Signal<Summary>,
    testid: &'static str,
    why: &'static str,
) -> impl IntoView {
    let view = use_view();
    let opts = view.0.with(|v| CompareOptions {
        per_gpu: v.per_gpu,
        gpu_counts: v.gpu_counts.clone(),
    });
    let runs = summary.with(|s| compare::runs_without_gpu_count(s, &opts));
    // Past three runs, one field sets them all (the runs listed beneath): no field per run.
    if runs.len() > tpsview_core::bounds::EACH {
        let ids: Vec<RunId> = runs.iter().map(|(id, _)| id.clone()).collect();
        let names = runs
            .iter()
            .map(|(id, _)| id.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let n = runs.len();
        return view! {
            <label>
                {format!("GPUs of each of the {n} runs without a count ({why}): ")}
                <input type="number" min="1" step="1" data-testid=format!("{testid}-all")
                    on:change=move |ev| {
                        let n = event_target_value(&ev).trim().parse::<u32>().unwrap_or(0);
                        view.0.update(|v| ids.iter().for_each(|id| v.set_gpu_count(id, n)));
                    }/>
            </label>
            <details class="many"><summary>{format!("the {n} runs")}</summary><p class="viewer-page-note">{names}</p></details>
        }
        .into_any();
    }
    runs.into_iter()
        .map(|(id, n)| {
            let label = id.to_string();
            view! {
                <label>
                    {format!("GPUs of “{label}” ({why}): ")}
                    <input type="number" min="1" step="1" data-testid=testid data-run=label.clone()
                        prop:value=n.map(|n| n.to_string()).unwrap_or_default()
                        on:change=move |ev| {
                            let n = event_target_value(&ev).trim().parse::<u32>().unwrap_or(0);
                            view.0.update(|v| v.set_gpu_count(&id, n));
                        }/>
                </label>
            }
        })
        .collect_view()
        .into_any()
}

/// The panel.
pub fn capacity_panel(summary: Signal<Summary>) -> impl IntoView {
    let view = use_view();
    let text = Signal::derive(move || view.0.with(|v| v.slo.clone()));
    let parsed = Signal::derive(move || view.0.with(|v| v.slo()));
    let slo = Signal::derive(move || parsed.get().and_then(Result::ok));
    let price = Signal::derive(move || view.0.with(|v| v.gpu_hour_usd));
    let set_slo = move |t: String| view.0.update(|v| v.slo = t.trim().to_owned());
    // The targets the loaded files state (an MLPerf scenario's limits), offered beside the presets.
    let analysis = use_analysis();
    let from_files = Memo::new(move |_| {
        analysis
            .report
            .with(|g| tpsview_core::slo::file_targets(&g.report))
    });
    // Collapsed until there is something to show: opened when an SLO or a price is set (by the
    // user, a link or a bundle), never closed by the page.
    let panel = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        let set = !text.with(String::is_empty) || price.with(Option::is_some);
        if let (true, Some(d)) = (set, panel.get()) {
            d.set_open(true);
        }
    });
    view! {
        <details class="capacity sources" data-testid="capacity" node_ref=panel>
            <summary>
                <h2 id="h-capacity" class="capacity-title">"Capacity under a latency target"</h2>
                <span class="sources-hint">{move || match (text.get(), price.get()) {
                    (t, _) if !t.is_empty() => format!(" — SLO {t}"),
                    (_, Some(p)) => format!(" — ${p} per GPU-hour"),
                    _ => " — set a latency target (SLO) and a GPU-hour price".to_owned(),
                }}</span>
            </summary>
            <p class="viewer-page-note">"A server's capacity is the load it carries while users still get the latency they need. Set the targets (a preset, or your own), and the answer cards, the charts and the table below say which levels meet them."</p>
            <div class="capacity-controls">
                <label>
                    "Preset "
                    <select data-testid="slo-preset" aria-label="SLO preset"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            if let Some(p) = PRESETS.iter().find(|p| p.name == v) {
                                set_slo(p.text.to_owned());
                            } else if let Some(t) = v.strip_prefix("file:") {
                                set_slo(t.to_owned());
                            } else if v.is_empty() {
                                set_slo(String::new());
                            }
                        }>
                        <option value="" selected=move || text.with(String::is_empty)>"none"</option>
                        {PRESETS.iter().map(|p| view! {
                            <option value=p.name selected=move || text.with(|t| t == p.text)>{p.name}</option>
                        }).collect_view()}
                        {move || from_files.get().into_iter().map(|(t, runs)| {
                            let value = format!("file:{t}");
                            let is = t.clone();
                            view! {
                                <option value=value data-testid="slo-from-file" selected=move || text.with(|x| *x == is)>
                                    {format!("From the files: {} ({t})", runs.join(", "))}
                                </option>
                            }
                        }).collect_view()}
                    </select>
                </label>
                {move || text.with(|t| PRESETS.iter().find(|p| p.text == t)).map(|p| view! {
                    <p class="viewer-page-note" data-testid="slo-preset-note">{p.note}</p>
                })}
                <label>
                    "SLO "
                    <input type="text" data-testid="slo" class="capacity-slo" spellcheck="false"
                        placeholder="ttft_p90_ms=500,tpot_p90_ms=50"
                        aria-describedby="slo-help"
                        prop:value=move || text.get()
                        on:change=move |ev| set_slo(event_target_value(&ev))/>
                </label>
                <p class="viewer-page-note" id="slo-help">
                    "Per request: "<code>"ttft_ms"</code>", "<code>"tpot_ms"</code>", "<code>"e2e_ms"</code>
                    " (each request within it, as vLLM's --goodput counts), with "<code>"attainment=0.9"</code>
                    " the share that must be. Per level: "<code>"<ttft|tpot|itl|e2e>_<mean|p50|p90|p95|p99>_ms"</code>"."
                </p>
                {move || parsed.get().and_then(Result::err).map(|e| view! {
                    <p class="viewer-page-error" role="alert" data-testid="slo-error">{format!("SLO: {e}")}</p>
                })}
                <label>
                    "GPU-hour price (USD, your figure) "
                    <input type="number" min="0" step="0.01" data-testid="gpu-hour-usd" list="price-examples"
                        prop:value=move || price.get().map(|p| p.to_string()).unwrap_or_default()
                        on:change=move |ev| {
                            let p = event_target_value(&ev).trim().parse::<f64>().ok().filter(|p| p.is_finite() && *p > 0.0);
                            view.0.update(|v| v.gpu_hour_usd = p);
                        }/>
                    <datalist id="price-examples">
                        {PRICE_EXAMPLES.iter().map(|(name, usd)| view! { <option value=usd.to_string()>{*name}</option> }).collect_view()}
                    </datalist>
                </label>
                <label class="capacity-check">
                    <input type="checkbox" data-testid="cost-axis"
                        prop:checked=move || view.0.with(|v| v.cost_axis)
                        disabled=move || price.get().is_none()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            view.0.update(|v| v.cost_axis = on);
                        }/>
                    " Cost per million tokens on the interactivity chart's y axis"
                </label>
                {move || price.get().is_some().then(|| gpu_count_inputs(summary, "cost-gpu-count", "not in its metadata; cost needs it"))}
            </div>
            {move || (slo.with(Option::is_some) || price.get().is_some()).then(|| view! { <SloTable summary=summary slo=slo/> })}
        </details>
    }
}
