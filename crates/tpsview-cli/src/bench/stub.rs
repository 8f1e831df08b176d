//! A stand-in OpenAI-compatible streaming server for tests and for measuring the client's own
//! overhead: `tpsview stub-server` (hidden). It streams `max_tokens` one-token chunks at a fixed
//! interval, usage in a final chunk, then `[DONE]`. A request whose `model` is `fault:<kind>`
//! gets that fault: `http500`, `malformed`, `cut` (closes mid-stream), `hang` (never answers),
//! `split` (every event written in two pieces), `nousage`, `error` (streams an error object),
//! `reasoning` (its first half of chunks are `reasoning_content`, then content).
//!
//! A prefix cache of words (for `bench --sessions` tests): a request's prompt (its messages'
//! contents, or its prompt, split on whitespace) counts one token per word, and the longest
//! prefix it shares with any earlier prompt is reported cached
//! (`usage.prompt_tokens_details.cached_tokens`, and `timings.cache_n` as llama.cpp sends it).
//!
//! It also serves its own metrics under llama.cpp's names (`bench --server-metrics` tests):
//! `GET /metrics` — requests streaming now (`llamacpp:requests_processing`), chunks sent
//! (`llamacpp:tokens_predicted_total`; one per decode call, `llamacpp:n_decode_total`: the stub
//! does not batch); `GET /metrics/html` answers a web page (not Prometheus text), `GET
//! /metrics/slow` never answers, any other `GET /metrics/…` is a 404.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Serves until the process ends. Prints `listening on http://ADDR` once bound.
pub async fn serve(port: u16, interval: Duration) -> std::io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening on http://{}", listener.local_addr()?);
    let counts = Arc::new(Counts::default());
    let seen: Seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    loop {
        let (sock, _) = listener.accept().await?;
        let _ = sock.set_nodelay(true);
        let counts = counts.clone();
        let seen = seen.clone();
        tokio::spawn(async move {
            let _ = handle(sock, interval, &counts, &seen).await;
        });
    }
}

/// Every prompt seen, as words (the stub's prefix cache), the most recent 4,096.
type Seen = Arc<std::sync::Mutex<Vec<Vec<String>>>>;

/// A request's prompt as words: its messages' contents in order, or its prompt.
fn prompt_words(req: &serde_json::Value) -> Vec<String> {
    let text = match req["messages"].as_array() {
        Some(m) => m
            .iter()
            .filter_map(|m| m["content"].as_str())
            .collect::<Vec<_>>()
            .join(" "),
        None => req["prompt"].as_str().unwrap_or("").to_owned(),
    };
    text.split_whitespace().map(str::to_owned).collect()
}

/// The prompt's words and how many of them the cache holds (the longest prefix shared with an
/// earlier prompt); remembers the prompt.
fn cache(seen: &Seen, words: Vec<String>) -> (usize, usize) {
    let Ok(mut seen) = seen.lock() else {
        return (words.len(), 0);
    };
    let hit = seen
        .iter()
        .map(|p| p.iter().zip(&words).take_while(|(a, b)| a == b).count())
        .max()
        .unwrap_or(0);
    let n = words.len();
    if seen.len() >= 4096 {
        seen.remove(0);
    }
    seen.push(words);
    (n, hit)
}

/// What the stub's `/metrics` reports.
#[derive(Default)]
struct Counts {
    /// Requests streaming now.
    running: AtomicI64,
    /// Chunks sent since it started (each one token, one decode call).
    tokens: AtomicI64,
}

/// Decrements `running` when a request's stream ends, however it ends.
struct Streaming<'a>(&'a Counts);

impl Drop for Streaming<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::Relaxed);
    }
}

async fn metrics(sock: &mut TcpStream, path: &str, counts: &Counts) -> std::io::Result<()> {
    let (status, kind, body) = match path {
        "/metrics" => {
            let running = counts.running.load(Ordering::Relaxed);
            let tokens = counts.tokens.load(Ordering::Relaxed);
            (
                "200 OK",
                "text/plain; version=0.0.4",
                format!(
                    "# HELP llamacpp:requests_processing Number of requests processing.\n\
                     # TYPE llamacpp:requests_processing gauge\n\
                     llamacpp:requests_processing {running}\n\
                     # HELP llamacpp:requests_deferred Number of requests deferred.\n\
                     # TYPE llamacpp:requests_deferred gauge\n\
                     llamacpp:requests_deferred 0\n\
                     # HELP llamacpp:tokens_predicted_total Number of generation tokens processed.\n\
                     # TYPE llamacpp:tokens_predicted_total counter\n\
                     llamacpp:tokens_predicted_total {tokens}\n\
                     # HELP llamacpp:n_decode_total Total number of llama_decode() calls\n\
                     # TYPE llamacpp:n_decode_total counter\n\
                     llamacpp:n_decode_total {tokens}\n"
                ),
            )
        }
        "/metrics/html" => (
            "200 OK",
            "text/html",
            "<!doctype html><title>Not here</title><p>No metrics here.</p>\n".to_owned(),
        ),
        "/metrics/slow" => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return Ok(());
        }
        _ => ("404 Not Found", "text/plain", "not found\n".to_owned()),
    };
    let resp = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    sock.write_all(resp.as_bytes()).await
}

