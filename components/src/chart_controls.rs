//! Chart options the user can change: a linear or log2 concurrency axis, and which series show.

use leptos::prelude::*;
use tpsview_core::chart_spec::ChartOptions;

/// Checkboxes for the x scale and for every series name in `names`.
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
    view! {
        <fieldset class="chart-controls" data-testid="chart-controls">
            <legend>"Chart options"</legend>
            <label>
                <input type="checkbox" prop:checked=move || options.with(|o| o.linear_x) on:change=toggle_linear/>
                " linear concurrency axis (default log₂)"
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
