use super::*;
use crate::metrics::MetricOptions;

fn seed() -> crate::summary::Summary {
    let text = crate::formats::tpsview::write(&crate::simulate::seed_report());
    crate::summarize(
        vec![crate::parse_any("s.json", text.as_bytes()).unwrap()],
        &MetricOptions::default(),
    )
}

#[test]
fn seven_steps_with_the_runs_own_numbers() {
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
            "read-a-claim"
        ]
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
fn the_capacity_step_names_the_busiest_level_within_the_target() {
    let s = seed();
    let run = &s.runs[0];
    // By hand from the table: the levels whose mean TPOT is at most 50 ms, and the busiest.
    let (c, sys) = run
        .points
        .iter()
        .filter(|p| p.metrics.tpot_ms.mean.unwrap() <= 50.0)
        .map(|p| {
            (
                p.metrics.concurrency.unwrap(),
                p.metrics.system_tps.unwrap(),
            )
        })
        .fold((0.0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
    assert!(c > 0.0);
    let step = walkthrough(run)
        .into_iter()
        .find(|s| s.slug == "capacity")
        .unwrap();
    assert_eq!(step.highlight, Some(c));
    assert_eq!(step.values[1].1, sys);
    assert!(
        step.body[1].contains(&format!("concurrency {c}")),
        "{}",
        step.body[1]
    );
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
