//! The decode model's chart: the bandwidth and compute bound against batch size, a run's
//! measurements over it, and each level's measured ÷ bound.

use super::*;

/// Measured against bound, per level: the run's system T/s ÷ the decode model's bound at the same
/// batch, and the same for per-stream T/s.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Efficiency {
    /// Concurrency asked.
    pub concurrency: f64,
    /// The batch the bound is taken at: the batch the server ran where its metrics say
    /// ([`crate::server::Ran`]), else the concurrency.
    pub batch: f64,
    /// True where `batch` is the server's measured batch.
    pub measured_batch: bool,
    /// Measured system T/s.
    pub system_tps: f64,
    /// Bound on system T/s at this batch.
    pub system_bound: f64,
    /// Measured per-stream T/s.
    pub per_stream_tps: f64,
    /// Bound on per-stream T/s at this batch.
    pub per_stream_bound: f64,
}

impl Efficiency {
    /// Measured ÷ bound for system T/s.
    pub fn ratio(&self) -> f64 {
        self.system_tps / self.system_bound
    }

    /// Measured ÷ bound for per-stream T/s.
    pub fn per_stream_ratio(&self) -> f64 {
        self.per_stream_tps / self.per_stream_bound
    }
}

/// Each level of `run` against the decode model's bound at the same batch.
pub fn efficiency(
    run: &crate::summary::RunSummary,
    model: &crate::roofline::DecodeInputs,
) -> Vec<Efficiency> {
    run.points
        .iter()
        .filter_map(|p| {
            let c = p.metrics.concurrency?;
            let ran = p.ran().map(|r| r.running).filter(|r| *r > 0.0);
            let batch = ran.unwrap_or(c);
            let b = model.step(batch);
            Some(Efficiency {
                concurrency: c,
                batch,
                measured_batch: ran.is_some(),
                system_tps: p.metrics.system_tps?,
                system_bound: b.system_tps,
                per_stream_tps: p.metrics.per_stream_tps?,
                per_stream_bound: b.per_stream_tps,
            })
        })
        .collect()
}

/// The decode model's bounds against batch size (dashed), with a run's measured levels over them.
///
/// The batch axis runs to twice the larger of `batch` and the run's highest level (256 without a
/// run).
pub fn roofline(
    model: &crate::roofline::DecodeInputs,
    run: Option<&crate::summary::RunSummary>,
    batch: f64,
    opts: &ChartOptions,
) -> ChartSpec {
    let highest = run
        .and_then(|r| {
            r.points
                .iter()
                .filter_map(|p| p.metrics.concurrency)
                .reduce(f64::max)
        })
        .unwrap_or(256.0);
    let steps = model.curve(&crate::roofline::batch_grid(
        highest.max(batch).max(1.0) * 2.0,
    ));
    let bound = |name: &str, f: fn(&crate::roofline::DecodeStep) -> f64| Series {
        name: name.into(),
        run: None,
        run_label: "decode model".into(),
        points: steps.iter().map(|s| (s.batch, f(s))).collect(),
        band: Vec::new(),
        labels: Vec::new(),
        mark: Mark::Dashed,
    };
    let measured = |name: &str, f: fn(&PointSummary) -> Option<f64>| -> Vec<Series> {
        run.map(|r| {
            let mut s = metric_series(0, r, name, f);
            s.mark = Mark::Points;
            // Each level at the batch the server ran, where its metrics say.
            for q in &mut s.points {
                if let Some(ran) = r
                    .points
                    .iter()
                    .find(|p| p.metrics.concurrency == Some(q.0))
                    .and_then(crate::summary::PointSummary::ran)
                    .filter(|ran| ran.running > 0.0)
                {
                    q.0 = ran.running;
                }
            }
            s.points.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            s
        })
        .into_iter()
        .collect()
    };
    let mut sys = vec![bound("system T/s bound", |s| s.system_tps)];
    sys.extend(measured("system T/s measured", |p| p.metrics.system_tps));
    let mut per = vec![bound("per-stream T/s bound", |s| s.per_stream_tps)];
    per.extend(measured("per-stream T/s measured", |p| {
        p.metrics.per_stream_tps
    }));
    let scale = x_axis(opts);
    let xs = steps.iter().map(|s| s.batch).chain(
        run.into_iter()
            .flat_map(|r| r.points.iter().filter_map(|p| p.metrics.concurrency)),
    );
    ChartSpec {
        id: ChartKind::Roofline,
        x: Axis {
            label: "batch size (sequences decoding together)".into(),
            scale,
            range: range_of(xs, scale, false),
        },
        panels: vec![
            panel(
                "system T/s: the decode model's bound (dashed) and the run's levels",
                "tokens/s",
                sys,
                &ChartOptions::default(),
            ),
            panel(
                "per-stream T/s: bound (dashed) and measured",
                "tokens/s",
                per,
                &ChartOptions::default(),
            ),
        ],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    }
}
