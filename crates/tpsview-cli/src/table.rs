//! The plain-text summary table and the gap explanation printed by `tpsview summarize`.

use std::fmt::Write;

use tpsview_core::summary::Summary;

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".to_owned(), |x| format!("{x:.digits$}"))
}

/// Renders the summary as aligned columns, then one paragraph per point explaining the gap
/// between N × per-stream and system T/s, then the discrepancies with the tool's own figures.
pub fn render(summary: &Summary) -> String {
    let mut out = String::new();
    for run in &summary.runs {
        let _ = writeln!(out, "{} [{}]", run.label, run.source_format);
        // A llama-bench run's level is its swept parameter (n_depth, n_threads…), not a
        // concurrency: its column says which.
        let level = run.axis.as_deref().unwrap_or("conc");
        let w = level.chars().count().max(6);
        let _ = writeln!(
            out,
            "{:>w$} {:>6} {:>5} {:>9} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}  basis",
            level,
            "ok",
            "fail",
            "dur s",
            "system/s",
            "stream/s",
            "tpot ms",
            "tpot p99",
            "ttft ms",
            "itl ms",
            "e2e ms"
        );
        for p in &run.points {
            let m = &p.metrics;
            let conc = match (m.concurrency, m.request_rate) {
                (Some(c), _) => format!("{c}"),
                (None, Some(r)) if r.is_infinite() => "rate∞".into(),
                (None, Some(r)) => format!("{r}/s"),
                _ => "?".into(),
            };
            let _ = writeln!(
                out,
                "{:>w$} {:>6} {:>5} {:>9} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}  {}",
                conc,
                num(m.requests_ok.map(|v| v as f64), 0),
                num(m.requests_failed.map(|v| v as f64), 0),
                num(m.duration_s, 2),
                num(m.system_tps, 1),
                num(m.per_stream_tps, 1),
                num(m.tpot_ms.mean, 2),
                num(m.tpot_ms.p99, 2),
                num(m.ttft_ms.mean, 1),
                num(m.itl_ms.mean, 2),
                num(m.e2e_ms.mean, 0),
                if m.duration_as_reported {
                    format!("{:?} (duration as reported)", m.basis)
                } else {
                    format!("{:?}", m.basis)
                }
                .to_lowercase(),
            );
        }
        for p in &run.points {
            if let Some(g) = &p.metrics.gap {
                let _ = write!(
                    out,
                    "  at {}: {} streams × {:.1} T/s = {:.0} T/s if all decoded all the time; measured {:.0} T/s.",
                    g.target_concurrency,
                    g.target_concurrency,
                    p.metrics.per_stream_tps.unwrap_or_default(),
                    g.ideal_tps,
                    g.system_tps
                );
                let parts: Vec<String> = g
                    .factors
                    .iter()
                    .map(|f| format!("{} ×{:.3}", f.cause.short(), f.factor))
                    .collect();
                let _ = writeln!(out, " Factors: {}", parts.join(", "));
            }
            if let Some(s) = tpsview_core::spec::of(p) {
                let level = p
                    .metrics
                    .concurrency
                    .map_or_else(|| p.source_file.clone(), |c| c.to_string());
                let _ = writeln!(
                    out,
                    "  at {level}: {}",
                    s.describe(p.metrics.tpot_ms.mean, p.metrics.itl_ms.mean)
                );
            }
            for line in turns_lines(&p.metrics) {
                let level = p
                    .metrics
                    .concurrency
                    .map_or_else(|| p.source_file.clone(), |c| c.to_string());
                let _ = writeln!(out, "  at {level}: {line}");
            }
            for d in &p.discrepancies {
                let _ = writeln!(
                    out,
                    "  {}: tool's {} = {:.4}, recomputed {} = {:.4} ({:+.2} %): {}",
                    p.source_file,
                    d.tool_metric,
                    d.reported,
                    d.metric,
                    d.recomputed,
                    d.relative_diff * 100.0,
                    d.likely_cause
                );
            }
        }
        out.push('\n');
    }
    out
}

