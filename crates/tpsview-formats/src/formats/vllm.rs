//! vLLM `bench serve` (and the older `benchmarks/benchmark_serving.py`) result files: one JSON
//! object per file, or several separated by newlines (`--append-result`). Summary-only files and
//! `--save-detailed` files with per-request arrays; old and new key sets, detected by the keys
//! present, never by flags. `request_rate` may be the string `"inf"`.

use super::{Format, FormatSpec};
pub use crate::tools::vllm::{ID, ITL, TTFT, VOCABULARY};
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};

use crate::error::{Diagnostic, ParseError, ParseErrorKind};
use crate::lenient::{Column, Leaf, RaggedColumn};
use crate::model::{Metadata, Outcome, Point, Report, Reported, Requests, Run};
use crate::requests::{token_counts, validate_requests};

/// vLLM `bench serve` / `benchmark_serving.py` result files.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::VllmServe,
    detect: |has, _| {
        has("\"mean_tpot_ms\"") || has("\"total_token_throughput\"") || has("\"output_throughput\"")
    },
    keys: &[
        "mean_tpot_ms",
        "total_token_throughput",
        "output_throughput",
        "request_throughput",
        "mean_ttft_ms",
        "max_concurrency",
        "ttfts",
        "itls",
    ],
    parse: |f, b, p| parse_with(f, b, true, VLLM, p),
    summary_partners: &[],
    stream: Some(|_, size| Box::new(ScanStream::new(VLLM, size))),
};

/// The `Serving Benchmark Result` block `vllm bench serve` and SGLang's `bench_serving` print,
/// kept in a log or a page: read as the result object it stands for ([`console`]).
pub const CONSOLE_SPEC: FormatSpec = FormatSpec {
    format: Format::ServingConsole,
    detect: |has, _| console::detect(has),
    keys: &[
        "Serving Benchmark Result",
        "Output token throughput (tok/s)",
        "Mean TTFT (ms)",
        "Successful requests",
    ],
    parse: |f, b, p| {
        let text = String::from_utf8_lossy(super::strip_bom(b));
        match console::to_json_lines(&text) {
            Some((jsonl, true)) => super::sglang::parse_with_progress(f, jsonl.as_bytes(), p),
            Some((jsonl, false)) => parse_with(f, jsonl.as_bytes(), true, VLLM, p),
            None => Err(super::common::no_data(
                f,
                "no complete `Serving Benchmark Result` block (with its output token throughput)",
            )),
        }
    },
    summary_partners: &[],
    stream: None,
};

/// One vLLM result object, read key by key so that the large per-request arrays go straight into
/// columns and every other key is kept by name.
#[derive(Default)]
struct RawVllm {
    strings: BTreeMap<String, String>,
    numbers: BTreeMap<String, f64>,
    request_rate: Option<f64>,
    max_concurrency: Option<f64>,
    input_lens: Option<Column>,
    output_lens: Option<Column>,
    ttfts: Option<Column>,
    latencies: Option<Column>,
    start_times: Option<Column>,
    /// `spec_decode_per_position_acceptance_rates`: one rate per draft position (not per request).
    spec_positions: Option<Column>,
    itls: Option<RaggedColumn>,
    errors: Option<Vec<Option<String>>>,
}

/// A per-request column of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    InputLens,
    OutputLens,
    Ttfts,
    Latencies,
    StartTimes,
    SpecPositions,
}

/// What a key of a result object holds, for both readers (the byte scanner and serde).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// A column of per-request numbers.
    Column(Col),
    /// Per-request chunk gaps, one array per request.
    Itls,
    /// Per-request error texts (`""` for none).
    Errors,
    /// Per-request data tpsview does not use (texts, queue times): skipped unread.
    Ignored,
    /// Anything else: a small value kept by name (figures, config, metadata).
    Other,
}

/// The one key table.
const KEYS: &[(&str, Key)] = &[
    ("input_lens", Key::Column(Col::InputLens)),
    ("output_lens", Key::Column(Col::OutputLens)),
    ("ttfts", Key::Column(Col::Ttfts)),
    ("latencies", Key::Column(Col::Latencies)),
    ("start_times", Key::Column(Col::StartTimes)),
    (
        "spec_decode_per_position_acceptance_rates",
        Key::Column(Col::SpecPositions),
    ),
    ("itls", Key::Itls),
    ("errors", Key::Errors),
    ("generated_texts", Key::Ignored),
    ("queue_times", Key::Ignored),
];

