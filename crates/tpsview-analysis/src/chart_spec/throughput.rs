//! The throughput chart: system T/s and per-stream T/s against concurrency, one panel each.

use super::*;

/// System T/s (top) and per-stream T/s (bottom) against concurrency: the "50 or 4,000?" chart.
pub fn throughput(summary: &Summary, opts: &ChartOptions) -> ChartSpec {
    use crate::vocabulary::Metric;
    let cmp = opts.compare_options();
    // Each line with its 99 % interval as a band where it has one (over its setup's repeats, else
    // over the level's requests): a figure of one run is drawn as sure as it is. Per GPU, the
    // band is divided as the line is.
    let banded = |metric: Metric, name: &str| -> Vec<Series> {
        summary
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let shown = |p: &PointSummary| crate::compare::value(r, p, metric, &cmp);
                let mut s = metric_series(i, r, name, shown);
                s.band = r
                    .points
                    .iter()
                    .filter_map(|p| {
                        let iv = p.interval_of(metric)?;
                        let scale = shown(p)? / p.get(metric).filter(|v| *v != 0.0)?;
                        Some((p.metrics.concurrency?, iv.low * scale, iv.high * scale))
                    })
                    .collect();
                s.band
                    .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                s
            })
            .collect()
    };
    let with_band = |title: &str, series: &[Series]| {
        if series.iter().any(|s| !s.band.is_empty()) {
            format!("{title} (band: 99 % interval)")
        } else {
            title.to_owned()
        }
    };
    let mut system = banded(Metric::SystemTps, "system T/s");
    let per_stream = banded(Metric::PerStreamTps, "per-stream T/s");
    let system_title = with_band(
        if opts.per_gpu {
            "system T/s per GPU — all output tokens of all streams per second, ÷ GPUs"
        } else {
            "system T/s — all output tokens of all streams per second"
        },
        &system,
    );
    let per_stream_title = with_band(
        "per-stream T/s — one request's decode rate, 1 / TPOT",
        &per_stream,
    );
    let ran = ran_series(summary, &system);
    system.extend(goodput_series(summary, &cmp));
    system.extend(ran);
    let mut spec = ChartSpec {
        id: ChartKind::Throughput,
        x: concurrency_axis(summary, opts),
        panels: vec![
            panel(&system_title, "tokens/s", system, opts),
            panel(&per_stream_title, "tokens/s", per_stream, opts),
        ],
        bars: Vec::new(),
        shade: None,
        marks: Vec::new(),
    };
    spec.marks = peak_and_knee(&spec, summary);
    spec.marks.extend(capacity_marks(&spec, summary));
    spec.marks.extend(short_marks(&spec, summary));
    spec.shade = slo_window(&spec, summary, opts);
    spec
}

/// The series name of the system T/s placed at the batch the server ran.
pub const RAN: &str = "system T/s at the batch the server ran";

/// For each run whose levels carry the server's metrics: its system T/s again (the same values as
/// its line, per GPU when that is), each placed at the batch the server ran there instead of the
/// concurrency asked — dashed, in the run's colour. Where the server ran what was asked it lies on
/// the line; where slots were full it folds back to the batch the server could run.
fn ran_series(summary: &Summary, system: &[Series]) -> Vec<Series> {
    system
        .iter()
        .filter_map(|line| {
            let run = summary.runs.get(line.run.as_ref()?.index)?;
            let mut points: Vec<(f64, f64)> = line
                .points
                .iter()
                .filter_map(|&(x, y)| {
                    let p = run
                        .points
                        .iter()
                        .find(|p| p.metrics.concurrency == Some(x))?;
                    Some((p.ran()?.running, y))
                })
                .collect();
            if points.is_empty() {
                return None;
            }
            points.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            Some(Series {
                name: RAN.to_owned(),
                points,
                band: Vec::new(),
                labels: Vec::new(),
                mark: Mark::Dashed,
                ..line.clone()
            })
        })
        .collect()
}

/// The levels where the server ran fewer than asked while requests waited, marked on their run's
/// system T/s line: "asked 8, ran 4: 4 waited" — under the point where a label is over it.
fn short_marks(spec: &ChartSpec, summary: &Summary) -> Vec<Annotation> {
    let Some(panel) = spec.panels.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (si, s) in panel
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name == "system T/s")
        .take(MARKED_RUNS)
    {
        let Some(run) = s.run.as_ref().and_then(|r| summary.runs.get(r.index)) else {
            continue;
        };
        for &(x, y) in &s.points {
            let ran = run
                .points
                .iter()
                .find(|p| p.metrics.concurrency == Some(x))
                .and_then(crate::summary::PointSummary::ran);
            if let Some(ran) = ran.filter(crate::server::Ran::short) {
                // Under the point where the peak's or the knee's label is over it already.
                let taken = spec
                    .marks
                    .iter()
                    .any(|m| m.panel == 0 && m.series == si && m.x == x && !m.below);
                out.push(Annotation {
                    panel: 0,
                    series: si,
                    x,
                    y,
                    text: ran.text(),
                    below: taken,
                });
            }
        }
    }
    out
}

