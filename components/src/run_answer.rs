//! The answer first, per run: the run's header (what was run, on what — only what the files
//! state) with a "how this was run" drawer, then the answer cards — peak system T/s with the
//! per-user speed and TTFT there, best per-user T/s, the knee, and the data-health badge. Every
//! number comes from `tpsview_core::answer`; each card's "?" says what it is.

use leptos::prelude::*;
use tpsview_core::answer::{Answers, AtLevel, CapacityAnswer, HeaderPart, Knee, KNEE_RULE};
use tpsview_core::summary::RunSummary;

use crate::format::{fmt_num, fmt_value};

/// T/s for a card: whole numbers from 100 up, one decimal below.
fn tps(v: f64) -> String {
    fmt_num(Some(v), if v.abs() >= 100.0 { 0 } else { 1 })
}

fn level(at: &AtLevel, axis: Option<&str>) -> String {
    match (at.concurrency, at.request_rate) {
        // A sweep over another setting (llama-bench's `n_depth`…) is read on that setting.
        (Some(c), _) => format!("{} {c}", axis.unwrap_or("concurrency")),
        (None, Some(r)) if r.is_infinite() => "every request at once".to_owned(),
        (None, Some(r)) => format!("{} req/s", fmt_value(Some(r))),
        (None, None) => "an unknown level".to_owned(),
    }
}

/// A card's "?": its definition, opened in place.
fn help(text: String) -> impl IntoView {
    view! {
        <details class="kpi-help">
            <summary aria-label="what this figure is">"?"</summary>
            <p>{text}</p>
        </details>
    }
}

/// A card for a T/s figure at a level (`data-value` in T/s, `data-concurrency`, `data-ran`: the
/// batch the server ran there, where known), or "–" and `none` when no level has it.
fn tps_card(
    testid: &'static str,
    label: &'static str,
    definition: &'static str,
    at: Option<(AtLevel, String)>,
    none: &'static str,
    ran: Option<String>,
) -> impl IntoView {
    let (value, concurrency, shown, sub) = match at {
        Some((a, sub)) => (
            fmt_value(Some(a.value)),
            fmt_value(a.concurrency),
            tps(a.value),
            sub,
        ),
        None => (
            String::new(),
            String::new(),
            "–".to_owned(),
            none.to_owned(),
        ),
    };
    view! {
        <div class="kpi" data-testid=testid data-value=value data-concurrency=concurrency data-ran=ran>
            <div class="kpi-label">{label}{help(definition.to_owned())}</div>
            <p class="kpi-value">{shown}<span class="kpi-unit">" T/s"</span></p>
            <p class="kpi-sub">{sub}</p>
        </div>
    }
}

