//! "Read a claim": which aggregation a tokens-per-second figure can be, given the model, the GPU and
//! the precision, by comparing it with the single-stream bound (bandwidth / weight bytes) and the
//! compute ceiling (peak FLOP/s / 2 × parameters). The arithmetic is returned with the verdict.

use crate::roofline::DecodeInputs;

/// What a claimed figure can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// At or under the single-stream bound: one stream's decode rate (or system T/s at batch ~1).
    PerStream,
    /// Over the single-stream bound but under the compute ceiling: all streams together.
    System,
    /// Over even the compute ceiling: more than decode output tokens on this hardware (prompt tokens
    /// counted, more GPUs, speculative decoding, or a smaller model or precision than stated).
    Impossible,
}

/// The reading of a claim, with the numbers behind it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Reading {
    /// The verdict.
    pub verdict: Verdict,
    /// Bandwidth / weight bytes: the best one stream can do.
    pub single_stream_bound: f64,
    /// Peak FLOP/s / (2 × parameters): the most output tokens all streams together can get.
    pub compute_ceiling: f64,
    /// claim / single-stream bound: at least this many streams if it is system T/s.
    pub min_streams: f64,
    /// The arithmetic, one line per step.
    pub steps: Vec<String>,
}

use crate::roofline::{ABOVE_IDEAL, AT_BOUND as SLACK};

/// Reads `claim_tps` against the model and hardware in `d` (KV reads ignored: the bound at batch 1
/// with short context, the most favourable case for the claim).
pub fn read_claim(claim_tps: f64, d: &DecodeInputs) -> Option<Reading> {
    if !(claim_tps > 0.0 && claim_tps.is_finite())
        || d.params <= 0.0
        || d.hbm_bytes_per_s <= 0.0
        || d.peak_flops <= 0.0
    {
        return None;
    }
    let w = d.weight_bytes();
    let single = d.hbm_bytes_per_s / w;
    let ceiling = d.peak_flops / (2.0 * d.params);
    let verdict = if claim_tps <= single * SLACK {
        Verdict::PerStream
    } else if claim_tps <= ceiling * SLACK {
        Verdict::System
    } else {
        Verdict::Impossible
    };
    let g = |x: f64| format!("{:.3e}", x);
    let steps = vec![
        format!("weights: {} parameters × {} bytes = {:.1} GB read from HBM every decode step", g(d.params), d.bytes_per_param, w / 1e9),
        format!("single-stream bound: {:.2} TB/s ÷ {:.1} GB = {:.1} tokens/s (one token per step per stream)", d.hbm_bytes_per_s / 1e12, w / 1e9, single),
        format!("compute ceiling: {:.0} TFLOP/s ÷ (2 × {}) FLOPs per token = {:.0} tokens/s for all streams together", d.peak_flops / 1e12, g(d.params), ceiling),
        format!("claim ÷ single-stream bound = {:.0} ÷ {:.1} = {:.1}", claim_tps, single, claim_tps / single),
    ];
    Some(Reading {
        verdict,
        single_stream_bound: single,
        compute_ceiling: ceiling,
        min_streams: claim_tps / single,
        steps,
    })
}

impl Reading {
    /// The verdict in words, with the numbers (the claim reader shows this).
    pub fn words(&self, claim_tps: f64) -> String {
        let b = self.single_stream_bound;
        match self.verdict {
            Verdict::PerStream if claim_tps > b => format!(
                "This can be per-stream T/s: it is {:.0} % above the ideal single-stream bound of \
                 {b:.1} T/s — close enough, because {ABOVE_IDEAL}. Several times the bound would \
                 be system T/s.",
                (claim_tps / b - 1.0) * 100.0
            ),
            Verdict::PerStream => format!(
                "This can be per-stream T/s: it is at or under the ideal single-stream bound of \
                 {b:.1} T/s (HBM bandwidth ÷ weight bytes). It could also be system T/s of a \
                 nearly idle server."
            ),
            Verdict::System => format!(
                "This must be system T/s: it is {:.1} × the ideal single-stream bound of {b:.1} \
                 T/s, far beyond what one stream gets (at most a few percent over the bound), so \
                 at least {:.0} streams decode together.",
                self.min_streams,
                self.min_streams.ceil()
            ),
            Verdict::Impossible => format!(
                "This exceeds even the compute ceiling of {:.0} output T/s for this model and \
                 hardware: it likely counts prompt tokens too, uses more GPUs, speculative \
                 decoding, or a smaller model or precision than stated.",
                self.compute_ceiling
            ),
        }
    }
}

/// A claim of tokens/s *per user* ("114 tok/s/user at p90", the agentic benchmarks' axis) in
/// words: what it can mean against the single-stream bound of `r`, and which tail its p90 is on
/// (docs/metrics.md: output tokens ÷ the whole request's time, the slow tail the rate 90 % of
/// requests reach; p90 of OSL ÷ E2E taken as it is is the fast tail, the fastest 10 %).
pub fn per_user_words(claim_tps: f64, r: &Reading) -> String {
    let b = r.single_stream_bound;
    let tail = "Ask which p90 it is: on the slow tail (p90 of E2E ÷ output tokens, inverted) 90 % \
                of users get at least this; p90 of output tokens ÷ E2E taken as it is describes the \
                fastest 10 % instead, and reads higher.";
    if claim_tps > b * SLACK {
        format!(
            "Not one user's rate on this hardware: {:.1} × the ideal single-stream bound of \
             {b:.1} T/s, and a whole request's rate (its wait for the first token included) is \
             below its decode rate, which is below that bound. Likely a fast-tail p90, \
             speculative decoding, more GPUs, or a smaller model or precision than stated. {tail}",
            claim_tps / b
        )
    } else {
        format!(
            "Can be tokens/s per user: {:.0} % of the ideal single-stream bound of {b:.1} T/s. \
             Per user, output tokens ÷ the whole request's time: it counts the wait for the first \
             token, so each user's decode rate (per-stream T/s, 1 / TPOT) is higher still. {tail}",
            claim_tps / b * 100.0
        )
    }
}

#[cfg(test)]
mod tests;
