//! The audit: each figure a tool reported, beside tpsview's recomputation of the same quantity
//! under the tool's own definition, flagged when they differ by more than rounding, with the
//! likely cause. Figures defined as tpsview defines them are checked against tpsview's metric;
//! figures the tool defines its own way ([`ToolDef`]) are recomputed that way from the raw data;
//! figures an importer re-aggregated from non-per-request raw data
//! ([`crate::model::Reported::recomputed`]) are checked against that.

use crate::metrics::{request_metrics, Basis, PointMetrics};
use crate::model::{Point, Requests, SampleKind};
use crate::tools::reported_map;
use crate::vocabulary::Metric;
use crate::vocabulary::{Def, ToolDef};

/// Relative difference above which a reported figure is flagged (0.5 %).
pub const TOLERANCE: f64 = 0.005;

/// A reported figure that disagrees with the recomputed one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Discrepancy {
    /// tpsview's metric nearest to it.
    pub metric: Metric,
    /// The tool's own name for it.
    pub tool_metric: &'static str,
    /// The tool's value, in tpsview's unit.
    pub reported: f64,
    /// The same figure recomputed under the tool's definition.
    pub recomputed: f64,
    /// `recomputed` in the tool's own unit (beside the tool's value as written).
    pub recomputed_as_tool: f64,
    /// (recomputed − reported) / reported.
    pub relative_diff: f64,
    /// Why they likely differ.
    pub likely_cause: &'static str,
    /// True when the tool defines the figure its own way (so it was recomputed that way, and is
    /// not tpsview's metric of that name).
    pub tool_defined: bool,
}

/// What the audit of one point found: every tool figure it could recompute, and those that
/// disagree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Audit {
    /// Tool keys recomputed and compared (matching or not).
    pub checked: Vec<&'static str>,
    /// The ones that differ by more than [`TOLERANCE`].
    pub discrepancies: Vec<Discrepancy>,
}

/// Compares a point's reported figures with their recomputations. Nothing is flagged for figures
/// with nothing to compare to, for figures the recomputation took from the tool itself (duration
/// without send times), or for a sampled point.
pub fn discrepancies(point: &Point, m: &PointMetrics) -> Vec<Discrepancy> {
    audit(point, m).discrepancies
}

/// The audit of one point (see [`discrepancies`]).
pub fn audit(point: &Point, m: &PointMetrics) -> Audit {
    // A sample's statistics are not the population's: nothing to audit.
    if point.sampled_from.is_some() {
        return Audit::default();
    }
    // Without send times the duration (and every rate over it) is the tool's own: nothing to check.
    let borrowed_from_tool = |metric: Metric, def: Def| {
        m.duration_as_reported
            && (matches!(
                metric,
                Metric::DurationS
                    | Metric::SystemTps
                    | Metric::RequestThroughput
                    | Metric::ConcurrencyAchieved
            ) || matches!(
                def,
                Def::Tool(ToolDef::TotalTokenThroughput | ToolDef::AllRequestsThroughput)
            ))
    };
    let made = from_samples(point);
    let mut out: Vec<Discrepancy> = Vec::new();
    let mut checked: Vec<&'static str> = Vec::new();
    for fig in reported_map(&point.reported.tool) {
        let Some(&raw) = point.reported.figures.get(fig.tool_key) else {
            continue;
        };
        // A key listed under two tpsview names is audited once.
        if checked.contains(&fig.tool_key) {
            continue;
        }
        let reported = raw * fig.scale;
        let recomputed = match point.reported.recomputed.get(fig.tool_key).or_else(|| {
            made.iter()
                .find(|(k, _)| *k == fig.tool_key)
                .map(|(_, v)| v)
        }) {
            Some(&r) => Some(r * fig.scale),
            None if m.basis != Basis::Recomputed => None,
            None if borrowed_from_tool(fig.canonical, fig.def) => None,
            None => match (fig.def, &point.requests) {
                (Def::Same, _) => m.get(fig.canonical),
                // The first visible token, against the requests' own (`turns.ttfvt_ms`).
                (Def::Tool(ToolDef::FirstVisibleToken), _) => match fig.canonical {
                    Metric::Latency(_, stat) => m.turns.ttfvt_ms.and_then(|d| *d.stat(stat)),
                    _ => None,
                },
                (Def::Tool(d), Some(req)) => tool_value(d, req, m),
                (Def::Tool(_), None) => None,
            },
        };
        let Some(recomputed) = recomputed else {
            continue;
        };
        if !reported.is_finite() || !recomputed.is_finite() {
            continue;
        }
        checked.push(fig.tool_key);
        let denom = reported.abs().max(1e-12);
        let rel = (recomputed - reported) / denom;
        if rel.abs() > TOLERANCE {
            out.push(Discrepancy {
                metric: fig.canonical,
                tool_metric: fig.tool_key,
                reported,
                recomputed,
                recomputed_as_tool: recomputed / fig.scale,
                relative_diff: rel,
                likely_cause: fig.likely_cause,
                tool_defined: fig.def != Def::Same,
            });
        }
    }
    Audit {
        checked,
        discrepancies: out,
    }
}

