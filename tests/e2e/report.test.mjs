// `tpsview report` (issue 30): one self-contained HTML file of two runs, opened from file:// with
// JavaScript off and every network request blocked — the answer cards, the throughput chart as
// SVG with its legend, the table, the other charts, the data's health and the tool definitions
// are there, their figures those of `tpsview summarize --json` on the same files, the data inside
// as tpsview/1, and nothing is fetched. Screenshots at 1280×800, 390×844 and dark; axe clean.
// With JavaScript on, the viewer embedded in the same file starts from it with every request
// blocked and replaces the static body: the same figures, hover, toggles, and a file opened in
// it read by the embedded worker. `--static` writes no script at all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { root, shots, cliSummary, tableRows, axe, launch, launchNoJs, settled, fixture } from './harness.mjs';

const files = [
  path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json'),
  path.join(root, 'public', 'samples', 'cpu-llamacpp-sweep.tpsview.json'),
];
let out, outStatic, context, withJs;

before(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-report-'));
  out = path.join(dir, 'report.html');
  const bin = path.join(root, 'target', 'debug', 'tpsview');
  execFileSync(bin, ['report', ...files, '-o', out], { encoding: 'utf8' });
  outStatic = path.join(dir, 'report-static.html');
  execFileSync(bin, ['report', '--static', ...files, '-o', outStatic], { encoding: 'utf8' });
  context = await launchNoJs();
  withJs = await launch();
});
after(async () => { await context?.close(); await withJs?.close(); });

/** Opens the report with every request but the file itself blocked; returns the page and the
 *  requests it tried. */
async function openReport(ctx, file = out) {
  const page = await ctx.newPage();
  const tried = [];
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `file://${file}`) return route.continue();
    tried.push(url);
    return route.abort();
  });
  await page.goto(`file://${file}`);
  return { page, tried, errors };
}

