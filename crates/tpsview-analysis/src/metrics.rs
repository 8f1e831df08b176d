//! The metric engine: every definition in docs/metrics.md, as pure functions of the model.
//! Per request: ttft, e2e, tpot, itl, per-stream and user-visible rates. Per point: duration,
//! system and per-stream T/s, latency distributions, request throughput, achieved concurrency,
//! the decomposition of the gap between N × per-stream and system T/s, and the optional
//! steady-state window. Failed and invalid requests are counted and listed, never averaged in.

use crate::error::Diagnostic;
use crate::model::{rate_as_json, Outcome, Point, Ragged, Requests};
use crate::stats::Dist;
use crate::vocabulary::{GapCause, Latency, Metric};

/// Choices that change what is computed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetricOptions {
    /// Also compute system T/s inside the steady-state window.
    pub steady_state: bool,
}

/// One request's figures, all in seconds or tokens/s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestMetrics {
    /// First token's arrival − send time.
    pub ttft: f64,
    /// Last token's arrival − send time.
    pub e2e: f64,
    /// (e2e − ttft) / (output_tokens − 1); `None` below 2 output tokens.
    pub tpot: Option<f64>,
    /// 1 / tpot; `None` when tpot is not positive.
    pub per_stream_rate: Option<f64>,
    /// output_tokens / e2e; `None` when e2e is not positive.
    pub user_rate: Option<f64>,
    /// e2e / output_tokens (its inverse is the E2E-normalised interactivity); `None` when e2e is
    /// not positive.
    pub e2e_per_token: Option<f64>,
}

/// The figures of request `i`, or `None` when it failed or its data is unusable.
pub fn request_metrics(req: &Requests, i: usize) -> Option<RequestMetrics> {
    if !req.is_ok(i) {
        return None;
    }
    let n = req.output_tokens[i];
    if n == 0 {
        return None;
    }
    let (ttft, e2e) = (req.ttft_s[i], req.e2e_s[i]);
    let tpot = (n >= 2).then(|| (e2e - ttft) / f64::from(n - 1));
    Some(RequestMetrics {
        ttft,
        e2e,
        tpot,
        per_stream_rate: tpot.filter(|t| *t > 0.0).map(|t| 1.0 / t),
        user_rate: (e2e > 0.0).then(|| f64::from(n) / e2e),
        e2e_per_token: (e2e > 0.0).then(|| e2e / f64::from(n)),
    })
}

/// One per-request series (TTFT, TPOT or E2E, seconds) over the requests with usable data; a
/// request without a TPOT (one output token) is not in the TPOT series.
pub fn per_request(req: &Requests, series: crate::vocabulary::Series) -> Vec<f64> {
    use crate::vocabulary::Series;
    (0..req.len())
        .filter_map(|i| request_metrics(req, i))
        .filter_map(|r| match series {
            Series::Ttft => Some(r.ttft),
            Series::Tpot => r.tpot,
            Series::E2e => Some(r.e2e),
        })
        .collect()
}

/// Where a point's figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Recomputed by tpsview from raw per-request data.
    Recomputed,
    /// Taken from the tool's own summary ("as reported"); only what the definitions allow is derived.
    Reported,
}

/// One factor of the gap between N × per-stream T/s and the measured system T/s.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct GapFactor {
    /// What the factor measures (serialized as its stable name).
    pub cause: GapCause,
    /// Multiplier (1.0 = no loss).
    pub factor: f64,
    /// This factor's share of the whole gap on a log scale (shares sum to 1); `None` when the gap
    /// is under 1 %, where shares mean nothing.
    pub share_of_gap: Option<f64>,
}

/// system T/s = N × per-stream T/s × Π factors, exactly.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GapAnalysis {
    /// Target concurrency N.
    pub target_concurrency: f64,
    /// N × per-stream T/s: what the system would deliver if N streams decoded all the time.
    pub ideal_tps: f64,
    /// The measured system T/s.
    pub system_tps: f64,
    /// The factors: achieved ÷ target concurrency (ramp-up, tail, queueing), decode time ÷ request
    /// time (waiting for and computing the prefill), and the token-weighted decode rate including
    /// each first token ÷ per-stream T/s.
    pub factors: Vec<GapFactor>,
}

