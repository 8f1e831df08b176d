//! The answer first: what a reader wants in the first ten seconds, computed from a run's summary —
//! the run's header (what was run, on what, only what the files state), the peak system T/s and
//! the per-user speed there, the best per-user speed, and the knee.

use crate::summary::{PointSummary, RunSummary};

/// Below this gain in system T/s per doubling of concurrency, more concurrency mostly costs
/// per-user speed: the knee is the first level from which the next level gains less.
pub const KNEE_GAIN: f64 = 0.25;

/// The knee's rule, as the card's "?" states it.
pub const KNEE_RULE: &str = "The knee is the first concurrency level from which going to the next \
level raises system T/s by less than 25 % per doubling of concurrency (perfect scaling is +100 % \
per doubling): past it, more concurrency mostly slows each user down. Computed on the levels \
measured, between neighbours, on a log₂ concurrency scale.";

/// One part of a run's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderPart {
    /// The model, with its precision where stated.
    Model,
    /// GPU (and count) or other hardware.
    Hardware,
    /// The serving engine and its version.
    Engine,
    /// What tells the run from others of its model: the `setting=value` parts of its name.
    Setting,
    /// The benchmark tool that wrote the file.
    Tool,
    /// Mean input and output lengths of the completed requests.
    Lengths,
    /// When it ran.
    Date,
}

impl HeaderPart {
    /// The part's name, for `data-part` and the drawer's labels.
    pub const fn key(self) -> &'static str {
        match self {
            HeaderPart::Model => "model",
            HeaderPart::Hardware => "hardware",
            HeaderPart::Engine => "engine",
            HeaderPart::Setting => "setting",
            HeaderPart::Tool => "tool",
            HeaderPart::Lengths => "lengths",
            HeaderPart::Date => "date",
        }
    }
}

/// A run's header: `model · hardware · engine (version) · tool · ISL/OSL · date`, each part only
/// where the files state it (lengths are measured: the mean over completed requests).
pub fn header(run: &RunSummary) -> Vec<(HeaderPart, String)> {
    let m = &run.meta;
    let mut out = Vec::new();
    if let Some(model) = m.model.as_deref().filter(|s| !s.is_empty()) {
        let text = match m.precision.as_deref().filter(|s| !s.is_empty()) {
            Some(p) if !model.to_lowercase().contains(&p.to_lowercase()) => {
                format!("{model} ({p})")
            }
            _ => model.to_owned(),
        };
        out.push((HeaderPart::Model, text));
    }
    if let Some(gpu) = m.gpu.as_deref().filter(|s| !s.is_empty()) {
        let text = match m.gpu_count {
            Some(n) if n > 1 => format!("{n} × {gpu}"),
            _ => gpu.to_owned(),
        };
        out.push((HeaderPart::Hardware, text));
    } else if let Some(n) = m.gpu_count.filter(|n| *n > 0) {
        out.push((
            HeaderPart::Hardware,
            format!("{n} GPU{}", if n == 1 { "" } else { "s" }),
        ));
    }
    if let Some(engine) = m.engine.as_deref().filter(|s| !s.is_empty()) {
        let text = match m.engine_version.as_deref().filter(|s| !s.is_empty()) {
            Some(v) => format!("{engine} {v}"),
            None => engine.to_owned(),
        };
        out.push((HeaderPart::Engine, text));
    }
    // What tells this run from others of the same model: the settings its name carries
    // (`backends=CUDA · flash_attn=true` of a llama-bench file, `max_num_seqs=32` of a sweep).
    let settings = run.name.settings();
    if !settings.is_empty() {
        out.push((HeaderPart::Setting, settings.join(" · ")));
    }
    out.push((HeaderPart::Tool, tool_name(&run.source_format)));
    {
        let (isl, osl) = run.lengths;
        let text = match (isl, osl) {
            (Some(i), Some(o)) => Some(format!("ISL {} / OSL {}", whole(i), whole(o))),
            (None, Some(o)) => Some(format!("OSL {}", whole(o))),
            (Some(i), None) => Some(format!("ISL {}", whole(i))),
            (None, None) => None,
        };
        if let Some(t) = text {
            out.push((HeaderPart::Lengths, t));
        }
    }
    if let Some(d) = m.date.as_deref().filter(|s| !s.is_empty()) {
        out.push((HeaderPart::Date, readable_date(d)));
    }
    out
}

