//! What the server saw (issue 31): the engine's own gauges and counters, polled
//! from its Prometheus `/metrics` during a level, as time series; and the figures of a level from
//! them — the batch it really ran (running requests), its queue (waiting), KV-cache usage, its own
//! generation token rate, and tokens per decode step where the engine counts its steps.
//!
//! Engines name these differently; [`ENGINE_NAMES`] maps each documented name to one
//! [`ServerMetric`]. Sources: vLLM <https://docs.vllm.ai/en/stable/usage/metrics/>, SGLang's
//! production-metrics reference (docs/references/production_metrics.md), TGI
//! <https://huggingface.co/docs/text-generation-inference/reference/metrics>, llama.cpp
//! tools/server/README.md (`--metrics`).

/// One quantity the server reports about itself. Stored (tpsview/1) under its [`key`](Self::key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ServerMetric {
    /// Requests in the running batch (gauge).
    Running,
    /// Requests waiting for a slot (gauge).
    Waiting,
    /// KV-cache usage as a fraction, 0–1 (gauge).
    KvUsage,
    /// Output tokens generated since the server started (counter).
    GenerationTokens,
    /// Prompt tokens processed since the server started (counter).
    PromptTokens,
    /// Decode calls since the server started (counter; llama.cpp's `llama_decode()` calls).
    DecodeCalls,
    /// The engine's own generation throughput, tokens/s (gauge; SGLang's).
    GenThroughput,
    /// Prompt tokens served from the prefix cache since the server started (counter; vLLM's
    /// `prefix_cache_hits_total`, llama.cpp's `prompt_tokens_cached_total`).
    CachedPromptTokens,
    /// Prompt tokens looked up in the prefix cache since the server started (counter; vLLM's
    /// `prefix_cache_queries_total`). llama.cpp has none: its `prompt_tokens_total` counts only
    /// the tokens it computed, so its queries are those plus the cached ones.
    PrefixCacheQueries,
}

