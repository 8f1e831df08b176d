//! The viewer's sections below its first view, each wired from the page's state: what they show
//! is computed by the core (`tpsview_core::viewer`, `chart_spec`, `compare`); here it is placed.

use leptos::prelude::*;
use leptos::task::spawn_local;
use tpsview_components::{Chart, DiffTable, SessionsTable, ToolDefinitions};
use tpsview_core::chart_spec::{self, ChartSpec};
use tpsview_core::compare::{self, Comparison};
use tpsview_core::noise;
use tpsview_core::viewer::{self, InlineLink};
use tpsview_core::vocabulary::RunId;
use tpsview_core::Summary;

use super::exports::{copy_button, download_csv, empty_note, exports};
use crate::share;
use crate::state::{use_files, use_view, Grouped};
use crate::view::bundle;

/// One chart's section: its heading, its glossary terms, the chart with its empty note, its
/// downloads.
#[allow(clippy::too_many_arguments)]
pub(super) fn chart_section(
    heading: &'static str,
    title: &'static str,
    note: Option<&'static str>,
    terms: &'static [(&'static str, &'static str)],
    spec: Signal<ChartSpec>,
    label: &'static str,
    controls: Option<AnyView>,
    on_error: Callback<String>,
) -> impl IntoView {
    view! {
        <section aria-labelledby=heading>
            <h2 id=heading>{title}</h2>
            {note.map(|n| view! { <p class="viewer-page-note">{n}</p> })}
            {tpsview_components::terms(terms)}
            {controls}
            <div class="chart-slot">
                <Chart spec=spec label=label on_error=on_error/>
                {empty_note(spec)}
            </div>
            {exports(spec, on_error)}
        </section>
    }
}

/// The request timeline of one level (the picked one, else the busiest), its spec built in a task
/// of its own after the report changes: with thousands of requests it is the page's biggest job.
/// A level whose requests belong to sessions is shown a lane per session (its turns in time),
/// fifty sessions a page, with its sessions' figures; the user can ask for requests instead.
pub(super) fn timeline_section(
    report: Memo<Grouped>,
    summary: Memo<Summary>,
    on_error: Callback<String>,
) -> impl IntoView {
    let (picked, set_picked) = signal(None::<(usize, usize)>);
    let levels = Memo::new(move |_| report.with(|g| viewer::timeline_levels(&g.report)));
    let at = Memo::new(move |_| levels.with(|l| viewer::timeline_at(l, picked.get())));
    let timeline = RwSignal::new(None::<ChartSpec>);
    // The sessions shown: (total, first, shown), when the level has sessions and lanes are asked.
    let lanes = RwSignal::new(None::<(usize, usize, usize)>);
    let (by_session, set_by_session) = signal(true);
    let (page, set_page) = signal(0usize);
    let builds = tpsview_components::Latest::new();
    Effect::new(move |_| {
        let at = at.get();
        let (by_session, page) = (by_session.get(), page.get());
        report.track();
        builds.run_later(move || {
            let built = at.and_then(|(ri, pi)| {
                report
                    .try_with_untracked(|g| {
                        let point = g.report.runs.get(ri)?.points.get(pi)?;
                        match chart_spec::sessions_timeline(point, page).filter(|_| by_session) {
                            Some(p) => Some((p.spec, Some((p.total, p.first, p.shown)))),
                            None => Some((chart_spec::timeline(point)?, None)),
                        }
                    })
                    .flatten()
            });
            lanes.try_set(built.as_ref().and_then(|b| b.1));
            timeline.try_set(built.map(|b| b.0));
        });
    });
    // The level's figures of 2026, where it has sessions (the switch shows whether it has).
    let turns = Memo::new(move |_| {
        let (ri, pi) = at.get()?;
        summary.with(|s| {
            let t = &s.runs.get(ri)?.points.get(pi)?.metrics.turns;
            t.sessions.is_some().then(|| t.clone())
        })
    });
    view! {
        <section aria-labelledby="h-timeline">
            <h2 id="h-timeline">"Request timeline"</h2>
            {tpsview_components::terms(&[("ttft", "TTFT"), ("e2e", "E2E")])}
            <label>
                "Level "
                <select aria-label="level shown in the timeline" data-testid="timeline-point"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let parsed = v.split_once(':').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
                        set_page.set(0);
                        set_picked.set(parsed);
                    }>
                    {move || levels.get().into_iter().map(|l| {
                        let (ri, pi) = l.at;
                        let selected = at.get() == Some(l.at);
                        view! { <option value=format!("{ri}:{pi}") selected=selected>{l.label}</option> }
                    }).collect_view()}
                </select>
            </label>
            // Levels without send times cannot be drawn: said here, not left out silently.
            {move || levels.with(|l| report.with(|g| viewer::timeline_missing(l, &g.report))).map(|words| view! {
                <p class="viewer-page-note" data-testid="timeline-missing">{words}</p>
            })}
            {move || turns.get().map(|t| view! {
                <label class="timeline-lanes">
                    <input type="checkbox" data-testid="timeline-by-session" prop:checked=move || by_session.get()
                        on:change=move |ev| { set_page.set(0); set_by_session.set(event_target_checked(&ev)); }/>
                    " One lane per session (its turns in time)"
                </label>
                {move || lanes.get().map(|(total, first, shown)| {
                    let (at_first, at_last) = (first == 0, first + shown >= total);
                    view! {
                    <p class="timeline-pager" data-testid="sessions-pager" data-total=total data-first=first data-shown=shown>
                        {format!("Sessions {}–{} of {total}, in order of their first request", first + 1, first + shown)}
                        {(total > chart_spec::SESSIONS_PER_PAGE).then(|| view! {
                            {format!(" (paged, {} at a time) ", chart_spec::SESSIONS_PER_PAGE)}
                            <button type="button" class="button-secondary" data-testid="sessions-prev" disabled=at_first
                                on:click=move |_| set_page.update(|p| *p = p.saturating_sub(1))>"‹ Earlier"</button>
                            " "
                            <button type="button" class="button-secondary" data-testid="sessions-next" disabled=at_last
                                on:click=move |_| set_page.update(|p| *p += 1)>"Later ›"</button>
                        })}
                    </p>
                    }
                })}
                <SessionsTable turns=t/>
            })}
            {move || match (at.get(), timeline.get()) {
                (Some(_), Some(spec)) => view! {
                    <Chart spec=Signal::stored(spec) label="each request's wait and prefill, then decode, in send order, or each session's turns on its lane" on_error=on_error/>
                }.into_any(),
                // Being built (see `timeline` above).
                (Some(_), None) => ().into_any(),
                (None, _) => view! { <p class="viewer-page-note">"No level with send times: the timeline needs each request's send time (vLLM's start_times)."</p> }.into_any(),
            }}
        </section>
    }
}

