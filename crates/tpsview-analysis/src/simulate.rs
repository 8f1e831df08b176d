//! A model of a continuous-batching serving engine, driven by closed-loop clients, that produces
//! raw per-request data: the seed example's source (docs/simulate.md).
//!
//! The engine runs decode steps back to back. A step's length comes from a batch-size → step-time
//! curve (each step reads all weights once, so the curve is nearly flat, rising as more KV cache
//! is read); every request that joins in a step is prefilled in it, which lengthens that step by
//! `prefill_s_per_token` × its prompt length, and gets its first token at the step's end. Every
//! other request in the batch gets one token per step. Each of N clients sends its next request as
//! soon as its previous one ends, until it has sent its share.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::model::{Metadata, Outcome, Point, Ragged, Report, Reported, Requests, Run};

/// The engine's timing model.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineModel {
    /// (batch size, decode step seconds), ascending in batch size; interpolated linearly and
    /// extended flat below the first knot and linearly past the last.
    pub step_curve: Vec<(f64, f64)>,
    /// Extra step time per prompt token of each request joining in that step.
    pub prefill_s_per_token: f64,
    /// One-way network latency between client and server.
    pub network_s: f64,
}

impl EngineModel {
    /// Decode step length at batch size `b`.
    pub fn step_s(&self, b: f64) -> f64 {
        let c = &self.step_curve;
        match c.len() {
            0 => 0.0,
            1 => c[0].1,
            _ => {
                if b <= c[0].0 {
                    return c[0].1;
                }
                let k = c
                    .windows(2)
                    .position(|w| b <= w[1].0)
                    .unwrap_or(c.len() - 2);
                let ((x0, y0), (x1, y1)) = (c[k], c[k + 1]);
                y0 + (y1 - y0) * (b - x0) / (x1 - x0)
            }
        }
    }
}

/// The load.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Closed-loop clients (the target concurrency).
    pub concurrency: u32,
    /// Requests each client sends.
    pub requests_per_client: u32,
    /// Prompt length range (inclusive), uniform.
    pub input_tokens: (u32, u32),
    /// Output length range (inclusive), uniform; every request runs to its length.
    pub output_tokens: (u32, u32),
    /// Random seed; the same seed gives the same bytes.
    pub seed: u64,
}

struct Live {
    id: usize,
    remaining: u32,
    last_token_at: f64,
}

/// Runs the model and returns the requests, columnar. Times are rounded to microseconds, as a
/// real client's clock would give them.
pub fn simulate_point(engine: &EngineModel, load: &Workload) -> Requests {
    let total = (load.concurrency * load.requests_per_client) as usize;
    let mut s = Sim {
        rng: Pcg64Mcg::seed_from_u64(
            load.seed ^ u64::from(load.concurrency).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ),
        load,
        network_s: engine.network_s,
        start: Vec::with_capacity(total),
        input: Vec::with_capacity(total),
        output: Vec::with_capacity(total),
        client_of: Vec::with_capacity(total),
        sent_per_client: vec![0; load.concurrency as usize],
        waiting: Vec::new(),
    };
    for c in 0..load.concurrency as usize {
        s.send(c, 0.0);
    }
    let (mut ttft, mut e2e) = (vec![0.0; total], vec![0.0; total]);
    let mut gaps: Vec<Vec<f64>> = vec![Vec::new(); total];
    let mut live: Vec<Live> = Vec::new();
    let mut t = 0.0f64;
    while !live.is_empty() || !s.waiting.is_empty() {
        if live.is_empty() {
            t = t.max(s.waiting.iter().map(|w| w.0).fold(f64::INFINITY, f64::min));
        }
        let (joining, still): (Vec<_>, Vec<_>) = s.waiting.drain(..).partition(|w| w.0 <= t);
        s.waiting = still;
        let prefill: f64 = joining.iter().map(|j| f64::from(s.input[j.1])).sum::<f64>()
            * engine.prefill_s_per_token;
        let end = t + engine.step_s((live.len() + joining.len()) as f64) + prefill;
        let arrive = end + engine.network_s;
        for l in &mut live {
            gaps[l.id].push(arrive - l.last_token_at);
            l.last_token_at = arrive;
            l.remaining -= 1;
        }
        for (_, id) in joining {
            ttft[id] = arrive - s.start[id];
            live.push(Live {
                id,
                remaining: s.output[id] - 1,
                last_token_at: arrive,
            });
        }
        let mut finished = Vec::new();
        live.retain(|l| {
            let done = l.remaining == 0;
            if done {
                finished.push(l.id);
            }
            !done
        });
        for id in finished {
            e2e[id] = arrive - s.start[id];
            s.send(s.client_of[id], arrive);
        }
        t = end;
    }
    let us = |v: f64| (v * 1e6).round() / 1e6;
    let mut ragged = Ragged {
        offsets: vec![0],
        ..Ragged::default()
    };
    for g in &gaps {
        ragged.push_row(&g.iter().map(|&x| us(x)).collect::<Vec<_>>());
    }
    Requests {
        start_s: Some(s.start.into_iter().map(us).collect()),
        epoch_s: None,
        ttft_s: ttft.into_iter().map(us).collect(),
        e2e_s: e2e.into_iter().map(us).collect(),
        input_tokens: Some(s.input),
        output_tokens: s.output,
        chunk_gaps: Some(ragged),
        outcome: vec![Outcome::Ok; total],
        dists: None,
        facts: None,
    }
}

