//! The guided walkthrough ("Learn"): steps that explain a run with its own numbers — what a
//! decode step and TPOT are, batch 1, the shared weight read, why per-stream T/s falls, why both
//! figures are right, and how to read a claim. Each step names the chart to show and the level to
//! highlight. Works on any run with at least one level.

use crate::summary::{PointSummary, RunSummary};
use crate::vocabulary::ChartKind;

/// One step of the walkthrough.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Step {
    /// Stable name.
    pub slug: &'static str,
    /// Heading.
    pub title: String,
    /// Paragraphs, with this run's numbers in them.
    pub body: Vec<String>,
    /// The chart to show.
    pub chart: ChartKind,
    /// The concurrency to highlight on it.
    pub highlight: Option<f64>,
    /// The highlighted values, labelled (shown beside the chart and read by tests).
    pub values: Vec<(String, f64)>,
}

fn f0(v: f64) -> String {
    crate::text::thousands(v, 0)
}

/// Whether a level can be walked through: a concurrency and both aggregations.
fn walkable(p: &PointSummary) -> bool {
    p.metrics.concurrency.is_some()
        && p.metrics.per_stream_tps.is_some()
        && p.metrics.system_tps.is_some()
}

/// Whether [`walkthrough`] has steps for `run`, without writing them (the viewer asks this of
/// every run to offer the link; the steps themselves are the teaching module's).
pub fn available(run: &RunSummary) -> bool {
    run.points.iter().any(walkable)
}

