//! The product's words as types: the metrics tpsview computes ([`Metric`], built from the latency
//! [`Latency`] distributions and their [`Stat`]s), and the direction in which each is better.
//! This is the bottom layer of the core: it imports nothing from the crate, and everything that
//! names a metric names it through these types. Strings (JSON keys, table headers, glossary
//! anchors) are produced here, from the type, and read back only at the edges ([`Metric::parse`]).
//! Also here: how a tool's figure relates to a metric ([`Figure`], [`Def`], [`ToolDef`]) and a
//! tool's whole table ([`Vocabulary`]) — the types; each format's module holds its own table.

use serde::{Deserialize, Serialize, Serializer};

/// One of a distribution's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub enum Stat {
    /// Arithmetic mean.
    #[default]
    Mean,
    /// Median.
    P50,
    /// 90th percentile.
    P90,
    /// 99th percentile.
    P99,
}

impl Stat {
    /// Every statistic, in display order.
    pub const ALL: [Stat; 4] = [Stat::Mean, Stat::P50, Stat::P90, Stat::P99];

    /// `mean`, `p50`, `p90` or `p99`.
    pub const fn name(self) -> &'static str {
        match self {
            Stat::Mean => "mean",
            Stat::P50 => "p50",
            Stat::P90 => "p90",
            Stat::P99 => "p99",
        }
    }

    /// `mean`, `p50`, `p90` or `p99`.
    pub fn parse(s: &str) -> Option<Stat> {
        Stat::ALL.into_iter().find(|k| k.name() == s)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// The per-request latency distributions (docs/metrics.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Latency {
    /// Time per output token after the first: (E2E − TTFT) / (tokens − 1).
    Tpot,
    /// Time to first token.
    Ttft,
    /// Gaps between streamed chunks, pooled over requests.
    Itl,
    /// End-to-end latency.
    E2e,
}

impl Latency {
    /// Every distribution, in the order of the `--json` contract.
    pub const ALL: [Latency; 4] = [Latency::Tpot, Latency::Ttft, Latency::Itl, Latency::E2e];

    /// `tpot`, `ttft`, `itl` or `e2e`: the prefix of its metrics' keys, and its glossary term.
    pub const fn name(self) -> &'static str {
        match self {
            Latency::Tpot => "tpot",
            Latency::Ttft => "ttft",
            Latency::Itl => "itl",
            Latency::E2e => "e2e",
        }
    }

    /// `TPOT`, `TTFT`, `ITL` or `E2E`.
    pub const fn label(self) -> &'static str {
        match self {
            Latency::Tpot => "TPOT",
            Latency::Ttft => "TTFT",
            Latency::Itl => "ITL",
            Latency::E2e => "E2E",
        }
    }

    /// The `_ms` key of each statistic, e.g. `tpot_p99_ms`.
    const fn keys(self) -> &'static [&'static str; 4] {
        match self {
            Latency::Tpot => &["tpot_mean_ms", "tpot_p50_ms", "tpot_p90_ms", "tpot_p99_ms"],
            Latency::Ttft => &["ttft_mean_ms", "ttft_p50_ms", "ttft_p90_ms", "ttft_p99_ms"],
            Latency::Itl => &["itl_mean_ms", "itl_p50_ms", "itl_p90_ms", "itl_p99_ms"],
            Latency::E2e => &["e2e_mean_ms", "e2e_p50_ms", "e2e_p90_ms", "e2e_p99_ms"],
        }
    }
}

/// Which way a metric is better, for comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// More is better (throughput).
    Higher,
    /// Less is better (latency).
    Lower,
    /// Neither: a count or a duration that describes the run.
    Neither,
}

/// Whose figure a metric is: the whole server's, or one request's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Describes the level as a whole (a count, a duration).
    Run,
    /// Counts the whole server's output: divided by the GPU count when normalising per GPU.
    System,
    /// One request's experience.
    PerStream,
}

impl Scope {
    /// `run`, `system` or `per-stream` (also a CSS-friendly word).
    pub const fn name(self) -> &'static str {
        match self {
            Scope::Run => "run",
            Scope::System => "system",
            Scope::PerStream => "per-stream",
        }
    }
}

