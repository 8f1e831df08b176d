//! The report model every importer produces and every view reads: a report holds runs, a run holds
//! points (one per concurrency or batch level), a point holds raw per-request data in columns and/or
//! the figures a tool reported. Columnar on purpose: big reports are mostly arrays of numbers, and
//! one `Vec<f64>` per field costs no heap object per request or per chunk gap.

use std::collections::BTreeMap;

pub mod facts;
pub mod packed;
mod run_name;
mod samples;
pub use facts::RequestFacts;
pub use run_name::{Repeat, RepeatKey, RunName};
pub use samples::{SampleKind, Samples};

/// A whole report: metadata shared by its runs, and the runs.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Report-wide metadata; each run's own metadata overrides it field by field.
    #[serde(with = "as_json")]
    pub meta: Metadata,
    /// The runs, in the order they were loaded.
    pub runs: Vec<Run>,
}

impl Report {
    /// Requests in every point of every run, failed ones included.
    pub fn request_count(&self) -> usize {
        self.runs
            .iter()
            .flat_map(|r| &r.points)
            .filter_map(|p| p.requests.as_ref())
            .map(Requests::len)
            .sum()
    }

    /// Each run's [`RunId`](crate::vocabulary::RunId), in order (see [`run_ids`]).
    pub fn run_ids(&self) -> Vec<crate::vocabulary::RunId> {
        run_ids(&self.runs)
    }
}

/// The ids of runs grouped from files (their metadata already inherited): distinct even where two
/// runs share a label (their models or engines differ).
pub fn run_ids(runs: &[Run]) -> Vec<crate::vocabulary::RunId> {
    let labels: Vec<String> = runs.iter().map(|r| r.label.to_string()).collect();
    crate::vocabulary::RunId::assign(runs.iter().zip(&labels).map(|(r, label)| {
        (
            label.as_str(),
            r.meta.engine.as_deref(),
            r.meta.model.as_deref(),
        )
    }))
}

/// What was measured, on what.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Metadata {
    /// Serving engine name, e.g. `vllm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Serving engine version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_version: Option<String>,
    /// Model name or path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Weight precision, e.g. `fp8`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<String>,
    /// GPU name, e.g. `H100 SXM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// Number of GPUs the server used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_count: Option<u32>,
    /// Tensor-parallel degree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensor_parallel: Option<u32>,
    /// When the benchmark ran (ISO 8601 or the tool's own date string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Free-form key/value labels.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Free-form notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl Metadata {
    /// Fills every field that `self` lacks from `base`.
    pub fn inherit(&mut self, base: &Metadata) {
        fn fill<T: Clone>(a: &mut Option<T>, b: &Option<T>) {
            if a.is_none() {
                a.clone_from(b);
            }
        }
        fill(&mut self.engine, &base.engine);
        fill(&mut self.engine_version, &base.engine_version);
        fill(&mut self.model, &base.model);
        fill(&mut self.precision, &base.precision);
        fill(&mut self.gpu, &base.gpu);
        fill(&mut self.gpu_count, &base.gpu_count);
        fill(&mut self.tensor_parallel, &base.tensor_parallel);
        fill(&mut self.date, &base.date);
        fill(&mut self.notes, &base.notes);
        for (k, v) in &base.labels {
            self.labels.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

/// One series of points measured the same way (one engine, model and configuration).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// Its name, shown in legends (as text: its parts joined with ` · `).
    pub label: RunName,
    /// The format the data came from (`tpsview/1`, `vllm-bench-serve`, …).
    pub source_format: String,
    /// This run's metadata.
    #[serde(with = "as_json")]
    pub meta: Metadata,
    /// One point per concurrency or batch level, in ascending order of level where known.
    pub points: Vec<Point>,
    /// What a point's level is when it is not concurrency: the swept parameter of a llama-bench
    /// run (`n_threads`, `n_batch`, …), whose single sequence has no concurrency.
    pub axis: Option<String>,
}

impl Run {
    /// Mean input and output tokens over the run's completed requests (input only where the files
    /// have input lengths); `None` without per-request data.
    pub fn mean_lengths(&self) -> (Option<f64>, Option<f64>) {
        let (mut n_in, mut sum_in, mut n_out, mut sum_out) = (0u64, 0f64, 0u64, 0f64);
        for p in &self.points {
            let Some(r) = &p.requests else { continue };
            for i in 0..r.len() {
                if !r.is_ok(i) {
                    continue;
                }
                n_out += 1;
                sum_out += f64::from(r.output_tokens[i]);
                if let Some(v) = r.input_tokens.as_ref().and_then(|x| x.get(i)) {
                    n_in += 1;
                    sum_in += f64::from(*v);
                }
            }
        }
        let mean = |s: f64, n: u64| (n > 0).then(|| s / n as f64);
        (mean(sum_in, n_in), mean(sum_out, n_out))
    }
}

/// One concurrency / batch level of a run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// The file the point came from.
    pub source_file: String,
    /// Target concurrency (closed-loop clients or batch size); `None` when the load was set by
    /// request rate alone.
    pub concurrency: Option<f64>,
    /// Target request rate in requests/s; `f64::INFINITY` for "all at once".
    pub request_rate: Option<f64>,
    /// Raw per-request data, when the source has it.
    pub requests: Option<Requests>,
    /// The tool's own figures, by its own names (only those: what tpsview derives from a file is
    /// a typed field below).
    pub reported: Reported,
    /// When `requests` is a sample (GuideLLM keeps a sample of a benchmark's requests): how many
    /// requests the sample stands for. Counts and system throughput then come from the tool.
    pub sampled_from: Option<u64>,
    /// What the server reported about itself during the level (its `/metrics`), when known.
    /// (No serde attributes here: the loading worker sends points in postcard, which cannot skip
    /// a field.)
    pub server: Option<crate::server::ServerSeries>,
    /// A tool's statistics of the server's metrics over its own window, where it gave them and
    /// no series was polled (boxed: seven metrics' five statistics are ~600 bytes, and most
    /// points have none).
    pub server_stats: Option<Box<crate::server::ServerStats>>,
    /// What the GPUs drew over the level, where the file carries GPU telemetry.
    pub telemetry: Option<Telemetry>,
    /// The wall-clock window (Unix seconds, from and to) a point without requests covers, where
    /// its file dates it: how a companion export (AIPerf's server metrics, GPU telemetry) finds
    /// the level it belongs to.
    pub epoch_window_s: Option<(f64, f64)>,
    /// Raw data that is not per request (per-iteration latencies, per-repetition times,
    /// per-response ITL), for the analysis to reduce to the tool's own figures.
    pub samples: Option<Samples>,
}

