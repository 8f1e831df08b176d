//! The analysis's `learn` on files the readers read (moved from its unit tests: the analysis
//! crate has no reader, on any target).

// Unit tests before the split (clippy.toml allows unwrap there, helpers included): the same here.
#![allow(clippy::unwrap_used)]

use tpsview_core::learn::*;
use tpsview_core::metrics::MetricOptions;

fn seed() -> tpsview_core::summary::Summary {
    let text = tpsview_core::formats::tpsview::write(&tpsview_core::simulate::seed_report());
    tpsview_core::summarize(
        vec![tpsview_core::parse_any("s.json", text.as_bytes()).unwrap()],
        &MetricOptions::default(),
    )
}

#[test]
fn eight_steps_with_the_runs_own_numbers() {
    let s = seed();
    let run = &s.runs[0];
    let steps = walkthrough(run);
    assert_eq!(
        steps.iter().map(|s| s.slug).collect::<Vec<_>>(),
        [
            "decode-step",
            "batch-one",
            "shared-read",
            "per-stream-falls",
            "both-correct",
            "capacity",
            "read-a-claim",
            "per-user"
        ]
    );
    // Tokens/s per user at the busiest level, recomputed here from its requests: the slow-tail
    // p50 and p90 of E2E ÷ tokens (numpy-linear), inverted.
    let report = tpsview_core::simulate::seed_report();
    let last = report.runs[0].points.last().unwrap();
    let req = last.requests.as_ref().unwrap();
    let mut r: Vec<f64> = (0..req.len())
        .filter(|&i| req.e2e_s[i] > 0.0 && req.output_tokens[i] > 0)
        .map(|i| req.e2e_s[i] / f64::from(req.output_tokens[i]))
        .collect();
    r.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        let x = p / 100.0 * (r.len() - 1) as f64;
        let (lo, t) = (x.floor() as usize, x - x.floor());
        r[lo] + t * (r[(lo + 1).min(r.len() - 1)] - r[lo])
    };
    let user = steps.last().unwrap();
    assert_eq!(user.highlight, last.concurrency);
    assert_eq!(user.values[0].0, "per-stream T/s");
    assert!((user.values[1].1 - 1.0 / pct(50.0)).abs() < 1e-9 * user.values[1].1);
    assert!((user.values[2].1 - 1.0 / pct(90.0)).abs() < 1e-9 * user.values[2].1);
    assert!(
        user.values[2].1 <= user.values[1].1,
        "the slow tail is the slower"
    );
    let p1 = &run.points[0].metrics;
    assert_eq!(steps[1].highlight, Some(1.0));
    assert_eq!(steps[1].values[0].1, p1.per_stream_tps.unwrap());
    assert!(steps[1].body[0].contains(&format!("{:.1} T/s", p1.per_stream_tps.unwrap())));
    assert_eq!(steps[2].highlight, Some(64.0), "the middle level");
    assert!(
        steps[2].body[1].contains("64 streams share each read"),
        "{}",
        steps[2].body[1]
    );
    assert_eq!(steps[4].title, "28 T/s and 3,228 T/s are both correct");
    assert_eq!(steps[4].chart.id(), "interactivity");
}

#[test]
fn the_capacity_step_names_the_busiest_level_within_each_target() {
    let s = seed();
    let run = &s.runs[0];
    // By hand from the table: for a mean-TPOT bound, the busiest level at or under it.
    let busiest = |t: f64| {
        run.points
            .iter()
            .filter(|p| p.metrics.tpot_ms.mean.unwrap() <= t)
            .map(|p| {
                (
                    p.metrics.concurrency.unwrap(),
                    p.metrics.system_tps.unwrap(),
                )
            })
            .fold(None, |a: Option<(f64, f64)>, b| match a {
                Some(a) if a.1 >= b.1 => Some(a),
                _ => Some(b),
            })
    };
    let step = walkthrough(run)
        .into_iter()
        .find(|s| s.slug == "capacity")
        .unwrap();
    let (c30, s30) = busiest(30.0).unwrap();
    assert_eq!(step.highlight, Some(c30));
    assert_eq!(step.values[1].1, s30);
    for t in [50.0, 30.0, 20.0] {
        let (c, _) = busiest(t).unwrap();
        let said = format!(
            "mean TPOT ≤ {t:.0} ms ({:.0} T/s per user): concurrency {c}",
            1000.0 / t
        );
        assert!(step.body[1].contains(&said), "{said} in {}", step.body[1]);
    }
    // The targets give different answers on the seed: capacity depends on the target.
    assert_ne!(busiest(50.0).unwrap().0, busiest(20.0).unwrap().0);
    // With the user's SLO (here one no level meets), the step says so.
    let mut run = run.clone();
    run.slo_capacity = Some(None);
    let step = walkthrough(&run)
        .into_iter()
        .find(|s| s.slug == "capacity")
        .unwrap();
    assert!(step.body[1].contains("no level of this run qualifies"));
    assert_eq!(step.highlight, None);
}

#[test]
fn a_run_without_levels_has_no_walkthrough() {
    let mut s = seed();
    for p in &mut s.runs[0].points {
        p.metrics.concurrency = None;
    }
    assert!(walkthrough(&s.runs[0]).is_empty());
}

/// The viewer's "Explain this run" link asks `available`, which must agree with the walkthrough.
#[test]
fn available_agrees_with_the_walkthrough() {
    let s = seed();
    let mut run = s.runs[0].clone();
    assert!(tpsview_core::learn::available(&run) && !walkthrough(&run).is_empty());
    for p in &mut run.points {
        p.metrics.per_stream_tps = None;
    }
    assert!(!tpsview_core::learn::available(&run) && walkthrough(&run).is_empty());
}
