// Comparing and sharing in a real headless Chromium: two runs on the same axes, the diff table
// against `tpsview compare --json`, hiding a run from the legend, the permalink and the inline
// link in fresh pages, the exported bundle re-opened, PNG/SVG/CSV downloads, and keeping runs in
// the browser only when asked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, open, cliSummary, cliCompare, cliValue, tableRows, fixture, shots, settled } from './harness.mjs';

const BEFORE = fixture('compare/before.tpsview.json');
const AFTER = fixture('compare/after.tpsview.json');
const AFTER_LABEL = 'after: <i>chunked prefill</i>, max_num_seqs 256';

let server, context;
before(async () => {
  server = await serve({
    '/fx/before.json': [200, 'application/json', await readFile(BEFORE)],
    '/fx/after.json': [200, 'application/json', await readFile(AFTER)],
  });
  context = await launch();
});
after(async () => { await context?.close(); await server?.close(); });

async function loadTwo(page) {
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', [BEFORE, AFTER]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await page.waitForSelector('[data-testid=diff-table]');
  await settled(page);
}

/** Every diff cell, keyed `run|concurrency|metric`. */
async function diffCells(page) {
  return page.$$eval('[data-testid=diff-cell]', (cells) => Object.fromEntries(cells.map((c) => [
    `${c.closest('tr').dataset.run}|${c.closest('tr').dataset.concurrency}|${c.dataset.metric}`,
    { ratio: c.dataset.ratio === '' ? null : Number(c.dataset.ratio), interpolated: c.dataset.interpolated === 'true' },
  ])));
}

function assertDiffEqualsCli(cells, cli) {
  let n = 0;
  for (const run of cli.runs) {
    for (const row of run.rows) {
      for (const c of row.cells) {
        const got = cells[`${run.label}|${row.concurrency}|${c.metric}`];
        assert.ok(got, `${run.label} ${row.concurrency} ${c.metric} missing`);
        assert.equal(got.ratio, c.ratio, `${row.concurrency} ${c.metric}`);
        assert.equal(got.interpolated, c.interpolated);
        n++;
      }
    }
  }
  assert.equal(Object.keys(cells).length, n);
}

/** Pixels of a colour (±6 per channel) on a canvas. */
async function pixelsOf(page, testid, rgb) {
  return page.$eval(`[data-testid=${testid}]`, (c, rgb) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - rgb[0]) < 7 && Math.abs(d[i + 1] - rgb[1]) < 7 && Math.abs(d[i + 2] - rgb[2]) < 7) n++;
    }
    return n;
  }, rgb);
}