async fn read_request(sock: &mut TcpStream) -> std::io::Result<(String, String)> {
    let mut buf = Vec::with_capacity(2048);
    let mut tmp = [0u8; 4096];
    let head_end = loop {
        let n = sock.read(&mut tmp).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > 1 << 20 {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let len = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())
                .flatten()
        })
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let n = sock.read(&mut tmp).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&tmp[..n]);
    }
    let body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
    let line = head.lines().next().unwrap_or("").to_owned();
    Ok((line, body))
}

async fn handle(
    mut sock: TcpStream,
    interval: Duration,
    counts: &Counts,
    seen: &Seen,
) -> std::io::Result<()> {
    let (line, body) = read_request(&mut sock).await?;
    if let Some(path) = line
        .strip_prefix("GET ")
        .and_then(|l| l.split(' ').next())
        .filter(|p| p.starts_with("/metrics"))
    {
        return metrics(&mut sock, path, counts).await;
    }
    if line.starts_with("GET /v1/models") {
        let json = r#"{"object":"list","data":[{"id":"stub","object":"model","owned_by":"tpsview-stub"}]}"#;
        let resp = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{json}",
            json.len()
        );
        return sock.write_all(resp.as_bytes()).await;
    }
    let req: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    let model = req["model"].as_str().unwrap_or("stub").to_owned();
    let n = req["max_tokens"].as_u64().unwrap_or(16).min(100_000);
    let chat = line.contains("/chat/");
    let fault = model.strip_prefix("fault:").unwrap_or("");
    let (prompt_n, cached_n) = cache(seen, prompt_words(&req));
    match fault {
        "http500" => {
            let msg = r#"{"error":{"message":"the stub was asked to fail"}}"#;
            let resp = format!(
                "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{msg}",
                msg.len()
            );
            return sock.write_all(resp.as_bytes()).await;
        }
        "hang" => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return Ok(());
        }
        _ => {}
    }
    counts.running.fetch_add(1, Ordering::Relaxed);
    let _streaming = Streaming(counts);
    sock.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
    )
    .await?;
    let chunk = |k: u64, finish: bool| {
        let finish = if finish { r#""stop""# } else { "null" };
        let field = if fault == "reasoning" && k < n / 2 {
            "reasoning_content"
        } else {
            "content"
        };
        if chat {
            format!(
                r#"{{"id":"x","object":"chat.completion.chunk","choices":[{{"index":0,"delta":{{"{field}":"t{k} "}},"finish_reason":{finish}}}]}}"#
            )
        } else {
            format!(
                r#"{{"id":"x","object":"text_completion","choices":[{{"index":0,"text":"t{k} ","finish_reason":{finish}}}]}}"#
            )
        }
    };
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    for k in 0..n {
        tick.tick().await;
        if fault == "cut" && k == n / 2 {
            return Ok(());
        }
        if fault == "malformed" && k == 1 {
            sock.write_all(b"data: {not json\n\n").await?;
            continue;
        }
        if fault == "error" && k == 1 {
            sock.write_all(b"data: {\"error\":{\"message\":\"out of memory\"}}\n\n")
                .await?;
            return Ok(());
        }
        let ev = format!("data: {}\n\n", chunk(k, k + 1 == n));
        if fault == "split" {
            // A comment line, then the event in two writes that cut its line in half.
            sock.write_all(b": keep-alive\r\n").await?;
            let (a, b) = ev.split_at(ev.len() / 2);
            sock.write_all(a.as_bytes()).await?;
            sock.flush().await?;
            tokio::time::sleep(Duration::from_millis(2)).await;
            sock.write_all(b.as_bytes()).await?;
        } else {
            sock.write_all(ev.as_bytes()).await?;
        }
        counts.tokens.fetch_add(1, Ordering::Relaxed);
    }
    if fault != "nousage" {
        let usage = format!(
            "data: {{\"id\":\"x\",\"choices\":[],\"usage\":{{\"prompt_tokens\":{prompt_n},\"completion_tokens\":{n},\"total_tokens\":{},\"prompt_tokens_details\":{{\"cached_tokens\":{cached_n}}}}},\"timings\":{{\"cache_n\":{cached_n},\"prompt_n\":{}}}}}\n\n",
            prompt_n as u64 + n,
            prompt_n - cached_n
        );
        sock.write_all(usage.as_bytes()).await?;
    }
    sock.write_all(b"data: [DONE]\n\n").await?;
    sock.shutdown().await
}
