//! The numbers of 2026 over a level's requests (docs/metrics.md, "Reasoning, tokens/s per user,
//! prefix caches and sessions"): the first *visible* token and the reasoning share of output, tokens
//! per second per user normalised by the whole request (its percentiles on the slow tail), the prefix
//! cache's share of the prompt, and the sessions the requests belong to. Each figure only where the
//! requests carry what it needs.

use serde::Serialize;

use crate::model::{facts::entry, Requests};
use crate::stats::Dist;

/// Tokens per second per user three ways, side by side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Interactivity {
    /// 1 / mean TPOT: one stream's decode rate, the wait for the first token left out.
    pub per_stream_tps: Option<f64>,
    /// Output tokens per second of each whole request (OSL ÷ E2E), its percentiles taken on the
    /// slow tail: pN = 1 / pN(E2E ÷ OSL), so p90 is the rate 90 % of requests beat.
    pub e2e_normalized: SlowTail,
    /// Σ OSL ÷ Σ E2E over the level's requests.
    pub aggregate: Option<f64>,
}

/// A per-request rate's percentiles on its slow tail.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct SlowTail {
    /// The median request's rate.
    pub p50: Option<f64>,
    /// The rate 90 % of requests reach or beat.
    pub p90: Option<f64>,
    /// The rate 99 % of requests reach or beat.
    pub p99: Option<f64>,
}

/// Prompt tokens per second, split by whether the server computed them or took them from its
/// prefix cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct InputTps {
    /// (Σ prompt − Σ cached) ÷ duration: prefill work.
    pub computed: Option<f64>,
    /// Σ cached ÷ duration: prompt tokens not computed.
    pub cached: Option<f64>,
}

/// A level's sessions (multi-turn conversations): requests that share a session id, in turns.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Sessions {
    /// How many sessions.
    pub count: u64,
    /// Requests (turns) per session, on average.
    pub turns_mean: f64,
    /// Sessions ÷ the level's duration.
    pub per_s: Option<f64>,
    /// Each session's first send → its last token, s (with send times).
    pub duration_s: Dist,
    /// TTFT of each session's first turn, ms (a cold prefix cache).
    pub ttft_first_turn_ms: Dist,
    /// TTFT of its later turns, ms (their prefix mostly cached, where the server caches).
    pub ttft_later_turns_ms: Dist,
    /// Each session's Σ cached ÷ Σ prompt tokens (where its requests carry both).
    pub cache_hit_rate: Dist,
}

/// The level's figures of 2026 (see the module's note); each `None` where undefined, and then
/// absent from `--json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Turns {
    /// Send → first visible token, ms, over the requests that saw one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttfvt_ms: Option<Dist>,
    /// Σ reasoning tokens of the requests that report them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// (Σ output − Σ reasoning) ÷ duration: where every request reports its reasoning tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible_system_tps: Option<f64>,
    /// Tokens per second per user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interactivity: Option<Interactivity>,
    /// Σ prompt tokens of the requests that report cached prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Σ their cached prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_prompt_tokens: Option<u64>,
    /// Σ cached ÷ Σ prompt tokens (token-weighted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_hit_rate: Option<f64>,
    /// Prompt tokens per second, computed and cached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tps: Option<InputTps>,
    /// The sessions, where requests of one session come in two turns or more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Box<Sessions>>,
}

