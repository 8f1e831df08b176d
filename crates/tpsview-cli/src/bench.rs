//! `tpsview bench`: measures an OpenAI-compatible streaming server at several concurrency levels
//! and writes `tpsview/1` with every request's send time and every content chunk's arrival, taken
//! on a monotonic clock as each chunk arrives. Closed-loop clients per level (or open-loop Poisson
//! arrivals at `--rate`, capped by the level); warm-up requests are sent and not recorded.
//! Failures (server down, HTTP errors, malformed events, streams cut short, requests that hang)
//! become failed requests with their reason; Ctrl-C writes what finished.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use tpsview_core::error::Diagnostic;
use tpsview_core::model::{Metadata, Point, Report, Reported, Requests, Run};
use tpsview_core::requests::{Row, Rows};

pub mod cli;
pub mod metrics;
pub mod sessions;
pub mod sse;
pub mod stub;

use sse::Chunk;

/// Which OpenAI endpoint to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Endpoint {
    /// `/v1/completions` with a prompt.
    Completions,
    /// `/v1/chat/completions` with one user message.
    Chat,
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct Config {
    /// Server base URL, e.g. `http://127.0.0.1:8000` (a trailing `/v1` is accepted).
    pub url: String,
    /// Model name sent with each request.
    pub model: String,
    /// Concurrency levels.
    pub levels: Vec<u32>,
    /// Recorded requests per level.
    pub requests_per_level: usize,
    /// `max_tokens` of each request.
    pub max_tokens: u32,
    /// Approximate prompt length in tokens (one short word each).
    pub prompt_tokens: u32,
    /// Endpoint.
    pub endpoint: Endpoint,
    /// Open-loop arrival rate (requests/s), `None` for closed loop.
    pub rate: Option<f64>,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Warm-up requests per level, sent together and not recorded (default: one per client).
    pub warmup: Option<usize>,
    /// Seed of the Poisson arrivals.
    pub seed: u64,
    /// Ask the server to ignore end-of-sequence (vLLM, SGLang, llama.cpp accept `ignore_eos`).
    pub ignore_eos: bool,
    /// Multi-turn sessions instead of independent requests (`--sessions`).
    pub sessions: Option<sessions::Plan>,
}

impl Config {
    pub fn base(&self) -> String {
        let u = self.url.trim_end_matches('/');
        u.strip_suffix("/v1").unwrap_or(u).to_owned()
    }

    /// Recorded requests per level: every turn of every session, or `requests_per_level`.
    pub fn recorded_per_level(&self) -> usize {
        self.sessions
            .map_or(self.requests_per_level, |p| p.count * p.turns as usize)
    }

    fn endpoint_url(&self) -> String {
        match self.endpoint {
            Endpoint::Completions => format!("{}/v1/completions", self.base()),
            Endpoint::Chat => format!("{}/v1/chat/completions", self.base()),
        }
    }

    /// What every request asks, whatever its prompt: the model, `max_tokens`, a stream with its
    /// usage, temperature 0, and `ignore_eos` when asked.
    pub fn request_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "model": self.model,
            "max_tokens": self.max_tokens,
            "stream": true,
            "stream_options": { "include_usage": true },
            "temperature": 0.0,
        });
        if self.ignore_eos {
            v["ignore_eos"] = serde_json::Value::Bool(true);
        }
        v
    }

    /// The request body: the same prompt for every request (so every request asks the same work).
    pub fn body(&self) -> String {
        let words: Vec<&str> = ["the", "a", "tokens", "per", "second", "of", "one", "stream"]
            .iter()
            .copied()
            .cycle()
            .take(self.prompt_tokens as usize)
            .collect();
        let prompt = words.join(" ");
        let mut v = self.request_json();
        match self.endpoint {
            Endpoint::Completions => v["prompt"] = prompt.into(),
            Endpoint::Chat => {
                v["messages"] = serde_json::json!([{ "role": "user", "content": prompt }])
            }
        }
        v.to_string()
    }
}

