// Writes a big vLLM `bench serve --save-detailed` result (kept out of git: made by the tests and
// the benchmark under target/) and returns the figures tpsview must show for it, computed here
// from the very numbers written (rounded to 6 decimals, as written).
//   node tests/e2e/bigfile.mjs OUT [REQUESTS] [GAPS]   (10,000 × 1,000 ≈ 105 MB)
import { openSync, writeSync, closeSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A small seeded generator (mulberry32), so every run writes the same file. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round6 = (x) => Math.round(x * 1e6) / 1e6;

/** Writes the file; returns {bytes, requests, outputTokens, systemTps, ttftMeanMs, itlMeanMs}. */
export function writeBigVllm(out, requests = 10_000, gaps = 1_000, seed = 42, { repr = false } = {}) {
  const rand = rng(seed);
  // Rounded to microseconds (~10 bytes a gap), or as vLLM really writes them: Python's repr of
  // `perf_counter` differences, up to 17 digits (~21 bytes a gap).
  const r6 = repr ? (x) => x : round6;
  const outLens = [], ttfts = [], starts = [], lats = [];
  const fd = openSync(out, 'w');
  let t = 0;
  // The per-request arrays first need the itls; draw everything, then write in vLLM's key order.
  const rows = [];
  let itlSum = 0, itlCount = 0;
  for (let i = 0; i < requests; i++) {
    const n = gaps + Math.floor(rand() * (gaps / 10 + 1));
    const ttft = r6(0.05 + rand() * 0.2);
    const row = new Float64Array(n);
    let sum = ttft;
    for (let k = 0; k < n; k++) {
      row[k] = r6(0.018 + rand() * 0.01);
      sum += row[k];
      itlSum += row[k];
    }
    itlCount += n;
    rows.push(row);
    outLens.push(n + 1);
    ttfts.push(ttft);
    starts.push(r6(t));
    lats.push(r6(sum));
    t += rand() * 0.05;
  }
  const outputTokens = outLens.reduce((a, b) => a + b, 0);
  const first = Math.min(...starts);
  let last = -Infinity;
  for (let i = 0; i < requests; i++) last = Math.max(last, starts[i] + lats[i]);
  const duration = last - first;
  const ttftMean = ttfts.reduce((a, b) => a + b, 0) / requests;
  const w = (s) => writeSync(fd, s);
  // vLLM's key order: run facts and throughputs, the per-request arrays, then latency statistics.
  w(`{"date": "20261130-120000", "endpoint_type": "vllm", "backend": "vllm", "label": null, "model_id": "synthetic/<b>model</b>", "tokenizer_id": "synthetic/model", "num_prompts": ${requests}, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 64`);
  w(`, "duration": ${duration}, "completed": ${requests}, "failed": 0, "total_input_tokens": ${512 * requests}, "total_output_tokens": ${outputTokens}`);
  w(`, "request_throughput": ${requests / duration}, "output_throughput": ${outputTokens / duration}, "total_token_throughput": ${(outputTokens + 512 * requests) / duration}`);
  w(`, "input_lens": [${new Array(requests).fill(512).join(', ')}]`);
  w(`, "output_lens": [${outLens.join(', ')}]`);
  w(`, "ttfts": [${ttfts.join(', ')}]`);
  w(`, "start_times": [${starts.join(', ')}]`);
  w(`, "latencies": [${lats.join(', ')}]`);
  w(', "itls": [');
  for (let i = 0; i < requests; i++) {
    w(`${i ? ', ' : ''}[${Array.from(rows[i], (x) => String(x)).join(', ')}]`);
  }
  w(']');
  w(`, "generated_texts": [${new Array(requests).fill('"<script>alert(1)</script> text"').join(', ')}]`);
  w(`, "errors": [${new Array(requests).fill('""').join(', ')}], "mean_ttft_ms": ${ttftMean * 1e3}}`);
  closeSync(fd);
  return {
    bytes: statSync(out).size,
    requests,
    outputTokens,
    systemTps: outputTokens / duration,
    ttftMeanMs: ttftMean * 1e3,
    itlMeanMs: (itlSum / itlCount) * 1e3,
  };
}

/** Writes in buffered pieces of about 4 MB. */
function writer(out) {
  const fd = openSync(out, 'w');
  let parts = [], size = 0;
  const flush = () => { writeSync(fd, parts.join('')); parts = []; size = 0; };
  return {
    w(s) { parts.push(s); size += s.length; if (size > 4e6) flush(); },
    close() { flush(); closeSync(fd); return statSync(out).size; },
  };
}

/** A big LLMPerf `*_individual_responses.json` (a JSON array of records, as LLMPerf writes it,
 *  one per line): ~300 bytes a response, so 1,000,000 responses ≈ 300 MB. Returns
 *  {bytes, requests, ttftMeanMs}. */
export function writeBigLlmperf(out, responses = 1_000_000, seed = 7) {
  const rand = rng(seed);
  const f = writer(out);
  let ttftSum = 0;
  f.w('[');
  for (let i = 0; i < responses; i++) {
    const ttft = 0.05 + rand() * 0.2;
    const n = 100 + Math.floor(rand() * 100);
    const itl = 0.018 + rand() * 0.01;
    const e2e = ttft + (n - 1) * itl;
    ttftSum += ttft;
    f.w(`${i ? ',' : ''}\n {"error_code": null, "error_msg": "", "inter_token_latency_s": ${e2e / n}, "ttft_s": ${ttft}, "end_to_end_latency_s": ${e2e}, "request_output_throughput_token_per_s": ${n / e2e}, "number_total_tokens": ${n + 550}, "number_output_tokens": ${n}, "number_input_tokens": 550}`);
  }
  f.w('\n]\n');
  return { bytes: f.close(), requests: responses, ttftMeanMs: (ttftSum / responses) * 1e3 };
}

/** A big GenAI-Perf `profile_export.json` (one experiment; per request its send time, every
 *  response's time in ns and the response itself, an SSE chunk): ~90 bytes a response, so
 *  10,000 × ~105 ≈ 100 MB. Returns {bytes, requests}. */
export function writeBigGenaiPerf(out, requests = 10_000, responses = 100, seed = 11) {
  const rand = rng(seed);
  const f = writer(out);
  const t0 = 1764000000000000000n;
  f.w('{"experiments": [{"experiment": {"mode": "concurrency", "value": 64}, "requests": [');
  let t = 0;
  for (let i = 0; i < requests; i++) {
    t += Math.floor(rand() * 50e6);
    let at = t + Math.floor(50e6 + rand() * 200e6);
    const stamps = [];
    const n = responses + Math.floor(rand() * responses / 10);
    for (let k = 0; k < n; k++) {
      stamps.push(String(t0 + BigInt(at)));
      at += Math.floor(18e6 + rand() * 10e6);
    }
    const chunk = '{"response": "data: {\\"choices\\":[{\\"delta\\":{\\"content\\":\\"a\\"}}]}"}';
    f.w(`${i ? ', ' : ''}{"timestamp": ${t0 + BigInt(t)}, "request_inputs": {"payload": "{\\"model\\": \\"m\\", \\"stream\\": true}"}, "response_timestamps": [${stamps.join(', ')}], "response_outputs": [${new Array(n).fill(chunk).join(', ')}]}`);
  }
  f.w(']}], "version": "0.0.9"}\n');
  return { bytes: f.close(), requests };
}

/** A big AIPerf `profile_export.jsonl` (a record per line, chunk gaps in ms): ~10 bytes a gap.
 *  Returns {bytes, requests}. */
export function writeBigAiperf(out, requests = 10_000, gaps = 1_000, seed = 13) {
  const rand = rng(seed);
  const f = writer(out);
  const t0 = 1764000000000000000n;
  let t = 0;
  for (let i = 0; i < requests; i++) {
    t += Math.floor(rand() * 50e6);
    const ttft = 50 + rand() * 200;
    const n = gaps + Math.floor(rand() * gaps / 10);
    const g = [];
    let sum = ttft;
    for (let k = 0; k < n; k++) {
      const x = Math.round((18 + rand() * 10) * 1e3) / 1e3;
      g.push(x);
      sum += x;
    }
    const end = t0 + BigInt(t) + BigInt(Math.round(sum * 1e6));
    f.w(`{"metadata": {"request_start_ns": ${t0 + BigInt(t)}, "request_end_ns": ${end}, "benchmark_phase": "profiling", "was_cancelled": false, "x_request_id": "r${i}"}, "metrics": {"time_to_first_token": {"value": ${ttft}, "unit": "ms"}, "request_latency": {"value": ${sum}, "unit": "ms"}, "inter_chunk_latency": {"value": [${g.join(', ')}], "unit": "ms"}, "output_sequence_length": {"value": ${n + 1}, "unit": "tokens"}, "input_sequence_length": {"value": 550, "unit": "tokens"}}}\n`);
  }
  return { bytes: f.close(), requests };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, n, g] = process.argv.slice(2);
  const f = writeBigVllm(out, Number(n ?? 10_000), Number(g ?? 1_000));
  console.log(JSON.stringify(f));
}
