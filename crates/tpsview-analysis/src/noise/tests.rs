//! The statistics checked by simulation, not the code: runs drawn from a known distribution.

use super::intervals::interval;
use super::repeats::over_repeats;
use super::*;
use crate::model::RunName;

/// `n` TPOTs (seconds) drawn from a log-normal around `median` with σ = 0.2 (a level's requests
/// spread ~20 % around their typical step time), from `seed`.
fn tpots(n: usize, median: f64, seed: u64) -> Vec<f64> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            // Box–Muller.
            let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            median * (0.2 * z).exp()
        })
        .collect()
}

const TPOT_MEAN: Estimator = Estimator::Of(Series::Tpot, Stat::Mean);
const TPOT: Better = Better::Lower;

#[test]
fn with_no_shift_the_verdict_is_within_noise_in_at_least_95_percent_of_seeds() {
    let seeds = 200;
    let quiet = (0..seeds)
        .filter(|&s| {
            let a = tpots(200, 0.02, 2 * s);
            let b = tpots(200, 0.02, 2 * s + 1);
            let c = change(&a, &b, TPOT_MEAN, s).expect("a change");
            verdict(&c, TPOT, DEFAULT_THRESHOLD_PCT) == Verdict::WithinNoise
        })
        .count();
    eprintln!("no shift: within noise in {quiet} of {seeds} seeds");
    assert!(quiet * 100 >= 95 * seeds as usize, "{quiet} of {seeds}");
}

#[test]
fn a_10_percent_tpot_shift_over_200_requests_is_found_in_at_least_95_percent_of_seeds() {
    let seeds = 200;
    let found = (0..seeds)
        .filter(|&s| {
            let a = tpots(200, 0.02, 2 * s);
            let b = tpots(200, 0.022, 2 * s + 1);
            let c = change(&a, &b, TPOT_MEAN, s).expect("a change");
            verdict(&c, TPOT, DEFAULT_THRESHOLD_PCT) == Verdict::Regression
        })
        .count();
    eprintln!("10 % TPOT shift: a regression in {found} of {seeds} seeds");
    assert!(found * 100 >= 95 * seeds as usize, "{found} of {seeds}");
    // And the other way round it is an improvement.
    let a = tpots(200, 0.022, 1);
    let b = tpots(200, 0.02, 2);
    let c = change(&a, &b, TPOT_MEAN, 3).unwrap();
    assert_eq!(verdict(&c, TPOT, 2.0), Verdict::Improvement);
}

#[test]
fn the_interval_covers_the_true_change_at_its_nominal_rate() {
    // A 10 % shift of a log-normal's scale moves its mean by exactly 10 %.
    let seeds = 400u64;
    let covered = (0..seeds)
        .filter(|&s| {
            let a = tpots(200, 0.02, 1000 + 2 * s);
            let b = tpots(200, 0.022, 1001 + 2 * s);
            let c = change(&a, &b, TPOT_MEAN, s).expect("a change");
            c.low_pct <= 10.0 && 10.0 <= c.high_pct
        })
        .count() as f64
        / seeds as f64;
    eprintln!("coverage of the true 10 %: {covered} (nominal {CONFIDENCE})");
    assert!(
        (CONFIDENCE - 0.02..=CONFIDENCE + 0.02).contains(&covered),
        "coverage {covered}"
    );
}

#[test]
fn the_same_samples_give_the_same_bits() {
    let (a, b) = (tpots(300, 0.02, 7), tpots(300, 0.021, 8));
    let one = change(&a, &b, Estimator::Of(Series::Tpot, Stat::P99), 42);
    assert_eq!(
        one,
        change(&a, &b, Estimator::Of(Series::Tpot, Stat::P99), 42)
    );
    assert_ne!(
        one,
        change(&a, &b, Estimator::Of(Series::Tpot, Stat::P99), 43)
    );
}

#[test]
fn a_sure_change_under_the_threshold_or_an_unsure_one_over_it_is_noise() {
    let c = |change_pct, low_pct, high_pct| Change {
        change_pct,
        low_pct,
        high_pct,
        resamples: RESAMPLES,
    };
    assert_eq!(verdict(&c(1.5, 1.0, 2.0), TPOT, 2.0), Verdict::WithinNoise);
    assert_eq!(
        verdict(&c(5.0, -1.0, 11.0), TPOT, 2.0),
        Verdict::WithinNoise
    );
    assert_eq!(verdict(&c(5.0, 3.0, 7.0), TPOT, 2.0), Verdict::Regression);
    assert_eq!(
        verdict(&c(5.0, 3.0, 7.0), Better::Higher, 2.0),
        Verdict::Improvement
    );
    assert_eq!(
        verdict(&c(-5.0, -7.0, -3.0), Better::Higher, 2.0),
        Verdict::Regression
    );
    assert_eq!(verdict(&c(5.0, 3.0, 7.0), TPOT, 6.0), Verdict::WithinNoise);
}

