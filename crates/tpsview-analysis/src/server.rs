//! What the server saw, as figures: a level's gauges and counters over its window (the batch it
//! ran, its queue, KV-cache usage, its own generation rate, tokens per decode step), or a tool's
//! statistics over its own window (`from_stats`), each audited against the client's count. The
//! names and series themselves are the model's (`tpsview_model::server`), re-exported here.

pub use tpsview_model::server::*;

/// A gauge over a window, over its samples there (polls are evenly spaced).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Spread {
    /// Mean of the samples.
    pub mean: f64,
    /// Median (numpy-linear); `None` where a tool's statistics over several series do not give
    /// it (the median of a sum is not the sum of the medians).
    pub p50: Option<f64>,
    /// Largest sample; `None` likewise.
    pub max: Option<f64>,
    /// How many samples; `None` where a tool's statistics do not say.
    pub samples: Option<usize>,
}

/// A level's server figures over a window.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerFigures {
    /// Requests running (the batch the server ran).
    pub running: Option<Spread>,
    /// Requests waiting.
    pub waiting: Option<Spread>,
    /// KV-cache usage, 0–1.
    pub kv_cache_usage: Option<Spread>,
    /// The server's generation T/s: Δ generation tokens ÷ Δ t over the window; why not, when not.
    pub generation_tps: Result<f64, String>,
    /// Output tokens per decode call over the window (llama.cpp): the batch, measured from the
    /// engine's own counters; why not, when not.
    pub tokens_per_decode_step: Result<f64, String>,
}

/// The samples of `values` whose poll time lies in `[from, to]` and that are numbers.
fn in_window(t: &[f64], values: &[Option<f64>], (from, to): (f64, f64)) -> Vec<(f64, f64)> {
    t.iter()
        .zip(values)
        .filter_map(|(t, v)| Some((*t, (*v)?)))
        .filter(|(t, v)| *t >= from && *t <= to && v.is_finite())
        .collect()
}

fn spread(s: &ServerSeries, m: ServerMetric, window: (f64, f64)) -> Option<Spread> {
    let v: Vec<f64> = in_window(&s.t_s, s.values.get(m)?, window)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    if v.is_empty() {
        return None;
    }
    let mean = crate::stats::sum(&v) / v.len() as f64;
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut v = v;
    let [p50] = crate::stats::percentiles(&mut v, [50.0]);
    Some(Spread {
        mean,
        p50: Some(p50?),
        max: Some(max),
        samples: Some(v.len()),
    })
}

/// A counter's rise over the window and the time it is over. The rise is read between the last
/// poll at or before the window's start and the level's last poll when that is at or after its
/// end (`tpsview bench` takes one an interval after the warm-up and one an interval after the
/// last request: engines that count a request's tokens when it finishes, as llama.cpp does, have
/// then counted exactly the window's requests); where those polls are missing, between the first
/// and last poll inside. The time is the window's length, or the polls' span where the window is
/// unbounded. An error with fewer than two polls, or where the counter goes down (a restart).
fn rise(s: &ServerSeries, m: ServerMetric, window: (f64, f64)) -> Result<(f64, f64), String> {
    let Some(values) = s.values.get(m) else {
        return Err(format!("the server does not report {}", m.key()));
    };
    let all: Vec<(f64, f64)> = s
        .t_s
        .iter()
        .zip(values)
        .filter_map(|(t, v)| Some((*t, (*v)?)))
        .filter(|(_, v)| v.is_finite())
        .collect();
    let first = all
        .iter()
        .rposition(|(t, _)| *t <= window.0)
        .or_else(|| all.iter().position(|(t, _)| *t >= window.0));
    let last = match all.last() {
        Some((t, _)) if *t >= window.1 => Some(all.len() - 1),
        _ => all.iter().rposition(|(t, _)| *t <= window.1),
    };
    let v: &[(f64, f64)] = match (first, last) {
        (Some(a), Some(b)) if a <= b => &all[a..=b],
        _ => &[],
    };
    if v.len() < 2 {
        return Err(format!(
            "{} has {} sample(s) in the window; a rate needs two",
            m.key(),
            v.len()
        ));
    }
    if let Some(w) = v.windows(2).find(|w| w[1].1 < w[0].1) {
        return Err(format!(
            "{} went down at {:.3} s ({} → {}): the server's counters were reset (a restart?)",
            m.key(),
            w[1].0,
            w[0].1,
            w[1].1
        ));
    }
    let (first, last) = (v[0], v[v.len() - 1]);
    let span = if window.0.is_finite() && window.1.is_finite() {
        window.1 - window.0
    } else {
        last.0 - first.0
    };
    Ok((last.1 - first.1, span))
}

