//! The decode model: a roofline for one decode step. Each step reads every weight once from HBM
//! (shared by the whole batch) plus each sequence's KV cache, and does about 2 × parameters FLOPs
//! per token. The step takes the longer of the two; per-stream T/s = 1 / step, system T/s =
//! batch / step. Presets with their sources; every number is editable in the UI.

/// A GPU's two roofs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Gpu {
    /// Name.
    pub name: &'static str,
    /// HBM bandwidth, bytes/s.
    pub hbm_bytes_per_s: f64,
    /// Dense (no sparsity) peak tensor FLOP/s at BF16.
    pub bf16_flops: f64,
    /// Dense peak tensor FLOP/s at FP8.
    pub fp8_flops: f64,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// GPU presets: vendor datasheet figures, dense (the datasheets' headline numbers are with 2:4
/// sparsity, twice these).
pub const GPUS: &[Gpu] = &[
    Gpu { name: "H100 SXM", hbm_bytes_per_s: 3.35e12, bf16_flops: 989e12, fp8_flops: 1979e12, source: "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 3.35 TB/s HBM3; 1,979 / 3,958 TFLOPS BF16 / FP8 with sparsity" },
    Gpu { name: "H200", hbm_bytes_per_s: 4.8e12, bf16_flops: 989e12, fp8_flops: 1979e12, source: "NVIDIA H200 Tensor Core GPU datasheet (SXM): 4.8 TB/s HBM3e; same tensor cores as H100 SXM" },
    Gpu { name: "A100 80 GB", hbm_bytes_per_s: 2.039e12, bf16_flops: 312e12, fp8_flops: 312e12, source: "NVIDIA A100 datasheet (80 GB SXM): 2,039 GB/s HBM2e; 312 TFLOPS BF16 dense; no FP8 (FP8 runs at BF16 rate)" },
    Gpu { name: "B200", hbm_bytes_per_s: 8.0e12, bf16_flops: 2250e12, fp8_flops: 4500e12, source: "NVIDIA HGX B200 (1,000 W) specifications: 8 TB/s HBM3e; 2.25 / 4.5 PFLOPS BF16 / FP8 dense" },
    Gpu { name: "MI300X", hbm_bytes_per_s: 5.3e12, bf16_flops: 1307.4e12, fp8_flops: 2614.9e12, source: "AMD Instinct MI300X datasheet: 5.3 TB/s HBM3; 1,307.4 / 2,614.9 TFLOPS BF16 / FP8 dense" },
];

/// A model's shape.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Model {
    /// Name.
    pub name: &'static str,
    /// Parameters.
    pub params: f64,
    /// Transformer layers.
    pub layers: u32,
    /// Key/value heads (grouped-query attention).
    pub kv_heads: u32,
    /// Dimension of each head.
    pub head_dim: u32,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// Model presets (Meta's Llama 3.1 model card and config.json).
pub const MODELS: &[Model] = &[
    Model { name: "Llama 3.1 8B", params: 8.03e9, layers: 32, kv_heads: 8, head_dim: 128, source: "Meta Llama 3.1 8B config.json: 32 layers, 8 KV heads, head dim 128; 8.03 B parameters" },
    Model { name: "Llama 3.1 70B", params: 70.6e9, layers: 80, kv_heads: 8, head_dim: 128, source: "Meta Llama 3.1 70B config.json: 80 layers, 8 KV heads, head dim 128; 70.6 B parameters" },
    Model { name: "Llama 3.1 405B", params: 405e9, layers: 126, kv_heads: 8, head_dim: 128, source: "Meta Llama 3.1 405B config.json: 126 layers, 8 KV heads, head dim 128; 405 B parameters" },
];

impl Gpu {
    /// The compute peak a model runs at: FP8 weights at the FP8 peak; BF16, and INT4 weights
    /// (weight-only quantisation, dequantised to BF16 for the math), at the BF16 peak.
    pub fn peak_for(&self, bytes_per_param: f64) -> f64 {
        if bytes_per_param == 1.0 {
            self.fp8_flops
        } else {
            self.bf16_flops
        }
    }
}

/// A measurement up to this many times an ideal bound counts as at the bound, not beyond it (the
/// one story every page tells about a figure a few percent above the bound: [`ABOVE_IDEAL`]).
pub const AT_BOUND: f64 = 1.10;

/// Why a real figure can sit a few percent above an ideal bound.
pub const ABOVE_IDEAL: &str = "the bound is ideal — the datasheet's full HBM bandwidth, nothing \
read but the weights and the KV cache — and quoted figures are rounded; speculative decoding or \
more bandwidth than assumed lift a real stream a little above it";

/// How a measurement stands against an ideal bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgainstBound {
    /// Under the bound.
    Below,
    /// Over it by at most [`AT_BOUND`]: at the bound, for the reasons of [`ABOVE_IDEAL`].
    AtBound,
    /// Further over: the bound's inputs do not describe what was measured.
    Beyond,
}