#[test]
fn judging_runs_reads_their_requests_and_says_what_it_cannot_judge() {
    // The built-in example against itself with every TPOT 10 % longer at 16, and a level of 64
    // without requests.
    let base = crate::simulate::seed_report();
    let mut other = base.clone();
    other.runs[0].label = "slower".into();
    let at16 = other.runs[0]
        .points
        .iter()
        .position(|p| p.concurrency == Some(16.0))
        .unwrap();
    let r = other.runs[0].points[at16].requests.as_mut().unwrap();
    for i in 0..r.len() {
        let decode = r.e2e_s[i] - r.ttft_s[i];
        r.e2e_s[i] = r.ttft_s[i] + decode * 1.1;
    }
    let at64 = other.runs[0]
        .points
        .iter()
        .position(|p| p.concurrency == Some(64.0))
        .unwrap();
    other.runs[0].points[at64].requests = None;
    let report = Report {
        meta: base.meta.clone(),
        runs: vec![base.runs[0].clone(), other.runs[0].clone()],
    };
    let (runs, _) = crate::summary::summarize_report(&report, &Default::default());
    let summary = Summary {
        runs,
        diagnostics: Vec::new(),
    };
    let j = judge(&report, &summary, 0, &JudgeOptions::default());
    let at = |c: f64, m: Metric| {
        j.iter()
            .find(|x| x.concurrency == c && x.metric == m)
            .unwrap()
    };
    let tpot = Metric::Latency(Latency::Tpot, Stat::Mean);
    let t16 = at(16.0, tpot);
    assert_eq!(t16.verdict, Some(Verdict::Regression), "{t16:?}");
    // The point estimate is the summary's own figures' change.
    let (b, o) = (
        summary.runs[0].points[at16].get(tpot).unwrap(),
        summary.runs[1].points[at16].get(tpot).unwrap(),
    );
    assert!((t16.change.unwrap().change_pct - (o / b - 1.0) * 100.0).abs() < 1e-9);
    let ps = at(16.0, Metric::PerStreamTps);
    assert_eq!(ps.verdict, Some(Verdict::Regression));
    let (b, o) = (
        summary.runs[0].points[at16]
            .get(Metric::PerStreamTps)
            .unwrap(),
        summary.runs[1].points[at16]
            .get(Metric::PerStreamTps)
            .unwrap(),
    );
    assert!((ps.change.unwrap().change_pct - (o / b - 1.0) * 100.0).abs() < 1e-9);
    // TTFT did not move at 16: within noise (the same requests: a change of exactly 0).
    assert_eq!(
        at(16.0, Metric::Latency(Latency::Ttft, Stat::Mean)).verdict,
        Some(Verdict::WithinNoise)
    );
    // Not judged, with the reason.
    let sys = at(16.0, Metric::SystemTps);
    assert!(sys.verdict.is_none() && sys.not_judged.as_deref().unwrap().contains("repeats"));
    assert!(at(64.0, tpot)
        .not_judged
        .as_deref()
        .unwrap()
        .contains("no per-request data"));
}

#[test]
fn a_percentile_needs_enough_requests_beyond_it_to_be_judged() {
    let p99 = Estimator::Of(Series::Tpot, Stat::P99);
    assert!(too_few(p99, 499)
        .expect("too few")
        .contains("judged from 500"));
    assert_eq!(too_few(p99, 500), None);
    let p90 = Estimator::Of(Series::Tpot, Stat::P90);
    assert!(too_few(p90, 49).is_some());
    assert_eq!(too_few(p90, 50), None);
    assert!(too_few(TPOT_MEAN, 9).is_some());
    assert_eq!(too_few(TPOT_MEAN, 10), None);
    assert_eq!(too_few(Estimator::InverseMean(Series::Tpot), 10), None);
}