/// The tool figures a point's raw data that is not per request makes ([`Point::samples`]), and
/// those that are 1 ÷ another of the tool's own figures (`tools::reciprocals`), by the tool's
/// names and in its units: what the audit checks the tool's figures against where a point has no
/// requests. Empty where the data makes none.
pub fn from_samples(point: &Point) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    let figures = &point.reported.figures;
    for &(figure, of) in crate::tools::reciprocals(&point.reported.tool) {
        if let Some(t) = figures.get(of).copied().filter(|t| *t > 0.0) {
            out.push((figure, 1.0 / t));
        }
    }
    let Some(s) = &point.samples else {
        return out;
    };
    let made: Vec<Option<f64>> = match s.of {
        SampleKind::IterationLatencyS => {
            let d = crate::stats::Dist::of(&mut s.values.clone());
            vec![d.mean, d.p50, d.p99]
        }
        SampleKind::RepetitionNs => {
            let tokens = s.tokens.unwrap_or(f64::NAN);
            let rates: Vec<f64> = s.values.iter().map(|ns| tokens * 1e9 / ns).collect();
            // The rate figure the point reports (one of a generation, prompt or mixed test's).
            let rate = crate::stats::mean(&rates);
            s.of.figures()
                .iter()
                .map(|f| rate.filter(|_| figures.contains_key(*f)))
                .collect()
        }
        SampleKind::ResponseItlS | SampleKind::EvalRate => vec![crate::stats::mean(&s.values)],
    };
    for (figure, value) in s.of.figures().iter().zip(made) {
        if let Some(v) = value {
            out.push((*figure, v));
        }
    }
    out
}

