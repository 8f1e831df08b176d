//! The analysis's `probe` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::probe::*;

fn probe(levels: Vec<(u32, Vec<f64>)>) -> Probe {
    Probe {
        backend: "cpu".into(),
        device: "Test CPU".into(),
        dtype: "f32".into(),
        bytes_per_weight: 4.0,
        weight_bytes: 64 << 20,
        shape: (4096, 4096),
        bandwidth: Some(16e9),
        peak_flops: Some(100e9),
        threads: 2,
        steps: 5,
        warmup: 2,
        labels: [("date".to_owned(), "2026-12-01T04:00:00Z".to_owned())].into(),
        levels,
        power: Err("no RAPL package domain under /nowhere".into()),
        step_joules: Vec::new(),
    }
}

#[test]
fn step_statistics_are_numpy_linear_and_skip_unusable_times() {
    // By hand: sorted 1, 2, 3, 4, 10 → mean 4, median 3, p90 = 4 + 0.6 × 6 = 7.6.
    let s = step_stats(&[4.0, 1.0, f64::NAN, 10.0, 3.0, 2.0, 0.0, -1.0]).unwrap();
    assert_eq!((s.mean, s.median), (4.0, 3.0));
    assert!((s.p90 - 7.6).abs() < 1e-12, "{}", s.p90);
    assert_eq!(step_stats(&[f64::NAN, 0.0]), None);
}

#[test]
fn the_report_is_tpsview_1_with_the_batch_as_its_axis() {
    let p = probe(vec![
        (1, vec![0.004, 0.005, 0.006]),
        (8, vec![0.006, 0.006, 0.007]),
        (64, vec![0.02, 0.021, 0.022]),
    ]);
    let r = p.report();
    let run = &r.runs[0];
    assert_eq!(run.axis.as_deref(), Some("batch"));
    assert_eq!(run.meta.labels["bandwidth_gbs"], "16.00");
    assert_eq!(run.meta.labels["peak_gflops"], "100.0");
    // Model knee: 4 bytes × 100 GFLOP/s / (2 × 16 GB/s) = 12.5.
    assert_eq!(run.meta.labels["knee_model_batch"], "12.5");
    // Measured: batch 64's 21 ms is the first ≥ 2 × batch 1's 5 ms.
    assert_eq!(run.meta.labels["knee_measured_batch"], "64");
    let at8 = &run.points[1].reported.figures;
    assert_eq!(at8["per_stream_tps"], 1.0 / 0.006);
    assert_eq!(at8["system_tps"], 8.0 / 0.006);
    // Bound at 8: max(64 MiB / 16 GB/s, 2 × 8 × 4096² / 100 GFLOP/s) = read time.
    let read = (64u64 << 20) as f64 / 16e9;
    assert!((at8["bound_step_ms"] - read * 1e3).abs() < 1e-9);
    // Round trip through tpsview/1, and the summary reads the figures as tpsview's.
    let text = tpsview_core::formats::tpsview::write(&r);
    let back = tpsview_core::formats::parse_any("probe.json", text.as_bytes()).unwrap();
    let s = tpsview_core::summary::summarize(vec![back], &tpsview_core::MetricOptions::default());
    let pt = &s.runs[0].points[2];
    assert_eq!(pt.metrics.concurrency, Some(64.0));
    assert_eq!(pt.metrics.system_tps, Some(64.0 / 0.021));
    assert_eq!(pt.metrics.tpot_ms.p50, Some(21.0));
}

#[test]
fn a_probe_report_gives_the_decode_model_its_measured_inputs() {
    let p = probe(vec![(1, vec![0.005]), (64, vec![0.021])]);
    let run = &p.report().runs[0];
    let d = decode_inputs(&run.meta).expect("a probe's metadata");
    assert_eq!(d.hbm_bytes_per_s, 16e9);
    assert_eq!(d.peak_flops, 100e9);
    assert_eq!(d.bytes_per_param, 4.0);
    assert_eq!(d.params, (64u64 << 20) as f64 / 4.0);
    assert_eq!(d.kv_bytes_per_token, 0.0);
    // The model's step at batch 1 is the probe's own bound (reading the weights once).
    let at1 = d.step(1.0);
    let bound = p.bound_step(1).unwrap();
    assert!(
        (at1.step_s - bound).abs() < 1e-12,
        "{} vs {bound}",
        at1.step_s
    );
    assert_eq!(
        decode_inputs(&tpsview_core::model::Metadata::default()),
        None
    );
}

#[test]
fn energy_per_step_becomes_joules_per_token_and_power_and_the_energy_card() {
    // Batch 1: 2 J a step over 10 ms steps; batch 8: 4 J a step over 20 ms — 0.5 J a token.
    let mut p = probe(vec![(1, vec![0.01; 5]), (8, vec![0.02; 5])]);
    p.power = Ok("RAPL package-0 (Linux powercap)".into());
    p.step_joules = vec![Some(2.0), Some(4.0)];
    let report = p.report();
    let run = &report.runs[0];
    assert_eq!(
        run.meta.labels[POWER_LABEL],
        "RAPL package-0 (Linux powercap)"
    );
    let f = |k: usize, key: &str| run.points[k].reported.figures.get(key).copied();
    assert_eq!(f(0, "energy_j_per_token"), Some(2.0));
    assert_eq!(f(1, "energy_j_per_token"), Some(0.5));
    assert!((f(1, "power_w").unwrap() - 200.0).abs() < 1e-9);
    // The summary's energy: the probe's own figure, per token, with its source.
    let text = tpsview_core::formats::tpsview::write(&report);
    let parsed = tpsview_core::parse_any("probe.json", text.as_bytes()).unwrap();
    let s = tpsview_core::summarize(
        vec![parsed],
        &tpsview_core::metrics::MetricOptions::default(),
    );
    let e = s.runs[0].points[1].energy.as_ref().expect("energy");
    assert_eq!(e.joules_per_output_token, 0.5);
    assert_eq!(e.output_tokens_per_joule, 2.0);
    assert_eq!(e.gpus.as_deref(), Some("RAPL package-0 (Linux powercap)"));
    // Not readable: said in the label, no energy figure, no energy in the summary.
    let q = probe(vec![(1, vec![0.01; 5])]).report();
    assert!(q.runs[0].meta.labels[POWER_LABEL].starts_with("not readable: "));
    assert!(!q.runs[0].points[0]
        .reported
        .figures
        .contains_key("energy_j_per_token"));
}
