//! The analysis's `energy` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use tpsview_core::energy::*;
use tpsview_core::model::Telemetry;

fn figures(kv: &[(&str, f64)]) -> BTreeMap<String, f64> {
    kv.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

/// GPU telemetry of `energy_j` joules and `mean_power_w` watts, no window.
fn gpus(energy_j: Option<f64>, mean_power_w: Option<f64>) -> Telemetry {
    Telemetry {
        energy_j,
        mean_power_w,
        window_s: None,
    }
}

#[test]
fn the_energy_counter_gives_joules_per_token_and_its_inverse() {
    // 1,000 J for 2,000 tokens: 0.5 J a token, 2 tokens a joule; 100 W × 10 s agrees.
    let f = gpus(Some(1000.0), Some(100.0));
    let labels = BTreeMap::from([(GPUS_LABEL.to_owned(), "1 GPU: X".to_owned())]);
    let e = of(
        "aiperf",
        Some(&f),
        &BTreeMap::new(),
        &labels,
        None,
        Some(2000.0),
        Some(10.0),
        None,
    )
    .expect("energy");
    assert_eq!(e.basis, "energy counter");
    assert_eq!(
        (e.joules_per_output_token, e.output_tokens_per_joule),
        (0.5, 2.0)
    );
    assert_eq!(e.gpus.as_deref(), Some("1 GPU: X"));
    assert_eq!(e.note, None);
    // 100 W × 12.5 s = 1,250 J against the counter's 1,000: 20 % apart, named; the counter kept.
    let e = of(
        "aiperf",
        Some(&f),
        &BTreeMap::new(),
        &labels,
        None,
        Some(2000.0),
        Some(12.5),
        None,
    )
    .expect("energy");
    assert_eq!(e.joules, Some(1000.0));
    assert!(e.note.expect("20 %").contains("(20 % apart)"));
}

#[test]
fn power_alone_is_power_times_the_levels_duration_and_said_so() {
    let f = gpus(None, Some(300.0));
    let e = of(
        "aiperf",
        Some(&f),
        &BTreeMap::new(),
        &BTreeMap::new(),
        None,
        Some(600.0),
        Some(4.0),
        None,
    )
    .expect("energy");
    assert_eq!(e.basis, "mean power × duration");
    assert_eq!(e.joules, Some(1200.0));
    assert_eq!(e.joules_per_output_token, 2.0);
    assert!(e.note.expect("said").contains("no energy counter"));
    // Without a duration there is nothing to multiply.
    assert_eq!(
        of(
            "aiperf",
            Some(&f),
            &BTreeMap::new(),
            &BTreeMap::new(),
            None,
            Some(600.0),
            None,
            None
        ),
        None
    );
}

#[test]
fn inferencex_keeps_its_own_joules_per_output_token_and_audits_it() {
    let ix = tpsview_core::formats::inferencex::ID;
    let none = BTreeMap::new();
    // Before avg_total_gpu_power_w: 700 W per GPU × 8 GPUs = 5,600 W over 20,000 T/s = 0.28 J a
    // token, the file's own figure to the bit: kept, 0 % apart, no note.
    let f = figures(&[("joules_per_output_token", 0.28), ("avg_power_w", 700.0)]);
    let e = of(ix, None, &f, &none, Some(8), None, None, Some(20_000.0)).expect("energy");
    assert_eq!(e.basis, "the tool's");
    assert_eq!(e.joules_per_output_token, 0.28);
    assert!((e.output_tokens_per_joule - 1.0 / 0.28).abs() < 1e-12);
    assert_eq!(e.mean_power_w, Some(5600.0));
    assert!(e.apart_pct.expect("audited") < 1e-9, "{e:?}");
    assert_eq!(e.note, None);
    assert!(e.gpus.as_deref().unwrap().contains("8 GPUs"));
    // The whole deployment's power where the file has it (not per GPU × the count): 4,000 W ÷
    // 20,000 T/s = 0.2 J against the file's 0.25: 20 % under, named.
    let f = figures(&[
        ("joules_per_output_token", 0.25),
        ("avg_power_w", 700.0),
        ("avg_total_gpu_power_w", 4000.0),
        ("total_gpu_energy_j", 120_000.0),
    ]);
    let e = of(ix, None, &f, &none, Some(8), None, None, Some(20_000.0)).expect("energy");
    assert_eq!(e.mean_power_w, Some(4000.0));
    assert_eq!(e.joules, Some(120_000.0));
    assert!((e.apart_pct.unwrap() - 20.0).abs() < 1e-9, "{e:?}");
    let note = e.note.expect("named");
    assert!(
        note.contains("0.2000 (-20.0 %)") && note.contains("decode GPUs"),
        "{note}"
    );
    // Per-GPU power with no GPU count: kept, not audited, never a made-up total.
    let f = figures(&[("joules_per_output_token", 0.25), ("avg_power_w", 700.0)]);
    let e = of(ix, None, &f, &none, None, None, None, Some(20_000.0)).expect("energy");
    assert_eq!((e.mean_power_w, e.apart_pct), (None, None));
    // A measurement InferenceX marked invalid is no energy.
    let f = figures(&[("joules_per_output_token", 0.25), ("power_valid", 0.0)]);
    assert_eq!(
        of(ix, None, &f, &none, Some(8), None, None, Some(1.0)),
        None
    );
    // The same keys under another tool are not InferenceX's.
    let f = figures(&[("joules_per_output_token", 0.25)]);
    assert_eq!(of("vllm", None, &f, &none, Some(8), None, None, None), None);
}

#[test]
fn no_tokens_or_no_usable_energy_is_no_energy_never_zero() {
    let f = gpus(Some(1000.0), None);
    assert_eq!(
        of(
            "aiperf",
            Some(&f),
            &BTreeMap::new(),
            &BTreeMap::new(),
            None,
            None,
            Some(1.0),
            None
        ),
        None
    );
    assert_eq!(
        of(
            "aiperf",
            Some(&f),
            &BTreeMap::new(),
            &BTreeMap::new(),
            None,
            Some(0.0),
            Some(1.0),
            None
        ),
        None
    );
    for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
        let f = gpus(Some(bad), None);
        assert_eq!(
            of(
                "aiperf",
                Some(&f),
                &BTreeMap::new(),
                &BTreeMap::new(),
                None,
                Some(10.0),
                Some(1.0),
                None
            ),
            None,
            "{bad}"
        );
    }
    assert_eq!(
        of(
            "aiperf",
            None,
            &BTreeMap::new(),
            &BTreeMap::new(),
            None,
            Some(10.0),
            Some(1.0),
            None
        ),
        None
    );
}

