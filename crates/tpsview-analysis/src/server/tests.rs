use super::*;

/// A llama.cpp-like level: 4 slots busy, 2 deferred; 10 polls 0.25 s apart; each decode call
/// makes 4 tokens, 16 calls a second.
fn level() -> ServerSeries {
    let t: Vec<f64> = (0..10).map(|i| f64::from(i) * 0.25).collect();
    let calls: Vec<f64> = t.iter().map(|t| 1000.0 + 16.0 * t).collect();
    let tokens: Vec<f64> = calls.iter().map(|c| 4.0 * (c - 1000.0) + 500.0).collect();
    let mut values = ServerValues::default();
    let some = |v: Vec<f64>| v.into_iter().map(Some).collect::<Vec<_>>();
    values.running = Some(some(vec![4.0; 10]));
    let mut waiting = some(vec![2.0, 2.0, 2.0, 3.0, 2.0, 2.0, 1.0, 2.0, 2.0, 0.0]);
    waiting[9] = None;
    values.waiting = Some(waiting);
    values.decode_calls_total = Some(some(calls));
    values.generation_tokens_total = Some(some(tokens));
    ServerSeries {
        source: "test".into(),
        t_s: t,
        values,
    }
}

#[test]
fn a_levels_figures_are_the_samples_in_its_window() {
    let f = figures(&level(), (0.0, 2.25));
    let running = f.running.expect("running");
    assert_eq!(
        (running.mean, running.p50, running.max, running.samples),
        (4.0, Some(4.0), Some(4.0), Some(10))
    );
    // Waiting: nine numbers (the last poll lacked it): 2×7 + 3 + 1 = 18 → mean 2, max 3.
    let waiting = f.waiting.expect("waiting");
    assert_eq!(
        (waiting.mean, waiting.max, waiting.samples),
        (2.0, Some(3.0), Some(9))
    );
    // 16 calls/s × 4 tokens = 64 tokens/s; 4 tokens a call.
    assert!((f.generation_tps.expect("rate") - 64.0).abs() < 1e-9);
    assert!((f.tokens_per_decode_step.expect("per step") - 4.0).abs() < 1e-12);
    assert_eq!(f.kv_cache_usage, None, "not reported: undefined, not 0");
}

#[test]
fn a_narrower_window_takes_only_its_samples() {
    // 0.5 s to 1.5 s: polls 2..=6; waiting there 2, 3, 2, 2, 1.
    let f = figures(&level(), (0.5, 1.5));
    let waiting = f.waiting.expect("waiting");
    assert_eq!(waiting.samples, Some(5));
    assert!((waiting.mean - 2.0).abs() < 1e-12);
    assert_eq!(waiting.max, Some(3.0));
}

#[test]
fn a_counter_that_goes_down_leaves_the_rate_undefined_with_the_reason() {
    let mut s = level();
    if let Some(v) = s.values.get_mut(ServerMetric::GenerationTokens) {
        v[5] = Some(10.0);
    }
    let f = figures(&s, (0.0, 2.25));
    let e = f.generation_tps.expect_err("undefined");
    assert!(
        e.contains("went down at 1.250 s") && e.contains("reset"),
        "{e}"
    );
    assert!(f.tokens_per_decode_step.is_err());
    // The gauges are still figures.
    assert!(f.running.is_some());
}

#[test]
fn counters_are_read_from_the_poll_before_the_window_to_the_levels_last_poll() {
    // Window 0.6–2.2 s: from the poll at 0.5 s to the last at 2.25 s (28 calls, 112 tokens),
    // over the window's 1.6 s: 70 tokens/s; 4 tokens a call.
    let f = figures(&level(), (0.6, 2.2));
    assert!((f.generation_tps.expect("rate") - 112.0 / 1.6).abs() < 1e-9);
    assert!((f.tokens_per_decode_step.expect("per step") - 4.0).abs() < 1e-12);
    // Gauges: only the polls inside (0.75 … 2.0: six).
    assert_eq!(f.running.expect("running").samples, Some(6));
}

#[test]
fn one_sample_is_no_rate() {
    let mut s = level();
    s.t_s.truncate(1);
    for v in [
        &mut s.values.running,
        &mut s.values.waiting,
        &mut s.values.decode_calls_total,
        &mut s.values.generation_tokens_total,
    ]
    .into_iter()
    .flatten()
    {
        v.truncate(1);
    }
    let f = figures(&s, (0.0, 1.0));
    assert!(f
        .generation_tps
        .expect_err("one sample")
        .contains("1 sample(s)"));
}

#[test]
fn every_documented_name_maps_to_one_metric_and_keys_round_trip() {
    assert_eq!(
        canonical("vllm:num_requests_running"),
        Some(ServerMetric::Running)
    );
    assert_eq!(
        canonical("vllm:gpu_cache_usage_perc"),
        Some(ServerMetric::KvUsage)
    );
    assert_eq!(
        canonical("llamacpp:n_decode_total"),
        Some(ServerMetric::DecodeCalls)
    );
    assert_eq!(canonical("tgi_queue_size"), Some(ServerMetric::Waiting));
    assert_eq!(canonical("vllm:time_to_first_token_seconds"), None);
    let mut names: Vec<&str> = ENGINE_NAMES.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ENGINE_NAMES.len(), "no name listed twice");
    for m in ServerMetric::ALL {
        assert_eq!(ServerMetric::from_key(m.key()), Some(m));
    }
}