/// What the GPUs drew over a level, summed over distinct GPUs: tpsview's reading of a tool's GPU
/// telemetry (DCGM's cumulative energy counter and mean power, as AIPerf and GenAI-Perf export
/// them), not a figure the tool printed. Which GPUs is the run's label `telemetry_gpus`.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Telemetry {
    /// Joules over the window: each GPU's energy counter's rise, summed; `None` where one GPU
    /// lacks it.
    pub energy_j: Option<f64>,
    /// Mean power, W, summed over the GPUs; `None` where one GPU lacks it.
    pub mean_power_w: Option<f64>,
    /// The telemetry window's length, s, where the file dates it.
    pub window_s: Option<f64>,
}

impl Telemetry {
    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.energy_j.is_none() && self.mean_power_w.is_none() && self.window_s.is_none()
    }
}

/// The figures a tool printed for a point, by the tool's own names, in the tool's own units.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reported {
    /// Which tool's names these are (a format id).
    pub tool: String,
    /// Name → value.
    pub figures: BTreeMap<String, f64>,
    /// Tool figures recomputed under the tool's own definition from raw data that is not per
    /// request, by the same names, as reports written before [`Point::samples`] stored them
    /// (read from such a tpsview/1 report for the audit; no reader fills it now).
    pub recomputed: BTreeMap<String, f64>,
}

/// What became of one request.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Completed; its timings are used.
    Ok,
    /// The tool recorded an error; counted and listed, never averaged in.
    Failed(Box<str>),
    /// Its data cannot be used (e.g. a negative TTFT); a diagnostic names the field.
    Invalid(Box<str>),
}

/// Chunk gaps of all requests, flattened: request `i`'s gaps are
/// `values[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ragged {
    /// `len() == requests + 1`, starting at 0, non-decreasing.
    pub offsets: Vec<u32>,
    /// Every gap in seconds; empty once folded into `pooled`.
    pub values: Vec<f64>,
    /// The distribution of the gaps of the requests the metrics use, in seconds, when `values`
    /// was folded away to save memory (see [`Ragged::fold`]); the offsets (chunk counts) stay.
    pub pooled: Option<crate::stats::Dist>,
}

impl Ragged {
    /// The gaps of request `i`.
    /// Empty when the values were folded (see [`Ragged::row_len`] for the count).
    pub fn row(&self, i: usize) -> &[f64] {
        self.values
            .get(self.offsets[i] as usize..self.offsets[i + 1] as usize)
            .unwrap_or(&[])
    }

    /// How many gaps request `i` had (folded or not).
    pub fn row_len(&self, i: usize) -> usize {
        (self.offsets[i + 1] - self.offsets[i]) as usize
    }

