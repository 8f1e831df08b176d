//! The request timeline: one level's requests in send order, wait + prefill then decode, the
//! steady-state window shaded.

use super::*;

/// The per-request timeline of one point: each request's wait + prefill (TTFT) and decode spans
/// against time since the first send, requests in send order, the steady window shaded. `None`
/// when the point has no send times.
pub fn timeline(point: &Point) -> Option<ChartSpec> {
    let req = point.requests.as_ref()?;
    let start = req.start_s.as_ref()?;
    let origin = start
        .iter()
        .copied()
        .filter(|s| s.is_finite())
        .fold(f64::INFINITY, f64::min);
    if !origin.is_finite() {
        return None;
    }
    let mut order: Vec<usize> = (0..req.len()).filter(|&i| start[i].is_finite()).collect();
    order.sort_unstable_by(|&a, &b| start[a].total_cmp(&start[b]).then(a.cmp(&b)));
    let bars: Vec<Bar> = order
        .iter()
        .enumerate()
        .map(|(row, &i)| {
            let s = start[i] - origin;
            match request_metrics(req, i) {
                Some(r) => Bar {
                    row,
                    request: i,
                    start: s,
                    first_token: s + r.ttft,
                    end: s + r.e2e,
                    failed: false,
                },
                None => Bar {
                    row,
                    request: i,
                    start: s,
                    first_token: s,
                    end: s,
                    failed: true,
                },
            }
        })
        .collect();
    let end = bars.iter().map(|b| b.end).fold(0.0f64, f64::max);
    let shade = steady_state(req, point.concurrency).map(|w| {
        (
            w.start_s - origin,
            w.end_s - origin,
            format!(
                "steady state: {:.0} requests in flight",
                point.concurrency.unwrap_or(0.0)
            ),
        )
    });
    let rows = bars.len().max(1) as f64;
    Some(ChartSpec {
        id: ChartKind::Timeline,
        x: Axis {
            label: "seconds since the first request was sent".into(),
            scale: Scale::Linear,
            range: (0.0, if end > 0.0 { end * 1.02 } else { 1.0 }),
        },
        panels: vec![Panel {
            title: format!(
                "requests at concurrency {} in send order: waiting + prefill (TTFT), then decode",
                point
                    .concurrency
                    .map_or_else(|| "?".to_owned(), |c| format!("{c}"))
            ),
            y: Axis {
                label: "request (send order)".into(),
                scale: Scale::Linear,
                range: (0.0, rows),
            },
            series: Vec::new(),
        }],
        bars,
        shade,
        marks: Vec::new(),
    })
}
