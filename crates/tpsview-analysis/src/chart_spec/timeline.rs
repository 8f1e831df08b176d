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
    let x_end = if end > 0.0 { end * 1.02 } else { 1.0 };
    let server = point
        .server
        .as_ref()
        .map(|s| server_panels(s, origin, x_end))
        .unwrap_or_default();
    Some(ChartSpec {
        id: ChartKind::Timeline,
        x: Axis {
            label: "seconds since the first request was sent".into(),
            scale: Scale::Linear,
            range: (0.0, x_end),
        },
        panels: std::iter::once(Panel {
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
        })
        .chain(server)
        .collect(),
        bars,
        shade,
        marks: Vec::new(),
    })
}

/// The timeline's server series, by name (the renderer gives each its own colour).
pub const SERVER_RUNNING: &str = "running (the batch)";
/// See [`SERVER_RUNNING`].
pub const SERVER_WAITING: &str = "waiting";
/// See [`SERVER_RUNNING`].
pub const SERVER_KV: &str = "KV-cache usage";

/// The server's own view of the level under its requests, on the same clock: requests running (the
/// batch) and waiting in one panel, KV-cache usage in another where reported. Polls outside the
/// shown time (the warm-up before the first send) are left out.
fn server_panels(s: &crate::server::ServerSeries, origin: f64, x_end: f64) -> Vec<Panel> {
    use crate::server::ServerMetric;
    let series = |m: ServerMetric, name: &str, mark: Mark, k: f64| -> Option<Series> {
        let points: Vec<(f64, f64)> = s
            .t_s
            .iter()
            .zip(s.values.get(m)?)
            .filter_map(|(t, v)| Some((t - origin, (*v)? * k)))
            .filter(|(x, y)| (0.0..=x_end).contains(x) && y.is_finite())
            .collect();
        (!points.is_empty()).then(|| Series {
            name: name.to_owned(),
            run: None,
            run_label: "server".to_owned(),
            points,
            band: Vec::new(),
            labels: Vec::new(),
            mark,
        })
    };
    let top = |ss: &[Series]| {
        ss.iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(1.0f64, f64::max)
    };
    let mut out = Vec::new();
    let queue: Vec<Series> = [
        series(
            ServerMetric::Running,
            "running (the batch)",
            Mark::Line,
            1.0,
        ),
        series(ServerMetric::Waiting, "waiting", Mark::Dashed, 1.0),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !queue.is_empty() {
        out.push(Panel {
            title:
                "what the server ran: requests running (the batch) and waiting, from its metrics"
                    .into(),
            y: Axis {
                label: "requests".into(),
                scale: Scale::Linear,
                range: (0.0, top(&queue) * 1.15),
            },
            series: queue,
        });
    }
    if let Some(kv) = series(ServerMetric::KvUsage, SERVER_KV, Mark::Line, 100.0) {
        out.push(Panel {
            title: "the server's KV-cache usage".into(),
            y: Axis {
                label: "%".into(),
                scale: Scale::Linear,
                range: (0.0, 100.0),
            },
            series: vec![kv],
        });
    }
    out
}
