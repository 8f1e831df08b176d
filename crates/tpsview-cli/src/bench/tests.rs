use super::sse::{classify, Chunk};
use super::*;
use tpsview_core::model::Outcome;

#[test]
fn classify_reads_content_usage_finish_done_and_garbage() {
    assert_eq!(classify("[DONE]"), Chunk::Done);
    assert_eq!(classify(" [DONE] "), Chunk::Done);
    let c = classify(r#"{"choices":[{"delta":{"content":"Hi"},"finish_reason":null}]}"#);
    assert!(matches!(
        c,
        Chunk::Data {
            content: true,
            completion_tokens: None,
            ..
        }
    ));
    // The chat role chunk: no content.
    let c = classify(r#"{"choices":[{"delta":{"role":"assistant","content":""}}]}"#);
    assert!(matches!(c, Chunk::Data { content: false, .. }));
    // A usage-only chunk (include_usage): no choices.
    let c = classify(r#"{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":64}}"#);
    assert_eq!(
        c,
        Chunk::Data {
            content: false,
            visible: None,
            cached_tokens: None,
            completion_tokens: Some(64),
            prompt_tokens: Some(7),
            finish_reason: None,
            error: None
        }
    );
    // llama.cpp completions: usage rides on the chunk with the finish reason.
    let c = classify(
        r#"{"choices":[{"text":"","finish_reason":"length"}],"usage":{"completion_tokens":32}}"#,
    );
    assert!(
        matches!(c, Chunk::Data { content: false, completion_tokens: Some(32), finish_reason: Some(ref f), .. } if f == "length")
    );
    assert!(matches!(classify("{not json"), Chunk::Malformed(_)));
    assert!(matches!(classify("42"), Chunk::Malformed(_)));
    let e = classify(r#"{"error":{"message":"boom"}}"#);
    assert!(matches!(e, Chunk::Data { error: Some(ref m), .. } if m == "boom"));
}

#[tokio::test]
async fn sse_framing_survives_split_lines_multiline_data_comments_and_crlf() {
    let text = ": hello\r\ndata: {\"choices\":[{\"text\":\"a\"}]}\r\n\r\ndata: line one\ndata: line two\n\nevent: ping\ndata: {\"choices\":[],\"usage\":{\"completion_tokens\":2}}\n\ndata: [DONE]\n\n";
    // Every split position of the byte stream gives the same events.
    let whole = text.as_bytes();
    let mut expected: Option<Vec<String>> = None;
    for cut in (1..whole.len()).step_by(3) {
        let parts: Vec<Result<bytes::Bytes, std::io::Error>> = vec![
            Ok(bytes::Bytes::copy_from_slice(&whole[..cut])),
            Ok(bytes::Bytes::copy_from_slice(&whole[cut..])),
        ];
        let events: Vec<String> = futures_util::stream::iter(parts)
            .eventsource()
            .filter_map(|e| async move { e.ok().map(|e| e.data) })
            .collect()
            .await;
        match &expected {
            None => expected = Some(events),
            Some(x) => assert_eq!(&events, x, "cut at {cut}"),
        }
    }
    let events = expected.unwrap();
    assert_eq!(events.len(), 4);
    assert_eq!(
        events[1], "line one\nline two",
        "multi-line data joins with \\n"
    );
    assert!(matches!(
        classify(&events[0]),
        Chunk::Data { content: true, .. }
    ));
    assert!(matches!(classify(&events[1]), Chunk::Malformed(_)));
    assert!(matches!(
        classify(&events[2]),
        Chunk::Data {
            completion_tokens: Some(2),
            ..
        }
    ));
    assert_eq!(classify(&events[3]), Chunk::Done);
}

async fn stub() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    tokio::spawn(stub::serve(port, Duration::from_millis(2)));
    tokio::time::sleep(Duration::from_millis(100)).await;
    format!("http://127.0.0.1:{port}")
}

fn cfg(url: &str, model: &str) -> Config {
    Config {
        url: url.into(),
        model: model.into(),
        levels: vec![2],
        requests_per_level: 4,
        max_tokens: 8,
        prompt_tokens: 8,
        endpoint: Endpoint::Chat,
        rate: None,
        timeout: Duration::from_secs(2),
        warmup: Some(1),
        seed: 1,
        ignore_eos: false,
        sessions: None,
    }
}

async fn level(c: &Config) -> Vec<Record> {
    let client = reqwest::Client::new();
    let stop = AtomicBool::new(false);
    run_level(
        &client,
        c,
        c.levels[0],
        Instant::now(),
        &stop,
        &Progress::default(),
        None,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_normal_stream_records_every_chunk_and_the_usage_count() {
    let url = stub().await;
    for endpoint in [Endpoint::Chat, Endpoint::Completions] {
        let mut c = cfg(&url, "stub");
        c.endpoint = endpoint;
        let recs = level(&c).await;
        assert_eq!(recs.len(), 4, "warm-up not recorded");
        for r in &recs {
            assert_eq!(r.error, None);
            assert_eq!(r.chunks.len(), 8);
            assert_eq!(r.completion_tokens, Some(8));
            assert_eq!(r.finish_reason.as_deref(), Some("stop"));
            assert!(r.chunks.windows(2).all(|w| w[1] >= w[0]), "monotonic");
        }
        let mut counted = 0;
        let (req, invalid) = to_requests(&recs, "t", &mut counted);
        assert_eq!(counted, 0);
        assert_eq!(req.output_tokens, vec![8; 4]);
        assert_eq!(req.chunk_gaps.as_ref().unwrap().row(0).len(), 7);
        assert!(invalid.is_empty(), "{invalid:?}");
        assert!(req.outcome.iter().all(|o| matches!(o, Outcome::Ok)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_become_failed_requests_with_their_reason_and_nothing_hangs() {
    let url = stub().await;
    let t = Instant::now();
    for (model, reason) in [
        ("fault:http500", "HTTP 500"),
        ("fault:malformed", "malformed event data"),
        ("fault:cut", "ended before the response finished"),
        ("fault:hang", "per-request timeout"),
        ("fault:error", "streamed an error: out of memory"),
    ] {
        let mut c = cfg(&url, model);
        c.timeout = Duration::from_millis(700);
        c.warmup = Some(0);
        let recs = level(&c).await;
        assert_eq!(recs.len(), 4, "{model}");
        for r in &recs {
            let e = r.error.as_deref().unwrap_or("");
            assert!(e.contains(reason), "{model}: {e:?}");
        }
        let mut counted = 0;
        let (req, _) = to_requests(&recs, "t", &mut counted);
        assert!(req.outcome.iter().all(|o| matches!(o, Outcome::Failed(_))));
    }
    assert!(t.elapsed() < Duration::from_secs(20));
    // The server is down: every request fails fast with "cannot connect".
    let c = cfg("http://127.0.0.1:9", "stub");
    let recs = level(&c).await;
    assert!(recs
        .iter()
        .all(|r| r.error.as_deref().unwrap_or("").contains("cannot connect")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_events_and_missing_usage_are_read_and_said() {
    let url = stub().await;
    let recs = level(&cfg(&url, "fault:split")).await;
    assert!(recs
        .iter()
        .all(|r| r.error.is_none() && r.chunks.len() == 8));
    let recs = level(&cfg(&url, "fault:nousage")).await;
    let mut counted = 0;
    let (req, _) = to_requests(&recs, "t", &mut counted);
    assert_eq!(counted, 4, "token counts fall back to chunks, and say so");
    assert_eq!(req.output_tokens, vec![8; 4]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_loop_poisson_arrivals_respect_the_cap() {
    let url = stub().await;
    let mut c = cfg(&url, "stub");
    c.rate = Some(200.0);
    c.requests_per_level = 12;
    let recs = level(&c).await;
    assert_eq!(recs.len(), 12);
    assert!(recs.iter().all(|r| r.error.is_none()));
    // Starts are spread out, not all at once.
    let first = recs.first().unwrap().start;
    let last = recs.last().unwrap().start;
    assert!(last > first);
}

#[test]
fn the_benchs_requests_are_validated_like_any_files() {
    let ms = Duration::from_millis;
    let rec = |chunks: Vec<Duration>, tokens: Option<u32>| Record {
        start: ms(5),
        chunks,
        completion_tokens: tokens,
        ..Record::default()
    };
    let recs = vec![
        rec(vec![ms(10), ms(20), ms(30)], Some(3)),
        // The server said it produced no tokens although content arrived: TPOT is undefined.
        rec(vec![ms(10), ms(20)], Some(0)),
        Record {
            error: Some("HTTP 500".into()),
            ..rec(vec![], None)
        },
    ];
    let mut counted = 0;
    let (req, invalid) = to_requests(&recs, "tpsview bench, concurrency 2", &mut counted);
    assert!(matches!(req.outcome[0], Outcome::Ok));
    assert!(
        matches!(req.outcome[1], Outcome::Invalid(_)),
        "{:?}",
        req.outcome[1]
    );
    assert!(matches!(&req.outcome[2], Outcome::Failed(r) if &**r == "HTTP 500"));
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0].index, Some(1));
    assert_eq!(invalid[0].file, "tpsview bench, concurrency 2");
    assert_eq!(req.ttft_s[0], 0.010);
    assert_eq!(req.chunk_gaps.as_ref().map(|g| g.row(0).len()), Some(2));
}