/// A figure recomputed under a tool's own definition from a point's raw data, in tpsview's unit
/// (ms for times, tokens/s or requests/s for rates); `None` when the data does not allow it.
pub fn tool_value(def: ToolDef, req: &Requests, m: &PointMetrics) -> Option<f64> {
    if let ToolDef::E2eNormalized(p) | ToolDef::UserRatePercentile(p) = def {
        let mut v: Vec<f64> = (0..req.len())
            .filter_map(|i| {
                let r = request_metrics(req, i)?;
                let n = f64::from(req.output_tokens[i]);
                let prompt = req.input_tokens.as_ref().is_none_or(|c| c[i] > 0);
                (r.e2e > 0.0 && n > 0.0 && r.ttft > 0.0 && prompt).then_some((r.e2e, n))
            })
            .map(|(e2e, n)| match def {
                ToolDef::E2eNormalized(_) => e2e / n,
                _ => n / e2e,
            })
            .collect();
        v.sort_unstable_by(f64::total_cmp);
        let at = crate::stats::percentile_sorted(&v, f64::from(p))?;
        return match def {
            ToolDef::E2eNormalized(_) => (at > 0.0).then(|| 1.0 / at),
            _ => Some(at),
        };
    }
    if let ToolDef::NearestIndex(series, p) = def {
        let mut v = crate::metrics::per_request(req, series);
        if v.is_empty() {
            return None;
        }
        v.sort_unstable_by(f64::total_cmp);
        let k = ((v.len() as f64 * f64::from(p) / 100.0) as usize).min(v.len() - 1);
        return Some(v[k] * 1e3);
    }
    let mut n_req = 0usize;
    let (mut sum, mut sum_a, mut sum_b) = (0.0f64, 0.0f64, 0.0f64);
    let duration = m.duration_s.filter(|d| *d > 0.0 && d.is_finite());
    for i in 0..req.len() {
        let Some(r) = request_metrics(req, i) else {
            continue;
        };
        let n = f64::from(req.output_tokens[i]);
        let decode = r.e2e - r.ttft;
        match def {
            ToolDef::DecodeRateMean => {
                if n >= 2.0 && decode > 0.0 {
                    sum += (n - 1.0) / decode;
                    n_req += 1;
                }
            }
            ToolDef::UserRateMean => {
                if r.e2e > 0.0 {
                    sum += n / r.e2e;
                    n_req += 1;
                }
            }
            ToolDef::TokenWeightedTpot => {
                if n >= 2.0 {
                    sum_a += decode;
                    sum_b += n - 1.0;
                }
            }
            ToolDef::DecodePerToken => {
                sum_a += decode;
                sum_b += n;
            }
            ToolDef::E2ePerToken => {
                sum_a += r.e2e;
                sum_b += n;
            }
            ToolDef::TokensPerLatencySecond => {
                sum_a += n;
                sum_b += r.e2e;
            }
            ToolDef::TotalTokenThroughput => {
                sum_a += n + f64::from(req.input_tokens.as_ref()?[i]);
            }
            ToolDef::AllRequestsThroughput => {}
            ToolDef::PrefillRate
            | ToolDef::MixedRate
            | ToolDef::NearestIndex(..)
            | ToolDef::E2eNormalized(_)
            | ToolDef::UserRatePercentile(_)
            | ToolDef::FirstVisibleToken => return None,
            ToolDef::E2ePerChunk => {
                let chunks = req.chunk_gaps.as_ref()?.row_len(i) + 1;
                sum += r.e2e / chunks as f64;
                n_req += 1;
            }
        }
    }
    match def {
        ToolDef::DecodeRateMean | ToolDef::UserRateMean => (n_req > 0).then(|| sum / n_req as f64),
        ToolDef::E2ePerChunk => (n_req > 0).then(|| sum / n_req as f64 * 1e3),
        ToolDef::TokenWeightedTpot | ToolDef::DecodePerToken | ToolDef::E2ePerToken => {
            (sum_b > 0.0).then(|| sum_a / sum_b * 1e3)
        }
        ToolDef::TokensPerLatencySecond => (sum_b > 0.0).then(|| sum_a / sum_b),
        ToolDef::TotalTokenThroughput => duration.map(|d| sum_a / d),
        ToolDef::AllRequestsThroughput => duration.map(|d| req.len() as f64 / d),
        ToolDef::PrefillRate
        | ToolDef::MixedRate
        | ToolDef::NearestIndex(..)
        | ToolDef::E2eNormalized(_)
        | ToolDef::UserRatePercentile(_)
        | ToolDef::FirstVisibleToken => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Reported, Samples};

    fn point(tool: &str, figures: &[(&str, f64)], samples: Option<Samples>) -> Point {
        Point {
            reported: Reported {
                tool: tool.into(),
                figures: figures.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
                ..Reported::default()
            },
            samples,
            ..Point::default()
        }
    }

    fn samples(of: SampleKind, values: &[f64], tokens: Option<f64>) -> Option<Samples> {
        Some(Samples {
            of,
            values: values.to_vec(),
            tokens,
        })
    }

    #[test]
    fn raw_data_that_is_not_per_request_makes_the_tools_figures_worked_out_by_hand() {
        // vLLM bench latency: 1, 2, 3, 4 s → mean 2.5; numpy-linear p50 2.5, p99 1 + 0.99 × 3.
        let p = point(
            "vllm-bench-latency",
            &[("avg_latency", 2.5)],
            samples(SampleKind::IterationLatencyS, &[4.0, 1.0, 3.0, 2.0], None),
        );
        let made = from_samples(&p);
        assert_eq!(made.len(), 3);
        assert_eq!(made[0], ("avg_latency", 2.5));
        assert_eq!(made[1], ("percentiles.50", 2.5));
        assert_eq!(made[2].0, "percentiles.99");
        assert!((made[2].1 - 3.97).abs() < 1e-12);
        // llama-bench: 128 tokens in 1 s and in 2 s → rates 128 and 64 → 96, under the rate
        // figure the test reports (a prompt test's), no other.
        let p = point(
            "llama-bench",
            &[("prefill_avg_ts", 100.0)],
            samples(SampleKind::RepetitionNs, &[1e9, 2e9], Some(128.0)),
        );
        assert_eq!(from_samples(&p), [("prefill_avg_ts", 96.0)]);
        // LLMPerf: the responses' ITL 10 ms and 30 ms → 20 ms.
        let p = point(
            "llmperf",
            &[],
            samples(SampleKind::ResponseItlS, &[0.01, 0.03], None),
        );
        let made = from_samples(&p);
        assert_eq!(made[0].0, "results_inter_token_latency_s_mean");
        assert!((made[0].1 - 0.02).abs() < 1e-15);
        // InferenceX: interactivity is 1 ÷ its mean TPOT (s); none where the TPOT is not positive.
        let p = point(
            "inferencex",
            &[("mean_tpot", 0.02), ("mean_intvty", 49.0)],
            None,
        );
        assert_eq!(from_samples(&p), [("mean_intvty", 50.0)]);
        let p = point("inferencex", &[("mean_tpot", 0.0)], None);
        assert!(from_samples(&p).is_empty());
        // No samples, no reciprocal: nothing made.
        assert!(from_samples(&point("vllm", &[("mean_tpot_ms", 20.0)], None)).is_empty());
    }

    #[test]
    fn the_audit_flags_a_tool_figure_its_own_samples_disagree_with() {
        // avg_ts 100 against repetitions at 128 and 64 tokens/s (mean 96): 4 % apart.
        let p = point(
            "llama-bench",
            &[("avg_ts", 100.0)],
            samples(SampleKind::RepetitionNs, &[1e9, 2e9], Some(128.0)),
        );
        let (m, _) = crate::metrics::compute_point(&p, &Default::default());
        let a = audit(&p, &m);
        assert!(a.checked.contains(&"avg_ts"), "{a:?}");
        let d = a
            .discrepancies
            .iter()
            .find(|d| d.tool_metric == "avg_ts")
            .expect("flagged");
        assert_eq!(d.recomputed, 96.0);
        assert!((d.relative_diff + 0.04).abs() < 1e-12);
    }
}
