//! Components mounted in a real headless Chromium (wasm-bindgen-test): feed data, read the DOM.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use tpsview_components::{
    Chart, DiagnosticsList, FileStatus, GapNotes, SummaryTable, ToolDefinitions,
};
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::Summary;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn seed_summary() -> Summary {
    let text = tpsview_core::formats::tpsview::write(&tpsview_core::simulate::seed_report());
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).expect("seed parses");
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

fn host() -> web_sys::HtmlElement {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("document");
    let div = doc.create_element("div").expect("div");
    doc.body()
        .expect("body")
        .append_child(&div)
        .expect("append");
    div.unchecked_into()
}

#[wasm_bindgen_test]
async fn summary_table_has_a_row_per_point_with_unrounded_values() {
    let summary = seed_summary();
    let expected = summary.runs[0].points[2]
        .metrics
        .system_tps
        .expect("system T/s");
    let el = host();
    let (sig, set_sig) = signal(summary);
    let _h = leptos::mount::mount_to(
        el.clone(),
        move || view! { <SummaryTable summary=Signal::from(sig)/> },
    );
    leptos::task::tick().await;
    let rows = el
        .query_selector_all("[data-testid=summary-row]")
        .expect("query");
    assert_eq!(rows.length(), 4);
    let cell = el
        .query_selector("[data-testid=summary-row][data-concurrency='64'] [data-metric=system_tps]")
        .expect("query")
        .expect("cell");
    let value: f64 = cell
        .get_attribute("data-value")
        .expect("data-value")
        .parse()
        .expect("number");
    assert_eq!(value, expected);
    // Removing the data empties the table: the component follows its signal.
    set_sig.set(Summary {
        runs: vec![],
        diagnostics: vec![],
    });
    leptos::task::tick().await;
    assert_eq!(
        el.query_selector_all("[data-testid=summary-row]")
            .expect("query")
            .length(),
        0
    );
}

#[wasm_bindgen_test]
async fn gap_notes_explain_each_batch_with_the_data() {
    let el = host();
    let summary = seed_summary();
    let _h = leptos::mount::mount_to(
        el.clone(),
        move || view! { <GapNotes summary=Signal::stored(summary.clone())/> },
    );
    leptos::task::tick().await;
    let text = el.text_content().unwrap_or_default();
    assert!(
        text.contains("At batch 128, 128 streams share each read of the weights"),
        "{text}"
    );
    assert!(
        text.contains("fewer streams in flight than the target"),
        "{text}"
    );
}

#[wasm_bindgen_test]
async fn diagnostics_list_shows_errors_as_text() {
    let el = host();
    let files = vec![FileStatus {
        name: "<b>x</b>.json".into(),
        format: None,
        format_id: None,
        run_label: String::new(),
        can_reread: false,
        error: Some("<img src=x onerror=alert(1)>: not valid JSON".into()),
        diagnostics: vec![],
        mapping: None,
    }];
    let _h = leptos::mount::mount_to(
        el.clone(),
        move || view! { <DiagnosticsList files=Signal::stored(files.clone())/> },
    );
    leptos::task::tick().await;
    let err = el
        .query_selector("[data-testid=load-error]")
        .expect("query")
        .expect("error shown");
    assert_eq!(
        err.text_content().unwrap_or_default(),
        "<img src=x onerror=alert(1)>: not valid JSON"
    );
    assert!(el.query_selector("img").expect("query").is_none());
    assert!(el.query_selector("b").expect("query").is_none());
}

/// Resolves once no deferred work is pending (`tpsview_components::pending()`, the count the page
/// publishes as `data-busy`): every draw asked for so far has run. Yields a task at a time.
async fn settled() {
    loop {
        leptos::task::tick().await;
        if tpsview_components::pending() == 0 {
            return;
        }
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .expect("window")
                .set_timeout_with_callback(&resolve);
        });
        wasm_bindgen_futures::JsFuture::from(p)
            .await
            .expect("timer");
    }
}

#[wasm_bindgen_test]
async fn chart_draws_its_spec_on_a_named_canvas() {
    let el = host();
    el.set_attribute("style", "width: 800px").expect("style");
    let spec = chart_spec::throughput(&seed_summary(), &ChartOptions::default());
    let (errors, set_errors) = signal(Vec::<String>::new());
    let _h = leptos::mount::mount_to(el.clone(), move || {
        view! { <Chart spec=Signal::stored(spec.clone()) label="t" on_error=move |e| set_errors.update(|v| v.push(e))/> }
    });
    leptos::task::tick().await;
    // The chart draws in a task of its own (a zero-delay timer).
    settled().await;
    let canvas = el
        .query_selector("[data-testid=chart-throughput]")
        .expect("query")
        .expect("canvas");
    assert_eq!(canvas.get_attribute("data-drawn").as_deref(), Some("true"));
    let ms: f64 = canvas
        .get_attribute("data-draw-ms")
        .expect("timed")
        .parse()
        .expect("number");
    assert!(ms >= 0.0);
    assert!(
        errors.get_untracked().is_empty(),
        "{:?}",
        errors.get_untracked()
    );
    assert!(
        el.query_selector("[data-testid=chart-tooltip]")
            .expect("query")
            .is_none(),
        "no tooltip before hovering"
    );
}

