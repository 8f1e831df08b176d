//! Ollama's timings as people keep them: the block `ollama run --verbose` prints after each reply
//! (`total duration:`, `load duration:`, `prompt eval count:`, `prompt eval duration:`, `prompt
//! eval rate:`, `eval count:`, `eval duration:`, `eval rate:`; ollama/ollama `api/types.go`
//! `Metrics.Summary`, durations in Go's `time.Duration` form such as `1m17.28s`, `85.96ms`,
//! `45.2µs`, a line left out where its value is 0), in a saved console, a log with the spinner's
//! escape bytes, or a Markdown page; and llm_benchmark's logs (aidatatools/ollama-benchmark
//! `run_benchmark.py`: `model_name =`, one `eval rate:` line per prompt, `Average of eval rate:`
//! per model). Each block is a request; the model is the one `ollama run <model>` or `model_name
//! =` named last, else the heading above (`### gemma2:2b`, `=====GEMMA2:2B=====`). A model is a
//! run at concurrency 1 (`ollama run` answers one prompt at a time). TTFT is total − eval
//! duration (eval duration starts after the first token), E2E the total duration, output tokens
//! the eval count. llm_benchmark's average is the tool's figure, audited against the eval rates
//! it printed (`SampleKind::EvalRate`).

use std::collections::BTreeMap;

use super::common::{self, Row, Rows};
use super::{Format, FormatSpec};
use crate::error::{Diagnostic, ParseError};
use crate::model::{Metadata, Point, Report, Reported, Run, SampleKind, Samples};
pub use crate::tools::ollama::{AVERAGE_EVAL_RATE, ID, VOCABULARY};

/// Ollama's timings in text.
pub const SPEC: FormatSpec = FormatSpec {
    format: Format::Ollama,
    detect: |has, _| has("eval rate:") && (has("eval count:") || has("Average of eval rate:")),
    keys: &[
        "total duration:",
        "eval count:",
        "eval duration:",
        "eval rate:",
        "Average of eval rate:",
    ],
    parse: |f, b, _| parse(f, b),
    summary_partners: &[],
    stream: None,
};

/// At most this many blocks read (a log of more is cut, said).
const MAX_BLOCKS: usize = 100_000;

/// One verbose block's values read (seconds, counts, tokens/s): the load and prompt-eval
/// durations and the prompt rate are part of the block but no request's figure.
#[derive(Default)]
struct Block {
    total: Option<f64>,
    prompt_count: Option<f64>,
    count: Option<f64>,
    duration: Option<f64>,
    rate: Option<f64>,
    /// The line of its first label; 0 while no label was read.
    line: usize,
}

impl Block {
    fn is_empty(&self) -> bool {
        self.line == 0
    }
}

/// What one model's lines gave, until llm_benchmark's average closes them (the same model
/// benchmarked again later in the file — on another machine, under another heading — is another
/// run).
#[derive(Default)]
struct Model {
    /// The Markdown heading its first line was under.
    section: Option<String>,
    rows: Rows,
    rates: Vec<f64>,
    average: Option<f64>,
    blocks: usize,
}

/// A line without the terminal's escape sequences (CSI `ESC [ … final`, and a lone ESC), the
/// spinner's braille frames, and what a carriage return overwrote.
fn clean(line: &str) -> String {
    let line = line
        .rsplit('\r')
        .find(|s| !s.trim().is_empty())
        .unwrap_or("");
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                if chars.peek() == Some(&'[') {
                    chars.next();
                    // Parameters and intermediates, then one final byte in @–~.
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                }
            }
            '\u{2800}'..='\u{28ff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A Go `time.Duration` string (`1h2m3.5s`, `1m17.284591875s`, `85.963792ms`, `45.2µs`,
/// `950ns`) in seconds.
pub(crate) fn go_duration(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut total = 0.0;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n == 0 {
            return None;
        }
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..u] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" | "μs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        total += v * scale;
        rest = &rest[u..];
    }
    total.is_finite().then_some(total)
}