/// The runs against a baseline: its picker, GPU counts where the view compares per GPU, the diff
/// table once its verdicts are judged, its CSV.
pub(super) fn compare_section(
    summary: Memo<Summary>,
    run_ids: Signal<Vec<RunId>>,
    comparison: Memo<Option<Comparison>>,
    baseline_index: Memo<usize>,
    verdicts: RwSignal<Option<Vec<noise::Judged>>>,
    shown: ReadSignal<bool>,
    on_error: Callback<String>,
) -> impl IntoView {
    let view = use_view();
    view! {
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
                    {move || crate::pages::capacity::gpu_count_inputs(Signal::from(summary), "gpu-count", "not in its metadata")}
                </div>
            })}
            {move || shown.get().then(|| match verdicts.get() {
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
                                download_csv("tpsview-diff.csv", compare::comparison_csv(&c), on_error);
                            }
                        }>"Download the diff (CSV)"</button>
                </p>
            })}
        </section>
    }
}

/// Sharing: a permalink (where the runs came from and the view), the bundle (the runs
/// themselves), and a link with the data inside — the whole bundle when it fits, else the
/// per-level figures alone (`viewer::InlineLink`).
pub(super) fn share_section(
    report: Memo<Grouped>,
    summary: Memo<Summary>,
    on_error: Callback<String>,
) -> impl IntoView {
    let view = use_view();
    let files = use_files();
    let (permalink, set_permalink) = signal(None::<(String, Vec<String>)>);
    let (inline, set_inline) = signal(None::<Result<(String, &'static str, String), String>>);
    let make_permalink = move |_| {
        // A file of the link read through a mapping: the link carries it (`?map=`).
        let mapping = files.0.with(|f| {
            f.iter()
                .filter(|x| x.parsed.is_some() && x.source_url.is_some())
                .find_map(|x| x.status.mapping.as_ref())
                // Compact: the document is pretty-printed for a person saving it.
                .and_then(|o| js_sys::JSON::parse(&o.mapping).ok())
                .and_then(|v| js_sys::JSON::stringify(&v).ok())
                .map(String::from)
        });
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
        let link = view
            .0
            .with(|v| share::permalink(&sources, v, mapping.as_deref()));
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
            on_error.run(format!("the bundle could not be made: {e:?}"));
        }
    };
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
            let said = |e| format!("this browser cannot compress the bundle: {e:?}");
            let (link, kind) = match share::inline_link(&full).await {
                Ok(Some(link)) => (Some(link), InlineLink::choose(true, false)),
                Ok(None) => match share::inline_link(&slim).await {
                    Ok(link) => {
                        let fits = link.is_some();
                        (link, InlineLink::choose(false, fits))
                    }
                    Err(e) => return set_inline.set(Some(Err(said(e)))),
                },
                Err(e) => return set_inline.set(Some(Err(said(e)))),
            };
            let r = match (link, kind.id()) {
                (Some(link), Some(id)) => Ok((link, id, kind.words(limit))),
                _ => Err(kind.words(limit)),
            };
            set_inline.set(Some(r));
        });
    };
    view! {
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
    }
}

/// Each tool's definitions of its figures, built once the tables before it are.
pub(super) fn definitions_section(
    summary: Memo<Summary>,
    shown: ReadSignal<bool>,
) -> impl IntoView {
    view! {
        <section aria-labelledby="h-definitions">
            <h2 id="h-definitions">"How each tool defines its numbers"</h2>
            <p class="viewer-page-note">"Tools name the same quantity differently (GenAI-Perf's \"ITL\" is tpsview's TPOT; LLMPerf's includes the first token). Each file's figures are mapped below; where the file has raw data, tpsview recomputes every figure the tool's way and checks it. Reference: docs/formats.md."</p>
            {move || shown.get().then(|| view! { <ToolDefinitions summary=Signal::from(summary)/> })}
        </section>
    }
}
