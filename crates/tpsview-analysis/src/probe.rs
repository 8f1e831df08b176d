//! `tpsview probe`'s arithmetic (the CLI measures; this turns timings into a report): the batching
//! effect measured on the machine in front of the user. A decode step multiplies a batch of B
//! activation vectors by weights larger than the last-level cache, as a decode step does; one
//! read of the weights serves the whole batch, so per-stream T/s = 1 / step time barely falls
//! while system T/s = B / step time grows — until multiplying, not reading, is the bound.
//!
//! The report is `tpsview/1`: one run, the batch as its level axis (like llama-bench's sweeps),
//! each level's step-time statistics as the tool's figures, and in the metadata what was measured
//! on what (backend, device, dtype, weight bytes) with the machine's measured streaming bandwidth
//! and peak multiply rate, so that the roofline is drawn from measured numbers.

pub use crate::tools::probe::{TOOL, VOCABULARY};
use std::collections::BTreeMap;

use crate::model::{Metadata, Point, Report, Reported, Run};

/// The run label saying what the probe read power from, or why it could not.
pub const POWER_LABEL: &str = "power";

/// What a probe measured, and on what.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// `cpu` or `cuda`.
    pub backend: String,
    /// The device's name (CPU model, GPU name).
    pub device: String,
    /// Element type of the weights (`f32`, `bf16`, `f16`, `fp8`).
    pub dtype: String,
    /// Bytes per weight element.
    pub bytes_per_weight: f64,
    /// Bytes of weights read per step.
    pub weight_bytes: u64,
    /// The weight matrix's shape: K (input width) × N (output width).
    pub shape: (usize, usize),
    /// Measured streaming bandwidth over the weights, bytes/s.
    pub bandwidth: Option<f64>,
    /// Measured peak multiply rate, FLOP/s.
    pub peak_flops: Option<f64>,
    /// Threads (CPU) the kernel used.
    pub threads: usize,
    /// Timed steps per batch.
    pub steps: usize,
    /// Untimed warm-up steps.
    pub warmup: usize,
    /// When it ran (RFC 3339), and other facts (driver, crate versions).
    pub labels: BTreeMap<String, String>,
    /// Each batch size with its timed step times, seconds.
    pub levels: Vec<(u32, Vec<f64>)>,
    /// What the power was read from (`Ok`: e.g. RAPL's package domains, NVML), or why it could
    /// not be read (`Err`).
    pub power: Result<String, String>,
    /// Joules per timed step at each level (in `levels`' order), where the power was read and the
    /// counter moved.
    pub step_joules: Vec<Option<f64>>,
}

/// A level's step-time statistics, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepStats {
    /// Mean.
    pub mean: f64,
    /// Median (numpy-linear).
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// The statistics of some step times; `None` without a finite, positive one.
pub fn step_stats(times: &[f64]) -> Option<StepStats> {
    let mut v: Vec<f64> = times
        .iter()
        .copied()
        .filter(|t| t.is_finite() && *t > 0.0)
        .collect();
    if v.is_empty() {
        return None;
    }
    let mean = crate::stats::mean(&v)?;
    let [median, p90, p99] = crate::stats::percentiles(&mut v, [50.0, 90.0, 99.0]);
    Some(StepStats {
        mean,
        median: median?,
        p90: p90?,
        p99: p99?,
    })
}

impl Probe {
    /// The decode model's step time at batch `b` from the measured bandwidth and peak: the larger
    /// of reading the weights once and multiplying them by the batch (seconds).
    pub fn bound_step(&self, b: u32) -> Option<f64> {
        let (bw, peak) = (self.bandwidth?, self.peak_flops?);
        let (k, n) = self.shape;
        let read = self.weight_bytes as f64 / bw;
        let compute = 2.0 * f64::from(b) * k as f64 * n as f64 / peak;
        Some(read.max(compute))
    }

    /// The batch at which the model's multiply time reaches its read time: B = bytes per weight ×
    /// peak ÷ (2 × bandwidth).
    pub fn model_knee(&self) -> Option<f64> {
        Some(self.bytes_per_weight * self.peak_flops? / (2.0 * self.bandwidth?))
    }

    /// The smallest measured batch whose median step takes twice batch 1's (or the smallest
    /// batch's): past it, more streams cost time — the machine has turned compute-bound.
    pub fn measured_knee(&self) -> Option<u32> {
        let mut levels: Vec<(u32, f64)> = self
            .levels
            .iter()
            .filter_map(|(b, t)| Some((*b, step_stats(t)?.median)))
            .collect();
        levels.sort_by_key(|l| l.0);
        let base = levels.first()?.1;
        levels.iter().find(|l| l.1 >= 2.0 * base).map(|l| l.0)
    }

