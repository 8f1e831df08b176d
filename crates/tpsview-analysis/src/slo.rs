//! Capacity under a latency target (issue 16, the core part): service-level objectives, and per
//! level the attainment (the share of requests meeting every per-request target), the goodput
//! (those requests, and their output tokens, per second) and whether the level meets the SLO; per
//! run, the capacity under it (the level with the highest system T/s among those that meet it).
//!
//! Per-request targets follow vLLM's `--goodput`: a request meets them when its own TTFT, TPOT and
//! E2E are each at most the target (equal meets); a request with one output token has no TPOT and
//! meets a TPOT target; a failed or unusable request never meets them and still counts in the
//! denominator. Level targets bound a statistic of the level (`tpot_p99_ms=80`).

use crate::metrics::{request_metrics, PointMetrics};
use crate::model::Point;
use crate::vocabulary::{Latency, Stat};

/// A statistic a level target bounds: tpsview's four, and p95.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelStat {
    /// One of the statistics every distribution carries.
    Stat(Stat),
    /// The 95th percentile (numpy-linear over the level's requests), for raw data only.
    P95,
}

impl LevelStat {
    fn parse(s: &str) -> Option<LevelStat> {
        match s {
            "p95" => Some(LevelStat::P95),
            other => Stat::parse(other).map(LevelStat::Stat),
        }
    }
}

/// An SLO: per-request targets, level-statistic targets, and the share of requests that must meet
/// the per-request ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Slo {
    /// Per-request TTFT target, ms.
    pub ttft_ms: Option<f64>,
    /// Per-request TPOT target, ms.
    pub tpot_ms: Option<f64>,
    /// Per-request E2E target, ms.
    pub e2e_ms: Option<f64>,
    /// Level targets: (distribution, statistic, bound in ms).
    pub level: Vec<(Latency, LevelStat, f64)>,
    /// The share of a level's requests that must meet every per-request target (default 0.9).
    pub attainment: f64,
}

impl Default for Slo {
    fn default() -> Self {
        Slo {
            ttft_ms: None,
            tpot_ms: None,
            e2e_ms: None,
            level: Vec::new(),
            attainment: 0.9,
        }
    }
}

/// Why an SLO text could not be read: the part, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{part:?}: {why}")]
pub struct SloError {
    /// The offending part, e.g. `tpot_p97_ms=50`.
    pub part: String,
    /// What is wrong.
    pub why: String,
}

impl Slo {
    /// Reads `ttft_ms=500,tpot_ms=50[,e2e_ms=…][,<ttft|tpot|itl|e2e>_<mean|p50|p90|p95|p99>_ms=…][,attainment=0.9]`.
    pub fn parse(text: &str) -> Result<Slo, SloError> {
        let mut slo = Slo::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let err = |why: &str| SloError {
                part: part.to_owned(),
                why: why.to_owned(),
            };
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| err("expected NAME=VALUE"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| err("the value is not a number"))?;
            if !(v.is_finite() && v > 0.0) {
                return Err(err("a target must be a positive number"));
            }
            match key.trim() {
                "ttft_ms" => slo.ttft_ms = Some(v),
                "tpot_ms" => slo.tpot_ms = Some(v),
                "e2e_ms" => slo.e2e_ms = Some(v),
                "attainment" if v <= 1.0 => slo.attainment = v,
                "attainment" => return Err(err("attainment is a fraction, at most 1")),
                k => {
                    let rest = k
                        .strip_suffix("_ms")
                        .ok_or_else(|| err("unknown target (names end in _ms)"))?;
                    let (d, s) = rest.split_once('_').ok_or_else(|| err("unknown target"))?;
                    let d = Latency::ALL
                        .into_iter()
                        .find(|l| l.name() == d)
                        .ok_or_else(|| err("unknown metric (ttft, tpot, itl or e2e)"))?;
                    let s = LevelStat::parse(s)
                        .ok_or_else(|| err("unknown statistic (mean, p50, p90, p95 or p99)"))?;
                    slo.level.push((d, s, v));
                }
            }
        }
        if slo.ttft_ms.is_none()
            && slo.tpot_ms.is_none()
            && slo.e2e_ms.is_none()
            && slo.level.is_empty()
        {
            return Err(SloError {
                part: text.to_owned(),
                why: "no target".into(),
            });
        }
        Ok(slo)
    }

    /// The tightest TPOT target, per request or of a level statistic, ms.
    pub fn tightest_tpot_ms(&self) -> Option<f64> {
        self.level
            .iter()
            .filter(|(d, _, _)| *d == Latency::Tpot)
            .map(|l| l.2)
            .chain(self.tpot_ms)
            .reduce(f64::min)
    }

    /// True when the SLO has a per-request target (attainment and goodput need one).
    pub fn has_request_targets(&self) -> bool {
        self.ttft_ms.is_some() || self.tpot_ms.is_some() || self.e2e_ms.is_some()
    }
}

