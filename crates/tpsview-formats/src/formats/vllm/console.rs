//! The `============ Serving Benchmark Result ============` block that `vllm bench serve` (and
//! `benchmark_serving.py`) prints at the end of a run, and SGLang's `bench_serving` prints in the
//! same layout, as people keep it in a log or a Markdown page. Each block becomes the result
//! object the tool would have written with `--save-result` (its printed labels under the JSON's
//! keys: `Output token throughput (tok/s)` is `output_throughput`), and the objects are read by
//! the result reader of that tool, so the figures, vocabulary and audit are the JSON's. What the
//! block does not print (the model, the concurrency limit) is taken from the `Namespace(…)` line of
//! arguments the tool prints before it, where the log has one.

use serde_json::{json, Map, Value};

/// Whether a file's ends hold the block's title and its headline line.
pub(crate) fn detect(has: &dyn Fn(&str) -> bool) -> bool {
    has("Serving Benchmark Result") && has("Output token throughput (tok/s):")
}

/// A printed label's JSON key.
fn key(label: &str) -> Option<String> {
    let fixed = match label {
        "Backend" => "backend",
        "Successful requests" => "completed",
        "Failed requests" => "failed",
        "Benchmark duration (s)" => "duration",
        "Total input tokens" => "total_input_tokens",
        "Total generated tokens" => "total_output_tokens",
        "Total generated tokens (retokenized)" => "total_output_tokens_retokenized",
        "Request throughput (req/s)" => "request_throughput",
        "Request goodput (req/s)" => "request_goodput",
        "Input token throughput (tok/s)" => "input_throughput",
        "Output token throughput (tok/s)" => "output_throughput",
        "Peak output token throughput (tok/s)" => "max_output_tokens_per_s",
        "Peak concurrent requests" => "max_concurrent_requests",
        "Total token throughput (tok/s)" => "total_token_throughput",
        "Total throughput (tok/s)" => "total_throughput",
        "Traffic request rate" | "Request rate configured (RPS)" => "request_rate",
        "Max request concurrency" | "Maximum request concurrency" => "max_concurrency",
        "Concurrency" => "concurrency",
        "Accept length" => "accept_length",
        _ => "",
    };
    if !fixed.is_empty() {
        return Some(fixed.to_owned());
    }
    // `Mean TTFT (ms)`, `Median TPOT (ms)`, `P99 ITL (ms)`, `Mean E2EL (ms)`, `Mean E2E Latency (ms)`.
    let body = label.strip_suffix(" (ms)")?;
    let (stat, what) = body.split_once(' ')?;
    let stat = match stat {
        "Mean" => "mean".to_owned(),
        "Median" => "median".to_owned(),
        "Std" => "std".to_owned(),
        p if p.starts_with('P') && p[1..].parse::<f64>().is_ok() => p.to_ascii_lowercase(),
        _ => return None,
    };
    let what = what.to_ascii_lowercase().replace(' ', "_");
    Some(format!("{stat}_{what}_ms"))
}

/// `name='x'`, `name=4.0`, `name=None` in a `Namespace(…)` line: the value, when it is a string or
/// a number.
fn arg(namespace: &str, name: &str) -> Option<Value> {
    let at = namespace.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &namespace[at..];
    if let Some(q) = rest.strip_prefix('\'') {
        return q.split('\'').next().map(|v| json!(v));
    }
    let v = rest.split([',', ')']).next()?.trim();
    match v {
        "inf" => Some(json!("inf")),
        _ => v.parse::<f64>().ok().map(|x| json!(x)),
    }
}

/// The blocks of a text as result objects, in JSON lines, and whether they are SGLang's.
pub(crate) fn to_json_lines(text: &str) -> Option<(String, bool)> {
    let mut out = Vec::new();
    let mut sglang = false;
    let mut namespace: Option<&str> = None;
    let mut block: Option<Map<String, Value>> = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Namespace(") {
            namespace = Some(t);
            continue;
        }
        if t.contains("Serving Benchmark Result") {
            let mut o = Map::new();
            if let Some(ns) = namespace {
                for (from, to) in [
                    ("model", "model_id"),
                    ("backend", "backend"),
                    ("max_concurrency", "max_concurrency"),
                    ("request_rate", "request_rate"),
                    ("dataset_name", "dataset_name"),
                ] {
                    if let Some(v) = arg(ns, from) {
                        o.insert(to.into(), v);
                    }
                }
            }
            block = Some(o);
            continue;
        }
        let Some(o) = block.as_mut() else { continue };
        if t.starts_with("==========") {
            out.push(Value::Object(block.take().unwrap_or_default()));
            continue;
        }
        let Some((label, value)) = t.split_once(':') else {
            continue;
        };
        let (label, value) = (label.trim(), value.trim());
        let Some(k) = key(label) else { continue };
        if k == "total_output_tokens_retokenized" {
            sglang = true;
        }
        let v = match value.parse::<f64>() {
            Ok(x) => json!(x),
            Err(_) if value == "inf" => json!("inf"),
            Err(_) if value == "None" => Value::Null,
            Err(_) => json!(value),
        };
        if k == "backend" && value.starts_with("sglang") {
            sglang = true;
        }
        o.insert(k, v);
    }
    // Only blocks with the headline figure: a cut block is no result.
    let lines: Vec<String> = out
        .into_iter()
        .filter(|o| o.get("output_throughput").is_some_and(Value::is_number))
        .map(|o| o.to_string())
        .collect();
    (!lines.is_empty()).then(|| (lines.join("\n"), sglang))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_block_becomes_the_result_object_with_the_namespace_s_model() {
        let log = "Namespace(subparser='bench', backend='openai', max_concurrency=None, model='g/x', request_rate=4.0, label=None)\nTraffic request rate: 4.0\n============ Serving Benchmark Result ============\nSuccessful requests:                     1000\nBenchmark duration (s):                  1191.09\nOutput token throughput (tok/s):         429.86\nMean TTFT (ms):                          455797.92\nP99 ITL (ms):                            436.85\n==================================================\n";
        let (jsonl, sglang) = to_json_lines(log).expect("one block");
        assert!(!sglang);
        let o: Value = serde_json::from_str(&jsonl).expect("JSON");
        assert_eq!(o["model_id"], "g/x");
        assert_eq!(o["request_rate"], 4.0);
        assert_eq!(o["completed"], 1000.0);
        assert_eq!(o["output_throughput"], 429.86);
        assert_eq!(o["mean_ttft_ms"], 455797.92);
        assert_eq!(o["p99_itl_ms"], 436.85);
        assert!(o.get("max_concurrency").is_none(), "None is no limit");
    }
}