/// `measured ÷ bound` read as [`AgainstBound`].
pub fn against_bound(ratio: f64) -> AgainstBound {
    if ratio <= 1.0 {
        AgainstBound::Below
    } else if ratio <= AT_BOUND {
        AgainstBound::AtBound
    } else {
        AgainstBound::Beyond
    }
}

/// Weight precisions: (name, bytes per parameter).
pub const PRECISIONS: &[(&str, f64)] = &[("BF16", 2.0), ("FP8", 1.0), ("INT4", 0.5)];

/// Everything the model takes.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeInputs {
    /// HBM bandwidth, bytes/s (all GPUs together).
    pub hbm_bytes_per_s: f64,
    /// Peak FLOP/s at the compute precision (all GPUs together).
    pub peak_flops: f64,
    /// Parameters.
    pub params: f64,
    /// Bytes per weight.
    pub bytes_per_param: f64,
    /// KV-cache bytes per token of context (all layers, K and V).
    pub kv_bytes_per_token: f64,
    /// Tokens of context each sequence holds (prompt + generated so far).
    pub context_tokens: f64,
}

/// The machine part of [`DecodeInputs`] for `gpus` GPUs of one kind, each with `hbm_bytes_per_s`
/// of bandwidth and `peak_flops`: (bandwidth, peak FLOP/s) of them together — tensor parallelism
/// splits the weights and the work across them, so both add up. A count that is not a positive
/// finite number gives no machine (NaN, which every bound then shows as undefined), never zero.
pub fn gpus_together(hbm_bytes_per_s: f64, peak_flops: f64, gpus: f64) -> (f64, f64) {
    if gpus.is_finite() && gpus > 0.0 {
        (hbm_bytes_per_s * gpus, peak_flops * gpus)
    } else {
        (f64::NAN, f64::NAN)
    }
}

/// KV-cache bytes per token: 2 (K and V) × layers × KV heads × head dim × bytes per element.
pub fn kv_bytes_per_token(layers: u32, kv_heads: u32, head_dim: u32, dtype_bytes: f64) -> f64 {
    2.0 * f64::from(layers) * f64::from(kv_heads) * f64::from(head_dim) * dtype_bytes
}

/// One decode step at one batch size.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct DecodeStep {
    /// Sequences decoding together.
    pub batch: f64,
    /// Bytes read from HBM: weights + batch × context × KV bytes per token.
    pub bytes: f64,
    /// bytes / bandwidth.
    pub memory_s: f64,
    /// 2 × params × batch / peak FLOP/s.
    pub compute_s: f64,
    /// The longer of the two: the step's lower bound.
    pub step_s: f64,
    /// 1 / step.
    pub per_stream_tps: f64,
    /// batch / step.
    pub system_tps: f64,
    /// True when compute, not bandwidth, sets the step.
    pub compute_bound: bool,
}

impl DecodeInputs {
    /// Weight bytes.
    pub fn weight_bytes(&self) -> f64 {
        self.params * self.bytes_per_param
    }

    /// The bound at `batch`.
    pub fn step(&self, batch: f64) -> DecodeStep {
        let bytes = self.weight_bytes() + batch * self.context_tokens * self.kv_bytes_per_token;
        let memory_s = bytes / self.hbm_bytes_per_s;
        let compute_s = 2.0 * self.params * batch / self.peak_flops;
        let step_s = memory_s.max(compute_s);
        DecodeStep {
            batch,
            bytes,
            memory_s,
            compute_s,
            step_s,
            per_stream_tps: 1.0 / step_s,
            system_tps: batch / step_s,
            compute_bound: compute_s > memory_s,
        }
    }

    /// The batch at which compute time reaches memory time:
    /// 2·P·B / F = (W + B·L·kv) / BW  ⇒  B = (W / BW) / (2·P / F − L·kv / BW).
    /// `None` when the KV reads grow faster than compute, so bandwidth stays the bound at any batch.
    pub fn compute_bound_batch(&self) -> Option<f64> {
        let per_seq_compute = 2.0 * self.params / self.peak_flops;
        let per_seq_memory = self.context_tokens * self.kv_bytes_per_token / self.hbm_bytes_per_s;
        let denom = per_seq_compute - per_seq_memory;
        (denom > 0.0).then(|| self.weight_bytes() / self.hbm_bytes_per_s / denom)
    }

    /// The bound at each batch size.
    pub fn curve(&self, batches: &[f64]) -> Vec<DecodeStep> {
        batches.iter().map(|&b| self.step(b)).collect()
    }
}

/// Powers of two from 1 to `max` inclusive, for curves.
pub fn batch_grid(max: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut b = 1.0;
    while b <= max {
        out.push(b);
        b *= 2.0;
    }
    out
}

#[cfg(test)]
mod tests;
