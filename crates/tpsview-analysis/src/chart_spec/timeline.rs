//! The request timeline: one level's requests in send order, wait + prefill then decode, the
//! steady-state window shaded.

use super::*;

/// The earliest finite send time: the timelines' zero.
fn first_send(start: &[f64]) -> Option<f64> {
    let origin = start
        .iter()
        .copied()
        .filter(|s| s.is_finite())
        .fold(f64::INFINITY, f64::min);
    origin.is_finite().then_some(origin)
}

/// The per-request timeline of one point: each request's wait + prefill (TTFT) and decode spans
/// against time since the first send, requests in send order, the steady window shaded. `None`
/// when the point has no send times.
pub fn timeline(point: &Point) -> Option<ChartSpec> {
    let req = point.requests.as_ref()?;
    let start = req.start_s.as_ref()?;
    let origin = first_send(start)?;
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
                    turn: None,
                    request: i,
                    start: s,
                    first_token: s + r.ttft,
                    end: s + r.e2e,
                    failed: false,
                },
                None => Bar {
                    row,
                    turn: None,
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

/// Sessions a page of the sessions timeline shows.
pub const SESSIONS_PER_PAGE: usize = 50;

/// One page of a level's sessions on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionsPage {
    /// The chart: a lane per session, its turns in time.
    pub spec: ChartSpec,
    /// How many sessions the level has.
    pub total: usize,
    /// The first session shown (0-based, sessions in order of their first send).
    pub first: usize,
    /// How many are shown.
    pub shown: usize,
}

/// The sessions of one point, a lane each in order of their first send, every turn on its
/// session's lane (waiting + prefill, then decode), on the same clock as [`timeline`]: the
/// `page`-th [`SESSIONS_PER_PAGE`] of them (past the last page, the last). `None` when the
/// requests carry no send times or no sessions.
pub fn sessions_timeline(point: &Point, page: usize) -> Option<SessionsPage> {
    let req = point.requests.as_ref()?;
    let start = req.start_s.as_ref()?;
    let f = req.facts.as_deref()?;
    let ids = f.session.as_ref()?;
    let origin = first_send(start)?;
    // Requests by session, then sessions by their first send.
    let mut of: Vec<(&str, usize)> = (0..req.len())
        .filter(|&i| start[i].is_finite())
        .filter_map(|i| Some((ids.get(i)?.as_deref()?, i)))
        .collect();
    if of.is_empty() {
        return None;
    }
    of.sort_unstable_by(|a, b| a.0.cmp(b.0).then(start[a.1].total_cmp(&start[b.1])));
    let mut sessions: Vec<&[(&str, usize)]> = of.chunk_by(|a, b| a.0 == b.0).collect();
    sessions.sort_by(|a, b| start[a[0].1].total_cmp(&start[b[0].1]));
    let total = sessions.len();
    let pages = total.div_ceil(SESSIONS_PER_PAGE);
    let first = page.min(pages - 1) * SESSIONS_PER_PAGE;
    let shown = (total - first).min(SESSIONS_PER_PAGE);
    let turn = |i: usize| crate::model::facts::entry(&f.turn, i).map(|t| t as u32);
    let mut bars = Vec::new();
    for (k, s) in sessions[first..first + shown].iter().enumerate() {
        for &(_, i) in s.iter() {
            let t = start[i] - origin;
            let (first_token, end, failed) = match request_metrics(req, i) {
                Some(r) => (t + r.ttft, t + r.e2e, false),
                None => (t, t, true),
            };
            bars.push(Bar {
                row: first + k,
                turn: turn(i),
                request: i,
                start: t,
                first_token,
                end,
                failed,
            });
        }
    }
    // The whole level's time, whichever page: pages compare on one axis.
    let end = (0..req.len())
        .filter(|&i| start[i].is_finite())
        .filter_map(|i| Some(start[i] - origin + request_metrics(req, i)?.e2e))
        .fold(0.0f64, f64::max);
    let x_end = if end > 0.0 { end * 1.02 } else { 1.0 };
    let spec = ChartSpec {
        id: ChartKind::Timeline,
        x: Axis {
            label: "seconds since the first request was sent".into(),
            scale: Scale::Linear,
            range: (0.0, x_end),
        },
        panels: vec![Panel {
            title: format!(
                "sessions {}–{} of {total} at concurrency {}, one lane each: every turn's waiting + prefill (TTFT), then decode",
                first + 1,
                first + shown,
                point
                    .concurrency
                    .map_or_else(|| "?".to_owned(), |c| format!("{c}"))
            ),
            y: Axis {
                label: "session (in order of its first request)".into(),
                scale: Scale::Linear,
                range: (first as f64, (first + shown) as f64),
            },
            series: Vec::new(),
        }],
        bars,
        shade: None,
        marks: Vec::new(),
    };
    Some(SessionsPage {
        spec,
        total,
        first,
        shown,
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
