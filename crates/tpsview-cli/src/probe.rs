//! `tpsview probe`: the batching effect measured on this machine. For each batch size B, the
//! median time of a decode step — B activation vectors multiplied by weights larger than the
//! last-level cache — over `--steps` after a warm-up; also the machine's streaming bandwidth (one
//! pass over the weights) and its peak multiply rate (an in-cache multiply), so that the roofline
//! is drawn from measured numbers. The report is `tpsview/1` (tpsview_core::probe).
//!
//! CPU: f32, ndarray's matrix multiply (matrixmultiply's kernels) with the output columns split
//! over the cores (rayon). CUDA: cuBLAS in f32, f16 or bf16, cuBLASLt in fp8, on GPU 0
//! (tpsview-probe-cuda, CUDA loaded at run time; without a GPU, a message and exit 1).

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use ndarray::{linalg::general_mat_mul, Array2, ArrayView2, ArrayViewMut2, Axis};
use rayon::prelude::*;
use tpsview_core::probe::Probe;

mod rapl;

/// Where Linux exposes the CPU's energy counters.
const POWERCAP: &str = "/sys/class/powercap";

/// Arguments of `tpsview probe`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where to measure: `cpu` (this machine's cores) or `cuda` (an NVIDIA GPU).
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    backend: Backend,
    /// Batch sizes (concurrent streams per step), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1,2,4,8,16,32,64,128,256"
    )]
    batch: Vec<u32>,
    /// Megabytes of weights read per step: larger than the last-level cache, as a model's are.
    #[arg(long, default_value_t = 256)]
    weights_mb: u64,
    /// Weight element type: the CPU backend measures f32; bf16, f16 and fp8 are GPU types.
    #[arg(long, value_enum, default_value_t = Dtype::F32)]
    dtype: Dtype,
    /// Timed steps per batch size (after 2 untimed warm-up steps).
    #[arg(long, default_value_t = 10)]
    steps: usize,
    /// Output report (tpsview/1).
    #[arg(short, long)]
    output: PathBuf,
}

/// Backends of `tpsview probe`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    /// This machine's CPU cores.
    Cpu,
    /// An NVIDIA GPU through CUDA.
    Cuda,
}

/// Weight element types.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Dtype {
    F32,
    Bf16,
    F16,
    Fp8,
}

impl Dtype {
    fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::Bf16 => "bf16",
            Dtype::F16 => "f16",
            Dtype::Fp8 => "fp8",
        }
    }
}

const WARMUP: usize = 2;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let usage = |m: String| {
        eprintln!("error: {m}");
        Ok(ExitCode::from(2))
    };
    if args.batch.is_empty() || args.batch.contains(&0) {
        return usage("--batch: give batch sizes of at least 1, e.g. 1,8,64".into());
    }
    if args.steps == 0 {
        return usage("--steps: at least 1".into());
    }
    if !(1..=65_536).contains(&args.weights_mb) {
        return usage("--weights-mb: between 1 and 65536".into());
    }
    let mut batches = args.batch.clone();
    batches.sort_unstable();
    batches.dedup();
    match args.backend {
        Backend::Cuda => cuda(&args, &batches),
        Backend::Cpu if args.dtype != Dtype::F32 => {
            eprintln!(
                "error: --dtype {}: the CPU backend measures f32 (CPUs have no fast {} multiply here); use --backend cuda for GPU types",
                args.dtype.name(),
                args.dtype.name()
            );
            Ok(ExitCode::from(1))
        }
        Backend::Cpu => cpu(&args, &batches),
    }
}