/// The figures of one level over `window` (seconds on the level's clock).
pub fn figures(s: &ServerSeries, window: (f64, f64)) -> ServerFigures {
    let generation_tps = rise(s, ServerMetric::GenerationTokens, window).and_then(|(dv, dt)| {
        if dt > 0.0 {
            Ok(dv / dt)
        } else {
            Err("the samples span no time".to_owned())
        }
    });
    let tokens_per_decode_step =
        rise(s, ServerMetric::DecodeCalls, window).and_then(|(calls, _)| {
            let (tokens, _) = rise(s, ServerMetric::GenerationTokens, window)?;
            if calls > 0.0 {
                Ok(tokens / calls)
            } else {
                Err("no decode call in the window".to_owned())
            }
        });
    ServerFigures {
        running: spread(s, ServerMetric::Running, window),
        waiting: spread(s, ServerMetric::Waiting, window),
        kv_cache_usage: spread(s, ServerMetric::KvUsage, window),
        generation_tps,
        tokens_per_decode_step,
    }
}

/// A level's server figures as `summarize --json` writes them: `null` with a reason where a
/// figure is undefined, never 0.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ServerSummary {
    /// Where the samples came from.
    pub source: String,
    /// The window the figures are over: the level's first send to its last response (seconds on
    /// the level's clock); `None` for a tool's statistics over its own window (see `source`).
    pub window_s: Option<(f64, f64)>,
    /// Polls in the window; `None` where a tool's statistics do not say.
    pub polls: Option<usize>,
    /// Requests running: the batch the server ran.
    pub running: Option<Spread>,
    /// Requests waiting for a slot.
    pub waiting: Option<Spread>,
    /// KV-cache usage, 0–1.
    pub kv_cache_usage: Option<Spread>,
    /// The server's generation T/s (Δ its token counter ÷ Δ t).
    pub generation_tps: Option<f64>,
    /// Output tokens per decode call (llama.cpp): the batch, from the engine's counters.
    pub tokens_per_decode_step: Option<f64>,
    /// The client's system T/s over the same window, for the audit.
    pub client_system_tps: Option<f64>,
    /// (server − client) ÷ client × 100, where both are known.
    pub difference_pct: Option<f64>,
    /// What a difference over [`AUDIT_TOLERANCE_PCT`] may mean; `null` within it.
    pub audit: Option<String>,
    /// Why a figure is undefined, by its key.
    pub undefined: Undefined,
    /// The server's prefix-cache hit rate over the window, token-weighted: Δ cached ÷ Δ queried
    /// prompt tokens (vLLM's hits and queries; llama.cpp's cached ÷ (cached + computed)), where
    /// its counters say; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix_cache_hit_rate: Option<f64>,
    /// The client's hit rate over the same requests (Σ cached ÷ Σ prompt tokens), for the audit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_cache_hit_rate: Option<f64>,
    /// What a difference of the two over [`CACHE_AUDIT_TOLERANCE`] may mean.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_audit: Option<String>,
}

/// How far (as a fraction, 0.02 = 2 points) the server's prefix-cache hit rate may sit from the
/// client's before the difference is named.
pub const CACHE_AUDIT_TOLERANCE: f64 = 0.02;

