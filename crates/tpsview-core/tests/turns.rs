//! The numbers of 2026 (docs/metrics.md, "Reasoning, tokens/s per user, prefix caches and
//! sessions") on the two-sessions fixture, as tpsview/1 and as AIPerf records
//! (`tests/fixtures/sessions/`), against the values its README works out by hand and its
//! `expected.py` recounts — never against tpsview's own output.

#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tpsview_core::metrics::MetricOptions;

fn fixture(name: &str) -> (String, Vec<u8>) {
    let path = format!(
        "{}/../../tests/fixtures/sessions/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    (name.to_owned(), std::fs::read(path).unwrap())
}

/// The one point of a file, summarised, as `--json` writes it.
fn point_json(name: &str) -> Value {
    let (file, bytes) = fixture(name);
    let parsed = tpsview_core::parse_any(&file, &bytes).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    serde_json::to_value(&s.runs[0].points[0]).unwrap()
}

/// Every number of `want` is in `got` at the same path, within 1e-12 of itself.
fn assert_close(got: &Value, want: &Value, path: &str) {
    assert_within(got, want, path, 1e-12);
}

/// Every number of `want` is in `got` at the same path, within `tol` of itself (relative).
fn assert_within(got: &Value, want: &Value, path: &str, tol: f64) {
    match (got, want) {
        (_, Value::Object(w)) => {
            for (k, v) in w {
                let g = got
                    .get(k)
                    .unwrap_or_else(|| panic!("{path}.{k} missing in {got}"));
                assert_within(g, v, &format!("{path}.{k}"), tol);
            }
        }
        (Value::Number(g), Value::Number(w)) => {
            let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
            assert!(
                (g - w).abs() <= tol * w.abs().max(1.0),
                "{path}: {g} against {w}"
            );
        }
        _ => assert_eq!(got, want, "{path}"),
    }
}

/// The fixture's figures, worked out by hand in its README (and by its expected.py).
fn by_hand() -> Value {
    json!({
        "duration_s": 10.3,
        "output_tokens": 206,
        "ttfvt_ms": {"mean": 950.0, "p50": 750.0, "p90": 1900.0, "p99": 2260.0},
        "reasoning_tokens": 75,
        "visible_system_tps": 131.0 / 10.3,
        "interactivity": {
            "e2e_normalized": {
                // 1 / pN of E2E ÷ OSL (s per token): the slow tail.
                "p50": 11.892265193370164,
                "p90": 8.979591836734695,
                "p99": 8.817635270541082
            },
            "aggregate": 206.0 / 14.05
        },
        "sessions": {
            "count": 2,
            "turns_mean": 3.0,
            "per_s": 2.0 / 10.3,
            "duration_s": {"mean": 8.15, "p50": 8.15, "p90": 9.87},
            "ttft_first_turn_ms": {"mean": 550.0, "p50": 550.0, "p90": 590.0},
            "ttft_later_turns_ms": {"mean": 237.5, "p50": 225.0, "p90": 285.0}
        }
    })
}

#[test]
fn a_tpsview_report_with_sessions_gives_every_figure_worked_out_by_hand() {
    let got = point_json("two-sessions.tpsview.json");
    assert_close(&got, &by_hand(), "point");
    // The prefix cache: 750 of 1,200 prompt tokens, token-weighted; per session 400/600, 350/600.
    assert_close(
        &got,
        &json!({
            "input_tokens": 1200,
            "cached_prompt_tokens": 750,
            "cache_hit_rate": 0.625,
            "input_tps": {"computed": 450.0 / 10.3, "cached": 750.0 / 10.3},
            "sessions": {"cache_hit_rate": {"mean": 0.625, "p50": 0.625, "p90": 0.6583333333333333}}
        }),
        "point",
    );
    // The slow tail is not the fast one: user_rate's p90 is the rate only 10 % beat.
    let fast = got["user_rate"]["p90"].as_f64().unwrap();
    let slow = got["interactivity"]["e2e_normalized"]["p90"]
        .as_f64()
        .unwrap();
    assert!(fast > 14.0 && slow < 9.0, "fast {fast}, slow {slow}");
    // One stream's decode rate beside them, the seed's per-stream T/s.
    assert_eq!(
        got["interactivity"]["per_stream_tps"],
        got["per_stream_tps"]
    );
}

#[test]
fn aiperf_records_of_the_same_sessions_give_the_same_figures() {
    // The records share one template `conversation_id`: their sessions are their
    // `x_correlation_id`s. AIPerf's records carry no cached counts: no prefix-cache figures.
    let got = point_json("profile_export.jsonl");
    assert_close(&got, &by_hand(), "point");
    for key in [
        "input_tokens",
        "cached_prompt_tokens",
        "cache_hit_rate",
        "input_tps",
    ] {
        assert!(got.get(key).is_none(), "{key}: {got}");
    }
    assert!(got["sessions"]["cache_hit_rate"]["mean"].is_null(), "{got}");
}

#[test]
fn guidellm_requests_of_the_same_sessions_give_the_same_figures_and_its_visible_token_is_audited() {
    // GuideLLM's layout after v0.7.3 (`make_guidellm.py` names the source lines): sessions from
    // `info.conversation_id` and `turn_index`, the first visible token from
    // `first_output_token_iteration`, cached tokens from `cached_tokens`. Its times are epoch
    // seconds (a double resolves ~2.4e-7 s there): within 1e-6.
    let mut want = by_hand();
    let w = want.as_object_mut().unwrap();
    // No reasoning token count in its records: nothing that needs one.
    for key in ["reasoning_tokens", "visible_system_tps"] {
        w.remove(key);
    }
    let got = point_json("guidellm-benchmarks.json");
    assert_within(&got, &want, "point", 1e-6);
    for key in ["reasoning_tokens", "visible_system_tps"] {
        assert!(got[key].is_null(), "{key}: {}", got[key]);
    }
    assert_within(
        &got,
        &json!({
            "input_tokens": 1200,
            "cached_prompt_tokens": 750,
            "cache_hit_rate": 0.625,
            "sessions": {"cache_hit_rate": {"mean": 0.625}}
        }),
        "point",
        1e-6,
    );
    // Its own mean first visible token (950 ms, as the table gives) is checked against the
    // requests', and agrees.
    let audited: Vec<&str> = got["audited"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        audited.contains(&"time_to_first_output_token_ms.mean"),
        "{audited:?}"
    );
    assert_eq!(got["discrepancies"], json!([]));
}

#[test]
fn a_guidellm_first_visible_token_that_disagrees_is_named_with_its_cause() {
    let (file, bytes) = fixture("guidellm-benchmarks.json");
    let text = String::from_utf8(bytes).unwrap();
    // The tool's mean moved by +20 % (1140 ms against the requests' 950).
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["benchmarks"][0]["metrics"]["time_to_first_output_token_ms"]["successful"]["mean"] =
        json!(1140.0);
    let parsed = tpsview_core::parse_any(&file, v.to_string().as_bytes()).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    let point = serde_json::to_value(&s.runs[0].points[0]).unwrap();
    let d = point["discrepancies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["tool_metric"] == "time_to_first_output_token_ms.mean")
        .unwrap_or_else(|| panic!("{}", point["discrepancies"]));
    assert!(
        (d["recomputed"].as_f64().unwrap() - 950.0).abs() < 1e-3,
        "{d}"
    );
    assert!(
        d["likely_cause"].as_str().unwrap().contains("reasoning"),
        "{d}"
    );
}

#[test]
fn a_level_without_the_facts_has_none_of_their_figures_and_still_its_interactivity() {
    let got = point_json("../vllm/detailed-small.json");
    for key in [
        "ttfvt_ms",
        "reasoning_tokens",
        "visible_system_tps",
        "input_tokens",
        "cache_hit_rate",
        "sessions",
    ] {
        assert!(got.get(key).is_none(), "{key} without the data it needs");
    }
    assert!(got["interactivity"]["aggregate"].as_f64().unwrap() > 0.0);
}

#[test]
fn the_reasoning_share_is_said() {
    let (file, bytes) = fixture("two-sessions.tpsview.json");
    let parsed = tpsview_core::parse_any(&file, &bytes).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    let note = s
        .diagnostics
        .iter()
        .find(|d| d.field == "reasoning_tokens")
        .expect("a note on reasoning");
    // 75 of 206 output tokens.
    assert!(
        note.message.starts_with("75 of 206 output tokens (36 %)"),
        "{}",
        note.message
    );
}

#[test]
fn bad_facts_are_left_out_each_named_and_the_request_kept() {
    let text = r#"{"format":"tpsview/1","runs":[{"label":"r","points":[{"concurrency":1,
      "requests":{"start_s":[0,1],"ttft_s":[0.5,0.5],"e2e_s":[1,1],"input_tokens":[10,10],
      "output_tokens":[5,5],"turn":[-1,1],"reasoning_tokens":[9,2],"ttfvt_s":[2.0,0.7],
      "cached_prompt_tokens":[11,3],"session":["<b>x</b>",null]}}]}]}"#;
    let parsed = tpsview_core::parse_any("bad.json", text.as_bytes()).unwrap();
    let fields: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.field.as_str())
        .collect();
    for f in [
        "turn",
        "reasoning_tokens",
        "ttfvt_s",
        "cached_prompt_tokens",
    ] {
        assert!(
            fields.contains(&format!("runs[0].points[0].requests.{f}").as_str()),
            "{f}: {fields:?}"
        );
    }
    let req = parsed.report.runs[0].points[0].requests.as_ref().unwrap();
    assert!(req.is_ok(0) && req.is_ok(1), "the requests stay");
    let f = req.facts.as_deref().unwrap();
    use tpsview_core::model::facts::entry;
    let both = |c: &Option<Vec<f64>>| [entry(c, 0), entry(c, 1)];
    assert_eq!(both(&f.turn), [None, Some(1.0)]);
    assert_eq!(both(&f.reasoning_tokens), [None, Some(2.0)]);
    assert_eq!(both(&f.ttfvt_s), [None, Some(0.7)]);
    assert_eq!(both(&f.cached_prompt_tokens), [None, Some(3.0)]);
    // Kept as text: never markup.
    assert_eq!(f.session.as_ref().unwrap()[0].as_deref(), Some("<b>x</b>"));
}

