//! Chart options the user can change: a linear or log2 concurrency axis, which series show, the
//! statistic the latency lines show and their band, and system T/s per GPU.

use leptos::prelude::*;
use tpsview_core::chart_spec::ChartOptions;

/// Checkboxes for the x scale, per-GPU normalisation and every series name in `names`; a choice
/// of the latency lines' statistic.
#[component]
pub fn ChartControls(
    /// Series names a user can hide.
    names: Signal<Vec<String>>,
    /// The current options.
    options: Signal<ChartOptions>,
    /// Called with the new options.
    #[prop(into)]
    on_change: Callback<ChartOptions>,
) -> impl IntoView {
    let toggle_linear = move |_| {
        let mut o = options.get_untracked();
        o.linear_x = !o.linear_x;
        on_change.run(o);
    };
    let toggle_log_y = move |_| {
        let mut o = options.get_untracked();
        o.log_y = !o.log_y;
        on_change.run(o);
    };
    let toggle_per_gpu = move |_| {
        let mut o = options.get_untracked();
        o.per_gpu = !o.per_gpu;
        on_change.run(o);
    };
    let toggle_interval = move |_| {
        let mut o = options.get_untracked();
        o.latency_interval = !o.latency_interval;
        on_change.run(o);
    };
    let pick_stat = move |ev| {
        let mut o = options.get_untracked();
        if let Some(s) = tpsview_core::stats::Stat::parse(&event_target_value(&ev)) {
            o.stat = s;
            on_change.run(o);
        }
    };
    view! {
        <fieldset class="chart-controls" data-testid="chart-controls">
            <legend>"Chart options"</legend>
            <label>
                <input type="checkbox" prop:checked=move || options.with(|o| o.linear_x) on:change=toggle_linear/>
                " linear concurrency axis (default log₂)"
            </label>
            <label>
                <input type="checkbox" data-testid="log-y" prop:checked=move || options.with(|o| o.log_y) on:change=toggle_log_y/>
                " log y axis (values spanning decades)"
            </label>
            <label>
                <input type="checkbox" data-testid="per-gpu" prop:checked=move || options.with(|o| o.per_gpu) on:change=toggle_per_gpu/>
                " system T/s per GPU"
            </label>
            <label>
                " latency line: "
                <select data-testid="stat" aria-label="statistic of the latency lines" on:change=pick_stat>
                    {tpsview_core::stats::Stat::ALL.into_iter().map(|s| view! {
                        <option value=s.name() selected=move || options.with(|o| o.stat == s)>{s.name()}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>
                <input type="checkbox" data-testid="latency-interval" prop:checked=move || options.with(|o| o.latency_interval) on:change=toggle_interval/>
                " latency band: the line's 99 % interval (default p50–p99)"
            </label>
            {move || names.get().into_iter().map(|name| {
                let n = name.clone();
                let shown = move || options.with(|o| !o.hidden.contains(&n));
                let n2 = name.clone();
                let flip = move |_| {
                    let mut o = options.get_untracked();
                    if let Some(i) = o.hidden.iter().position(|h| *h == n2) {
                        o.hidden.remove(i);
                    } else {
                        o.hidden.push(n2.clone());
                    }
                    on_change.run(o);
                };
                view! {
                    <label>
                        <input type="checkbox" prop:checked=shown on:change=flip data-series=name.clone()/>
                        {format!(" {name}")}
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}