/// The clients' side of the simulation: who has sent what, and what waits at the server.
struct Sim<'a> {
    rng: Pcg64Mcg,
    load: &'a Workload,
    network_s: f64,
    start: Vec<f64>,
    input: Vec<u32>,
    output: Vec<u32>,
    client_of: Vec<usize>,
    sent_per_client: Vec<u32>,
    /// (arrival at the server, request id)
    waiting: Vec<(f64, usize)>,
}

impl Sim<'_> {
    /// Client `client` sends its next request at `at`, if it has one left.
    fn send(&mut self, client: usize, at: f64) {
        if self.sent_per_client[client] >= self.load.requests_per_client {
            return;
        }
        self.sent_per_client[client] += 1;
        let (i, o) = (self.load.input_tokens, self.load.output_tokens);
        self.start.push(at);
        self.input.push(self.rng.random_range(i.0..=i.1.max(i.0)));
        self.output
            .push(self.rng.random_range(o.0..=o.1.max(o.0)).max(1));
        self.client_of.push(client);
        self.waiting
            .push((at + self.network_s, self.start.len() - 1));
    }
}

/// A representative H100 SXM / Llama 3.1 70B FP8 engine: decode steps of ~20 ms at
/// batch 1 rising to ~30 ms at 128, prefill at ~10,000 prompt tokens/s.
pub fn h100_70b_fp8() -> EngineModel {
    EngineModel {
        step_curve: vec![
            (1.0, 0.0199),
            (16.0, 0.0216),
            (64.0, 0.0238),
            (128.0, 0.0311),
        ],
        prefill_s_per_token: 0.0001,
        network_s: 0.0005,
    }
}

/// Concurrency levels of the seed example.
pub const SEED_LEVELS: &[u32] = &[1, 16, 64, 128];

/// The seed example: the representative table (batch 1/16/64/128) as a `tpsview/1` report with raw
/// per-request data.
pub fn seed_report() -> Report {
    let engine = h100_70b_fp8();
    let points = SEED_LEVELS
        .iter()
        .map(|&n| Point {
            source_file: "h100-llama70b-fp8.tpsview.json".into(),
            concurrency: Some(f64::from(n)),
            request_rate: None,
            requests: Some(simulate_point(
                &engine,
                &Workload {
                    concurrency: n,
                    requests_per_client: 8,
                    input_tokens: (48, 80),
                    output_tokens: (96, 160),
                    seed: 2026,
                },
            )),
            reported: Reported {
                tool: crate::tools::tpsview::ID.into(),
                ..Reported::default()
            },
            sampled_from: None,
            server: None,
            ..Point::default()
        })
        .collect();
    let meta = Metadata {
        engine: Some("simulated continuous-batching engine".into()),
        engine_version: Some(format!("tpsview simulate {}", env!("CARGO_PKG_VERSION"))),
        model: Some("Llama 3.1 70B Instruct".into()),
        precision: Some("fp8".into()),
        gpu: Some("H100 SXM".into()),
        gpu_count: Some(1),
        tensor_parallel: Some(1),
        date: None,
        labels: [("source".to_owned(), "simulated: a representative H100 SXM decode-step model".to_owned())].into_iter().collect(),
        notes: Some(
            "Simulated, not measured. Closed-loop clients at a fixed concurrency (8 requests each, prompts 48-80 tokens, \
             outputs 96-160 tokens) against a continuous-batching engine whose decode step takes 19.9 ms at batch 1, \
             21.6 ms at 16, 23.8 ms at 64 and 31.1 ms at 128, and whose prefill adds 0.1 ms per prompt token to the step \
             a request joins. See docs/simulate.md."
                .into(),
        ),
    };
    Report {
        meta: Metadata::default(),
        runs: vec![Run {
            label: "H100 SXM · Llama 3.1 70B FP8 (simulated)".into(),
            source_format: crate::tools::tpsview::ID.into(),
            meta,
            points,
            axis: None,
        }],
    }
}

#[cfg(test)]
mod tests;
