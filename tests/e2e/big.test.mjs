// Big reports (issue 7): a ~105 MB vLLM --save-detailed file made by the test (never in git) loads
// in the worker with a progress bar and the right totals while the page's thread stays free
// (Long Tasks API, plus a timer probe for tasks under the API's 50 ms floor); Cancel stops a slow
// streamed fetch; a truncated file and one over the size limit each get a clear message. Record
// files (AIPerf JSON lines, LLMPerf responses, GenAI-Perf exports) are parsed as they arrive in
// ≤ 1.5 × their size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, openSync, closeSync, ftruncateSync, copyFileSync, existsSync, createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, open, tableRows, root, shots, settled, watchLongTasks, traceMainThread } from './harness.mjs';
import { writeBigVllm, writeBigAiperf, writeBigLlmperf, writeBigGenaiPerf } from './bigfile.mjs';

const dir = path.join(root, 'target', 'e2e-big');
const big = path.join(dir, 'vllm-detailed-big.json');
let expected;
let server, context;

/** What the slow server saw: bytes sent, whether the client hung up before the end, whether the
 *  file stream was stopped, and a promise that settles when the client hangs up. */
const slow = { sent: 0, hungUp: false, stopped: false };
let hangUp;
slow.hungUpP = new Promise((r) => { hangUp = r; });

/** Streams `file` at about `mbPerS`, with its length announced (a slow network). */
function slowly(file, mbPerS) {
  return (req, res) => {
    const size = statSync(file).size;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': size });
    const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
    stream.on('data', (chunk) => {
      stream.pause();
      slow.sent += chunk.length;
      res.write(chunk);
      setTimeout(() => stream.resume(), (chunk.length / (mbPerS * 1e6)) * 1e3);
    });
    stream.on('end', () => res.end());
    res.on('close', () => {
      stream.destroy();
      slow.stopped = stream.destroyed;
      if (slow.sent < size) {
        slow.hungUp = true;
        hangUp();
      }
    });
  };
}

before(async () => {
  mkdirSync(dir, { recursive: true });
  expected = writeBigVllm(big, 10_000, 1_000);
  server = await serve({ '/slow/big.json': slowly(big, 20) });
  context = await launch();
});
after(async () => {
  await context?.close();
  await server?.close();
});