/// The sessions view: a lane per session in order of its first send, each turn on its lane with
/// the README's send, TTFT and E2E; the hover names session and turn; pages of fifty.
#[test]
fn the_sessions_timeline_puts_each_turn_on_its_sessions_lane() {
    use tpsview_core::chart_spec::{sessions_timeline, SESSIONS_PER_PAGE};
    let (file, bytes) = fixture("two-sessions.tpsview.json");
    let parsed = tpsview_core::parse_any(&file, &bytes).unwrap();
    let point = &parsed.report.runs[0].points[0];
    let page = sessions_timeline(point, 0).unwrap();
    assert_eq!((page.total, page.first, page.shown), (2, 0, 2));
    // (lane, turn, send, TTFT, E2E) from the README's table: a first sent (0.0), then b (0.2).
    let mut want = vec![
        (0, 0, 0.0, 0.5, 2.5),
        (1, 0, 0.2, 0.6, 2.6),
        (0, 1, 3.0, 0.2, 2.2),
        (1, 1, 3.1, 0.25, 1.25),
        (1, 2, 5.0, 0.2, 1.2),
        (0, 2, 6.0, 0.3, 4.3),
    ];
    let mut got: Vec<_> = page
        .spec
        .bars
        .iter()
        .map(|b| {
            (
                b.row,
                b.turn.unwrap(),
                b.start,
                b.first_token - b.start,
                b.end - b.start,
            )
        })
        .collect();
    let key = |v: &(usize, u32, f64, f64, f64)| (v.0, v.1);
    want.sort_by_key(key);
    got.sort_by_key(key);
    assert_eq!(got.len(), 6);
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.0, g.1), (w.0, w.1));
        for (a, b) in [(g.2, w.2), (g.3, w.3), (g.4, w.4)] {
            assert!((a - b).abs() < 1e-9, "{g:?} against {w:?}");
        }
    }
    // Hovering lane b at 5.5 s finds its third turn, not its first.
    let hover = page.spec.hover(5.5, Some(1.5), 0).unwrap();
    assert!(
        hover.title.starts_with("session 2, turn 2"),
        "{}",
        hover.title
    );
    // 120 sessions of two turns: pages of fifty, the last of twenty; past it, the last; each
    // page's lanes are its own sessions, on the whole level's clock.
    let n = 240;
    let doc = json!({"format": "tpsview/1", "runs": [{"label": "many", "points": [{"concurrency": 8, "requests": {
        "start_s": (0..n).map(|i| i as f64).collect::<Vec<_>>(),
        "ttft_s": vec![0.1; n], "e2e_s": vec![1.0; n], "output_tokens": vec![10; n],
        "session": (0..n).map(|i| format!("s{:03}", i % 120)).collect::<Vec<_>>(),
        "turn": (0..n).map(|i| i / 120).collect::<Vec<_>>(),
    }}]}]});
    let parsed = tpsview_core::parse_any("many.tpsview.json", doc.to_string().as_bytes()).unwrap();
    let point = &parsed.report.runs[0].points[0];
    let shown: Vec<_> = [0, 1, 2, 9]
        .iter()
        .map(|&p| {
            let page = sessions_timeline(point, p).unwrap();
            (page.total, page.first, page.shown, page.spec.bars.len())
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            (120, 0, 50, 100),
            (120, 50, 50, 100),
            (120, 100, 20, 40),
            (120, 100, 20, 40)
        ]
    );
    assert_eq!(SESSIONS_PER_PAGE, 50);
    let last = sessions_timeline(point, 2).unwrap();
    // Session s100 (lane 100) was sent at 100 s and again at 220 s; the axis spans all 240 s.
    let lane: Vec<f64> = last
        .spec
        .bars
        .iter()
        .filter(|b| b.row == 100)
        .map(|b| b.start)
        .collect();
    assert_eq!(lane, vec![100.0, 220.0]);
    assert!(last.spec.x.range.1 >= 240.0);
    // Without sessions, no sessions view.
    let (file, bytes) = ("plain.tpsview.json", br#"{"format":"tpsview/1","runs":[{"label":"x","points":[{"concurrency":1,"requests":{"start_s":[0],"ttft_s":[0.1],"e2e_s":[1],"output_tokens":[5]}}]}]}"#);
    let parsed = tpsview_core::parse_any(file, bytes).unwrap();
    assert!(sessions_timeline(&parsed.report.runs[0].points[0], 0).is_none());
}

