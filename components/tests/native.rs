//! The components rendered to HTML natively (`ssr`): what the prerendered first view and `tpsview
//! report` are made of. A browser call slipped into a component's body panics here, in `cargo
//! test`, not in the CLI. Figures are checked against the summary's own points (the highest
//! system T/s found here by a plain scan), not against what the components computed.
#![cfg(not(target_arch = "wasm32"))]

use leptos::prelude::*;
use tpsview_components::{
    answered, first_view, Chart, FirstViewData, FirstViewSlots, RunAnswer, SummaryTable, TrendTable,
};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::Summary;
use tpsview_core::vocabulary::Metric;
use tpsview_core::{answer, chart_spec};

fn example() -> Summary {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../public/samples/h100-llama70b-fp8.tpsview.json"
    );
    let bytes = std::fs::read(path).expect("the built-in example");
    let parsed = tpsview_core::parse_any("h100-llama70b-fp8.tpsview.json", &bytes).expect("reads");
    tpsview_core::summarize(vec![parsed], &MetricOptions { steady_state: true })
}

/// The value of `attr` on the element whose `data-testid` is `testid`.
fn attr<'a>(html: &'a str, testid: &str, attr: &str) -> Option<&'a str> {
    let at = html.find(&format!("data-testid=\"{testid}\""))?;
    let open = html[..at].rfind('<')?;
    let end = open + html[open..].find('>')?;
    let tag = &html[open..end];
    let k = tag.find(&format!(" {attr}=\""))? + attr.len() + 3;
    Some(&tag[k..k + tag[k..].find('"')?])
}

#[test]
fn the_throughput_chart_renders_as_svg_with_its_legend() {
    let s = example();
    let spec = chart_spec::throughput(&s, &chart_spec::ChartOptions::default());
    let entries = tpsview_plot::legend_entries(&spec, false).len();
    let html = view! {
        <Chart spec=Signal::stored(spec) label="throughput" on_error=Callback::new(|e: String| panic!("{e}"))/>
    }
    .to_html();
    assert_eq!(attr(&html, "chart-throughput", "data-drawn"), Some("true"));
    assert_eq!(attr(&html, "chart-throughput", "data-static"), Some("true"));
    // Light and dark, the stylesheet showing one.
    // At the desktop box's size (1,168 × 460: what the canvas fills there).
    let (w, h) = tpsview_components::static_chart_size("throughput");
    assert_eq!((w, h), (1168, 460));
    assert_eq!(html.matches(&format!("viewBox=\"0 0 {w} {h}\"")).count(), 2);
    // And at a phone's (372 × 520), light and dark: four drawings, the stylesheet shows one.
    assert_eq!(html.matches("viewBox=\"0 0 372 520\"").count(), 2);
    for class in [
        "chart-static-light chart-static-wide",
        "chart-static-dark chart-static-wide",
        "chart-static-light chart-static-narrow",
        "chart-static-dark chart-static-narrow",
    ] {
        assert_eq!(
            html.matches(&format!("class=\"{class}\"")).count(),
            1,
            "{class}"
        );
    }
    assert_eq!(
        html.matches("class=\"chart-legend-entry\"").count(),
        entries
    );
    assert!(entries >= 2, "{entries} legend entries");
}

#[test]
fn the_answer_cards_and_the_table_render_the_summarys_figures() {
    let s = example();
    let run = &s.runs[0];
    // The peak by a plain scan of the points.
    let (peak, at) = run
        .points
        .iter()
        .filter_map(|p| Some((p.get(Metric::SystemTps)?, p.metrics.concurrency)))
        .fold((f64::MIN, None), |a, b| if b.0 > a.0 { b } else { a });
    let html = view! {
        <RunAnswer run=run.clone() header=answer::header(run) answers=answer::answers(run) health=(0, 0, 0)/>
        <SummaryTable summary=Signal::stored(s.clone())/>
    }
    .to_html();
    let shown: f64 = attr(&html, "kpi-peak-system", "data-value")
        .expect("the peak card")
        .parse()
        .expect("a number");
    assert!(
        (shown - peak).abs() <= 1e-9 * peak,
        "{shown} against {peak}"
    );
    let c: Option<f64> =
        attr(&html, "kpi-peak-system", "data-concurrency").and_then(|c| c.parse().ok());
    assert_eq!(c, at);
    // One table row per level.
    let levels: usize = s.runs.iter().map(|r| r.points.len()).sum();
    assert_eq!(
        html.matches("data-testid=\"summary-row\"").count(),
        levels.min(50)
    );
}

#[test]
fn the_first_view_renders_natively_as_the_page_composes_it() {
    let s = example();
    let (answers, more) = answered(&s);
    let spec = chart_spec::throughput(&s, &chart_spec::ChartOptions::default());
    let html = Owner::new().with(|| {
        let data = FirstViewData {
            answers: Memo::new(move |_| answers.clone()),
            more_runs: Signal::stored(more),
            health: Memo::new(|_| Vec::new()),
            throughput: Signal::stored(spec),
            summary: Signal::stored(s.clone()),
            table: signal(true).0,
        };
        first_view(
            data,
            Callback::new(|e: String| panic!("{e}")),
            FirstViewSlots::NONE,
        )
        .to_html()
    });
    // The answer first: the cards, then the chart, then the table.
    let (cards, chart, table) = (
        html.find("data-testid=\"kpi-peak-system\"").expect("cards"),
        html.find("data-testid=\"chart-throughput\"")
            .expect("chart"),
        html.find("data-testid=\"summary-row\"").expect("table"),
    );
    assert!(cards < chart && chart < table);
    // Up to three runs, each answered; past three, the highest peak alone.
    let n = s.runs.len();
    assert_eq!(
        html.matches("data-testid=\"run-answer\"").count(),
        if n <= 3 { n } else { 1 }
    );
}