impl Key {
    fn of(key: &str) -> Key {
        KEYS.iter()
            .find(|(k, _)| *k == key)
            .map_or(Key::Other, |(_, v)| *v)
    }
}

impl RawVllm {
    fn column(&mut self, c: Col) -> &mut Option<Column> {
        match c {
            Col::InputLens => &mut self.input_lens,
            Col::OutputLens => &mut self.output_lens,
            Col::Ttfts => &mut self.ttfts,
            Col::Latencies => &mut self.latencies,
            Col::StartTimes => &mut self.start_times,
            Col::SpecPositions => &mut self.spec_positions,
        }
    }
}

/// Config keys: not figures the tool measured.
const CONFIG_KEYS: &[&str] = &[
    "num_prompts",
    "burstiness",
    "max_concurrency",
    "request_rate",
    "run_number",
];

impl<'de> de::Deserialize<'de> for RawVllm {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawVllm;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a vLLM result object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawVllm, A::Error> {
                let mut raw = RawVllm::default();
                while let Some(key) = map.next_key::<String>()? {
                    match Key::of(&key) {
                        Key::Column(c) => *raw.column(c) = Some(map.next_value()?),
                        Key::Itls => raw.itls = Some(map.next_value()?),
                        Key::Errors => {
                            raw.errors = Some(
                                map.next_value::<Vec<ErrorText>>()?
                                    .into_iter()
                                    .map(|e| e.0)
                                    .collect(),
                            )
                        }
                        Key::Ignored => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                        Key::Other => {
                            let v = map.next_value::<Leaf>()?;
                            raw.keep(key, v);
                        }
                    }
                }
                Ok(raw)
            }
        }
        d.deserialize_map(V)
    }
}

impl RawVllm {
    /// Keeps a small top-level value: a config number, a figure, or a metadata string.
    fn keep(&mut self, key: String, v: Leaf) {
        match key.as_str() {
            "request_rate" | "max_concurrency" => {
                let n = v.num();
                if key == "request_rate" {
                    self.request_rate = n.value();
                } else {
                    self.max_concurrency = n.value();
                }
            }
            _ => match (v.as_f64(), v) {
                // Old files spell one key `request_goodput:`.
                (Some(x), _) => {
                    self.numbers.insert(key.trim_end_matches(':').to_owned(), x);
                }
                (None, Leaf::Str(s)) => {
                    self.strings.insert(key, s);
                }
                (None, _) => {}
            },
        }
    }

    /// Reads one small value from its own bytes (the fast path) and keeps it.
    fn take_value(
        &mut self,
        key: String,
        de: &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
    ) -> Result<(), serde_json::Error> {
        let v = <Leaf as de::Deserialize>::deserialize(&mut *de)?;
        de.end()?;
        self.keep(key, v);
        Ok(())
    }
}

/// An entry of `errors`: `""` (ok), an error text, or `null` (treated as ok).
struct ErrorText(Option<String>);

impl<'de> de::Deserialize<'de> for ErrorText {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Leaf::deserialize(d)?;
        Ok(ErrorText(match (v.as_f64(), v) {
            (_, Leaf::Null) => None,
            (_, Leaf::Str(s)) if s.is_empty() => None,
            (_, Leaf::Str(s)) => Some(s),
            (Some(n), _) => Some(format!("error {n}")),
            (None, _) => Some("an error that is not text".into()),
        }))
    }
}

/// Which tool wrote a vLLM-shaped file: vLLM itself, or SGLang `bench_serving`, whose objects have
/// the same per-request arrays under the same names.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flavor {
    /// Reported-tool and format id.
    pub id: &'static str,
    /// Run label when the file names none.
    pub default_label: &'static str,
}

pub(crate) const VLLM: Flavor = Flavor {
    id: ID,
    default_label: "vLLM run",
};

/// Parses a vLLM result file (one object, or several separated by whitespace).
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    parse_with(file, bytes, true, VLLM, &mut crate::progress::Silent)
}

