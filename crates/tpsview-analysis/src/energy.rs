//! Energy per level (issue 31): joules per output token and output tokens per joule, where a
//! file carries the GPUs' power or energy — AIPerf's GPU telemetry (`telemetry_data` of its
//! summary: DCGM's cumulative energy counter and mean power per GPU, read by the AIPerf reader
//! into the point's [`Telemetry`] and the label [`GPUS_LABEL`]) and InferenceX's power keys (`joules_per_output_token`, `avg_power_w`,
//! `total_gpu_energy_j`). Which GPUs, over which window and on which basis is always stated.

use std::collections::BTreeMap;

use crate::model::Telemetry;
pub use crate::tools::aiperf::GPUS_LABEL;

/// Past this (fraction), the energy counter and mean power × duration are said to disagree.
pub const ENERGY_AGREEMENT: f64 = 0.10;

/// What GenAI-Perf's energy covers.
pub const GENAI_PERF_WINDOW: &str = "GenAI-Perf gathers its telemetry over the whole perf_analyzer run (start-up, warm-up and every measurement window), longer than the level's requests: its energy counter over them gives an upper bound per token; its mean power, lowered by the idle start, over the output rate a lower one";

/// A level's energy, as `summarize --json` writes it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EnergySummary {
    /// Where the figures come from.
    pub source: &'static str,
    /// How the joules were had: `energy counter`, `mean power × duration`, or `the tool's`.
    pub basis: &'static str,
    /// Which GPUs, as the file names them.
    pub gpus: Option<String>,
    /// Over which window.
    pub window: Option<String>,
    /// Joules over the window (all the GPUs counted), where known.
    pub joules: Option<f64>,
    /// Mean power, W (all the GPUs counted), where known.
    pub mean_power_w: Option<f64>,
    /// Joules per output token.
    pub joules_per_output_token: f64,
    /// Output tokens per joule.
    pub output_tokens_per_joule: f64,
    /// How far apart (%) the energy counter and mean power × the window are, where both are
    /// known; for InferenceX, its J per token and its GPUs' mean power ÷ system T/s.
    pub apart_pct: Option<f64>,
    /// Where two ways of counting disagree, or what the basis leaves out.
    pub note: Option<String>,
}

/// The energy of a level from its GPU telemetry, the tool's figures and its run's labels and GPU
/// count; `output_tokens` and `duration_s` are the level's, `system_tps` its output tokens per
/// second. `None` where the file carries no power or energy.
#[allow(clippy::too_many_arguments)]
pub fn of(
    tool: &str,
    telemetry: Option<&Telemetry>,
    figures: &BTreeMap<String, f64>,
    labels: &BTreeMap<String, String>,
    gpu_count: Option<u32>,
    output_tokens: Option<f64>,
    duration_s: Option<f64>,
    system_tps: Option<f64>,
) -> Option<EnergySummary> {
    let positive = |k: &str| positive(figures, k);
    let tokens = output_tokens.filter(|t| *t > 0.0);
    let per = |joules: f64| -> Option<(f64, f64)> {
        let t = tokens?;
        Some((joules / t, t / joules))
    };
    // The counter covers the telemetry window; mean power is multiplied by the same window where
    // the file states it, else by the level's duration.
    let t = telemetry.copied().unwrap_or_default();
    let window_s = measured(t.window_s);
    let span = window_s.or(duration_s.filter(|d| *d > 0.0));
    let window = window_s.map(|w| format!("AIPerf's telemetry window of the level, {w:.1} s"));
    let power = measured(t.mean_power_w);
    // GenAI-Perf's telemetry (read into the same fields) spans its whole perf_analyzer run.
    // With the level's token count (its requests read), the counter over it; else (a summary
    // alone: no count, no duration) the mean power over the output token rate.
    if tool == crate::tools::genai_perf::SUMMARY_ID {
        let counter = measured(t.energy_j);
        let (basis, joules, jpt) = match (counter.zip(tokens), power, system_tps) {
            (Some((j, t)), _, _) => ("energy counter", Some(j), j / t),
            (None, Some(w), Some(tps)) if tps > 0.0 => {
                ("mean power ÷ output T/s", counter, w / tps)
            }
            _ => return None,
        };
        return Some(EnergySummary {
            source: "GenAI-Perf GPU telemetry (DCGM)",
            basis,
            gpus: labels.get(GPUS_LABEL).cloned(),
            window: Some("GenAI-Perf's whole perf_analyzer run".into()),
            joules,
            mean_power_w: power,
            joules_per_output_token: jpt,
            output_tokens_per_joule: 1.0 / jpt,
            apart_pct: None,
            note: Some(GENAI_PERF_WINDOW.into()),
        });
    }
    if let Some(counter) = measured(t.energy_j) {
        let (jpt, tpj) = per(counter)?;
        let by_power = power.zip(span).map(|(p, d)| p * d);
        let apart_pct = by_power.map(|j| (counter - j).abs() / j * 100.0);
        let note = by_power
            .filter(|j| (counter - j).abs() / j > ENERGY_AGREEMENT)
            .map(|j| {
                format!(
                    "the energy counter rose {counter:.0} J; mean power × the window gives {j:.0} J ({:.0} % apart): the counter is used — they part where the counter is coarse or the power samples miss part of the window",
                    (counter - j).abs() / j * 100.0
                )
            });
        return Some(EnergySummary {
            source: "AIPerf GPU telemetry (DCGM)",
            basis: "energy counter",
            gpus: labels.get(GPUS_LABEL).cloned(),
            window,
            joules: Some(counter),
            mean_power_w: power,
            joules_per_output_token: jpt,
            output_tokens_per_joule: tpj,
            apart_pct,
            note,
        });
    }
    if let Some(power) = power {
        let joules = power * span?;
        let (jpt, tpj) = per(joules)?;
        return Some(EnergySummary {
            source: "AIPerf GPU telemetry (DCGM)",
            basis: "mean power × duration",
            gpus: labels.get(GPUS_LABEL).cloned(),
            window,
            joules: Some(joules),
            mean_power_w: Some(power),
            joules_per_output_token: jpt,
            output_tokens_per_joule: tpj,
            apart_pct: None,
            note: Some("no energy counter in the file: mean power × the window".into()),
        });
    }
    if tool == crate::probe::TOOL {
        // `tpsview probe`: the energy counter over the level's timed steps, per token (each step
        // gives one token to each stream of the batch).
        let jpt = positive("energy_j_per_token")?;
        return Some(EnergySummary {
            source: "tpsview probe",
            basis: "energy counter",
            gpus: labels.get(crate::probe::POWER_LABEL).cloned(),
            window: Some("the level's timed decode steps".into()),
            joules: positive("energy_j_per_step"),
            mean_power_w: positive("power_w"),
            joules_per_output_token: jpt,
            output_tokens_per_joule: 1.0 / jpt,
            apart_pct: None,
            note: None,
        });
    }
    if tool == crate::tools::inferencex::ID {
        return inferencex(figures, gpu_count, system_tps);
    }
    None
}

