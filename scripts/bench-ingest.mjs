// Ingest speed (a benchmark that prints figures, never a test). One generated vLLM
// `--save-detailed` file (tests/e2e/bigfile.mjs: 10,000 requests × ~1,050 chunk gaps, the texts
// and errors arrays included, ~105 MB), read four ways:
//   in one headless Chromium: tpsview's path (the page hands the File to its worker: File.stream()
//   into wasm, parse, fold, back to the page, summary table drawn) against a plain JavaScript
//   baseline on the same page (file.text() + JSON.parse + the same figures in a plain loop:
//   TTFT/TPOT/ITL/E2E mean and numpy-linear p50/p90/p99 over sorted Float64Arrays, system T/s);
//   natively: `tpsview summarize --json` against python3 (json + numpy), wall clock per process.
// Median of 3 runs each, alternating; natively also the same requests with times as vLLM really
// writes them (Python's repr, up to 17 digits, ~220 MB). Then a ~525 MB file through tpsview's
// path (time, peak worker memory per MB); then the other big shapes (a 1,000,000-response LLMPerf
// file, ~100 MB GenAI-Perf and AIPerf exports, the 17-digit vLLM file), each with the page's
// longest task.
// Usage: node scripts/bench-ingest.mjs [--no-500] [--no-others]  (scripts/bench-ingest.sh builds
// what it needs first).
import path from 'node:path';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { serve, launch, root, watchLongTasks, traceMainThread } from '../tests/e2e/harness.mjs';
import { writeBigVllm, writeBigLlmperf, writeBigGenaiPerf, writeBigAiperf } from '../tests/e2e/bigfile.mjs';

const dir = path.join(root, 'target', 'ingest');
const file = path.join(dir, 'vllm-bench-10000.json');
if (!existsSync(file)) writeBigVllm(file, 10_000, 1_000);
const bytes = statSync(file).size;
const mb = bytes / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serve();
const context = await launch();
const page = await context.newPage();
await page.goto(server.origin + '/');
await page.waitForSelector('[data-testid=summary-row]');
// The baseline's own file input, outside the app.
await page.evaluate(() => {
  const i = document.createElement('input');
  i.type = 'file';
  i.id = 'baseline-input';
  i.hidden = true;
  document.body.append(i);
});

