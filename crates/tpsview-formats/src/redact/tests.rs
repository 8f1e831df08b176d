use super::*;

const KEY: &str = "sk-proj-9fQ2xLmZ7aB3cD4eF5gH6iJ7";

fn masked(s: &str) -> String {
    text(s).unwrap_or_else(|| s.to_owned())
}

#[test]
fn every_place_a_command_line_or_header_carries_a_key_is_masked() {
    let cases = [
        format!("aiperf profile --api-key {KEY} -m llama"),
        format!("aiperf profile --api-key={KEY} -m llama"),
        format!("vllm bench serve --api_key '{KEY}'"),
        format!("-H 'Authorization: Bearer {KEY}'"),
        format!("Authorization: {KEY}"),
        format!("{{\"api_key\": \"{KEY}\", \"model\": \"x\"}}"),
        format!("http://h:8000/v1?api_key={KEY}&stream=1"),
        format!("OPENAI_API_KEY={KEY} python bench.py"),
        format!("the server said 401: Incorrect API key provided: {KEY}."),
        format!("https://user:{KEY}@host.example/v1"),
        "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWx12 run".to_owned(),
        "NGC_API_KEY nvapi-AbCdEfGhIjKlMnOp1234 --x-api-key abcdef123456".to_owned(),
        "bearer eyJhbGciOiJIUzI1NiJ9.e30.abc".to_owned(),
    ];
    for c in &cases {
        let m = masked(c);
        assert!(m.contains(MASK), "nothing masked in {c:?}: {m:?}");
        for secret in [
            KEY,
            "hf_AbCdEfGhIjKlMnOpQrStUvWx12",
            "nvapi-AbCdEfGhIjKlMnOp1234",
            "abcdef123456",
            "eyJhbGciOiJIUzI1NiJ9",
        ] {
            assert!(!m.contains(secret), "{secret:?} left in {m:?}");
        }
    }
}

#[test]
fn what_frames_a_key_is_kept() {
    assert_eq!(
        masked(&format!("--api-key {KEY} -m llama")),
        "--api-key [redacted] -m llama"
    );
    assert_eq!(
        masked(&format!("Authorization: Bearer {KEY}")),
        "Authorization: Bearer [redacted]"
    );
    assert_eq!(
        masked(&format!("http://h/v1?api_key={KEY}&stream=1")),
        "http://h/v1?api_key=[redacted]&stream=1"
    );
    assert_eq!(
        masked(&format!("https://me:{KEY}@host/v1")),
        "https://[redacted]@host/v1"
    );
}

#[test]
fn ordinary_settings_and_placeholders_are_left_alone() {
    for s in [
        "--max-tokens 128 --tokenizer meta-llama/Llama-3-8B --num-prompts 100",
        "max_tokens: 256, total_token_throughput: 1234.5",
        "--api-key EMPTY --model x",
        "api_key=None",
        "token_throughput_secs",
        "author: Jane, sk-learn",
        "http://localhost:8000/v1/completions",
        "--hf-token $HF_TOKEN",
        // Found by the fuzzer in a real AIPerf summary: a metric named for a token.
        "{\"time_to_first_token\": {\"unit\": \"ms\"}, \"eos_token\": \"</s>\", \"max_token\": 9}",
    ] {
        assert_eq!(text(s), None, "{s:?} was changed");
    }
}

#[test]
fn masking_twice_masks_nothing_more() {
    for s in [
        format!("api_key: {KEY}"),
        format!("{{\"token\": \"{KEY}\"}}"),
        format!("--api-key {KEY} x"),
    ] {
        let once = masked(&s);
        assert_eq!(text(&once), None, "{once:?}");
    }
}

#[test]
fn a_label_named_for_a_secret_is_masked_whole_and_non_ascii_text_survives() {
    let mut m = Metadata::default();
    m.labels.insert("api_key".into(), "plain words".into());
    m.labels
        .insert("command".into(), format!("café --token {KEY} ü"));
    meta(&mut m);
    assert_eq!(m.labels["api_key"], MASK);
    assert_eq!(m.labels["command"], "café --token [redacted] ü");
}
