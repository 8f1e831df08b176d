//! `tpsview probe --backend cuda`: the decode step as a cuBLAS GEMM on an NVIDIA GPU. The weights
//! (K × N, `dtype`) stay in device memory; each step multiplies a batch of B activation vectors by
//! them (one read of the weights for the whole batch), timed with CUDA events over `steps` after a
//! warm-up. Also measured: the device's copy bandwidth (a device-to-device copy of the weights,
//! read + write) and its peak multiply rate (an 8192³ GEMM in the same dtype).
//!
//! f32, f16 and bf16 multiply with `cublasGemmEx` (f32 accumulation, output in the same type);
//! fp8 (E4M3 weights and activations, bf16 output, f32 accumulation) with cuBLASLt's matmul in the
//! layout cuBLASLt requires for fp8 (A transposed), on GPUs of compute capability 8.9 or newer.
//!
//! CUDA's driver and cuBLAS are loaded at run time (cudarc's dynamic loading): this crate builds
//! on any machine, and on one without a GPU [`available`] says so instead of failing to link.

use std::sync::Arc;

pub mod power;

use cudarc::cublas::sys::{
    cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cublasStatus_t, cudaDataType,
};
use cudarc::cublas::CudaBlas;
use cudarc::cublaslt::{result as lt, sys as ltsys, CudaBlasLT, MatmulShared};
use cudarc::driver::{
    sys::CUevent_flags, CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr,
    ValidAsZeroBits,
};

/// Weight element types the GPU multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// 32-bit float.
    F32,
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
    /// 8-bit float, E4M3 (OCP FP8): weights and activations; the product is written in bf16.
    Fp8,
}

impl Dtype {
    /// Bytes per element of the weights.
    pub fn bytes(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
            Dtype::Fp8 => 1,
        }
    }
}

/// The lowest compute capability with fp8 tensor cores (Ada Lovelace; Hopper is 9.0).
pub const FP8_CAPABILITY: (i32, i32) = (8, 9);

/// An f32 as OCP FP8 E4M3 bits: 1 sign, 4 exponent (bias 7), 3 mantissa bits; rounded to nearest
/// (ties to even), saturated to ±448 (E4M3 has no infinity), NaN as 0x7F.
pub fn e4m3(x: f32) -> u8 {
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    if x.is_nan() {
        return 0x7F;
    }
    let a = x.abs();
    if a >= 448.0 {
        return sign | 0x7E;
    }
    // The spacing of representable values around `a`: 2^(e - 3) for a normal 2^e ≤ a < 2^(e+1)
    // (e ≥ -6), 2^-9 below 2^-6 (subnormals).
    let e = if a < f32::from_bits(0x3C80_0000) {
        -6 // 2^-6: subnormal spacing
    } else {
        (a.to_bits() >> 23) as i32 - 127
    };
    let step = f32::from_bits(((e - 3 + 127) as u32) << 23);
    let q = (a / step).round_ties_even(); // an integer: exact in f32
    let mut units = q as u32; // a = units · step after rounding
    let mut e = e;
    if units == 16 && e >= -6 {
        // Rounded up to the next power of two.
        units = 8;
        e += 1;
    }
    if units >= 8 {
        // Normal: exponent field e + 7, mantissa units - 8.
        let v = (((e + 7) as u32) << 3) | (units - 8);
        sign | (v.min(0x7E) as u8)
    } else {
        // Subnormal (e = -6): mantissa = units, exponent field 0.
        sign | units as u8
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
    /// How the GPU's energy is read (NVML), or why it is not.
    pub power: Result<String, String>,
    /// Joules per step at each level, where NVML gave them.
    pub step_joules: Vec<Option<f64>>,
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
            Dtype::F16 => half::f16::from_f32(x).to_bits(),
            _ => half::bf16::from_f32(x).to_bits(),
        }
    }
}
impl Element for u8 {
    fn of(x: f32, _: Dtype) -> Self {
        e4m3(x)
    }
}