/// System T/s measured inside the window where the target number of requests is in flight.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SteadyState {
    /// Window start, on the requests' clock (s).
    pub start_s: f64,
    /// Window end (s).
    pub end_s: f64,
    /// Tokens emitted inside the window (tokens after the first spread evenly over each
    /// request's decode span).
    pub output_tokens: f64,
    /// output_tokens / window length.
    pub system_tps: f64,
}

/// A request that was not averaged in, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Excluded {
    /// Its index in the point.
    pub index: usize,
    /// The tool's error text, or the field that made it unusable.
    pub reason: String,
    /// True for a request the tool marked failed; false for unusable data.
    pub failed: bool,
}

/// Every per-point figure. `None` where a definition does not apply.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PointMetrics {
    /// Whether the figures were recomputed or taken as reported.
    pub basis: Basis,
    /// Target concurrency.
    pub concurrency: Option<f64>,
    /// Target request rate (req/s); serialised as the string `"inf"` for all at once.
    #[serde(serialize_with = "rate_as_json")]
    pub request_rate: Option<f64>,
    /// Requests that completed with usable data.
    pub requests_ok: Option<u64>,
    /// Requests the tool marked failed.
    pub requests_failed: Option<u64>,
    /// Requests whose data was unusable (listed in diagnostics).
    pub requests_invalid: u64,
    /// Σ output tokens of the ok requests.
    pub output_tokens: Option<u64>,
    /// Last token's arrival − first send (s).
    pub duration_s: Option<f64>,
    /// Whether `duration_s` is the tool's figure because the file has no send times.
    pub duration_as_reported: bool,
    /// Σ output tokens / duration.
    pub system_tps: Option<f64>,
    /// 1 / mean(tpot).
    pub per_stream_tps: Option<f64>,
    /// Distribution of per-request 1 / tpot (T/s).
    pub per_stream_rate: Dist,
    /// Distribution of per-request output_tokens / e2e (T/s).
    pub user_rate: Dist,
    /// tpot (ms).
    pub tpot_ms: Dist,
    /// ttft (ms).
    pub ttft_ms: Dist,
    /// Chunk gaps pooled over all ok requests (ms).
    pub itl_ms: Dist,
    /// e2e (ms).
    pub e2e_ms: Dist,
    /// Completed requests / duration.
    pub request_throughput: Option<f64>,
    /// Σ e2e / duration (Little's law).
    pub concurrency_achieved: Option<f64>,
    /// N × per-stream vs system T/s.
    pub gap: Option<GapAnalysis>,
    /// Steady-state view, when asked for and defined.
    pub steady_state: Option<SteadyState>,
    /// Requests left out of the averages.
    pub excluded: Vec<Excluded>,
    /// The numbers of 2026: the first visible token, reasoning, tokens/s per user, the prefix
    /// cache and sessions (`turns`), each where the requests carry it.
    #[serde(flatten)]
    pub turns: Turns,
}

impl PointMetrics {
    fn empty(basis: Basis, point: &Point) -> Self {
        PointMetrics {
            basis,
            concurrency: point.concurrency,
            request_rate: point.request_rate,
            requests_ok: None,
            requests_failed: None,
            requests_invalid: 0,
            output_tokens: None,
            duration_s: None,
            duration_as_reported: false,
            system_tps: None,
            per_stream_tps: None,
            per_stream_rate: Dist::default(),
            user_rate: Dist::default(),
            tpot_ms: Dist::default(),
            ttft_ms: Dist::default(),
            itl_ms: Dist::default(),
            e2e_ms: Dist::default(),
            request_throughput: None,
            concurrency_achieved: None,
            gap: None,
            steady_state: None,
            excluded: Vec::new(),
            turns: Turns::default(),
        }
    }