/// The series name of goodput: output tokens per second of the requests meeting the SLO.
pub const GOODPUT: &str = "goodput T/s";

/// Each run's goodput T/s (dashed, in its colour) where its levels have one; per GPU when asked.
fn goodput_series(summary: &Summary, cmp: &crate::compare::CompareOptions) -> Vec<Series> {
    summary
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.points
                .iter()
                .any(|p| p.slo.is_some_and(|e| e.goodput_tps.is_some()))
        })
        .map(|(i, r)| {
            let per = if cmp.per_gpu {
                crate::compare::gpu_count(r, cmp).map(f64::from)
            } else {
                Some(1.0)
            };
            let mut s = metric_series(i, r, GOODPUT, |p| Some(p.slo?.goodput_tps? / per?));
            s.mark = Mark::Dashed;
            s
        })
        .collect()
}

/// Each shown run's capacity under the SLO (its best level that meets it), marked on its system
/// T/s line.
fn capacity_marks(spec: &ChartSpec, summary: &Summary) -> Vec<Annotation> {
    let Some(panel) = spec.panels.first() else {
        return Vec::new();
    };
    panel
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name == "system T/s")
        .take(MARKED_RUNS)
        .filter_map(|(si, s)| {
            let run = summary.runs.get(s.run.as_ref()?.index)?;
            let c = run.slo_capacity.flatten()?;
            let &(x, y) = s.points.iter().find(|p| p.0 == c.concurrency)?;
            Some(Annotation {
                panel: 0,
                series: si,
                x,
                y,
                text: "capacity (SLO)".into(),
                below: false,
            })
        })
        .collect()
}

/// The concurrency window where the SLO is met: for the first shown run evaluated against one,
/// from its lowest level up to the last level before the first that misses it (levels that miss
/// it further up stay outside, as do levels whose result is unknown). Captioned with the run
/// when more than one is shown.
fn slo_window(
    spec: &ChartSpec,
    summary: &Summary,
    opts: &ChartOptions,
) -> Option<(f64, f64, String)> {
    opts.slo.as_ref()?;
    let panel = spec.panels.first()?;
    let shown: Vec<&Series> = panel
        .series
        .iter()
        .filter(|s| s.name == "system T/s")
        .collect();
    let (s, run) = shown.iter().find_map(|s| {
        let run = summary.runs.get(s.run.as_ref()?.index)?;
        run.points
            .iter()
            .any(|p| p.slo.is_some())
            .then_some((s, run))
    })?;
    let mut levels: Vec<(f64, Option<bool>)> = run
        .points
        .iter()
        .filter_map(|p| Some((p.metrics.concurrency?, p.slo?.met)))
        .collect();
    levels.sort_by(|a, b| a.0.total_cmp(&b.0));
    let first = levels.first()?;
    if first.1 != Some(true) {
        return None;
    }
    let last = levels
        .iter()
        .take_while(|l| l.1 == Some(true))
        .last()
        .map_or(first.0, |l| l.0);
    let caption = if shown.len() > 1 {
        format!("meets the SLO ({})", s.run_label)
    } else {
        "meets the SLO".to_owned()
    };
    Some((first.0, last, caption))
}

/// At most this many runs have their peak and knee marked (more would bury the lines).
const MARKED_RUNS: usize = 3;

/// Each shown run's peak system T/s and knee (`crate::answer`), on the system panel, where its
/// line has that level (per GPU the line's own value, so the mark sits on it).
fn peak_and_knee(spec: &ChartSpec, summary: &Summary) -> Vec<Annotation> {
    let mut out = Vec::new();
    let Some(panel) = spec.panels.first() else {
        return out;
    };
    let runs = panel
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name == "system T/s");
    for (si, s) in runs.take(MARKED_RUNS) {
        let Some(run) = s.run.as_ref().and_then(|r| summary.runs.get(r.index)) else {
            continue;
        };
        let a = crate::answer::answers(run);
        let first = out.len();
        let mut mark = |level: Option<f64>, text: &str| {
            if let Some(&(x, y)) = level.and_then(|c| s.points.iter().find(|p| p.0 == c)) {
                out.push(Annotation {
                    panel: 0,
                    series: si,
                    x,
                    y,
                    text: text.into(),
                    below: false,
                });
            }
        };
        mark(a.peak_system.and_then(|p| p.concurrency), "peak");
        if let crate::answer::Knee::At { concurrency, .. } = a.knee {
            mark(Some(concurrency), "knee");
        }
        // A knee at the peak's level or the next: its label would cover the peak's.
        if let [peak, knee] = &mut out[first..] {
            let at = |x: f64| s.points.iter().position(|p| p.0 == x);
            knee.below = at(peak.x)
                .zip(at(knee.x))
                .is_some_and(|(p, k)| p.abs_diff(k) <= 1);
        }
    }
    out
}
