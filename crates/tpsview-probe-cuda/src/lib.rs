//! `tpsview probe --backend cuda`: the decode step as a cuBLAS GEMM on an NVIDIA GPU. The weights
//! (K × N, `dtype`) stay in device memory; each step multiplies a batch of B activation vectors by
//! them (one read of the weights for the whole batch), timed with CUDA events over `steps` after a
//! warm-up. Also measured: the device's copy bandwidth (a device-to-device copy of the weights,
//! read + write) and its peak multiply rate (an 8192³ GEMM in the same dtype).
//!
//! CUDA's driver and cuBLAS are loaded at run time (cudarc's dynamic loading): this crate builds
//! on any machine, and on one without a GPU [`available`] says so instead of failing to link.

use std::sync::Arc;

use cudarc::cublas::sys::{
    cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cublasStatus_t, cudaDataType,
};
use cudarc::cublas::CudaBlas;
use cudarc::driver::{
    sys::CUevent_flags, CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr,
    ValidAsZeroBits,
};

/// Weight element types the GPU multiplies (fp8 needs cuBLASLt: not in this backend).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// 32-bit float.
    F32,
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
}

impl Dtype {
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
        }
    }
}

/// What a CUDA probe measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The GPU's name.
    pub device: String,
    /// The CUDA driver's version (e.g. `12.8`).
    pub driver: String,
    /// The weights' shape (K, N).
    pub shape: (usize, usize),
    /// Copy bandwidth over the weights, bytes/s (read + write).
    pub bandwidth: f64,
    /// Peak multiply rate in the dtype, FLOP/s.
    pub peak_flops: f64,
    /// Each batch size with its step times, seconds.
    pub levels: Vec<(u32, Vec<f64>)>,
}

fn err(what: &str, e: impl std::fmt::Debug) -> String {
    format!("{what}: {e:?}")
}

/// Whether a CUDA GPU can be used: the driver and cuBLAS libraries load and device 0 opens.
pub fn available() -> Result<(), String> {
    // SAFETY: these only try to load the shared libraries (no call into them).
    #[allow(unsafe_code)]
    let (driver, blas) = unsafe {
        (
            cudarc::driver::sys::is_culib_present(),
            cudarc::cublas::sys::is_culib_present(),
        )
    };
    if !driver {
        return Err("no CUDA driver on this machine (libcuda could not be loaded): no NVIDIA GPU to measure".into());
    }
    if !blas {
        return Err(
            "the CUDA driver loads but cuBLAS does not (libcublas is not installed)".into(),
        );
    }
    CudaContext::new(0)
        .map(|_| ())
        .map_err(|e| err("CUDA device 0 could not be opened", e))
}

/// What a dtype is stored as on the device (16-bit types as their bits) and how cuBLAS names it.
trait Element: DeviceRepr + ValidAsZeroBits + Copy + Default + Unpin + 'static {
    fn of(x: f32, dtype: Dtype) -> Self;
}
impl Element for f32 {
    fn of(x: f32, _: Dtype) -> Self {
        x
    }
}
impl Element for u16 {
    fn of(x: f32, dtype: Dtype) -> Self {
        match dtype {
            Dtype::Bf16 => half::bf16::from_f32(x).to_bits(),
            _ => half::f16::from_f32(x).to_bits(),
        }
    }
}

impl Dtype {
    fn cuda(self) -> cudaDataType {
        match self {
            Dtype::F32 => cudaDataType::CUDA_R_32F,
            Dtype::F16 => cudaDataType::CUDA_R_16F,
            Dtype::Bf16 => cudaDataType::CUDA_R_16BF,
        }
    }
}

