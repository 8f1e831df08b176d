//! The viewer: the runs' legend, the charts with their data-driven explanations and exports, the
//! summary table, the baseline comparison, and sharing.

use leptos::prelude::*;
use leptos::task::spawn_local;
use tpsview_components::{
    first_view, Answered, Chart, ChartControls, DiffTable, FirstViewData, FirstViewSlots, GapNotes,
    HealthPanel, RunLegend, ToolDefinitions,
};
use tpsview_core::answer;
use tpsview_core::chart_spec::{self, ChartOptions, ChartSpec, Empty};
use tpsview_core::compare::{self, CompareOptions};
use tpsview_core::health::{self, HealthItem};
use tpsview_core::noise;
use tpsview_core::vocabulary::RunId;

use crate::share;
use crate::state::{use_analysis, use_files, use_view, Analysis};
use crate::view::bundle;

/// Resampled values the page draws for the diff's verdicts in one task (about 10 ms).
pub(super) const VERDICT_STEP: usize = 4_000_000;
/// The most one figure's interval may draw in the page (it is drawn in one task).
pub(super) const VERDICT_MAX: usize = 8_000_000;
/// The most the page draws for one comparison's verdicts in all.
pub(super) const VERDICT_BUDGET: usize = 400_000_000;

/// One step of the diff's verdicts, then the next in a task of its own until all are judged.
#[allow(clippy::too_many_arguments)]
fn judge_steps(
    stream: tpsview_components::Latest,
    report: Memo<crate::state::Grouped>,
    summary: Memo<tpsview_core::Summary>,
    into: RwSignal<Option<Vec<noise::Judged>>>,
    baseline: usize,
    opts: noise::JudgeOptions,
    mut at: noise::Cursor,
    mut out: Vec<noise::Judged>,
) {
    stream.run_later(move || {
        let done = report.try_with_untracked(|g| {
            summary.try_with_untracked(|s| {
                noise::judge_some(
                    &g.report,
                    s,
                    baseline,
                    &opts,
                    &mut at,
                    VERDICT_STEP,
                    &mut out,
                )
            })
        });
        match done.flatten() {
            Some(true) => {
                into.try_set(Some(out));
            }
            Some(false) => judge_steps(stream, report, summary, into, baseline, opts, at, out),
            None => {}
        }
    });
}

/// Each level's own intervals (`noise::intervals_some`), a step of at most `VERDICT_STEP`
/// resampled values a task, within the verdicts' limits, until every level has them.
fn interval_steps(
    stream: tpsview_components::Latest,
    report: Memo<crate::state::Grouped>,
    into: RwSignal<Option<Vec<Vec<Option<noise::LevelIntervals>>>>>,
    mut at: noise::LevelCursor,
    mut out: Vec<Vec<Option<noise::LevelIntervals>>>,
) {
    stream.run_later(move || {
        let limits = noise::Limits {
            max_cost: Some(VERDICT_MAX),
            budget: Some(VERDICT_BUDGET),
        };
        let done = report.try_with_untracked(|g| {
            noise::intervals_some(&g.report, &mut at, VERDICT_STEP, &limits, &mut out)
        });
        match done {
            Some(true) => {
                into.try_set(Some(out));
            }
            Some(false) => interval_steps(stream, report, into, at, out),
            None => {}
        }
    });
}

/// A button that copies `text` to the clipboard and says so.
fn copy_button(testid: &'static str, text: String) -> impl IntoView {
    let (said, set_said) = signal(None::<&'static str>);
    let copy = move |_| {
        let text = text.clone();
        spawn_local(async move {
            let done = match web_sys::window().map(|w| w.navigator().clipboard()) {
                Some(c) => wasm_bindgen_futures::JsFuture::from(c.write_text(&text))
                    .await
                    .is_ok(),
                None => false,
            };
            set_said.set(Some(if done {
                "Copied."
            } else {
                "Could not copy: select the text and copy it."
            }));
        });
    };
    view! {
        <button type="button" data-testid=testid on:click=copy>"Copy"</button>
        <span class="viewer-page-note" role="status" data-testid=format!("{testid}-status")>{move || said.get()}</span>
    }
}

/// Today's date as the page's clock gives it (`2026-11-30`), for an export's provenance.
fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.chars().take(10).collect()
}

