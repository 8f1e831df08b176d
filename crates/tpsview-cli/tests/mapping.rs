//! `tpsview map FILE` proposes a mapping for a file no reader knows; `--map` reads files through
//! it; a bad mapping is one clear error naming the field, before any file is read.

#![allow(clippy::unwrap_used)]

use std::process::Command;

const ROWS: &str = "{\"t_first_ms\":100,\"e2e_ms\":1090,\"output_tokens\":100}\n{\"t_first_ms\":300,\"e2e_ms\":2280,\"output_tokens\":100}\n";

fn tpsview(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tpsview"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_proposed_mapping_corrected_and_given_back_reads_the_file() {
    let dir = std::env::temp_dir().join(format!("tpsview-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("harness.jsonl");
    std::fs::write(&data, ROWS).unwrap();
    // Unmapped, it is not read.
    assert_eq!(
        tpsview(&["summarize", data.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    let out = tpsview(&["map", data.to_str().unwrap()]);
    assert!(out.status.success());
    let mut m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // `t_first_ms` is not a name the proposal knows: the person maps it.
    assert!(String::from_utf8_lossy(&out.stderr).contains("no field is ttft"));
    m["fields"].as_array_mut().unwrap().push(serde_json::json!(
        {"field": "t_first_ms", "quantity": "ttft", "unit": "ms"}));
    m["concurrency"] = serde_json::json!(1);
    let map = dir.join("mapping.json");
    std::fs::write(&map, m.to_string()).unwrap();
    let out = tpsview(&[
        "summarize",
        "--json",
        "--map",
        map.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &s["runs"][0]["points"][0];
    // (1090 − 100) / 99 = 10 ms, (2280 − 300) / 99 = 20 ms.
    assert_eq!(p["requests_ok"], serde_json::json!(2));
    assert!((p["tpot_ms"]["mean"].as_f64().unwrap() - 15.0).abs() < 1e-9);
    // A bad mapping: exit 1, the mapping's file and field named.
    m["fields"][0]["unit"] = serde_json::json!("count");
    std::fs::write(&map, m.to_string()).unwrap();
    let out = tpsview(&[
        "summarize",
        "--map",
        map.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("mapping.json") && err.contains("fields[0]"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