/// A figure tpsview computes for a level (one point), by the flat name of docs/metrics.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// Duration of the level, seconds.
    DurationS,
    /// System T/s: all output tokens / duration.
    SystemTps,
    /// Per-stream T/s: 1 / mean TPOT.
    PerStreamTps,
    /// Requests completed with usable data.
    RequestsOk,
    /// Requests that failed.
    RequestsFailed,
    /// Output tokens of the usable requests.
    OutputTokens,
    /// Completed requests per second.
    RequestThroughput,
    /// Σ E2E / duration (Little's law).
    ConcurrencyAchieved,
    /// A statistic of a latency distribution, in milliseconds.
    Latency(Latency, Stat),
}

impl Metric {
    /// Every metric, in the order of the `--json` contract and the CSV columns.
    pub const ALL: [Metric; 24] = {
        let head = [
            Metric::DurationS,
            Metric::SystemTps,
            Metric::PerStreamTps,
            Metric::RequestsOk,
            Metric::RequestsFailed,
            Metric::OutputTokens,
            Metric::RequestThroughput,
            Metric::ConcurrencyAchieved,
        ];
        let mut all = [Metric::DurationS; 24];
        let mut i = 0;
        while i < head.len() {
            all[i] = head[i];
            i += 1;
        }
        let mut d = 0;
        while d < 4 {
            let mut k = 0;
            while k < 4 {
                all[8 + d * 4 + k] = Metric::Latency(Latency::ALL[d], Stat::ALL[k]);
                k += 1;
            }
            d += 1;
        }
        all
    };