/// One request as measured. Times are since the run's start (`start`) or since the send.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// Send time since the run started.
    pub start: Duration,
    /// Arrival of each content chunk, since the send.
    pub chunks: Vec<Duration>,
    /// `usage.completion_tokens`.
    pub completion_tokens: Option<u32>,
    /// `usage.prompt_tokens`.
    pub prompt_tokens: Option<u32>,
    /// Finish reason.
    pub finish_reason: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// Time the client spent reading this request's events (its own overhead).
    pub client_ns: u64,
    /// Events read (content or not).
    pub events: u64,
    /// Arrival of the first chunk with visible text (not reasoning), since the send.
    pub first_visible: Option<Duration>,
    /// Whether reasoning text arrived before any visible text.
    pub reasoned: bool,
    /// The visible text of the answer (kept for a session's next turn).
    pub text: String,
    /// Prompt tokens the server took from its prefix cache, when it says.
    pub cached_tokens: Option<u32>,
    /// The session and turn of a request sent by `--sessions`.
    pub session: Option<(usize, u32)>,
}

/// Sends one streaming request and reads it to the end, the timeout, or an error.
pub async fn one_request(
    client: &reqwest::Client,
    url: &str,
    body: &str,
    timeout: Duration,
    run_start: Instant,
) -> Record {
    let mut t0 = Instant::now();
    let mut rec = Record {
        start: t0 - run_start,
        ..Record::default()
    };
    let read = async {
        // A pooled keep-alive connection the server closed just before it was reused fails
        // before anything was sent: retried once, on a new connection, timed from the retry.
        let mut retried = false;
        let resp = loop {
            let sent = client
                .post(url)
                .header("content-type", "application/json")
                .header("accept", "text/event-stream")
                .body(body.to_owned())
                .send()
                .await;
            match sent {
                Ok(r) => break r,
                Err(e) if !retried && is_stale_connection(&e) => {
                    retried = true;
                    t0 = Instant::now();
                    rec.start = t0 - run_start;
                }
                Err(e) => return Err(describe(&e)),
            }
        };
        let status = resp.status();
        if !status.is_success() {
            let text = resp.text().await.unwrap_or_default();
            let text: String = text.chars().take(200).collect();
            return Err(format!("HTTP {status}: {}", text.trim()));
        }
        let mut events = resp.bytes_stream().eventsource();
        let mut done = false;
        while let Some(ev) = events.next().await {
            let at = Instant::now();
            let ev = ev.map_err(|e| format!("the stream broke: {e}"))?;
            rec.events += 1;
            let chunk = sse::classify(&ev.data);
            match chunk {
                Chunk::Done => {
                    done = true;
                }
                Chunk::Data {
                    content,
                    visible,
                    cached_tokens,
                    completion_tokens,
                    prompt_tokens,
                    finish_reason,
                    error,
                } => {
                    if let Some(e) = error {
                        return Err(format!("the server streamed an error: {e}"));
                    }
                    if content {
                        rec.chunks.push(at - t0);
                        match visible {
                            Some(text) => {
                                rec.first_visible.get_or_insert(at - t0);
                                rec.text.push_str(&text);
                            }
                            None => rec.reasoned |= rec.first_visible.is_none(),
                        }
                    }
                    rec.cached_tokens = cached_tokens.or(rec.cached_tokens);
                    rec.completion_tokens = completion_tokens.or(rec.completion_tokens);
                    rec.prompt_tokens = prompt_tokens.or(rec.prompt_tokens);
                    if finish_reason.is_some() {
                        rec.finish_reason = finish_reason;
                    }
                }
                Chunk::Malformed(text) => {
                    return Err(format!("malformed event data: {text:?}"));
                }
            }
            rec.client_ns += at.elapsed().as_nanos() as u64;
            if done {
                break;
            }
        }
        if !done && rec.finish_reason.is_none() {
            return Err(
                "the stream ended before the response finished (no finish reason, no [DONE])"
                    .into(),
            );
        }
        Ok(())
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(())) if rec.chunks.is_empty() => {
            rec.error = Some("the response had no content".into());
        }
        Ok(Ok(())) => {}
        Ok(Err(e)) => rec.error = Some(e),
        Err(_) => {
            rec.error = Some(format!(
                "no complete response within {} s (per-request timeout)",
                timeout.as_secs_f64()
            ))
        }
    }
    rec
}

/// The error of a request sent on a pooled connection the server had already closed.
fn is_stale_connection(e: &reqwest::Error) -> bool {
    let text = describe(e);
    e.is_request()
        && !e.is_timeout()
        && (text.contains("connection closed before message completed")
            || text.contains("connection reset"))
}

fn describe(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    if e.is_connect() {
        format!("cannot connect to the server ({s})")
    } else {
        s
    }
}

/// Live counters for the progress display.
#[derive(Default)]
pub struct Progress {
    /// Requests finished at the current level.
    pub done: AtomicUsize,
    /// Content chunks received at the current level.
    pub chunks: AtomicU64,
}

