//! Saved answers of llama.cpp's server (`llama-server`: `/completion`, `/v1/chat/completions`,
//! the last event of a stream), each with the `timings` object the server adds (tools/server:
//! `prompt_n`, `prompt_ms`, `predicted_n`, `predicted_ms`, `cache_n`), wherever a harness keeps
//! them: one answer, a list, JSON lines, or inside its own records. Each `timings` is a request:
//! TTFT = `prompt_ms`, E2E = `prompt_ms + predicted_ms` (server-side, from the start of prompt
//! processing), output tokens `predicted_n`, prompt tokens `prompt_n + cache_n` of which
//! `cache_n` cached. A run per model (the answer's `model`), one level at concurrency 1.

use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{self, Row, Rows};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported, Run};
use crate::requests::RowFacts;
pub use crate::tools::llama_server::{ID, VOCABULARY};

/// llama-server's answers.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::LlamaServer,
    detect: |has, _| {
        has("\"timings\"")
            && has("\"predicted_ms\"")
            && has("\"prompt_ms\"")
            && has("\"predicted_n\"")
    },
    keys: &[
        "timings",
        "prompt_n",
        "prompt_ms",
        "predicted_n",
        "predicted_ms",
        "cache_n",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// Nesting searched for `timings` objects.
const DEPTH: usize = 8;
/// At most this many answers read.
const MAX: usize = 1_000_000;

/// Every `timings` object under `v`, with the `model` of the object that holds it (or of an
/// object around it).
fn find<'a>(
    v: &'a Value,
    model: Option<&'a str>,
    depth: usize,
    out: &mut Vec<(&'a Value, Option<&'a str>)>,
) {
    if depth > DEPTH || out.len() >= MAX {
        return;
    }
    match v {
        Value::Object(o) => {
            let model = o.get("model").and_then(Value::as_str).or(model);
            if let Some(t) = o.get("timings").filter(|t| t.get("predicted_ms").is_some()) {
                out.push((t, model));
            }
            for (k, x) in o {
                if k != "timings" {
                    find(x, model, depth + 1, out);
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                find(x, model, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// Parses saved answers.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let values = common::read_values(file, bytes, &mut diags)?;
    let mut found = Vec::new();
    for v in &values {
        find(v, None, 0, &mut found);
    }
    let mut runs: Vec<(String, Rows)> = Vec::new();
    for (i, (t, model)) in found.iter().enumerate() {
        let num = |k: &str| t.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
        let row = match (num("prompt_ms"), num("predicted_ms"), num("predicted_n")) {
            (Some(p), Some(d), Some(n)) if p >= 0.0 && d >= 0.0 => Row {
                ttft_s: p / 1e3,
                e2e_s: (p + d) / 1e3,
                output_tokens: n,
                input_tokens: num("prompt_n").map(|p| p + num("cache_n").unwrap_or(0.0)),
                facts: RowFacts {
                    cached_prompt_tokens: num("cache_n"),
                    ..RowFacts::default()
                },
                ..Row::default()
            },
            _ => {
                diags.push(Diagnostic::warning(
                    file,
                    "timings",
                    Some(i),
                    "no prompt_ms, predicted_ms and predicted_n as numbers of 0 or more: left out",
                ));
                Row::invalid("timings")
            }
        };
        let model = model.unwrap_or("llama-server").to_owned();
        match runs.iter_mut().find(|(m, _)| *m == model) {
            Some((_, rows)) => rows.push(row),
            None => {
                let mut rows = Rows::default();
                rows.push(row);
                runs.push((model, rows));
            }
        }
    }
    if runs.is_empty() {
        return Err(common::no_data(
            file,
            "no `timings` object with prompt_ms, predicted_ms and predicted_n (llama-server's answers)",
        ));
    }
    let several = runs.len() > 1;
    let runs = runs
        .into_iter()
        .enumerate()
        .map(|(k, (model, rows))| Run {
            label: model.clone().into(),
            source_format: ID.into(),
            meta: Metadata {
                model: Some(model),
                engine: Some("llama.cpp (llama-server)".into()),
                ..Metadata::default()
            },
            points: vec![Point {
                source_file: if several {
                    format!("{file}#{}", k + 1)
                } else {
                    file.to_owned()
                },
                concurrency: Some(1.0),
                requests: Some(rows.finish(file, "", &mut diags)),
                reported: Reported {
                    tool: ID.to_owned(),
                    figures: BTreeMap::new(),
                    recomputed: BTreeMap::new(),
                },
                ..Point::default()
            }],
            axis: None,
        })
        .collect();
    Ok((
        Report {
            meta: Metadata::default(),
            runs,
        },
        diags,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_timings_is_a_request_in_server_time() {
        // Two answers of one model in a harness's records, one of another, one broken.
        let doc = br#"{"cases": [
  {"case": "a", "last_event": {"model": "m1", "timings": {"prompt_n": 20, "cache_n": 24, "prompt_ms": 10.0, "predicted_n": 65, "predicted_ms": 320.0}}},
  {"case": "b", "last_event": {"model": "m1", "timings": {"prompt_n": 4, "prompt_ms": 30.0, "predicted_n": 11, "predicted_ms": 100.0}}},
  {"case": "c", "response": {"model": "m2", "timings": {"prompt_n": 8, "prompt_ms": 50.0, "predicted_n": 2, "predicted_ms": 5.0}}},
  {"case": "d", "response": {"model": "m2", "timings": {"prompt_ms": "x", "predicted_ms": 1.0}}}]}"#;
        let (r, d) = parse("bench.json", doc).unwrap();
        assert_eq!(r.runs.len(), 2);
        let q = r.runs[0].points[0].requests.as_ref().unwrap();
        // TTFT = prompt_ms; E2E = prompt_ms + predicted_ms; prompt tokens = prompt_n + cache_n.
        assert_eq!(q.ttft_s, vec![0.010, 0.030]);
        assert_eq!(q.e2e_s, vec![0.330, 0.130]);
        assert_eq!(q.output_tokens, vec![65, 11]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].to_string().contains("timings"), "{d:?}");
    }
}