/// PNG (2×) and SVG downloads of one chart, each with its legend drawn in and a provenance footer.
fn exports(spec: Signal<ChartSpec>, on_error: Callback<String>) -> impl IntoView {
    let Analysis { summary, .. } = use_analysis();
    let id = move || spec.with(|s| s.id.id());
    let footer = move || {
        let what = spec.with(|s| format!("{} chart", s.id.id()));
        summary.with(|s| answer::provenance(s, &what, &today()))
    };
    let png = move |_| {
        let id = spec.with(|s| s.id.id());
        let foot = footer();
        let done = spec
            .with(|s| tpsview_components::export_png(s, &foot))
            .map_err(|e| e.to_string())
            .and_then(|url| {
                share::download_url(&format!("tpsview-{id}.png"), &url)
                    .map_err(|e| format!("{e:?}"))
            });
        if let Err(e) = done {
            on_error.run(format!("the PNG could not be made: {e}"));
        }
    };
    let svg = move |_| {
        let foot = footer();
        let (id, text) = spec.with(|s| {
            (
                s.id.id(),
                tpsview_plot::chart_svg_with_footer(s, (900, 622), Some(&foot)),
            )
        });
        let done = text.map_err(|e| e.to_string()).and_then(|t| {
            share::download(&format!("tpsview-{id}.svg"), "image/svg+xml", t.as_bytes())
                .map_err(|e| format!("{e:?}"))
        });
        if let Err(e) = done {
            on_error.run(format!("the SVG could not be made: {e}"));
        }
    };
    view! {
        <p class="viewer-page-exports">
            "Download (with legend and provenance): "
            <button type="button" data-testid=move || format!("export-png-{}", id()) on:click=png>"PNG (2×)"</button>
            " "
            <button type="button" data-testid=move || format!("export-svg-{}", id()) on:click=svg>"SVG"</button>
        </p>
    }
}

/// What an empty chart says inside itself, and the fix it offers (a concurrency for files that
/// lack one). Nothing while the chart has something to draw.
fn empty_note(spec: Signal<ChartSpec>) -> impl IntoView {
    let Analysis { summary, .. } = use_analysis();
    let view = use_view();
    let files = use_files();
    let why = Memo::new(move |_| {
        let opts = view.0.with(|v| v.chart_options());
        spec.with(|sp| summary.with(|s| chart_spec::why_empty(sp, s, &opts)))
    });
    move || {
        why.get().map(|e| {
            let id = spec.with_untracked(|s| s.id.id());
            let fix = match &e {
                // Past three files, one field sets them all (the files listed beneath).
                Empty::NoConcurrency { files: names } if names.len() > tpsview_core::bounds::EACH => {
                    let all = names.clone();
                    let n = names.len();
                    view! {
                        <label class="chart-empty-fix">
                            {format!("concurrency of all {n} files ")}
                            <input type="number" min="1" step="1" data-testid="set-concurrency-all"
                                on:change=move |ev| {
                                    if let Ok(c) = event_target_value(&ev).trim().parse::<f64>() {
                                        for f in &all {
                                            files.set_concurrency(f, c);
                                        }
                                    }
                                }/>
                        </label>
                        <details class="many"><summary>{format!("the {n} files")}</summary><p>{names.join(", ")}</p></details>
                    }
                    .into_any()
                }
                Empty::NoConcurrency { files: names } => names
                    .iter()
                    .map(|name| {
                        let n = name.clone();
                        view! {
                            <label class="chart-empty-fix">
                                {format!("concurrency of {name} ")}
                                <input type="number" min="1" step="1" data-testid="set-concurrency" data-file=name.clone()
                                    on:change=move |ev| {
                                        if let Ok(c) = event_target_value(&ev).trim().parse::<f64>() {
                                            files.set_concurrency(&n, c);
                                        }
                                    }/>
                            </label>
                        }
                    })
                    .collect_view()
                    .into_any(),
                _ => ().into_any(),
            };
            view! {
                <div class="chart-empty" data-testid="chart-empty" data-chart=id role="note">
                    <p>{e.words()}</p>
                    {fix}
                </div>
            }
        })
    }
}