test('opened from disk with JavaScript off, the report answers first with the CLI’s figures', async () => {
  const { page, tried } = await openReport(context);
  const s = cliSummary(...files);
  assert.equal(s.runs.length, 2);
  // Both runs answered (up to three are), each peak card the run's highest system T/s.
  assert.equal(await page.locator('[data-testid=run-answer]').count(), 2);
  for (const run of s.runs) {
    const card = page.locator(`[data-testid=run-answer][data-run="${run.label}"] [data-testid=kpi-peak-system]`);
    const peak = Math.max(...run.points.map((p) => p.system_tps ?? -Infinity));
    assert.ok(Math.abs(Number(await card.getAttribute('data-value')) - peak) <= 1e-9 * peak, run.label);
  }
  // The chart: SVG, drawn, static, with its legend; the other two charts too.
  const chart = page.locator('[data-testid=chart-throughput]');
  assert.equal(await chart.getAttribute('data-drawn'), 'true');
  assert.equal(await chart.getAttribute('data-static'), 'true');
  // Drawn light and dark; the stylesheet shows the light one here.
  // Light and dark, at a desktop's and at a phone's size: the light desktop one shows here.
  assert.equal(await chart.locator('svg').count(), 4);
  assert.ok(await chart.locator('.chart-static-light.chart-static-wide svg').isVisible());
  assert.equal(await chart.locator('svg:visible').count(), 1);
  assert.ok(await page.locator('[data-testid=chart-throughput-legend] li').count() >= 2);
  for (const id of ['latency', 'interactivity']) assert.equal(await page.locator(`[data-testid=chart-${id}] svg`).count(), 4, id);
  // Each chart with its provenance, as an export carries it: its runs and files, tpsview's version.
  const lines = await page.locator('[data-testid=chart-provenance]').allTextContents();
  assert.equal(lines.length, 3);
  for (const l of lines) {
    for (const run of s.runs) assert.ok(l.includes(run.label), `${run.label} in ${l}`);
    assert.match(l, /h100-llama70b-fp8\.tpsview\.json/);
    assert.match(l, /exported \d{4}-\d{2}-\d{2} by tpsview \d/);
  }
  // Every row of the table, each figure the CLI's.
  const rows = await tableRows(page);
  assert.equal(rows.length, s.runs.reduce((n, r) => n + r.points.length, 0));
  for (const run of s.runs) {
    const mine = rows.filter((r) => r.run === run.label);
    assert.equal(mine.length, run.points.length, run.label);
    mine.forEach((r, i) => {
      const want = run.points[i].system_tps;
      assert.ok(want === null ? r.system_tps === null : Math.abs(r.system_tps - want) <= 1e-9 * want, `${run.label} row ${i}`);
    });
  }
  // The answer before the chart, the chart before the table.
  const html = await readFile(out, 'utf8');
  const at = (needle) => html.indexOf(needle);
  assert.ok(at('data-testid="kpi-peak-system"') < at('data-testid="chart-throughput"'));
  assert.ok(at('data-testid="chart-throughput"') < at('data-testid="summary-row"'));
  // The data inside, as tpsview/1; how each tool defines its numbers; nothing fetched.
  const bundle = JSON.parse(await page.locator('#tpsview-bundle').textContent());
  assert.equal(bundle.format, "tpsview/1");
  assert.equal(bundle.runs.length, 2);
  assert.ok(await page.locator('#h-definitions').count() === 1);
  assert.deepEqual(tried, []);
  await page.screenshot({ path: path.join(shots, 'report-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, 'report-phone.png') });
  await page.close();
});

test('--static allows no script and no connection, and is accessible, light and dark', async () => {
  const html = await readFile(outStatic, 'utf8');
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.equal(csp, "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  assert.doesNotMatch(html, /<script(?![^>]*type="application\/json")/);
  for (const scheme of ['light', 'dark']) {
    const { page, tried } = await openReport(withJs, outStatic);
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axe(page), [], scheme);
    assert.deepEqual(tried, []);
    if (scheme === 'dark') {
      // The dark drawing shows, the light one not.
      assert.ok(await page.locator('[data-testid=chart-throughput] .chart-static-dark.chart-static-wide svg').isVisible());
      assert.equal(await page.locator('[data-testid=chart-throughput] svg:visible').count(), 1);
      await page.locator('[data-testid=chart-throughput]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, 'report-dark.png') });
    }
    await page.close();
  }
});

test('the embedded viewer starts from the file with no network: the same figures, hover, toggles, a file opened in it', async () => {
  const html = await readFile(out, 'utf8');
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  // Scripts only by hash (the two inline ones) and from the blob: URLs it makes; no connection
  // but to those; nothing from a network origin.
  const scripts = csp.match(/script-src ([^;]+)/)[1].split(' ');
  assert.equal(scripts.filter((s) => /^'sha256-[A-Za-z0-9+/=]+'$/.test(s)).length, 2, csp);
  assert.deepEqual(scripts.filter((s) => !s.startsWith("'sha256-")), ["'wasm-unsafe-eval'", 'blob:']);
  assert.match(csp, /connect-src blob: data:;/);
  assert.doesNotMatch(csp, /https?:|'self'|\*/);
  const { page, tried, errors } = await openReport(withJs);
  await page.waitForFunction(() => !document.getElementById('boot'));
  await settled(page);
  assert.equal(await page.getAttribute('main[data-testid=viewer]', 'data-ready'), 'true');
  // The live viewer (canvas charts), with the report's figures.
  assert.equal(await page.locator('canvas[data-testid=chart-throughput]').count(), 1);
  const s = cliSummary(...files);
  const rows = await tableRows(page);
  assert.equal(rows.length, s.runs.reduce((n, r) => n + r.points.length, 0));
  for (const run of s.runs) {
    rows.filter((r) => r.run === run.label).forEach((r, i) => {
      const want = run.points[i].system_tps;
      assert.ok(Math.abs(r.system_tps - want) <= 1e-9 * want, `${run.label} row ${i}`);
    });
  }
  // Hover: a tooltip at a level, its values the table's.
  const canvas = page.locator('[data-testid=chart-throughput]');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.3);
  const tip = page.locator('[data-testid=chart-tooltip]');
  await tip.waitFor();
  assert.match(await tip.locator('.chart-tooltip-title').textContent(), /^concurrency \d+$/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(shots, 'report-interactive.png') });
  // A toggle redraws.
  const draws = async () => Number(await canvas.getAttribute('data-draws'));
  const before = await draws();
  await page.uncheck('[data-testid=chart-controls] input[data-series="per-stream T/s"]');
  await settled(page);
  assert.ok(await draws() > before, 'the chart was drawn again after the toggle');
  // A file opened in the report is read by the embedded loading worker.
  await page.setInputFiles('[data-testid=file-input]', fixture('vllm/detailed-small.json'));
  await page.waitForFunction(() => document.querySelector('[data-testid=sources] summary')?.textContent.startsWith('Sources (2)'));
  await settled(page);
  assert.equal(await page.locator('[data-testid=load-error]').count(), 0);
  assert.equal((await tableRows(page)).length, rows.length + 1);
  // The teaching screens are a module of their own, loaded on first use: inside the report too,
  // from the file, on the report's runs.
  await page.evaluate(() => { location.hash = '#learn/1'; });
  await page.waitForFunction(() => document.getElementById('teach')?.dataset.ready === 'true' && document.querySelector('[data-testid=learn-step]'));
  const options = await page.locator('[data-testid=learn-run] option').allTextContents();
  for (const run of s.runs) assert.ok(options.includes(run.label), `the walkthrough offers ${run.label}: ${options}`);
  assert.equal(options.length, s.runs.length + 1, 'and the file opened in it');
  assert.ok(await page.locator('#teach-wait').isHidden());
  assert.deepEqual(tried, [], 'nothing was fetched');
  assert.deepEqual(errors, []);
  await page.close();
});
