use super::*;

/// The flat names of docs/metrics.md and the `--json` contract, in contract order, written out
/// by hand: the types must produce exactly these.
const CONTRACT: [&str; 24] = [
    "duration_s",
    "system_tps",
    "per_stream_tps",
    "requests_ok",
    "requests_failed",
    "output_tokens",
    "request_throughput",
    "concurrency_achieved",
    "tpot_mean_ms",
    "tpot_p50_ms",
    "tpot_p90_ms",
    "tpot_p99_ms",
    "ttft_mean_ms",
    "ttft_p50_ms",
    "ttft_p90_ms",
    "ttft_p99_ms",
    "itl_mean_ms",
    "itl_p50_ms",
    "itl_p90_ms",
    "itl_p99_ms",
    "e2e_mean_ms",
    "e2e_p50_ms",
    "e2e_p90_ms",
    "e2e_p99_ms",
];

#[test]
fn every_metric_has_its_contract_name_and_reads_back() {
    let keys: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
    assert_eq!(keys, CONTRACT);
    for m in Metric::ALL {
        assert_eq!(Metric::parse(m.key()), Some(m));
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            format!("\"{}\"", m.key())
        );
        assert_eq!(m.to_string(), m.key());
    }
    for bad in [
        "",
        "tpot",
        "tpot_p95_ms",
        "TPOT_mean_ms",
        "system_tps ",
        "e2el_mean_ms",
    ] {
        assert_eq!(Metric::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn labels_units_and_directions_follow_the_definitions() {
    let tpot99 = Metric::Latency(Latency::Tpot, Stat::P99);
    assert_eq!(tpot99.label(), "TPOT p99");
    assert_eq!(tpot99.unit(), "ms");
    assert_eq!(tpot99.term(), "tpot");
    assert_eq!(tpot99.better(), Better::Lower);
    assert_eq!(Metric::SystemTps.unit(), "T/s");
    assert_eq!(Metric::SystemTps.better(), Better::Higher);
    assert_eq!(Metric::PerStreamTps.scope(), Scope::PerStream);
    assert_eq!(Metric::RequestsOk.better(), Better::Neither);
    // Only figures that count the whole server's output are divided per GPU.
    let per_gpu: Vec<&str> = Metric::ALL
        .iter()
        .filter(|m| m.is_system_wide())
        .map(|m| m.key())
        .collect();
    assert_eq!(per_gpu, ["system_tps", "request_throughput"]);
    for m in Metric::ALL {
        assert!(!m.definition().is_empty() && !m.label().is_empty(), "{m}");
    }
}

#[test]
fn stats_name_and_parse() {
    for k in Stat::ALL {
        assert_eq!(Stat::parse(k.name()), Some(k));
    }
    assert_eq!(Stat::parse("p95"), None);
}

#[test]
fn gap_causes_keep_their_contract_names() {
    let keys: Vec<&str> = GapCause::ALL.iter().map(|c| c.key()).collect();
    assert_eq!(
        keys,
        [
            "concurrency_shortfall",
            "decode_share",
            "first_token_and_rate_mix"
        ]
    );
    for c in GapCause::ALL {
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            format!("\"{}\"", c.key())
        );
        assert_eq!(c.short(), c.key().replace('_', " "));
        assert!(!c.words().is_empty());
    }
}

#[test]
fn chart_kinds_have_distinct_ids() {
    let ids: std::collections::BTreeSet<&str> = ChartKind::ALL.iter().map(|c| c.id()).collect();
    assert_eq!(ids.len(), ChartKind::ALL.len());
    assert_eq!(ChartKind::Interactivity.to_string(), "interactivity");
}

#[test]
fn run_ids_are_labels_when_unique_and_grow_only_as_far_as_needed() {
    let ids = RunId::assign([
        ("A", Some("vllm"), Some("llama")),
        ("A", Some("vllm"), Some("qwen")),
        ("B", Some("vllm"), Some("llama")),
        ("C", Some("vllm"), Some("m")),
        ("C", Some("sglang"), Some("m")),
        ("D", None, None),
        ("D", None, None),
        ("D", None, None),
    ]);
    let got: Vec<&str> = ids.iter().map(RunId::as_str).collect();
    assert_eq!(
        got,
        [
            "A · llama",
            "A · qwen",
            "B",
            "C · m · vllm",
            "C · m · sglang",
            "D",
            "D #2",
            "D #3"
        ]
    );
    // An ordinal never collides with a label that already looks like one.
    let ids = RunId::assign([("x #2", None, None), ("x", None, None), ("x", None, None)]);
    let got: std::collections::BTreeSet<&str> = ids.iter().map(RunId::as_str).collect();
    assert_eq!(got.len(), 3, "{ids:?}");
    assert_eq!(
        serde_json::to_string(&RunId::new("a\"b")).unwrap(),
        "\"a\\\"b\""
    );
}
