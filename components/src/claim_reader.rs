//! "Read a claim": a tokens-per-second figure and its context in, which aggregation it can be out,
//! with the arithmetic.

use leptos::prelude::*;
use tpsview_core::claim::{per_user_words, read_claim, Verdict};
use tpsview_core::roofline::{gpus_together, DecodeInputs, GPUS, MODELS, PRECISIONS};

/// The claim reader.
#[component]
pub fn ClaimReader() -> impl IntoView {
    let claim = RwSignal::new(4000.0);
    let gpu = RwSignal::new(0usize);
    let count = RwSignal::new(1.0);
    let model = RwSignal::new(1usize);
    let precision = RwSignal::new(1usize);
    // "114 tok/s/user at p90": a claim per user is read against one stream's bound.
    let per_user = RwSignal::new(false);
    let reading = Memo::new(move |_| {
        let (g, m, (_, b)) = (
            &GPUS[gpu.get()],
            &MODELS[model.get()],
            PRECISIONS[precision.get()],
        );
        let (hbm_bytes_per_s, peak_flops) =
            gpus_together(g.hbm_bytes_per_s, g.peak_for(b), count.get());
        let d = DecodeInputs {
            hbm_bytes_per_s,
            peak_flops,
            params: m.params,
            bytes_per_param: b,
            kv_bytes_per_token: 0.0,
            context_tokens: 0.0,
        };
        read_claim(claim.get(), &d)
    });
    let pick = |sig: RwSignal<usize>| {
        move |ev: leptos::ev::Event| sig.set(event_target_value(&ev).parse().unwrap_or(0))
    };
    view! {
        <div class="claim-reader" data-testid="claim-reader">
            <div class="claim-reader-inputs">
                <label>"claimed tokens/s "
                    <input type="number" min="0" step="any" data-testid="claim-value" prop:value=move || claim.get().to_string()
                        on:input=move |ev| claim.set(event_target_value(&ev).parse().unwrap_or(f64::NAN))/>
                </label>
                <label>"it claims "
                    <select data-testid="claim-kind" on:change=move |ev| per_user.set(event_target_value(&ev) == "user")>
                        <option value="tps">"tokens/s"</option>
                        <option value="user">"tokens/s per user (a p90, E2E-normalized)"</option>
                    </select>
                </label>
                <label>"model "
                    <select data-testid="claim-model" on:change=pick(model)>
                        {MODELS.iter().enumerate().map(|(i, m)| view! { <option value=i.to_string() selected=i == 1>{m.name}</option> }).collect_view()}
                    </select>
                </label>
                <label>"precision "
                    <select data-testid="claim-precision" on:change=pick(precision)>
                        {PRECISIONS.iter().enumerate().map(|(i, (n, _))| view! { <option value=i.to_string() selected=i == 1>{*n}</option> }).collect_view()}
                    </select>
                </label>
                <label>"GPU "
                    <select data-testid="claim-gpu" on:change=pick(gpu)>
                        {GPUS.iter().enumerate().map(|(i, g)| view! { <option value=i.to_string()>{g.name}</option> }).collect_view()}
                    </select>
                </label>
                <label>"GPUs "
                    <input type="number" min="1" step="1" data-testid="claim-gpus" prop:value=move || count.get().to_string()
                        on:input=move |ev| count.set(event_target_value(&ev).parse().unwrap_or(1.0))/>
                </label>
            </div>
            {move || match reading.get() {
                None => view! { <p class="claim-reader-verdict" data-testid="claim-verdict" data-verdict="">"Enter a positive number."</p> }.into_any(),
                Some(r) => {
                    let kind = match (per_user.get(), r.verdict) {
                        (true, Verdict::PerStream) => "per_user",
                        (true, _) => "not_per_user",
                        (false, Verdict::PerStream) => "per_stream",
                        (false, Verdict::System) => "system",
                        (false, Verdict::Impossible) => "impossible",
                    };
                    let text = if per_user.get() { per_user_words(claim.get(), &r) } else { r.words(claim.get()) };
                    view! {
                        <p class="claim-reader-verdict" data-testid="claim-verdict" data-verdict=kind>{text}</p>
                        <ol class="claim-reader-steps">{r.steps.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ol>
                    }.into_any()
                }
            }}
        </div>
    }
}