/// The interactivity chart on the agentic axis: x is the level's tokens/s per user at p90 on the
/// slow tail (the README: 1 / 0.1113636… = 8.98), y its system T/s (206 tokens ÷ 10.3 s); the
/// per-stream axis is unchanged (1 / mean TPOT).
#[test]
fn the_interactivity_chart_reads_tokens_per_user_at_p90_when_asked() {
    use tpsview_core::chart_spec::{interactivity, ChartOptions};
    let (file, bytes) = fixture("two-sessions.tpsview.json");
    let parsed = tpsview_core::parse_any(&file, &bytes).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    let per_user = interactivity(
        &s,
        &ChartOptions {
            per_user_x: true,
            ..ChartOptions::default()
        },
    );
    let (x, y) = per_user.panels[0].series[0].points[0];
    assert!((x - 1.0 / 0.111_363_636_363_636_36).abs() < 1e-9, "{x}");
    assert!((y - 206.0 / 10.3).abs() < 1e-9, "{y}");
    assert!(per_user.x.label.starts_with("tokens/s per user, p90"));
    // Per-stream: TPOT of each request (E2E − TTFT) ÷ (OSL − 1), mean, inverted.
    let tpot = [
        (2.5 - 0.5) / 40.0,
        (2.6 - 0.6) / 40.0,
        (2.2 - 0.2) / 20.0,
        (1.25 - 0.25) / 10.0,
        (1.2 - 0.2) / 10.0,
        (4.3 - 0.3) / 80.0,
    ];
    let want = 6.0 / tpot.iter().sum::<f64>();
    let (x, _) = interactivity(&s, &ChartOptions::default()).panels[0].series[0].points[0];
    assert!((x - want).abs() < 1e-9, "{x} against {want}");
}

