//! How a tool's figure relates to a metric ([`Figure`], [`Def`], [`ToolDef`]) and a tool's whole
//! table ([`Vocabulary`]): the types; each tool's table is in `tools`.

use super::{Latency, Metric, Stat};

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
    /// Tokens/s per user at the p-th percentile on the slow tail (AIPerf's
    /// `e2e_normalized_interactivity_pN`, InferenceX's `e2e_norm_intvty`): 1 / pN(E2E / N) over
    /// the requests whose E2E, N, TTFT and prompt tokens (where known) are all positive,
    /// numpy-linear — the rate N % of requests reach.
    E2eNormalized(u8),
    /// The p-th percentile (numpy-linear) of each request's N / E2E (AIPerf's
    /// `e2e_output_token_throughput`): above p50 the *fast* tail, the rate only the fastest
    /// (100 − p) % of requests reach.
    UserRatePercentile(u8),
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
            ToolDef::E2eNormalized(_) => {
                "tokens/s per user on the slow tail: 1 / pN(E2E / N) (the rate N % of requests reach; first-token wait included)"
            }
            ToolDef::UserRatePercentile(_) => {
                "pN of each request's N / E2E: above p50 the fast tail (the rate only the fastest requests reach), not the slow-tail tokens/s per user"
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