    /// A figure by its metric (used by the audit, the UI's table, the comparison and the CLI).
    pub fn get(&self, metric: Metric) -> Option<f64> {
        let count = |c: Option<u64>| c.map(|v| v as f64);
        match metric {
            Metric::DurationS => self.duration_s,
            Metric::SystemTps => self.system_tps,
            Metric::PerStreamTps => self.per_stream_tps,
            Metric::RequestsOk => count(self.requests_ok),
            Metric::RequestsFailed => count(self.requests_failed),
            Metric::OutputTokens => count(self.output_tokens),
            Metric::RequestThroughput => self.request_throughput,
            Metric::ConcurrencyAchieved => self.concurrency_achieved,
            Metric::Latency(d, k) => *self.dist(d).stat(k),
        }
    }

    fn set(&mut self, metric: Metric, v: f64) {
        let count = (v >= 0.0 && v.fract() == 0.0).then_some(v as u64);
        match metric {
            Metric::DurationS => self.duration_s = Some(v),
            Metric::SystemTps => self.system_tps = Some(v),
            Metric::PerStreamTps => self.per_stream_tps = Some(v),
            Metric::RequestsOk => self.requests_ok = count,
            Metric::RequestsFailed => self.requests_failed = count,
            Metric::OutputTokens => self.output_tokens = count,
            Metric::RequestThroughput => self.request_throughput = Some(v),
            Metric::ConcurrencyAchieved => self.concurrency_achieved = Some(v),
            Metric::Latency(d, k) => *self.dist_mut(d).stat_mut(k) = Some(v),
        }
    }

    /// A latency distribution, in milliseconds.
    pub fn dist(&self, d: Latency) -> &Dist {
        match d {
            Latency::Tpot => &self.tpot_ms,
            Latency::Ttft => &self.ttft_ms,
            Latency::Itl => &self.itl_ms,
            Latency::E2e => &self.e2e_ms,
        }
    }

    fn dist_mut(&mut self, d: Latency) -> &mut Dist {
        match d {
            Latency::Tpot => &mut self.tpot_ms,
            Latency::Ttft => &mut self.ttft_ms,
            Latency::Itl => &mut self.itl_ms,
            Latency::E2e => &mut self.e2e_ms,
        }
    }
}

/// Computes a point's figures: recomputed from raw data where the point has it, else taken from
/// the tool's reported figures (mapped to tpsview's names by the format's table) with only what
/// the definitions allow derived. Diagnostics say what was skipped or substituted.
pub fn compute_point(point: &Point, opts: &MetricOptions) -> (PointMetrics, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let m = match &point.requests {
        Some(req) => recompute(point, req, opts, &mut diags),
        None => from_reported(point, &mut diags),
    };
    (m, diags)
}

fn from_reported(point: &Point, diags: &mut Vec<Diagnostic>) -> PointMetrics {
    let mut m = PointMetrics::empty(Basis::Reported, point);
    let same = crate::tools::reported_map(&point.reported.tool)
        .filter(|f| f.def == crate::vocabulary::Def::Same);
    for fig in same {
        if let Some(&v) = point.reported.figures.get(fig.tool_key) {
            if v.is_finite() && m.get(fig.canonical).is_none() {
                m.set(fig.canonical, v * fig.scale);
            }
        }
    }
    // No request completed: a latency is a statistic of completed requests, so the tool's zeros
    // (vLLM writes 0.0 for every mean and percentile) are not measurements. Undefined, and said.
    // As with raw data, the throughputs are undefined too (nothing was served at a rate).
    if m.requests_ok == Some(0) {
        let had = Latency::ALL.iter().any(|&d| m.dist(d).mean.is_some())
            || m.system_tps.is_some()
            || m.request_throughput.is_some();
        for d in Latency::ALL {
            *m.dist_mut(d) = Dist::default();
        }
        m.system_tps = None;
        m.per_stream_tps = None;
        m.request_throughput = None;
        if had {
            diags.push(Diagnostic::warning(
                &point.source_file,
                "completed",
                None,
                "no request completed: T/s, TPOT, TTFT, ITL and E2E are undefined (the tool's \
                 zeros are not measurements)",
            ));
        }
    }
    // The definitions allow per-stream T/s from a reported mean TPOT (or, for a static batch whose
    // streams all advance together, the median step), nothing more.
    if m.per_stream_tps.is_none() {
        if let Some(t) = m.tpot_ms.mean.or(m.tpot_ms.p50).filter(|t| *t > 0.0) {
            m.per_stream_tps = Some(1000.0 / t);
        }
    }
    m.duration_as_reported = m.duration_s.is_some();
    diags.push(Diagnostic::info(
        &point.source_file,
        "requests",
        "no per-request data: figures are shown as reported by the tool",
    ));
    m
}

