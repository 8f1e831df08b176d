// `tpsview report` (issue 30): one self-contained HTML file of two runs, opened from file:// with
// JavaScript off and every network request blocked — the answer cards, the throughput chart as
// SVG with its legend, the table, the other charts, the data's health and the tool definitions
// are there, their figures those of `tpsview summarize --json` on the same files, the data inside
// as tpsview/1, and nothing is fetched. Screenshots at 1280×800, 390×844 and dark; axe clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { root, shots, cliSummary, tableRows, axe, launch } from './harness.mjs';

const files = [
  path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json'),
  path.join(root, 'public', 'samples', 'cpu-llamacpp-sweep.tpsview.json'),
];
let out, context, withJs;

before(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-report-'));
  out = path.join(dir, 'report.html');
  const bin = path.join(root, 'target', 'debug', 'tpsview');
  execFileSync(bin, ['report', ...files, '-o', out], { encoding: 'utf8' });
  const profile = await mkdtemp(path.join(tmpdir(), 'tpsview-e2e-nojs-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  withJs = await launch();
});
after(async () => { await context?.close(); await withJs?.close(); });

/** Opens the report with every request but the file itself blocked; returns the page and the
 *  requests it tried. */
async function openReport(ctx) {
  const page = await ctx.newPage();
  const tried = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `file://${out}`) return route.continue();
    tried.push(url);
    return route.abort();
  });
  await page.goto(`file://${out}`);
  return { page, tried };
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
  assert.equal(await chart.locator('svg').count(), 2);
  assert.ok(await chart.locator('.chart-static-light svg').isVisible());
  assert.ok(!(await chart.locator('.chart-static-dark svg').isVisible()));
  assert.ok(await page.locator('[data-testid=chart-throughput-legend] li').count() >= 2);
  for (const id of ['latency', 'interactivity']) assert.equal(await page.locator(`[data-testid=chart-${id}] svg`).count(), 2, id);
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

test('the report allows no script and no connection, and is accessible, light and dark', async () => {
  const html = await readFile(out, 'utf8');
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.equal(csp, "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  assert.doesNotMatch(html, /<script(?![^>]*type="application\/json")/);
  for (const scheme of ['light', 'dark']) {
    const { page, tried } = await openReport(withJs);
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axe(page), [], scheme);
    assert.deepEqual(tried, []);
    if (scheme === 'dark') {
      // The dark drawing shows, the light one not.
      assert.ok(await page.locator('[data-testid=chart-throughput] .chart-static-dark svg').isVisible());
      assert.ok(!(await page.locator('[data-testid=chart-throughput] .chart-static-light svg').isVisible()));
      await page.locator('[data-testid=chart-throughput]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, 'report-dark.png') });
    }
    await page.close();
  }
});
