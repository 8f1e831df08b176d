use super::*;

fn inputs(gpu: &Gpu, params: f64, bytes: f64, fp8: bool) -> DecodeInputs {
    DecodeInputs {
        hbm_bytes_per_s: gpu.hbm_bytes_per_s,
        peak_flops: if fp8 { gpu.fp8_flops } else { gpu.bf16_flops },
        params,
        bytes_per_param: bytes,
        kv_bytes_per_token: 0.0,
        context_tokens: 0.0,
    }
}

#[test]
fn llama_70b_fp8_on_h100_is_bounded_near_47_tokens_per_second() {
    // 70.6 GB of FP8 weights at 3.35 TB/s: 21.07 ms a step, 47.45 T/s.
    let d = inputs(&GPUS[0], 70.6e9, 1.0, true).step(1.0);
    assert!((d.memory_s - 70.6e9 / 3.35e12).abs() < 1e-15);
    assert!(
        (d.per_stream_tps - 47.45).abs() < 0.01,
        "{}",
        d.per_stream_tps
    );
    assert!(!d.compute_bound);
}

#[test]
fn llama_8b_bf16_on_h200_is_bounded_at_300_tokens_per_second() {
    // 16 GB at 4.8 TB/s: 3.33 ms a step, 300 T/s.
    let d = inputs(&GPUS[1], 8e9, 2.0, false).step(1.0);
    assert!(
        (d.per_stream_tps - 300.0).abs() < 1e-9,
        "{}",
        d.per_stream_tps
    );
}

#[test]
fn a_big_batch_becomes_compute_bound_where_the_formula_says() {
    // 8B FP8 on H100 without KV: B* = (W/BW) / (2P/F) = (8e9/3.35e12) / (16e9/1.979e15) ≈ 295.4
    let m = inputs(&GPUS[0], 8e9, 1.0, true);
    let b = m.compute_bound_batch().unwrap();
    assert!((b - (8e9 / 3.35e12) / (16e9 / 1979e12)).abs() < 1e-9);
    assert!((b - 295.4).abs() < 0.1, "{b}");
    assert!(!m.step(256.0).compute_bound);
    let s = m.step(512.0);
    assert!(s.compute_bound);
    assert!((s.step_s - 2.0 * 8e9 * 512.0 / 1979e12).abs() < 1e-15);
    // Past the knee system T/s stops growing: peak / (2 × params).
    assert!((s.system_tps - 1979e12 / 16e9).abs() < 1e-6);
}

#[test]
fn kv_cache_reads_lower_the_bound_and_can_keep_it_bandwidth_bound() {
    let kv = kv_bytes_per_token(80, 8, 128, 2.0);
    assert_eq!(kv, 327_680.0, "Llama 3.1 70B, BF16 KV: 320 KiB per token");
    let mut m = inputs(&GPUS[0], 70.6e9, 1.0, true);
    let bare = m.step(64.0).per_stream_tps;
    m.kv_bytes_per_token = kv;
    m.context_tokens = 4096.0;
    let with_kv = m.step(64.0);
    assert!(with_kv.per_stream_tps < bare);
    assert!((with_kv.bytes - (70.6e9 + 64.0 * 4096.0 * kv)).abs() < 1.0);
    // 4k tokens × 320 KiB read per sequence outgrow its compute: never compute-bound.
    assert_eq!(m.compute_bound_batch(), None);
}

#[test]
fn system_grows_almost_n_fold_while_per_stream_barely_moves() {
    let m = inputs(&GPUS[0], 70.6e9, 1.0, true);
    let (one, many) = (m.step(1.0), m.step(64.0));
    assert_eq!(
        one.per_stream_tps, many.per_stream_tps,
        "no KV: the weight read is shared"
    );
    assert!((many.system_tps / one.system_tps - 64.0).abs() < 1e-9);
}

#[test]
fn int4_weights_compute_at_the_bf16_peak() {
    let g = &GPUS[0];
    assert_eq!(g.peak_for(1.0), g.fp8_flops);
    assert_eq!(g.peak_for(2.0), g.bf16_flops);
    assert_eq!(g.peak_for(0.5), g.bf16_flops);
}

#[test]
fn presets_are_consistent() {
    for g in GPUS {
        assert!(g.fp8_flops >= g.bf16_flops && g.hbm_bytes_per_s > 1e12 && !g.source.is_empty());
    }
    assert_eq!(
        batch_grid(128.0),
        vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]
    );
}

#[test]
fn gpus_together_add_bandwidth_and_flops_and_a_bad_count_is_no_machine() {
    // Eight H100s (3.35 TB/s, 989 TFLOP/s BF16 each, from the table): 26.8 TB/s and 7,912 TFLOP/s;
    // one 70.6 GB FP8 model's weights then read in 70.6e9 / 26.8e12 s a step.
    let h100 = &GPUS[0];
    let (hbm, flops) = gpus_together(h100.hbm_bytes_per_s, h100.bf16_flops, 8.0);
    assert_eq!(hbm, 8.0 * 3.35e12);
    assert_eq!(flops, 8.0 * h100.bf16_flops);
    let one = gpus_together(h100.hbm_bytes_per_s, h100.bf16_flops, 1.0);
    assert_eq!(one, (h100.hbm_bytes_per_s, h100.bf16_flops));
    for bad in [0.0, -2.0, f64::NAN, f64::INFINITY] {
        let (h, f) = gpus_together(h100.hbm_bytes_per_s, h100.bf16_flops, bad);
        assert!(h.is_nan() && f.is_nan(), "{bad}: {h} {f}");
    }
}