    /// The flat name: `system_tps`, `tpot_p99_ms`, … (JSON keys, CSV columns, `data-metric`).
    pub const fn key(self) -> &'static str {
        match self {
            Metric::DurationS => "duration_s",
            Metric::SystemTps => "system_tps",
            Metric::PerStreamTps => "per_stream_tps",
            Metric::RequestsOk => "requests_ok",
            Metric::RequestsFailed => "requests_failed",
            Metric::OutputTokens => "output_tokens",
            Metric::RequestThroughput => "request_throughput",
            Metric::ConcurrencyAchieved => "concurrency_achieved",
            Metric::Latency(d, k) => d.keys()[k.index()],
        }
    }

    /// The metric of a flat name; `None` for any other string.
    pub fn parse(key: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.key() == key)
    }

    /// Short words for a header: `system`, `TPOT p99`, …
    pub fn label(self) -> String {
        match self {
            Metric::Latency(d, k) => format!("{} {}", d.label(), k.name()),
            other => other.plain_label().to_owned(),
        }
    }

    const fn plain_label(self) -> &'static str {
        match self {
            Metric::DurationS => "duration",
            Metric::SystemTps => "system",
            Metric::PerStreamTps => "per-stream",
            Metric::RequestsOk => "ok",
            Metric::RequestsFailed => "failed",
            Metric::OutputTokens => "output tokens",
            Metric::RequestThroughput => "request throughput",
            Metric::ConcurrencyAchieved => "achieved conc.",
            Metric::Latency(..) => "latency",
        }
    }

    /// The unit its values are in.
    pub const fn unit(self) -> &'static str {
        match self {
            Metric::DurationS => "s",
            Metric::SystemTps | Metric::PerStreamTps => "T/s",
            Metric::RequestsOk | Metric::RequestsFailed => "requests",
            Metric::OutputTokens => "tokens",
            Metric::RequestThroughput => "req/s",
            Metric::ConcurrencyAchieved => "streams",
            Metric::Latency(..) => "ms",
        }
    }

    /// The glossary term that defines it (`#glossary-<term>` in the viewer, docs/metrics.md).
    pub const fn term(self) -> &'static str {
        match self {
            Metric::SystemTps | Metric::RequestThroughput => "system",
            Metric::PerStreamTps => "per-stream",
            Metric::DurationS
            | Metric::RequestsOk
            | Metric::RequestsFailed
            | Metric::OutputTokens
            | Metric::ConcurrencyAchieved => "concurrency",
            Metric::Latency(d, _) => d.name(),
        }
    }

    /// Its definition in one line (docs/metrics.md has the full one).
    pub const fn definition(self) -> &'static str {
        match self {
            Metric::DurationS => "first send → last token of the level",
            Metric::SystemTps => "Σ output tokens of all requests / duration (first send → last token)",
            Metric::PerStreamTps => "1 / mean TPOT: one request's decode rate",
            Metric::RequestsOk => "completed requests with usable data; failed ones are counted apart and never averaged in",
            Metric::RequestsFailed => "requests that failed: counted, never averaged in",
            Metric::OutputTokens => "Σ output tokens of the usable requests",
            Metric::RequestThroughput => "completed requests / duration",
            Metric::ConcurrencyAchieved => "Σ e2e / duration (Little's law)",
            Metric::Latency(Latency::Tpot, Stat::Mean) => "(e2e − ttft) / (output tokens − 1), mean over requests",
            Metric::Latency(Latency::Tpot, Stat::P99) => "99th percentile of per-request TPOT (numpy linear)",
            Metric::Latency(Latency::Tpot, _) => "a percentile of per-request TPOT (numpy linear)",
            Metric::Latency(Latency::Ttft, Stat::Mean) => "first token's arrival − send time, mean",
            Metric::Latency(Latency::Ttft, _) => "first token's arrival − send time",
            Metric::Latency(Latency::Itl, _) => "gaps between streamed chunks, pooled over all requests; a chunk may carry several tokens",
            Metric::Latency(Latency::E2e, Stat::Mean) => "last token's arrival − send time, mean",
            Metric::Latency(Latency::E2e, _) => "last token's arrival − send time",
        }
    }

    /// Whose figure it is.
    pub const fn scope(self) -> Scope {
        match self {
            Metric::SystemTps | Metric::RequestThroughput | Metric::ConcurrencyAchieved => {
                Scope::System
            }
            Metric::PerStreamTps | Metric::Latency(..) => Scope::PerStream,
            Metric::DurationS
            | Metric::RequestsOk
            | Metric::RequestsFailed
            | Metric::OutputTokens => Scope::Run,
        }
    }

    /// True for figures that count the whole server's output: divided by the GPU count when
    /// normalising per GPU.
    pub const fn is_system_wide(self) -> bool {
        matches!(self, Metric::SystemTps | Metric::RequestThroughput)
    }

    /// Which way it is better.
    pub const fn better(self) -> Better {
        match self {
            Metric::SystemTps | Metric::PerStreamTps | Metric::RequestThroughput => Better::Higher,
            Metric::Latency(..) => Better::Lower,
            Metric::DurationS
            | Metric::RequestsOk
            | Metric::RequestsFailed
            | Metric::OutputTokens
            | Metric::ConcurrencyAchieved => Better::Neither,
        }
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.key())
    }
}

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

/// A cause of the gap between N × per-stream T/s and the measured system T/s (docs/metrics.md,
/// "Why N × per-stream is not system T/s").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GapCause {
    /// Fewer streams in flight than the target, on average (ramp-up, tail, queueing).
    ConcurrencyShortfall,
    /// The share of each request's time spent decoding rather than waiting for its first token.
    DecodeShare,
    /// First tokens and the mix of request lengths.
    FirstTokenAndRateMix,
}

impl GapCause {
    /// Every cause, in the order of the `--json` contract.
    pub const ALL: [GapCause; 3] = [
        GapCause::ConcurrencyShortfall,
        GapCause::DecodeShare,
        GapCause::FirstTokenAndRateMix,
    ];

    /// The stable name of the `--json` contract: `concurrency_shortfall`, …
    pub const fn key(self) -> &'static str {
        match self {
            GapCause::ConcurrencyShortfall => "concurrency_shortfall",
            GapCause::DecodeShare => "decode_share",
            GapCause::FirstTokenAndRateMix => "first_token_and_rate_mix",
        }
    }

    /// What it means, in words for a reader.
    pub const fn words(self) -> &'static str {
        match self {
            GapCause::ConcurrencyShortfall => {
                "fewer streams in flight than the target (ramp-up, tail, queueing)"
            }
            GapCause::DecodeShare => {
                "time each request spends waiting for its first token (queue and prefill)"
            }
            GapCause::FirstTokenAndRateMix => "first tokens and the mix of request lengths",
        }
    }

    /// A few words for a table: `concurrency shortfall`, …
    pub const fn short(self) -> &'static str {
        match self {
            GapCause::ConcurrencyShortfall => "concurrency shortfall",
            GapCause::DecodeShare => "decode share",
            GapCause::FirstTokenAndRateMix => "first token and rate mix",
        }
    }
}