impl ServerMetric {
    /// Every metric, in a fixed order.
    pub const ALL: [ServerMetric; 9] = [
        ServerMetric::Running,
        ServerMetric::Waiting,
        ServerMetric::KvUsage,
        ServerMetric::GenerationTokens,
        ServerMetric::PromptTokens,
        ServerMetric::DecodeCalls,
        ServerMetric::GenThroughput,
        ServerMetric::CachedPromptTokens,
        ServerMetric::PrefixCacheQueries,
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
            ServerMetric::CachedPromptTokens => "prompt_tokens_cached_total",
            ServerMetric::PrefixCacheQueries => "prefix_cache_queries_total",
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
            ServerMetric::GenerationTokens
                | ServerMetric::PromptTokens
                | ServerMetric::DecodeCalls
                | ServerMetric::CachedPromptTokens
                | ServerMetric::PrefixCacheQueries
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
    (
        "vllm:prefix_cache_hits_total",
        ServerMetric::CachedPromptTokens,
    ),
    (
        "vllm:prefix_cache_queries_total",
        ServerMetric::PrefixCacheQueries,
    ),
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
    (
        "llamacpp:prompt_tokens_cached_total",
        ServerMetric::CachedPromptTokens,
    ),
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

/// The metric of a family as Python's `prometheus_client` names it (AIPerf's server-metrics
/// export): a counter's family drops its `_total` (`vllm:generation_tokens`).
pub fn canonical_family(name: &str) -> Option<ServerMetric> {
    canonical(name).or_else(|| canonical(&format!("{name}_total")).filter(|m| m.is_counter()))
}

/// One scrape's value of each metric, from its samples: a metric exposed as several series (one
/// per model, engine or endpoint) is summed where it counts requests, tokens or calls, and
/// averaged where it is a fraction (KV-cache usage); samples that are not numbers are left out.
pub fn combine(
    samples: impl IntoIterator<Item = (ServerMetric, f64)>,
) -> std::collections::BTreeMap<ServerMetric, f64> {
    let mut sums: std::collections::BTreeMap<ServerMetric, (f64, usize)> = Default::default();
    for (m, v) in samples.into_iter().filter(|(_, v)| v.is_finite()) {
        let e = sums.entry(m).or_insert((0.0, 0));
        e.0 += v;
        e.1 += 1;
    }
    sums.into_iter()
        .map(|(m, (sum, n))| {
            let v = if m == ServerMetric::KvUsage {
                sum / n as f64
            } else {
                sum
            };
            (m, v)
        })
        .collect()
}

/// Several sources' scrapes (replicas, pods: `(time, source, values)`, in any order) as one
/// series: at each scrape (one per instant), every source's last values [`combine`]d — summed, KV-cache usage
/// averaged — from the first scrape at which every source has reported. `None` without a scrape.
pub fn merge_sources(
    mut scrapes: Vec<(f64, usize, std::collections::BTreeMap<ServerMetric, f64>)>,
    sources: usize,
) -> Option<(Vec<f64>, ServerValues)> {
    scrapes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut last: Vec<Option<&std::collections::BTreeMap<ServerMetric, f64>>> = vec![None; sources];
    let mut t_s = Vec::new();
    let mut columns: std::collections::BTreeMap<ServerMetric, Vec<Option<f64>>> =
        Default::default();
    for (i, (t, e, values)) in scrapes.iter().enumerate() {
        last[*e] = Some(values);
        // Sources scraped at one instant (llm-d's pods) make one sample.
        let same_time_next = scrapes.get(i + 1).is_some_and(|n| n.0 == *t);
        if same_time_next || last.iter().any(Option::is_none) {
            continue;
        }
        let now = combine(
            last.iter()
                .flatten()
                .flat_map(|v| v.iter().map(|(m, x)| (*m, *x))),
        );
        let k = t_s.len();
        t_s.push(*t);
        for (m, v) in now {
            columns
                .entry(m)
                .or_insert_with(|| vec![None; k])
                .push(Some(v));
        }
        for c in columns.values_mut() {
            c.resize(k + 1, None);
        }
    }
    (!t_s.is_empty()).then(|| (t_s, columns.into_iter().collect()))
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
    pub values: ServerValues,
}

/// One column per [`ServerMetric`], each as long as the series' polls; `None` (JSON `null`) for a
/// metric the server never reported.
pub type ServerValues = PerMetric<Vec<Option<f64>>>;

/// One `T` per [`ServerMetric`], `None` (JSON `null`) for a metric the server never reported.
/// Fields rather than a map: the page decodes this in two formats (JSON, postcard), and a map
/// keyed by an enum cost it 3 KB gzip more.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PerMetric<T> {
    /// [`ServerMetric::Running`].
    #[serde(default)]
    pub running: Option<T>,
    /// [`ServerMetric::Waiting`].
    #[serde(default)]
    pub waiting: Option<T>,
    /// [`ServerMetric::KvUsage`].
    #[serde(default)]
    pub kv_cache_usage: Option<T>,
    /// [`ServerMetric::GenerationTokens`].
    #[serde(default)]
    pub generation_tokens_total: Option<T>,
    /// [`ServerMetric::PromptTokens`].
    #[serde(default)]
    pub prompt_tokens_total: Option<T>,
    /// [`ServerMetric::DecodeCalls`].
    #[serde(default)]
    pub decode_calls_total: Option<T>,
    /// [`ServerMetric::GenThroughput`].
    #[serde(default)]
    pub engine_generation_tps: Option<T>,
    /// [`ServerMetric::CachedPromptTokens`].
    #[serde(default)]
    pub prompt_tokens_cached_total: Option<T>,
    /// [`ServerMetric::PrefixCacheQueries`].
    #[serde(default)]
    pub prefix_cache_queries_total: Option<T>,
}

impl<T> PerMetric<T> {
    /// The value of `m`, where the server reported it.
    pub fn get(&self, m: ServerMetric) -> Option<&T> {
        self.slot(m).as_ref()
    }

    /// The value of `m`, to change, where the server reported it.
    pub fn get_mut(&mut self, m: ServerMetric) -> Option<&mut T> {
        self.slot_mut(m).as_mut()
    }

    /// The value of `m`, `None` as the place where it is not reported.
    pub fn slot(&self, m: ServerMetric) -> &Option<T> {
        match m {
            ServerMetric::Running => &self.running,
            ServerMetric::Waiting => &self.waiting,
            ServerMetric::KvUsage => &self.kv_cache_usage,
            ServerMetric::GenerationTokens => &self.generation_tokens_total,
            ServerMetric::PromptTokens => &self.prompt_tokens_total,
            ServerMetric::DecodeCalls => &self.decode_calls_total,
            ServerMetric::GenThroughput => &self.engine_generation_tps,
            ServerMetric::CachedPromptTokens => &self.prompt_tokens_cached_total,
            ServerMetric::PrefixCacheQueries => &self.prefix_cache_queries_total,
        }
    }

    /// The place of `m`'s value.
    pub fn slot_mut(&mut self, m: ServerMetric) -> &mut Option<T> {
        match m {
            ServerMetric::Running => &mut self.running,
            ServerMetric::Waiting => &mut self.waiting,
            ServerMetric::KvUsage => &mut self.kv_cache_usage,
            ServerMetric::GenerationTokens => &mut self.generation_tokens_total,
            ServerMetric::PromptTokens => &mut self.prompt_tokens_total,
            ServerMetric::DecodeCalls => &mut self.decode_calls_total,
            ServerMetric::GenThroughput => &mut self.engine_generation_tps,
            ServerMetric::CachedPromptTokens => &mut self.prompt_tokens_cached_total,
            ServerMetric::PrefixCacheQueries => &mut self.prefix_cache_queries_total,
        }
    }