#[test]
fn judging_in_steps_gives_what_judging_at_once_gives_and_limits_are_said() {
    // The built-in example's run three times, the middle one 10 % slower to decode; judged
    // against the middle one (so the baseline is skipped between the others).
    let seed = crate::simulate::seed_report();
    let mut runs = vec![seed.runs[0].clone(); 3];
    for p in &mut runs[1].points {
        if let Some(r) = p.requests.as_mut() {
            for i in 0..r.len() {
                r.e2e_s[i] = r.ttft_s[i] + (r.e2e_s[i] - r.ttft_s[i]) * 1.1;
            }
        }
    }
    for (i, r) in runs.iter_mut().enumerate() {
        r.label = format!("run {i}").into();
    }
    let report = Report {
        meta: seed.meta.clone(),
        runs,
    };
    let summary = Summary {
        runs: crate::summary::summarize_report(&report, &Default::default()).0,
        diagnostics: Vec::new(),
    };
    let opts = JudgeOptions::default();
    let whole = judge(&report, &summary, 1, &opts);
    let levels = report.runs[0].points.len();
    assert_eq!(whole.len(), 2 * levels * opts.metrics.len());
    assert!(whole.iter().all(|j| j.run != summary.runs[1].id));
    let judged = whole.iter().filter(|j| j.change.is_some()).count();
    assert!(judged > 10, "{judged}");
    // In steps of one figure each (any value drawn ends a step): the same judgements, in the
    // same order, to the bit.
    let mut at = Cursor::default();
    let (mut out, mut calls) = (Vec::new(), 0);
    while !judge_some(&report, &summary, 1, &opts, &mut at, 1, &mut out) {
        calls += 1;
        assert!(calls <= whole.len());
    }
    assert_eq!(out, whole);
    assert!(
        calls == judged || calls + 1 == judged,
        "{calls} steps for {judged} figures"
    );
    // Every judged figure drew its resamples × its requests.
    let n = |j: &Judged| {
        let level = |r: usize| {
            let p = report.runs[r]
                .points
                .iter()
                .find(|p| p.concurrency == Some(j.concurrency));
            p.unwrap().requests.as_ref().unwrap().len()
        };
        level(1) + level(if j.run == summary.runs[0].id { 0 } else { 2 })
    };
    let drawn: usize = whole
        .iter()
        .filter_map(|j| j.change.map(|c| c.resamples * n(j)))
        .sum();
    assert_eq!(at.drawn, drawn);
    // A figure over the most one may draw: not judged, and said so.
    let capped = judge(
        &report,
        &summary,
        1,
        &JudgeOptions {
            max_cost: Some(1),
            ..JudgeOptions::default()
        },
    );
    assert!(capped.iter().all(|j| j.verdict.is_none()));
    let said = |js: &[Judged], what: &str| {
        js.iter()
            .filter(|j| j.not_judged.as_deref().is_some_and(|w| w.contains(what)))
            .count()
    };
    assert_eq!(
        said(&capped, "allowed here (`tpsview compare` judges it)"),
        judged
    );
    // A budget of a third of it: what is judged is judged as before; the rest is said.
    let budgeted = judge(
        &report,
        &summary,
        1,
        &JudgeOptions {
            budget: Some(drawn / 3),
            ..JudgeOptions::default()
        },
    );
    let kept: Vec<_> = budgeted.iter().filter(|j| j.change.is_some()).collect();
    assert!(
        !kept.is_empty() && kept.len() < judged,
        "{} of {judged}",
        kept.len()
    );
    assert!(kept.iter().all(|j| whole.contains(j)));
    assert_eq!(said(&budgeted, "budget of"), judged - kept.len());
}

#[test]
fn a_levels_interval_covers_the_true_mean_and_median_at_their_nominal_rate() {
    // A log-normal of median m and σ = 0.2: mean m·e^(σ²/2), median m (exactly).
    let (m, seeds) = (0.02f64, 200u64);
    let mean = m * (0.2f64 * 0.2 / 2.0).exp();
    let mut covered = [0usize; 2];
    for s in 0..seeds {
        let x = tpots(200, m, 5000 + s);
        let (lo, hi, n) = interval(&x, TPOT_MEAN, s).expect("an interval");
        assert_eq!(n, RESAMPLES);
        covered[0] += usize::from(lo <= mean && mean <= hi);
        let (lo, hi, _) =
            interval(&x, Estimator::Of(Series::Tpot, Stat::P50), s).expect("an interval");
        covered[1] += usize::from(lo <= m && m <= hi);
    }
    for (what, c) in ["mean", "median"].iter().zip(covered) {
        let rate = c as f64 / seeds as f64;
        eprintln!("coverage of the true {what}: {rate} (nominal {CONFIDENCE})");
        assert!(
            (CONFIDENCE - 0.02..=CONFIDENCE + 0.02).contains(&rate),
            "{what}: coverage {rate}"
        );
    }
}

#[test]
fn each_level_of_the_example_has_its_figures_inside_their_intervals() {
    let report = crate::simulate::seed_report();
    let (runs, _) = crate::summary::summarize_report(&report, &Default::default());
    let mut checked = 0;
    for (p, ps) in report.runs[0].points.iter().zip(&runs[0].points) {
        let li = level_intervals(p).expect("requests");
        let n = p.requests.as_ref().unwrap().len();
        for metric in LEVEL_METRICS {
            let key = metric.key();
            match (li.intervals.get(key), li.not_computed.get(key)) {
                (Some(&[lo, hi]), None) => {
                    let v = ps.get(metric).unwrap();
                    assert!(lo <= v && v <= hi, "{key} at {n}: {v} outside {lo} … {hi}");
                    assert!(lo <= hi, "{key} at {n}: {lo} … {hi}");
                    checked += 1;
                }
                (None, Some(why)) => assert!(why.contains("judged from"), "{key} at {n}: {why}"),
                other => panic!("{key} at {n}: {other:?}"),
            }
        }
        // A p99 needs 500 requests (5 beyond it).
        assert_eq!(li.intervals.contains_key("tpot_p99_ms"), n >= 500, "at {n}");
    }
    assert!(checked > 20, "{checked}");
    // The same level gives the same bits.
    assert_eq!(
        level_intervals(&report.runs[0].points[1]),
        level_intervals(&report.runs[0].points[1].clone())
    );
}