/// A llama-bench JSONL of `runs` runs (builds) of `depths` depths each.
fn many_runs(runs: usize, depths: usize) -> Summary {
    let mut text = String::new();
    for r in 0..runs {
        for d in 0..depths {
            text.push_str(&format!(
                "{{\"build_commit\": \"b{r}\", \"model_type\": \"llama 8B\", \"n_prompt\": 0, \"n_gen\": 128, \"n_depth\": {}, \"avg_ns\": 3000000000, \"avg_ts\": {}, \"n_threads\": 8, \"test_time\": \"2026-11-30T10:00:00Z\"}}\n",
                512 * d,
                40.0 - d as f64
            ));
        }
    }
    let parsed = tpsview_core::parse_any("many.jsonl", text.as_bytes()).expect("reads");
    tpsview_core::summarize(vec![parsed], &MetricOptions::default())
}

#[test]
fn static_html_writes_every_row_and_every_entry_out() {
    // In the browser the table pages past 50 rows and a list past a dozen entries is built when
    // opened; static HTML has no script for either, so all of it is written.
    let s = many_runs(20, 6);
    assert_eq!(s.runs.len(), 20);
    let html = view! {
        <SummaryTable summary=Signal::stored(s.clone())/>
        <tpsview_components::ToolDefinitions summary=Signal::stored(s.clone())/>
    }
    .to_html();
    assert_eq!(html.matches("data-testid=\"summary-row\"").count(), 120);
    assert!(!html.contains("summary-table-pager"));
    // Each run's tool definitions, inside the folded list.
    for run in &s.runs {
        assert!(
            html.contains(&run.id.to_string().replace('&', "&amp;")),
            "{}",
            run.id
        );
    }
}

#[test]
fn the_trend_table_names_each_run_as_text_with_its_headline_figures() {
    // Three runs of the example's setup on three dates; the second named with HTML in it.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../public/samples/h100-llama70b-fp8.tpsview.json"
    );
    let bytes = std::fs::read(path).expect("the built-in example");
    let mut report = tpsview_core::parse_any("example.tpsview.json", &bytes)
        .expect("reads")
        .report;
    let run = report.runs[0].clone();
    report.runs.clear();
    for (night, label) in [
        ("2026-11-28", "night one"),
        ("2026-11-29", "<b>night</b> two"),
        ("2026-11-30", "night three"),
    ] {
        let mut r = run.clone();
        r.label = label.into();
        r.meta.date = Some(night.into());
        report.runs.push(r);
    }
    let summary = Summary {
        runs: tpsview_core::summary::summarize_report(&report, &MetricOptions::default()).0,
        diagnostics: Vec::new(),
    };
    let setup = tpsview_core::noise::history::setups(&report)
        .pop()
        .expect("a history");
    let entries = tpsview_core::noise::history::entries(&report, &summary, &setup, &[]);
    let ids: Vec<String> = entries
        .iter()
        .map(|e| summary.runs[e.run].id.to_string())
        .collect();
    let html = view! { <TrendTable entries=entries ids=ids judged=false/> }.to_html();
    assert_eq!(html.matches("data-testid=\"trend-row\"").count(), 3);
    assert!(!html.contains("<b>"), "{html}");
    assert!(html.contains("&lt;b&gt;night&lt;/b&gt; two"), "{html}");
    // The peak, by a plain scan of the first run's levels.
    let peak = summary.runs[0]
        .points
        .iter()
        .filter_map(|p| p.metrics.system_tps)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(html.contains(&format!("data-value=\"{peak}\"")), "{peak}");
    assert!(html.contains("first run") && html.contains("judging…"));
}

#[test]
fn the_mapping_panel_shows_each_field_its_samples_as_text_and_the_current_choices() {
    // A file no reader knows, with HTML in a field name and a value; `ttft_ms` in a name the
    // proposal reads, `<i>n</i>` in one it does not. 60 fields: past a page the table pages
    // (statically every row is written out).
    let mut row = String::from(r#"{"ttft_ms": 120, "latency_ms": 900, "<i>n</i>": "<b>x</b>""#);
    for k in 0..57 {
        row.push_str(&format!(r#", "extra_{k:02}": {k}"#));
    }
    row.push('}');
    let text = format!("{row}\n{row}\n");
    let (_, offer) =
        tpsview_core::formats::read_unknown("own.jsonl", text.as_bytes(), |_| None, &[])
            .expect("rows of named fields");
    let panel = offer.panel();
    let html = view! {
        <tpsview_components::MappingPanel file="own.jsonl".to_owned() panel=panel
            on_edit=Callback::new(|_| ()) on_save=Callback::new(|_| ())/>
    }
    .to_html();
    assert_eq!(
        html.matches("<tr data-field=").count(),
        60,
        "every field, statically"
    );
    assert!(
        !html.contains("<i>n</i>") && !html.contains("<b>x</b>"),
        "{html}"
    );
    assert!(html.contains("&lt;i&gt;n&lt;/i&gt;") && html.contains("&lt;b&gt;x&lt;/b&gt;"));
    assert_eq!(
        attr(&html, "mapping-panel", "data-origin"),
        Some("proposed")
    );
    // `ttft_ms` is read as TTFT in ms: both selected.
    let ttft = &html[html.find("<tr data-field=\"ttft_ms\"").unwrap()..];
    let ttft = &ttft[..ttft.find("</tr>").unwrap()];
    assert!(ttft.contains(r#"<option value="ttft" selected"#), "{ttft}");
    assert!(ttft.contains(r#"<option value="ms" selected"#), "{ttft}");
    assert!(html.contains("It holds 2 rows with 60 fields"), "{html}");
}
