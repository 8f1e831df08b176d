//! The server's own metrics (issue 31, work in progress): one scrape of its Prometheus `/metrics`
//! text, read with `openmetrics-parser`, as one value per [`ServerMetric`] it reports.

use std::collections::BTreeMap;

use tpsview_core::server::{canonical, combine, ServerMetric};

/// The value of every metric the text reports under a documented engine name. A metric exposed
/// as several series (one per model or engine label) is summed where it counts requests, tokens
/// or calls, and averaged where it is a fraction (KV-cache usage); samples that are not numbers
/// are left out. An error when the text is not Prometheus's.
pub fn read(text: &str) -> Result<BTreeMap<ServerMetric, f64>, String> {
    let known = known_lines(text);
    if known.is_empty() && !text.trim().is_empty() {
        // Nothing under a known name: say whether it is Prometheus text at all.
        openmetrics_parser::prometheus::parse_prometheus(text)
            .map_err(|e| format!("not Prometheus text: {e:?}"))?;
        return Ok(BTreeMap::new());
    }
    let exposition = openmetrics_parser::prometheus::parse_prometheus(&known)
        .map_err(|e| format!("not Prometheus text: {e:?}"))?;
    let mut samples = Vec::new();
    for (name, family) in &exposition.families {
        let Some(m) = canonical(name) else {
            continue;
        };
        for s in family.iter_samples() {
            let v = match &s.value {
                openmetrics_parser::PrometheusValue::Gauge(n)
                | openmetrics_parser::PrometheusValue::Unknown(n) => n.as_f64(),
                openmetrics_parser::PrometheusValue::Counter(c) => c.value.as_f64(),
                _ => continue,
            };
            samples.push((m, v));
        }
    }
    Ok(combine(samples))
}

/// The lines of `text` about a metric [`canonical`] knows (its `# TYPE`/`# HELP` lines and its
/// samples), samples whose value is not a number left out. The parser is strict — a NaN counter
/// anywhere (vLLM's `process_cpu_seconds_total` on some hosts) fails the whole text — and the
/// engines' expositions are mostly histograms tpsview does not read.
fn known_lines(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let keep = if let Some(rest) = line
            .strip_prefix("# TYPE ")
            .or_else(|| line.strip_prefix("# HELP "))
        {
            rest.split_whitespace()
                .next()
                .is_some_and(|n| canonical(n).is_some())
        } else if line.starts_with('#') {
            false
        } else {
            let name_end = line.find(['{', ' ', '\t']).unwrap_or(line.len());
            let after = match line[name_end..].strip_prefix('{') {
                Some(labels) => labels.rsplit_once('}').map_or("", |(_, v)| v),
                None => &line[name_end..],
            };
            canonical(&line[..name_end]).is_some()
                && after
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse::<f64>().ok())
                    .is_some_and(|v| !v.is_nan())
        };
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Polls the server's metrics at `url` every `interval` (each poll may take no longer) until
/// `done` is set, on the run's clock (seconds since `run_start`, as the requests' send times).
/// Two polls bound the recorded requests' counters: one an interval after the warm-up is over
/// (`between.0`), before the recorded requests start (`between.1` lets them), and one an interval
/// after the last has finished — engines that count a request's tokens when it finishes
/// (llama.cpp) have counted the warm-up's in the first and every recorded one in the last.
/// Returns the series (a poll that failed leaves no sample) and, when polls failed, how many and
/// the last reason: the bench goes on without them.
pub async fn poll(
    client: &reqwest::Client,
    url: &str,
    interval: std::time::Duration,
    run_start: std::time::Instant,
    done: &std::sync::atomic::AtomicBool,
    between: (&tokio::sync::Notify, &tokio::sync::Notify),
) -> (tpsview_core::server::ServerSeries, Option<(usize, String)>) {
    use std::sync::atomic::Ordering;
    let mut series = tpsview_core::server::ServerSeries {
        source: url.to_owned(),
        ..Default::default()
    };
    let mut failed = 0usize;
    let mut reason = String::new();
    let mut once = async |series: &mut tpsview_core::server::ServerSeries| {
        let at = run_start.elapsed().as_secs_f64();
        match scrape(client, url, interval).await {
            Ok(values) => push(series, at, &values),
            Err(e) => {
                failed += 1;
                reason = e;
            }
        }
    };
    let (warmed, resume) = between;
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // Through the warm-up.
    loop {
        tokio::select! {
            _ = tick.tick() => once(&mut series).await,
            _ = warmed.notified() => break,
        }
    }
    // An interval for the warm-up's counts, the opening poll, then the recorded requests go.
    tokio::time::sleep(interval).await;
    once(&mut series).await;
    resume.notify_one();
    tick.reset();
    while !done.load(Ordering::Relaxed) {
        tick.tick().await;
        if !done.load(Ordering::Relaxed) {
            once(&mut series).await;
        }
    }
    // The closing poll, an interval after the last request.
    tokio::time::sleep(interval).await;
    once(&mut series).await;
    (series, (failed > 0).then_some((failed, reason)))
}