/** tpsview: change event on the app's input → the file's figures line and table drawn. */
async function tpsview(f, name) {
  await page.click('text=Clear');
  await watchLongTasks(page);
  const stopTrace = await traceMainThread(page);
  await page.evaluate((name) => {
    window.__t = null;
    document.querySelector('[data-testid=file-input]').addEventListener('change', () => { window.__t0 = performance.now(); }, { capture: true, once: true });
    new MutationObserver((_, obs) => {
      const fig = document.querySelector('[data-testid=load-figures]');
      if (fig?.textContent.startsWith(name) && document.querySelector('[data-testid=summary-row]')) {
        window.__t = performance.now() - window.__t0;
        window.__fig = { ...fig.dataset };
        obs.disconnect();
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, name);
  await page.setInputFiles('[data-testid=file-input]', f);
  await page.waitForFunction(() => window.__t !== null, null, { timeout: 300_000 });
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0');
  const [ms, fig, long] = await page.evaluate(() => [window.__t, window.__fig, window.__long]);
  const tasks = await stopTrace();
  const longest = {
    cpu: Math.max(...tasks.map((t) => t.cpu ?? 0)),
    wall: Math.max(...tasks.map((t) => t.wall)),
    api: long.length ? Math.max(...long) : 0,
  };
  const row = await page.$eval('[data-testid=summary-row]', (r) => Object.fromEntries([...r.querySelectorAll('[data-metric]')].map((c) => [c.dataset.metric, Number(c.dataset.value)])));
  return { ms, fig, row, longest };
}

/** JSON.parse alone on the same bytes, already in memory as a string (median of 3). */
async function jsonParseAlone() {
  await page.setInputFiles('#baseline-input', file);
  return page.evaluate(async () => {
    const text = await document.getElementById('baseline-input').files[0].text();
    const ms = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const d = JSON.parse(text);
      ms.push(performance.now() - t0);
      if (!d.ttfts) throw new Error('not parsed');
    }
    return { first: ms[0], median: [...ms].sort((a, b) => a - b)[1] };
  });
}

const task = (l) => `longest page task ${l.cpu.toFixed(1)} ms of CPU (${l.wall.toFixed(1)} ms wall; Long Tasks API: ${l.api ? `${l.api.toFixed(0)} ms` : 'none'})`;

/** The JavaScript baseline, on the page's thread: what a plain JS viewer would do. */
async function baseline() {
  await page.setInputFiles('#baseline-input', file);
  return page.evaluate(async () => {
    const t0 = performance.now();
    const f = document.getElementById('baseline-input').files[0];
    const d = JSON.parse(await f.text());
    const n = d.ttfts.length;
    const ttft = [], e2e = [], tpot = [];
    let itlCount = 0;
    for (let i = 0; i < n; i++) if (!d.errors[i]) itlCount += d.itls[i].length;
    const itl = new Float64Array(itlCount);
    let k = 0, tokens = 0, first = Infinity, last = -Infinity;
    for (let i = 0; i < n; i++) {
      if (d.errors[i]) continue;
      const out = d.output_lens[i];
      ttft.push(d.ttfts[i]);
      e2e.push(d.latencies[i]);
      if (out > 1) tpot.push((d.latencies[i] - d.ttfts[i]) / (out - 1));
      for (const g of d.itls[i]) itl[k++] = g;
      tokens += out;
      first = Math.min(first, d.start_times[i]);
      last = Math.max(last, d.start_times[i] + d.latencies[i]);
    }
    const stats = (xs) => {
      const a = Float64Array.from(xs).sort();
      const q = (p) => { const h = (a.length - 1) * p; const lo = Math.floor(h); return a[lo] + (a[Math.min(lo + 1, a.length - 1)] - a[lo]) * (h - lo); };
      let s = 0;
      for (const x of a) s += x;
      return { mean: s / a.length, p50: q(0.5), p90: q(0.9), p99: q(0.99) };
    };
    const out = { ttft: stats(ttft), tpot: stats(tpot), itl: stats(itl), e2e: stats(e2e), system_tps: tokens / (last - first) };
    return { ms: performance.now() - t0, out };
  });
}

const runs = { tpsview: [], js: [] };
let last;
for (let i = 0; i < 3; i++) {
  const t = await tpsview(file, path.basename(file));
  runs.tpsview.push(t.ms);
  const b = await baseline();
  runs.js.push(b.ms);
  last = { t, b };
}
// The two paths compute the same figures.
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const same = close(last.t.row.system_tps, last.b.out.system_tps) && close(last.t.row.ttft_mean_ms, last.b.out.ttft.mean * 1e3)
  && close(last.t.row.itl_mean_ms, last.b.out.itl.mean * 1e3) && close(last.t.row.tpot_p99_ms, last.b.out.tpot.p99 * 1e3);
const tps = mb / (median(runs.tpsview) / 1e3);
const js = mb / (median(runs.js) / 1e3);
console.log(`${mb.toFixed(1)} MB vLLM detailed file (10,000 requests), headless Chromium, median of 3:`);
console.log(`  tpsview (worker: File.stream → wasm → page, table drawn): ${(median(runs.tpsview) / 1e3).toFixed(2)} s = ${tps.toFixed(0)} MB/s  [runs ${runs.tpsview.map((x) => x.toFixed(0)).join(', ')} ms]`);
console.log(`  JavaScript baseline (file.text + JSON.parse + plain loop): ${(median(runs.js) / 1e3).toFixed(2)} s = ${js.toFixed(0)} MB/s  [runs ${runs.js.map((x) => x.toFixed(0)).join(', ')} ms]`);
const { first: parseFirst, median: parseAlone } = await jsonParseAlone();
console.log(`  JSON.parse alone on the same text (in memory already): ${(parseAlone / 1e3).toFixed(2)} s = ${(mb / (parseAlone / 1e3)).toFixed(0)} MB/s (median of 3; the first call ${(parseFirst / 1e3).toFixed(2)} s)`);
console.log(`  ratio: tpsview is ${(tps / js).toFixed(2)}x the JavaScript baseline (goal 2.5x); file → table takes ${(median(runs.tpsview) / parseAlone).toFixed(2)}x the time of JSON.parse alone (goal < 1); same figures: ${same ? 'yes' : 'NO'}`);
console.log(`  ${task(last.t.longest)}`);
console.log(`  worker: read (parsing as it arrives) ${Number(last.t.fig.readMs).toFixed(0)} ms, then finish + fold + encode ${Number(last.t.fig.parseMs).toFixed(0)} ms; peak worker memory ${(Number(last.t.fig.memory) / 1e6).toFixed(0)} MB = ${(Number(last.t.fig.memory) / bytes).toFixed(2)} MB per MB of input`);

// Natively: the CLI against python3 + numpy, on the same file.
const py = path.join(root, 'target', 'engine-venv', 'bin', 'python');
const plain = path.join(dir, 'plain.py');
writeFileSync(plain, `import json, sys
import numpy as np
d = json.load(open(sys.argv[1]))
ok = [i for i, e in enumerate(d["errors"]) if not e]
ttft = np.array([d["ttfts"][i] for i in ok])
out = np.array([d["output_lens"][i] for i in ok], dtype=float)
lat = np.array([d["latencies"][i] for i in ok])
tpot = (lat - ttft)[out > 1] / (out[out > 1] - 1)
itl = np.fromiter((g for i in ok for g in d["itls"][i]), dtype=float)
start = np.array([d["start_times"][i] for i in ok])
duration = (start + lat).max() - start.min()
stats = lambda a: [float(a.mean())] + [float(x) for x in np.percentile(a, [50, 90, 99])]
print(json.dumps({"ttft": stats(ttft), "tpot": stats(tpot), "itl": stats(itl), "e2e": stats(lat), "system_tps": float(out.sum() / duration)}))
`);
const timed = (cmd, args) => {
  const ts = [];
  for (let i = 0; i < 3; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`${cmd} failed`);
    ts.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  return median(ts);
};
const cli = timed(path.join(root, 'target', 'release', 'tpsview'), ['summarize', '--json', file]);
const python = timed(py, [plain, file]);
const loadOnly = timed('python3', ['-c', 'import json, sys; json.load(open(sys.argv[1]))', file]);
console.log('Natively, wall clock per process, median of 3:');
console.log(`  tpsview summarize --json: ${cli.toFixed(2)} s = ${(mb / cli).toFixed(0)} MB/s`);
console.log(`  python3 json + numpy:     ${python.toFixed(2)} s = ${(mb / python).toFixed(0)} MB/s`);
console.log(`  python3 json.load alone:  ${loadOnly.toFixed(2)} s = ${(mb / loadOnly).toFixed(0)} MB/s`);
console.log(`  ratio: tpsview is ${(python / cli).toFixed(1)}x the Python reader with the same figures, ${(loadOnly / cli).toFixed(1)}x json.load alone (goal 10x); ${(mb / cli).toFixed(0)} MB/s against the goal of 600 (${os.cpus().length} cores)`);

// The same requests with every time as vLLM really writes it (Python's repr of perf_counter
// differences, up to 17 digits), which the issue's file rounds to microseconds.
const reprFile = path.join(dir, 'vllm-bench-10000-repr.json');
if (!existsSync(reprFile)) writeBigVllm(reprFile, 10_000, 1_000, 42, { repr: true });
const reprMb = statSync(reprFile).size / 1e6;
const cliRepr = timed(path.join(root, 'target', 'release', 'tpsview'), ['summarize', '--json', reprFile]);
const loadRepr = timed('python3', ['-c', 'import json, sys; json.load(open(sys.argv[1]))', reprFile]);
console.log(`The same requests with times as vLLM writes them (up to 17 digits, ${reprMb.toFixed(0)} MB), median of 3:`);
console.log(`  tpsview summarize --json ${cliRepr.toFixed(2)} s = ${(reprMb / cliRepr).toFixed(0)} MB/s; python3 json.load alone ${loadRepr.toFixed(2)} s: ${(loadRepr / cliRepr).toFixed(1)}x`);

if (!process.argv.includes('--no-500')) {
  const big = path.join(dir, 'vllm-bench-50000.json');
  if (!existsSync(big)) writeBigVllm(big, 50_000, 1_000);
  const size = statSync(big).size;
  const t = await tpsview(big, path.basename(big));
  console.log(`A ${(size / 1e6).toFixed(0)} MB file (50,000 requests) through tpsview's path: ${(t.ms / 1e3).toFixed(2)} s = ${(size / 1e3 / t.ms).toFixed(0)} MB/s; peak worker memory ${(Number(t.fig.memory) / 1e6).toFixed(0)} MB = ${(Number(t.fig.memory) / size).toFixed(2)} MB per MB; ${task(t.longest)}`);
}
if (!process.argv.includes('--no-others')) {
  // The other big shapes the issue names: through tpsview's path, time, memory, longest task.
  const others = [
    ['llmperf-1m_individual_responses.json', (f) => writeBigLlmperf(f, 1_000_000), 'LLMPerf responses, 1,000,000 responses'],
    ['genai-big_profile_export.json', (f) => writeBigGenaiPerf(f, 10_000, 100), 'GenAI-Perf profile_export.json, 10,000 requests'],
    ['aiperf-big_profile_export.jsonl', (f) => writeBigAiperf(f, 10_000, 1_000), 'AIPerf profile_export.jsonl, 10,000 records'],
    ['vllm-bench-10000-repr.json', (f) => writeBigVllm(f, 10_000, 1_000, 42, { repr: true }), 'vLLM detailed, 10,000 requests, times as vLLM writes them (17 digits)'],
  ];
  for (const [name, write, what] of others) {
    const f = path.join(dir, name);
    if (!existsSync(f)) write(f);
    const size = statSync(f).size;
    const t = await tpsview(f, name);
    console.log(`${what} (${(size / 1e6).toFixed(0)} MB): ${(t.ms / 1e3).toFixed(2)} s = ${(size / 1e3 / t.ms).toFixed(0)} MB/s; peak worker memory ${(Number(t.fig.memory) / size).toFixed(2)} MB per MB; ${task(t.longest)}`);
  }
}
await context.close();
await server.close();