#[wasm_bindgen_test]
async fn tool_definitions_mark_each_audited_figure() {
    let files = vec![
        tpsview_core::parse_any(
            "export.json",
            include_bytes!(
                "../../tests/fixtures/llmperf/llama-3-8b_550_150_individual_responses.json"
            ),
        )
        .expect("parses"),
        tpsview_core::parse_any(
            "summary.json",
            include_bytes!("../../tests/fixtures/llmperf/llama-3-8b_550_150_summary.json"),
        )
        .expect("parses"),
    ];
    let summary = tpsview_core::summarize(files, &MetricOptions::default());
    let audited = summary.runs[0].points[0].audited.len();
    assert!(audited > 5);
    let el = host();
    let _h = leptos::mount::mount_to(
        el.clone(),
        move || view! { <ToolDefinitions summary=Signal::stored(summary.clone())/> },
    );
    leptos::task::tick().await;
    let agrees = el
        .query_selector_all("td[data-audit=agrees]")
        .expect("query")
        .length() as usize;
    assert_eq!(agrees, audited);
    let text = el.text_content().unwrap_or_default();
    assert!(text.contains("How LLMPerf defines the numbers"), "{text}");
    // LLMPerf's ITL is not tpsview's TPOT: the row says how LLMPerf defines it.
    let row = el
        .query_selector("tr[data-tool-key=results_inter_token_latency_s_mean]")
        .expect("query")
        .expect("row");
    assert!(row
        .text_content()
        .unwrap_or_default()
        .contains("first-token wait included"));
}

fn key(el: &web_sys::Element, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let ev =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
}

fn tooltip_rows(el: &web_sys::HtmlElement) -> Option<Vec<String>> {
    el.query_selector("[data-testid=chart-tooltip]")
        .expect("query")?;
    let rows = el
        .query_selector_all("[data-testid=chart-tooltip] th")
        .expect("query");
    Some(
        (0..rows.length())
            .filter_map(|i| rows.item(i)?.text_content())
            .collect(),
    )
}

#[wasm_bindgen_test]
async fn a_key_pressed_while_a_redraw_is_pending_keeps_its_tooltip() {
    let el = host();
    el.set_attribute("style", "width: 800px").expect("style");
    let summary = seed_summary();
    let all = chart_spec::throughput(&summary, &ChartOptions::default());
    let names = all.series_names();
    assert_eq!(names.len(), 2, "{names:?}");
    let spec = RwSignal::new(all);
    let _h = leptos::mount::mount_to(el.clone(), move || {
        view! { <Chart spec=Signal::from(spec) label="t" on_error=|_| ()/> }
    });
    settled().await;
    let canvas = el
        .query_selector("[data-testid=chart-throughput]")
        .expect("query")
        .expect("canvas");
    let draws = |c: &web_sys::Element| -> u64 {
        c.get_attribute("data-draws")
            .and_then(|d| d.parse().ok())
            .expect("data-draws")
    };
    let first = draws(&canvas);
    // One series hidden: the redraw is now pending, and a key arrives before it runs.
    let mut hidden = ChartOptions::default();
    hidden.hidden.push(names[1].clone());
    spec.set(chart_spec::throughput(&summary, &hidden));
    leptos::task::tick().await;
    assert_eq!(canvas.get_attribute("aria-busy").as_deref(), Some("true"));
    assert!(tpsview_components::pending() > 0);
    key(&canvas, "ArrowRight");
    leptos::task::tick().await;
    let only_first = |rows: Option<Vec<String>>| {
        rows.is_some_and(|r| r.len() == 1 && r[0].ends_with(names[0].as_str()))
    };
    assert!(only_first(tooltip_rows(&el)), "{:?}", tooltip_rows(&el));
    settled().await;
    assert!(draws(&canvas) > first, "drawn again");
    assert_eq!(canvas.get_attribute("aria-busy"), None);
    // The redraw kept the tooltip, at the same level, with the series left.
    assert!(
        only_first(tooltip_rows(&el)),
        "the tooltip survives the redraw: {:?}",
        tooltip_rows(&el)
    );
    let title = el
        .query_selector(".chart-tooltip-title")
        .expect("query")
        .and_then(|t| t.text_content());
    assert_eq!(title.as_deref(), Some("concurrency 1"));
    // Escape closes it.
    key(&canvas, "Escape");
    leptos::task::tick().await;
    assert_eq!(tooltip_rows(&el), None);
}