/// A level's numbers of 2026, a line each where present (docs/metrics.md): tokens/s per user
/// three ways, the first visible token and the reasoning share, the prefix cache, the sessions.
fn turns_lines(m: &tpsview_core::metrics::PointMetrics) -> Vec<String> {
    let t = &m.turns;
    let mut out = Vec::new();
    if let Some(i) = &t.interactivity {
        let e = &i.e2e_normalized;
        out.push(format!(
            "tok/s per user: per-stream {}, whole-request p50 {} and p90 {} (slow tail), aggregate {}",
            num(i.per_stream_tps, 1).trim(),
            num(e.p50, 1).trim(),
            num(e.p90, 1).trim(),
            num(i.aggregate, 1).trim()
        ));
    }
    if let Some(d) = &t.ttfvt_ms {
        out.push(format!(
            "first visible token {} ms (p90 {}), first token {} ms",
            num(d.mean, 1).trim(),
            num(d.p90, 1).trim(),
            num(m.ttft_ms.mean, 1).trim()
        ));
    }
    if let (Some(r), Some(o)) = (t.reasoning_tokens, m.output_tokens) {
        out.push(format!(
            "{r} of {o} output tokens reasoning ({:.0} %); visible {} T/s of {} T/s",
            100.0 * r as f64 / o.max(1) as f64,
            num(t.visible_system_tps, 1).trim(),
            num(m.system_tps, 1).trim()
        ));
    }
    if let (Some(c), Some(p)) = (t.cached_prompt_tokens, t.input_tokens) {
        let tps = t.input_tps.unwrap_or_default();
        out.push(format!(
            "prefix cache {c} of {p} prompt tokens ({} %): prompt T/s computed {}, cached {}",
            num(t.cache_hit_rate.map(|h| h * 100.0), 1).trim(),
            num(tps.computed, 1).trim(),
            num(tps.cached, 1).trim()
        ));
    }
    if let Some(s) = &t.sessions {
        out.push(format!(
            "{} sessions of {:.1} turns: TTFT first turns {} ms, later turns {} ms",
            s.count,
            s.turns_mean,
            num(s.ttft_first_turn_ms.mean, 1).trim(),
            num(s.ttft_later_turns_ms.mean, 1).trim()
        ));
    }
    out
}

/// Renders a comparison: per run, one line per level with each figure's % change against the
/// baseline (`~` where the baseline value is interpolated, `–` where there is none).
pub fn render_comparison(c: &tpsview_core::compare::Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "baseline: {}{}",
        c.baseline,
        if c.per_gpu {
            " (system-wide figures per GPU)"
        } else {
            ""
        }
    );
    if !c.missing_gpu_count.is_empty() {
        let _ = writeln!(
            out,
            "no GPU count for: {} (give one with --gpus RUN=N)",
            c.missing_gpu_count
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for r in &c.runs {
        let _ = writeln!(
            out,
            "\n{} vs baseline (% change; ~ interpolated baseline)",
            r.label
        );
        let _ = write!(out, "{:>6}", "conc");
        for m in tpsview_core::compare::COMPARED {
            let _ = write!(out, " {m:>19}");
        }
        out.push('\n');
        for row in &r.rows {
            let _ = write!(out, "{:>6}", row.concurrency);
            for cell in &row.cells {
                let text = match cell.change_pct {
                    Some(p) => format!("{}{p:+.1}%", if cell.interpolated { "~" } else { "" }),
                    None => "–".into(),
                };
                let _ = write!(out, " {text:>19}");
            }
            out.push('\n');
        }
    }
    out
}

/// A level's whole-level figures over its setup's repeats, a line each (`conc`: the level as
/// printed): the mean and its interval, or why there is none.
pub fn repeat_lines(conc: &str, rl: &tpsview_core::summary::RepeatLevel) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    // A figure no repeat defines (a tool that prints no p90) has no line.
    for (key, f) in rl.figures.iter().filter(|(_, f)| !f.values.is_empty()) {
        let _ = match (f.mean, f.interval) {
            (Some(mean), Some([lo, hi])) => writeln!(
                out,
                "  conc {conc:>6}  {key:<18} {mean:>10.2}  [{lo:.2} … {hi:.2}]  mean of {} repeats (Student t)",
                f.values.len()
            ),
            _ => writeln!(
                out,
                "  conc {conc:>6}  {key:<18} no interval over repeats: {}",
                f.not_computed.as_deref().unwrap_or("–")
            ),
        };
    }
    out
}