/// The viewer.
#[component]
pub fn ViewerPage() -> impl IntoView {
    let Analysis { report, ready, .. } = use_analysis();
    let view = use_view();
    let files = use_files();
    let compare_opts = Signal::derive(move || {
        view.0.with(|v| CompareOptions {
            per_gpu: v.per_gpu,
            gpu_counts: v.gpu_counts.clone(),
        })
    });
    // Every figure, with each level against the SLO and priced when the view asks (capacity.rs).
    let summary = super::capacity::planned();
    let (chart_error, set_chart_error) = signal(None::<String>);
    let options = Signal::derive(move || view.0.with(|v| v.chart_options()));
    let set_options = move |o: ChartOptions| view.0.update(|v| v.set_chart_options(&o));
    let throughput =
        Signal::derive(move || summary.with(|s| options.with(|o| chart_spec::throughput(s, o))));
    // Each level's own intervals over its requests, computed in steps once the table is up (see
    // below): the table's ± and the latency chart's interval band read them.
    let intervals = RwSignal::new(None::<Vec<Vec<Option<noise::LevelIntervals>>>>);
    let with_intervals = Memo::new(move |_| {
        let mut s = summary.get();
        intervals.with(|iv| {
            for (run, levels) in s.runs.iter_mut().zip(iv.iter().flatten()) {
                for (p, l) in run.points.iter_mut().zip(levels) {
                    p.intervals.clone_from(l);
                }
            }
        });
        s
    });
    let latency = Signal::derive(move || {
        options.with(|o| {
            if o.latency_interval {
                with_intervals.with(|s| chart_spec::latency(s, o))
            } else {
                summary.with(|s| chart_spec::latency(s, o))
            }
        })
    });
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
    // The timeline's spec (every request's spans, the steady window) is built in a task of its
    // own after the report changes: with thousands of requests it is the page's biggest job.
    let timeline = RwSignal::new(None::<ChartSpec>);
    let timeline_builds = tpsview_components::Latest::new();
    Effect::new(move |_| {
        let at = timeline_at.get();
        report.track();
        timeline_builds.run_later(move || {
            let spec = at.and_then(|(ri, pi)| {
                report
                    .try_with_untracked(|r| chart_spec::timeline(r.runs.get(ri)?.points.get(pi)?))
                    .flatten()
            });
            timeline.try_set(spec);
        });
    });
    let on_error = move |e: String| set_chart_error.set(Some(e));
    let on_error_cb = Callback::new(on_error);

    // Runs, the baseline and the comparison.
    let run_ids = Signal::derive(move || {
        summary.with(|s| s.runs.iter().map(|r| r.id.clone()).collect::<Vec<_>>())
    });
    let hidden_runs = Signal::derive(move || view.0.with(|v| v.hidden_runs.clone()));
    let baseline_index = Memo::new(move |_| {
        let want = view.0.with(|v| v.baseline.clone());
        summary.with(|s| {
            want.and_then(|w| s.runs.iter().position(|r| r.id == w))
                .unwrap_or(0)
        })
    });
    // A memo: the diff table, its pager and the CSV read it, and with dozens of runs a
    // comparison is not free.
    let comparison = Memo::new(move |_| {
        let opts = compare_opts.get();
        let b = baseline_index.get();
        summary.with(|s| {
            (s.runs.len() > 1)
                .then(|| compare::compare(s, b, &opts))
                .flatten()
        })
    });
    // The answer first: each run's header and answer cards, and the data's health — derived once
    // the summary is the current files' (until then the last answer stays, so nothing flickers).
    // Past three runs, the cards of the run with the highest peak system T/s and a line saying how
    // many more (`answer::leading`): with dozens of runs the charts and the table come next.
    let answers = Memo::new(move |prev: Option<&Vec<Answered>>| {
        if !ready.get() {
            return prev.cloned().unwrap_or_default();
        }
        summary.with(|s| tpsview_components::answered(s).0)
    });
    let health_items = Memo::new(move |prev: Option<&Vec<HealthItem>>| {
        if !ready.get() {
            return prev.cloned().unwrap_or_default();
        }
        let opts = compare_opts.get();
        report.with(|g| summary.with(|s| health::health(&g.report, s, &opts)))
    });
    let more_runs = Signal::derive(move || {
        summary
            .with(|s| s.runs.len())
            .saturating_sub(answers.with(Vec::len))
    });

    let download_csv = move |name: &str, text: String| {
        if let Err(e) = share::download(name, "text/csv", text.as_bytes()) {
            on_error(format!("the CSV could not be made: {e:?}"));
        }
    };

    // Sharing.
    let (permalink, set_permalink) = signal(None::<(String, Vec<String>)>);
    let (inline, set_inline) = signal(None::<Result<(String, &'static str, String), String>>);
    let make_permalink = move |_| {
        let (sources, local): (Vec<_>, Vec<_>) = files.0.with(|f| {
            let sources = f
                .iter()
                .filter(|x| x.parsed.is_some())
                .filter_map(|x| x.source_url.clone())
                .collect();
            let local = f
                .iter()
                .filter(|x| x.parsed.is_some() && x.source_url.is_none())
                .map(|x| x.status.name.clone())
                .collect();
            (sources, local)
        });
        let link = view.0.with(|v| share::permalink(&sources, v));
        set_permalink.set(Some((link, local)));
    };
    let bundle_text = move || {
        report.with(|g| {
            view.0
                .with(|v| bundle(&tpsview_core::formats::tpsview::write(&g.report), v))
        })
    };
    let export_bundle = move |_| {
        if let Err(e) = share::download(
            "tpsview-bundle.tpsview.json",
            "application/json",
            bundle_text().as_bytes(),
        ) {
            on_error(format!("the bundle could not be made: {e:?}"));
        }
    };
    // A link with the data inside: the whole bundle when it fits; else the per-level figures
    // alone (no per-request data), and the page says which it is.
    let figures_bundle = move || {
        report.with(|g| {
            summary.with(|s| {
                view.0.with(|v| {
                    bundle(
                        &tpsview_core::formats::tpsview::write(
                            &tpsview_core::summary::figures_only(&g.report, s),
                        ),
                        v,
                    )
                })
            })
        })
    };
    let make_inline = move |_| {
        let full = bundle_text();
        let slim = figures_bundle();
        spawn_local(async move {
            let limit = share::INLINE_LIMIT / 1024;
            let r = match share::inline_link(&full).await {
                Ok(Some(link)) => Ok((link, "full", "This link holds every run with its per-request data.".to_owned())),
                Ok(None) => match share::inline_link(&slim).await {
                    Ok(Some(link)) => Ok((link, "figures", format!(
                        "The per-request data is too large for a link (over {limit} KB compressed): this link holds every run's per-level figures, not the requests. Export the bundle for those."
                    ))),
                    Ok(None) => Err(format!(
                        "These runs are too large for a link even as per-level figures (over {limit} KB compressed): export the bundle instead."
                    )),
                    Err(e) => Err(format!("this browser cannot compress the bundle: {e:?}")),
                },
                Err(e) => Err(format!("this browser cannot compress the bundle: {e:?}")),
            };
            set_inline.set(Some(r));
        });
    };
    // Every metric named on a chart links to its glossary entry.
    let terms = tpsview_components::terms;
    let has_data = move || summary.with(|s| !s.runs.is_empty());
    // The tables (every figure, then the baseline diff, then each tool's definitions) are built
    // each a task after the one before, the first a task after the answer and the charts' specs,
    // so that a load of dozens of runs never builds the whole page in one task; the page counts
    // as busy until they are.
    let (below, set_below) = signal(false);
    let (diff_shown, set_diff_shown) = signal(false);
    let (defs_shown, set_defs_shown) = signal(false);
    let below_task = tpsview_components::Latest::new();
    Effect::new(move |_| {
        if ready.get() {
            below_task.run_later(move || {
                set_below.set(true);
                below_task.run_later(move || {
                    set_diff_shown.set(true);
                    below_task.run_later(move || set_defs_shown.set(true));
                });
            });
        } else {
            set_below.set(false);
            set_diff_shown.set(false);
            set_defs_shown.set(false);
        }
    });
    // The diff's verdicts against noise (`noise::judge_some`), judged once the tables are up, in
    // steps of at most `VERDICT_STEP` resampled values a task so that no task holds the thread
    // long however many runs there are; a figure dearer than `VERDICT_MAX` alone, or past
    // `VERDICT_BUDGET` in all, says `tpsview compare` judges it. `None` while judging: the diff
    // table is shown once judged. A new baseline or new files start over (the `Latest` stream
    // drops the old steps).
    let judged_ids = Memo::new(move |_| run_ids.get());
    let interval_task = tpsview_components::Latest::new();
    Effect::new(move |_| {
        judged_ids.track();
        intervals.set(None);
        if below.get() {
            interval_steps(
                interval_task,
                report,
                intervals,
                Default::default(),
                Vec::new(),
            );
        }
    });
    let verdicts = RwSignal::new(None::<Vec<noise::Judged>>);
    let judging = tpsview_components::Latest::new();
    Effect::new(move |_| {
        let b = baseline_index.get();
        judged_ids.track();
        verdicts.set(None);
        if !diff_shown.get() {
            return;
        }
        let opts = noise::JudgeOptions {
            max_cost: Some(VERDICT_MAX),
            budget: Some(VERDICT_BUDGET),
            ..noise::JudgeOptions::default()
        };
        judge_steps(
            judging,
            report,
            summary,
            verdicts,
            b,
            opts,
            Default::default(),
            Vec::new(),
        );
    });

    view! {
        {move || chart_error.get().map(|e| view! { <p class="viewer-page-error" role="alert">{e}</p> })}
        <main class="viewer-page-main" class:viewer-page-empty=move || !has_data()
            data-testid="viewer" data-ready=move || ready.get().to_string()
            data-intervals=move || intervals.with(|i| if i.is_some() { "done" } else { "pending" })>
            {first_view(
                FirstViewData {
                    answers,
                    more_runs,
                    health: health_items,
                    throughput,
                    summary: Signal::from(with_intervals),
                    table: below,
                },
                on_error_cb,
                FirstViewSlots {
                    between: view! {
                    {move || has_data().then(|| view! { <HealthPanel items=Signal::from(health_items)/> })}
                    <RunLegend runs=run_ids hidden=hidden_runs
                        on_toggle=move |id: RunId| view.0.update(|v| v.toggle_run(&id))
                        on_remove=move |id: RunId| {
                            if let Some(key) = report.with_untracked(|g| files.key_of(g, &id)) {
                                files.remove_run(&key);
                            }
                            view.0.update(|v| v.forget_run(&id));
                        }/>
                    },
                    above_chart: terms(tpsview_components::THROUGHPUT_TERMS),
                    in_chart: empty_note(throughput),
                    // Under the chart, not above it: the chart starts in the first screen.
                    under_chart: view! {
                    <ChartControls names=series_names options=options on_change=set_options/>
                    {exports(throughput, on_error_cb)}
                    <GapNotes summary=Signal::from(summary)/>
                    // Offered only where the walkthrough has levels to walk (a concurrency and both
                    // aggregations).
                    {move || summary.with(|s| s.runs.iter().any(|r| !tpsview_core::learn::walkthrough(r).is_empty())).then(|| view! {
                        <p><a href="#learn/1" data-testid="explain-link">"Explain this run step by step →"</a></p>
                    })}
                    {super::capacity::capacity_panel(Signal::from(summary))}
                    },
                    under_table: view! {
                    <p class="viewer-page-exports">
                        <button type="button" data-testid="export-csv-summary"
                            on:click=move |_| download_csv("tpsview-summary.csv", summary.with(compare::summary_csv))>"Download the table (CSV)"</button>
                    </p>
                    },
                },
            )}
            <section aria-labelledby="h-latency">
                <h2 id="h-latency">"Latency: TPOT and TTFT"</h2>
                {terms(&[("tpot", "TPOT"), ("ttft", "TTFT"), ("itl", "ITL (not plotted: chunk gaps)")])}
                <div class="chart-slot">
                    <Chart spec=latency label="TPOT and TTFT against concurrency, mean with p50 to p99 band" on_error=on_error/>
                    {empty_note(latency)}
                </div>
                {exports(latency, on_error_cb)}
            </section>
            <section aria-labelledby="h-interactivity">
                <h2 id="h-interactivity">"Throughput against interactivity"</h2>
                <p class="viewer-page-note">"Each point is one concurrency level: moving right serves each user faster, moving up serves more tokens in all. The dashed line joins the levels no other level beats on both."</p>
                {terms(&[("per-stream", "per-stream T/s"), ("system", "system T/s")])}
                <div class="chart-slot">
                    <Chart spec=interactivity label="system tokens per second against per-stream tokens per second" on_error=on_error/>
                    {empty_note(interactivity)}
                </div>
                {exports(interactivity, on_error_cb)}
            </section>
            <section aria-labelledby="h-timeline">
                <h2 id="h-timeline">"Request timeline"</h2>
                {terms(&[("ttft", "TTFT"), ("e2e", "E2E")])}
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
                // Levels without send times cannot be drawn: said here, not left out silently.
                {move || {
                    let shown = timeline_choices.with(Vec::len);
                    let all = report.with(|r| r.runs.iter().map(|run| run.points.len()).sum::<usize>());
                    (shown > 0 && shown < all).then(|| view! {
                        <p class="viewer-page-note" data-testid="timeline-missing">{format!(
                            "{shown} of {all} levels have each request's send time; the other {} cannot be drawn here (see Data health).",
                            all - shown
                        )}</p>
                    })
                }}
                {move || match (timeline_at.get(), timeline.get()) {
                    (Some(_), Some(spec)) => view! {
                        <Chart spec=Signal::stored(spec) label="each request's wait and prefill, then decode, in send order" on_error=on_error/>
                    }.into_any(),
                    // Being built (see `timeline` above).
                    (Some(_), None) => ().into_any(),
                    (None, _) => view! { <p class="viewer-page-note">"No level with send times: the timeline needs each request's send time (vLLM's start_times)."</p> }.into_any(),
                }}
            </section>
            <section aria-labelledby="h-compare">
                <h2 id="h-compare">"Compare runs"</h2>
                {move || (run_ids.with(Vec::len) < 2).then(|| view! {
                    <p class="viewer-page-note">"Load a second run (another file, sample or URL) to compare it with this one."</p>
                })}
                <label>
                    "Baseline "
                    <select data-testid="baseline" aria-label="baseline run"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            view.0.update(|s| s.baseline = Some(RunId::new(v)));
                        }>
                        {move || run_ids.get().into_iter().enumerate().map(|(i, id)| {
                            let selected = baseline_index.get() == i;
                            view! { <option value=id.to_string() selected=selected>{id.to_string()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                {move || view.0.with(|v| v.per_gpu).then(|| view! {
                    <div class="viewer-page-gpus">
                        {move || super::capacity::gpu_count_inputs(Signal::from(summary), "gpu-count", "not in its metadata")}
                    </div>
                })}
                {move || diff_shown.get().then(|| match verdicts.get() {
                    // Shown once judged, so that it is built once (its cells are many).
                    Some(v) => view! { <DiffTable comparison=comparison verdicts=Signal::stored(v)/> }.into_any(),
                    None => comparison.with(Option::is_some).then(|| view! {
                        <p class="viewer-page-note" data-testid="diff-judging">"The baseline diff: judging each change against noise…"</p>
                    }).into_any(),
                })}
                {move || comparison.with(Option::is_some).then(|| view! {
                    <p class="viewer-page-exports">
                        <button type="button" data-testid="export-csv-diff"
                            on:click=move |_| {
                                if let Some(c) = comparison.get() {
                                    download_csv("tpsview-diff.csv", compare::comparison_csv(&c));
                                }
                            }>"Download the diff (CSV)"</button>
                    </p>
                })}
            </section>
            {super::trend::trend_section(report, summary, options, defs_shown, on_error_cb)}
            <section aria-labelledby="h-share">
                <h2 id="h-share">"Share"</h2>
                <p class="viewer-page-note">"Nothing leaves this machine unless you send it: a link holds where the runs came from and what you chose to see; a bundle is one file with the runs themselves."</p>
                <p>
                    <button type="button" data-testid="make-permalink" on:click=make_permalink>"Permalink"</button>
                    " "
                    <button type="button" data-testid="export-bundle" on:click=export_bundle>"Export bundle (tpsview/1 + view)"</button>
                    " "
                    <button type="button" data-testid="make-inline-link" on:click=make_inline>{format!("Link with the data inside (up to {} KB)", share::INLINE_LIMIT / 1024)}</button>
                </p>
                {move || permalink.get().map(|(link, local)| view! {
                    <p>
                        <input type="text" readonly data-testid="permalink" class="viewer-page-link" prop:value=link.clone() aria-label="permalink"/>
                        " "{copy_button("copy-permalink", link)}
                        {(!local.is_empty()).then(|| view! {
                            <span class="viewer-page-note" data-testid="permalink-local">{format!(
                                " Not in the link (loaded from this machine; export a bundle for them): {}", local.join(", ")
                            )}</span>
                        })}
                    </p>
                })}
                {move || inline.get().map(|r| match r {
                    Ok((link, kind, words)) => view! {
                        <p>
                            <input type="text" readonly data-testid="inline-link" data-kind=kind class="viewer-page-link" prop:value=link.clone() aria-label="link with the data inside"/>
                            " "{copy_button("copy-inline-link", link)}
                        </p>
                        <p class="viewer-page-note" data-testid="inline-link-kind">{words}</p>
                    }.into_any(),
                    Err(e) => view! { <p class="viewer-page-note" data-testid="inline-link-message">{e}</p> }.into_any(),
                })}
            </section>
            <section aria-labelledby="h-definitions">
                <h2 id="h-definitions">"How each tool defines its numbers"</h2>
                <p class="viewer-page-note">"Tools name the same quantity differently (GenAI-Perf's \"ITL\" is tpsview's TPOT; LLMPerf's includes the first token). Each file's figures are mapped below; where the file has raw data, tpsview recomputes every figure the tool's way and checks it. Reference: docs/formats.md."</p>
                {move || defs_shown.get().then(|| view! { <ToolDefinitions summary=Signal::from(summary)/> })}
            </section>
        </main>
    }
}