/// Runs the probe: `weights_mb` of weights in `dtype`, each batch in `batches` timed over `steps`
/// after `warmup` steps.
pub fn run(
    dtype: Dtype,
    weights_mb: u64,
    batches: &[u32],
    steps: usize,
    warmup: usize,
) -> Result<Measured, String> {
    available()?;
    let ctx = CudaContext::new(0).map_err(|e| err("CUDA device 0", e))?;
    let device = ctx.name().map_err(|e| err("device name", e))?;
    let mut version: std::ffi::c_int = 0;
    // SAFETY: cuDriverGetVersion writes one int through a valid pointer.
    #[allow(unsafe_code)]
    let _ = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    let driver = format!("{}.{}", version / 1000, (version % 1000) / 10);
    match dtype {
        Dtype::F32 => measure::<f32>(
            &ctx, dtype, weights_mb, batches, steps, warmup, device, driver,
        ),
        Dtype::F16 | Dtype::Bf16 => measure::<u16>(
            &ctx, dtype, weights_mb, batches, steps, warmup, device, driver,
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn measure<T: Element>(
    ctx: &Arc<CudaContext>,
    dtype: Dtype,
    weights_mb: u64,
    batches: &[u32],
    steps: usize,
    warmup: usize,
    device: String,
    driver: String,
) -> Result<Measured, String> {
    let stream = ctx.default_stream();
    let blas = CudaBlas::new(stream.clone()).map_err(|e| err("cuBLAS", e))?;
    // Square weights of about weights_mb, a multiple of 256 wide (tensor-core friendly).
    let elems = (weights_mb << 20) as usize / dtype.bytes();
    let side = (((elems as f64).sqrt() as usize) / 256).max(1) * 256;
    let (k, n) = (side, side);
    let host: Vec<T> = (0..k * n)
        .map(|i| T::of((i % 97) as f32 * 1e-3, dtype))
        .collect();
    let w = stream
        .clone_htod(&host)
        .map_err(|e| err("copy the weights", e))?;
    drop(host);
    let timer = Timer::new(ctx, &stream)?;
    // Copy bandwidth: a device-to-device copy of the weights, best of 5.
    let mut copy = stream
        .alloc_zeros::<T>(k * n)
        .map_err(|e| err("allocate", e))?;
    let mut best = f64::INFINITY;
    for _ in 0..6 {
        let t = timer.time(|| {
            stream
                .memcpy_dtod(&w, &mut copy)
                .map_err(|e| err("device copy", e))
        })?;
        best = best.min(t);
    }
    drop(copy);
    let bandwidth = 2.0 * (k * n * dtype.bytes()) as f64 / best;
    // Peak: an 8192³ GEMM (in-cache blocking is cuBLAS's), best of 3.
    let p = 8192usize;
    let a = stream
        .alloc_zeros::<T>(p * p)
        .map_err(|e| err("allocate", e))?;
    let b = stream
        .alloc_zeros::<T>(p * p)
        .map_err(|e| err("allocate", e))?;
    let mut c = stream
        .alloc_zeros::<T>(p * p)
        .map_err(|e| err("allocate", e))?;
    let mut best = f64::INFINITY;
    for _ in 0..4 {
        let t = timer.time(|| gemm(&blas, &stream, dtype, (p, p, p), &a, &b, &mut c))?;
        best = best.min(t);
    }
    drop((a, b, c));
    let peak_flops = 2.0 * (p * p * p) as f64 / best;
    // The decode steps: Y (B × N) = X (B × K) · W (K × N).
    let mut levels = Vec::new();
    for &batch in batches {
        let bsz = batch as usize;
        let x = stream
            .clone_htod(&vec![T::of(0.01, dtype); bsz * k])
            .map_err(|e| err("copy the activations", e))?;
        let mut y = stream
            .alloc_zeros::<T>(bsz * n)
            .map_err(|e| err("allocate", e))?;
        let mut times = Vec::with_capacity(steps);
        for step in 0..warmup + steps {
            let t = timer.time(|| gemm(&blas, &stream, dtype, (n, bsz, k), &w, &x, &mut y))?;
            if step >= warmup {
                times.push(t);
            }
        }
        levels.push((batch, times));
    }
    Ok(Measured {
        device,
        driver,
        shape: (k, n),
        bandwidth,
        peak_flops,
        levels,
    })
}

/// C (m × n, column-major) = A (m × k) · B (k × n), all column-major, contiguous and of `dtype`,
/// accumulated in f32 (cublasGemmEx). Row-major Y (B × N) = X (B × K) · W (K × N) is,
/// column-major, Yᵀ (N × B) = Wᵀ (N × K) · Xᵀ (K × B): `a` the weights, `b` the activations.
fn gemm<T: Element>(
    blas: &CudaBlas,
    stream: &Arc<CudaStream>,
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    a: &CudaSlice<T>,
    b: &CudaSlice<T>,
    c: &mut CudaSlice<T>,
) -> Result<(), String> {
    if a.len() < m * k || b.len() < k * n || c.len() < m * n {
        return Err("a matrix is smaller than its shape".into());
    }
    if std::mem::size_of::<T>() != dtype.bytes() {
        return Err("the element type does not match the dtype".into());
    }
    let dim = |x: usize| i32::try_from(x).map_err(|_| format!("dimension {x} is too large"));
    let (md, nd, kd) = (dim(m)?, dim(n)?, dim(k)?);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (pa, _ra) = a.device_ptr(stream);
    let (pb, _rb) = b.device_ptr(stream);
    let (pc, _rc) = c.device_ptr_mut(stream);
    let t = dtype.cuda();
    // SAFETY: the three device buffers hold at least m·k, k·n and m·n elements of `dtype`'s size
    // (both checked above), the leading dimensions are the row counts of contiguous column-major
    // matrices, `c` is borrowed mutably for the call, alpha and beta are host f32 values matching
    // the f32 compute type, and the handle belongs to `blas`, alive for the call.
    #[allow(unsafe_code)]
    let status = unsafe {
        cudarc::cublas::sys::cublasGemmEx(
            *blas.handle(),
            cublasOperation_t::CUBLAS_OP_N,
            cublasOperation_t::CUBLAS_OP_N,
            md,
            nd,
            kd,
            (&alpha as *const f32).cast(),
            pa as usize as *const std::ffi::c_void,
            t,
            md,
            pb as usize as *const std::ffi::c_void,
            t,
            kd,
            (&beta as *const f32).cast(),
            pc as usize as *mut std::ffi::c_void,
            t,
            md,
            cublasComputeType_t::CUBLAS_COMPUTE_32F,
            cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
    };
    match status {
        cublasStatus_t::CUBLAS_STATUS_SUCCESS => Ok(()),
        e => Err(format!("cuBLAS GEMM: {e:?}")),
    }
}

/// Times GPU work with CUDA events on one stream.
struct Timer {
    start: cudarc::driver::CudaEvent,
    end: cudarc::driver::CudaEvent,
    stream: Arc<CudaStream>,
}

impl Timer {
    fn new(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>) -> Result<Timer, String> {
        let ev = || {
            ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| err("CUDA event", e))
        };
        Ok(Timer {
            start: ev()?,
            end: ev()?,
            stream: stream.clone(),
        })
    }

    /// Seconds the GPU spent on `work`.
    fn time(&self, work: impl FnOnce() -> Result<(), String>) -> Result<f64, String> {
        self.start
            .record(&self.stream)
            .map_err(|e| err("record", e))?;
        work()?;
        self.end
            .record(&self.stream)
            .map_err(|e| err("record", e))?;
        self.end.synchronize().map_err(|e| err("synchronize", e))?;
        let ms = self
            .start
            .elapsed_ms(&self.end)
            .map_err(|e| err("elapsed", e))?;
        Ok(f64::from(ms) / 1e3)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn without_a_gpu_it_says_so_and_does_not_panic() {
        // On a machine with a GPU this opens it; without one (CI), a message, not a panic.
        match super::available() {
            Ok(()) => {}
            Err(e) => assert!(e.contains("CUDA") || e.contains("cuBLAS"), "{e}"),
        }
    }
}