    /// Replaces the values by their distribution over the rows `usable` (the requests the
    /// metrics average in), keeping the offsets: what a huge file's charts and tables need, in
    /// 4 bytes per request instead of 8 per gap.
    pub fn fold(&mut self, usable: &[usize]) {
        if self.pooled.is_some() {
            return;
        }
        let dist = if usable.len() == self.rows() {
            crate::stats::dist_in_place(&self.values)
        } else {
            let mut pooled = Vec::new();
            for &i in usable {
                pooled.extend_from_slice(self.row(i));
            }
            crate::stats::dist_in_place(&pooled)
        };
        self.values = Vec::new();
        self.pooled = Some(dist);
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Appends one row.
    pub fn push_row(&mut self, row: &[f64]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.values.extend_from_slice(row);
        self.offsets.push(self.values.len() as u32);
    }
}

/// Raw per-request data in columns, all of the same length. Times are seconds; `ttft_s` and
/// `e2e_s` are measured from the request's own send time; `start_s` (send times) share one clock
/// of arbitrary origin.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Requests {
    /// Send times, when the source records them.
    pub start_s: Option<Vec<f64>>,
    /// The origin of `start_s`'s clock, seconds since the Unix epoch, where the file dates its
    /// requests (AIPerf's epoch-ns send times): what a companion file's samples on the same wall
    /// clock (AIPerf's server-metrics and GPU-telemetry exports) are aligned with.
    #[serde(default)]
    pub epoch_s: Option<f64>,
    /// First output token's arrival − send time.
    pub ttft_s: Vec<f64>,
    /// Last output token's arrival − send time.
    pub e2e_s: Vec<f64>,
    /// Prompt tokens, when known.
    pub input_tokens: Option<Vec<u32>>,
    /// Output tokens.
    pub output_tokens: Vec<u32>,
    /// Gaps between successive streamed chunks, when known.
    pub chunk_gaps: Option<Ragged>,
    /// What became of each request.
    pub outcome: Vec<Outcome>,
    /// The distributions of the per-request series, computed where the file was parsed (see
    /// [`crate::metrics::fold_requests`]); `None` until then, and for small points.
    #[serde(default)]
    pub dists: Option<Box<RequestDists>>,
    /// What 2026's tools record of each request beyond its timings (its session and turn,
    /// reasoning tokens, first visible token, cached prompt tokens), where the source has any.
    #[serde(default)]
    pub facts: Option<Box<RequestFacts>>,
}

/// The distributions of a point's per-request series over the requests its metrics average in
/// (completed, usable, with output), in seconds and tokens/s. Computed once where a big file is
/// parsed (the browser's loading worker) so that the page never selects percentiles over a
/// million requests on its own thread. A point's requests do not change after loading, so these
/// stay theirs; the arithmetic is [`crate::metrics`]'s own, so the figures are the same bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RequestDists {
    /// Time to first token.
    pub ttft: crate::stats::Dist,
    /// End-to-end time.
    pub e2e: crate::stats::Dist,
    /// Time per output token.
    pub tpot: crate::stats::Dist,
    /// 1 / tpot.
    pub per_stream_rate: crate::stats::Dist,
    /// Output tokens / e2e.
    pub user_rate: crate::stats::Dist,
    /// E2E / output tokens, s: seconds of whole request per token (its inverse is the
    /// E2E-normalised interactivity; percentiles of it are the slow tail's).
    pub e2e_per_token: crate::stats::Dist,
}

impl Requests {
    /// Number of requests, failed ones included.
    pub fn len(&self) -> usize {
        self.outcome.len()
    }

    /// True when there are no requests at all.
    pub fn is_empty(&self) -> bool {
        self.outcome.is_empty()
    }

    /// True when request `i` completed and its data is usable.
    pub fn is_ok(&self, i: usize) -> bool {
        matches!(self.outcome[i], Outcome::Ok)
    }

    /// True when request `i` counts in a level's figures: completed, usable, with output.
    pub fn is_usable(&self, i: usize) -> bool {
        self.is_ok(i) && self.output_tokens[i] > 0
    }

    /// The level's window on the file's clock: the first send of any request that is not invalid,
    /// and the last token's arrival of any usable request ([`is_usable`](Self::is_usable)).
    /// `None` without send times or usable requests.
    pub fn window(&self) -> Option<(f64, f64)> {
        let start = self.start_s.as_ref()?;
        let mut first = f64::INFINITY;
        let mut last = f64::NEG_INFINITY;
        for (i, &s) in start.iter().enumerate() {
            if !matches!(self.outcome[i], Outcome::Invalid(_)) && s.is_finite() {
                first = first.min(s);
            }
            if self.is_usable(i) {
                last = last.max(s + self.e2e_s[i]);
            }
        }
        (first.is_finite() && last.is_finite()).then_some((first, last))
    }
}

/// `#[serde(with)]` helper: the value as a JSON string.
#[doc(hidden)]
pub mod as_json {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(v).map_err(S::Error::custom)?;
        text.serialize(s)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_slice(text.as_bytes()).map_err(D::Error::custom)
    }
}

/// Writes a request rate as a number, or the string `"inf"` (JSON has no infinity).
pub fn rate_as_json<S: serde::Serializer>(r: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(v) if v.is_infinite() => s.serialize_str("inf"),
        Some(v) => s.serialize_f64(*v),
        None => s.serialize_none(),
    }
}