/// The number a value starts with (`338 token(s)`, `26.04 tokens/s  //about 75% SOL`).
fn leading_number(v: &str) -> Option<f64> {
    let t = v.split_whitespace().next()?;
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The model a line names: `ollama run <model>`, llm_benchmark's `model_name =    <model>`.
fn model_named(line: &str) -> Option<String> {
    if let Some(at) = line.find("ollama run ") {
        let m = line[at + 11..].split_whitespace().next()?;
        return (!m.starts_with('-')).then(|| m.to_owned());
    }
    let rest = line.trim().strip_prefix("model_name")?.trim_start();
    let m = rest.strip_prefix('=')?.trim();
    (!m.is_empty()).then(|| m.to_owned())
}

/// A heading (`## 3090 Results`, `### gemma2:2b`, `=====GEMMA2:2B=====`): its text.
fn heading(line: &str) -> Option<String> {
    let t = line.trim();
    let h = if t.starts_with('#') {
        t.trim_start_matches('#').trim()
    } else if t.len() > 6 && t.starts_with("===") && t.ends_with("===") {
        t.trim_matches('=').trim()
    } else {
        return None;
    };
    let h = h.trim_matches(|c| c == '*' || c == '`').trim();
    (!h.is_empty()).then(|| h.to_owned())
}

/// A heading that can name a model: one word (`gemma2:2b`), not a sentence.
fn model_heading(h: &str) -> bool {
    !h.contains(char::is_whitespace) && !h.ends_with(':')
}

/// Parses Ollama's timings.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let text = String::from_utf8_lossy(crate::formats::strip_bom(bytes));
    let mut diags = Vec::new();
    let mut models: Vec<(String, Model)> = Vec::new();
    // The model `ollama run` or `model_name =` named last; else the last one-word heading.
    let mut current: Option<String> = None;
    let mut under_heading: Option<String> = None;
    let mut section: Option<String> = None;
    let mut block = Block::default();
    let mut blocks = 0usize;
    let name_of = |current: &Option<String>, heading: &Option<String>| {
        current
            .clone()
            .or_else(|| heading.clone())
            .unwrap_or_default()
    };
    for (i, raw) in text.lines().enumerate() {
        let line = clean(raw);
        let t = line.trim();
        let labelled = t.split_once(':').and_then(|(label, value)| {
            let label = label.trim();
            matches!(
                label,
                "total duration"
                    | "load duration"
                    | "prompt eval count"
                    | "prompt eval duration"
                    | "prompt eval rate"
                    | "eval count"
                    | "eval duration"
                    | "eval rate"
            )
            .then_some((label, value))
        });
        let Some((label, value)) = labelled else {
            if !block.is_empty() {
                flush(
                    file,
                    &mut block,
                    (&name_of(&current, &under_heading), &section),
                    &mut models,
                    &mut diags,
                );
                blocks += 1;
            }
            if let Some(avg) = t
                .strip_prefix("Average of eval rate:")
                .and_then(leading_number)
            {
                let model = name_of(&current, &under_heading);
                entry(&mut models, (&model, &section)).average = Some(avg);
            } else if let Some(m) = model_named(t) {
                current = Some(m);
            } else if let Some(h) = heading(t) {
                if model_heading(&h) {
                    under_heading = Some(h.clone());
                }
                section = Some(h);
            }
            if blocks >= MAX_BLOCKS {
                diags.push(Diagnostic::warning(
                    file,
                    "eval count",
                    None,
                    format!(
                        "more than {MAX_BLOCKS} timing blocks: the rest of the file is not read"
                    ),
                ));
                break;
            }
            continue;
        };
        // A label seen twice starts the next block (blocks printed back to back).
        let seen = match label {
            "total duration" => block.total.is_some(),
            "eval count" => block.count.is_some(),
            "eval rate" => block.rate.is_some(),
            _ => false,
        };
        if seen {
            flush(
                file,
                &mut block,
                (&name_of(&current, &under_heading), &section),
                &mut models,
                &mut diags,
            );
            blocks += 1;
        }
        if block.is_empty() {
            block.line = i + 1;
        }
        let d = || go_duration(value.split_whitespace().next().unwrap_or(""));
        match label {
            "total duration" => block.total = d(),
            "prompt eval count" => block.prompt_count = leading_number(value),
            "eval count" => block.count = leading_number(value),
            "eval duration" => block.duration = d(),
            "eval rate" => block.rate = leading_number(value),
            _ => {}
        }
    }
    if !block.is_empty() {
        let model = name_of(&current, &under_heading);
        close(file, block, (&model, &section), &mut models, &mut diags);
    }
    let mut runs = Vec::new();
    let groups_of = |name: &str| models.iter().filter(|(m, _)| m == name).count();
    let many: Vec<bool> = models.iter().map(|(m, _)| groups_of(m) > 1).collect();
    let several = models.len() > 1;
    for (k, (model, m)) in models.into_iter().enumerate() {
        let read = read_from(&m);
        let label = common::label("Ollama", Some(model.as_str()));
        // The same model benchmarked more than once: each run named by its heading, else its
        // place.
        let label = match (many[k], &m.section) {
            (true, Some(s)) => format!("{label} · {s}"),
            (true, None) => format!("{label} · #{}", k + 1),
            (false, _) => label,
        };
        let Model {
            rows,
            rates,
            average,
            ..
        } = m;
        let requests = (!rows.is_empty()).then(|| rows.finish(file, "", &mut diags));
        let mut figures = BTreeMap::new();
        if let Some(a) = average {
            figures.insert(AVERAGE_EVAL_RATE.to_owned(), a);
        }
        if requests.is_none() && figures.is_empty() {
            continue;
        }
        let samples = (average.is_some() && !rates.is_empty()).then_some(Samples {
            of: SampleKind::EvalRate,
            values: rates,
            tokens: None,
        });
        runs.push(Run {
            label: label.into(),
            source_format: ID.into(),
            meta: Metadata {
                model: (!model.is_empty()).then(|| model.clone()),
                engine: Some("Ollama".into()),
                labels: [("read from".to_owned(), read.to_owned())].into(),
                ..Metadata::default()
            },
            points: vec![Point {
                // Each run's point named apart where the file holds several.
                source_file: if several {
                    format!("{file}#{}", k + 1)
                } else {
                    file.to_owned()
                },
                concurrency: Some(1.0),
                requests,
                samples,
                reported: Reported {
                    tool: ID.to_owned(),
                    figures,
                    recomputed: BTreeMap::new(),
                },
                ..Point::default()
            }],
            axis: None,
        });
    }
    if runs.is_empty() {
        return Err(common::no_data(
            file,
            "no Ollama timing block with `eval count:` and `eval duration:` (ollama run --verbose), nor llm_benchmark's `Average of eval rate:`",
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

fn read_from(m: &Model) -> &'static str {
    match (m.blocks > 0, m.average.is_some()) {
        (true, true) => "ollama run --verbose timings and llm_benchmark's average",
        (true, false) => "ollama run --verbose timings",
        _ => "llm_benchmark's eval rates and their average",
    }
}

/// The open group of `model` (one its average has not closed), else a new one under `section`.
fn entry<'a>(
    models: &'a mut Vec<(String, Model)>,
    (model, section): (&str, &Option<String>),
) -> &'a mut Model {
    let k = match models
        .iter()
        .rposition(|(m, g)| m == model && g.average.is_none())
    {
        Some(k) => k,
        None => {
            models.push((
                model.to_owned(),
                Model {
                    section: section.clone(),
                    ..Model::default()
                },
            ));
            models.len() - 1
        }
    };
    &mut models[k].1
}

/// Closes the block read so far (if any line was read) under `model`.
fn flush(
    file: &str,
    block: &mut Block,
    model: (&str, &Option<String>),
    models: &mut Vec<(String, Model)>,
    diags: &mut Vec<Diagnostic>,
) {
    close(file, std::mem::take(block), model, models, diags);
}

/// A block read: a request where it has the eval count and duration, else (llm_benchmark's
/// `eval rate:` line alone) its printed rate only.
fn close(
    file: &str,
    b: Block,
    model: (&str, &Option<String>),
    models: &mut Vec<(String, Model)>,
    diags: &mut Vec<Diagnostic>,
) {
    let m = entry(models, model);
    if let Some(r) = b.rate {
        m.rates.push(r);
    }
    let (Some(n), Some(decode)) = (b.count, b.duration) else {
        return;
    };
    m.blocks += 1;
    let row = match b.total {
        Some(total) if total >= decode && decode > 0.0 => Row {
            ttft_s: total - decode,
            e2e_s: total,
            input_tokens: b.prompt_count,
            output_tokens: n,
            ..Row::default()
        },
        Some(total) => {
            diags.push(Diagnostic::warning(
                file,
                "eval duration",
                None,
                format!("the block at line {} has an eval duration of {decode} s against a total of {total} s: left out", b.line),
            ));
            Row::invalid("eval duration")
        }
        None => {
            diags.push(Diagnostic::warning(
                file,
                "total duration",
                None,
                format!(
                    "the block at line {} has no total duration: its time to first token is unknown, left out",
                    b.line
                ),
            ));
            Row::invalid("total duration")
        }
    };
    m.rows.push(row);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_read_as_go_writes_them() {
        // time.Duration.String(): h, m, s with a fraction; ms, µs (U+00B5), ns below a second.
        for (s, want) in [
            ("1m17.284591875s", 77.284591875),
            ("12m56.225656006s", 776.225656006),
            ("1h2m3.5s", 3723.5),
            ("85.963792ms", 0.085963792),
            ("45.2µs", 45.2e-6),
            ("950ns", 950e-9),
            ("4m0s", 240.0),
        ] {
            let got = go_duration(s).unwrap();
            assert!((got - want).abs() < 1e-12 * want.max(1.0), "{s}: {got}");
        }
        for bad in ["", "s", "12", "1.2.3s", "5 s", "3x", "-1s"] {
            assert_eq!(go_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_block_glued_to_the_spinners_escapes_reads_and_broken_ones_are_named() {
        // `2>&1 | tee`: the spinner's frames and CSI sequences before the first label; a
        // block whose eval duration passes its total; a block without a total.
        let text = "$ ollama run qwen2.5:7b --verbose\nhello\n\u{1b}[?2026h\u{1b}[?25l\u{1b}[1G\u{280b} \u{1b}[K\u{1b}[?25h\u{1b}[?2026l\u{1b}[2K\u{1b}[1Gtotal duration:       2.5s\nload duration:        20ms\nprompt eval count:    10 token(s)\nprompt eval duration: 480ms\nprompt eval rate:     20.83 tokens/s\neval count:           101 token(s)\neval duration:        2s\neval rate:            50.50 tokens/s\n>>> Send a message (/? for help)\ntotal duration:       1s\neval count:           10 token(s)\neval duration:        2s\n\neval count:           10 token(s)\neval duration:        2s\n";
        let (report, diags) = parse("log.txt", text.as_bytes()).unwrap();
        assert_eq!(report.runs.len(), 1);
        assert_eq!(report.runs[0].label.to_string(), "qwen2.5:7b");
        let req = report.runs[0].points[0].requests.as_ref().unwrap();
        // TTFT = 2.5 − 2 s; E2E 2.5 s; 101 tokens. The two broken blocks are left out, named.
        // (Unusable rows stay as NaN, which every figure leaves out.)
        assert_eq!(req.ttft_s[0], 0.5);
        assert_eq!(req.output_tokens[0], 101);
        assert!(
            req.ttft_s[1..].iter().all(|t| t.is_nan()),
            "{:?}",
            req.ttft_s
        );
        let text = diags
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            text.contains("line 16") && text.contains("no total duration"),
            "{text}"
        );
        assert!(
            text.contains("line 12")
                && text.contains("eval duration of 2 s against a total of 1 s"),
            "{text}"
        );
    }

    #[test]
    fn nothing_to_read_is_an_error_naming_the_file() {
        let e = parse("notes.md", b"eval rate: is a phrase\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("notes.md") && e.contains("eval count"), "{e}");
    }
}