/// Past this (fraction), InferenceX's `joules_per_output_token` and its GPUs' mean power ÷ the
/// output rate are said to disagree: both come from one integration of the power samples, and
/// InferenceX allows its window and the benchmark's duration to differ by 1 % (or 0.5 s).
pub const INFERENCEX_AGREEMENT: f64 = 0.01;

/// InferenceX's power keys (its `utils/aggregate_power.py` patches them into `agg_*.json`):
/// `joules_per_output_token` = the GPUs' energy over the benchmark window ÷ output tokens,
/// `avg_total_gpu_power_w` (all GPUs) or, in files before it, `avg_power_w` (per GPU, × the run's
/// GPUs), `total_gpu_energy_j`, `power_valid` (0: the measurement failed its checks; the keys are
/// then dropped). Its J per token is kept as written and audited against mean power ÷ system T/s
/// (W ÷ tokens/s = J per token over the same window).
fn inferencex(
    figures: &BTreeMap<String, f64>,
    gpu_count: Option<u32>,
    system_tps: Option<f64>,
) -> Option<EnergySummary> {
    let positive = |k: &str| positive(figures, k);
    if figures.get("power_valid") == Some(&0.0) {
        return None;
    }
    let jpt = positive("joules_per_output_token")?;
    let gpus = gpu_count.filter(|n| *n > 0);
    // The deployment's mean power, and how it was had (for the note).
    let power = match (
        positive("avg_total_gpu_power_w"),
        positive("avg_power_w"),
        gpus,
    ) {
        (Some(t), _, _) => Some((t, "avg_total_gpu_power_w".to_owned())),
        (None, Some(w), Some(n)) => Some((
            w * f64::from(n),
            format!("avg_power_w (per GPU) × {n} GPUs"),
        )),
        _ => None,
    };
    let recomputed = power
        .as_ref()
        .zip(system_tps.filter(|t| *t > 0.0))
        .map(|((w, said), tps)| (w / tps, said));
    let apart = recomputed.map(|(r, _)| (r - jpt) / jpt);
    let note = recomputed
        .filter(|(r, _)| ((r - jpt) / jpt).abs() > INFERENCEX_AGREEMENT)
        .map(|(r, said)| format!(
            "InferenceX's joules_per_output_token is {jpt:.4}; its {said} ÷ system T/s gives {r:.4} ({:+.1} %): a disaggregated run's figure counts the decode GPUs' energy alone, and InferenceX lets its power window and the benchmark's duration differ by 1 % or 0.5 s",
            (r - jpt) / jpt * 100.0
        ));
    Some(EnergySummary {
        source: "InferenceX measured GPU power",
        basis: "the tool's",
        gpus: Some(match gpus {
            Some(n) => {
                format!("{n} GPUs (the run's; each one's power samples integrated by InferenceX)")
            }
            None => "every GPU InferenceX saw (each one's power samples integrated)".into(),
        }),
        window: Some(
            "the benchmark's own window (benchmark_start_time_unix to benchmark_end_time_unix)"
                .into(),
        ),
        joules: positive("total_gpu_energy_j"),
        mean_power_w: power.map(|(w, _)| w),
        joules_per_output_token: jpt,
        output_tokens_per_joule: 1.0 / jpt,
        apart_pct: apart.map(|a| a.abs() * 100.0),
        note,
    })
}

/// A figure that is a finite positive number, else none (0 J is no reading).
fn positive(figures: &BTreeMap<String, f64>, key: &str) -> Option<f64> {
    measured(figures.get(key).copied())
}

/// A measured quantity (joules, watts, seconds) where it is one: finite and above zero.
fn measured(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite() && *x > 0.0)
}
