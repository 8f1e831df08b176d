//! GuideLLM `benchmarks.json`, both schemas: v0.2–0.3 (`args.strategy`, per-request epoch-second
//! `start_time` / `first_token_time` / `last_token_time`) and v0.4+ (`config.strategy`,
//! `info.timings`). One point per benchmark (strategy). Requests may be a sample of the run; then
//! counts and throughput come from the tool.

use super::{Format, FormatSpec};
pub use crate::tools::guidellm::{V02, V05, VOCABULARY_V02, VOCABULARY_V05};
use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, at, first_num, num, read_values, Row, Rows};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported};
use crate::requests::RowFacts;

/// Format id.
pub const ID: &str = "guidellm";

/// GuideLLM `benchmarks.json` (v0.2–0.3 and v0.4+ schemas).
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Guidellm,
    // JSON, or the YAML GuideLLM writes for a `.yaml` output path (keys unquoted).
    detect: |has, _| {
        (has("\"generative_benchmark\"") && has("\"benchmarks\""))
            || (has("generative_benchmark") && has("benchmarks:"))
    },
    keys: &[
        "generative_benchmark",
        "benchmarks",
        "requests_per_second",
        "time_to_first_token_ms",
        "inter_token_latency_ms",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Parses a GuideLLM benchmarks file.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    // `--output-path results.yaml` writes the same document as YAML.
    let first = crate::formats::strip_bom(bytes)
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .copied();
    let values = if matches!(first, Some(b'{') | Some(b'[')) {
        read_values(file, bytes, &mut diags)?
    } else {
        vec![common::json_or_yaml(file, bytes)?]
    };
    let root = &values[0];
    let Some(benchmarks) = at(root, "benchmarks").and_then(Value::as_array) else {
        return Err(common::no_data(file, "no `benchmarks` list"));
    };
    let mut points = Vec::new();
    let mut model = None;
    let mut tool = V02;
    for (b, bench) in benchmarks.iter().enumerate() {
        let path = format!("benchmarks[{b}]");
        let v05 = at(bench, "config").is_some() || at(root, "metadata").is_some();
        tool = if v05 { V05 } else { V02 };
        let strategy = at(
            bench,
            if v05 {
                "config.strategy"
            } else {
                "args.strategy"
            },
        );
        let kind = strategy
            .and_then(|s| common::first_text(s, &["type_", "type"]))
            .unwrap_or_default();
        let (concurrency, rate) = match kind.as_str() {
            "synchronous" => (Some(1.0), None),
            "concurrent" => (strategy.and_then(|s| num(s, "streams")), None),
            "constant" | "poisson" => (None, strategy.and_then(|s| num(s, "rate"))),
            _ => (None, None),
        };
        let concurrency = common::level(
            file,
            &format!("{path}.strategy.streams"),
            concurrency,
            &mut diags,
        );
        if model.is_none() {
            model = common::first_text(
                bench,
                &[
                    "config.backend.model",
                    "args.model",
                    "worker.backend_model",
                    "config.model",
                ],
            );
        }
        let (requests, kept) = read_requests(file, &path, bench, v05, &mut diags);
        let figures = figures(bench);
        let total = ["request_totals.successful", "request_totals.errored"]
            .iter()
            .filter_map(|k| figures.get(*k))
            .sum::<f64>();
        let sampled_from = (total > kept as f64).then_some(total as u64);
        points.push(Point {
            source_file: format!("{file}#{}", b + 1),
            concurrency,
            request_rate: rate,
            requests,
            reported: Reported {
                tool: tool.into(),
                figures,
                recomputed: BTreeMap::new(),
            },
            sampled_from,
            server: None,
            ..Point::default()
        });
    }
    if points.is_empty() {
        return Err(common::no_data(file, "the `benchmarks` list is empty"));
    }
    Ok((
        common::one_run(
            common::label("GuideLLM", model.as_deref()),
            ID,
            Metadata {
                model,
                labels: [("schema".to_owned(), tool.to_owned())].into(),
                ..Metadata::default()
            },
            points,
        ),
        diags,
    ))
}