/// One level against an SLO.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SloPoint {
    /// Share of all the level's requests meeting every per-request target; `None` without
    /// per-request data or per-request targets.
    pub attainment: Option<f64>,
    /// Requests meeting them per second of the level's duration (vLLM's `request_goodput`).
    pub goodput_rps: Option<f64>,
    /// Their output tokens per second.
    pub goodput_tps: Option<f64>,
    /// Every level target holds and the attainment is at least the required share; `None` when a
    /// target cannot be checked (a statistic the file does not give, no per-request data).
    pub met: Option<bool>,
    /// True when the level has no per-request data: its level targets were checked against the
    /// tool's own statistics, and attainment cannot be computed (not part of the `--json`
    /// contract).
    #[serde(skip)]
    pub from_tool_figures: bool,
    /// The tool's own goodput figure, where the file has one, beside tpsview's under this SLO.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_goodput: Option<ToolGoodput>,
}

/// A tool's own goodput (requests per second meeting the SLO the tool was given) beside
/// tpsview's `goodput_rps` under the SLO given to tpsview. They agree only when the two SLOs are
/// the same: the files do not record the tool's (vLLM's `--goodput`, GenAI-Perf's and AIPerf's
/// `--goodput`), so a difference says "another SLO" as often as "another count".
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ToolGoodput {
    /// The tool's key (`request_goodput`, `goodput.avg`, …).
    pub key: &'static str,
    /// Its value, requests/s.
    pub reported_rps: f64,
    /// (tpsview − tool) / tool, when tpsview has a goodput under the given SLO.
    pub relative_diff: Option<f64>,
    /// Within the audit's tolerance ([`crate::audit::TOLERANCE`]).
    pub agrees: Option<bool>,
}

/// The keys under which tools write their goodput, in requests/s: vLLM and SGLang
/// (`request_goodput`), GenAI-Perf (`request_goodput` object, its `avg`), AIPerf (`goodput`).
pub const TOOL_GOODPUT_KEYS: [&str; 4] = [
    "request_goodput",
    "request_goodput.avg",
    "goodput.avg",
    "goodput",
];

/// The tool's goodput figure in `reported`, if any (see [`TOOL_GOODPUT_KEYS`]).
pub fn tool_goodput_figure(
    reported: &std::collections::BTreeMap<String, f64>,
) -> Option<(&'static str, f64)> {
    TOOL_GOODPUT_KEYS
        .into_iter()
        .find_map(|k| reported.get(k).map(|v| (k, *v)))
        .filter(|(_, v)| v.is_finite() && *v >= 0.0)
}