/// The walkthrough for `run`; empty when it has no level with both aggregations.
pub fn walkthrough(run: &RunSummary) -> Vec<Step> {
    let levels: Vec<&PointSummary> = run.points.iter().filter(|p| walkable(p)).collect();
    let (Some(lo), Some(hi)) = (levels.first(), levels.last()) else {
        return Vec::new();
    };
    let mid = levels.get(levels.len() / 2).copied().unwrap_or(hi);
    let c = |p: &PointSummary| p.metrics.concurrency.unwrap_or(1.0);
    let ps = |p: &PointSummary| p.metrics.per_stream_tps.unwrap_or(0.0);
    let sys = |p: &PointSummary| p.metrics.system_tps.unwrap_or(0.0);
    let tpot = |p: &PointSummary| p.metrics.tpot_ms.mean.unwrap_or(0.0);
    let tpot99 = |p: &PointSummary| p.metrics.tpot_ms.p99.unwrap_or(0.0);
    // How many streams shared each read: the batch the server ran where its metrics say, else the
    // concurrency asked.
    let share = |p: &PointSummary| {
        match p.ran() {
        Some(r) if r.short() => format!(
            "the server ran {} streams at a time (its own metrics; the rest of the {} asked waited) and they share each read",
            crate::server::count(r.running),
            f0(c(p))
        ),
        Some(r) => format!(
            "the server ran {} streams at a time (its own metrics): they share each read",
            crate::server::count(r.running)
        ),
        None => format!("{} streams share each read", f0(c(p))),
    }
    };
    let mut steps = vec![
        Step {
            slug: "decode-step",
            title: "A decode step, and what TPOT measures".into(),
            body: vec![
                "After the prompt is processed (prefill), the server generates output one decode step at a time: each step runs the whole model once and gives every sequence in the batch one more token.".into(),
                format!(
                    "TPOT — time per output token — is one request's decode time divided by its tokens after the first: (E2E − TTFT) / (tokens − 1). At concurrency {}, requests saw a mean TPOT of {:.1} ms: one step every {:.1} ms.",
                    f0(c(lo)), tpot(lo), tpot(lo)
                ),
            ],
            chart: ChartKind::Latency,
            highlight: Some(c(lo)),
            values: vec![("concurrency".into(), c(lo)), ("TPOT mean (ms)".into(), tpot(lo))],
        },
        Step {
            slug: "batch-one",
            title: "At batch 1, both numbers agree".into(),
            body: vec![format!(
                "With {} stream{} in flight, per-stream T/s = 1 / TPOT = {:.1} T/s and system T/s = all tokens / wall time = {:.1} T/s. One stream has the {} to itself, so the two aggregations are the same number (apart from the wait for the first token).",
                f0(c(lo)), if c(lo) == 1.0 { "" } else { "s" }, ps(lo), sys(lo),
                // A CPU run (llama.cpp on cores, a CPU probe) has no GPU to itself.
                if run.meta.gpu.is_some() || run.meta.gpu_count.is_some() { "GPU" } else { "hardware" }
            )],
            chart: ChartKind::Throughput,
            highlight: Some(c(lo)),
            values: vec![("per-stream T/s".into(), ps(lo)), ("system T/s".into(), sys(lo))],
        },
        Step {
            slug: "shared-read",
            title: "Each step reads all the weights; a batch shares that read".into(),
            body: vec![
                "Generating one token needs every weight of the model, read from HBM (the GPU's memory) into the compute units. At small batches that read, not arithmetic, sets the step time: the chip waits on memory bandwidth.".into(),
                format!(
                    "Batching lets one read serve many sequences. At concurrency {}, {}: {:.1} T/s each, {} T/s together — {:.0}× batch 1's system T/s for a step only {:.0} % longer.",
                    f0(c(mid)), share(mid), ps(mid), f0(sys(mid)), sys(mid) / sys(lo).max(1e-9), (tpot(mid) / tpot(lo).max(1e-9) - 1.0) * 100.0
                ),
            ],
            chart: ChartKind::Throughput,
            highlight: Some(c(mid)),
            values: [("concurrency".to_owned(), c(mid)), ("per-stream T/s".into(), ps(mid)), ("system T/s".into(), sys(mid))]
                .into_iter()
                .chain(mid.ran().map(|r| ("batch the server ran".to_owned(), r.running)))
                .collect(),
        },
        Step {
            slug: "per-stream-falls",
            title: "Why per-stream T/s still falls as the batch grows".into(),
            body: vec![
                format!(
                    "From concurrency {} to {}, mean TPOT grows from {:.1} ms to {:.1} ms (p99 {:.1} ms). Three things lengthen a step: each sequence's KV cache (its attention history) must be read too, and it grows with the batch; new requests' prefill work is mixed into the steps; and a step finishes only when its slowest part does.",
                    f0(c(lo)), f0(c(hi)), tpot(lo), tpot(hi), tpot99(hi)
                ),
                format!("So each stream gets {:.1} T/s at concurrency {} instead of {:.1} T/s alone.", ps(hi), f0(c(hi)), ps(lo)),
            ],
            chart: ChartKind::Latency,
            highlight: Some(c(hi)),
            values: vec![("TPOT mean (ms)".into(), tpot(hi)), ("TPOT p99 (ms)".into(), tpot99(hi))],
        },
    ];
    let gap = hi.metrics.gap.as_ref();
    steps.push(Step {
        slug: "both-correct",
        title: format!("{} T/s and {} T/s are both correct", f0(ps(hi)), f0(sys(hi))),
        body: vec![
            format!(
                "At concurrency {}, one user sees {:.1} T/s — that is per-stream T/s, what a chat feels like — while the server emits {} T/s in all — system T/s, what sets the cost per token. They measure different things: one stream's rate, and all streams' rate together.",
                f0(c(hi)), ps(hi), f0(sys(hi))
            ),
            match gap {
                Some(g) => format!(
                    "{} × {:.1} = {} T/s would be the system figure if every stream decoded all the time; the measurement is {} T/s, because streams also wait for their first token and fewer are in flight while the run starts and drains.",
                    f0(c(hi)), ps(hi), f0(g.ideal_tps), f0(sys(hi))
                ),
                None => "Neither number is wrong; a claim that does not say which one it is, is.".into(),
            },
        ],
        chart: ChartKind::Interactivity,
        highlight: Some(c(hi)),
        values: vec![("per-stream T/s".into(), ps(hi)), ("system T/s".into(), sys(hi))],
    });
    steps.push(capacity_step(run, &levels, sys));
    steps.push(Step {
        slug: "read-a-claim",
        title: "How to read a benchmark claim".into(),
        body: vec![
            format!(
                "Ask which aggregation it is. One stream gets at most about HBM bandwidth ÷ weight bytes — the ideal single-stream bound, about 47.5 T/s for a 70B FP8 model on one H100 — or a few percent more, because {}: the quoted 50 T/s at batch 1 is such a figure, 5 % over. A figure several times the bound is system T/s over many streams.",
                crate::roofline::ABOVE_IDEAL
            ),
            "Ask whether the server decoded speculatively: a draft proposes several tokens and one step of the model verifies them all, so one read of the weights yields about the acceptance length of tokens (vLLM's spec_decode_acceptance_length). Such a run's per-stream T/s can beat the single-stream bound, and its TPOT (per token) is ITL (per chunk) ÷ that length.".into(),
            "Ask at what concurrency, and with what latency: a system figure without its per-stream figure (or TPOT) hides what each user gets.".into(),
            "Ask how it was measured: duration window (first send to last token, or benchmark start to end), whether output tokens were counted by the server or re-tokenized, and whether the tool's \"ITL\" means TPOT or chunk gaps. tpsview shows each tool's own definition beside its own.".into(),
        ],
        chart: ChartKind::Throughput,
        highlight: None,
        values: Vec::new(),
    });
    if let Some(step) = per_user_step(hi) {
        steps.push(step);
    }
    steps
}