/// The CUDA probe: cuBLAS on GPU 0 (tpsview-probe-cuda), or why it cannot run (exit 1).
fn cuda(args: &Args, batches: &[u32]) -> anyhow::Result<ExitCode> {
    use tpsview_probe_cuda::Dtype as D;
    let dtype = match args.dtype {
        Dtype::F32 => D::F32,
        Dtype::F16 => D::F16,
        Dtype::Bf16 => D::Bf16,
        Dtype::Fp8 => D::Fp8,
    };
    if let Err(e) = tpsview_probe_cuda::available() {
        eprintln!("error: --backend cuda: {e}");
        return Ok(ExitCode::from(1));
    }
    eprintln!(
        "probe: CUDA, {} weights of about {} MB, {} timed steps per batch",
        args.dtype.name(),
        args.weights_mb,
        args.steps
    );
    let m = match tpsview_probe_cuda::run(dtype, args.weights_mb, batches, args.steps, WARMUP) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: --backend cuda: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    match &m.power {
        Ok(p) => eprintln!("  power: {p}"),
        Err(why) => eprintln!("  power: not readable: {why}"),
    }
    let (k, n) = m.shape;
    let bytes = dtype.bytes();
    let probe = Probe {
        backend: "cuda".into(),
        device: m.device.clone(),
        dtype: args.dtype.name().into(),
        bytes_per_weight: bytes as f64,
        weight_bytes: (k * n * bytes) as u64,
        shape: (k, n),
        bandwidth: Some(m.bandwidth),
        peak_flops: Some(m.peak_flops),
        threads: 1,
        steps: args.steps,
        warmup: WARMUP,
        labels: [
            (
                "date".to_owned(),
                humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            ),
            ("driver".to_owned(), m.driver.clone()),
            (
                "kernel".to_owned(),
                if dtype == D::Fp8 {
                    "cuBLASLt matmul (cudarc), E4M3 weights and activations, bf16 output, f32 accumulation; timed with CUDA events; bandwidth from a device-to-device copy (read + write)"
                } else {
                    "cuBLAS GEMM (cudarc), f32 accumulation; timed with CUDA events; bandwidth from a device-to-device copy (read + write)"
                }
                .to_owned(),
            ),
        ]
        .into(),
        levels: m.levels,
        power: m.power,
        step_joules: m.step_joules,
    };
    finish(&probe, &args.output)
}

/// Prints each level, the knee, and writes the report.
fn finish(probe: &Probe, output: &std::path::Path) -> anyhow::Result<ExitCode> {
    for (k, (b, times)) in probe.levels.iter().enumerate() {
        let med = tpsview_core::probe::step_stats(times).map_or(f64::NAN, |s| s.median);
        let energy = probe
            .step_joules
            .get(k)
            .copied()
            .flatten()
            .map_or_else(String::new, |j| {
                format!(", {:.3} J per token", j / f64::from(*b))
            });
        eprintln!(
            "  batch {b:>4}: step {:>8.3} ms, {:>8.1} T/s per stream, {:>9.1} T/s system{energy}",
            med * 1e3,
            1.0 / med,
            f64::from(*b) / med
        );
    }
    if let Some(knee) = probe.measured_knee() {
        eprintln!("  compute-bound from batch {knee} (its step takes twice batch 1's)");
    }
    let report = probe.report();
    std::fs::write(output, tpsview_core::formats::tpsview::write(&report))
        .with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}

/// The CPU probe.
fn cpu(args: &Args, batches: &[u32]) -> anyhow::Result<ExitCode> {
    let threads = rayon::current_num_threads();
    // A square weight matrix of about --weights-mb, its side a multiple of 64.
    let elems = (args.weights_mb << 20) / 4;
    let side = (((elems as f64).sqrt() as usize) / 64).max(1) * 64;
    let (k, n) = (side, side);
    let weights = Array2::from_shape_fn((k, n), |(i, j)| ((i * 31 + j * 17) % 97) as f32 * 1e-3);
    let weight_bytes = (k * n * 4) as u64;
    eprintln!(
        "probe: CPU, {threads} threads, f32 weights {k} × {n} ({:.0} MB), {} timed steps per batch",
        weight_bytes as f64 / 1e6,
        args.steps
    );
    if cfg!(debug_assertions) {
        eprintln!(
            "  note: a debug build: its bandwidth pass is unoptimized, so the bandwidth it reports is low; measure with the release build (docs/probe.md)"
        );
    }
    let bandwidth = bandwidth(&weights);
    let peak = peak_flops(threads);
    eprintln!(
        "  streaming bandwidth {:.2} GB/s, peak multiply {:.1} GFLOP/s",
        bandwidth / 1e9,
        peak / 1e9
    );
    // The CPU packages' energy over each level's timed steps, where readable (RAPL).
    let rapl = rapl::Rapl::open(std::path::Path::new(POWERCAP));
    match &rapl {
        Ok(r) => eprintln!("  power: {}", r.describe()),
        Err(why) => eprintln!("  power: not readable: {why}"),
    }
    let mut levels = Vec::new();
    let mut step_joules = Vec::new();
    for &b in batches {
        let x = Array2::from_shape_fn((b as usize, k), |(i, j)| ((i + j) % 13) as f32 * 1e-2);
        let mut y = Array2::<f32>::zeros((b as usize, n));
        let mut times = Vec::with_capacity(args.steps);
        let mut before = None;
        for step in 0..WARMUP + args.steps {
            if step == WARMUP {
                before = rapl.as_ref().ok().and_then(|r| r.read().ok());
            }
            let t = Instant::now();
            decode_step(x.view(), weights.view(), y.view_mut(), threads);
            black_box(&y);
            if step >= WARMUP {
                times.push(t.elapsed().as_secs_f64());
            }
        }
        // A counter that did not move (its resolution, or a frozen sysfs) is no reading.
        let joules = rapl.as_ref().ok().zip(before).and_then(|(r, a)| {
            let j = r.joules(&a, &r.read().ok()?);
            (j > 0.0).then(|| j / times.len().max(1) as f64)
        });
        step_joules.push(joules);
        levels.push((b, times));
    }
    let probe = Probe {
        backend: "cpu".into(),
        device: cpu_name(),
        dtype: "f32".into(),
        bytes_per_weight: 4.0,
        weight_bytes,
        shape: (k, n),
        bandwidth: Some(bandwidth),
        peak_flops: Some(peak),
        threads,
        steps: args.steps,
        warmup: WARMUP,
        labels: [
            (
                "date".to_owned(),
                humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            ),
            (
                "build".to_owned(),
                if cfg!(debug_assertions) { "debug" } else { "release" }.to_owned(),
            ),
            (
                "kernel".to_owned(),
                "ndarray general_mat_mul (matrixmultiply sgemm), output columns split over the threads".to_owned(),
            ),
        ]
        .into(),
        levels,
        power: rapl.map(|r| r.describe()),
        step_joules,
    };
    finish(&probe, &args.output)
}