/// The tool's name for a format id: its vocabulary's (`GenAI-Perf`), else the format's.
fn tool_name(format_id: &str) -> String {
    if format_id == crate::tools::tpsview::ID {
        return "tpsview".into();
    }
    if let Some(v) = crate::tools::vocabulary(format_id) {
        return v.name.to_owned();
    }
    crate::format::Format::from_id(format_id)
        .map_or_else(|| format_id.to_owned(), |f| f.name().to_owned())
}

fn whole(v: f64) -> String {
    format!("{}", v.round())
}

/// vLLM's `20261130-101500` as `2026-11-30 10:15:00`; anything else as written.
fn readable_date(d: &str) -> String {
    let b = d.as_bytes();
    if b.len() == 15
        && b[8] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 8 || c.is_ascii_digit())
    {
        return format!(
            "{}-{}-{} {}:{}:{}",
            &d[0..4],
            &d[4..6],
            &d[6..8],
            &d[9..11],
            &d[11..13],
            &d[13..15]
        );
    }
    d.to_owned()
}

/// A figure at one level of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtLevel {
    /// Index of the point in the run.
    pub point: usize,
    /// Its concurrency, when known.
    pub concurrency: Option<f64>,
    /// Its request rate (req/s; ∞ for all at once), when it has one.
    pub request_rate: Option<f64>,
    /// The figure (T/s).
    pub value: f64,
    /// Per-stream T/s at that level.
    pub per_stream_tps: Option<f64>,
    /// System T/s at that level.
    pub system_tps: Option<f64>,
    /// Mean TTFT at that level, ms.
    pub ttft_mean_ms: Option<f64>,
    /// Mean time to the first visible token at that level, ms, where its requests say it.
    pub ttfvt_mean_ms: Option<f64>,
    /// The share of its output tokens that were reasoning, where its requests count them.
    pub reasoning_share: Option<f64>,
    /// Its visible (non-reasoning) output tokens per second, where every request counts them.
    pub visible_system_tps: Option<f64>,
    /// The batch the server ran there, where the level carries its metrics.
    pub ran: Option<crate::server::Ran>,
}

/// Where the knee is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Knee {
    /// At this level: going to the next gains `gain` (fraction per doubling) < [`KNEE_GAIN`].
    At {
        /// The knee's concurrency.
        concurrency: f64,
        /// System T/s there.
        system_tps: f64,
        /// The gain per doubling to the next level.
        gain: f64,
    },
    /// Not within the levels measured: the last step still gains `gain` per doubling.
    NotReached {
        /// The gain per doubling of the last step.
        gain: f64,
        /// The highest level measured.
        highest: f64,
    },
    /// Fewer than two levels with a concurrency and a system T/s.
    Unknown,
}

/// A run's answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Answers {
    /// The level with the highest system T/s.
    pub peak_system: Option<AtLevel>,
    /// The level with the highest per-stream T/s.
    pub best_per_stream: Option<AtLevel>,
    /// The knee.
    pub knee: Knee,
    /// The capacity under the SLO, when the levels were evaluated against one.
    pub capacity: Option<CapacityAnswer>,
    /// USD per million output tokens at the peak, when a price was given.
    pub peak_usd_per_million: Option<f64>,
    /// True when a price was given (the levels carry a cost, defined or not).
    pub priced: bool,
    /// The level the energy card shows: the peak where it has energy figures, else the first
    /// level that has them.
    pub energy: Option<EnergyAt>,
}

/// The level whose energy figures a run's card shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnergyAt {
    /// Index of the point in the run.
    pub point: usize,
    /// Its concurrency, when known.
    pub concurrency: Option<f64>,
    /// True where it is the peak system T/s level.
    pub at_peak: bool,
}