/// The server's prefix-cache hit rate over `window` from its counters, audited against the
/// client's (`client`: Σ cached ÷ Σ prompt tokens of the level's requests), set on `out`. Where
/// the server reports no cached-token counter, nothing is set.
pub fn prefix_cache(
    out: &mut ServerSummary,
    s: &ServerSeries,
    window: (f64, f64),
    client: Option<f64>,
) {
    let Ok((cached, _)) = rise(s, ServerMetric::CachedPromptTokens, window) else {
        return;
    };
    // vLLM counts the tokens it looked up; llama.cpp only those it computed besides the cached.
    let queried = match rise(s, ServerMetric::PrefixCacheQueries, window) {
        Ok((q, _)) => Some(q),
        Err(_) => rise(s, ServerMetric::PromptTokens, window)
            .ok()
            .map(|(computed, _)| computed + cached),
    };
    let Some(rate) = queried.filter(|q| *q > 0.0).map(|q| cached / q) else {
        return;
    };
    out.prefix_cache_hit_rate = Some(rate);
    out.client_cache_hit_rate = client;
    out.cache_audit = client
        .filter(|c| (rate - c).abs() > CACHE_AUDIT_TOLERANCE)
        .map(|c| {
            format!(
                "the server's counters give a prefix-cache hit rate of {:.1} %, this client's requests {:.1} %: \
                 other clients, warm-up requests or a server that caches across requests this client \
                 did not count (its counters cover everything it served in the window), or responses \
                 that did not report their cached tokens",
                rate * 100.0,
                c * 100.0
            )
        });
}

/// Why a server figure is undefined (`summarize --json`: an object with a key per undefined
/// figure).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Undefined {
    /// Why `generation_tps` is undefined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation_tps: Option<String>,
    /// Why `tokens_per_decode_step` is undefined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_per_decode_step: Option<String>,
}

/// How far (%) the server's generation T/s may sit from the client's system T/s before the
/// difference is named.
pub const AUDIT_TOLERANCE_PCT: f64 = 5.0;

/// The server's generation T/s against the client's system T/s over the same window: the
/// difference in percent, and what it may mean where it is over [`AUDIT_TOLERANCE_PCT`].
pub fn audit(server_tps: f64, client_tps: f64) -> Option<(f64, Option<String>)> {
    if !(client_tps > 0.0 && server_tps.is_finite()) {
        return None;
    }
    let pct = (server_tps - client_tps) / client_tps * 100.0;
    let note = (pct.abs() > AUDIT_TOLERANCE_PCT).then(|| {
        if pct > 0.0 {
            format!(
                "the server generated {pct:.1} % more tokens per second than this client received: \
                 other clients on the server, warm-up or abandoned requests counted in the window, \
                 or the client counting fewer tokens than the server (e.g. chunks, not tokens)"
            )
        } else {
            format!(
                "the server counted {:.1} % fewer tokens per second than this client received: \
                 the server counting a request's tokens only when it finishes (some were still \
                 running at the window's end), a counter not covering every request, or the \
                 client counting more tokens than the server (a tokenizer other than the model's)",
                -pct
            )
        }
    });
    Some((pct, note))
}

/// The summary of a level's series over `window`, audited against the client's system T/s over
/// the same window where it is known.
pub fn summary(
    s: &ServerSeries,
    window: (f64, f64),
    client_system_tps: Option<f64>,
) -> ServerSummary {
    let polls = s
        .t_s
        .iter()
        .filter(|t| **t >= window.0 && **t <= window.1)
        .count();
    audited(
        s.source.clone(),
        Some(window),
        Some(polls),
        figures(s, window),
        client_system_tps,
    )
}