/// `point` (with its figures `m`) against `slo`.
pub fn evaluate(point: &Point, m: &PointMetrics, slo: &Slo) -> SloPoint {
    let mut out = SloPoint {
        attainment: None,
        goodput_rps: None,
        goodput_tps: None,
        met: None,
        from_tool_figures: point.requests.is_none(),
        tool_goodput: None,
    };
    let req = point.requests.as_ref();
    if let (Some(req), true) = (req, slo.has_request_targets()) {
        let n = req.len();
        let (mut good, mut tokens) = (0u64, 0u64);
        for i in 0..n {
            let Some(r) = request_metrics(req, i) else {
                continue;
            };
            let within = |v: Option<f64>, t: Option<f64>| match (v, t) {
                (_, None) | (None, Some(_)) => true,
                (Some(v), Some(t)) => v * 1e3 <= t,
            };
            if within(Some(r.ttft), slo.ttft_ms)
                && within(r.tpot, slo.tpot_ms)
                && within(Some(r.e2e), slo.e2e_ms)
            {
                good += 1;
                tokens += u64::from(req.output_tokens[i]);
            }
        }
        if n > 0 {
            out.attainment = Some(good as f64 / n as f64);
        }
        if let Some(d) = m.duration_s.filter(|d| *d > 0.0) {
            out.goodput_rps = Some(good as f64 / d);
            out.goodput_tps = Some(tokens as f64 / d);
        }
    }
    // Level targets: the level's own statistic; p95 from the requests where there are some.
    let (mut failed, mut unknown) = (false, false);
    for &(d, s, bound) in &slo.level {
        let value = match s {
            LevelStat::Stat(st) => *m.dist(d).stat(st),
            LevelStat::P95 => req.and_then(|r| p95(r, d)),
        };
        match value {
            Some(v) => failed |= v > bound,
            None => unknown = true,
        }
    }
    let level_ok = if failed {
        Some(false)
    } else if unknown {
        None
    } else {
        Some(true)
    };
    let attained = if slo.has_request_targets() {
        out.attainment.map(|a| a >= slo.attainment)
    } else {
        Some(true)
    };
    out.met = match (level_ok, attained) {
        (Some(a), Some(b)) => Some(a && b),
        // A level that fails a target it can check does not meet the SLO, whatever is unknown.
        (Some(false), None) | (None, Some(false)) => Some(false),
        _ => None,
    };
    out.tool_goodput = tool_goodput_figure(&point.reported.figures).map(|(key, reported_rps)| {
        let relative_diff = out
            .goodput_rps
            .filter(|_| reported_rps > 0.0)
            .map(|g| (g - reported_rps) / reported_rps);
        ToolGoodput {
            key,
            reported_rps,
            relative_diff,
            agrees: relative_diff.map(|d| d.abs() <= crate::audit::TOLERANCE),
        }
    });
    out
}

/// Why a level has no attainment under `slo`, in words; `None` when it has one.
pub fn why_no_attainment(e: &SloPoint, slo: &Slo) -> Option<&'static str> {
    if e.attainment.is_some() {
        return None;
    }
    Some(if !slo.has_request_targets() {
        "the SLO has no per-request target (ttft_ms, tpot_ms, e2e_ms): attainment counts requests against those"
    } else if e.from_tool_figures {
        "this file has the tool's summary figures only, not each request: attainment needs each request's latencies"
    } else {
        "the level has no requests"
    })
}

/// Output tokens per US dollar, from USD per million output tokens.
pub fn tokens_per_usd(usd_per_million: f64) -> Option<f64> {
    (usd_per_million > 0.0 && usd_per_million.is_finite()).then(|| 1e6 / usd_per_million)
}

/// A named SLO the viewer offers; examples to start from, not standards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// Short name.
    pub name: &'static str,
    /// The SLO text ([`Slo::parse`]).
    pub text: &'static str,
    /// Where it comes from.
    pub note: &'static str,
}

/// The viewer's SLO presets.
pub const PRESETS: [Preset; 5] = [
    Preset {
        name: "Chat",
        text: "ttft_p90_ms=500,tpot_p90_ms=50",
        note: "TTFT p90 ≤ 500 ms and TPOT p90 ≤ 50 ms (about 20 tokens/s per user, faster than reading)",
    },
    Preset {
        name: "Chat, per request",
        text: "ttft_ms=500,tpot_ms=50,attainment=0.9",
        note: "90 % of requests each with TTFT ≤ 500 ms and TPOT ≤ 50 ms (vLLM's --goodput counts these)",
    },
    Preset {
        name: "Code completion",
        text: "ttft_p90_ms=200,tpot_p90_ms=20",
        note: "TTFT p90 ≤ 200 ms and TPOT p90 ≤ 20 ms: an editor waits for the whole suggestion",
    },
    Preset {
        name: "MLPerf Llama 2 70B Server",
        text: "ttft_p99_ms=2000,tpot_p99_ms=200",
        note: "MLPerf Inference's latency constraints for that benchmark's Server scenario",
    },
    Preset {
        name: "MLPerf Llama 2 70B Interactive",
        text: "ttft_p99_ms=450,tpot_p99_ms=40",
        note: "MLPerf Inference's tighter constraints for that benchmark's Interactive scenario",
    },
];