impl Dtype {
    fn cuda(self) -> cudaDataType {
        match self {
            Dtype::F32 => cudaDataType::CUDA_R_32F,
            Dtype::F16 => cudaDataType::CUDA_R_16F,
            Dtype::Bf16 => cudaDataType::CUDA_R_16BF,
            Dtype::Fp8 => cudaDataType::CUDA_R_8F_E4M3,
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
    let power = pci_bus(&ctx).and_then(|bus| power::Power::open(&bus));
    let job = Job {
        dtype,
        weights_mb,
        batches,
        steps,
        warmup,
        device,
        driver,
        power,
    };
    let stream = ctx.default_stream();
    match dtype {
        Dtype::F32 => {
            let blas = CudaBlas::new(stream.clone()).map_err(|e| err("cuBLAS", e))?;
            measure::<f32, f32>(&ctx, &stream, job, |shape| {
                Ok(Plan::Ex(&blas, dtype, shape))
            })
        }
        Dtype::F16 | Dtype::Bf16 => {
            let blas = CudaBlas::new(stream.clone()).map_err(|e| err("cuBLAS", e))?;
            measure::<u16, u16>(&ctx, &stream, job, |shape| {
                Ok(Plan::Ex(&blas, dtype, shape))
            })
        }
        Dtype::Fp8 => {
            let cap = capability(&ctx)?;
            if cap < FP8_CAPABILITY {
                return Err(format!(
                    "--dtype fp8: {} is compute capability {}.{}; fp8 tensor cores need {}.{} or newer (Ada, Hopper, Blackwell): measure bf16 or f16",
                    job.device, cap.0, cap.1, FP8_CAPABILITY.0, FP8_CAPABILITY.1
                ));
            }
            // SAFETY: cuBLASLt must be loadable before any of its calls (cudarc's dynamic loading
            // panics otherwise); this only tries to open the library.
            #[allow(unsafe_code)]
            if !unsafe { ltsys::is_culib_present() } {
                return Err("--dtype fp8: cuBLASLt (libcublasLt) could not be loaded".into());
            }
            let handle = CudaBlasLT::new(stream.clone()).map_err(|e| err("cuBLASLt", e))?;
            // cuBLASLt's recommended workspace on Hopper (32 MiB; 4 MiB suffice before it).
            let workspace = stream
                .alloc_zeros::<u8>(32 << 20)
                .map_err(|e| err("allocate", e))?;
            measure::<u8, u16>(&ctx, &stream, job, |shape| {
                LtPlan::new(&handle, &workspace, shape).map(Plan::Lt)
            })
        }
    }
}

/// The device's PCI bus id as NVML names it (`00000000:19:00.0`): NVML's own GPU order need not be
/// CUDA's (`CUDA_VISIBLE_DEVICES`).
fn pci_bus(ctx: &Arc<CudaContext>) -> Result<String, String> {
    use cudarc::driver::sys::CUdevice_attribute as A;
    let get = |a| ctx.attribute(a).map_err(|e| err("PCI bus id", e));
    Ok(format!(
        "{:08X}:{:02X}:{:02X}.0",
        get(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
        get(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        get(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?
    ))
}

/// The device's compute capability (major, minor).
fn capability(ctx: &Arc<CudaContext>) -> Result<(i32, i32), String> {
    use cudarc::driver::sys::CUdevice_attribute as A;
    let get = |a| ctx.attribute(a).map_err(|e| err("compute capability", e));
    Ok((
        get(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        get(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
    ))
}

/// What to measure, and the device's names for the report.
struct Job<'a> {
    dtype: Dtype,
    weights_mb: u64,
    batches: &'a [u32],
    steps: usize,
    warmup: usize,
    device: String,
    driver: String,
    power: Result<power::Power, String>,
}

/// Measures with inputs of element `T` and products of element `O`; `plan` readies one GEMM
/// shape (m, n, k) before it is timed.
fn measure<'p, T: Element, O: Element>(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    job: Job,
    plan: impl Fn((usize, usize, usize)) -> Result<Plan<'p>, String>,
) -> Result<Measured, String> {
    let dtype = job.dtype;
    // Square weights of about weights_mb, a multiple of 256 wide (tensor-core friendly; fp8's
    // leading dimensions must be multiples of 16).
    let elems = (job.weights_mb << 20) as usize / dtype.bytes();
    let side = (((elems as f64).sqrt() as usize) / 256).max(1) * 256;
    let (k, n) = (side, side);
    let host: Vec<T> = (0..k * n)
        .map(|i| T::of((i % 97) as f32 * 1e-3, dtype))
        .collect();
    let w = stream
        .clone_htod(&host)
        .map_err(|e| err("copy the weights", e))?;
    drop(host);
    let timer = Timer::new(ctx, stream)?;
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
    let alloc = |len: usize| stream.alloc_zeros::<T>(len).map_err(|e| err("allocate", e));
    let (a, b) = (alloc(p * p)?, alloc(p * p)?);
    let mut c = stream
        .alloc_zeros::<O>(p * p)
        .map_err(|e| err("allocate", e))?;
    let square = plan((p, p, p))?;
    let mut best = f64::INFINITY;
    for _ in 0..4 {
        let t = timer.time(|| square.launch(stream, &a, &b, &mut c))?;
        best = best.min(t);
    }
    drop((square, a, b, c));
    let peak_flops = 2.0 * (p * p * p) as f64 / best;
    // The decode steps: Y (B × N) = X (B × K) · W (K × N).
    let mut levels = Vec::new();
    let mut step_joules = Vec::new();
    for &batch in job.batches {
        let bsz = batch as usize;
        let x = stream
            .clone_htod(&vec![T::of(0.01, dtype); bsz * k])
            .map_err(|e| err("copy the activations", e))?;
        let mut y = stream
            .alloc_zeros::<O>(bsz * n)
            .map_err(|e| err("allocate", e))?;
        let step_plan = plan((n, bsz, k))?;
        let mut times = Vec::with_capacity(job.steps);
        for step in 0..job.warmup + job.steps {
            let t = timer.time(|| step_plan.launch(stream, &w, &x, &mut y))?;
            if step >= job.warmup {
                times.push(t);
            }
        }
        // The same step again over NVML's window, its energy counted (a failed reading leaves
        // this level without one, said by its absence).
        step_joules.push(job.power.as_ref().ok().and_then(|p| {
            p.over(power::ENERGY_WINDOW_S, || {
                timer
                    .time(|| step_plan.launch(stream, &w, &x, &mut y))
                    .map(|_| ())
            })
            .ok()
            .map(|e| e.joules_per_step)
        }));
        levels.push((batch, times));
    }
    Ok(Measured {
        device: job.device,
        driver: job.driver,
        shape: (k, n),
        bandwidth,
        peak_flops,
        levels,
        power: job.power.map(|p| p.describe()),
        step_joules,
    })
}

/// One GEMM shape (m, n, k), ready to launch: C (m × n, column-major) = op(A) (m × k) · B (k × n),
/// accumulated in f32. Row-major Y (B × N) = X (B × K) · W (K × N) is, column-major,
/// Yᵀ (N × B) = Wᵀ (N × K) · Xᵀ (K × B): `a` the weights, `b` the activations.
enum Plan<'a> {
    /// `cublasGemmEx`, A as stored (m × k): f32, f16 or bf16 in and out.
    Ex(&'a CudaBlas, Dtype, (usize, usize, usize)),
    /// cuBLASLt: fp8 E4M3 in, A transposed, bf16 out.
    Lt(LtPlan<'a>),
}

impl Plan<'_> {
    fn launch<T: Element, O: Element>(
        &self,
        stream: &Arc<CudaStream>,
        a: &CudaSlice<T>,
        b: &CudaSlice<T>,
        c: &mut CudaSlice<O>,
    ) -> Result<(), String> {
        let (m, n, k) = match self {
            Plan::Ex(_, _, shape) => *shape,
            Plan::Lt(p) => p.shape,
        };
        if a.len() < m * k || b.len() < k * n || c.len() < m * n {
            return Err("a matrix is smaller than its shape".into());
        }
        match self {
            Plan::Ex(blas, dtype, _) => {
                if size_of::<T>() != dtype.bytes() || size_of::<O>() != dtype.bytes() {
                    return Err("the element type does not match the dtype".into());
                }
                gemm_ex(blas, stream, *dtype, (m, n, k), a, b, c)
            }
            Plan::Lt(p) => {
                if size_of::<T>() != 1 || size_of::<O>() != 2 {
                    return Err("fp8 multiplies bytes into bf16".into());
                }
                p.launch(stream, a, b, c)
            }
        }
    }
}

/// `cublasGemmEx` with the sizes already checked against the buffers (see [`Plan::launch`]).
fn gemm_ex<T: Element, O: Element>(
    blas: &CudaBlas,
    stream: &Arc<CudaStream>,
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    a: &CudaSlice<T>,
    b: &CudaSlice<T>,
    c: &mut CudaSlice<O>,
) -> Result<(), String> {
    let (md, nd, kd) = (dim(m)?, dim(n)?, dim(k)?);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (pa, _ra) = a.device_ptr(stream);
    let (pb, _rb) = b.device_ptr(stream);
    let (pc, _rc) = c.device_ptr_mut(stream);
    let t = dtype.cuda();
    // SAFETY: the three device buffers hold at least m·k, k·n and m·n elements of `dtype`'s size
    // (both checked in Plan::launch), the leading dimensions are the row counts of contiguous
    // column-major matrices, `c` is borrowed mutably for the call, alpha and beta are host f32
    // values matching the f32 compute type, and the handle belongs to `blas`, alive for the call.
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

fn dim(x: usize) -> Result<i32, String> {
    i32::try_from(x).map_err(|_| format!("dimension {x} is too large"))
}

/// A cuBLASLt fp8 matmul of one shape: its descriptors and algorithm, chosen once (the choice
/// costs host time that must not fall between a step's events). cuBLASLt's fp8 rules: A and B
/// E4M3, A transposed ("TN"), m and k multiples of 16, f32 compute and scale; C and D bf16.
struct LtPlan<'a> {
    handle: &'a CudaBlasLT,
    workspace: &'a CudaSlice<u8>,
    shape: (usize, usize, usize),
    desc: ltsys::cublasLtMatmulDesc_t,
    layouts: [ltsys::cublasLtMatrixLayout_t; 3],
    algo: ltsys::cublasLtMatmulAlgo_t,
}

impl<'a> LtPlan<'a> {
    fn new(
        handle: &'a CudaBlasLT,
        workspace: &'a CudaSlice<u8>,
        (m, n, k): (usize, usize, usize),
    ) -> Result<LtPlan<'a>, String> {
        if m % 16 != 0 || k % 16 != 0 {
            return Err(format!("fp8: m = {m} and k = {k} must be multiples of 16"));
        }
        let e = |what: &'static str| move |x: lt::CublasError| err(what, x);
        let (m64, n64, k64) = (m as u64, n as u64, k as u64);
        let (mi, ki) = (m as i64, k as i64);
        let fp8 = ltsys::cudaDataType::CUDA_R_8F_E4M3;
        let bf16 = ltsys::cudaDataType::CUDA_R_16BF;
        // Built in order, so a failure part-way leaves the rest null: Drop frees what exists.
        let mut plan = LtPlan {
            handle,
            workspace,
            shape: (m, n, k),
            desc: std::ptr::null_mut(),
            layouts: [std::ptr::null_mut(); 3],
            // Plain integers, replaced by the heuristic's choice below.
            algo: ltsys::cublasLtMatmulAlgo_t { data: [0; 8] },
        };
        // A stored k × m (op T gives m × k), B k × n, C and D m × n; leading dimensions the rows.
        plan.layouts[0] = lt::create_matrix_layout(fp8, k64, m64, ki).map_err(e("layout A"))?;
        plan.layouts[1] = lt::create_matrix_layout(fp8, k64, n64, ki).map_err(e("layout B"))?;
        plan.layouts[2] = lt::create_matrix_layout(bf16, m64, n64, mi).map_err(e("layout C"))?;
        plan.desc = lt::create_matmul_desc(
            ltsys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            ltsys::cudaDataType::CUDA_R_32F,
        )
        .map_err(e("matmul descriptor"))?;
        let transpose = cublasOperation_t::CUBLAS_OP_T as i32;
        // SAFETY: the descriptor was just created; the attribute is an int32 operation, passed
        // by a pointer to a live i32 with its size.
        #[allow(unsafe_code)]
        unsafe {
            lt::set_matmul_desc_attribute(
                plan.desc,
                ltsys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
                (&transpose as *const i32).cast(),
                size_of::<i32>(),
            )
        }
        .map_err(e("transpose A"))?;
        let pref = Pref(lt::create_matmul_pref().map_err(e("matmul preference"))?);
        let bytes = workspace.len();
        // SAFETY: the preference was just created; the attribute is a u64 (size_t) byte count,
        // passed by a pointer to a live usize with its size (usize is 64-bit where CUDA runs).
        #[allow(unsafe_code)]
        unsafe {
            lt::set_matmul_pref_attribute(
                pref.0,
                ltsys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                (&bytes as *const usize).cast(),
                size_of::<usize>(),
            )
        }
        .map_err(e("workspace size"))?;
        // SAFETY: every descriptor passed is alive (created above, freed only by Drop); D uses
        // C's layout, as the matmul below does.
        #[allow(unsafe_code)]
        let heuristic = unsafe {
            lt::get_matmul_algo_heuristic(
                *handle.handle(),
                plan.desc,
                plan.layouts[0],
                plan.layouts[1],
                plan.layouts[2],
                plan.layouts[2],
                pref.0,
            )
        }
        .map_err(e("fp8 matmul: no cuBLASLt algorithm for this shape"))?;
        plan.algo = heuristic.algo;
        Ok(plan)
    }

    fn launch<T: Element, O: Element>(
        &self,
        stream: &Arc<CudaStream>,
        a: &CudaSlice<T>,
        b: &CudaSlice<T>,
        c: &mut CudaSlice<O>,
    ) -> Result<(), String> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        let (pc, _rc) = c.device_ptr_mut(stream);
        let (pw, _rw) = self.workspace.device_ptr(stream);
        // SAFETY: `a`, `b` hold at least k·m and k·n bytes and `c` m·n bf16 values (checked in
        // Plan::launch against this plan's shape, the shape its layouts were made for); `c` is
        // borrowed mutably for the call and is both C and D (beta = 0: read as zero weight);
        // alpha and beta are host f32 values matching the f32 scale type; the descriptors, the
        // algorithm and the workspace (its full length given) are this plan's and alive; the
        // stream is the one the buffers belong to.
        #[allow(unsafe_code)]
        unsafe {
            lt::matmul(
                *self.handle.handle(),
                self.desc,
                (&alpha as *const f32).cast(),
                (&beta as *const f32).cast(),
                pa as usize as *const std::ffi::c_void,
                self.layouts[0],
                pb as usize as *const std::ffi::c_void,
                self.layouts[1],
                pc as usize as *const std::ffi::c_void,
                self.layouts[2],
                pc as usize as *mut std::ffi::c_void,
                self.layouts[2],
                &self.algo,
                pw as usize as *mut std::ffi::c_void,
                self.workspace.len(),
                stream.cu_stream() as ltsys::cudaStream_t,
            )
        }
        .map_err(|x| err("cuBLASLt fp8 matmul", x))
    }
}

impl Drop for LtPlan<'_> {
    fn drop(&mut self) {
        // SAFETY: each handle was created by this plan and is freed once, here; null ones were
        // never created.
        #[allow(unsafe_code)]
        unsafe {
            for l in self.layouts {
                if !l.is_null() {
                    let _ = lt::destroy_matrix_layout(l);
                }
            }
            if !self.desc.is_null() {
                let _ = lt::destroy_matmul_desc(self.desc);
            }
        }
    }
}

/// A matmul preference, freed when dropped.
struct Pref(ltsys::cublasLtMatmulPreference_t);

impl Drop for Pref {
    fn drop(&mut self) {
        // SAFETY: created by create_matmul_pref and freed once, here.
        #[allow(unsafe_code)]
        unsafe {
            let _ = lt::destroy_matmul_pref(self.0);
        }
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
    use super::e4m3;

    /// E4M3 bits → value, from the OCP FP8 definition (bias 7, no infinities, S.1111.111 NaN).
    fn decode(b: u8) -> f32 {
        let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
        let (e, m) = (i32::from((b >> 3) & 0xF), f32::from(b & 7));
        if e == 0xF && b & 7 == 7 {
            return f32::NAN;
        }
        if e == 0 {
            sign * m / 8.0 * 2f32.powi(-6)
        } else {
            sign * (1.0 + m / 8.0) * 2f32.powi(e - 7)
        }
    }

    #[test]
    fn e4m3_matches_the_ocp_definition() {
        // Values from the OCP 8-bit floating point specification's E4M3 column.
        for (x, bits) in [
            (0.0f32, 0x00u8),
            (1.0, 0x38),
            (-2.0, 0xC0),
            (448.0, 0x7E),
            (2f32.powi(-6), 0x08),
            (2f32.powi(-9), 0x01),
            (7.0 * 2f32.powi(-9), 0x07),
        ] {
            assert_eq!(e4m3(x), bits, "{x}");
        }
        // Beyond the largest finite value: saturated (E4M3 has no infinity); NaN stays NaN.
        assert_eq!(e4m3(1e6), 0x7E);
        assert_eq!(e4m3(-f32::INFINITY), 0xFE);
        assert_eq!(e4m3(f32::NAN) & 0x7F, 0x7F);
        // Every finite code round-trips through its value.
        for b in 0..=255u8 {
            let v = decode(b);
            if v.is_finite() && !(v == 0.0 && b == 0x80) {
                assert_eq!(e4m3(v), b, "code {b:#04x} = {v}");
            }
        }
    }

    #[test]
    fn e4m3_rounds_to_the_nearest_code_ties_to_even() {
        let finite: Vec<f32> = (0..=0x7Eu8).map(decode).collect();
        // Every midpoint between neighbours goes to the even code; points just off it, to the
        // nearer one; a sweep of values lands on a nearest code.
        for w in 0..finite.len() - 1 {
            let (lo, hi) = (finite[w], finite[w + 1]);
            let mid = (lo + hi) / 2.0;
            let even = if w % 2 == 0 { w } else { w + 1 } as u8;
            assert_eq!(e4m3(mid), even, "tie between {lo} and {hi}");
            assert_eq!(e4m3(mid - (hi - lo) / 8.0), w as u8);
            assert_eq!(e4m3(mid + (hi - lo) / 8.0), (w + 1) as u8);
        }
        for i in 0..20_000 {
            let x = i as f32 * 0.0231;
            let got = decode(e4m3(x));
            let best = finite
                .iter()
                .map(|v| (v - x.min(448.0)).abs())
                .fold(f32::INFINITY, f32::min);
            assert_eq!((got - x.min(448.0)).abs(), best, "{x}");
        }
    }

    #[test]
    fn without_a_gpu_it_says_so_and_does_not_panic() {
        // On a machine with a GPU this opens it; without one (CI), a message, not a panic.
        match super::available() {
            Ok(()) => {}
            Err(e) => assert!(e.contains("CUDA") || e.contains("cuBLAS"), "{e}"),
        }
    }
}