/// [`Answers::energy`].
fn energy_at(run: &RunSummary, peak: Option<AtLevel>) -> Option<EnergyAt> {
    let has = |k: usize| run.points.get(k).is_some_and(|p| p.energy.is_some());
    let point = peak
        .map(|p| p.point)
        .filter(|&k| has(k))
        .or_else(|| (0..run.points.len()).find(|&k| has(k)))?;
    Some(EnergyAt {
        point,
        concurrency: run.points[point].metrics.concurrency,
        at_peak: peak.is_some_and(|p| p.point == point),
    })
}

/// A run's capacity under an SLO, as its card says it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CapacityAnswer {
    /// The level with the highest system T/s among those that meet the SLO.
    At {
        /// Index of the point in the run.
        point: usize,
        /// Its concurrency.
        concurrency: f64,
        /// Its system T/s.
        system_tps: f64,
        /// Its attainment (share of requests meeting every per-request target), when it has one.
        attainment: Option<f64>,
        /// Its cost, when a price was given.
        usd_per_million: Option<f64>,
    },
    /// No concurrency level meets it: `failed` levels miss it, `unknown` cannot be checked, and
    /// `met_by_rate` levels meet it but are request rates, not concurrencies (capacity is read
    /// among concurrency levels: an MLPerf Server run's levels are rates).
    NoneMeets {
        /// Levels that miss it.
        failed: usize,
        /// Levels whose result is unknown (a statistic the file lacks).
        unknown: usize,
        /// Levels without a concurrency (a request rate) that meet it.
        met_by_rate: usize,
    },
}

/// The capacity answer of a run evaluated against an SLO (`None` without one).
pub fn capacity(run: &RunSummary) -> Option<CapacityAnswer> {
    let c = run.slo_capacity?;
    Some(match c {
        Some(c) => {
            let point = c.point;
            let p = run.points.get(point)?;
            CapacityAnswer::At {
                point,
                concurrency: c.concurrency,
                system_tps: c.system_tps,
                attainment: p.slo.and_then(|e| e.attainment),
                usd_per_million: p.usd_per_million_output_tokens.flatten(),
            }
        }
        None => {
            let met: Vec<Option<bool>> = run
                .points
                .iter()
                .filter_map(|p| p.slo.map(|e| e.met))
                .collect();
            CapacityAnswer::NoneMeets {
                failed: met.iter().filter(|m| **m == Some(false)).count(),
                unknown: met.iter().filter(|m| m.is_none()).count(),
                met_by_rate: run
                    .points
                    .iter()
                    .filter(|p| {
                        p.metrics.concurrency.is_none()
                            && p.slo.is_some_and(|e| e.met == Some(true))
                    })
                    .count(),
            }
        }
    })
}

fn at(k: usize, p: &PointSummary, value: f64) -> AtLevel {
    AtLevel {
        point: k,
        concurrency: p.metrics.concurrency,
        request_rate: p.metrics.request_rate,
        value,
        per_stream_tps: p.metrics.per_stream_tps,
        system_tps: p.metrics.system_tps,
        ttft_mean_ms: p.metrics.ttft_ms.mean,
        ttfvt_mean_ms: p.metrics.turns.ttfvt_ms.and_then(|d| d.mean),
        reasoning_share: p
            .metrics
            .turns
            .reasoning_tokens
            .zip(p.metrics.output_tokens.filter(|o| *o > 0))
            .map(|(r, o)| r as f64 / o as f64),
        visible_system_tps: p.metrics.turns.visible_system_tps,
        ran: p
            .server
            .as_ref()
            .and_then(|s| crate::server::Ran::of(p.metrics.concurrency, s)),
    }
}

/// The highest of `f` over the points (the lowest level wins a tie).
fn best(run: &RunSummary, f: impl Fn(&PointSummary) -> Option<f64>) -> Option<AtLevel> {
    let mut top: Option<AtLevel> = None;
    for (k, p) in run.points.iter().enumerate() {
        if let Some(v) = f(p).filter(|v| v.is_finite()) {
            if top.is_none_or(|t| v > t.value) {
                top = Some(at(k, p, v));
            }
        }
    }
    top
}

/// The most runs whose answer cards all lead the page.
pub const ANSWERED_RUNS: usize = crate::bounds::EACH;

