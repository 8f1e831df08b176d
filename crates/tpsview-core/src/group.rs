//! Groups parsed files into runs: the same engine, model and label make one run, and each file
//! (or each object of a multi-object file) is one concurrency level of it.

use crate::error::Diagnostic;
use crate::formats::Parsed;
use crate::model::{Report, Run};

/// Merges the runs of several parsed files into one report, grouping by (engine, model, label)
/// and sorting each run's points by concurrency, then request rate. Points that claim the same
/// level are kept and flagged.
pub fn group(files: Vec<Parsed>) -> (Report, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    for parsed in files {
        diags.extend(parsed.diagnostics);
        for mut run in parsed.report.runs {
            run.meta.inherit(&parsed.report.meta);
            let same = |r: &&mut Run| {
                r.label == run.label
                    && r.meta.model == run.meta.model
                    && r.meta.engine == run.meta.engine
            };
            match runs.iter_mut().find(same) {
                Some(existing) => existing.points.append(&mut run.points),
                None => runs.push(run),
            }
        }
    }
    for run in &mut runs {
        // Unstable sort with the load order as the last key: same result as a stable sort, and a
        // much smaller instantiation in the browser build.
        let mut keyed: Vec<(f64, f64, usize, crate::model::Point)> = run
            .points
            .drain(..)
            .enumerate()
            .map(|(i, p)| {
                (
                    p.concurrency.unwrap_or(f64::INFINITY),
                    p.request_rate.unwrap_or(f64::INFINITY),
                    i,
                    p,
                )
            })
            .collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
        });
        run.points = keyed.into_iter().map(|k| k.3).collect();
        for w in run.points.windows(2) {
            if w[0].concurrency.is_some()
                && w[0].concurrency == w[1].concurrency
                && w[0].request_rate == w[1].request_rate
            {
                diags.push(Diagnostic::warning(
                    &w[1].source_file,
                    "concurrency",
                    None,
                    format!(
                        "run {:?}: {} and {} both claim concurrency {}; both are kept",
                        run.label,
                        w[0].source_file,
                        w[1].source_file,
                        w[0].concurrency.unwrap_or_default()
                    ),
                ));
            }
        }
    }
    (
        Report {
            meta: Default::default(),
            runs,
        },
        diags,
    )
}