/// "Tokens/s per user": the agentic benchmarks' number at the busiest level, beside per-stream
/// T/s, with its slow tail (docs/metrics.md); `None` where the level has no whole-request times.
fn per_user_step(p: &PointSummary) -> Option<Step> {
    let i = p.metrics.turns.interactivity?;
    let (p50, p90) = (i.e2e_normalized.p50?, i.e2e_normalized.p90?);
    let ps = i.per_stream_tps?;
    let c = p.metrics.concurrency?;
    let one = |v: f64| crate::text::thousands(v, 1);
    Some(Step {
        slug: "per-user",
        title: "Tokens/s per user: three numbers, and which tail".into(),
        body: vec![
            format!(
                "Agentic benchmarks plot tokens/s per user: each request's output tokens ÷ its whole time, the wait for its first token included. At concurrency {}, per-stream T/s (1 / mean TPOT, decode only) is {}; per user over the whole request, the median request gets {} and 90 % of requests get at least {} — p90 on the slow tail, 1 / p90(E2E ÷ tokens){}.",
                f0(c),
                one(ps),
                one(p50),
                one(p90),
                i.aggregate.map_or_else(String::new, |a| format!("; all output over all request time, {}", one(a)))
            ),
            "A p90 taken of tokens ÷ E2E as it stands is the other tail: the rate only the fastest 10 % of requests reach, which reads higher. When someone says \"N tok/s/user at p90\", ask which: AIPerf's e2e_normalized_interactivity_p90 and InferenceX take the slow tail, and tpsview names a fast-tail figure as such in its audit.".into(),
            "The wait counts most for short answers: a 1 s wait before 20 tokens halves their rate, the same wait before 2,000 tokens barely moves it. On the viewer, the interactivity chart draws the levels against it with its \"x: tokens/s per user at p90\" box.".into(),
        ],
        chart: ChartKind::Interactivity,
        highlight: Some(c),
        values: vec![
            ("per-stream T/s".into(), ps),
            ("per user p50".into(), p50),
            ("per user p90 (slow tail)".into(), p90),
        ],
    })
}

/// The mean-TPOT targets the capacity step compares when the user set no SLO, loosest first:
/// 20, 33 and 50 tokens/s per user.
pub const EXAMPLE_TPOT_MS: [f64; 3] = [50.0, 30.0, 20.0];

/// "Capacity is a latency question": the busiest level within a latency target — the user's SLO
/// when the run was evaluated against one, else each of [`EXAMPLE_TPOT_MS`] as a mean-TPOT bound —
/// against the peak. Highlights the capacity under the user's SLO, else under the middle example.
fn capacity_step(
    run: &RunSummary,
    levels: &[&PointSummary],
    sys: impl Fn(&PointSummary) -> f64,
) -> Step {
    let peak = levels
        .iter()
        .copied()
        .max_by(|a, b| sys(a).total_cmp(&sys(b)));
    let peak_sys = peak.map_or(0.0, &sys);
    let peak_c = peak.and_then(|p| p.metrics.concurrency).unwrap_or(1.0);
    let within = |t: f64| {
        levels
            .iter()
            .filter(|p| p.metrics.tpot_ms.mean.is_some_and(|m| m <= t))
            .map(|p| (p.metrics.concurrency.unwrap_or(1.0), sys(p)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };
    let (lines, shown) = match run.slo_capacity {
        Some(c) => {
            let c = c.map(|c| (c.concurrency, c.system_tps));
            let line = match c {
                Some((c, s)) => format!(
                    "Under the SLO you set, the busiest level that qualifies is concurrency {}: {} T/s, against a peak of {} T/s at concurrency {}.",
                    f0(c), f0(s), f0(peak_sys), f0(peak_c)
                ),
                None => format!(
                    "Under the SLO you set, no level of this run qualifies: its capacity for such users is none, whatever its peak of {} T/s.",
                    f0(peak_sys)
                ),
            };
            (vec![line], c)
        }
        None => {
            let each: Vec<String> = EXAMPLE_TPOT_MS
                .iter()
                .map(|&t| {
                    let target = format!("mean TPOT ≤ {t:.0} ms ({:.0} T/s per user)", 1000.0 / t);
                    match within(t) {
                        Some((c, s)) => format!("{target}: concurrency {}, {} T/s", f0(c), f0(s)),
                        None => format!("{target}: no level qualifies"),
                    }
                })
                .collect();
            (
                vec![format!(
                    "This run's peak is {} T/s at concurrency {}. Its capacity under three targets — {}.",
                    f0(peak_sys),
                    f0(peak_c),
                    each.join("; ")
                )],
                within(EXAMPLE_TPOT_MS[1]),
            )
        }
    };
    let mut body = vec![
        "Adding streams raises system T/s until the chip is busy, and lowers what each user gets. So \"how much can this GPU serve?\" has no answer until you say how fast each user must be served: a time to first token and a time per output token, met by most requests (an SLO).".into(),
    ];
    body.extend(lines);
    body.push("In the viewer, set your own targets under \"Capacity under a latency target\": the charts shade where they are met, mark each run's capacity, and, with a GPU-hour price, give the cost of a million tokens there.".into());
    Step {
        slug: "capacity",
        title: "Capacity is a latency question".into(),
        body,
        chart: ChartKind::Throughput,
        highlight: shown.map(|w| w.0),
        values: shown
            .map(|(c, s)| vec![("concurrency".into(), c), ("system T/s".into(), s)])
            .unwrap_or_default(),
    }
}