fn recompute(
    point: &Point,
    req: &Requests,
    opts: &MetricOptions,
    diags: &mut Vec<Diagnostic>,
) -> PointMetrics {
    let mut m = PointMetrics::empty(Basis::Recomputed, point);
    let n = req.len();
    // Requests averaged in; their chunk gaps are pooled after the loop.
    let mut usable: Vec<usize> = Vec::with_capacity(n);
    // Their per-request series, unless the distributions came computed (`fold_requests`).
    let mut series = req.dists.is_none().then(|| Series::with_capacity(n));
    let (mut ok, mut failed, mut invalid) = (0u64, 0u64, 0u64);
    let (mut tokens, mut sum_e2e, mut sum_decode) = (0u64, 0.0f64, 0.0f64);
    for i in 0..n {
        match &req.outcome[i] {
            Outcome::Failed(e) => {
                failed += 1;
                m.excluded.push(Excluded {
                    index: i,
                    reason: e.to_string(),
                    failed: true,
                });
                continue;
            }
            Outcome::Invalid(field) => {
                invalid += 1;
                m.excluded.push(Excluded {
                    index: i,
                    reason: format!("unusable `{field}`"),
                    failed: false,
                });
                continue;
            }
            Outcome::Ok => {}
        }
        let Some(r) = request_metrics(req, i) else {
            invalid += 1;
            m.excluded.push(Excluded {
                index: i,
                reason: "no output tokens".into(),
                failed: false,
            });
            continue;
        };
        ok += 1;
        tokens += u64::from(req.output_tokens[i]);
        sum_e2e += r.e2e;
        sum_decode += r.e2e - r.ttft;
        if let Some(s) = &mut series {
            s.push(&r);
        }
        usable.push(i);
    }
    m.requests_ok = Some(ok);
    m.requests_failed = Some(failed);
    m.requests_invalid = invalid;
    m.output_tokens = Some(tokens);
    if ok == 0 && n > 0 {
        diags.push(Diagnostic::warning(
            &point.source_file,
            "requests",
            None,
            "no request completed: nothing to average",
        ));
    } else if n == 0 {
        diags.push(Diagnostic::warning(
            &point.source_file,
            "requests",
            None,
            "the point holds no requests",
        ));
    }

    // Computed where the file was parsed (`fold_requests`), or from this loop's series.
    let d = req
        .dists
        .as_deref()
        .copied()
        .or_else(|| series.map(Series::dists))
        .unwrap_or_default();
    m.per_stream_tps = d.tpot.mean.filter(|t| *t > 0.0).map(|t| 1.0 / t);
    m.tpot_ms = d.tpot.scaled(1e3);
    m.ttft_ms = d.ttft.scaled(1e3);
    m.e2e_ms = d.e2e.scaled(1e3);
    // When every request is usable, the pooled gaps are the report's own array: no copy.
    m.itl_ms = match &req.chunk_gaps {
        // Folded by `fold_gaps` over these same usable requests.
        Some(Ragged {
            pooled: Some(d), ..
        }) => *d,
        Some(g) if usable.len() == n => crate::stats::dist_in_place(&g.values),
        Some(g) => {
            let mut itl = Vec::new();
            for &i in &usable {
                itl.extend_from_slice(g.row(i));
            }
            crate::stats::dist_in_place(&itl)
        }
        None => Dist::default(),
    }
    .scaled(1e3);
    m.per_stream_rate = d.per_stream_rate;
    m.user_rate = d.user_rate;
    if req.chunk_gaps.is_none() && ok > 0 {
        diags.push(Diagnostic::info(
            &point.source_file,
            "itls",
            "no chunk timings in the file: ITL is not defined",
        ));
    }

    m.duration_s = duration(req);
    if m.duration_s.is_none() {
        if let Some(d) = tool_figure(point, Metric::DurationS) {
            m.duration_s = Some(d);
            m.duration_as_reported = true;
            diags.push(Diagnostic::info(
                &point.source_file,
                "start_times",
                "no send times in the file: duration (and so system T/s) is the tool's reported duration",
            ));
        }
    }
    match m.duration_s {
        Some(d) if d > 0.0 && d.is_finite() => {
            m.system_tps = Some(tokens as f64 / d);
            m.request_throughput = Some(ok as f64 / d);
            m.concurrency_achieved = Some(sum_e2e / d);
        }
        Some(d) => {
            diags.push(Diagnostic::warning(
                &point.source_file,
                "duration",
                None,
                format!("duration is {d} s: system T/s is not defined"),
            ));
            m.duration_s = None;
        }
        None if ok > 0 => match tool_figure(point, Metric::SystemTps) {
            Some(s) => {
                m.system_tps = Some(s);
                m.request_throughput = tool_figure(point, Metric::RequestThroughput);
                m.duration_as_reported = true;
                diags.push(Diagnostic::info(
                    &point.source_file,
                    "start_times",
                    "no send times and no duration in the files: system T/s is the tool's own",
                ));
            }
            None => diags.push(Diagnostic::warning(
                &point.source_file,
                "start_times",
                None,
                "no send times and no reported duration: system T/s is not defined",
            )),
        },
        None => {}
    }

    if let Some(total) = point.sampled_from.filter(|t| *t > n as u64) {
        take_counts_from_tool(point, &mut m);
        diags.push(Diagnostic::info(
            &point.source_file,
            "requests",
            format!(
                "the file keeps {n} of {total} requests: latencies are from the sample; counts, duration and system T/s are the tool's"
            ),
        ));
    }

    // Per-second figures over a sample of the requests would be the sample's, not the level's.
    let whole = point.sampled_from.is_none_or(|t| t <= n as u64);
    m.turns = turns::turns(
        req,
        &usable,
        m.duration_s.filter(|_| whole),
        m.per_stream_tps,
        &d.e2e_per_token,
    );
    if let (Some(r), Some(o)) = (m.turns.reasoning_tokens.filter(|r| *r > 0), m.output_tokens) {
        let visible = m.turns.visible_system_tps.map_or(String::new(), |v| {
            format!("; visible T/s {}", crate::text::thousands(v, 1))
        });
        diags.push(Diagnostic::info(
            &point.source_file,
            "reasoning_tokens",
            format!(
                "{r} of {o} output tokens ({:.0} %) are reasoning, never shown: output tokens and \
                 system T/s count them{visible}",
                100.0 * r as f64 / o.max(1) as f64
            ),
        ));
    }

    m.gap = gap_analysis(&m, tokens, sum_e2e, sum_decode);
    if opts.steady_state {
        m.steady_state = steady_state(req, point.concurrency);
        if m.steady_state.is_none() {
            diags.push(Diagnostic::info(
                &point.source_file,
                "start_times",
                "no steady-state window: the target concurrency was never held, or send times are missing",
            ));
        }
    }
    m
}