/// The figures of the usable requests `usable` (in request order), over a level of `duration_s`;
/// `per_stream_tps` is the level's 1 / mean TPOT, `e2e_per_token` the distribution of E2E ÷ OSL.
pub fn turns(
    req: &Requests,
    usable: &[usize],
    duration_s: Option<f64>,
    per_stream_tps: Option<f64>,
    e2e_per_token: &Dist,
) -> Turns {
    let per_s = |x: f64| duration_s.filter(|d| *d > 0.0).map(|d| x / d);
    let mut t = Turns::default();
    // Tokens per second per user: defined wherever requests have a whole-request time.
    let (mut osl, mut e2e) = (0u64, 0.0f64);
    for &i in usable.iter().filter(|&&i| req.e2e_s[i] > 0.0) {
        osl += u64::from(req.output_tokens[i]);
        e2e += req.e2e_s[i];
    }
    if e2e > 0.0 {
        let inv = |x: Option<f64>| x.filter(|x| *x > 0.0).map(|x| 1.0 / x);
        t.interactivity = Some(Interactivity {
            per_stream_tps,
            e2e_normalized: SlowTail {
                p50: inv(e2e_per_token.p50),
                p90: inv(e2e_per_token.p90),
                p99: inv(e2e_per_token.p99),
            },
            aggregate: Some(osl as f64 / e2e),
        });
    }
    let Some(f) = req.facts.as_deref() else {
        return t;
    };
    // Reasoning and the first visible token.
    if f.ttfvt_s.is_some() {
        let mut v: Vec<f64> = usable
            .iter()
            .filter_map(|&i| entry(&f.ttfvt_s, i))
            .map(|s| s * 1e3)
            .collect();
        t.ttfvt_ms = (!v.is_empty()).then(|| Dist::of(&mut v));
    }
    if f.reasoning_tokens.is_some() {
        let known: Vec<f64> = usable
            .iter()
            .filter_map(|&i| entry(&f.reasoning_tokens, i))
            .collect();
        let sum: u64 = known.iter().map(|&r| r as u64).sum();
        t.reasoning_tokens = (!known.is_empty()).then_some(sum);
        if known.len() == usable.len() && !usable.is_empty() {
            let output: u64 = usable
                .iter()
                .map(|&i| u64::from(req.output_tokens[i]))
                .sum();
            t.visible_system_tps = per_s((output - sum) as f64);
        }
    }
    // The prefix cache, over the requests that say both their prompt and its cached part.
    let prompt = |i: usize| req.input_tokens.as_ref().map(|c| c[i]);
    let both = |i: usize| Some((prompt(i)?, entry(&f.cached_prompt_tokens, i)? as u32));
    let (mut input, mut cached, mut any) = (0u64, 0u64, false);
    for (p, c) in usable.iter().filter_map(|&i| both(i)) {
        input += u64::from(p);
        cached += u64::from(c);
        any = true;
    }
    if any {
        t.input_tokens = Some(input);
        t.cached_prompt_tokens = Some(cached);
        t.cache_hit_rate = (input > 0).then(|| cached as f64 / input as f64);
        t.input_tps = Some(InputTps {
            computed: per_s((input - cached) as f64),
            cached: per_s(cached as f64),
        });
    }
    t.sessions = sessions(req, usable, duration_s, &both).map(Box::new);
    t
}

/// The sessions of the usable requests that name a session and a turn; `None` unless one of
/// them has two turns or more (one id on several requests of one turn is a conversation sent
/// again, not a multi-turn session).
fn sessions(
    req: &Requests,
    usable: &[usize],
    duration_s: Option<f64>,
    both: &dyn Fn(usize) -> Option<(u32, u32)>,
) -> Option<Sessions> {
    let f = req.facts.as_deref()?;
    let ids = f.session.as_ref()?;
    let mut of: Vec<(&str, u32, usize)> = usable
        .iter()
        .filter_map(|&i| Some((ids[i].as_deref()?, entry(&f.turn, i)? as u32, i)))
        .collect();
    of.sort_unstable_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let groups: Vec<&[(&str, u32, usize)]> = of.chunk_by(|a, b| a.0 == b.0).collect();
    if !groups.iter().any(|g| g[0].1 != g[g.len() - 1].1) {
        return None;
    }
    let (mut durations, mut first, mut later, mut hit) = (vec![], vec![], vec![], vec![]);
    for g in &groups {
        let first_turn = g[0].1;
        for &(_, turn, i) in g.iter() {
            let ttft = req.ttft_s[i] * 1e3;
            if turn == first_turn {
                first.push(ttft);
            } else {
                later.push(ttft);
            }
        }
        if let Some(start) = &req.start_s {
            let from = g.iter().map(|r| start[r.2]).fold(f64::INFINITY, f64::min);
            let to = g
                .iter()
                .map(|r| start[r.2] + req.e2e_s[r.2])
                .fold(f64::NEG_INFINITY, f64::max);
            if to.is_finite() && from.is_finite() {
                durations.push(to - from);
            }
        }
        let (p, c) = g
            .iter()
            .filter_map(|r| both(r.2))
            .fold((0u64, 0u64), |(p, c), (a, b)| {
                (p + u64::from(a), c + u64::from(b))
            });
        if p > 0 {
            hit.push(c as f64 / p as f64);
        }
    }
    let count = groups.len() as u64;
    Some(Sessions {
        count,
        turns_mean: of.len() as f64 / count as f64,
        per_s: duration_s.filter(|d| *d > 0.0).map(|d| count as f64 / d),
        duration_s: Dist::of(&mut durations),
        ttft_first_turn_ms: Dist::of(&mut first),
        ttft_later_turns_ms: Dist::of(&mut later),
        cache_hit_rate: Dist::of(&mut hit),
    })
}