    /// The report: one run, a point per batch size with its step-time figures.
    pub fn report(&self) -> Report {
        let mut points = Vec::new();
        for (b, times) in &self.levels {
            let Some(s) = step_stats(times) else { continue };
            let mut figures = BTreeMap::new();
            figures.insert("system_tps".to_owned(), f64::from(*b) / s.median);
            figures.insert("per_stream_tps".to_owned(), 1.0 / s.median);
            figures.insert("step_ms.mean".to_owned(), s.mean * 1e3);
            figures.insert("step_ms.median".to_owned(), s.median * 1e3);
            figures.insert("step_ms.p90".to_owned(), s.p90 * 1e3);
            figures.insert("step_ms.p99".to_owned(), s.p99 * 1e3);
            if let Some(t) = self.bound_step(*b) {
                figures.insert("bound_step_ms".to_owned(), t * 1e3);
            }
            // Energy: per step, per token (the step gives each of the batch's streams one), and
            // the mean power over the timed steps.
            let k = self.levels.iter().position(|l| l.0 == *b);
            if let Some(j) = k.and_then(|k| self.step_joules.get(k).copied().flatten()) {
                figures.insert("energy_j_per_step".to_owned(), j);
                figures.insert("energy_j_per_token".to_owned(), j / f64::from(*b));
                figures.insert("power_w".to_owned(), j / s.mean);
            }
            points.push(Point {
                source_file: format!("probe batch {b}"),
                concurrency: Some(f64::from(*b)),
                request_rate: None,
                requests: None,
                reported: Reported {
                    tool: TOOL.into(),
                    figures,
                    recomputed: BTreeMap::new(),
                },
                sampled_from: None,
                server: None,
                ..Point::default()
            });
        }
        let mut labels = self.labels.clone();
        let mut put = |k: &str, v: String| {
            labels.insert(k.to_owned(), v);
        };
        put("backend", self.backend.clone());
        put("device", self.device.clone());
        put("dtype", self.dtype.clone());
        put("weight_bytes", self.weight_bytes.to_string());
        put("bytes_per_weight", self.bytes_per_weight.to_string());
        put("shape", format!("{} x {}", self.shape.0, self.shape.1));
        put("threads", self.threads.to_string());
        put(
            "steps",
            format!("{} timed after {} warm-up", self.steps, self.warmup),
        );
        if let Some(bw) = self.bandwidth {
            put("bandwidth_gbs", format!("{:.2}", bw / 1e9));
        }
        if let Some(p) = self.peak_flops {
            put("peak_gflops", format!("{:.1}", p / 1e9));
        }
        if let Some(k) = self.model_knee() {
            put("knee_model_batch", format!("{k:.1}"));
        }
        if let Some(k) = self.measured_knee() {
            put("knee_measured_batch", k.to_string());
        }
        put(
            POWER_LABEL,
            match &self.power {
                Ok(source) => source.clone(),
                Err(why) => format!("not readable: {why}"),
            },
        );
        let mb = self.weight_bytes as f64 / 1e6;
        Report {
            meta: Metadata::default(),
            runs: vec![Run {
                label: format!(
                    "probe · {} · {} · {mb:.0} MB weights",
                    self.device, self.dtype
                )
                .into(),
                source_format: TOOL.into(),
                meta: Metadata {
                    engine: Some(format!("tpsview probe ({})", self.backend)),
                    gpu: (self.backend == "cuda").then(|| self.device.clone()),
                    gpu_count: (self.backend == "cuda").then_some(1),
                    precision: Some(self.dtype.clone()),
                    date: self.labels.get("date").cloned(),
                    labels,
                    ..Metadata::default()
                },
                points,
                axis: Some("batch".into()),
            }],
        }
    }
}

/// The decode model's inputs a probe's report measured (its metadata: `bandwidth_gbs`,
/// `peak_gflops`, `weight_bytes`, `bytes_per_weight`), so that the model's bound is drawn from
/// measured numbers over the probe's own levels; no KV cache (the probe reads none). `None` for a
/// run that is not a probe's, or lacks one of them.
pub fn decode_inputs(meta: &Metadata) -> Option<crate::roofline::DecodeInputs> {
    let get = |k: &str| {
        meta.labels
            .get(k)?
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x > 0.0)
    };
    let bytes = get("bytes_per_weight")?;
    Some(crate::roofline::DecodeInputs {
        hbm_bytes_per_s: get("bandwidth_gbs")? * 1e9,
        peak_flops: get("peak_gflops")? * 1e9,
        params: get("weight_bytes")? / bytes,
        bytes_per_param: bytes,
        kv_bytes_per_token: 0.0,
        context_tokens: 0.0,
    })
}