#[test]
fn a_verdicts_key_is_its_json_name() {
    for v in [
        Verdict::Regression,
        Verdict::Improvement,
        Verdict::WithinNoise,
    ] {
        assert_eq!(
            serde_json::to_value(v).expect("serializes"),
            serde_json::Value::from(v.key())
        );
        assert_eq!(v.words().replace(' ', "_"), v.key());
    }
}

#[test]
fn a_repeat_is_a_run_or_repeat_part_of_the_label() {
    assert_eq!(
        repeat_of(&RunName::parse("qwen · max_num_seqs=32 · run=2")),
        Some(("qwen · max_num_seqs=32".to_owned(), 2))
    );
    assert_eq!(
        repeat_of(&RunName::parse("repeat=10 · llama.cpp")),
        Some(("llama.cpp".to_owned(), 10))
    );
    for label in [
        "qwen",
        "qwen · run=x",
        "qwen · rerun=1",
        "qwen · run=",
        "qwen run=1",
    ] {
        assert_eq!(repeat_of(&RunName::parse(label)), None, "{label}");
    }
}

#[test]
fn the_t_interval_over_repeats_is_the_textbook_one() {
    // [1, 2, 3]: mean 2, s = 1; t(0.995, 2 df) = 9.925 from a printed table: 2 ± 9.925/√3.
    let f = over_repeats(vec![1.0, 2.0, 3.0]);
    let [lo, hi] = f.interval.expect("an interval");
    assert_eq!(f.mean, Some(2.0));
    assert!((hi - 2.0 - 9.925 / 3f64.sqrt()).abs() < 1e-3, "{hi}");
    assert!((2.0 - lo - 9.925 / 3f64.sqrt()).abs() < 1e-3, "{lo}");
    // Five repeats: t(0.995, 4) = 4.604.
    let v = [10.0, 12.0, 11.0, 13.0, 9.0];
    let [lo, hi] = over_repeats(v.to_vec()).interval.expect("an interval");
    let s = (v.iter().map(|x| (x - 11.0_f64).powi(2)).sum::<f64>() / 4.0).sqrt();
    assert!(
        (hi - lo - 2.0 * 4.604 * s / 5f64.sqrt()).abs() < 1e-2,
        "{lo} … {hi}"
    );
    assert!(over_repeats(vec![5.0]).interval.is_none());
    assert!(over_repeats(vec![5.0])
        .not_computed
        .unwrap()
        .contains("one repeat"));
    assert_eq!(over_repeats(Vec::new()).mean, None);
}

#[test]
fn the_interval_over_three_repeats_covers_the_true_mean_at_its_nominal_rate() {
    // 4,000 setups of three repeats, each repeat's system T/s normal around 1,000 with σ = 30
    // (Box–Muller): the 99 % interval holds 1,000 in 99 % of them (±1 point: the binomial's σ
    // over 4,000 is 0.16 points); a percentile bootstrap over three values would not get near.
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut normal = move || {
        let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    };
    let setups = 4000;
    let covered = (0..setups)
        .filter(|_| {
            let v: Vec<f64> = (0..3).map(|_| 1000.0 + 30.0 * normal()).collect();
            let [lo, hi] = over_repeats(v).interval.expect("an interval");
            lo <= 1000.0 && 1000.0 <= hi
        })
        .count();
    let rate = covered as f64 / setups as f64;
    assert!((rate - CONFIDENCE).abs() <= 0.01, "{rate}");
}