/// One decode step: y = x · w, the output columns split over `threads` (each thread reads its
/// share of the weights once for the whole batch).
fn decode_step(x: ArrayView2<f32>, w: ArrayView2<f32>, mut y: ArrayViewMut2<f32>, threads: usize) {
    let n = w.ncols();
    let chunk = n.div_ceil(threads.max(1)).div_ceil(16) * 16;
    let parts: Vec<(ArrayView2<f32>, ArrayViewMut2<f32>)> = w
        .axis_chunks_iter(Axis(1), chunk)
        .zip(y.axis_chunks_iter_mut(Axis(1), chunk))
        .collect();
    parts.into_par_iter().for_each(|(w, mut y)| {
        general_mat_mul(1.0, &x, &w, 0.0, &mut y);
    });
}

/// Streaming bandwidth: the median of 5 passes summing every weight (ndarray's sum, the rows
/// split over the threads), bytes/s.
fn bandwidth(w: &Array2<f32>) -> f64 {
    let bytes = (w.len() * 4) as f64;
    let rows = w.nrows().div_ceil(64).max(1);
    let mut times: Vec<f64> = (0..6)
        .map(|_| {
            let t = Instant::now();
            let parts: Vec<ArrayView2<f32>> = w.axis_chunks_iter(Axis(0), rows).collect();
            let s: f32 = parts.into_par_iter().map(|p| p.sum()).sum();
            black_box(s);
            t.elapsed().as_secs_f64()
        })
        .skip(1)
        .collect();
    times.sort_by(f64::total_cmp);
    bytes / times[times.len() / 2]
}

/// Peak multiply rate: every thread multiplying in-cache 256 × 256 matrices, FLOP/s (the best of
/// 3 rounds).
fn peak_flops(threads: usize) -> f64 {
    const M: usize = 256;
    const REPS: usize = 8;
    let a = Array2::from_shape_fn((M, M), |(i, j)| ((i + 2 * j) % 7) as f32);
    let b = Array2::from_shape_fn((M, M), |(i, j)| ((3 * i + j) % 5) as f32);
    let best = (0..3)
        .map(|_| {
            let t = Instant::now();
            (0..threads).into_par_iter().for_each(|_| {
                let mut c = Array2::<f32>::zeros((M, M));
                for _ in 0..REPS {
                    general_mat_mul(1.0, &a, &b, 0.0, &mut c);
                }
                black_box(c[[0, 0]]);
            });
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    (2 * M * M * M * REPS * threads) as f64 / best
}

/// The CPU's model name (Linux's /proc/cpuinfo), else "CPU".
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "CPU".to_owned())
}