/// AIPerf's tokens/s per user (PR #1270's `e2e_normalized_interactivity_p90`/`_p75` scalars and
/// `e2e_output_token_throughput`'s statistics) audited on the fixture's records. No public summary
/// carries the keys yet: this one is written as AIPerf's `MetricResult` JSON writes a metric
/// (`{unit, avg, p50, …}`), its values worked by hand from the README's table:
/// E2E ÷ OSL sorted 0.053086, 0.060976, 0.063415, 0.104762, 0.109091, 0.113636 →
/// p90 = 0.109091 + 0.5 × 0.004545 = 0.111364 → 8.9796; p75 = 0.104762 + 0.75 × 0.004329 =
/// 0.108009 → 9.2585. OSL ÷ E2E sorted 8.8, 9.1667, 9.5455, 15.769, 16.4, 18.837 → mean 13.086,
/// p50 12.657, p90 = 16.4 + 0.5 × 2.437 = 17.619 (the fast tail).
#[test]
fn aiperf_tokens_per_user_are_audited_and_a_fast_tail_p90_is_named() {
    let ratios = [
        2.5 / 41.0,
        2.6 / 41.0,
        2.2 / 21.0,
        1.25 / 11.0,
        1.2 / 11.0,
        4.3 / 81.0,
    ];
    let mut sorted = ratios;
    sorted.sort_by(f64::total_cmp);
    let p90 = 1.0 / (sorted[4] + 0.5 * (sorted[5] - sorted[4]));
    let p75 = 1.0 / (sorted[3] + 0.75 * (sorted[4] - sorted[3]));
    assert!((p90 - 8.9796).abs() < 1e-3 && (p75 - 9.2585).abs() < 1e-3);
    let mut rates: Vec<f64> = ratios.iter().map(|r| 1.0 / r).collect();
    rates.sort_by(f64::total_cmp);
    let mean = rates.iter().sum::<f64>() / 6.0;
    let p50 = (rates[2] + rates[3]) / 2.0;
    let fast90 = rates[4] + 0.5 * (rates[5] - rates[4]);
    assert!((fast90 - 17.619).abs() < 1e-3);
    let summary = |p90_written: f64| {
        json!({
            "e2e_normalized_interactivity_p90": {"unit": "tokens/sec/user", "avg": p90_written},
            "e2e_normalized_interactivity_p75": {"unit": "tokens/sec/user", "avg": p75},
            "e2e_output_token_throughput": {"unit": "tokens/sec/user", "avg": mean, "p50": p50, "p90": fast90},
            // What every AIPerf summary has (and its detection looks for), from the same table:
            // TTFT mean (500 + 600 + 200 + 250 + 200 + 300) / 6 ms.
            "time_to_first_token": {"unit": "ms", "avg": 2050.0 / 6.0},
            "aiperf_version": "0.7.0",
            "input_config": {"loadgen": {"concurrency": 2}},
        })
        .to_string()
    };
    let run = |p90_written: f64| {
        let (file, records) = fixture("profile_export.jsonl");
        let r = tpsview_core::parse_any(&file, &records).unwrap();
        let s = tpsview_core::parse_any(
            "profile_export_aiperf.json",
            summary(p90_written).as_bytes(),
        )
        .unwrap();
        let out = tpsview_core::summarize(vec![r, s], &MetricOptions::default());
        serde_json::to_value(&out.runs[0].points[0]).unwrap()
    };
    // Written right: each figure checked, none differs.
    let ok = run(p90);
    let checked: Vec<&str> = ok["audited"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for key in [
        "e2e_normalized_interactivity_p90.avg",
        "e2e_normalized_interactivity_p75.avg",
        "e2e_output_token_throughput.avg",
        "e2e_output_token_throughput.p50",
        "e2e_output_token_throughput.p90",
    ] {
        assert!(
            checked.contains(&key),
            "{key} checked: {checked:?} in {}",
            ok["audited"]
        );
    }
    assert_eq!(
        ok["discrepancies"].as_array().map_or(0, Vec::len),
        0,
        "{}",
        ok["discrepancies"]
    );
    // A script that took p90 of OSL ÷ E2E and called it tokens/s per user at p90: flagged.
    let fast = run(fast90);
    let d = fast["discrepancies"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["tool_metric"], "e2e_normalized_interactivity_p90.avg");
}