impl Serialize for GapCause {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

/// The charts tpsview draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ChartKind {
    /// System and per-stream T/s against concurrency.
    #[default]
    Throughput,
    /// TPOT and TTFT against concurrency: a statistic's line, the p50–p99 band.
    Latency,
    /// System T/s against per-stream T/s, one point per level, the Pareto frontier.
    Interactivity,
    /// One level's requests in send order.
    Timeline,
    /// The decode model's bound over a run's measurements.
    Roofline,
    /// Runs of one setup in date order: their headline figures, what moved beyond noise.
    Trend,
}

impl ChartKind {
    /// Every chart.
    pub const ALL: [ChartKind; 6] = [
        ChartKind::Throughput,
        ChartKind::Latency,
        ChartKind::Interactivity,
        ChartKind::Timeline,
        ChartKind::Roofline,
        ChartKind::Trend,
    ];

    /// The stable name: `throughput`, … (the canvas's `data-testid` is `chart-<id>`, the export's
    /// file name `tpsview-<id>.png`).
    pub const fn id(self) -> &'static str {
        match self {
            ChartKind::Throughput => "throughput",
            ChartKind::Latency => "latency",
            ChartKind::Interactivity => "interactivity",
            ChartKind::Timeline => "timeline",
            ChartKind::Roofline => "roofline",
            ChartKind::Trend => "trend",
        }
    }
}

impl Serialize for ChartKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl std::fmt::Display for ChartKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.id())
    }
}

/// A run's identity among the runs of one report: what hiding, removing, the baseline, GPU counts
/// and the permalink's view name a run by. It is the run's label when no other run has that label
/// (so views saved before ids existed still name the same runs), else the label with the model —
/// then the engine, then an ordinal — added until it is unique. The same files give the same ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunId(String);

impl RunId {
    /// An id read back from a saved view or typed by a user.
    pub fn new(s: impl Into<String>) -> RunId {
        RunId(s.into())
    }

    /// The id as text: also the run's name in legends, pickers and tables, where labels repeat.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The ids of runs given as (label, engine, model), in order: distinct, and each as short as
    /// it can be.
    pub fn assign<'a>(
        runs: impl IntoIterator<Item = (&'a str, Option<&'a str>, Option<&'a str>)>,
    ) -> Vec<RunId> {
        let runs: Vec<_> = runs.into_iter().collect();
        let count = |f: &dyn Fn(usize) -> String, i: usize| {
            let me = f(i);
            (0..runs.len()).filter(|&j| f(j) == me).count()
        };
        let label = |i: usize| runs[i].0.to_owned();
        let with_model = |i: usize| match runs[i].2 {
            Some(m) if !m.is_empty() => format!("{} · {m}", runs[i].0),
            _ => label(i),
        };
        let with_engine = |i: usize| match runs[i].1 {
            Some(e) if !e.is_empty() => format!("{} · {e}", with_model(i)),
            _ => with_model(i),
        };
        let mut ids: Vec<String> = (0..runs.len())
            .map(|i| {
                if count(&label, i) == 1 {
                    label(i)
                } else if count(&with_model, i) == 1 {
                    with_model(i)
                } else {
                    with_engine(i)
                }
            })
            .collect();
        // Whatever is still shared gets an ordinal: #2, #3, … after the first.
        for i in 0..ids.len() {
            let earlier = ids[..i].iter().filter(|x| **x == ids[i]).count();
            if earlier > 0 {
                let mut k = earlier + 1;
                while ids.contains(&format!("{} #{k}", ids[i])) {
                    k += 1;
                }
                ids[i] = format!("{} #{k}", ids[i]);
            }
        }
        ids.into_iter().map(RunId).collect()
    }
}

