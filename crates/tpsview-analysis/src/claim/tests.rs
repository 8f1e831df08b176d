use super::*;
use crate::roofline::{DecodeInputs, GPUS};

fn setup(gpu: usize, params: f64, bytes: f64, fp8: bool, gpus: f64) -> DecodeInputs {
    let g = &GPUS[gpu];
    DecodeInputs {
        hbm_bytes_per_s: g.hbm_bytes_per_s * gpus,
        peak_flops: g.peak_for(if fp8 { 1.0 } else { bytes }) * gpus,
        params,
        bytes_per_param: bytes,
        kv_bytes_per_token: 0.0,
        context_tokens: 0.0,
    }
}

#[test]
fn classifies_a_table_of_claims() {
    // (claim, gpu, params, bytes/param, fp8, gpus, verdict)
    let cases = [
        (50.0, 0, 70.6e9, 1.0, true, 1.0, Verdict::PerStream), // the brief's batch-1 figure
        (4000.0, 0, 70.6e9, 1.0, true, 1.0, Verdict::System),  // the brief's batch-128 figure
        (45.0, 0, 70.6e9, 1.0, true, 1.0, Verdict::PerStream),
        (250.0, 1, 8e9, 2.0, false, 1.0, Verdict::PerStream), // under 300 on H200
        (1500.0, 1, 8e9, 2.0, false, 1.0, Verdict::System),
        (40000.0, 0, 70.6e9, 1.0, true, 1.0, Verdict::Impossible), // over 1,979e12 / 141e9 ≈ 14,000
        (40000.0, 0, 70.6e9, 1.0, true, 8.0, Verdict::System),     // eight GPUs
        (20.0, 2, 405e9, 0.5, false, 1.0, Verdict::System), // 405B INT4 on A100: bound ≈ 10 T/s
    ];
    for (claim, gpu, params, bytes, fp8, n, want) in cases {
        let r = read_claim(claim, &setup(gpu, params, bytes, fp8, n)).unwrap();
        assert_eq!(
            r.verdict, want,
            "{claim} T/s on {}× {} ({params}, {bytes} B)",
            n, GPUS[gpu].name
        );
    }
}

#[test]
fn shows_its_arithmetic() {
    let r = read_claim(4000.0, &setup(0, 70.6e9, 1.0, true, 1.0)).unwrap();
    assert!((r.single_stream_bound - 47.45).abs() < 0.01);
    assert!((r.min_streams - 4000.0 / 47.45).abs() < 0.1);
    assert!(r.steps[1].contains("= 47.5 tokens/s"), "{}", r.steps[1]);
    assert!(r.steps[0].contains("70.6 GB"), "{}", r.steps[0]);
}

#[test]
fn nonsense_input_gives_no_reading() {
    assert!(read_claim(-5.0, &setup(0, 70.6e9, 1.0, true, 1.0)).is_none());
    assert!(read_claim(f64::NAN, &setup(0, 70.6e9, 1.0, true, 1.0)).is_none());
    assert!(read_claim(5.0, &setup(0, 0.0, 1.0, true, 1.0)).is_none());
}

#[test]
fn a_per_user_claim_is_read_against_one_streams_bound_and_names_its_tail() {
    // 70.6B FP8 on an H100 (3.35 TB/s): bound 3.35e12 / 70.6e9 = 47.45 T/s.
    let d = setup(0, 70.6e9, 1.0, true, 1.0);
    let r = read_claim(30.0, &d).unwrap();
    let w = per_user_words(30.0, &r);
    assert!(w.starts_with("Can be tokens/s per user: 63 % of"), "{w}");
    assert!(w.contains("slow tail") && w.contains("fastest 10 %"), "{w}");
    // "114 tok/s/user" for that model and GPU: 2.4 × what one stream can decode.
    let r = read_claim(114.0, &d).unwrap();
    let w = per_user_words(114.0, &r);
    assert!(
        w.starts_with("Not one user's rate on this hardware: 2.4 ×"),
        "{w}"
    );
    assert!(w.contains("fast-tail p90"), "{w}");
}
