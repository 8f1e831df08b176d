use super::*;

fn nums(kv: &[(&str, f64)]) -> BTreeMap<String, f64> {
    kv.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

#[test]
fn the_setting_is_the_directory_name_less_the_level() {
    // The directory vllm bench sweep serve names: "-".join(["SERVE-", serve, "BENCH-", bench]).
    let file = "exp/SERVE--max_num_seqs=32-max_num_batched_tokens=1024-BENCH--max_concurrency=16/run=2.json";
    let n = nums(&[
        ("run_number", 2.0),
        ("max_num_seqs", 32.0),
        ("max_num_batched_tokens", 1024.0),
        ("max_concurrency", 16.0),
        ("output_throughput", 812.5),
    ]);
    let s = sweep_of(file, &n, &BTreeMap::new()).unwrap();
    assert_eq!(s.setting, "max_num_seqs=32, max_num_batched_tokens=1024");
    assert_eq!(s.run, 2);
    let mut o = s.overrides.clone();
    o.sort();
    assert_eq!(
        o,
        ["max_concurrency", "max_num_batched_tokens", "max_num_seqs"]
    );
    assert_eq!(
        s.name("m").to_string(),
        "m · max_num_seqs=32, max_num_batched_tokens=1024 · run=2"
    );
}

#[test]
fn bench_settings_other_than_the_level_stay_in_the_setting() {
    let file = r"C:\res\exp\SERVE--enable_prefix_caching=True-BENCH--random_input_len=1024-max_concurrency=8\run=0.json";
    let n = nums(&[
        ("run_number", 0.0),
        ("random_input_len", 1024.0),
        ("max_concurrency", 8.0),
    ]);
    let s = sweep_of(file, &n, &BTreeMap::new()).unwrap();
    // A boolean the object does not keep still names the setting through the directory.
    assert_eq!(
        s.setting,
        "enable_prefix_caching=True, random_input_len=1024"
    );
}

#[test]
fn a_value_that_only_starts_like_the_objects_is_not_taken() {
    // max_concurrency=1 must not match the directory's max_concurrency=16.
    let file = "SERVE--a=1-BENCH--max_concurrency=16/run=0.json";
    let n = nums(&[("run_number", 0.0), ("max_concurrency", 1.0)]);
    let s = sweep_of(file, &n, &BTreeMap::new()).unwrap();
    assert_eq!(s.setting, "a=1, max_concurrency=16");
    assert!(s.overrides.is_empty());
}

#[test]
fn without_its_directory_only_a_parameter_name_names_the_setting() {
    let n = nums(&[("run_number", 1.0)]);
    let named: BTreeMap<String, String> =
        [("_benchmark_name".to_owned(), "long-prompts".to_owned())].into();
    let s = sweep_of("summary.json", &n, &named).unwrap();
    assert_eq!((s.setting.as_str(), s.run), ("long-prompts", 1));
    assert_eq!(
        sweep_of("x.json", &nums(&[("x", 1.0)]), &BTreeMap::new()),
        None
    );
    let warm = sweep_of(
        "warmup.json",
        &nums(&[("run_number", -1.0)]),
        &BTreeMap::new(),
    )
    .unwrap();
    assert_eq!(warm.name("m").to_string(), "m · warm-up");
    assert_eq!(warm.name("m").repeat, None);
}

#[test]
fn a_folder_reads_each_run_once() {
    let paths = [
        "exp/summary.csv",
        "exp/SERVE--a=1-BENCH--max_concurrency=4/run=0.json",
        "exp/SERVE--a=1-BENCH--max_concurrency=4/run=1.json",
        "exp/SERVE--a=1-BENCH--max_concurrency=4/summary.json",
        "exp/SERVE--a=1-BENCH--max_concurrency=4/warmup.json",
        "exp/SERVE--a=1-BENCH--max_concurrency=4/run=1.failure.json",
        "other/summary.json",
    ];
    let mut skipped: Vec<&str> = select(&paths)
        .skipped
        .iter()
        .map(|(i, _)| paths[*i])
        .collect();
    skipped.sort_unstable();
    assert_eq!(
        skipped,
        [
            "exp/SERVE--a=1-BENCH--max_concurrency=4/summary.json",
            "exp/SERVE--a=1-BENCH--max_concurrency=4/warmup.json",
            "exp/summary.csv",
        ]
    );
    // A sibling directory that merely starts with the same name is not "under" it.
    let paths = ["exp/summary.csv", "exp2/SERVE--a=1/run=0.json"];
    assert!(select(&paths).skipped.is_empty());
}

#[test]
fn a_failed_run_is_a_warning_naming_the_file_and_the_error() {
    let file = "exp/SERVE--a=1-BENCH--max_concurrency=4/run=1.failure.json";
    let bytes = br#"{"run_number": 1, "error_type": "TimeoutError", "error": "server <b>did not</b> answer", "serve_overrides": {"a": 1}, "bench_overrides": {}}"#;
    let d = failure(file, bytes).unwrap();
    assert_eq!(d.file, file);
    assert!(
        d.message.starts_with(
            "run 1 of this setting failed (TimeoutError: server <b>did not</b> answer)"
        ),
        "{}",
        d.message
    );
    assert_eq!(failure("run=1.json", bytes), None);
    assert_eq!(failure("run=1.failure.json", b"{not json"), None);
}

#[test]
fn paths_sort_by_the_numbers_in_them() {
    let mut v = vec![
        "s=16/run=10.json",
        "s=8/run=1.json",
        "s=16/run=2.json",
        "s=08/run=1.json",
        "a.json",
    ];
    v.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(
        v,
        [
            "a.json",
            "s=8/run=1.json",
            "s=08/run=1.json",
            "s=16/run=2.json",
            "s=16/run=10.json"
        ]
    );
}

#[test]
fn a_selection_reads_benchmark_files_in_natural_order_once() {
    let paths = [
        "exp/SERVE--s=16-BENCH--max_concurrency=1/run=0.json",
        "exp/notes.txt",
        "exp/SERVE--s=8-BENCH--max_concurrency=1/summary.json",
        "exp/SERVE--s=8-BENCH--max_concurrency=1/run=0.json",
        "exp/plot.PNG",
        "exp/summary.csv",
    ];
    let s = select(&paths);
    assert_eq!(s.read, [3, 0]);
    let skipped: Vec<usize> = s.skipped.iter().map(|(i, _)| *i).collect();
    assert_eq!(skipped, [2, 5]);
}
