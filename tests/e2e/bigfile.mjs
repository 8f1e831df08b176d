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

const r6 = (x) => Math.round(x * 1e6) / 1e6;

/** Writes the file; returns {bytes, requests, outputTokens, systemTps, ttftMeanMs, itlMeanMs}. */
export function writeBigVllm(out, requests = 10_000, gaps = 1_000, seed = 42) {
  const rand = rng(seed);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, n, g] = process.argv.slice(2);
  const f = writeBigVllm(out, Number(n ?? 10_000), Number(g ?? 1_000));
  console.log(JSON.stringify(f));
}
