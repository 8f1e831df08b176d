//! Speculative decoding, as the tools report it: a draft proposes several tokens and one step of
//! the target model verifies them all, so one read of the weights can yield several tokens. A
//! streamed chunk then carries about the acceptance length of tokens, and the two per-request
//! latencies part ways: ITL is per chunk, TPOT per token, ITL ≈ acceptance length × TPOT. It is
//! also why a speculative run's per-stream T/s can beat the single-stream bound (bandwidth ÷
//! weight bytes, one token per read).
//!
//! Read from vLLM's `spec_decode_*` figures and SGLang's `accept_length`, kept as the tool printed
//! them; the measured side (ITL ÷ TPOT) comes from the level's own recomputed figures.

use crate::summary::PointSummary;

/// What a level says of speculative decoding.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecDecode {
    /// Mean tokens per verification step (vLLM `spec_decode_acceptance_length` = 1 + accepted ÷
    /// drafts; SGLang `accept_length`).
    pub acceptance_length: Option<f64>,
    /// Accepted ÷ proposed draft tokens, percent (vLLM `spec_decode_acceptance_rate`).
    pub acceptance_rate_pct: Option<f64>,
    /// Verification steps with a draft (vLLM `spec_decode_num_drafts`).
    pub drafts: Option<f64>,
    /// Draft tokens proposed (vLLM `spec_decode_draft_tokens`).
    pub draft_tokens: Option<f64>,
    /// Draft tokens accepted (vLLM `spec_decode_accepted_tokens`).
    pub accepted_tokens: Option<f64>,
    /// Measured: mean ITL ÷ mean TPOT, the tokens an average chunk carries; `None` without both.
    pub itl_over_tpot: Option<f64>,
    /// The share of steps whose draft token at each position was accepted (vLLM
    /// `spec_decode_per_position_acceptance_rates`, fractions), first position first.
    pub per_position: Vec<f64>,
}

/// The level's speculative-decoding figures, when its tool reported any.
pub fn of(p: &PointSummary) -> Option<SpecDecode> {
    let f = |k: &str| p.reported.get(k).copied().filter(|x| x.is_finite());
    let s = SpecDecode {
        acceptance_length: f("spec_decode_acceptance_length").or_else(|| f("accept_length")),
        acceptance_rate_pct: f("spec_decode_acceptance_rate"),
        drafts: f("spec_decode_num_drafts"),
        draft_tokens: f("spec_decode_draft_tokens"),
        accepted_tokens: f("spec_decode_accepted_tokens"),
        itl_over_tpot: match (p.metrics.itl_ms.mean, p.metrics.tpot_ms.mean) {
            (Some(i), Some(t)) if t > 0.0 => Some(i / t),
            _ => None,
        },
        per_position: (0..)
            .map_while(|i| f(&format!("spec_decode_per_position_acceptance_rates.{i}")))
            .collect(),
    };
    (s.acceptance_length.is_some() || s.acceptance_rate_pct.is_some() || s.drafts.is_some())
        .then_some(s)
}

impl SpecDecode {
    /// One paragraph: what the tool reported, what the level's chunks show, and why it matters.
    pub fn describe(&self, tpot_ms: Option<f64>, itl_ms: Option<f64>) -> String {
        let mut out = String::from("Speculative decoding: ");
        match (self.acceptance_length, self.acceptance_rate_pct) {
            (Some(a), Some(r)) => out.push_str(&format!(
                "each verification step yields {a:.2} tokens on average ({r:.1} % of draft tokens accepted)"
            )),
            (Some(a), None) => out.push_str(&format!(
                "each verification step yields {a:.2} tokens on average"
            )),
            (None, Some(r)) => out.push_str(&format!("{r:.1} % of draft tokens accepted")),
            (None, None) => out.push_str("the server ran a draft model"),
        }
        if !self.per_position.is_empty() {
            let each: Vec<String> = self
                .per_position
                .iter()
                .map(|r| format!("{:.0} %", r * 100.0))
                .collect();
            out.push_str(&format!(
                "; draft positions accepted: {} (first to last)",
                each.join(", ")
            ));
        }
        out.push_str(". A chunk then carries several tokens, so ITL (per chunk) and TPOT (per token) differ by about that factor");
        if let (Some(k), Some(i), Some(t)) = (self.itl_over_tpot, itl_ms, tpot_ms) {
            out.push_str(&format!(": here ITL {i:.1} ms = {k:.2} × TPOT {t:.1} ms"));
        }
        out.push_str(". One read of the weights yields more than one token, which is how a speculative run's per-stream T/s can exceed the single-stream bound of bandwidth ÷ weight bytes.");
        out
    }
}
