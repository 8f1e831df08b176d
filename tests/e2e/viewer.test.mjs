// The viewer in a real headless Chromium: the sample, uploads checked against the CLI, broken and
// hostile files, ?src=, and the network requests the page makes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, open, cliSummary, cliValue, tableRows, fixture, root, shots, settled, axe } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

const METRICS = ['system_tps', 'per_stream_tps', 'tpot_mean_ms', 'tpot_p99_ms', 'ttft_mean_ms', 'itl_mean_ms', 'e2e_mean_ms', 'requests_ok'];

test('the sample opens with its table equal to the CLI and its chart drawn', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  assert.equal(await page.getAttribute('[data-testid=viewer]', 'data-ready'), 'true');
  assert.equal(await page.getAttribute('[data-testid=chart-throughput]', 'data-drawn'), 'true');
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r.concurrency), ['1', '16', '64', '128']);
  const cli = cliSummary(path.join(root, 'public/samples/h100-llama70b-fp8.tpsview.json'));
  cli.runs[0].points.forEach((p, i) => {
    for (const m of METRICS) assert.equal(rows[i][m], cliValue(p, m), `${m} at ${p.concurrency}`);
  });
  // The chart is drawn: many distinct colours on the canvas, not a blank rectangle.
  const colours = await page.$eval('[data-testid=chart-throughput]', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 64) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });
  assert.ok(colours > 10, `canvas has only ${colours} colours`);
  const notes = await page.textContent('[data-testid=gap-notes]');
  assert.match(notes, /At batch 64, 64 streams share each read of the weights: 3\d T\/s each, 2,\d{3} T\/s together/);
  assert.match(notes, /At batch 1, one stream has the GPU to itself/);
  await page.screenshot({ path: path.join(shots, 'sample.png'), fullPage: true });
  await page.screenshot({ path: path.join(shots, 'sample-top.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the static loading note gives way to the app, and says why when the app cannot start', async () => {
  const { page } = await open(context, server.origin + '/');
  await settled(page);
  assert.equal(await page.locator('#boot').count(), 0, 'the app removed the note');
  await page.close();
  // A WebAssembly module the browser cannot compile (as a browser without SIMD would find it).
  const broken = await context.newPage();
  await broken.route('**/tpsview-web-*_bg.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('not wasm') }));
  await broken.goto(server.origin + '/');
  await broken.waitForSelector('#boot-status[data-failed]');
  const text = await broken.textContent('#boot-status');
  assert.match(text, /^tpsview could not start in this browser \(.*\)\. It runs as WebAssembly with SIMD/);
  assert.match(text, /CompileError|WebAssembly|magic/i, 'the browser\'s reason is named');
  assert.equal(await broken.locator('#app [data-testid=viewer]').count(), 0, 'no app');
  assert.ok(await broken.isVisible('#boot-status'), 'the message is in view, where the loading line was');
  assert.deepEqual(await axe(broken), []);
  await broken.screenshot({ path: path.join(shots, 'boot-failed.png') });
  await broken.close();
});

test('an uploaded vLLM file shows the same figures as tpsview summarize --json', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const file = fixture('vllm/detailed-discrepant.json');
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  const [row] = await tableRows(page);
  const [p] = cliSummary(file).runs[0].points;
  for (const m of METRICS) assert.equal(row[m], cliValue(p, m), m);
  assert.equal(row.concurrency, '2');
  // The tool's own mean TPOT (45 ms) disagrees with the raw data: the cell is flagged and says why.
  const cell = page.locator('[data-metric=tpot_mean_ms]');
  assert.match(await cell.getAttribute('class'), /summary-table-differs/);
  assert.match(await cell.getAttribute('title'), /mean_tpot_ms = 45.*token counts/);
  assert.match(await page.textContent('.diagnostics-list'), /detailed-discrepant\.json — vLLM bench serve result/);
  await page.screenshot({ path: path.join(shots, 'vllm-upload.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a broken file gets a clear load error and the page keeps working', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', fixture('vllm/truncated.json'));
  const err = page.locator('[data-testid=load-error]');
  await err.waitFor();
  assert.match(await err.textContent(), /truncated\.json: not valid JSON: .* at line 1 column \d+/);
  await page.screenshot({ path: path.join(shots, 'load-error.png'), fullPage: true });
  await page.setInputFiles('[data-testid=file-input]', fixture('vllm/detailed-small.json'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  assert.equal(await err.count(), 1, 'the error stays listed beside the good file');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('HTML inside report strings is shown as text, never run', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', fixture('vllm/html-in-strings.json'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  const th = page.locator('[data-testid=summary-row] th');
  assert.equal(await th.textContent(), '<script>alert(2)</script>');
  assert.equal(await page.getAttribute('[data-testid=summary-row]', 'data-run'), '<script>alert(2)</script>');
  assert.equal(await page.locator('img[src=x]').count(), 0);
  assert.equal(await page.locator('.viewer-page script').count(), 0);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('?src= loads the named report, and a javascript: URL is refused in words', async () => {
  let { page, log } = await open(context, server.origin + '/?src=samples/h100-llama70b-fp8.tpsview.json');
  await settled(page);
  assert.equal((await tableRows(page)).length, 4);
  await page.close();
  ({ page, log } = await open(context, server.origin + '/?src=' + encodeURIComponent('javascript:alert(1)')));
  const err = page.locator('[data-testid=load-error]');
  await err.waitFor();
  assert.match(await err.textContent(), /only http:\/\/ and https:\/\/ addresses can be loaded/);
  assert.deepEqual(log.dialogs, []);
  await page.close();
});

test('?src= failures each get a plain, distinct message', async () => {
  const extra = await serve({
    '/page.html.json': [200, 'text/html', '<!doctype html><p>login</p>'],
    '/broken.json': [200, 'application/json', '{"mean_tpot_ms": 1, '],
  }, { cors: true });
  try {
    const cases = [
      [extra.origin + '/missing.json', /answered HTTP 404/],
      [extra.origin + '/page.html.json', /sent an HTML page, not a benchmark file/],
      [extra.origin + '/broken.json', /broken\.json: not valid JSON: .* line 1 column/],
      ['http://127.0.0.1:9/nothing.json', /could not be fetched .*CORS/],
    ];
    for (const [url, want] of cases) {
      const { page } = await open(context, server.origin + '/?src=' + encodeURIComponent(url));
      const err = page.locator('[data-testid=load-error]');
      await err.waitFor();
      assert.match(await err.textContent(), want, url);
      await page.close();
    }
  } finally {
    await extra.close();
  }
});

test('the page requests nothing but its own files, and the worker module only for a file', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  // The built-in sample is read on the page: the loading worker's module (the importers) is not
  // fetched until the user opens a file.
  assert.deepEqual(log.requests.filter((u) => /tpsview-worker|loader-worker/.test(u)), []);
  await page.setInputFiles('[data-testid=file-input]', fixture('vllm/detailed-small.json'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  const foreign = log.requests.filter((u) => !u.startsWith(server.origin + '/'));
  assert.deepEqual(foreign, []);
  const paths = new Set(log.requests.map((u) => new URL(u).pathname.replace(/-[0-9a-f]{12,16}(?=[._])/, '-HASH')));
  const allowed = new Set(['/', '/app-HASH.css', '/favicon-HASH.svg', '/boot-HASH.js', '/init-HASH.js',
    '/samples/h100-llama70b-fp8.tpsview.json', '/tpsview-web-HASH.js', '/tpsview-web-HASH_bg.wasm',
    '/loader-worker-HASH.js', '/tpsview-worker-HASH.js', '/tpsview-worker-HASH_bg.wasm']);
  assert.deepEqual([...paths].filter((p) => !allowed.has(p)), []);
  assert.ok(paths.has('/tpsview-web-HASH_bg.wasm') && paths.has('/samples/h100-llama70b-fp8.tpsview.json'));
  assert.ok(paths.has('/tpsview-worker-HASH_bg.wasm'), 'the file was read by the worker module, named by its hash');
  // The teaching screens' module is fetched only when one of them opens, and then by its hashes.
  assert.deepEqual(log.requests.filter((u) => /teach/.test(u)), []);
  await page.click('a[href="#glossary"]');
  await page.waitForFunction(() => document.getElementById('teach')?.dataset.ready === 'true' && document.querySelector('.glossary-page'));
  const teach = log.requests.filter((u) => /teach/.test(u)).map((u) => new URL(u).pathname.replace(/-[0-9a-f]{16}(?=[._])/, '-HASH'));
  assert.deepEqual(teach.sort(), ['/teach-boot-HASH.js', '/tpsview-teach-HASH.js', '/tpsview-teach-HASH_bg.wasm']);
  // Back to the viewer and to another teaching screen: the module is not fetched again.
  await page.evaluate(() => { location.hash = '#viewer'; });
  await page.locator('main[data-testid=viewer]').waitFor();
  await page.evaluate(() => { location.hash = '#claim'; });
  await page.waitForFunction(() => document.getElementById('teach')?.dataset.ready === 'true' && document.querySelector('.claim-page'));
  assert.equal(log.requests.filter((u) => /teach/.test(u)).length, 3);
  await page.close();
});