/// One run's header and answer cards.
#[component]
pub fn RunAnswer(
    /// The run.
    run: RunSummary,
    /// Its header parts (`tpsview_core::answer::header`).
    header: Vec<(HeaderPart, String)>,
    /// Its answers (`tpsview_core::answer::answers`).
    answers: Answers,
    /// The data-health counts of the whole page: (errors, warnings, notes).
    health: (usize, usize, usize),
) -> impl IntoView {
    let id = run.id.to_string();
    let meta = run.meta.clone();
    let mut drawer: Vec<(String, String)> = vec![
        ("run".into(), id.clone()),
        ("label in the file".into(), run.label.clone()),
    ];
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            drawer.push((k.to_owned(), v));
        }
    };
    put("model", meta.model.clone());
    put("precision", meta.precision.clone());
    put("GPU", meta.gpu.clone());
    put("GPU count", meta.gpu_count.map(|n| n.to_string()));
    put(
        "tensor parallel",
        meta.tensor_parallel.map(|n| n.to_string()),
    );
    put("engine", meta.engine.clone());
    put("engine version", meta.engine_version.clone());
    put("date", meta.date.clone());
    put("format", Some(run.source_format.clone()));
    put("axis", run.axis.clone());
    for (k, v) in &meta.labels {
        put(k, Some(v.clone()));
    }
    put("notes", meta.notes.clone());
    let mut files: Vec<String> = run.points.iter().map(|p| p.source_file.clone()).collect();
    files.dedup();
    put("files", Some(files.join(", ")));

    // A reasoning model's user waits for the first visible token: the cards lead with it, at the
    // peak, with the share of output that was reasoning.
    let visible = answers.peak_system.and_then(|p| {
        let ttfvt = p.ttfvt_mean_ms?;
        let share = p.reasoning_share.map_or_else(String::new, |r| {
            format!(
                " · {} % of output tokens were reasoning{}",
                fmt_num(Some(r * 100.0), 0),
                p.visible_system_tps.map_or_else(String::new, |v| format!(
                    ": {} of {} T/s visible",
                    tps(v),
                    p.system_tps.map_or_else(|| "–".into(), tps)
                ))
            )
        });
        let sub = format!(
            "mean at {}, the peak · the first token at {} ms{share}",
            level(&p, run.axis.as_deref()),
            fmt_num(p.ttft_mean_ms, 0)
        );
        Some((
            fmt_value(Some(ttfvt)),
            fmt_num(Some(ttfvt), 0),
            sub,
            fmt_value(p.reasoning_share),
        ))
    });
    let peak = answers.peak_system.map(|p| {
        let first = if p.ttfvt_mean_ms.is_some() {
            "first visible token"
        } else {
            "TTFT"
        };
        let mut sub = format!(
            "at {} · {} T/s per user · {first} {} ms there",
            level(&p, run.axis.as_deref()),
            p.per_stream_tps.map_or_else(|| "–".into(), tps),
            fmt_num(p.ttfvt_mean_ms.or(p.ttft_mean_ms), 0)
        );
        // The batch the server measured there (its own metrics), where the level has them.
        if let Some(r) = p.ran {
            sub.push_str(&format!(" · the server {}", r.text()));
            if let Some(t) = r.tokens_per_step {
                sub.push_str(&format!(", {} tokens per decode step", fmt_num(Some(t), 2)));
            }
        }
        (p, sub)
    });
    let peak_ran = answers
        .peak_system
        .and_then(|p| p.ran)
        .map(|r| fmt_value(Some(r.running)));
    let best = answers.best_per_stream.map(|b| {
        let sub = format!(
            "at {} · {} T/s system there",
            level(&b, run.axis.as_deref()),
            b.system_tps.map_or_else(|| "–".into(), tps)
        );
        (b, sub)
    });
    let (knee_c, knee_value, knee_sub) = match answers.knee {
        Knee::At {
            concurrency,
            system_tps,
            gain,
        } => (
            Some(concurrency),
            format!("concurrency {concurrency}"),
            format!(
                "{} T/s system there; the next level gains {:+.0} % per doubling",
                tps(system_tps),
                gain * 100.0
            ),
        ),
        Knee::NotReached { gain, highest } => (
            None,
            "not reached".to_owned(),
            format!(
                "up to concurrency {highest} system T/s still gains {:+.0} % per doubling",
                gain * 100.0
            ),
        ),
        Knee::Unknown => (
            None,
            "–".to_owned(),
            match run.axis.as_deref() {
                Some(a) => format!("a sweep of {a}, not of concurrency: no batch to saturate"),
                None => "needs two or more concurrency levels with a system T/s".to_owned(),
            },
        ),
    };
    let capacity = answers.capacity.map(|c| match c {
        CapacityAnswer::At {
            concurrency,
            system_tps,
            attainment,
            ..
        } => (
            fmt_value(Some(system_tps)),
            fmt_value(Some(concurrency)),
            view! { {tps(system_tps)}<span class="kpi-unit">" T/s"</span> }.into_any(),
            format!(
                "at concurrency {concurrency}, the busiest level that meets the SLO{}",
                attainment.map_or_else(String::new, |a| format!(
                    " · {:.0} % of requests within every target",
                    a * 100.0
                ))
            ),
        ),
        // Nothing known to meet it: "none" only when every level could be checked.
        CapacityAnswer::NoneMeets { failed, unknown, met_by_rate } => (
            String::new(),
            String::new(),
            if unknown == 0 && met_by_rate == 0 { "none" } else { "–" }.into_any(),
            match (failed, unknown) {
                _ if met_by_rate > 0 => format!("{met_by_rate} rate level(s) meet it; capacity is read among concurrency levels"),
                (f, 0) => format!("no level meets the SLO ({f} miss it): a lower concurrency or a looser target"),
                (0, u) => format!("cannot be checked at any of its {u} levels (the SLO table says why)"),
                (f, u) => format!("unknown: {f} levels miss the SLO and {u} cannot be checked (see the SLO table)"),
            },
        ),
    });
    // Cost: at the capacity when there is one, else at the peak.
    let cost = match answers.capacity {
        Some(CapacityAnswer::At {
            usd_per_million: Some(u),
            concurrency,
            ..
        }) => Some((
            u,
            format!("at the SLO capacity (concurrency {concurrency})"),
        )),
        _ => answers
            .peak_usd_per_million
            .map(|u| (u, "at the peak system T/s".to_owned())),
    };
    // Energy: the level `answer::answers` picked (the peak where it has it).
    let energy = answers.energy.and_then(|a| {
        let e = run.points.get(a.point)?.energy.clone()?;
        let at = a.concurrency.map_or_else(
            || "at its level".to_owned(),
            |c| format!("at concurrency {c}"),
        );
        Some((e, at, a.at_peak))
    });
    // A price but no cost: the run states no GPU count (or no system T/s).
    let cost_missing = cost.is_none() && answers.priced;
    let (errors, warnings, notes) = health;
    let (badge, badge_class) = if errors > 0 {
        (
            format!("{errors} error{}", if errors == 1 { "" } else { "s" }),
            "kpi-health-error",
        )
    } else if warnings > 0 {
        (
            format!("{warnings} warning{}", if warnings == 1 { "" } else { "s" }),
            "kpi-health-warning",
        )
    } else {
        ("no problem found".to_owned(), "kpi-health-ok")
    };
    let badge_sub = format!(
        "{errors} error{}, {warnings} warning{}, {notes} note{} — see Data health",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
        if notes == 1 { "" } else { "s" }
    );

    view! {
        <section class="run-answer" data-testid="run-answer" data-run=id.clone() aria-label=format!("answer for {id}")>
            <header class="run-header" data-testid="run-header" data-run=id.clone()>
                <h2 class="run-header-title">
                    {header.iter().enumerate().map(|(i, (part, text))| view! {
                        {(i > 0).then_some(" · ")}
                        <span class="run-header-part" data-part=part.key()>{text.clone()}</span>
                    }).collect_view()}
                </h2>
                <details class="run-header-drawer" data-testid="run-drawer">
                    <summary>"How this was run"</summary>
                    <dl>
                        {drawer.into_iter().map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> }).collect_view()}
                    </dl>
                </details>
            </header>
            <div class="answer-cards">
                {visible.map(|(value, shown, sub, share)| view! {
                    <div class="kpi" data-testid="kpi-first-visible" data-value=value data-reasoning-share=share>
                        <div class="kpi-label">"First visible token"{help("Send → the first token the user can read (content, not reasoning): what a user of a reasoning model waits for. The first token may come much earlier, as reasoning the user never sees; reasoning tokens count in output length and output T/s alike (docs/metrics.md).".to_owned())}</div>
                        <p class="kpi-value">{shown}<span class="kpi-unit">" ms"</span></p>
                        <p class="kpi-sub">{sub}</p>
                    </div>
                })}
                {tps_card("kpi-peak-system", "Peak system T/s",
                    "The highest system T/s of any level: all output tokens of all streams per second of wall-clock time, over the whole level. Shown with one user's decode speed (per-stream T/s) and the mean time to first token at that level, and, where the server's own metrics were read, the batch it ran there (its mean number of running requests) against the concurrency asked.",
                    peak, "no level has a system T/s", peak_ran)}
                {tps_card("kpi-best-per-stream", "Best per-user T/s",
                    "The highest per-stream T/s of any level: one request's decode rate, 1 / mean TPOT — how fast one user sees tokens once they start. Usually at the lowest concurrency.",
                    best, "no level has a per-stream T/s", None)}
                <div class="kpi" data-testid="kpi-knee" data-concurrency=fmt_value(knee_c)>
                    <div class="kpi-label">"Knee"{help(KNEE_RULE.to_owned())}</div>
                    <p class="kpi-value">{knee_value}</p>
                    <p class="kpi-sub">{knee_sub}</p>
                </div>
                {capacity.map(|(value, c, shown, sub)| view! {
                    <div class="kpi" data-testid="kpi-capacity" data-value=value data-concurrency=c>
                        <div class="kpi-label">"Capacity under the SLO"{help("The highest system T/s among the levels that meet the SLO you set: every level-statistic target holds and, with per-request targets, at least the required share of requests (failed ones count as missing) meets each of them. Capacity is a latency question: past this level the server does more tokens per second, but not for users who need these latencies.".to_owned())}</div>
                        <p class="kpi-value">{shown}</p>
                        <p class="kpi-sub">{sub}</p>
                    </div>
                })}
                {cost.map(|(usd, sub)| view! {
                    <div class="kpi" data-testid="kpi-cost" data-value=fmt_value(Some(usd))
                        data-tokens-per-usd=fmt_value(tpsview_core::slo::tokens_per_usd(usd))>
                        <div class="kpi-label">"Cost per million output tokens"{help("The GPU-hour price you entered × the run's GPU count, divided by the output tokens the level serves in an hour (system T/s × 3,600). A price you state, not a fact tpsview knows; input tokens are not counted.".to_owned())}</div>
                        <p class="kpi-value">{format!("${usd:.3}")}</p>
                        <p class="kpi-sub">{format!("{sub} · {} tokens per dollar", fmt_num(tpsview_core::slo::tokens_per_usd(usd), 0))}</p>
                    </div>
                })}
                {energy.map(|(e, at, peak)| {
                    // The GPUs in short on the card (their count and name), in full in its title.
                    let gpus = e.gpus.clone().unwrap_or_else(|| "GPUs not named".into());
                    let short = gpus.split(" (").next().unwrap_or(&gpus).to_owned();
                    let title = [Some(gpus.clone()), e.window.clone()].into_iter().flatten().collect::<Vec<_>>().join(" · ");
                    view! {
                        <div class="kpi" data-testid="kpi-energy" data-value=fmt_value(Some(e.joules_per_output_token))
                            data-tokens-per-joule=fmt_value(Some(e.output_tokens_per_joule)) data-basis=e.basis title=title>
                            <div class="kpi-label">"Energy per output token"{help("Joules the GPUs used over the level ÷ its output tokens, and its inverse. From the file's own GPU telemetry (AIPerf's DCGM energy counter, or its mean power × the window) or the tool's own figure (InferenceX). The GPUs only: not the host, the network or cooling.".to_owned())}</div>
                            <p class="kpi-value">{fmt_num(Some(e.joules_per_output_token), if e.joules_per_output_token < 10.0 { 2 } else { 0 })}<span class="kpi-unit">" J"</span></p>
                            <p class="kpi-sub">{format!(
                                "{at}{} · {} output tokens per joule · {short} · {}",
                                if peak { " (the peak)" } else { "" },
                                fmt_num(Some(e.output_tokens_per_joule), 2),
                                e.basis
                            )}</p>
                            {e.note.clone().map(|n| view! {
                                <details class="kpi-note" data-testid="energy-note">
                                    <summary>{e.apart_pct.map_or_else(|| "how it was counted".to_owned(), |p| format!("two counts {p:.0} % apart"))}</summary>
                                    <p>{n}</p>
                                </details>
                            })}
                        </div>
                    }
                })}
                {cost_missing.then(|| view! {
                    <div class="kpi" data-testid="kpi-cost" data-value="">
                        <div class="kpi-label">"Cost per million output tokens"</div>
                        <p class="kpi-value">"–"</p>
                        <p class="kpi-sub">"needs the GPUs this run used: enter them under Capacity"</p>
                    </div>
                })}
                <button type="button" class=format!("kpi kpi-health {badge_class}") data-testid="kpi-health"
                    data-errors=errors data-warnings=warnings data-notes=notes
                    on:click=|_| {
                        if let Some(el) = document().get_element_by_id("data-health") {
                            el.scroll_into_view();
                        }
                    }>
                    <span class="kpi-label">"Data health"</span>
                    <span class="kpi-value">{badge}</span>
                    <span class="kpi-sub">{badge_sub}</span>
                </button>
            </div>
        </section>
    }
}
