//! A file no reader knows, read through a mapping (issue 44): what the file holds — each field with
//! sample values — what each is read as, in which unit, and whether a row is a request or a level.
//! Each choice is a correction (`what`, field, value) that the page hands the loading worker,
//! which reads the file again through the corrected mapping at once (`mapping::edit`); the panel
//! holds words only (`mapping::Panel`). Past [`PAGE`](crate::many::PAGE) fields the table pages.

use leptos::prelude::*;
use tpsview_core::mapping::{Panel, PanelField};

/// A correction: (`quantity` | `unit` | `scope` | `concurrency`, field, value).
pub type Correction = (String, String, String);

/// What the panel says of the mapping's origin.
fn origin_words(o: &str) -> &'static str {
    match o {
        "proposed" => "tpsview proposed what each field holds from its name and magnitude: check each, and correct what is wrong — the figures follow at once.",
        "saved" => "it was read through a mapping made for files with these fields (kept in this browser, or carried by the link): correct it here if this file differs.",
        _ => "it is read through your mapping: each change reads the file again.",
    }
}

/// The panel of one file (`data-testid="mapping-panel"`).
#[component]
pub fn MappingPanel(
    /// The file's name.
    file: String,
    /// What the file holds and the mapping it was read through, in words.
    panel: Panel,
    /// Called with a correction: the page reads the file again through it.
    on_edit: Callback<Correction>,
    /// Called with the mapping document, to save it as a file.
    on_save: Callback<String>,
) -> impl IntoView {
    let Panel {
        origin,
        rows,
        keys,
        scope,
        concurrency,
        quantities,
        fields,
        mapping,
    } = panel;
    let heading = format!("Read {file} through a mapping");
    let label = heading.clone();
    let found = format!("No reader knows this file. It holds {rows} rows with {keys} fields; ");
    let says = origin_words(&origin);
    let page = RwSignal::new(0usize);
    let n = fields.len();
    let count = Signal::derive(move || n);
    let concurrency = concurrency.map(|c| c.to_string()).unwrap_or_default();
    let is_level = scope == "level";
    let fields = std::sync::Arc::new(fields);
    let quantities = std::sync::Arc::new(quantities);
    let edit = move |what: &str, field: &str, value: String| {
        on_edit.run((what.to_owned(), field.to_owned(), value));
    };
    view! {
        <section class="mapping-panel" data-testid="mapping-panel" data-origin=origin aria-label=label>
            <h3>{heading}</h3>
            <p>{found}{says}</p>
            <p class="mapping-panel-controls">
                <label>"Each row is "
                    <select data-testid="mapping-scope" on:change=move |ev| edit("scope", "", event_target_value(&ev))>
                        <option value="request" selected=!is_level>"one request"</option>
                        <option value="level" selected=is_level>"one load level (the tool's figures)"</option>
                    </select>
                </label>
                <label>" concurrency of the whole file "
                    <input type="number" min="1" step="any" data-testid="mapping-concurrency" placeholder="from a field"
                        prop:value=concurrency
                        on:change=move |ev| edit("concurrency", "", event_target_value(&ev))/>
                </label>
                <button type="button" data-testid="mapping-save" on:click=move |_| on_save.run(mapping.clone())>"Save the mapping (JSON)"</button>
            </p>
            {crate::many::pager(count, page, "mapping-pager")}
            <table class="mapping-panel-fields">
                <thead><tr><th scope="col">"field"</th><th scope="col">"sample values"</th><th scope="col">"read as"</th><th scope="col">"unit"</th></tr></thead>
                <tbody>
                    {move || {
                        let shown = crate::many::page_range(n, page.get());
                        fields[shown].iter().map(|f| field_row(f, &quantities, on_edit)).collect_view()
                    }}
                </tbody>
            </table>
            <p class="mapping-panel-note">"Kept in this browser for files with the same fields; the command line reads it with "<code>"tpsview summarize --map mapping.json FILE"</code>"."</p>
        </section>
    }
}

/// One field: its name, samples, and the two choices.
fn field_row(
    f: &PanelField,
    quantities: &[(String, String)],
    on_edit: Callback<Correction>,
) -> impl IntoView {
    let name = f.name.clone();
    let (n_q, n_u) = (name.clone(), name.clone());
    let q_label = format!("{name}: read as");
    let u_label = format!("{name}: unit");
    let row = name.clone();
    let current = f.quantity.clone();
    let unit = f.unit.clone();
    let options = quantities
        .iter()
        .map(|(id, words)| {
            let selected = *id == current;
            view! { <option value=id.clone() selected=selected>{words.clone()}</option> }
        })
        .collect_view();
    let units = f.units.clone();
    let unit_cell = match units.len() {
        0 => None,
        1 => Some(units[0].clone().into_any()),
        _ => Some(
            view! {
                <select data-testid="mapping-unit" aria-label=u_label
                    on:change=move |ev| on_edit.run(("unit".into(), n_u.clone(), event_target_value(&ev)))>
                    {units.iter().map(|u| {
                        let selected = *u == unit;
                        view! { <option value=u.clone() selected=selected>{u.clone()}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any(),
        ),
    };
    view! {
        <tr data-field=row>
            <th scope="row"><code>{name}</code></th>
            <td class="mapping-panel-samples">{f.samples.clone()}</td>
            <td>
                <select data-testid="mapping-quantity" aria-label=q_label
                    on:change=move |ev| on_edit.run(("quantity".into(), n_q.clone(), event_target_value(&ev)))>
                    {options}
                </select>
            </td>
            <td>{unit_cell}</td>
        </tr>
    }
}