test('two runs: two series on the charts, a diff table equal to tpsview compare --json, a run hidden from the legend', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await loadTwo(page);
  assertDiffEqualsCli(await diffCells(page), cliCompare([BEFORE, AFTER]));
  // Level 8 is not in the baseline: interpolated, and shown with ~.
  const c8 = page.locator(`[data-testid=diff-table] tr[data-concurrency="8"] [data-testid=diff-cell][data-metric=system_tps]`);
  assert.equal(await c8.getAttribute('data-interpolated'), 'true');
  assert.match(await c8.textContent(), /^~[+−]\d/);
  // The second run's colour is on the throughput chart; hiding it from the legend removes it.
  const swatch = await page.$$eval('.run-legend-swatch', (s) => s.map((x) => getComputedStyle(x).backgroundColor));
  const rgb = swatch[1].match(/\d+/g).slice(0, 3).map(Number);
  const shown = await pixelsOf(page, 'chart-throughput', rgb);
  assert.ok(shown > 200, `only ${shown} pixels of the second run`);
  await page.click(`[data-testid=legend-run][data-run="${AFTER_LABEL}"]`);
  await page.waitForFunction((l) => document.querySelector(`[data-testid=legend-run][data-run="${l}"]`).getAttribute('aria-pressed') === 'false', AFTER_LABEL);
  await settled(page);
  const hidden = await pixelsOf(page, 'chart-throughput', rgb);
  assert.ok(hidden < shown / 10, `${hidden} pixels left of ${shown}`);
  await page.screenshot({ path: path.join(shots, 'compare.png'), fullPage: true });
  // Shown again.
  await page.click(`[data-testid=legend-run][data-run="${AFTER_LABEL}"]`);
  await page.waitForFunction((l) => document.querySelector(`[data-testid=legend-run][data-run="${l}"]`).getAttribute('aria-pressed') === 'true', AFTER_LABEL);
  // Removing a run drops it everywhere.
  await page.click(`[data-testid=remove-run][data-run="${AFTER_LABEL}"]`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 1);
  assert.equal(await page.locator('[data-testid=diff-table]').count(), 0);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('two runs with one label (their models differ) are named, hidden and removed one at a time', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const text = (await readFile(BEFORE, 'utf8'));
  await page.setInputFiles('[data-testid=file-input]', [
    { name: 'llama.json', mimeType: 'application/json', buffer: Buffer.from(text) },
    { name: 'qwen.json', mimeType: 'application/json', buffer: Buffer.from(text.replaceAll('Llama-3.1-8B', 'Qwen3-8B')) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(page);
  const label = 'before: vLLM 0.11 defaults';
  const ids = await page.$$eval('[data-testid=legend-run]', (b) => b.map((x) => x.dataset.run));
  assert.deepEqual(ids, [`${label} · Llama-3.1-8B`, `${label} · Qwen3-8B`]);
  // The same data twice: the second run's line lies on the first's, so pixels of the first colour
  // are counted with the second hidden; hiding the second must not hide the first.
  const swatch = await page.$$eval('.run-legend-swatch', (s) => s.map((x) => getComputedStyle(x).backgroundColor.match(/\d+/g).slice(0, 3).map(Number)));
  await page.click(`[data-testid=legend-run][data-run="${ids[1]}"]`);
  await page.waitForFunction((l) => document.querySelector(`[data-testid=legend-run][data-run="${l}"]`).getAttribute('aria-pressed') === 'false', ids[1]);
  await settled(page);
  assert.equal(await page.getAttribute(`[data-testid=legend-run][data-run="${ids[0]}"]`, 'aria-pressed'), 'true');
  assert.ok(await pixelsOf(page, 'chart-throughput', swatch[0]) > 200, 'the first run is still drawn');
  assert.ok(await pixelsOf(page, 'chart-throughput', swatch[1]) < 20, 'the second run is hidden');
  // Removing the second leaves the first, now named by its label alone.
  await page.click(`[data-testid=remove-run][data-run="${ids[1]}"]`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 1);
  assert.equal(await page.getAttribute('[data-testid=legend-run]', 'data-run'), label);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('per GPU: a missing GPU count is asked for, and the diff follows', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await loadTwo(page);
  await page.check('[data-testid=per-gpu]');
  const input = page.locator(`[data-testid=gpu-count][data-run="${AFTER_LABEL}"]`);
  await input.fill('2');
  await input.dispatchEvent('change');
  const cli = cliCompare([BEFORE, AFTER], ['--per-gpu', '--gpus', `${AFTER_LABEL}=2`]);
  await page.waitForFunction(() => document.querySelector('[data-testid=diff-table] caption').textContent.includes('per GPU'));
  await page.waitForFunction((r) => Number(document.querySelector('[data-testid=diff-table] tr[data-concurrency="16"] [data-testid=diff-cell][data-metric=system_tps]').dataset.ratio) === r,
    cli.runs[0].rows.find((r) => r.concurrency === 16).cells[0].ratio);
  assertDiffEqualsCli(await diffCells(page), cli);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a permalink opened in a fresh page restores the runs and the view', async () => {
  const { page, log } = await open(context, `${server.origin}/?src=/fx/before.json&src=/fx/after.json`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(page);
  await page.selectOption('[data-testid=baseline]', AFTER_LABEL);
  await page.selectOption('[data-testid=stat]', 'p99');
  await page.click('[data-testid=legend-run][data-run="before: vLLM 0.11 defaults"]');
  await page.check('.chart-controls input[type=checkbox] >> nth=0');
  await settled(page);
  await page.click('[data-testid=make-permalink]');
  const link = await page.inputValue('[data-testid=permalink]');
  assert.match(link, /\?src=%2Ffx%2Fbefore\.json&src=%2Ffx%2Fafter\.json&view=/);
  const expected = await diffCells(page);
  const fresh = await context.newPage();
  await fresh.goto(link);
  await fresh.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await fresh.waitForSelector('[data-testid=diff-table]');
  await settled(fresh);
  assert.equal(await fresh.inputValue('[data-testid=baseline]'), AFTER_LABEL);
  assert.equal(await fresh.inputValue('[data-testid=stat]'), 'p99');
  assert.equal(await fresh.getAttribute('[data-testid=legend-run][data-run="before: vLLM 0.11 defaults"]', 'aria-pressed'), 'false');
  assert.equal(await fresh.isChecked('.chart-controls input[type=checkbox] >> nth=0'), true);
  assert.deepEqual(await diffCells(fresh), expected);
  assert.deepEqual(expected, await diffCells(page));
  assert.deepEqual(log.errors, []);
  await fresh.close();
  await page.close();
});

test('an exported bundle re-opens as it was; the inline link too', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await loadTwo(page);
  await page.selectOption('[data-testid=baseline]', AFTER_LABEL);
  await page.check('[data-testid=per-gpu]');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-bundle]')]);
  assert.equal(dl.suggestedFilename(), 'tpsview-bundle.tpsview.json');
  const file = await dl.path();
  const text = await readFile(file, 'utf8');
  assert.match(text, /^\{"view":\{"baseline":"after: <i>chunked prefill<\/i>, max_num_seqs 256","per_gpu":true\},"format":"tpsview\/1"/);
  const rows = await tableRows(page);
  const cells = await diffCells(page);
  // The bundle in a fresh page: same rows, same baseline, same toggles, same diff.
  const fresh = await context.newPage();
  await fresh.goto(server.origin + '/');
  await settled(fresh);
  await fresh.setInputFiles('[data-testid=file-input]', { name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await fresh.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(fresh);
  assert.deepEqual(await tableRows(fresh), rows);
  assert.equal(await fresh.inputValue('[data-testid=baseline]'), AFTER_LABEL);
  assert.equal(await fresh.isChecked('[data-testid=per-gpu]'), true);
  assert.deepEqual(await diffCells(fresh), cells);
  // The bundle is a tpsview/1 report the CLI reads with the same figures.
  const cli = cliSummary(file);
  assert.equal(cli.runs.length, 2);
  for (const [i, p] of cli.runs[0].points.entries()) assert.equal(rows[i].system_tps, cliValue(p, 'system_tps'));
  await fresh.close();
  // Inline link: the data compressed into the fragment.
  await page.click('[data-testid=make-inline-link]');
  await page.waitForSelector('[data-testid=inline-link]');
  const link = await page.inputValue('[data-testid=inline-link]');
  assert.match(link, /#bundle=[A-Za-z0-9_-]+$/);
  assert.ok(link.length < text.length, `link ${link.length} chars, bundle ${text.length}`);
  const viaLink = await context.newPage();
  await viaLink.goto(link);
  await viaLink.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(viaLink);
  assert.deepEqual(await tableRows(viaLink), rows);
  assert.equal(await viaLink.inputValue('[data-testid=baseline]'), AFTER_LABEL);
  assert.equal(await viaLink.evaluate(() => location.hash), '#viewer');
  await viaLink.close();
  assert.equal(await page.getAttribute('[data-testid=inline-link]', 'data-kind'), 'full');
  // Copy puts the link on the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await page.click('[data-testid=copy-inline-link]');
  await page.waitForFunction(() => document.querySelector('[data-testid=copy-inline-link-status]').textContent === 'Copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  // With the big sample the requests do not fit: the link carries the per-level figures, says
  // so, and opens with the same figures.
  await page.selectOption('select[aria-label="load a sample report"]', { index: 1 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 3);
  await settled(page);
  const all = await tableRows(page);
  await page.click('[data-testid=make-inline-link]');
  await page.waitForFunction(() => document.querySelector('[data-testid=inline-link]')?.dataset.kind === 'figures');
  assert.match(await page.textContent('[data-testid=inline-link-kind]'), /per-level figures, not the requests/);
  const slim = await page.inputValue('[data-testid=inline-link]');
  const viaSlim = await context.newPage();
  await viaSlim.goto(slim);
  await viaSlim.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 3);
  await settled(viaSlim);
  const back = await tableRows(viaSlim);
  assert.equal(back.length, all.length);
  for (const [i, r] of all.entries()) {
    for (const m of ['system_tps', 'per_stream_tps', 'tpot_mean_ms', 'ttft_mean_ms']) {
      assert.ok(r[m] === back[i][m] || Math.abs(r[m] - back[i][m]) <= 1e-12 * Math.abs(r[m]), `${m} row ${i}: ${r[m]} vs ${back[i][m]}`);
    }
  }
  await viaSlim.close();
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a URL typed in the page loads like ?src=, and the permalink carries it', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.click('[data-testid=more] summary');
  await page.fill('[data-testid=url-input]', server.origin + '/fx/before.json');
  await page.click('[data-testid=url-load]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=legend-run]')].some((b) => b.dataset.run === 'before: vLLM 0.11 defaults'));
  await settled(page);
  await page.click('[data-testid=make-permalink]');
  const link = await page.inputValue('[data-testid=permalink]');
  assert.ok(new URL(link).searchParams.getAll('src').includes(server.origin + '/fx/before.json'), link);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('PNG, SVG and CSV downloads hold the charts and the figures', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await loadTwo(page);
  const grab = async (testid) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
    return { name: dl.suggestedFilename(), bytes: await readFile(await dl.path()) };
  };
  const png = await grab('export-png-throughput');
  assert.equal(png.name, 'tpsview-throughput.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // Drawn afresh at 2× (1000 × 620 CSS pixels), not a copy of the page's canvas.
  const [w, h] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
  assert.deepEqual([w, h], [2000, 1240]);
  assert.ok(png.bytes.length > 10_000, `${png.bytes.length} bytes`);
  const svg = await grab('export-svg-latency');
  assert.equal(svg.name, 'tpsview-latency.svg');
  const svgText = svg.bytes.toString('utf8');
  assert.match(svgText, /^<svg/);
  assert.ok(svgText.includes('before: vLLM 0.11 defaults'), 'run label in the SVG');
  assert.ok(svgText.includes('after: &lt;i&gt;chunked prefill&lt;/i&gt;'), 'label escaped in the SVG');
  assert.ok(svgText.includes('TPOT'));
  // Its provenance: what it shows, the runs, the files, the date, tpsview.
  const today = new Date().toISOString().slice(0, 10);
  assert.ok(svgText.includes(`latency chart · before: vLLM 0.11 defaults (Llama-3.1-8B)`), 'provenance names the chart and run');
  assert.ok(svgText.includes('before.tpsview.json') && svgText.includes(`exported ${today} by tpsview`), 'files and date');
  const csv = (await grab('export-csv-summary')).bytes.toString('utf8').trim().split('\n');
  const head = csv[0].split(',');
  assert.deepEqual(head.slice(0, 4), ['run', 'concurrency', 'request_rate', 'basis']);
  const cli = cliSummary(BEFORE, AFTER);
  const first = csv[1].split(',');
  assert.equal(first[0], 'before: vLLM 0.11 defaults');
  assert.equal(Number(first[head.indexOf('system_tps')]), cli.runs[0].points[0].system_tps);
  assert.equal(csv.length, 1 + cli.runs.reduce((a, r) => a + r.points.length, 0));
  const diff = (await grab('export-csv-diff')).bytes.toString('utf8').trim().split('\n');
  assert.equal(diff[0], 'run,baseline,concurrency,metric,value,baseline_value,ratio,change_pct,interpolated');
  const cmp = cliCompare([BEFORE, AFTER]);
  const line = diff.find((l) => l.includes(',8,system_tps,'));
  assert.equal(Number(line.split(',').at(-3)), cmp.runs[0].rows.find((r) => r.concurrency === 8).cells[0].ratio);
  assert.ok(line.endsWith(',true'));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('runs are kept in the browser only when asked, and Forget all forgets them', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await loadTwo(page);
  // Not kept by default: a reload brings back the example.
  assert.equal(await page.isChecked('[data-testid=keep-runs]'), false);
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 1);
  await settled(page);
  await loadTwo(page);
  await page.click('[data-testid=more] summary');
  await page.check('[data-testid=keep-runs]');
  assert.match(await page.textContent('[data-testid=keep-status]'), /kept in this browser's storage/);
  await page.selectOption('[data-testid=baseline]', AFTER_LABEL);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(page);
  assert.equal(await page.isChecked('[data-testid=keep-runs]'), true);
  assert.match(await page.textContent('[data-testid=keep-status]'), /Restored/);
  assert.equal(await page.inputValue('[data-testid=baseline]'), AFTER_LABEL);
  await page.click('[data-testid=more] summary');
  await page.click('[data-testid=forget-all]');
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 1);
  await settled(page);
  assert.match(await page.textContent('[data-testid=legend-run]'), /H100 SXM/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the CPU sample measured with tpsview bench opens beside the simulated H100 example', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const options = await page.$$eval('select[aria-label="load a sample report"] option', (o) => o.map((x) => x.textContent));
  assert.ok(options.some((o) => /H100 SXM · Llama 3.1 70B FP8 \(simulated\)/.test(o)));
  assert.ok(options.some((o) => /measured with tpsview bench/.test(o)));
  await page.selectOption('select[aria-label="load a sample report"]', 'samples/cpu-llamacpp-sweep.tpsview.json');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=legend-run]').length === 2);
  await settled(page);
  const label = 'llama.cpp on 2 CPU cores · random 8×768 Llama (measured)';
  const rows = await tableRows(page, label);
  assert.deepEqual(rows.map((r) => r.concurrency), ['1', '2', '4', '8']);
  // The seed's phenomenon on a CPU: per-stream T/s falls, system T/s rises.
  assert.ok(rows[3].per_stream_tps < rows[0].per_stream_tps, JSON.stringify(rows));
  assert.ok(rows[3].system_tps > 2 * rows[0].system_tps, JSON.stringify(rows));
  assert.deepEqual(log.errors, []);
  await page.close();
});