/// The tool's own figure for tpsview metric `metric`, where the tool defines it the same way.
fn tool_figure(point: &Point, metric: Metric) -> Option<f64> {
    crate::tools::reported_value(&point.reported.tool, &point.reported.figures, metric)
        .map(|(_, v)| v)
}

/// For a point whose requests are a sample: every count and rate that needs all requests is the
/// tool's own (defined the same way), or none.
fn take_counts_from_tool(point: &Point, m: &mut PointMetrics) {
    let tool = |metric: Metric| tool_figure(point, metric);
    let count = |v: Option<f64>| v.filter(|x| *x >= 0.0).map(|x| x.round() as u64);
    m.requests_ok = count(tool(Metric::RequestsOk));
    m.requests_failed = count(tool(Metric::RequestsFailed));
    m.output_tokens = count(tool(Metric::OutputTokens));
    m.duration_s = tool(Metric::DurationS);
    m.system_tps = tool(Metric::SystemTps);
    m.request_throughput = tool(Metric::RequestThroughput);
    m.concurrency_achieved = tool(Metric::ConcurrencyAchieved);
    m.duration_as_reported = true;
}

/// Last token's arrival of any ok request − first send of any request.
fn duration(req: &Requests) -> Option<f64> {
    window(req).map(|(first, last)| last - first)
}