impl From<&str> for RunId {
    fn from(s: &str) -> RunId {
        RunId(s.to_owned())
    }
}

impl PartialEq<&str> for RunId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for RunId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.0)
    }
}

/// One of a tool's reported figures and the tpsview metric it corresponds to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The tool's key, e.g. `mean_tpot_ms` (nested keys joined with `.`).
    pub tool_key: &'static str,
    /// tpsview's metric nearest to it.
    pub canonical: Metric,
    /// Multiply the tool's value by this to get tpsview's unit.
    pub scale: f64,
    /// Why the two may differ, in a few words (shown with a discrepancy).
    pub likely_cause: &'static str,
    /// How the tool defines the figure.
    pub def: Def,
}

/// How a tool defines one of its figures, relative to tpsview's metric of the same meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Def {
    /// The same definition as tpsview's `canonical` metric: shown beside it, used for it when the
    /// file has no raw data, and audited against it.
    Same,
    /// A different definition: never shown as tpsview's metric; the audit recomputes it the tool's
    /// way from the raw data.
    Tool(ToolDef),
}

/// A tool's own definition of a figure, recomputable from per-request data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolDef {
    /// Mean over requests of (N − 1) / (E2E − TTFT), tokens/s: each request's decode rate,
    /// averaged (tpsview's per-stream T/s is 1 / mean TPOT instead).
    DecodeRateMean,
    /// Mean over requests of N / E2E, tokens/s: includes the wait for the first token.
    UserRateMean,
    /// Σ (E2E − TTFT) / Σ (N − 1), ms: a token-weighted mean TPOT.
    TokenWeightedTpot,
    /// Σ (E2E − TTFT) / Σ N, ms: decode time per output token, divided by N rather than N − 1.
    DecodePerToken,
    /// Σ E2E / Σ N, ms: whole-request time per output token, first-token wait included.
    E2ePerToken,
    /// (Σ input + Σ output tokens) / duration, tokens/s: prompt tokens counted as throughput.
    TotalTokenThroughput,
    /// All requests, failed ones included, / duration, requests/s.
    AllRequestsThroughput,
    /// Mean over requests of E2E / number of streamed chunks: first-token wait included.
    E2ePerChunk,
    /// Prompt tokens / prefill time: prefill throughput, not decode.
    PrefillRate,
    /// (Prompt + generated tokens) / time of a test that does both.
    MixedRate,
    /// The p-th percentile (0–100) of a per-request series taken as `sorted[int(n · p / 100)]`,
    /// without interpolation.
    NearestIndex(Series, u8),
    /// Σ output tokens / Σ E2E, tokens/s: tokens per second of request time (MLPerf's
    /// `result_token_throughput`), first-token wait included — not the token rate.
    TokensPerLatencySecond,
    /// Time to the first *visible* (content) token, ms: a reasoning model streams reasoning
    /// tokens first, which the first-token time counts and this one does not.
    FirstVisibleToken,
}

/// A per-request series, for [`ToolDef::NearestIndex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// Time to first token.
    Ttft,
    /// Time per output token.
    Tpot,
    /// End-to-end latency.
    E2e,
}

impl ToolDef {
    /// The definition in words, for the docs and the UI's definitions table.
    pub fn describe(self) -> &'static str {
        match self {
            ToolDef::DecodeRateMean => "mean over requests of (N − 1) / (E2E − TTFT)",
            ToolDef::UserRateMean => "mean over requests of N / E2E (first-token wait included)",
            ToolDef::TokenWeightedTpot => "token-weighted: Σ (E2E − TTFT) / Σ (N − 1)",
            ToolDef::DecodePerToken => {
                "token-weighted: Σ (E2E − TTFT) / Σ N (divides by N, not N − 1)"
            }
            ToolDef::E2ePerToken => "token-weighted: Σ E2E / Σ N (first-token wait included)",
            ToolDef::TotalTokenThroughput => "(prompt + output tokens) / duration",
            ToolDef::AllRequestsThroughput => "all requests, failed included, / duration",
            ToolDef::E2ePerChunk => {
                "mean over requests of E2E / chunks (first-token wait included)"
            }
            ToolDef::PrefillRate => "prompt tokens / prefill time (prefill, not decode)",
            ToolDef::MixedRate => "(prompt + generated tokens) / test time",
            ToolDef::NearestIndex(..) => "percentile as sorted[int(n · p)], no interpolation",
            ToolDef::TokensPerLatencySecond => {
                "Σ output tokens / Σ E2E (tokens per second of request time, not the token rate)"
            }
            ToolDef::FirstVisibleToken => {
                "time to the first visible (content) token: a reasoning model's first token is a reasoning token, which TTFT counts"
            }
        }
    }
}