#[test]
fn runs_repeating_a_setup_get_each_levels_figures_over_the_repeats() {
    // The built-in example's run three times as `run=0..2`, the second with every request's
    // times 10 % later (so its system T/s is lower), and a run of another setup.
    let seed = crate::simulate::seed_report();
    let mut runs = vec![seed.runs[0].clone(); 4];
    for p in &mut runs[1].points {
        if let Some(r) = p.requests.as_mut() {
            for i in 0..r.len() {
                r.e2e_s[i] *= 1.1;
                r.ttft_s[i] *= 1.1;
            }
            for s in r.start_s.as_mut().expect("send times") {
                *s *= 1.1;
            }
        }
    }
    runs[2].points.pop();
    for (i, r) in runs.iter_mut().enumerate() {
        r.label = RunName::from(if i < 3 {
            format!("m · slots=4 · run={i}")
        } else {
            "m · slots=8 · run=0".to_owned()
        });
    }
    let report = Report {
        meta: seed.meta.clone(),
        runs,
    };
    let (mut summaries, _) = crate::summary::summarize_report(&report, &Default::default());
    apply_repeats(&mut summaries);
    assert!(summaries[3].points.iter().all(|p| p.repeats.is_none()));
    let last = summaries[0].points.len() - 1;
    for (j, p) in summaries[0].points.iter().enumerate() {
        let rl = p.repeats.as_ref().expect("repeats");
        assert_eq!(rl.setup, "m · slots=4");
        let n = if j == last { 2 } else { 3 };
        assert_eq!(rl.runs.len(), n);
        // The values are each repeat's own figure there, recomputed from its requests: output
        // tokens over first send to last end.
        let want: Vec<f64> = (0..3)
            .filter_map(|i| report.runs[i].points.get(j))
            .map(|pt| {
                let r = pt.requests.as_ref().expect("requests");
                let start = r.start_s.as_ref().expect("send times");
                let tokens: f64 = (0..r.len()).map(|k| r.output_tokens[k] as f64).sum();
                let first = start.iter().copied().fold(f64::INFINITY, f64::min);
                let end = (0..r.len())
                    .map(|k| start[k] + r.e2e_s[k])
                    .fold(f64::NEG_INFINITY, f64::max);
                tokens / (end - first)
            })
            .collect();
        let f = &rl.figures["system_tps"];
        assert_eq!(f.values.len(), want.len());
        for (a, b) in f.values.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-9 * b, "{a} vs {b}");
        }
        assert!(f.values[1] < f.values[0], "the slower repeat");
        let [lo, hi] = f.interval.expect("an interval");
        let mean = f.mean.expect("a mean");
        assert!(lo < mean && mean < hi && lo < f.values[1] && f.values[0] < hi);
        // Every repeat that measured the level carries the same.
        assert_eq!(summaries[1].points[j].repeats.as_ref(), Some(rl));
    }
}

/// `n` repeats of a whole-level figure, normal around `mean` with a 2 % σ, from `rng`.
fn repeats(n: usize, mean: f64, rng: &mut Pcg64Mcg) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            mean * (1.0 + 0.02 * z)
        })
        .collect()
}

#[test]
fn over_five_repeats_a_system_tps_drop_of_10_percent_is_found_and_no_shift_is_noise() {
    // 2,000 pairs of setups of five repeats each (σ = 2 % a repeat): with no shift, within noise in
    // at least 95 %; 10 % lower, a regression in at least 95 %; and Welch's interval covers the
    // true −10 % at its nominal rate (±2 points).
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let seeds = 2000;
    let (mut quiet, mut found, mut covered) = (0, 0, 0);
    for _ in 0..seeds {
        let (a, b) = (repeats(5, 1000.0, &mut rng), repeats(5, 1000.0, &mut rng));
        let c = welch(&a, &b).expect("a change");
        quiet +=
            usize::from(verdict(&c, Better::Higher, DEFAULT_THRESHOLD_PCT) == Verdict::WithinNoise);
        let (a, b) = (repeats(5, 1000.0, &mut rng), repeats(5, 900.0, &mut rng));
        let c = welch(&a, &b).expect("a change");
        found +=
            usize::from(verdict(&c, Better::Higher, DEFAULT_THRESHOLD_PCT) == Verdict::Regression);
        covered += usize::from(c.low_pct <= -10.0 && -10.0 <= c.high_pct);
    }
    let rate = |k: usize| k as f64 / seeds as f64;
    assert!(rate(quiet) >= 0.95, "within noise in {}", rate(quiet));
    assert!(rate(found) >= 0.95, "found in {}", rate(found));
    assert!(
        (rate(covered) - CONFIDENCE).abs() <= 0.02,
        "covered in {}",
        rate(covered)
    );
}