/// The benchmark's figures: each metric's successful-request statistics, the request totals and
/// the duration.
fn figures(bench: &Value) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if let Some(metrics) = at(bench, "metrics").and_then(Value::as_object) {
        for (name, m) in metrics {
            let Some(s) = at(m, "successful") else {
                continue;
            };
            for stat in ["mean", "median", "count", "total_sum"] {
                if let Some(v) = num(s, stat) {
                    out.insert(format!("{name}.{stat}"), v);
                }
            }
            for p in ["p50", "p90", "p95", "p99"] {
                if let Some(v) = num(s, &format!("percentiles.{p}")) {
                    out.insert(format!("{name}.{p}"), v);
                }
            }
            if let (None, Some(m)) = (out.get(&format!("{name}.p50")), num(s, "median")) {
                out.insert(format!("{name}.p50"), m);
            }
        }
    }
    for k in ["successful", "errored", "incomplete", "total"] {
        if let Some(v) = first_num(
            bench,
            &[
                &format!("request_totals.{k}"),
                &format!("metrics.request_totals.{k}"),
                &format!("scheduler_metrics.requests_made.{k}"),
            ],
        ) {
            out.insert(format!("request_totals.{k}"), v);
        }
    }
    let duration = num(bench, "duration")
        .or_else(|| Some(num(bench, "end_time")? - num(bench, "start_time")?).filter(|d| *d > 0.0));
    if let Some(d) = duration {
        out.insert("duration".into(), d);
    }
    out
}