/// One scrape: the values the text reports, or why there are none.
async fn scrape(
    client: &reqwest::Client,
    url: &str,
    timeout: std::time::Duration,
) -> Result<BTreeMap<ServerMetric, f64>, String> {
    let why = |e: reqwest::Error| {
        if e.is_timeout() {
            format!(
                "{url}: timed out: no answer within {} ms (the poll interval)",
                timeout.as_millis()
            )
        } else {
            format!("{url}: {e}")
        }
    };
    let resp = client.get(url).timeout(timeout).send().await.map_err(why)?;
    if !resp.status().is_success() {
        return Err(format!("{url}: HTTP {}", resp.status()));
    }
    let text = resp.text().await.map_err(why)?;
    read(&text).map_err(|e| format!("{url}: {e}"))
}

/// Adds one poll's values at time `at`: every metric seen so far gets a value (`None` where this
/// poll lacked it), a metric first seen now gets `None` for the polls before.
fn push(
    series: &mut tpsview_core::server::ServerSeries,
    at: f64,
    values: &BTreeMap<ServerMetric, f64>,
) {
    let before = series.t_s.len();
    series.t_s.push(at);
    for m in ServerMetric::ALL {
        let slot = series.values.slot_mut(m);
        if slot.is_none() && values.contains_key(&m) {
            *slot = Some(vec![None; before]);
        }
        if let Some(column) = slot {
            column.push(values.get(&m).copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/exposition")
            .join(name);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    #[test]
    fn a_real_sglang_capture_reads_as_the_values_it_shows() {
        // The values as the capture writes them (tests/exposition/README.md).
        let v = read(&fixture("sglang-loaded.prom")).expect("prometheus text");
        assert_eq!(v.get(&ServerMetric::Running), Some(&162.0));
        assert_eq!(v.get(&ServerMetric::Waiting), Some(&2826.0));
        assert_eq!(v.get(&ServerMetric::KvUsage), Some(&0.28));
        assert_eq!(
            v.get(&ServerMetric::GenThroughput),
            Some(&86.50814177726902)
        );
        assert_eq!(v.get(&ServerMetric::GenerationTokens), Some(&7.557572e6));
        assert_eq!(v.get(&ServerMetric::PromptTokens), Some(&8.128902e6));
        assert_eq!(
            v.get(&ServerMetric::DecodeCalls),
            None,
            "SGLang counts no decode calls"
        );
    }

    #[test]
    fn a_real_llama_cpp_capture_reads_as_it_shows() {
        // Mid-run (tests/exposition/README.md): 4 processing, 4 deferred, 37 decode calls, and
        // no token counted yet (llama.cpp counts a request's tokens when it finishes).
        let v = read(&fixture("llamacpp-loaded.prom")).expect("prometheus text");
        assert_eq!(v.get(&ServerMetric::Running), Some(&4.0));
        assert_eq!(v.get(&ServerMetric::Waiting), Some(&4.0));
        assert_eq!(v.get(&ServerMetric::DecodeCalls), Some(&37.0));
        assert_eq!(v.get(&ServerMetric::GenerationTokens), Some(&0.0));
        assert_eq!(v.get(&ServerMetric::PromptTokens), Some(&68.0));
        // After: the 8 requests' 48 tokens each, over 97 calls.
        let after = read(&fixture("llamacpp-after.prom")).expect("prometheus text");
        assert_eq!(
            after.get(&ServerMetric::GenerationTokens),
            Some(&(8.0 * 48.0))
        );
        assert_eq!(after.get(&ServerMetric::DecodeCalls), Some(&97.0));
        assert_eq!(after.get(&ServerMetric::Running), Some(&0.0));
    }

    #[test]
    fn vllm_v1_with_two_engines_sums_requests_and_averages_the_cache() {
        let v = read(&fixture("vllm-v1.prom")).expect("prometheus text");
        assert_eq!(v.get(&ServerMetric::Running), Some(&(12.0 + 9.0)));
        assert_eq!(v.get(&ServerMetric::Waiting), Some(&3.0));
        assert!((v[&ServerMetric::KvUsage] - (0.42 + 0.3) / 2.0).abs() < 1e-12);
        assert_eq!(
            v.get(&ServerMetric::GenerationTokens),
            Some(&(98231.0 + 95002.0))
        );
        assert_eq!(
            v.get(&ServerMetric::PromptTokens),
            Some(&(183042.0 + 176310.0))
        );
        // The `_created` timestamps, the histogram and the NaN counter of another family change
        // nothing.
        assert_eq!(v.len(), 5, "{v:?}");
    }

    #[test]
    fn vllm_v0s_older_cache_name_and_tgis_batch_and_queue() {
        let v = read(&fixture("vllm-v0.prom")).expect("prometheus text");
        assert_eq!(v.get(&ServerMetric::KvUsage), Some(&0.0625));
        assert_eq!(v.get(&ServerMetric::Running), Some(&7.0));
        assert_eq!(v.get(&ServerMetric::Waiting), Some(&1.0));
        let t = read(&fixture("tgi.prom")).expect("prometheus text");
        assert_eq!(t.get(&ServerMetric::Running), Some(&8.0));
        assert_eq!(t.get(&ServerMetric::Waiting), Some(&5.0));
        assert_eq!(
            t.len(),
            2,
            "TGI reports no token counter under a known name: {t:?}"
        );
    }

    #[test]
    fn a_nan_sample_is_left_out_and_a_web_page_is_not_prometheus() {
        let text = "# TYPE vllm:generation_tokens_total counter\n\
            vllm:generation_tokens_total{engine=\"0\"} NaN\n\
            vllm:generation_tokens_total{engine=\"1\"} 20\n\
            # TYPE vllm:num_requests_running gauge\n\
            vllm:num_requests_running 2\n";
        let v = read(text).expect("the rest reads");
        assert_eq!(v.get(&ServerMetric::GenerationTokens), Some(&20.0));
        assert_eq!(v.get(&ServerMetric::Running), Some(&2.0));
        let e = read("<!doctype html><p>No metrics here.</p>").expect_err("html");
        assert!(e.contains("not Prometheus text"), "{e}");
        // Prometheus text with none of the engines' names: read, nothing known.
        assert_eq!(read("# TYPE up gauge\nup 1\n"), Ok(BTreeMap::new()));
    }

    #[test]
    fn polls_line_up_even_when_a_metric_appears_or_goes_missing() {
        let mut s = tpsview_core::server::ServerSeries::default();
        push(&mut s, 0.0, &BTreeMap::from([(ServerMetric::Running, 1.0)]));
        push(
            &mut s,
            0.25,
            &BTreeMap::from([(ServerMetric::Running, 2.0), (ServerMetric::Waiting, 5.0)]),
        );
        push(&mut s, 0.5, &BTreeMap::from([(ServerMetric::Waiting, 6.0)]));
        assert_eq!(s.t_s, vec![0.0, 0.25, 0.5]);
        assert_eq!(
            s.values.running.clone().unwrap(),
            vec![Some(1.0), Some(2.0), None]
        );
        assert_eq!(
            s.values.waiting.clone().unwrap(),
            vec![None, Some(5.0), Some(6.0)]
        );
    }

    #[test]
    fn series_per_label_add_up_and_fractions_average() {
        let text = "# TYPE vllm:num_requests_running gauge\n\
            vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3\n\
            vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 5\n\
            # TYPE vllm:kv_cache_usage_perc gauge\n\
            vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.2\n\
            vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"} 0.4\n\
            vllm:kv_cache_usage_perc{engine=\"2\",model_name=\"m\"} NaN\n\
            # TYPE vllm:generation_tokens_total counter\n\
            vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} 100\n\
            vllm:generation_tokens_total{engine=\"1\",model_name=\"m\"} 20\n";
        let v = read(text).expect("prometheus text");
        assert_eq!(v.get(&ServerMetric::Running), Some(&8.0));
        assert!(
            (v[&ServerMetric::KvUsage] - 0.3).abs() < 1e-12,
            "NaN left out of the mean"
        );
        assert_eq!(v.get(&ServerMetric::GenerationTokens), Some(&120.0));
    }
}
