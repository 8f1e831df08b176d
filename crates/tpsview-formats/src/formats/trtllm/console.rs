//! trtllm-bench's console report: the blocks it prints at the end of a run (`= ENGINE DETAILS` or
//! `= PYTORCH BACKEND`, `= REQUEST DETAILS`, `= WORLD + RUNTIME INFORMATION`, `= PERFORMANCE
//! OVERVIEW` with its latency breakdowns), as people paste them into logs and Markdown pages. Each
//! printed figure is kept under the key the report JSON gives it (`Total Output Throughput
//! (tokens/sec)` is `performance.system_output_throughput_tok_s`), so the JSON's vocabulary and
//! audit apply unchanged. Where the text has no section headers (a bare overview pasted alone),
//! each group of overview lines starting at `Request Throughput (req/sec):` is a report, named by
//! the heading above it.

use std::collections::BTreeMap;

use super::super::common::{self, summary_point};
use super::{level, REPORT_ID};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Report, Run};

/// The overview's labels and the report JSON's key for each. Percentile lines
/// (`[Latency] P50 : …`) are read by [`percentile_key`].
const LABELS: &[(&str, &str)] = &[
    (
        "Request Throughput (req/sec)",
        "performance.request_throughput_req_s",
    ),
    (
        "Total Output Throughput (tokens/sec)",
        "performance.system_output_throughput_tok_s",
    ),
    (
        "Total Token Throughput (tokens/sec)",
        "performance.system_total_throughput_tok_s",
    ),
    // trtllm-bench 0.15–0.16 (`report_statistics`): its `Token Throughput` is the output tokens
    // over the total latency, what 1.x calls `Total Output Throughput`.
    (
        "Token Throughput (tokens/sec)",
        "performance.system_output_throughput_tok_s",
    ),
    ("Total Latency (ms)", "performance.total_latency_ms"),
    // 0.16's `= STREAMING STATISTICS`.
    (
        "Average time-to-first-token (ms)",
        "streaming_metrics.avg_ttft_ms",
    ),
    (
        "Average request latency (ms)",
        "performance.avg_request_latency_ms",
    ),
    (
        "Per User Output Throughput [w/ ctx] (tps/user)",
        "performance.output_throughput_per_user_tok_s",
    ),
    (
        "Per GPU Output Throughput (tps/gpu)",
        "performance.output_throughput_per_gpu_tok_s",
    ),
    (
        "Average time-to-first-token [TTFT] (ms)",
        "streaming_metrics.avg_ttft_ms",
    ),
    (
        "Average time-per-output-token [TPOT] (ms)",
        "streaming_metrics.avg_tpot_ms",
    ),
    (
        "Per User Output Speed [1/TPOT] (tps/user)",
        "streaming_metrics.token_output_speed_tok_s",
    ),
    ("Number of requests", "request_info.num_requests"),
    (
        "Number of concurrent requests",
        "request_info.avg_num_concurrent_requests",
    ),
    (
        "Average Input Length (tokens)",
        "request_info.avg_input_length",
    ),
    (
        "Average Output Length (tokens)",
        "request_info.avg_output_length",
    ),
];

/// `[Latency] P50`, `[TTFT] P99`, `[TPOT] AVERAGE` → the report JSON's percentile keys.
fn percentile_key(label: &str) -> Option<String> {
    let (series, stat) = label.strip_prefix('[')?.split_once(']')?;
    let prefix = match series {
        "Latency" => "performance.request_latency_percentiles_ms",
        "TTFT" => "streaming_metrics.ttft_percentiles",
        "TPOT" => "streaming_metrics.tpot_percentiles",
        "GEN" | "ITL" => return None,
        _ => return None,
    };
    let stat = stat.trim().to_ascii_lowercase();
    Some(format!("{prefix}.{stat}"))
}

/// Whether a file's ends hold the overview's two headline lines (0.16's: `Token Throughput`, under
/// its `= PERFORMANCE OVERVIEW` header).
pub(super) fn detect(has: &dyn Fn(&str) -> bool) -> bool {
    has("Request Throughput (req/sec):")
        && (has("Total Output Throughput (tokens/sec):")
            || (has("= PERFORMANCE OVERVIEW") && has("Token Throughput (tokens/sec):")))
}