#[test]
fn whole_level_figures_are_judged_over_the_repeats_of_two_setups_only() {
    // The example's run as setup a (three repeats, identical) and setup b (two repeats, every
    // request's times 10 % later: system T/s ~9 % lower), and one run of setup c.
    let seed = crate::simulate::seed_report();
    let mut runs = vec![seed.runs[0].clone(); 6];
    for (i, r) in runs.iter_mut().enumerate() {
        r.label = RunName::from(match i {
            0..=2 => format!("a · run={i}"),
            3 | 4 => format!("b · repeat={i}"),
            _ => "c".to_owned(),
        });
        let slow = match i {
            3 => 1.1,
            4 => 1.12,
            _ => 1.0,
        };
        for p in &mut r.points {
            if let Some(q) = p.requests.as_mut() {
                for k in 0..q.len() {
                    q.e2e_s[k] *= slow;
                    q.ttft_s[k] *= slow;
                }
                for s in q.start_s.as_mut().expect("send times") {
                    *s *= slow;
                }
            }
        }
    }
    // Setup a's repeats differ a little (else their spread is 0).
    for p in &mut runs[1].points {
        if let Some(q) = p.requests.as_mut() {
            q.output_tokens[0] += 3;
        }
    }
    let report = Report {
        meta: seed.meta.clone(),
        runs,
    };
    let mut summary = Summary {
        runs: crate::summary::summarize_report(&report, &Default::default()).0,
        diagnostics: Vec::new(),
    };
    apply_repeats(&mut summary.runs);
    let opts = JudgeOptions {
        metrics: vec![Metric::SystemTps],
        ..JudgeOptions::default()
    };
    let judged = judge(&report, &summary, 0, &opts);
    let of = |run: usize| -> Vec<&Judged> {
        judged
            .iter()
            .filter(|j| j.run == summary.runs[run].id)
            .collect()
    };
    for j in of(1) {
        assert!(
            j.not_judged
                .as_deref()
                .is_some_and(|w| w.contains("own setup")),
            "{j:?}"
        );
    }
    for (k, j) in of(3).into_iter().enumerate() {
        assert_eq!(j.repeats, Some([3, 2]));
        let c = j.change.expect("judged");
        // The change of the means, from the summaries' own figures.
        let mean = |runs: std::ops::Range<usize>| {
            let n = runs.len() as f64;
            runs.map(|r| summary.runs[r].points[k].metrics.system_tps.expect("tps"))
                .sum::<f64>()
                / n
        };
        let want = (mean(3..5) / mean(0..3) - 1.0) * 100.0;
        assert!(
            (c.change_pct - want).abs() < 1e-9,
            "{} vs {want}",
            c.change_pct
        );
        assert!(c.low_pct < c.change_pct && c.change_pct < c.high_pct);
        assert!(want < -5.0, "{want}");
    }
    for j in of(5) {
        assert!(
            j.not_judged
                .as_deref()
                .is_some_and(|w| w.contains("this run 1")),
            "{j:?}"
        );
    }
}

/// The example's run as two setups of three repeats, every request's decode stretched by its
/// repeat's factor (`a`'s, then `b`'s): the drift between runs of one setup on a real machine.
fn drifting_setups(a: [f64; 3], b: [f64; 3]) -> (Report, Summary) {
    let seed = crate::simulate::seed_report();
    let mut runs = vec![seed.runs[0].clone(); 6];
    for (i, r) in runs.iter_mut().enumerate() {
        let (setup, f) = if i < 3 { ("a", a[i]) } else { ("b", b[i - 3]) };
        r.label = format!("{setup} · repeat={}", i % 3 + 1).into();
        for p in &mut r.points {
            if let Some(q) = p.requests.as_mut() {
                for k in 0..q.len() {
                    q.e2e_s[k] = q.ttft_s[k] + (q.e2e_s[k] - q.ttft_s[k]) * f;
                }
                // The chunk gaps drift with the decode (else ITL's repeats would be copies).
                if let Some(g) = q.chunk_gaps.as_mut() {
                    g.values.iter_mut().for_each(|v| *v *= f);
                }
            }
        }
    }
    let report = Report {
        meta: seed.meta.clone(),
        runs,
    };
    let mut summary = Summary {
        runs: crate::summary::summarize_report(&report, &Default::default()).0,
        diagnostics: Vec::new(),
    };
    apply_repeats(&mut summary.runs);
    (report, summary)
}