#[test]
fn genai_perf_energy_is_over_its_whole_run_and_said_to_be() {
    let f = gpus(Some(9000.0), Some(400.0));
    let genai = tpsview_core::formats::genai_perf::SUMMARY_ID;
    // Tokens known: the counter over them, an upper bound.
    let e = of(
        genai,
        Some(&f),
        &BTreeMap::new(),
        &BTreeMap::new(),
        None,
        Some(3000.0),
        None,
        Some(500.0),
    )
    .expect("energy");
    assert_eq!(
        (e.basis, e.joules_per_output_token),
        ("energy counter", 3.0)
    );
    assert!(e.note.as_deref().unwrap().contains("upper bound"));
    // A summary alone (no count): 400 W over 500 T/s = 0.8 J a token.
    let e = of(
        genai,
        Some(&f),
        &BTreeMap::new(),
        &BTreeMap::new(),
        None,
        None,
        None,
        Some(500.0),
    )
    .expect("energy");
    assert_eq!(
        (e.basis, e.joules_per_output_token),
        ("mean power ÷ output T/s", 0.8)
    );
    assert!((e.output_tokens_per_joule - 1.25).abs() < 1e-12);
    // Neither: none, never 0.
    assert_eq!(
        of(
            genai,
            Some(&f),
            &BTreeMap::new(),
            &BTreeMap::new(),
            None,
            None,
            None,
            None
        ),
        None
    );
}