/// The benchmark's successful and errored requests, and how many there were.
fn read_requests(
    file: &str,
    path: &str,
    bench: &Value,
    v05: bool,
    diags: &mut Vec<Diagnostic>,
) -> (Option<crate::model::Requests>, usize) {
    let list = |k: &str| {
        at(bench, &format!("requests.{k}"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    };
    let (ok, errored, incomplete) = (list("successful"), list("errored"), list("incomplete"));
    if !incomplete.is_empty() {
        diags.push(Diagnostic::info(
            file,
            &format!("{path}.requests.incomplete"),
            format!("{} incomplete requests left out", incomplete.len()),
        ));
    }
    let window = v05.then(|| Window::of(bench)).flatten();
    let (ok, errored) = match window {
        Some(w) => {
            let (ok, warm_ok, cool_ok) = w.split(ok);
            let (errored, warm_err, cool_err) = w.split(errored);
            let (warm, cool) = (warm_ok + warm_err, cool_ok + cool_err);
            if warm + cool > 0 {
                diags.push(Diagnostic::info(
                    file,
                    &format!("{path}.scheduler_metrics"),
                    format!(
                        "{} of {} listed requests fall outside GuideLLM's measurement window and are left out, as the tool leaves them out: {warm} in the warm-up (ended before measure_start_time), {cool} in the cool-down (started after measure_end_time)",
                        warm + cool,
                        warm + cool + ok.len() + errored.len(),
                    ),
                ));
            }
            (ok, errored)
        }
        None => (ok.iter().collect(), errored.iter().collect()),
    };
    if ok.is_empty() && errored.is_empty() {
        return (None, 0);
    }
    let time = |r: &Value, v05_key: &str, v02_key: &str| {
        if v05 {
            num(r, &format!("info.timings.{v05_key}"))
        } else {
            num(r, v02_key)
        }
    };
    let t0 = ok
        .iter()
        .chain(&errored)
        .filter_map(|r| time(r, "request_start", "start_time"))
        .fold(f64::INFINITY, f64::min);
    let mut rows = Rows::default();
    for r in ok {
        let start = time(r, "request_start", "start_time");
        let first = time(r, "first_token_iteration", "first_token_time");
        let last = time(r, "last_token_iteration", "last_token_time");
        let (ttft, e2e) = match (start, first, last) {
            (Some(s), Some(f), Some(l)) => (f - s, l - s),
            _ => (f64::NAN, f64::NAN),
        };
        rows.push(Row {
            start_s: start.map(|s| s - t0),
            ttft_s: ttft,
            e2e_s: e2e,
            input_tokens: first_num(
                r,
                &[
                    "prompt_tokens",
                    "input_metrics.text_tokens",
                    "input_metrics.total_tokens",
                ],
            ),
            output_tokens: first_num(
                r,
                &[
                    "output_tokens",
                    "output_metrics.text_tokens",
                    "output_metrics.total_tokens",
                ],
            )
            .unwrap_or(f64::NAN),
            gaps_s: None,
            error: None,
            invalid: None,
            facts: facts(r, start),
        });
    }
    for r in errored {
        let msg = common::first_text(r, &["error", "info.error", "response.error"])
            .unwrap_or_else(|| "errored".into());
        rows.push(Row::failed(msg));
    }
    let n = rows.len();
    (
        Some(rows.finish(file, &format!("{path}.requests"), diags)),
        n,
    )
}

/// A v0.6+ request's session and turn (`info.conversation_id`, `info.turn_index`: one id per
/// conversation, turns from 0; every request its own conversation in a single-turn run), v0.7+'s
/// first visible token (`info.timings.first_output_token_iteration`, "the first non-reasoning
/// content token", epoch s) and, after v0.7.3, its cached prompt tokens (`cached_tokens`, from the
/// server's `prompt_tokens_details`). GuideLLM keeps the reasoning text, not its token count.
fn facts(r: &Value, start: Option<f64>) -> RowFacts {
    let visible = num(r, "info.timings.first_output_token_iteration");
    RowFacts {
        session: common::first_text(r, &["info.conversation_id"]),
        turn: num(r, "info.turn_index"),
        reasoning_tokens: None,
        ttfvt_s: visible.zip(start).map(|(v, s)| v - s),
        cached_prompt_tokens: first_num(r, &["cached_tokens", "input_metrics.cached_tokens"]),
    }
}

/// GuideLLM v0.4+'s measurement window, epoch seconds: its figures cover the requests that
/// overlap it (`get_within_range`: ending at or after its start, starting at or before its end).
#[derive(Debug, Clone, Copy)]
struct Window {
    start: f64,
    end: f64,
}

impl Window {
    /// The window `scheduler_metrics` names, or, in files without it, the benchmark's own start
    /// and end when it reports a warm-up or cool-down.
    fn of(bench: &Value) -> Option<Window> {
        let explicit = (
            num(bench, "scheduler_metrics.measure_start_time"),
            num(bench, "scheduler_metrics.measure_end_time"),
        );
        let trimmed = ["warmup_duration", "cooldown_duration"]
            .iter()
            .any(|k| num(bench, k).is_some_and(|d| d > 0.0));
        let (start, end) = match explicit {
            (Some(s), Some(e)) => (s, e),
            _ if trimmed => (num(bench, "start_time")?, num(bench, "end_time")?),
            _ => return None,
        };
        (start.is_finite() && end.is_finite() && start <= end).then_some(Window { start, end })
    }

    /// The requests inside the window, and how many ended before it (warm-up) and started after
    /// it (cool-down). A request without an end time is kept: nothing says it is outside.
    fn split<'a>(&self, list: &'a [Value]) -> (Vec<&'a Value>, usize, usize) {
        let (mut kept, mut warm, mut cool) = (Vec::with_capacity(list.len()), 0, 0);
        for r in list {
            let start = first_num(
                r,
                &[
                    "request_start_time",
                    "info.timings.request_start",
                    "info.timings.resolve_start",
                ],
            );
            let end = first_num(
                r,
                &[
                    "request_end_time",
                    "info.timings.request_end",
                    "info.timings.resolve_end",
                ],
            );
            match (start, end) {
                (_, Some(e)) if e < self.start => warm += 1,
                (Some(s), _) if s > self.end => cool += 1,
                (None, Some(e)) if e > self.end => cool += 1,
                _ => kept.push(r),
            }
        }
        (kept, warm, cool)
    }
}

#[cfg(test)]
mod yaml_tests {
    use serde_json::Value;
    use yaml_rust2::{Yaml, YamlEmitter};

    /// A JSON value as the YAML a YAML writer makes of it (numbers as their shortest decimals).
    fn yaml_of(v: &Value) -> Yaml {
        match v {
            Value::Null => Yaml::Null,
            Value::Bool(b) => Yaml::Boolean(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Yaml::Integer(i),
                None => Yaml::Real(format!("{:?}", n.as_f64().unwrap_or(f64::NAN))),
            },
            Value::String(s) => Yaml::String(s.clone()),
            Value::Array(a) => Yaml::Array(a.iter().map(yaml_of).collect()),
            Value::Object(o) => Yaml::Hash(
                o.iter()
                    .map(|(k, v)| (Yaml::String(k.clone()), yaml_of(v)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn a_real_results_file_written_as_yaml_reads_as_its_json() {
        // The same document GuideLLM writes for `--output-path results.yaml`: a real file of the
        // corpus (tests/wild/PROVENANCE.md), re-emitted as YAML.
        for rel in [
            "natoscott-benchmarks-1/benchmark-Qwen3-0.6B-default.json",
            "thesteve0-local-llm-benchmark-1/benchmarks.json",
        ] {
            let path = format!(
                "{}/../../tests/wild/guidellm/{rel}",
                env!("CARGO_MANIFEST_DIR")
            );
            let json = std::fs::read(&path).expect("corpus file");
            let v: Value = serde_json::from_slice(&json).expect("JSON");
            let mut yaml = String::new();
            YamlEmitter::new(&mut yaml)
                .dump(&yaml_of(&v))
                .expect("YAML");
            assert_eq!(
                crate::detect(yaml.as_bytes()),
                Some(crate::Format::Guidellm),
                "{rel}"
            );
            let from_json = super::parse("r.json", &json).expect("JSON read");
            let from_yaml = super::parse("r.json", yaml.as_bytes()).expect("YAML read");
            assert_eq!(
                format!("{:?}", from_yaml.0),
                format!("{:?}", from_json.0),
                "{rel}"
            );
        }
    }
}
