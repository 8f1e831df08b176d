//! `tpsview bench --sessions N --turns K --shared-prefix-tokens P`: multi-turn conversations. At
//! each level, `level` sessions are in flight at once (closed loop); each session sends its `K`
//! turns one after another, each turn the conversation so far — a system prefix of `P` words that
//! every session shares, the earlier turns' user messages and the answers the server streamed —
//! plus a new user message of `--prompt-tokens` words, its own to the session and turn. So the
//! server's prefix cache can serve the shared prefix to every session and each session's history
//! to its next turn; each request records its session, its turn and the cached prompt tokens the
//! server says (`usage.prompt_tokens_details.cached_tokens`, else llama.cpp's `timings.cache_n`).

/// The sessions of a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Sessions per level.
    pub count: usize,
    /// Turns per session.
    pub turns: u32,
    /// Words of the system prefix every session shares.
    pub shared_prefix_tokens: u32,
}

/// `n` short words, cycled from `words`.
fn words(words: &[&str], n: u32) -> String {
    words
        .iter()
        .copied()
        .cycle()
        .take(n as usize)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The system prefix every session shares.
pub fn prefix(p: u32) -> String {
    words(
        &[
            "you", "answer", "in", "short", "plain", "words", "about", "serving",
        ],
        p,
    )
}

/// Session `s`'s user message of turn `t`, of `n` words: its first words name the session and the
/// turn, so that no two sessions share more than the system prefix.
pub fn user_message(s: usize, t: u32, n: u32) -> String {
    let head = format!("session {s} turn {t}");
    let rest = words(
        &["what", "is", "the", "rate", "of", "one", "user", "now"],
        n.saturating_sub(4),
    );
    if rest.is_empty() {
        head
    } else {
        format!("{head} {rest}")
    }
}

/// The request body of a turn: the shared prefix, `history` (each earlier turn's user message and
/// the answer streamed), then `message` — as chat messages, or as one prompt for completions.
pub fn body(
    cfg: &super::Config,
    plan: &Plan,
    history: &[(String, String)],
    message: &str,
) -> String {
    let mut v = cfg.request_json();
    // llama.cpp: reuse the slot's cached prefix (its default; said for servers that ask).
    v["cache_prompt"] = serde_json::Value::Bool(true);
    let system = prefix(plan.shared_prefix_tokens);
    match cfg.endpoint {
        super::Endpoint::Chat => {
            let mut messages = Vec::new();
            if !system.is_empty() {
                messages.push(serde_json::json!({ "role": "system", "content": system }));
            }
            for (user, answer) in history {
                messages.push(serde_json::json!({ "role": "user", "content": user }));
                messages.push(serde_json::json!({ "role": "assistant", "content": answer }));
            }
            messages.push(serde_json::json!({ "role": "user", "content": message }));
            v["messages"] = serde_json::Value::Array(messages);
        }
        super::Endpoint::Completions => {
            let mut prompt = system;
            for (user, answer) in history {
                prompt.push_str(&format!("\nUser: {user}\nAssistant: {answer}"));
            }
            prompt.push_str(&format!("\nUser: {message}\nAssistant:"));
            v["prompt"] = prompt.into();
        }
    }
    v.to_string()
}

/// Runs one session's turns in order; a failed turn ends the session (its later turns would
/// send a conversation the server never answered).
pub async fn run_session(
    client: &reqwest::Client,
    cfg: &super::Config,
    plan: &Plan,
    s: usize,
    run_start: std::time::Instant,
    mut record: impl FnMut(super::Record),
) {
    let url = cfg.endpoint_url();
    let mut history: Vec<(String, String)> = Vec::new();
    for t in 0..plan.turns {
        let message = user_message(s, t, cfg.prompt_tokens);
        let body = body(cfg, plan, &history, &message);
        let mut r = super::one_request(client, &url, &body, cfg.timeout, run_start).await;
        r.session = Some((s, t));
        let failed = r.error.is_some();
        history.push((message, r.text.clone()));
        record(r);
        if failed {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