/// A level's server figures from a tool's statistics over its own window ([`ServerStats`]),
/// audited against the client's system T/s, where they hold any; `source` says where they come
/// from and over which window.
pub fn from_stats(
    stats: &ServerStats,
    source: Option<&str>,
    client_system_tps: Option<f64>,
) -> Option<ServerSummary> {
    let get = |m: ServerMetric, stat: WindowStat| {
        stats
            .stat(m, stat)
            // Counts, tokens and fractions: a negative one is no figure.
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    let gauge = |m: ServerMetric| {
        Some(Spread {
            mean: get(m, WindowStat::Mean)?,
            p50: get(m, WindowStat::P50),
            max: get(m, WindowStat::Max),
            samples: None,
        })
    };
    let generation_tps = get(ServerMetric::GenerationTokens, WindowStat::Rate).ok_or_else(|| {
        format!(
            "the statistics have no rate of {}",
            ServerMetric::GenerationTokens.key()
        )
    });
    let tokens_per_decode_step = match (
        get(ServerMetric::GenerationTokens, WindowStat::Total),
        get(ServerMetric::DecodeCalls, WindowStat::Total),
    ) {
        (Some(tokens), Some(calls)) if calls > 0.0 => Ok(tokens / calls),
        (Some(_), Some(_)) => Err("no decode call in the window".to_owned()),
        (None, Some(_)) => Err(format!(
            "the statistics have no total of {}",
            ServerMetric::GenerationTokens.key()
        )),
        (_, None) => Err(format!(
            "the server does not report {}",
            ServerMetric::DecodeCalls.key()
        )),
    };
    let f = ServerFigures {
        running: gauge(ServerMetric::Running),
        waiting: gauge(ServerMetric::Waiting),
        kv_cache_usage: gauge(ServerMetric::KvUsage),
        generation_tps,
        tokens_per_decode_step,
    };
    if f.running.is_none()
        && f.waiting.is_none()
        && f.kv_cache_usage.is_none()
        && f.generation_tps.is_err()
    {
        return None;
    }
    let source = source.unwrap_or(
        "AIPerf's statistics of its scrapes of the server's metrics over its profiling window (server_metrics_export.json / .csv)",
    );
    Some(audited(source.to_owned(), None, None, f, client_system_tps))
}

/// A level's server summary from its figures, audited against the client's system T/s.
fn audited(
    source: String,
    window_s: Option<(f64, f64)>,
    polls: Option<usize>,
    f: ServerFigures,
    client_system_tps: Option<f64>,
) -> ServerSummary {
    let undefined = Undefined {
        generation_tps: f.generation_tps.clone().err(),
        tokens_per_decode_step: f.tokens_per_decode_step.clone().err(),
    };
    let generation_tps = f.generation_tps.ok();
    let tokens_per_decode_step = f.tokens_per_decode_step.ok();
    let checked = generation_tps
        .zip(client_system_tps)
        .and_then(|(s, c)| audit(s, c));
    ServerSummary {
        source,
        window_s,
        polls,
        running: f.running,
        waiting: f.waiting,
        kv_cache_usage: f.kv_cache_usage,
        generation_tps,
        tokens_per_decode_step,
        client_system_tps,
        difference_pct: checked.as_ref().map(|c| c.0),
        audit: checked.and_then(|c| c.1),
        undefined,
        prefix_cache_hit_rate: None,
        client_cache_hit_rate: None,
        cache_audit: None,
    }
}

#[cfg(test)]
mod tests;

/// The batch the server ran at a level, against the concurrency asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ran {
    /// The concurrency asked, when the level has one.
    pub asked: Option<f64>,
    /// Requests running, mean over the level's window: the batch the server ran.
    pub running: f64,
    /// The most requests waiting at a poll, where the server reports its queue.
    pub waited: Option<f64>,
    /// Output tokens per decode step, where the engine counts its steps.
    pub tokens_per_step: Option<f64>,
}

impl Ran {
    /// The batch a level's server summary shows, where it reports running requests.
    pub fn of(asked: Option<f64>, s: &ServerSummary) -> Option<Ran> {
        Some(Ran {
            asked,
            running: s.running?.mean,
            waited: s.waiting.and_then(|w| w.max),
            tokens_per_step: s.tokens_per_decode_step,
        })
    }

    /// True where the server ran fewer than asked — by half a request or more on average — while
    /// requests waited for a slot.
    pub fn short(&self) -> bool {
        self.asked.is_some_and(|a| a - self.running >= 0.5) && self.waited.is_some_and(|w| w > 0.0)
    }

    /// How the chart and the cards say it: "asked 8, ran 4: 4 waited" where [`short`](Self::short),
    /// else "ran 3.8".
    pub fn text(&self) -> String {
        let ran = count(self.running);
        match (self.asked, self.waited) {
            (Some(a), Some(w)) if self.short() => {
                format!("asked {}, ran {ran}: {} waited", count(a), count(w))
            }
            _ => format!("ran {ran}"),
        }
    }
}

/// A count of requests as text: whole where it is within 0.05 of one, else one decimal.
pub fn count(v: f64) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{:.0}", v.round())
    } else {
        format!("{v:.1}")
    }
}