#[test]
fn with_repeats_every_figure_is_judged_over_them_so_drift_between_runs_is_noise() {
    // Measured on llama.cpp (scripts/engine-e2e.sh): two benches of one server differ by up to
    // ~4 % in TPOT at concurrency 4, run to run, while an interval over one run's requests is
    // ±1 %: judged over requests, the same server "regressed". Here each repeat's decode drifts
    // by up to 3.5 %, the same way for all its requests.
    let tpot = Metric::Latency(Latency::Tpot, Stat::Mean);
    let (report, summary) = drifting_setups([1.0, 1.03, 0.98], [1.035, 0.99, 1.02]);
    let opts = JudgeOptions {
        metrics: vec![
            tpot,
            Metric::PerStreamTps,
            Metric::Latency(Latency::Itl, Stat::Mean),
        ],
        ..JudgeOptions::default()
    };
    // Over requests, b's first repeat against a's first is a regression: the requests move
    // together, and their interval does not hold the drift.
    let pair = judge_pair(
        &report.runs[0],
        &report.runs[3],
        &summary.runs[3].id,
        3,
        &opts,
    );
    let at16 = |js: &[Judged], m: Metric| {
        js.iter()
            .find(|j| j.concurrency == 16.0 && j.metric == m)
            .cloned()
            .expect("judged at 16")
    };
    assert_eq!(at16(&pair, tpot).verdict, Some(Verdict::Regression));
    // Over the repeats: within noise, and ITL (no interval over requests) is judged too.
    let judged = judge(&report, &summary, 0, &opts);
    let b: Vec<&Judged> = judged
        .iter()
        .filter(|j| j.run == summary.runs[4].id && j.concurrency == 16.0)
        .collect();
    assert_eq!(b.len(), 3);
    for j in &b {
        assert_eq!(j.repeats, Some([3, 3]), "{j:?}");
        assert_eq!(j.verdict, Some(Verdict::WithinNoise), "{j:?}");
        assert_eq!(j.change.expect("judged").resamples, 0);
    }
    // The change is that of the means over the repeats, from the summaries' own figures.
    let k = summary.runs[0]
        .points
        .iter()
        .position(|p| p.metrics.concurrency == Some(16.0))
        .expect("16");
    let mean = |runs: std::ops::Range<usize>| {
        let n = runs.len() as f64;
        runs.map(|r| summary.runs[r].points[k].get(tpot).expect("tpot"))
            .sum::<f64>()
            / n
    };
    let want = (mean(3..6) / mean(0..3) - 1.0) * 100.0;
    let got = b.iter().find(|j| j.metric == tpot).unwrap().change.unwrap();
    assert!((got.change_pct - want).abs() < 1e-9, "{got:?} vs {want}");
    // A repeat of the baseline's own setup is not judged against it.
    assert!(judged
        .iter()
        .filter(|j| j.run == summary.runs[1].id)
        .all(|j| j
            .not_judged
            .as_deref()
            .is_some_and(|w| w.contains("own setup"))));
    // The same drift with b 10 % slower: found.
    let (report, summary) = drifting_setups([1.0, 1.03, 0.98], [1.135, 1.09, 1.12]);
    let judged = judge(&report, &summary, 0, &opts);
    let j = judged
        .iter()
        .find(|j| j.run == summary.runs[3].id && j.concurrency == 16.0 && j.metric == tpot)
        .unwrap();
    assert_eq!(j.verdict, Some(Verdict::Regression), "{j:?}");
}

#[test]
fn intervals_in_steps_give_what_computing_at_once_gives_and_limits_are_said() {
    let report = crate::simulate::seed_report();
    let at_once: Vec<Vec<Option<LevelIntervals>>> = report
        .runs
        .iter()
        .map(|r| r.points.iter().map(level_intervals).collect())
        .collect();
    assert!(at_once[0].iter().any(Option::is_some));
    let (mut at, mut out, mut calls) = (LevelCursor::default(), Vec::new(), 0);
    while !intervals_some(&report, &mut at, 1, &Limits::default(), &mut out) {
        calls += 1;
        assert!(calls < 10_000);
    }
    assert_eq!(out, at_once);
    // At least one figure a call: a step of one value takes as many calls as figures computed.
    let figures: usize = at_once[0]
        .iter()
        .flatten()
        .map(|l| l.intervals.len() + l.not_computed.len())
        .sum();
    assert!(
        calls > 1 && calls <= figures,
        "{calls} calls, {figures} figures"
    );
    // A figure dearer than the limit, or past the budget, says why and what computes it: on the
    // first level with an interval.
    let k = at_once[0]
        .iter()
        .position(|l| l.as_ref().is_some_and(|l| !l.intervals.is_empty()))
        .expect("a level with intervals");
    let n = report.runs[0].points[k].requests.as_ref().unwrap().len();
    let limits = Limits {
        max_cost: Some(cost(n) - 1),
        budget: None,
    };
    let mut out = Vec::new();
    intervals_some(
        &report,
        &mut LevelCursor::default(),
        usize::MAX,
        &limits,
        &mut out,
    );
    let first = out[0][k].as_ref().unwrap();
    assert!(first.intervals.is_empty());
    assert!(first
        .not_computed
        .values()
        .any(|w| w.contains("summarize --intervals")));
    let limits = Limits {
        max_cost: None,
        budget: Some(cost(n)),
    };
    let mut out = Vec::new();
    intervals_some(
        &report,
        &mut LevelCursor::default(),
        usize::MAX,
        &limits,
        &mut out,
    );
    // Levels before k computed nothing (too few requests), so the budget buys k's first figure.
    let first = out[0][k].as_ref().unwrap();
    assert_eq!(first.intervals.len(), 1, "{first:?}");
    assert!(first.not_computed.values().any(|w| w.contains("budget")));
}

