//! The audit: each figure a tool reported, beside tpsview's recomputation of the same quantity,
//! flagged when they differ by more than rounding, with the likely cause.

use crate::formats::reported_map;
use crate::metrics::{Basis, PointMetrics};
use crate::model::Point;

/// Relative difference above which a reported figure is flagged (0.5 %).
pub const TOLERANCE: f64 = 0.005;

/// A reported figure that disagrees with the recomputed one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Discrepancy {
    /// tpsview's metric name.
    pub metric: &'static str,
    /// The tool's own name for it.
    pub tool_metric: &'static str,
    /// The tool's value, in tpsview's unit.
    pub reported: f64,
    /// tpsview's value.
    pub recomputed: f64,
    /// (recomputed − reported) / reported.
    pub relative_diff: f64,
    /// Why they likely differ.
    pub likely_cause: &'static str,
}

/// Compares a point's reported figures with its recomputed metrics. Nothing is flagged for
/// summary-only points (there is nothing to compare) or for figures the recomputation took from
/// the tool itself (duration without send times).
pub fn discrepancies(point: &Point, m: &PointMetrics) -> Vec<Discrepancy> {
    if m.basis != Basis::Recomputed {
        return Vec::new();
    }
    let borrowed_from_tool = |metric: &str| {
        m.duration_as_reported
            && matches!(
                metric,
                "duration_s" | "system_tps" | "request_throughput" | "concurrency_achieved"
            )
    };
    let mut out = Vec::new();
    for fig in reported_map(&point.reported.tool) {
        let Some(&raw) = point.reported.figures.get(fig.tool_key) else {
            continue;
        };
        let reported = raw * fig.scale;
        let Some(recomputed) = m.get(fig.canonical) else {
            continue;
        };
        if !reported.is_finite() || borrowed_from_tool(fig.canonical) {
            continue;
        }
        let denom = reported.abs().max(1e-12);
        let rel = (recomputed - reported) / denom;
        if rel.abs() > TOLERANCE {
            out.push(Discrepancy {
                metric: fig.canonical,
                tool_metric: fig.tool_key,
                reported,
                recomputed,
                relative_diff: rel,
                likely_cause: fig.likely_cause,
            });
        }
    }
    out
}
