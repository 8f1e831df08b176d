//! The viewer page: load files (picker, drop, paste, samples, `?src=`), then the charts with their
//! data-driven explanations and the summary table. It owns the state; components only wire.

use leptos::prelude::*;
use leptos::task::spawn_local;
use tpsview_components::{Chart, ChartControls, DiagnosticsList, GapNotes, SummaryTable};
use tpsview_core::chart_spec::{self, ChartOptions};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::model::Report;
use tpsview_core::summary::{summarize_report, Summary};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

use crate::load;
use crate::state::{provide_files_context, LoadedFile};

/// The `?src=` parameter of the page's URL, if any.
fn src_param() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get("src")
        .filter(|s| !s.is_empty())
}

/// The viewer.
#[component]
pub fn ViewerPage() -> impl IntoView {
    let files = provide_files_context();
    let report: Memo<Report> = Memo::new(move |_| {
        files.0.with(|f| {
            tpsview_core::group::group(f.iter().filter_map(|x| x.parsed.clone()).collect()).0
        })
    });
    let summary: Memo<Summary> = Memo::new(move |_| {
        let (runs, diagnostics) = report.with(|r| summarize_report(r, &MetricOptions::default()));
        Summary { runs, diagnostics }
    });
    let statuses = Signal::derive(move || {
        files
            .0
            .with(|f| f.iter().map(|x| x.status.clone()).collect::<Vec<_>>())
    });
    let (chart_error, set_chart_error) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    let (options, set_options) = signal(ChartOptions::default());
    let throughput =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::throughput(s, o))));
    let latency =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::latency(s, o))));
    let interactivity =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::interactivity(s, o))));
    // From unfiltered specs: a hidden series must stay in the list to be shown again.
    let series_names = Signal::derive(move || {
        summary.with(|s| {
            let all = ChartOptions::default();
            let mut names = chart_spec::throughput(s, &all).series_names();
            names.extend(chart_spec::latency(s, &all).series_names());
            names
        })
    });

    // The timeline shows one point: (run, point) indices, defaulting to the busiest level.
    let (picked, set_picked) = signal(None::<(usize, usize)>);
    let timeline_choices = Signal::derive(move || {
        report.with(|r| {
            r.runs
                .iter()
                .enumerate()
                .flat_map(|(ri, run)| {
                    run.points
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.requests.as_ref().is_some_and(|q| q.start_s.is_some()))
                        .map(move |(pi, p)| {
                            let level = p
                                .concurrency
                                .map_or_else(|| "?".to_owned(), |c| format!("{c}"));
                            ((ri, pi), format!("{} — concurrency {level}", run.label))
                        })
                })
                .collect::<Vec<_>>()
        })
    });
    let timeline_at = Memo::new(move |_| {
        let choices = timeline_choices.get();
        picked
            .get()
            .filter(|p| choices.iter().any(|c| c.0 == *p))
            .or_else(|| choices.last().map(|c| c.0))
    });
    let timeline = Memo::new(move |_| {
        let (ri, pi) = timeline_at.get()?;
        report.with(|r| chart_spec::timeline(r.runs.get(ri)?.points.get(pi)?))
    });

    let load_urls = move |urls: Vec<(String, bool)>| {
        set_busy.set(true);
        spawn_local(async move {
            let mut out: Vec<LoadedFile> = Vec::new();
            for (u, sample) in urls {
                out.push(load::fetch(&u, sample).await);
            }
            files.add(out);
            set_busy.set(false);
        });
    };
    match src_param() {
        Some(src) => load_urls(vec![(src, false)]),
        None => load_urls(vec![(load::SAMPLES[0].1.to_owned(), true)]),
    }

    let read_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list.map(|l| load::take_files(&l)) else {
            return;
        };
        set_busy.set(true);
        spawn_local(async move {
            files.add(load::read_files(list).await);
            set_busy.set(false);
        });
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        read_list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        read_list(ev.data_transfer().and_then(|d| d.files()));
    };
    let paste = NodeRef::<leptos::html::Textarea>::new();
    let on_paste_load = move |_| {
        let Some(el) = paste.get() else { return };
        let el: HtmlTextAreaElement = el;
        let text = el.value();
        if !text.trim().is_empty() {
            files.add(vec![load::from_bytes(
                "pasted text",
                text.as_bytes(),
                false,
            )]);
            el.set_value("");
        }
    };
    let on_sample = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if !v.is_empty() {
            load_urls(vec![(v, true)]);
        }
    };
    let on_error = move |e: String| set_chart_error.set(Some(e));
    let has_data = move || summary.with(|s| !s.runs.is_empty());

    view! {
        <div class="viewer-page" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <header class="viewer-page-header">
                <h1>"tpsview"</h1>
                <p class="viewer-page-tagline">"What does this tokens-per-second number actually measure?"</p>
                <div class="viewer-page-controls">
                    <label class="viewer-page-button">
                        "Open benchmark files"
                        <input type="file" multiple accept=".json,.jsonl,application/json" data-testid="file-input" on:change=on_pick/>
                    </label>
                    <label>
                        "Sample "
                        <select on:change=on_sample aria-label="load a sample report">
                            <option value="">"choose…"</option>
                            {load::SAMPLES.iter().map(|(label, path)| view! { <option value=*path>{*label}</option> }).collect_view()}
                        </select>
                    </label>
                    <button type="button" on:click=move |_| files.0.set(Vec::new())>"Clear"</button>
                    <span class="viewer-page-busy" aria-live="polite">{move || busy.get().then_some("loading…")}</span>
                </div>
                <details class="viewer-page-paste">
                    <summary>"…or paste JSON"</summary>
                    <textarea node_ref=paste aria-label="benchmark JSON" rows="4"></textarea>
                    <button type="button" on:click=on_paste_load>"Load pasted JSON"</button>
                </details>
                <p class="viewer-page-hint">"Files stay on this machine: they are read and computed here, in WebAssembly. Drop files anywhere on the page."</p>
            </header>
            <DiagnosticsList files=statuses/>
            {move || chart_error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
            <main class="viewer-page-main" class:viewer-page-empty=move || !has_data()>
                <ChartControls names=series_names options=Signal::from(options) on_change=move |o| set_options.set(o)/>
                <section aria-labelledby="h-throughput">
                    <h2 id="h-throughput">"50 or 4,000? Per-stream and system tokens per second"</h2>
                    <Chart spec=throughput label="system and per-stream tokens per second against concurrency" on_error=on_error/>
                    <GapNotes summary=Signal::from(summary)/>
                </section>
                <section aria-labelledby="h-latency">
                    <h2 id="h-latency">"Latency: TPOT and TTFT"</h2>
                    <Chart spec=latency label="TPOT and TTFT against concurrency, mean with p50 to p99 band" on_error=on_error/>
                </section>
                <section aria-labelledby="h-interactivity">
                    <h2 id="h-interactivity">"Throughput against interactivity"</h2>
                    <p class="viewer-page-note">"Each point is one concurrency level: moving right serves each user faster, moving up serves more tokens in all. The dashed line joins the levels no other level beats on both."</p>
                    <Chart spec=interactivity label="system tokens per second against per-stream tokens per second" on_error=on_error/>
                </section>
                <section aria-labelledby="h-timeline">
                    <h2 id="h-timeline">"Request timeline"</h2>
                    <label>
                        "Level "
                        <select aria-label="level shown in the timeline" data-testid="timeline-point"
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                let parsed = v.split_once(':').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
                                set_picked.set(parsed);
                            }>
                            {move || timeline_choices.get().into_iter().map(|((ri, pi), text)| {
                                let selected = timeline_at.get() == Some((ri, pi));
                                view! { <option value=format!("{ri}:{pi}") selected=selected>{text}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    {move || match timeline.get() {
                        Some(spec) => view! {
                            <Chart spec=Signal::stored(spec) label="each request's wait and prefill, then decode, in send order" on_error=on_error/>
                        }.into_any(),
                        None => view! { <p class="viewer-page-note">"No level with send times: the timeline needs each request's send time (vLLM's start_times)."</p> }.into_any(),
                    }}
                </section>
                <section aria-labelledby="h-table">
                    <h2 id="h-table">"Every figure"</h2>
                    <SummaryTable summary=Signal::from(summary)/>
                </section>
            </main>
            <footer class="viewer-page-footer">
                "Definitions (docs/metrics.md): TTFT = first token − send; TPOT = (E2E − TTFT) / (tokens − 1); ITL = gaps between streamed chunks; "
                "per-stream T/s = 1 / mean TPOT; system T/s = Σ output tokens / (last token − first send). Percentiles interpolate like numpy."
            </footer>
        </div>
    }
}
