//! The interactive decode model: GPU, model, precision, KV cache, context and batch in; the
//! bandwidth- and compute-bound step time, per-stream and system T/s and the compute knee out; the
//! bound drawn over a loaded run's levels with measured ÷ bound. Formulas and preset sources shown.

use leptos::prelude::*;
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::roofline::{
    against_bound, gpus_together, kv_bytes_per_token, AgainstBound, DecodeInputs, ABOVE_IDEAL,
    AT_BOUND, GPUS, MODELS, PRECISIONS,
};
use tpsview_core::summary::RunSummary;

use crate::format::{fmt_num, fmt_value};
use crate::Chart;

/// A number input bound to a signal; `scale` converts display units to stored units.
#[component]
fn NumberField(
    label: &'static str,
    value: RwSignal<f64>,
    #[prop(default = 1.0)] scale: f64,
    #[prop(default = "any")] step: &'static str,
) -> impl IntoView {
    view! {
        <label class="decode-model-field">
            {label}
            <input type="number" min="0" step=step aria-label=label
                prop:value=move || fmt_value(Some(value.get() / scale))
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        if v.is_finite() && v >= 0.0 {
                            value.set(v * scale);
                        }
                    }
                }/>
        </label>
    }
}

/// The decode model; `run` is overlaid on the bound when there is one.
#[component]
pub fn DecodeModel(
    /// The run to compare with the bound.
    run: Signal<Option<RunSummary>>,
    /// Where drawing errors go.
    #[prop(into)]
    on_error: Callback<String>,
) -> impl IntoView {
    let (g0, m0) = (&GPUS[0], &MODELS[1]);
    let bw = RwSignal::new(g0.hbm_bytes_per_s);
    let flops = RwSignal::new(g0.peak_for(1.0));
    let gpus = RwSignal::new(1.0f64);
    let params = RwSignal::new(m0.params);
    let bytes = RwSignal::new(1.0f64);
    let layers = RwSignal::new(f64::from(m0.layers));
    let kv_heads = RwSignal::new(f64::from(m0.kv_heads));
    let head_dim = RwSignal::new(f64::from(m0.head_dim));
    let kv_dtype = RwSignal::new(2.0f64);
    let context = RwSignal::new(2048.0f64);
    let batch = RwSignal::new(64.0f64);
    let gpu_pick = RwSignal::new(0usize);
    let apply_gpu = move |i: usize| {
        if let Some(g) = GPUS.get(i) {
            gpu_pick.set(i);
            bw.set(g.hbm_bytes_per_s);
            flops.set(g.peak_for(bytes.get_untracked()));
        }
    };
    let inputs = Memo::new(move |_| {
        let (hbm_bytes_per_s, peak_flops) = gpus_together(bw.get(), flops.get(), gpus.get());
        DecodeInputs {
            hbm_bytes_per_s,
            peak_flops,
            params: params.get(),
            bytes_per_param: bytes.get(),
            kv_bytes_per_token: kv_bytes_per_token(
                layers.get() as u32,
                kv_heads.get() as u32,
                head_dim.get() as u32,
                kv_dtype.get(),
            ),
            context_tokens: context.get(),
        }
    });
    // The context the bound assumes: the loaded run's own (mean prompt plus half the output —
    // the mean length a sequence has while it decodes) when its files say, so the bound describes
    // the run; 2048 tokens otherwise. The field can still be changed.
    Effect::new(move |_| {
        let ctx = run.with(|r| r.as_ref().and_then(RunSummary::mean_decode_context));
        context.set(ctx.map_or(2048.0, |c| c.round().max(1.0)));
    });
    // A `tpsview probe` report carries the machine's measured bandwidth and peak: the model takes
    // them (and the probe's weights, without a KV cache) so that its bound is measured, not quoted.
    let probe = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref()
                .and_then(|r| tpsview_core::probe::decode_inputs(&r.meta))
        })
    });
    Effect::new(move |_| {
        if let Some(d) = probe.get() {
            gpu_pick.set(usize::MAX);
            bw.set(d.hbm_bytes_per_s);
            flops.set(d.peak_flops);
            gpus.set(1.0);
            params.set(d.params);
            bytes.set(d.bytes_per_param);
            layers.set(0.0);
        }
    });
    let at = Memo::new(move |_| inputs.with(|d| d.step(batch.get().max(1.0))));
    let spec = Signal::derive(move || {
        run.with(|r| {
            inputs.with(|d| {
                chart_spec::roofline(d, r.as_ref(), batch.get(), &ChartOptions::default())
            })
        })
    });
    let eff = Signal::derive(move || {
        run.with(|r| {
            r.as_ref()
                .map(|r| inputs.with(|d| chart_spec::efficiency(r, d)))
                .unwrap_or_default()
        })
    });

    view! {
        <div class="decode-model" data-testid="decode-model">
            {move || probe.get().map(|d| view! {
                <p class="viewer-page-note" data-testid="decode-model-probe">
                    {format!(
                        "Measured by tpsview probe: streaming bandwidth {} GB/s, peak multiply {} GFLOP/s, {} MB of weights, no KV cache.",
                        fmt_num(Some(d.hbm_bytes_per_s / 1e9), 2),
                        fmt_num(Some(d.peak_flops / 1e9), 1),
                        fmt_num(Some(d.weight_bytes() / 1e6), 0)
                    )}
                </p>
            })}
            <div class="decode-model-inputs">
                <label class="decode-model-field">"GPU preset"
                    <select aria-label="GPU preset" on:change=move |ev| if let Ok(i) = event_target_value(&ev).parse() { apply_gpu(i) }>
                        {GPUS.iter().enumerate().map(|(i, g)| view! { <option value=i.to_string() selected=move || gpu_pick.get() == i>{g.name}</option> }).collect_view()}
                        {move || probe.get().map(|_| view! { <option value="probe" selected=move || gpu_pick.get() == usize::MAX>"measured by tpsview probe"</option> })}
                    </select>
                </label>
                <NumberField label="HBM bandwidth (TB/s per GPU)" value=bw scale=1e12/>
                <NumberField label="peak dense TFLOP/s per GPU" value=flops scale=1e12/>
                <NumberField label="GPUs" value=gpus step="1"/>
                <label class="decode-model-field">"model preset"
                    <select aria-label="model preset" on:change=move |ev| {
                        if let Some(m) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| MODELS.get(i)) {
                            params.set(m.params);
                            layers.set(f64::from(m.layers));
                            kv_heads.set(f64::from(m.kv_heads));
                            head_dim.set(f64::from(m.head_dim));
                        }
                    }>
                        {MODELS.iter().enumerate().map(|(i, m)| view! { <option value=i.to_string() selected=move || i == 1 && probe.with(Option::is_none)>{m.name}</option> }).collect_view()}
                        {move || probe.get().map(|_| view! { <option value="probe" selected=true>"the probe's weights"</option> })}
                    </select>
                </label>
                <NumberField label="parameters (billions)" value=params scale=1e9/>
                <label class="decode-model-field">"weight precision"
                    <select aria-label="weight precision" on:change=move |ev| {
                        if let Some((_, b)) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| PRECISIONS.get(i)) {
                            bytes.set(*b);
                            let g = &GPUS[gpu_pick.get_untracked()];
                            flops.set(g.peak_for(*b));
                        }
                    }>
                        {PRECISIONS.iter().enumerate().map(|(i, (n, b))| view! { <option value=i.to_string() selected=move || *b == 1.0 && probe.with(Option::is_none)>{format!("{n} ({b} bytes/parameter)")}</option> }).collect_view()}
                        {move || probe.get().map(|d| view! { <option value="probe" selected=true>{format!("the probe's ({} bytes/parameter)", d.bytes_per_param)}</option> })}
                    </select>
                </label>
                <NumberField label="layers" value=layers step="1"/>
                <NumberField label="KV heads" value=kv_heads step="1"/>
                <NumberField label="head dim" value=head_dim step="1"/>
                <NumberField label="KV bytes per element" value=kv_dtype/>
                <NumberField label="context tokens per sequence" value=context step="1"/>
                <NumberField label="batch size" value=batch step="1"/>
            </div>
            {move || {
                let s = at.get();
                let knee = inputs.with(DecodeInputs::compute_bound_batch);
                view! {
                    <dl class="decode-model-out" data-testid="decode-model-out">
                        <div><dt>"bytes read per step"</dt><dd>{format!("{} GB", fmt_num(Some(s.bytes / 1e9), 1))}</dd></div>
                        <div><dt>"memory time"</dt><dd data-value=fmt_value(Some(s.memory_s * 1e3))>{format!("{} ms", fmt_num(Some(s.memory_s * 1e3), 2))}</dd></div>
                        <div><dt>"compute time"</dt><dd data-value=fmt_value(Some(s.compute_s * 1e3))>{format!("{} ms", fmt_num(Some(s.compute_s * 1e3), 2))}</dd></div>
                        <div><dt>"step (the longer)"</dt><dd>{format!("{} ms, {}-bound", fmt_num(Some(s.step_s * 1e3), 2), if s.compute_bound { "compute" } else { "bandwidth" })}</dd></div>
                        <div><dt>"per-stream T/s"</dt><dd data-testid="bound-per-stream" data-value=fmt_value(Some(s.per_stream_tps))>{fmt_num(Some(s.per_stream_tps), 1)}</dd></div>
                        <div><dt>"system T/s"</dt><dd data-testid="bound-system" data-value=fmt_value(Some(s.system_tps))>{fmt_num(Some(s.system_tps), 0)}</dd></div>
                        <div><dt>"compute becomes the bound at batch"</dt><dd data-testid="bound-knee">{knee.map_or_else(|| "never (KV reads grow faster)".to_owned(), |b| fmt_num(Some(b), 0))}</dd></div>
                    </dl>
                }
            }}
            <Chart spec=spec label="decode model bound against batch size, with the loaded run's levels" on_error=on_error/>
            {move || (!eff.get().is_empty()).then(|| view! {
                <table class="decode-model-eff" data-testid="efficiency">
                    <caption>{move || format!("measured ÷ bound for {}", run.with(|r| r.as_ref().map(|r| r.label.clone()).unwrap_or_default()))}</caption>
                    <thead><tr><th scope="col">"concurrency"</th><th scope="col">"system T/s"</th><th scope="col">"bound"</th><th scope="col">"efficiency"</th><th scope="col">"per-stream T/s"</th><th scope="col">"bound"</th></tr></thead>
                    <tbody>
                        {eff.get().into_iter().map(|e| view! {
                            <tr data-concurrency=fmt_value(Some(e.concurrency)) data-batch=fmt_value(Some(e.batch))>
                                <td>{fmt_num(Some(e.concurrency), 0)}{e.measured_batch.then(|| format!(" (the server ran {}: the bound is taken there)", tpsview_core::server::count(e.batch)))}</td>
                                <td>{fmt_num(Some(e.system_tps), 0)}</td>
                                <td>{fmt_num(Some(e.system_bound), 0)}</td>
                                {
                                    let against = against_bound(e.ratio());
                                    view! {
                                        <td data-value=fmt_value(Some(e.ratio())) data-against=match against {
                                                AgainstBound::Below => "below",
                                                AgainstBound::AtBound => "at",
                                                AgainstBound::Beyond => "beyond",
                                            }
                                            class:decode-model-at=against == AgainstBound::AtBound
                                            class:decode-model-over=against == AgainstBound::Beyond>
                                            {format!("{} %", fmt_num(Some(e.ratio() * 100.0), 0))}
                                            {(against == AgainstBound::AtBound).then_some(" ≈ bound")}
                                        </td>
                                    }
                                }
                                <td>{fmt_num(Some(e.per_stream_tps), 1)}</td>
                                <td>{fmt_num(Some(e.per_stream_bound), 1)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <p class="decode-model-note" data-testid="efficiency-note">{format!(
                    "Up to {:.0} % (≈ bound): at the ideal bound — {}. The built-in example's batch 1 is such a figure: the quoted 50 T/s per stream, 5 % over the bound. Further above: the inputs do not describe the run (model size, precision, GPUs, context). The context here is the run's own when its files give lengths.",
                    AT_BOUND * 100.0, ABOVE_IDEAL
                )}</p>
            })}
            <details class="decode-model-formulas" open>
                <summary>"Formulas"</summary>
                <ul>
                    <li>"bytes per step = parameters × bytes per parameter + batch × context × KV bytes per token"</li>
                    <li>"KV bytes per token = 2 (K and V) × layers × KV heads × head dim × bytes per element"</li>
                    <li>"memory time = bytes per step ÷ (HBM bandwidth × GPUs); compute time = 2 × parameters × batch ÷ (peak FLOP/s × GPUs)"</li>
                    <li>"step = max(memory time, compute time); per-stream T/s = 1 ÷ step; system T/s = batch ÷ step"</li>
                    <li>"compute becomes the bound at batch = (weight bytes ÷ bandwidth) ÷ (2 × parameters ÷ peak − context × KV bytes ÷ bandwidth)"</li>
                    <li>"FP8 weights compute at the FP8 peak; BF16 and INT4 (weight-only) at the BF16 peak. Attention FLOPs, prefill and overheads are left out: this is a bound, not a prediction."</li>
                </ul>
            </details>
            <details class="decode-model-sources">
                <summary>"Where the preset numbers come from"</summary>
                <ul>
                    {GPUS.iter().map(|g| view! { <li>{format!("{}: {}", g.name, g.source)}</li> }).collect_view()}
                    {MODELS.iter().map(|m| view! { <li>{format!("{}: {}", m.name, m.source)}</li> }).collect_view()}
                </ul>
            </details>
        </div>
    }
}
