//! The product's words as types: the metrics tpsview computes ([`Metric`], built from the latency
//! [`Latency`] distributions and their [`Stat`]s), and the direction in which each is better.
//! This is the bottom layer of the core: it imports nothing from the crate, and everything that
//! names a metric names it through these types. Strings (JSON keys, table headers, glossary
//! anchors) are produced here, from the type, and read back only at the edges ([`Metric::parse`]).
//! Also here: how a tool's figure relates to a metric ([`Figure`], [`Def`], [`ToolDef`]) and a
//! tool's whole table ([`Vocabulary`]) — the types; each format's module holds its own table.

use serde::{Serialize, Serializer};

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

mod figure;
mod run_id;
pub use figure::{latency_figures, Def, Figure, Series, ToolDef, Vocabulary};
pub use run_id::RunId;

#[cfg(test)]
mod tests;