test('a 105 MB vLLM detailed file loads in the worker with progress, the right totals, and a free main thread', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await watchLongTasks(page);
  const stopTrace = await traceMainThread(page);
  // Every state the progress bar passes through.
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const p = document.querySelector('[data-testid=load-progress]');
      if (p) window.__progress.push({ phase: p.dataset.phase, read: Number(p.dataset.read), requests: Number(p.dataset.requests ?? 0), text: p.textContent, max: Number(p.querySelector('progress').max) });
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.setInputFiles('[data-testid=file-input]', big);
  await page.waitForFunction(() => document.querySelector('[data-testid=load-figures]')?.textContent.startsWith('vllm-detailed-big.json'), null, { timeout: 120_000 });
  await settled(page);
  const seen = await page.evaluate(() => window.__progress);
  const mb = (expected.bytes / 1e6).toFixed(1);
  assert.ok(seen.some((p) => p.text.includes(`of ${mb} MB`) && p.max === expected.bytes), JSON.stringify(seen.slice(0, 3)));
  // Parsed while it is read (a vLLM file): requests seen so far (reported every 1,024), and how
  // far into the file — before its end (the last chunk's report may come with every byte read,
  // while requests are still being counted); never a separate parsing phase after the read.
  const parsing = seen.filter((p) => p.phase === 'reading' && p.requests > 0);
  assert.ok(parsing.some((p) => p.read < expected.bytes), JSON.stringify(parsing));
  assert.ok(parsing.every((p) => p.requests < expected.requests && p.read <= expected.bytes), JSON.stringify(parsing));
  assert.match(parsing[0].text, /Reading and parsing vllm-detailed-big\.json in a worker: [\d,]+ requests so far, [\d.]+ of [\d.]+ MB/);
  assert.ok(!seen.some((p) => p.phase === 'parsing'), 'no parse after the read');
  // Once requests are counted, the bar keeps saying so (its words do not alternate).
  const first = seen.findIndex((p) => p.requests > 0);
  assert.deepEqual(seen.slice(first).filter((p) => p.phase === 'reading' && !(p.requests > 0)), []);
  const fig = await page.$eval('[data-testid=load-figures]', (e) => ({ ...e.dataset }));
  assert.match(await page.textContent('[data-testid=load-figures]'),
    new RegExp(`^vllm-detailed-big\\.json: ${mb.replace('.', '\\.')} MB read and computed in a worker in [\\d.]+ s \\(\\d+ MB/s\\), 10,000 requests; worker memory at its peak \\d+ MB \\([\\d.]+ × the file\\)$`));
  assert.equal(Number(fig.bytes), expected.bytes);
  assert.equal(Number(fig.requests), expected.requests);
  // Totals: the table's figures equal the ones computed from the numbers written.
  const [row] = await tableRows(page);
  const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${what}: ${a} vs ${b}`);
  assert.equal(row.requests_ok, expected.requests);
  close(row.system_tps, expected.systemTps, 'system T/s');
  close(row.ttft_mean_ms, expected.ttftMeanMs, 'TTFT mean');
  close(row.itl_mean_ms, expected.itlMeanMs, 'ITL mean');
  // The report's HTML is text.
  assert.equal(await page.locator('b').count(), 0);
  const long = await page.evaluate(() => window.__long);
  const tasks = await stopTrace();
  const longestWall = Math.max(...tasks.map((t) => t.wall));
  const cpu = tasks.map((t) => t.cpu).filter((c) => c !== undefined);
  const longestCpu = Math.max(...cpu);
  const untimed = tasks.filter((t) => t.cpu === undefined).map((t) => t.wall.toFixed(1));
  const memory = Number(fig.memory) / expected.bytes;
  console.log(`# big file: ${mb} MB in ${(Number(fig.ms) / 1e3).toFixed(2)} s (${(expected.bytes / 1e3 / Number(fig.ms)).toFixed(0)} MB/s); worker memory ${memory.toFixed(2)} × the file; long tasks (wall clock) ${JSON.stringify(long)}; longest main-thread task ${longestCpu.toFixed(1)} ms of CPU, ${longestWall.toFixed(1)} ms of wall clock, of ${tasks.length} tasks (${untimed.length} without a CPU time, wall ${untimed.join(', ')} ms)`);
  // The limit is 50 ms of the page's own work in one task (measured on an idle machine:
  // 16–23 ms). Held on CPU time: wall-clock time includes time the busy machine gave to others.
  // A few tasks cut by the trace's start or end carry no CPU time; nearly all do.
  assert.ok(tasks.length > 10 && cpu.length >= 0.9 * tasks.length, `${cpu.length} of ${tasks.length} tasks have a CPU time (untimed: ${untimed})`);
  assert.ok(longestCpu < 50, `longest main-thread task ${longestCpu} ms of CPU`);
  // Issue 17: at most 1.5 MB of worker memory per MB of file (the file is never held whole).
  assert.ok(memory <= 1.5, `worker memory ${memory} × the file`);
  await page.screenshot({ path: path.join(shots, 'big-file.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('record files (AIPerf JSON lines, LLMPerf responses, GenAI-Perf exports) are parsed as they arrive, in at most 1.5 × their size', async () => {
  const files = [
    ['aiperf-e2e_profile_export.jsonl', (f) => writeBigAiperf(f, 10_000, 1_000)],
    ['llmperf-e2e_individual_responses.json', (f) => writeBigLlmperf(f, 100_000)],
    ['genai-e2e_profile_export.json', (f) => writeBigGenaiPerf(f, 3_000, 100)],
  ];
  for (const [name, write] of files) {
    const file = path.join(dir, name);
    const want = write(file);
    const { page, log } = await open(context, server.origin + '/');
    await settled(page);
    await page.evaluate(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const p = document.querySelector('[data-testid=load-progress]');
        if (p) window.__progress.push({ phase: p.dataset.phase, read: Number(p.dataset.read), requests: Number(p.dataset.requests ?? 0) });
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.setInputFiles('[data-testid=file-input]', file);
    await page.waitForFunction((n) => document.querySelector('[data-testid=load-figures]')?.textContent.startsWith(n), name, { timeout: 120_000 });
    await settled(page);
    const seen = await page.evaluate(() => window.__progress);
    // Records counted while the file is still being read, and no parse after the read.
    const parsing = seen.filter((p) => p.phase === 'reading' && p.requests > 0);
    assert.ok(parsing.some((p) => p.read < want.bytes), `${name}: ${JSON.stringify(seen.slice(0, 5))}`);
    assert.ok(!seen.some((p) => p.phase === 'parsing'), `${name}: no parse after the read`);
    const fig = await page.$eval('[data-testid=load-figures]', (e) => ({ ...e.dataset }));
    assert.equal(Number(fig.bytes), want.bytes);
    const [row] = await tableRows(page);
    assert.equal(row.requests_ok, want.requests, name);
    if (want.ttftMeanMs !== undefined) {
      assert.ok(Math.abs(row.ttft_mean_ms - want.ttftMeanMs) <= 1e-6 * want.ttftMeanMs, `${name}: TTFT mean ${row.ttft_mean_ms} vs ${want.ttftMeanMs}`);
    }
    const memory = Number(fig.memory) / want.bytes;
    console.log(`# ${name}: ${(want.bytes / 1e6).toFixed(1)} MB, worker memory ${memory.toFixed(2)} × the file`);
    assert.ok(memory <= 1.5, `${name}: worker memory ${memory} × the file`);
    assert.deepEqual(log.errors, []);
    await page.close();
  }
});

test('Cancel stops a slow streamed fetch: the worker ends, nothing is added, the page goes on', async () => {
  const { page, log } = await open(context, `${server.origin}/?src=${encodeURIComponent('slow/big.json')}`);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=load-progress]')?.dataset.read) > 5e6);
  assert.match(await page.textContent('[data-testid=load-status]'), /Reading big\.json: [\d.]+ of [\d.]+ MB/);
  await page.click('[data-testid=load-cancel]');
  await page.waitForSelector('[data-testid=load-note]');
  assert.match(await page.textContent('[data-testid=load-note]'), /Cancelled loading big\.json/);
  assert.equal(await page.locator('[data-testid=load-progress]').count(), 0);
  // The worker is gone, and with it the fetch: the server sees the connection closed early (an
  // event; the test's own timeout is the limit), and the file stream behind it is stopped, so
  // nothing more can be sent.
  await slow.hungUpP;
  assert.ok(slow.hungUp && slow.sent < expected.bytes, `the server sent ${slow.sent} of ${expected.bytes} bytes`);
  assert.ok(slow.stopped, 'the file stream was stopped when the client hung up');
  await settled(page);
  const names = await page.$$eval('.diagnostics-list-name', (e) => e.map((x) => x.textContent));
  assert.ok(!names.includes('big.json'), names.join());
  // The page still loads files.
  await page.setInputFiles('[data-testid=file-input]', path.join(root, 'tests/fixtures/vllm/append-result.json'));
  await page.waitForFunction(() => [...document.querySelectorAll('.diagnostics-list-name')].some((e) => e.textContent === 'append-result.json'));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a truncated 100 MB file and a file over the limit each get a clear message naming the file', async () => {
  const cut = path.join(dir, 'truncated-big.json');
  copyFileSync(big, cut);
  let fd = openSync(cut, 'r+');
  ftruncateSync(fd, 100_000_000);
  closeSync(fd);
  // Sparse: 1.2 GB on paper, nothing on disk.
  const huge = path.join(dir, 'huge.json');
  if (!existsSync(huge)) {
    fd = openSync(huge, 'w');
    ftruncateSync(fd, 1_200_000_000);
    closeSync(fd);
  }
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', [cut, huge]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=load-error]').length === 2, null, { timeout: 120_000 });
  const errors = await page.$$eval('[data-testid=load-error]', (e) => e.map((x) => x.textContent));
  assert.match(errors[0], /^truncated-big\.json: .*(end|EOF|complete)/i, errors[0]);
  assert.match(errors[0], /field `itls\[\d+\]\[\d+\]`/, 'names the field it was cut in');
  assert.match(errors[0], /is the file complete\?/);
  assert.match(errors[1], /^huge\.json: 1200 MB is more than this viewer reads in a browser tab \(1074 MB\)/, errors[1]);
  assert.match(errors[1], /tpsview summarize/);
  await page.screenshot({ path: path.join(shots, 'big-file-errors.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});