/// The level's window on the file's clock ([`Requests::window`]): the duration and the server
/// audit's window are both this one.
pub fn window(req: &Requests) -> Option<(f64, f64)> {
    req.window()
}

fn gap_analysis(
    m: &PointMetrics,
    tokens: u64,
    sum_e2e: f64,
    sum_decode: f64,
) -> Option<GapAnalysis> {
    let target = m.concurrency.filter(|c| *c > 0.0 && c.is_finite())?;
    let (system, per_stream, achieved) =
        (m.system_tps?, m.per_stream_tps?, m.concurrency_achieved?);
    if sum_e2e <= 0.0 || sum_decode <= 0.0 || system <= 0.0 {
        return None;
    }
    let ideal = target * per_stream;
    let raw = [
        (GapCause::ConcurrencyShortfall, achieved / target),
        (GapCause::DecodeShare, sum_decode / sum_e2e),
        (
            GapCause::FirstTokenAndRateMix,
            (tokens as f64 / sum_decode) / per_stream,
        ),
    ];
    let total_log = (system / ideal).ln();
    let factors = raw
        .iter()
        .map(|&(cause, factor)| GapFactor {
            cause,
            factor,
            share_of_gap: (total_log.abs() > 0.01).then(|| factor.ln() / total_log),
        })
        .collect();
    Some(GapAnalysis {
        target_concurrency: target,
        ideal_tps: ideal,
        system_tps: system,
        factors,
    })
}

/// The window from the first moment `target` requests are in flight to the last moment they are,
/// and the tokens emitted inside it.
pub fn steady_state(req: &Requests, target: Option<f64>) -> Option<SteadyState> {
    let start = req.start_s.as_ref()?;
    let target = target.filter(|t| *t >= 1.0 && t.is_finite())?.round() as i64;
    let mut events: Vec<(f64, i64)> = Vec::with_capacity(req.len() * 2);
    for (i, &s) in start.iter().enumerate() {
        if request_metrics(req, i).is_some() {
            events.push((s, 1));
            events.push((s + req.e2e_s[i], -1));
        }
    }
    // Ends before starts at the same instant, so back-to-back requests do not inflate the count.
    events.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (mut count, mut win_start, mut win_end) = (0i64, None, None);
    for &(t, d) in &events {
        let before = count;
        count += d;
        if count >= target && before < target && win_start.is_none() {
            win_start = Some(t);
        }
        if before >= target && count < target {
            win_end = Some(t);
        }
    }
    let (a, b) = (win_start?, win_end?);
    if b <= a {
        return None;
    }
    let mut tokens = 0.0;
    for (i, &s) in start.iter().enumerate() {
        if request_metrics(req, i).is_none() {
            continue;
        }
        let n = f64::from(req.output_tokens[i]);
        let t1 = s + req.ttft_s[i];
        let t2 = s + req.e2e_s[i];
        if t1 >= a && t1 <= b {
            tokens += 1.0;
        }
        if n > 1.0 && t2 > t1 {
            let overlap = (t2.min(b) - t1.max(a)).max(0.0);
            tokens += (n - 1.0) * overlap / (t2 - t1);
        }
    }
    Some(SteadyState {
        start_s: a,
        end_s: b,
        output_tokens: tokens,
        system_tps: tokens / (b - a),
    })
}

mod fold;
pub mod turns;
use fold::Series;
pub use fold::{fold_gaps, fold_requests, request_dists, FOLD_GAPS_ABOVE};
use turns::Turns;