#[test]
fn the_servers_rate_is_audited_against_the_clients() {
    // Within 5 %: the difference, no note.
    let (pct, note) = audit(102.4, 100.0).expect("both known");
    assert!((pct - 2.4).abs() < 1e-9);
    assert_eq!(note, None);
    // 12 % more on the server: named, with what it may mean.
    let (pct, note) = audit(112.0, 100.0).expect("both known");
    assert!((pct - 12.0).abs() < 1e-9);
    let note = note.expect("over 5 %");
    assert!(
        note.contains("12.0 % more") && note.contains("other clients"),
        "{note}"
    );
    // 20 % fewer.
    let note = audit(80.0, 100.0).and_then(|a| a.1).expect("over 5 %");
    assert!(
        note.contains("20.0 % fewer") && note.contains("finishes"),
        "{note}"
    );
    // No client rate: no audit (never a 0).
    assert_eq!(audit(80.0, 0.0), None);
    assert_eq!(audit(f64::NAN, 100.0), None);
}

#[test]
fn a_summary_carries_the_audit_over_its_window() {
    // level(): 70 tokens/s over 0.6–2.2 s; a client that received 60 tokens/s there.
    let s = summary(&level(), (0.6, 2.2), Some(60.0));
    let server = s.generation_tps.expect("rate");
    assert!((server - 70.0).abs() < 1e-9);
    assert!((s.difference_pct.expect("pct") - (70.0 - 60.0) / 60.0 * 100.0).abs() < 1e-9);
    assert!(s.audit.expect("16.7 % over").contains("16.7 % more"));
    // Without a client figure: the server's figures alone.
    let s = summary(&level(), (0.6, 2.2), None);
    assert_eq!((s.difference_pct, s.audit), (None, None));
    assert!(s.generation_tps.is_some());
}

#[test]
fn the_batch_ran_is_said_against_the_concurrency_asked() {
    // level(): 4 running throughout, up to 3 waiting (0.5–1.5 s: polls 2..=6).
    let s = summary(&level(), (0.5, 1.5), None);
    let ran = Ran::of(Some(8.0), &s).expect("running reported");
    assert_eq!((ran.running, ran.waited), (4.0, Some(3.0)));
    assert!(ran.short());
    assert_eq!(ran.text(), "asked 8, ran 4: 3 waited");
    // Asked 4, ran 4: not short, however many waited.
    let at4 = Ran::of(Some(4.0), &s).expect("running");
    assert!(!at4.short());
    assert_eq!(at4.text(), "ran 4");
    // A fractional mean keeps its decimal; no queue reported: never "short".
    let r = Ran {
        asked: Some(4.0),
        running: 3.84,
        waited: None,
        tokens_per_step: Some(3.91),
    };
    assert!(!r.short());
    assert_eq!(r.text(), "ran 3.8");
    // Without running requests there is no batch to say.
    let mut none = s.clone();
    none.running = None;
    assert_eq!(Ran::of(Some(8.0), &none), None);
}

/// The prefix cache from the server's counters over the window, by hand: llama.cpp counts cached
/// and computed prompt tokens apart (300 cached, 100 computed between the polls at 0 s and 2 s →
/// 300 ÷ 400 = 0.75); vLLM counts hits and queries (300 of 600 → 0.5), its prompt counter not
/// used then. Against the client's rate: within 2 points nothing said, past it the audit names both.
#[test]
fn the_servers_prefix_cache_hit_rate_is_its_counters_rise_and_is_audited() {
    let some = |v: Vec<f64>| Some(v.into_iter().map(Some).collect::<Vec<_>>());
    let mut s = ServerSeries {
        source: "test".into(),
        t_s: vec![0.0, 1.0, 2.0],
        values: ServerValues::default(),
    };
    s.values.prompt_tokens_cached_total = some(vec![100.0, 100.0, 400.0]);
    s.values.prompt_tokens_total = some(vec![50.0, 50.0, 150.0]);
    let mut out = summary(&s, (0.5, 2.0), None);
    assert_eq!(
        out.prefix_cache_hit_rate, None,
        "not set by the summary itself"
    );
    prefix_cache(&mut out, &s, (0.5, 2.0), Some(0.76));
    assert!((out.prefix_cache_hit_rate.unwrap() - 0.75).abs() < 1e-12);
    assert_eq!(out.client_cache_hit_rate, Some(0.76));
    assert!(out.cache_audit.is_none(), "one point apart: within");
    prefix_cache(&mut out, &s, (0.5, 2.0), Some(0.5));
    let said = out.cache_audit.clone().expect("25 points apart");
    assert!(said.contains("75.0 %") && said.contains("50.0 %"), "{said}");
    // vLLM: hits over queries.
    s.values.prefix_cache_queries_total = some(vec![0.0, 0.0, 600.0]);
    let mut out = summary(&s, (0.5, 2.0), None);
    prefix_cache(&mut out, &s, (0.5, 2.0), Some(0.5));
    assert!((out.prefix_cache_hit_rate.unwrap() - 0.5).abs() < 1e-12);
    assert!(out.cache_audit.is_none());
    // No cached-token counter: nothing.
    let mut bare = s.clone();
    bare.values.prompt_tokens_cached_total = None;
    let mut out = summary(&bare, (0.5, 2.0), None);
    prefix_cache(&mut out, &bare, (0.5, 2.0), Some(0.5));
    assert_eq!(out.prefix_cache_hit_rate, None);
    let json = serde_json::to_value(&out).unwrap();
    assert!(
        json.get("prefix_cache_hit_rate").is_none(),
        "absent, not null or 0"
    );
}