/// `Label:   value` (or `Label : value`), with a number for a value.
fn pair(line: &str) -> Option<(&str, f64)> {
    let (label, value) = line.trim().rsplit_once(':')?;
    let value = value.trim().replace(',', "");
    let v = value.parse::<f64>().ok()?;
    Some((label.trim(), v))
}

/// `Label:   text`.
fn text_pair(line: &str) -> Option<(&str, &str)> {
    let (label, value) = line.trim().split_once(':')?;
    let value = value.trim();
    (!value.is_empty()).then_some((label.trim(), value))
}

/// One report, read.
#[derive(Default)]
struct Block {
    name: Option<String>,
    figures: BTreeMap<String, f64>,
    texts: BTreeMap<String, String>,
    issue_rate: Option<f64>,
}

impl Block {
    fn take(&mut self, line: &str) {
        if let Some((label, v)) = pair(line) {
            if let Some((_, key)) = LABELS.iter().find(|(l, _)| *l == label) {
                self.figures.insert((*key).to_owned(), v);
                return;
            }
            if let Some(key) = percentile_key(label) {
                self.figures.insert(key, v);
                return;
            }
            match label {
                "Issue Rate (req/sec)" => self.issue_rate = Some(v),
                "TP Size" | "PP Size" | "EP Size" => {
                    self.texts.insert(label.to_owned(), format!("{v}"));
                }
                _ => {}
            }
        } else if let Some((label, v)) = text_pair(line) {
            if matches!(
                label,
                "Model"
                    | "TensorRT-LLM Version"
                    | "Dtype"
                    | "Quantization"
                    | "KV Cache Dtype"
                    | "Backend"
            ) && v != "None"
            {
                self.texts.insert(label.to_owned(), v.to_owned());
            }
        }
    }
}

/// A section header line (`= PERFORMANCE OVERVIEW`): its title.
fn header(line: &str) -> Option<&str> {
    let t = line.trim().strip_prefix("= ")?;
    (!t.is_empty() && !t.starts_with('=')).then_some(t.trim())
}