#[test]
fn runs_of_one_setup_on_several_dates_are_a_history_judged_run_against_run() {
    // Four nightly runs of the built-in example's setup, loaded out of date order, the third night
    // 10 % slower to decode; a fifth run on other hardware; a sixth of the setup without a date.
    use super::history::{entries, judge, judge_some, setups, Cursor};
    let seed = crate::simulate::seed_report();
    let nights = ["2026-11-29", "2026-11-27", "2026-11-28", "2026-11-30"];
    let mut runs: Vec<crate::model::Run> = Vec::new();
    for (i, night) in nights.iter().enumerate() {
        let mut r = seed.runs[0].clone();
        r.label = format!("nightly {night}").into();
        r.meta.date = Some((*night).into());
        if *night == "2026-11-29" {
            for p in &mut r.points {
                if let Some(q) = p.requests.as_mut() {
                    for k in 0..q.len() {
                        q.e2e_s[k] = q.ttft_s[k] + (q.e2e_s[k] - q.ttft_s[k]) * 1.1;
                    }
                }
            }
        }
        assert_eq!(runs.len(), i);
        runs.push(r);
    }
    let mut other = seed.runs[0].clone();
    other.label = "on an A100".into();
    other.meta.gpu = Some("A100 SXM".into());
    other.meta.date = Some("2026-11-30".into());
    runs.push(other);
    let mut undated = seed.runs[0].clone();
    undated.label = "undated".into();
    runs.push(undated.clone());
    let report = Report {
        meta: seed.meta.clone(),
        runs,
    };
    // The undated run keeps the setup from being placed in time; without it, the nights are one.
    assert_eq!(setups(&report), Vec::new());
    let mut report = report;
    report.runs.pop();
    let found = setups(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].runs, vec![1, 2, 0, 3], "by date");
    assert!(found[0].name.contains("H100"), "{}", found[0].name);
    let summary = Summary {
        runs: crate::summary::summarize_report(&report, &Default::default()).0,
        diagnostics: Vec::new(),
    };
    let tpot = Metric::Latency(Latency::Tpot, Stat::Mean);
    let opts = JudgeOptions {
        metrics: vec![tpot],
        ..JudgeOptions::default()
    };
    let moves = judge(&report, &summary, &found[0], &opts);
    // In steps of one figure: the same moves, to the bit.
    let (mut at, mut stepped) = (Cursor::default(), Vec::new());
    while !judge_some(
        &report,
        &summary,
        &found[0],
        &opts,
        &mut at,
        1,
        &mut stepped,
    ) {}
    assert_eq!(stepped, moves);
    let e = entries(&report, &summary, &found[0], &moves);
    assert_eq!(
        e.iter().map(|e| e.run).collect::<Vec<_>>(),
        vec![1, 2, 0, 3]
    );
    // The levels with enough requests for a mean to be judged (10: concurrency 1 has 8).
    let levels = report.runs[0]
        .points
        .iter()
        .filter(|p| p.requests.as_ref().is_some_and(|r| r.len() >= 10))
        .count();
    assert!(levels >= 3, "{levels}");
    // The first night has nothing before it; the slow night is worse at every level, the night
    // after it better; the two equal nights are the same samples: within noise.
    assert_eq!((e[0].judged, e[0].regressions.len()), (0, 0));
    assert_eq!((e[1].regressions.len(), e[1].improvements.len()), (0, 0));
    assert_eq!(e[1].judged, levels);
    assert_eq!(e[2].regressions.len(), levels);
    assert_eq!(e[3].improvements.len(), levels);
    for j in &e[2].regressions {
        let c = j.change.expect("judged");
        assert!((c.change_pct - 10.0).abs() < 3.0, "{c:?}");
    }
    // The headline figures, by hand from each run's levels: the highest system T/s.
    for entry in &e {
        let best = summary.runs[entry.run]
            .points
            .iter()
            .filter_map(|p| Some((p.metrics.system_tps?, p.metrics.concurrency)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
        assert_eq!(entry.peak_system, Some(best));
    }
    let spec = crate::chart_spec::trend(&summary, &found[0], &e, &Default::default());
    assert_eq!(spec.panels[0].series[0].points.len(), 4);
    assert_eq!(spec.panels[0].series[0].points[2].0, 3.0);
    let marks: Vec<(f64, &str)> = spec.marks.iter().map(|m| (m.x, m.text.as_str())).collect();
    let worse = format!("▼ {levels} worse");
    let better = format!("▲ {levels} better");
    assert_eq!(marks, vec![(3.0, worse.as_str()), (4.0, better.as_str())]);
    assert_eq!(spec.x.scale, crate::chart_spec::Scale::Ordinal);
    assert_eq!(
        spec.panels[0].series[0].labels,
        ["11-27", "11-28", "11-29", "11-30"]
    );
}

#[test]
fn repeats_that_agree_exactly_on_both_sides_give_no_interval_and_say_why() {
    // Copies of one run as repeats: no spread on either side. A 5 % difference between them is
    // not called sure (a zero-width interval would); one side with spread is judged.
    let why = welch(&[100.0, 100.0, 100.0], &[105.0, 105.0]).expect_err("no interval");
    assert!(why.contains("no spread"), "{why}");
    let c = welch(&[100.0, 100.0, 100.0], &[104.0, 106.0]).expect("judged");
    // By hand: d = 5, s² = 2 over n = 2 → se = 1, ν = 1, t(0.995, 1) = 63.657.
    assert!((c.change_pct - 5.0).abs() < 1e-12);
    assert!((c.high_pct - (5.0 + 63.657)).abs() < 0.01, "{c:?}");
}