/// Which runs' answer cards lead the page (indices into `runs`): every run up to
/// [`ANSWERED_RUNS`]; past that, only the run with the highest peak system T/s (the first on a
/// tie, the first run when none has one), so that dozens of runs do not stack a wall of cards
/// above the charts. The others are in the legend, the charts and the table.
pub fn leading(runs: &[RunSummary]) -> Vec<usize> {
    if runs.len() <= ANSWERED_RUNS {
        return (0..runs.len()).collect();
    }
    let peak = |r: &RunSummary| best(r, |p| p.metrics.system_tps).map(|a| a.value);
    let mut top: Option<(usize, f64)> = None;
    for (i, r) in runs.iter().enumerate() {
        if let Some(v) = peak(r) {
            if top.is_none_or(|(_, t)| v > t) {
                top = Some((i, v));
            }
        }
    }
    vec![top.map_or(0, |(i, _)| i)]
}

/// The answers for one run.
pub fn answers(run: &RunSummary) -> Answers {
    let peak_system = best(run, |p| p.metrics.system_tps);
    Answers {
        peak_system,
        best_per_stream: best(run, |p| p.metrics.per_stream_tps),
        knee: knee(run),
        capacity: capacity(run),
        peak_usd_per_million: peak_system.and_then(|a| {
            run.points
                .get(a.point)?
                .usd_per_million_output_tokens
                .flatten()
        }),
        priced: run
            .points
            .iter()
            .any(|p| p.usd_per_million_output_tokens.is_some()),
        energy: energy_at(run, peak_system),
    }
}

/// The knee by [`KNEE_RULE`].
pub fn knee(run: &RunSummary) -> Knee {
    // A sweep over another setting (llama-bench's depth, threads…) has no concurrency to saturate.
    if run.axis.is_some() {
        return Knee::Unknown;
    }
    let mut pts: Vec<(f64, f64)> = run
        .points
        .iter()
        .filter_map(|p| {
            let c = p
                .metrics
                .concurrency
                .filter(|c| *c > 0.0 && c.is_finite())?;
            let s = p.metrics.system_tps.filter(|s| *s > 0.0 && s.is_finite())?;
            Some((c, s))
        })
        .collect();
    pts.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    // Two points at one level (a repeated run): the first is kept.
    pts.dedup_by(|b, a| a.0 == b.0);
    let gain = |a: (f64, f64), b: (f64, f64)| (b.1 / a.1).powf(1.0 / (b.0 / a.0).log2()) - 1.0;
    for w in pts.windows(2) {
        let g = gain(w[0], w[1]);
        if g < KNEE_GAIN {
            return Knee::At {
                concurrency: w[0].0,
                system_tps: w[0].1,
                gain: g,
            };
        }
    }
    match pts.as_slice() {
        [.., a, b] => Knee::NotReached {
            gain: gain(*a, *b),
            highest: b.0,
        },
        _ => Knee::Unknown,
    }
}

/// An export's one-line provenance: what it shows, of which runs (model), from which files, when
/// exported, by tpsview.
pub fn provenance(summary: &crate::summary::Summary, what: &str, date: &str) -> String {
    let runs: Vec<String> = summary
        .runs
        .iter()
        .map(|r| match r.meta.model.as_deref() {
            Some(m) if !r.id.as_str().contains(m) => format!("{} ({m})", r.id),
            _ => r.id.to_string(),
        })
        .collect();
    let mut files: Vec<&str> = summary
        .runs
        .iter()
        .flat_map(|r| r.points.iter().map(|p| p.source_file.as_str()))
        .map(|f| f.split_once('#').map_or(f, |(b, _)| b))
        .collect();
    files.dedup();
    let shown: Vec<&str> = files.iter().take(3).copied().collect();
    let more = files.len().saturating_sub(shown.len());
    format!(
        "{what} · {} · {}{} · exported {date} by tpsview {}",
        runs.join("; "),
        shown.join(", "),
        if more > 0 {
            format!(" (+{more} more)")
        } else {
            String::new()
        },
        env!("CARGO_PKG_VERSION")
    )
}
