//! What the server saw (issue 31, work in progress): the engine's own gauges and counters, polled
//! from its Prometheus `/metrics` during a level, as time series; and the figures of a level from
//! them — the batch it really ran (running requests), its queue (waiting), KV-cache usage, its own
//! generation token rate, and tokens per decode step where the engine counts its steps.
//!
//! Engines name these differently; [`ENGINE_NAMES`] maps each documented name to one
//! [`ServerMetric`]. Sources: vLLM <https://docs.vllm.ai/en/stable/usage/metrics/>, SGLang's
//! production-metrics reference (docs/references/production_metrics.md), TGI
//! <https://huggingface.co/docs/text-generation-inference/reference/metrics>, llama.cpp
//! tools/server/README.md (`--metrics`).

use std::collections::BTreeMap;

/// One quantity the server reports about itself. Stored (tpsview/1) under its [`key`](Self::key).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ServerMetric {
    /// Requests in the running batch (gauge).
    #[serde(rename = "running")]
    Running,
    /// Requests waiting for a slot (gauge).
    #[serde(rename = "waiting")]
    Waiting,
    /// KV-cache usage as a fraction, 0–1 (gauge).
    #[serde(rename = "kv_cache_usage")]
    KvUsage,
    /// Output tokens generated since the server started (counter).
    #[serde(rename = "generation_tokens_total")]
    GenerationTokens,
    /// Prompt tokens processed since the server started (counter).
    #[serde(rename = "prompt_tokens_total")]
    PromptTokens,
    /// Decode calls since the server started (counter; llama.cpp's `llama_decode()` calls).
    #[serde(rename = "decode_calls_total")]
    DecodeCalls,
    /// The engine's own generation throughput, tokens/s (gauge; SGLang's).
    #[serde(rename = "engine_generation_tps")]
    GenThroughput,
}

impl ServerMetric {
    /// Every metric, in a fixed order.
    pub const ALL: [ServerMetric; 7] = [
        ServerMetric::Running,
        ServerMetric::Waiting,
        ServerMetric::KvUsage,
        ServerMetric::GenerationTokens,
        ServerMetric::PromptTokens,
        ServerMetric::DecodeCalls,
        ServerMetric::GenThroughput,
    ];

    /// The key it is stored under (tpsview/1) and printed as.
    pub fn key(self) -> &'static str {
        match self {
            ServerMetric::Running => "running",
            ServerMetric::Waiting => "waiting",
            ServerMetric::KvUsage => "kv_cache_usage",
            ServerMetric::GenerationTokens => "generation_tokens_total",
            ServerMetric::PromptTokens => "prompt_tokens_total",
            ServerMetric::DecodeCalls => "decode_calls_total",
            ServerMetric::GenThroughput => "engine_generation_tps",
        }
    }

    /// The metric a stored key names.
    pub fn from_key(key: &str) -> Option<ServerMetric> {
        ServerMetric::ALL.into_iter().find(|m| m.key() == key)
    }

    /// Whether it only grows (a counter), so that its rate over a window is what it means.
    pub fn is_counter(self) -> bool {
        matches!(
            self,
            ServerMetric::GenerationTokens | ServerMetric::PromptTokens | ServerMetric::DecodeCalls
        )
    }
}

/// Each engine's documented metric name and what it is.
pub const ENGINE_NAMES: &[(&str, ServerMetric)] = &[
    ("vllm:num_requests_running", ServerMetric::Running),
    ("vllm:num_requests_waiting", ServerMetric::Waiting),
    ("vllm:kv_cache_usage_perc", ServerMetric::KvUsage),
    // The older name of the same fraction (deprecated for `kv_cache_usage_perc`).
    ("vllm:gpu_cache_usage_perc", ServerMetric::KvUsage),
    (
        "vllm:generation_tokens_total",
        ServerMetric::GenerationTokens,
    ),
    ("vllm:prompt_tokens_total", ServerMetric::PromptTokens),
    ("sglang:num_running_reqs", ServerMetric::Running),
    ("sglang:num_queue_reqs", ServerMetric::Waiting),
    ("sglang:token_usage", ServerMetric::KvUsage),
    ("sglang:gen_throughput", ServerMetric::GenThroughput),
    (
        "sglang:generation_tokens_total",
        ServerMetric::GenerationTokens,
    ),
    ("sglang:prompt_tokens_total", ServerMetric::PromptTokens),
    ("llamacpp:requests_processing", ServerMetric::Running),
    ("llamacpp:requests_deferred", ServerMetric::Waiting),
    ("llamacpp:kv_cache_usage_ratio", ServerMetric::KvUsage),
    (
        "llamacpp:tokens_predicted_total",
        ServerMetric::GenerationTokens,
    ),
    ("llamacpp:prompt_tokens_total", ServerMetric::PromptTokens),
    ("llamacpp:n_decode_total", ServerMetric::DecodeCalls),
    ("tgi_batch_current_size", ServerMetric::Running),
    ("tgi_queue_size", ServerMetric::Waiting),
];

/// The metric an engine's name stands for.
pub fn canonical(name: &str) -> Option<ServerMetric> {
    ENGINE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| *m)
}

/// A level's samples of the server's metrics: poll times (seconds on the level's clock: the same
/// origin as its requests' send times) and, per metric, one value per poll (`None` where that poll
/// lacked it).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServerSeries {
    /// Where they came from (e.g. `http://127.0.0.1:8080/metrics`).
    pub source: String,
    /// Poll times, seconds, increasing.
    pub t_s: Vec<f64>,
    /// Values per metric, each as long as `t_s`.
    pub values: BTreeMap<ServerMetric, Vec<Option<f64>>>,
}

/// A gauge over a window, over its samples there (polls are evenly spaced).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Spread {
    /// Mean of the samples.
    pub mean: f64,
    /// Median (numpy-linear).
    pub p50: f64,
    /// Largest sample.
    pub max: f64,
    /// How many samples.
    pub samples: usize,
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
    let v: Vec<f64> = in_window(&s.t_s, s.values.get(&m)?, window)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    if v.is_empty() {
        return None;
    }
    let mean = crate::stats::sum(&v) / v.len() as f64;
    let mut sorted = v.clone();
    sorted.sort_by(f64::total_cmp);
    let p50 = crate::stats::percentile_sorted(&sorted, 50.0)?;
    let max = sorted[sorted.len() - 1];
    Some(Spread {
        mean,
        p50,
        max,
        samples: v.len(),
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
    let Some(values) = s.values.get(&m) else {
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
    /// the level's clock).
    pub window_s: (f64, f64),
    /// Polls in the window.
    pub polls: usize,
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
    /// Why a figure is undefined, by its key.
    pub undefined: BTreeMap<&'static str, String>,
}

/// The summary of a level's series over `window`.
pub fn summary(s: &ServerSeries, window: (f64, f64)) -> ServerSummary {
    let f = figures(s, window);
    let mut undefined = BTreeMap::new();
    let generation_tps = f
        .generation_tps
        .map_err(|e| undefined.insert("generation_tps", e))
        .ok();
    let tokens_per_decode_step = f
        .tokens_per_decode_step
        .map_err(|e| undefined.insert("tokens_per_decode_step", e))
        .ok();
    ServerSummary {
        source: s.source.clone(),
        window_s: window,
        polls: s
            .t_s
            .iter()
            .filter(|t| **t >= window.0 && **t <= window.1)
            .count(),
        running: f.running,
        waiting: f.waiting,
        kv_cache_usage: f.kv_cache_usage,
        generation_tps,
        tokens_per_decode_step,
        undefined,
    }
}

#[cfg(test)]
mod tests;