/// `parse`, with the scanner fast path switchable (tests check both paths agree) and the tool
/// chosen.
pub(crate) fn parse_with(
    file: &str,
    bytes: &[u8],
    allow_fast: bool,
    flavor: Flavor,
    progress: &mut dyn crate::progress::Progress,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let bytes = super::strip_bom(bytes);
    let mut diags = Vec::new();
    let fast = allow_fast
        .then(|| fast_read(bytes, progress))
        .flatten()
        .map(|v| v.into_iter().enumerate().collect::<Vec<_>>());
    let objects = match fast {
        Some(o) => o,
        // `vllm bench sweep serve`'s summary.json: the results as one array.
        None if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') => {
            read_array(file, bytes, &mut diags)?
        }
        None => super::common::read_stream::<RawVllm>(file, bytes, "result object", &mut diags)?,
    };
    assemble(file, objects, flavor, diags)
}

/// A JSON array of result objects (a sweep's `summary.json`), numbered in order.
fn read_array(
    file: &str,
    bytes: &[u8],
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<(usize, RawVllm)>, ParseError> {
    let read = |b: &[u8]| serde_json::from_slice::<Vec<RawVllm>>(b);
    let e = match read(bytes) {
        Ok(v) => return Ok(v.into_iter().enumerate().collect()),
        Err(e) => e,
    };
    if let Some(fixed) = crate::lenient::quote_nonfinite_literals(bytes) {
        if let Ok(v) = read(&fixed) {
            diags.push(Diagnostic::info(file, "(file)", super::common::QUOTED));
            return Ok(v.into_iter().enumerate().collect());
        }
    }
    Err(ParseError::from_json(
        file,
        &e,
        super::path_of_error(bytes, &e),
    ))
}

/// The report of a file's objects (numbered as in the file), from either reader.
fn assemble(
    file: &str,
    objects: Vec<(usize, RawVllm)>,
    flavor: Flavor,
    mut diags: Vec<Diagnostic>,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    if objects.is_empty() {
        return Err(ParseError::new(
            file,
            ParseErrorKind::NoData("no result object in the file".into()),
        ));
    }
    let multi = objects.len() > 1;
    let mut runs: Vec<Run> = Vec::new();
    for (k, raw) in objects {
        let point_file = if multi {
            format!("{file}#{}", k + 1)
        } else {
            file.to_owned()
        };
        let (run, point) = into_point(&point_file, raw, flavor, &mut diags);
        match runs
            .iter_mut()
            .find(|r| r.label == run.label && r.meta.model == run.meta.model)
        {
            Some(r) => r.points.push(point),
            None => runs.push(Run {
                points: vec![point],
                ..run
            }),
        }
    }
    // Objects without one figure or request of a result (another tool's file read as vLLM's) are
    // no data, said so, not an empty point.
    let points = || runs.iter().flat_map(|r| &r.points);
    if points().all(|p| p.requests.is_none() && p.reported.figures.is_empty()) {
        return Err(ParseError::new(
            file,
            ParseErrorKind::NoData(
                "no figure and no per-request data of a vLLM or SGLang result".into(),
            ),
        ));
    }
    Ok((
        Report {
            meta: Metadata::default(),
            runs,
        },
        diags,
    ))
}

/// The fast path: reads well-formed vLLM objects with the byte scanner (numbers straight into
/// columns, texts skipped). `None` on anything unexpected (a `null` in an array, a bare `NaN`, a
/// broken line…): the serde path then reads the file and names every problem.
fn fast_read(bytes: &[u8], progress: &mut dyn crate::progress::Progress) -> Option<Vec<RawVllm>> {
    steps::read_all(bytes, progress)
}

fn into_point(
    file: &str,
    mut raw: RawVllm,
    flavor: Flavor,
    diags: &mut Vec<Diagnostic>,
) -> (Run, Point) {
    let mut meta = Metadata {
        engine: raw
            .strings
            .get("backend")
            .or(raw.strings.get("endpoint_type"))
            .cloned(),
        model: raw.strings.get("model_id").cloned(),
        date: raw.strings.get("date").cloned(),
        ..Metadata::default()
    };
    const KNOWN: &[&str] = &[
        "backend",
        "endpoint_type",
        "model_id",
        "date",
        "label",
        "tokenizer_id",
    ];
    for (k, v) in &raw.strings {
        if !KNOWN.contains(&k.as_str()) {
            meta.labels.insert(k.clone(), v.clone());
        }
    }
    let label = raw
        .strings
        .get("label")
        .or(raw.strings.get("tag"))
        .cloned()
        .or_else(|| match (&meta.engine, &meta.model) {
            (Some(e), Some(m)) => Some(format!("{e} · {m}")),
            (None, Some(m)) => Some(m.clone()),
            (Some(e), None) => Some(e.clone()),
            (None, None) => None,
        })
        .unwrap_or_else(|| flavor.default_label.into());
    // A `vllm bench sweep serve` run: its setting (from the combination's directory) and repeat
    // name the run; the overrides are metadata, not the tool's figures.
    // (Only a sweep's result, one with `run_number`, needs its level among the numbers.)
    let sweep = raw.numbers.contains_key("run_number").then(|| {
        let mut numbers = raw.numbers.clone();
        for (k, v) in [
            ("max_concurrency", raw.max_concurrency),
            ("request_rate", raw.request_rate),
        ] {
            if let Some(v) = v {
                numbers.insert(k.into(), v);
            }
        }
        sweep::sweep_of(file, &numbers, &raw.strings)
    });
    let label = match sweep.flatten() {
        Some(s) => {
            for k in &s.overrides {
                let v = raw.numbers.remove(k).map(|v| format!("{v}"));
                if let Some(v) = v.or_else(|| raw.strings.get(k).cloned()) {
                    meta.labels.insert(k.clone(), v);
                }
            }
            meta.labels.insert("run_number".into(), s.run.to_string());
            s.name(&label)
        }
        None => label.into(),
    };
    let concurrency = raw.max_concurrency.filter(|c| c.is_finite());
    if let Some(c) = raw.max_concurrency {
        if !(c >= 1.0 && c.is_finite()) {
            diags.push(Diagnostic::warning(
                file,
                "max_concurrency",
                None,
                format!("concurrency {c} is not a positive number: ignored"),
            ));
        }
    }
    // Speculative decoding's per-position acceptance: figures `…rates.0`, `.1`… (not a column).
    if let Some(p) = raw.spec_positions.take() {
        for (i, x) in p.values.iter().enumerate() {
            raw.numbers
                .insert(format!("spec_decode_per_position_acceptance_rates.{i}"), *x);
        }
    }
    let reported = Reported {
        tool: flavor.id.into(),
        figures: raw
            .numbers
            .iter()
            .filter(|(k, _)| !CONFIG_KEYS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        recomputed: Default::default(),
    };
    let requests = build_requests(file, &mut raw, diags);
    let run = Run {
        label,
        source_format: flavor.id.into(),
        meta,
        points: Vec::new(),
        axis: None,
    };
    let point = Point {
        source_file: file.to_owned(),
        concurrency: concurrency.filter(|c| *c >= 1.0),
        request_rate: raw.request_rate,
        requests,
        reported,
        sampled_from: None,
        server: None,
        ..Point::default()
    };
    (run, point)
}

/// Builds the request columns from the per-request arrays, or returns `None` (summary only) with a
/// diagnostic saying why.
fn build_requests(file: &str, raw: &mut RawVllm, diags: &mut Vec<Diagnostic>) -> Option<Requests> {
    let (Some(out), Some(ttfts)) = (&raw.output_lens, &raw.ttfts) else {
        if raw.output_lens.is_some() || raw.ttfts.is_some() || raw.itls.is_some() {
            diags.push(Diagnostic::warning(
                file,
                "ttfts",
                None,
                "per-request arrays are incomplete (need output_lens and ttfts): using the summary",
            ));
        }
        return None;
    };
    let n = out.values.len();
    let mut lens: Vec<(&str, usize)> = vec![("output_lens", n), ("ttfts", ttfts.values.len())];
    let mut add = |name, c: &Option<Column>| {
        if let Some(c) = c {
            lens.push((name, c.values.len()));
        }
    };
    add("input_lens", &raw.input_lens);
    add("latencies", &raw.latencies);
    add("start_times", &raw.start_times);
    if let Some(i) = &raw.itls {
        lens.push(("itls", i.data.rows()));
    }
    if let Some(e) = &raw.errors {
        lens.push(("errors", e.len()));
    }
    if let Some((name, len)) = lens.iter().find(|(_, l)| *l != n) {
        diags.push(Diagnostic::warning(
            file,
            name,
            None,
            format!("has {len} entries but output_lens has {n}: per-request data cannot be aligned, using the summary"),
        ));
        return None;
    }
    if raw.latencies.is_none() && raw.itls.is_none() {
        diags.push(Diagnostic::warning(
            file,
            "latencies",
            None,
            "neither latencies nor itls: end times unknown, using the summary",
        ));
        return None;
    }

    let mut outcome: Vec<Outcome> = match &raw.errors {
        Some(e) => e
            .iter()
            .map(|e| {
                e.as_ref()
                    .map_or(Outcome::Ok, |m| Outcome::Failed(m.as_str().into()))
            })
            .collect(),
        None => vec![Outcome::Ok; n],
    };
    let output_tokens = token_counts(
        file,
        "output_lens",
        "output_lens",
        &out.values,
        &mut outcome,
        diags,
    );
    let input_tokens = raw.input_lens.as_ref().map(|c| {
        token_counts(
            file,
            "input_lens",
            "input_lens",
            &c.values,
            &mut outcome,
            diags,
        )
    });
    let e2e_s = match (&mut raw.latencies, &raw.itls) {
        (Some(l), _) => std::mem::take(&mut l.values),
        // vLLM: Σ itls_i == latency_i − ttft_i exactly.
        (None, Some(itls)) => (0..n)
            .map(|i| ttfts.values[i] + itls.data.row(i).iter().sum::<f64>())
            .collect(),
        (None, None) => unreachable!("checked above"),
    };
    if raw.latencies.is_none() {
        diags.push(Diagnostic::info(
            file,
            "latencies",
            "no latencies: end-to-end time is ttft + Σ itls (exact for vLLM)",
        ));
    }
    if raw.start_times.is_none() {
        diags.push(Diagnostic::info(
            file,
            "start_times",
            "no send times (older vLLM): no timeline; duration comes from the summary",
        ));
    }
    // An `itls` entry that is not a list: the request has no ITL; without `latencies` its end time
    // (ttft + Σ itls) is unknown too, so it is left out.
    for &i in raw.itls.as_ref().map_or(&[][..], |r| r.bad_rows.as_slice()) {
        if !matches!(outcome[i], Outcome::Ok) {
            continue;
        }
        if raw.latencies.is_none() {
            outcome[i] = Outcome::Invalid("itls".into());
            diags.push(Diagnostic::warning(
                file,
                "itls",
                Some(i),
                "not a list of chunk gaps, and no latencies: end time unknown, left out",
            ));
        } else {
            diags.push(Diagnostic::warning(
                file,
                "itls",
                Some(i),
                "not a list of chunk gaps: this request adds nothing to ITL",
            ));
        }
    }
    let mut req = Requests {
        start_s: raw.start_times.take().map(|c| c.values),
        epoch_s: None,
        ttft_s: raw.ttfts.take().map(|c| c.values).unwrap_or_default(),
        e2e_s,
        input_tokens,
        output_tokens,
        chunk_gaps: raw.itls.take().map(|r| r.data),
        outcome,
        dists: None,
        facts: None,
    };
    diags.extend(validate_requests(file, &mut req));
    Some(req)
}

pub(crate) mod console;
mod steps;
pub mod sweep;

/// A vLLM-shaped file (vLLM's or SGLang's `bench_serving`) read as it arrives, chunk by chunk: the
/// byte scanner's steps on each chunk, keeping only the unread rest of the last element. When the
/// scanner gives up on something unusual, [`finish`](Self::finish) says so and the caller reads
/// the whole file the ordinary way (the serde path names every problem).
pub(crate) struct ScanStream {
    inner: steps::StepScanner,
    flavor: Flavor,
}

impl ScanStream {
    pub(crate) fn new(flavor: Flavor, size: Option<u64>) -> Self {
        ScanStream {
            inner: steps::StepScanner::new(size),
            flavor,
        }
    }
}

impl super::Chunked for ScanStream {
    #[cfg(test)]
    fn set_patience(&mut self, bytes: usize) {
        self.inner.set_patience(bytes);
    }

    /// The next bytes; `false` once the scanner gave up (later chunks are not needed).
    fn feed(&mut self, chunk: &[u8], progress: &mut dyn crate::progress::Progress) -> bool {
        self.inner.feed(chunk, progress)
    }

    /// The end of the file: its report, or `None` when the whole file must be read the ordinary
    /// way.
    fn finish(
        self: Box<Self>,
        file: &str,
        progress: &mut dyn crate::progress::Progress,
    ) -> Option<Result<(Report, Vec<Diagnostic>), ParseError>> {
        let objects = self.inner.finish(progress)?;
        // An empty file: the ordinary path says so in its own words.
        if objects.is_empty() {
            return None;
        }
        Some(assemble(
            file,
            objects.into_iter().enumerate().collect(),
            self.flavor,
            Vec::new(),
        ))
    }
}

#[cfg(test)]
mod tests;