impl Figure {
    /// A figure defined as tpsview defines `canonical`.
    pub const fn same(
        tool_key: &'static str,
        canonical: Metric,
        scale: f64,
        likely_cause: &'static str,
    ) -> Figure {
        Figure {
            tool_key,
            canonical,
            scale,
            likely_cause,
            def: Def::Same,
        }
    }

    /// A figure the tool defines its own way.
    pub const fn tool(
        tool_key: &'static str,
        canonical: Metric,
        scale: f64,
        likely_cause: &'static str,
        def: ToolDef,
    ) -> Figure {
        Figure {
            tool_key,
            canonical,
            scale,
            likely_cause,
            def: Def::Tool(def),
        }
    }
}

/// One tool's vocabulary: its display name, its figures, and what else differs (shown in the UI
/// beside a file from that tool, and in docs/formats.md).
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary {
    /// Reported-tool id (what [`crate::model::Reported::tool`] holds).
    pub tool: &'static str,
    /// The tool's name, e.g. `GenAI-Perf`.
    pub name: &'static str,
    /// Figure table, in groups (e.g. the tool's own figures, then one group per distribution).
    pub groups: &'static [&'static [Figure]],
    /// Definitional differences that are not one figure's: token counting, duration window,
    /// concurrency field, percentile method.
    pub notes: &'static [&'static str],
}

impl Vocabulary {
    /// Every figure, in table order.
    pub fn figures(&self) -> impl Iterator<Item = &'static Figure> {
        self.groups.iter().flat_map(|g| g.iter())
    }

    /// How the tool's figure `f` relates to tpsview's metric, in words.
    pub fn relation(f: &Figure) -> &'static str {
        match f.def {
            Def::Same => "same quantity as tpsview's",
            Def::Tool(d) => d.describe(),
        }
    }

    /// The vocabulary as Markdown: the mapping table and the notes (docs/formats.md holds this
    /// text, checked by a test).
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "### {} — figures of `{}`\n\n| {} figure | tpsview metric | definition | why they may differ |\n|---|---|---|---|\n",
            self.name, self.tool, self.name
        );
        for f in self.figures() {
            let unit = if f.scale == 1.0 {
                String::new()
            } else {
                format!(" (× {})", f.scale)
            };
            out.push_str(&format!(
                "| `{}`{unit} | `{}` | {} | {} |\n",
                f.tool_key,
                f.canonical,
                Vocabulary::relation(f),
                f.likely_cause
            ));
        }
        out.push('\n');
        for n in self.notes {
            out.push_str(&format!("- {n}\n"));
        }
        out
    }
}

/// A latency distribution's mean, p50, p90 and p99 under the tool's `keys` (in that order), each
/// defined as tpsview defines it; the tool's value × `scale` is milliseconds.
pub const fn latency_figures(
    keys: [&'static str; 4],
    d: Latency,
    scale: f64,
    likely_cause: &'static str,
) -> [Figure; 4] {
    [
        Figure::same(keys[0], Metric::Latency(d, Stat::Mean), scale, likely_cause),
        Figure::same(keys[1], Metric::Latency(d, Stat::P50), scale, likely_cause),
        Figure::same(keys[2], Metric::Latency(d, Stat::P90), scale, likely_cause),
        Figure::same(keys[3], Metric::Latency(d, Stat::P99), scale, likely_cause),
    ]
}

#[cfg(test)]
mod tests;