    /// Every reported value with its metric, in [`ServerMetric::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (ServerMetric, &T)> {
        ServerMetric::ALL
            .into_iter()
            .filter_map(|m| Some((m, self.get(m)?)))
    }
}

impl<T> FromIterator<(ServerMetric, T)> for PerMetric<T> {
    fn from_iter<I: IntoIterator<Item = (ServerMetric, T)>>(iter: I) -> Self {
        let mut v = PerMetric {
            running: None,
            waiting: None,
            kv_cache_usage: None,
            generation_tokens_total: None,
            prompt_tokens_total: None,
            decode_calls_total: None,
            engine_generation_tps: None,
            prompt_tokens_cached_total: None,
            prefix_cache_queries_total: None,
        };
        for (m, value) in iter {
            *v.slot_mut(m) = Some(value);
        }
        v
    }
}

/// One statistic a tool gives of a server metric over its own window: the `mean`, `p50` or `max`
/// of a gauge, the `total` (its rise) or `rate` (per second) of a counter.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum WindowStat {
    /// A gauge's mean over the window.
    Mean,
    /// A gauge's median over the window.
    P50,
    /// A gauge's maximum over the window.
    Max,
    /// A counter's rise over the window.
    Total,
    /// A counter's rise per second.
    Rate,
}

impl WindowStat {
    /// Every statistic, in a fixed order.
    pub const ALL: [WindowStat; 5] = [
        WindowStat::Mean,
        WindowStat::P50,
        WindowStat::Max,
        WindowStat::Total,
        WindowStat::Rate,
    ];

    /// Its name (tpsview/1's key).
    pub const fn key(self) -> &'static str {
        match self {
            WindowStat::Mean => "mean",
            WindowStat::P50 => "p50",
            WindowStat::Max => "max",
            WindowStat::Total => "total",
            WindowStat::Rate => "rate",
        }
    }

    /// The statistic a key names.
    pub fn from_key(key: &str) -> Option<WindowStat> {
        WindowStat::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// A tool's statistics of one server metric over its own window, as far as it gave them.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WindowStats {
    /// A gauge's mean.
    #[serde(default)]
    pub mean: Option<f64>,
    /// A gauge's median.
    #[serde(default)]
    pub p50: Option<f64>,
    /// A gauge's maximum.
    #[serde(default)]
    pub max: Option<f64>,
    /// A counter's rise.
    #[serde(default)]
    pub total: Option<f64>,
    /// A counter's rise per second.
    #[serde(default)]
    pub rate: Option<f64>,
}

impl WindowStats {
    /// The place of statistic `stat`.
    pub fn slot_mut(&mut self, stat: WindowStat) -> &mut Option<f64> {
        match stat {
            WindowStat::Mean => &mut self.mean,
            WindowStat::P50 => &mut self.p50,
            WindowStat::Max => &mut self.max,
            WindowStat::Total => &mut self.total,
            WindowStat::Rate => &mut self.rate,
        }
    }

    /// Statistic `stat`, where given.
    pub fn get(&self, stat: WindowStat) -> Option<f64> {
        match stat {
            WindowStat::Mean => self.mean,
            WindowStat::P50 => self.p50,
            WindowStat::Max => self.max,
            WindowStat::Total => self.total,
            WindowStat::Rate => self.rate,
        }
    }
}

/// A tool's statistics of the server's metrics over a level, over the tool's own window (AIPerf's
/// `server_metrics_export.json` / `.csv`), not a series: what the level's server figures are made
/// of where no series was polled. Where they come from is the run's label [`STATS_SOURCE_LABEL`].
pub type ServerStats = PerMetric<WindowStats>;

impl ServerStats {
    /// Statistic `stat` of `m`, where the tool gave it.
    pub fn stat(&self, m: ServerMetric, stat: WindowStat) -> Option<f64> {
        self.get(m)?.get(stat)
    }

    /// Sets statistic `stat` of `m`.
    pub fn set(&mut self, m: ServerMetric, stat: WindowStat, value: f64) {
        *self
            .slot_mut(m)
            .get_or_insert_with(WindowStats::default)
            .slot_mut(stat) = Some(value);
    }

    /// Whether it holds no statistic.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// The run label saying where a level's [`ServerStats`] come from.
pub const STATS_SOURCE_LABEL: &str = "server_stats_source";
