//! `bench --sessions` against the stub (`stub.rs`: a prefix cache of words), and the bodies it
//! sends, checked against what each turn must carry.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::bench::{run_level, stub, to_requests, Config, Endpoint, Progress};

fn config(url: &str, model: &str, plan: Plan) -> Config {
    Config {
        url: url.into(),
        model: model.into(),
        levels: vec![2],
        requests_per_level: 99,
        max_tokens: 8,
        prompt_tokens: 8,
        endpoint: Endpoint::Chat,
        rate: None,
        timeout: Duration::from_secs(5),
        warmup: Some(0),
        seed: 1,
        ignore_eos: false,
        sessions: Some(plan),
    }
}

async fn stub_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    tokio::spawn(stub::serve(port, Duration::from_millis(1)));
    tokio::time::sleep(Duration::from_millis(100)).await;
    format!("http://127.0.0.1:{port}")
}

/// One level of 2 sessions in flight against the stub.
async fn level(c: &Config) -> Vec<crate::bench::Record> {
    let stop = AtomicBool::new(false);
    let client = reqwest::Client::new();
    run_level(
        &client,
        c,
        2,
        Instant::now(),
        &stop,
        &Progress::default(),
        None,
    )
    .await
}

const PLAN: Plan = Plan {
    count: 5,
    turns: 3,
    shared_prefix_tokens: 12,
};

#[test]
fn each_turn_carries_the_shared_prefix_the_conversation_so_far_and_a_new_message() {
    let c = config("http://x", "m", PLAN);
    let history = vec![
        ("session 3 turn 0 q".to_owned(), "a0".to_owned()),
        ("session 3 turn 1 q".to_owned(), "a1".to_owned()),
    ];
    let b: serde_json::Value =
        serde_json::from_str(&body(&c, &PLAN, &history, "session 3 turn 2 q")).unwrap();
    let m = b["messages"].as_array().unwrap();
    let roles: Vec<&str> = m.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "user", "assistant", "user"]
    );
    assert_eq!(m[0]["content"].as_str().unwrap().split(' ').count(), 12);
    assert_eq!(m[2]["content"], "a0");
    assert_eq!(m[4]["content"], "a1");
    assert_eq!(m[5]["content"], "session 3 turn 2 q");
    // The same conversation as one prompt for /v1/completions.
    let c = Config {
        endpoint: Endpoint::Completions,
        ..c
    };
    let b: serde_json::Value = serde_json::from_str(&body(&c, &PLAN, &history, "next")).unwrap();
    let p = b["prompt"].as_str().unwrap();
    assert!(p.starts_with(&prefix(12)), "{p}");
    assert!(
        p.ends_with("User: session 3 turn 1 q\nAssistant: a1\nUser: next\nAssistant:"),
        "{p}"
    );
    // A user message names its session and turn and has the words asked for.
    assert_eq!(user_message(4, 2, 8).split(' ').count(), 8);
    assert!(user_message(4, 2, 8).starts_with("session 4 turn 2 "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_run_their_turns_in_order_and_record_the_cache_the_server_reports() {
    let url = stub_url().await;
    let c = config(&url, "stub", PLAN);
    let recs = level(&c).await;
    assert_eq!(recs.len(), 15);
    assert_eq!(c.recorded_per_level(), 15);
    assert!(
        recs.iter().all(|r| r.error.is_none()),
        "{:?}",
        recs.iter().find(|r| r.error.is_some())
    );
    for s in 0..5 {
        let mut turns: Vec<&crate::bench::Record> = recs
            .iter()
            .filter(|r| r.session.map(|x| x.0) == Some(s))
            .collect();
        turns.sort_by_key(|r| r.session.unwrap().1);
        assert_eq!(
            turns
                .iter()
                .map(|r| r.session.unwrap().1)
                .collect::<Vec<_>>(),
            [0, 1, 2]
        );
        for w in turns.windows(2) {
            let (a, b) = (w[0], w[1]);
            // The next turn is sent after the last one's last chunk.
            assert!(
                b.start >= a.start + *a.chunks.last().unwrap(),
                "session {s}"
            );
            // Its prompt: the last one's, its 8-word answer and a new 8-word message; the stub
            // caches prompts, so the whole of the last prompt is cached.
            let (pa, pb) = (a.prompt_tokens.unwrap(), b.prompt_tokens.unwrap());
            assert_eq!(pb, pa + 8 + 8, "session {s}");
            assert_eq!(b.cached_tokens, Some(pa), "session {s}");
        }
        // The first turn: the 12-word prefix and an 8-word message.
        assert_eq!(turns[0].prompt_tokens, Some(20));
    }
    // In columns, as tpsview/1 writes them.
    let mut counted = 0;
    let (req, diags) = to_requests(&recs, "t", &mut counted);
    assert!(diags.is_empty(), "{diags:?}");
    let f = req.facts.as_deref().unwrap();
    let sessions: std::collections::BTreeSet<&str> = f
        .session
        .as_ref()
        .unwrap()
        .iter()
        .map(|s| s.as_deref().unwrap())
        .collect();
    assert_eq!(sessions.len(), 5);
    assert_eq!(
        f.turn
            .as_ref()
            .unwrap()
            .iter()
            .filter(|t| **t == 2.0)
            .count(),
        5
    );
    let cached: f64 = f.cached_prompt_tokens.as_ref().unwrap().iter().sum();
    let want: u32 = recs.iter().filter_map(|r| r.cached_tokens).sum();
    assert_eq!(cached, f64::from(want));
    assert!(
        f.ttfvt_s.is_none(),
        "no reasoning: no separate first visible token"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_reasons_first_records_its_first_visible_token_apart() {
    let url = stub_url().await;
    let mut c = config(
        &url,
        "fault:reasoning",
        Plan {
            count: 2,
            turns: 1,
            shared_prefix_tokens: 0,
        },
    );
    c.max_tokens = 8;
    let recs = level(&c).await;
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert!(r.reasoned);
        // Chunks 0–3 reasoning, 4–7 content: the fifth chunk is the first visible one.
        assert_eq!(r.chunks.len(), 8);
        assert_eq!(r.first_visible, Some(r.chunks[4]));
        assert_eq!(
            r.text, "t4 t5 t6 t7 ",
            "only the visible text is kept for the next turn"
        );
    }
    let mut counted = 0;
    let (req, _) = to_requests(&recs, "t", &mut counted);
    let f = req.facts.as_deref().unwrap();
    let ttfvt = f.ttfvt_s.as_ref().unwrap();
    for (v, t) in ttfvt.iter().zip(&req.ttft_s) {
        assert!(v > t, "{v} > {t}");
    }
}