/// The latency targets the loaded files state themselves (an MLPerf run's scenario limits, kept as
/// run metadata `slo_<target>` = value, e.g. `slo_ttft_p99_ms` = `2000`): each distinct SLO text
/// with the runs that state it, in run order. Offered beside the presets, and by `--slo file`.
pub fn file_targets(report: &crate::model::Report) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for run in &report.runs {
        let parts: Vec<String> = run
            .meta
            .labels
            .iter()
            .filter_map(|(k, v)| Some(format!("{}={v}", k.strip_prefix("slo_")?)))
            .collect();
        if parts.is_empty() {
            continue;
        }
        let text = parts.join(",");
        if Slo::parse(&text).is_err() {
            continue;
        }
        match out.iter_mut().find(|(t, _)| *t == text) {
            Some((_, runs)) => runs.push(run.label.to_string()),
            None => out.push((text, vec![run.label.to_string()])),
        }
    }
    out
}

/// Example GPU-hour prices the viewer offers, in USD: stated as the user's input, not as facts
/// about any provider.
pub const PRICE_EXAMPLES: [(&str, f64); 3] = [
    ("$1.00 per GPU-hour (example)", 1.0),
    ("$2.50 per GPU-hour (example)", 2.5),
    ("$4.00 per GPU-hour (example)", 4.0),
];

/// The 95th percentile (ms) of a per-request latency over the level's usable requests; ITL (chunk
/// gaps) is not per request: `None`.
fn p95(req: &crate::model::Requests, d: Latency) -> Option<f64> {
    use crate::vocabulary::Series;
    let series = match d {
        Latency::Ttft => Series::Ttft,
        Latency::Tpot => Series::Tpot,
        Latency::E2e => Series::E2e,
        Latency::Itl => return None,
    };
    let mut v = crate::metrics::per_request(req, series);
    v.iter_mut().for_each(|s| *s *= 1e3);
    crate::stats::percentiles(&mut v, [95.0])[0]
}

/// Why a level's "meets the SLO" is unknown, in words; `None` when it is known.
pub fn why_met_unknown(e: &SloPoint, slo: &Slo) -> Option<&'static str> {
    if e.met.is_some() {
        return None;
    }
    Some(if slo.has_request_targets() && e.attainment.is_none() {
        "per-request targets need each request's latencies, which this file does not have: keep only level targets (such as ttft_p99_ms) to check it"
    } else {
        "a level target's statistic is not in this file (the tool did not print it)"
    })
}

/// A run's capacity under an SLO.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Capacity {
    /// Its index among the levels given to [`capacity`] (the run's points; not in `--json`).
    #[serde(skip)]
    pub point: usize,
    /// The level.
    pub concurrency: f64,
    /// Its system T/s.
    pub system_tps: f64,
}

/// A run's capacity under the SLO: among its levels (concurrency, system T/s, met), the one with
/// the highest system T/s that meets it.
pub fn capacity(
    levels: impl IntoIterator<Item = (Option<f64>, Option<f64>, Option<bool>)>,
) -> Option<Capacity> {
    levels
        .into_iter()
        .enumerate()
        .filter_map(|(point, (c, s, met))| Some((point, c?, s?, met?)))
        .filter(|l| l.3)
        .map(|(point, concurrency, system_tps, _)| Capacity {
            point,
            concurrency,
            system_tps,
        })
        .max_by(|a, b| a.system_tps.total_cmp(&b.system_tps))
}

/// USD per million output tokens at `system_tps` on `gpus` GPUs at `usd_per_gpu_hour` each (a
/// price the user states, not a fact tpsview knows): the hour's price over the hour's tokens.
pub fn usd_per_million_output_tokens(
    system_tps: f64,
    usd_per_gpu_hour: f64,
    gpus: u32,
) -> Option<f64> {
    (system_tps > 0.0 && system_tps.is_finite() && usd_per_gpu_hour > 0.0 && gpus > 0)
        .then(|| usd_per_gpu_hour * f64::from(gpus) / (system_tps * 3600.0) * 1e6)
}