/// The reports of a text: with section headers, each `PERFORMANCE OVERVIEW` (and the sections
/// before it since the last); without, each bare group of overview lines.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    if lines
        .iter()
        .any(|l| header(l) == Some("PERFORMANCE OVERVIEW"))
    {
        let mut out = Vec::new();
        let mut current = Block::default();
        let mut section = "";
        for line in &lines {
            if let Some(h) = header(line) {
                if section == "PERFORMANCE OVERVIEW" && h != "PERFORMANCE OVERVIEW" {
                    out.push(std::mem::take(&mut current));
                }
                section = h;
                continue;
            }
            if section.is_empty() || section == "DATASET DETAILS" {
                continue;
            }
            current.take(line);
        }
        if section == "PERFORMANCE OVERVIEW" {
            out.push(current);
        }
        return out
            .into_iter()
            .filter(|b| {
                b.figures
                    .contains_key("performance.system_output_throughput_tok_s")
            })
            .collect();
    }
    // Bare groups: consecutive `label: number` lines, the first `Request Throughput`, every one
    // an overview line (a look-alike of another tool's has labels of its own).
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.starts_with('#') {
            let h = line.trim_start_matches('#').trim().trim_matches('"').trim();
            heading = (!h.is_empty()).then(|| h.to_owned());
        }
        if pair(line).is_some_and(|(l, _)| l == "Request Throughput (req/sec)") {
            let mut j = i;
            let mut block = Block {
                name: heading.clone(),
                ..Block::default()
            };
            let mut known = true;
            while j < lines.len() {
                let Some((label, _)) = pair(lines[j]) else {
                    break;
                };
                known &= LABELS.iter().any(|(l, _)| *l == label) || percentile_key(label).is_some();
                block.take(lines[j]);
                j += 1;
            }
            if known
                && block
                    .figures
                    .contains_key("performance.system_output_throughput_tok_s")
            {
                out.push(block);
            }
            i = j.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

/// Parses a console report.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    let text = String::from_utf8_lossy(crate::formats::strip_bom(bytes));
    let found = blocks(&text);
    if found.is_empty() {
        return Err(common::no_data(
            file,
            "no trtllm-bench PERFORMANCE OVERVIEW with a `Total Output Throughput (tokens/sec)` line",
        ));
    }
    let many = found.len() > 1;
    let mut runs: Vec<Run> = Vec::new();
    for (k, b) in found.into_iter().enumerate() {
        let name = if many {
            format!("{file}#{}", k + 1)
        } else {
            file.to_owned()
        };
        let (concurrency, rate) = level(
            &name,
            b.figures
                .get("request_info.avg_num_concurrent_requests")
                .copied(),
            b.issue_rate,
            &mut diags,
        );
        let model = b.texts.get("Model").cloned();
        let meta = Metadata {
            engine: Some("TensorRT-LLM".into()),
            engine_version: b.texts.get("TensorRT-LLM Version").cloned(),
            model: model.clone(),
            precision: b
                .texts
                .get("Quantization")
                .or(b.texts.get("Dtype"))
                .cloned(),
            tensor_parallel: b
                .texts
                .get("TP Size")
                .and_then(|t| t.parse::<f64>().ok())
                .map(|t| t as u32),
            labels: [(
                "read from".to_owned(),
                "trtllm-bench's console report".to_owned(),
            )]
            .into(),
            ..Metadata::default()
        };
        let label = match (&b.name, &model) {
            (Some(n), Some(m)) => format!("{m} · {n}"),
            (Some(n), None) => n.clone(),
            (None, m) => common::label("TensorRT-LLM", m.as_deref()),
        };
        let point = summary_point(&name, REPORT_ID, concurrency, rate, b.figures);
        match runs.iter_mut().find(|r| r.label == *label) {
            Some(r) => r.points.push(point),
            None => runs.push(Run {
                label: label.into(),
                source_format: REPORT_ID.into(),
                meta,
                points: vec![point],
                axis: None,
            }),
        }
    }
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
    fn a_bare_overview_is_read_and_a_look_alike_is_not() {
        let text = "### \"auto\"\nRequest Throughput (req/sec):   141.2968\nTotal Output Throughput (tokens/sec):   18085.9891\nAverage request latency (ms):   15698.2533\n\nBenchmark Results:\nTotal Requests: 16\nRequest Throughput (req/sec): 7.2\nTotal Output Throughput (tokens/sec): 1431.0\nAvg TTFT (ms): 2147.2\n";
        let b = blocks(text);
        assert_eq!(
            b.len(),
            1,
            "the look-alike (Avg TTFT is no overview line) is left out"
        );
        assert_eq!(b[0].name.as_deref(), Some("auto"));
        assert_eq!(
            b[0].figures["performance.system_output_throughput_tok_s"],
            18085.9891
        );
        assert_eq!(
            b[0].figures["performance.avg_request_latency_ms"],
            15698.2533
        );
    }

    #[test]
    fn sections_give_the_model_the_measured_concurrency_and_percentiles() {
        let text = "===\n= PYTORCH BACKEND\n===\nModel:  m/x\nTensorRT-LLM Version:   1.1.0\n===\n= REQUEST DETAILS\n===\nNumber of concurrent requests:  7.9940\n===\n= WORLD + RUNTIME INFORMATION\n===\nIssue Rate (req/sec):   1.0535E+17\n===\n= PERFORMANCE OVERVIEW\n===\nTotal Output Throughput (tokens/sec):  1216.0159\nRequest Throughput (req/sec):  4.75\n[Latency] P50    : 1683.3179\n===\n= DATASET DETAILS\n===\nNumber of Sequences:  16\n";
        let (r, d) = parse("log.md", text.as_bytes()).expect("read");
        let run = &r.runs[0];
        assert_eq!(run.meta.model.as_deref(), Some("m/x"));
        let p = &run.points[0];
        assert_eq!(p.concurrency, Some(7.994));
        assert_eq!(p.request_rate, Some(f64::INFINITY), "unthrottled");
        assert_eq!(
            p.reported.figures["performance.request_latency_percentiles_ms.p50"],
            1683.3179
        );
        assert!(d.iter().any(|d| d
            .message
            .contains("average concurrency the report measured")));
    }
}