/// Runs one level: warm-up, then `requests_per_level` recorded requests from `level` closed-loop
/// clients (or Poisson arrivals at `rate`, at most `level` in flight). Stops taking new requests
/// when `stop` is set; requests in flight then are dropped, not recorded. With `between`, it
/// says when the warm-up is over (the first) and waits for the second before the recorded
/// requests: the server's metrics are polled in that gap (`metrics::poll`).
pub async fn run_level(
    client: &reqwest::Client,
    cfg: &Config,
    level: u32,
    run_start: Instant,
    stop: &AtomicBool,
    progress: &Progress,
    between: Option<(&tokio::sync::Notify, &tokio::sync::Notify)>,
) -> Vec<Record> {
    let url = cfg.endpoint_url();
    let body = cfg.body();
    let clients = level.max(1) as usize;
    // Warm-up: discarded.
    let warm: Vec<_> = (0..cfg.warmup.unwrap_or(clients))
        .map(|_| one_request(client, &url, &body, cfg.timeout, run_start))
        .collect();
    futures_util::future::join_all(warm).await;
    if let Some((warmed, resume)) = between {
        warmed.notify_one();
        resume.notified().await;
    }
    progress.done.store(0, Ordering::Relaxed);
    progress.chunks.store(0, Ordering::Relaxed);

    let out = Mutex::new(Vec::with_capacity(cfg.requests_per_level));
    let next = AtomicUsize::new(0);
    let n = cfg.requests_per_level;
    let record = |r: Record| {
        progress.done.fetch_add(1, Ordering::Relaxed);
        progress
            .chunks
            .fetch_add(r.chunks.len() as u64, Ordering::Relaxed);
        if let Ok(mut o) = out.lock() {
            o.push(r);
        }
    };
    let stopped = || stop.load(Ordering::Relaxed);
    if let Some(plan) = cfg.sessions {
        // `level` sessions in flight: each worker takes the next session and runs its turns.
        let record = &record;
        let worker = || async {
            loop {
                let s = next.fetch_add(1, Ordering::Relaxed);
                if stopped() || s >= plan.count {
                    break;
                }
                let one = sessions::run_session(client, cfg, &plan, s, run_start, record);
                tokio::select! {
                    _ = one => {}
                    _ = wait_for(stop) => break,
                }
            }
        };
        futures_util::future::join_all((0..clients).map(|_| worker())).await;
        let mut v = std::mem::take(&mut *out.lock().unwrap_or_else(|e| e.into_inner()));
        v.sort_by_key(|r| r.start);
        return v;
    }
    match cfg.rate {
        None => {
            let worker = || async {
                while !stopped() && next.fetch_add(1, Ordering::Relaxed) < n {
                    let r = tokio::select! {
                        r = one_request(client, &url, &body, cfg.timeout, run_start) => Some(r),
                        _ = wait_for(stop) => None,
                    };
                    match r {
                        Some(r) => record(r),
                        None => break,
                    }
                }
            };
            futures_util::future::join_all((0..clients).map(|_| worker())).await;
        }
        Some(rate) => {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(cfg.seed ^ u64::from(level));
            let sem = tokio::sync::Semaphore::new(clients);
            let t = Instant::now();
            let mut at = 0.0f64;
            let mut tasks = futures_util::stream::FuturesUnordered::new();
            for _ in 0..n {
                // Exponential inter-arrival times: a Poisson process at `rate`.
                let u: f64 = rng.random_range(f64::EPSILON..1.0);
                at += -u.ln() / rate;
                let due = t + Duration::from_secs_f64(at);
                let sem = &sem;
                let (url, body) = (&url, &body);
                tasks.push(async move {
                    tokio::time::sleep_until(due.into()).await;
                    if stopped() {
                        return None;
                    }
                    let _permit = sem.acquire().await.ok()?;
                    tokio::select! {
                        r = one_request(client, url, body, cfg.timeout, run_start) => Some(r),
                        _ = wait_for(stop) => None,
                    }
                });
            }
            while let Some(r) = tasks.next().await {
                if let Some(r) = r {
                    record(r);
                }
            }
        }
    }
    let mut v = out.into_inner().unwrap_or_default();
    v.sort_by_key(|r| r.start);
    v
}

async fn wait_for(flag: &AtomicBool) {
    while !flag.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Request columns from records, built and validated as every importer's are (`requests::Rows`):
/// requests that break a rule are left out and named in the diagnostics, under `file`.
/// `chunk_counted` counts requests whose token count is their content chunks because the server
/// sent no usage.
pub fn to_requests(
    records: &[Record],
    file: &str,
    chunk_counted: &mut usize,
) -> (Requests, Vec<Diagnostic>) {
    let mut rows = Rows::default();
    for r in records {
        let start_s = Some(r.start.as_secs_f64());
        let input_tokens = r.prompt_tokens.map(f64::from);
        // Its session and turn (`--sessions`), the cached prompt tokens the server said, and,
        // where reasoning text came first, the first visible token apart from the first token.
        let facts = tpsview_core::requests::RowFacts {
            session: r.session.map(|(s, _)| format!("session-{s}")),
            turn: r.session.map(|(_, t)| f64::from(t)),
            cached_prompt_tokens: r.cached_tokens.map(f64::from),
            ttfvt_s: r
                .first_visible
                .filter(|_| r.reasoned)
                .map(|d| d.as_secs_f64()),
            reasoning_tokens: None,
        };
        rows.push(match (&r.error, r.chunks.first(), r.chunks.last()) {
            (None, Some(first), Some(last)) => {
                let output_tokens = r.completion_tokens.unwrap_or_else(|| {
                    *chunk_counted += 1;
                    r.chunks.len() as u32
                });
                Row {
                    start_s,
                    ttft_s: first.as_secs_f64(),
                    e2e_s: last.as_secs_f64(),
                    input_tokens,
                    output_tokens: f64::from(output_tokens),
                    gaps_s: Some(
                        r.chunks
                            .windows(2)
                            .map(|w| (w[1] - w[0]).as_secs_f64())
                            .collect(),
                    ),
                    facts,
                    ..Row::default()
                }
            }
            (err, ..) => Row {
                start_s,
                input_tokens,
                facts,
                ..Row::failed(err.as_deref().unwrap_or("no content").to_owned())
            },
        });
    }
    let mut diags = Vec::new();
    let requests = rows.finish(file, "requests", &mut diags);
    (requests, diags)
}

/// What the server says it serves (`GET /v1/models`), compact, and the engine it names.
pub async fn server_models(
    client: &reqwest::Client,
    cfg: &Config,
) -> (Option<String>, Option<String>) {
    let url = format!("{}/v1/models", cfg.base());
    let Ok(Ok(resp)) = tokio::time::timeout(Duration::from_secs(5), client.get(&url).send()).await
    else {
        return (None, None);
    };
    let Ok(text) = resp.text().await else {
        return (None, None);
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return (None, None);
    };
    let engine = v
        .pointer("/data/0/owned_by")
        .and_then(|o| o.as_str())
        .map(str::to_owned);
    let text: String = v.to_string().chars().take(2000).collect();
    (Some(text), engine)
}

/// The report of a run: one point per level measured.
pub fn report(
    cfg: &Config,
    levels: &[(u32, Vec<Record>)],
    meta: Metadata,
    label: tpsview_core::model::RunName,
) -> (Report, usize, Vec<Diagnostic>) {
    let mut chunk_counted = 0;
    let mut diags = Vec::new();
    let points = levels
        .iter()
        .map(|(level, recs)| {
            let source_file = format!("tpsview bench, concurrency {level}");
            let (requests, d) = to_requests(recs, &source_file, &mut chunk_counted);
            diags.extend(d);
            Point {
                source_file,
                concurrency: Some(f64::from(*level)),
                request_rate: cfg.rate,
                requests: Some(requests),
                reported: Reported {
                    tool: tpsview_core::formats::tpsview::ID.into(),
                    ..Reported::default()
                },
                sampled_from: None,
                server: None,
                ..Point::default()
            }
        })
        .collect();
    (
        Report {
            meta: Metadata::default(),
            runs: vec![Run {
                label,
                source_format: tpsview_core::formats::tpsview::ID.into(),
                meta,
                points,
                axis: None,
            }],
        },
        chunk_counted,
        diags,
    )
}

/// The time now as RFC 3339 (UTC, seconds).
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// This machine's name, when it has one.
pub fn host_name() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// Shared state of a run, for Ctrl-C.
pub struct Interrupt {
    /// Set by Ctrl-C.
    pub stop: Arc<AtomicBool>,
}

impl Interrupt {
    /// Installs the Ctrl-C handler.
    pub fn install() -> Interrupt {
        let stop = Arc::new(AtomicBool::new(false));
        let s = stop.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                s.store(true, Ordering::Relaxed);
            }
        });
        Interrupt { stop }
    }
}

#[cfg(test)]
mod tests;
