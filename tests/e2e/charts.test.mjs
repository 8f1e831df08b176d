// The charts in a real headless Chromium: all four drawn, tooltips with the table's exact values,
// keyboard stepping, series and axis toggles, the timeline's level picker. Screenshots go to
// target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, open, tableRows, shots, settled } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

/** Distinct colours sampled from a canvas: a drawn chart has many. */
const colours = (page, id) => page.$eval(`[data-testid=chart-${id}]`, (c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 32) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
  return seen.size;
});

async function sample() {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  for (const id of ['throughput', 'latency', 'interactivity', 'timeline']) {
    assert.equal(await page.getAttribute(`[data-testid=chart-${id}]`, 'data-drawn'), 'true', id);
  }
  return { page, log };
}

test('all four charts are drawn, sharp on a high-DPI screen', async () => {
  const { page, log } = await sample();
  for (const id of ['throughput', 'latency', 'interactivity', 'timeline']) {
    assert.ok(await colours(page, id) > 8, `${id} looks blank`);
    const [w, cssW] = await page.$eval(`[data-testid=chart-${id}]`, (c) => [c.width, c.clientWidth]);
    assert.equal(w, Math.round(cssW * (await page.evaluate(() => devicePixelRatio))), `${id} backing store`);
  }
  await page.screenshot({ path: path.join(shots, 'charts.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('charts are drawn again at their new size when the window is resized', async () => {
  const { page } = await sample();
  const sizes = () => page.$$eval('canvas.chart-canvas', (cs) => cs.map((c) => [c.width, c.clientWidth]));
  const before = await sizes();
  await page.setViewportSize({ width: 900, height: 900 });
  await page.waitForFunction(() => [...document.querySelectorAll('canvas.chart-canvas')]
    .every((c) => c.width === Math.round(c.clientWidth * devicePixelRatio)));
  const after = await sizes();
  assert.equal(after.length, 4);
  assert.ok(after.every(([w], i) => w < before[i][0]), JSON.stringify({ before, after }));
  await page.close();
});

test('hovering a chart shows a tooltip with the exact values of every series', async () => {
  const { page, log } = await sample();
  const canvas = page.locator('[data-testid=chart-throughput]');
  // The answer comes first: the chart may start below the fold, and a pointer only reaches what
  // is on screen.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.3);
  const tip = page.locator('[data-testid=chart-tooltip]');
  await tip.waitFor();
  const title = await tip.locator('.chart-tooltip-title').textContent();
  const level = title.match(/^concurrency (\d+)$/)[1];
  const rows = await tableRows(page);
  const row = rows.find((r) => r.concurrency === level);
  const values = await tip.locator('td').evaluateAll((tds) => tds.map((t) => Number(t.dataset.value)));
  assert.deepEqual(values, [row.system_tps, row.per_stream_tps]);
  await page.screenshot({ path: path.join(shots, 'hover.png') });
  await page.mouse.move(0, 0);
  await tip.waitFor({ state: 'detached' });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('arrow keys step the tooltip through the levels', async () => {
  const { page } = await sample();
  await page.focus('[data-testid=chart-latency]');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const tip = page.locator('[data-testid=chart-tooltip]');
  assert.equal(await tip.locator('.chart-tooltip-title').textContent(), 'concurrency 64');
  const rows = await tableRows(page);
  const r64 = rows.find((r) => r.concurrency === '64');
  const values = await tip.locator('td').evaluateAll((tds) => tds.map((t) => Number(t.dataset.value)));
  assert.equal(values[0], r64.tpot_mean_ms);
  assert.equal(values[1], r64.ttft_mean_ms);
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'detached' });
  await page.close();
});

test('series and axis toggles change what is drawn', async () => {
  const { page } = await sample();
  const draws = async () => Number(await page.getAttribute('[data-testid=chart-throughput]', 'data-draws'));
  const drawsBefore = await draws();
  // Keys pressed right after a toggle, while the chart's redraw is still pending, are kept: the
  // tooltip they open survives the redraw and shows only the series left.
  await page.uncheck('[data-testid=chart-controls] input[data-series="per-stream T/s"]');
  await page.focus('[data-testid=chart-throughput]');
  await page.keyboard.press('ArrowRight');
  await settled(page);
  assert.ok(await draws() > drawsBefore, 'the chart was drawn again after the toggle');
  const tip = page.locator('[data-testid=chart-tooltip]');
  assert.equal(await tip.count(), 1, 'the tooltip opened by the key survives the redraw');
  assert.equal(await tip.locator('td').count(), 1, 'only system T/s is left');
  assert.match(await tip.locator('th').textContent(), /system T\/s$/);
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'detached' });
  // Linear axis: the same pixel now lies at a different concurrency.
  await page.locator('[data-testid=chart-throughput]').scrollIntoViewIfNeeded();
  const box = await page.locator('[data-testid=chart-throughput]').boundingBox();
  const at = async () => {
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
    const t = await tip.locator('.chart-tooltip-title').textContent();
    await page.mouse.move(0, 0);
    return t;
  };
  const logTitle = await at();
  const before = await page.$eval('[data-testid=chart-throughput]', (c) => c.toDataURL());
  await page.getByLabel('linear concurrency axis').check();
  // Charts redraw in a task of their own: wait for the page to have drawn the new axis.
  await settled(page);
  assert.notEqual(await page.$eval('[data-testid=chart-throughput]', (c) => c.toDataURL()), before);
  const linTitle = await at();
  assert.notEqual(logTitle, linTitle);
  await page.close();
});

test('the timeline shows the chosen level with its steady window', async () => {
  const { page } = await sample();
  const select = page.locator('[data-testid=timeline-point]');
  assert.equal(await select.locator('option').count(), 4);
  assert.match(await select.locator('option:checked').textContent(), /concurrency 128$/);
  const before = await page.$eval('[data-testid=chart-timeline]', (c) => c.toDataURL());
  await select.selectOption({ label: 'H100 SXM · Llama 3.1 70B FP8 (simulated) — concurrency 16' });
  await settled(page);
  assert.notEqual(await page.$eval('[data-testid=chart-timeline]', (c) => c.toDataURL()), before);
  await page.locator('[data-testid=chart-timeline]').scrollIntoViewIfNeeded();
  const box = await page.locator('[data-testid=chart-timeline]').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const tip = page.locator('[data-testid=chart-tooltip]');
  await tip.waitFor();
  assert.match(await tip.locator('.chart-tooltip-title').textContent(), /^request \d+ \(row \d+\)$/);
  assert.match(await tip.textContent(), /TTFT \(ms\).*decode \(ms\)/);
  await page.screenshot({ path: path.join(shots, 'timeline.png') });
  await page.close();
});

test('a switch to the dark scheme after load redraws every chart as a page opened dark draws it', async () => {
  // What each chart's canvas holds, hashed: the same drawing gives the same bits.
  const pixels = (page, id) => page.$eval(`[data-testid=chart-${id}]`, (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 2166136261;
    for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619) >>> 0;
    return `${c.width}x${c.height}:${h}`;
  });
  const ids = ['throughput', 'latency', 'interactivity', 'timeline'];
  const dark = await context.newPage();
  await dark.emulateMedia({ colorScheme: 'dark' });
  await dark.setViewportSize({ width: 1280, height: 800 });
  await dark.goto(server.origin + '/');
  await settled(dark);
  const want = {};
  for (const id of ids) {
    assert.equal(await dark.getAttribute(`[data-testid=chart-${id}]`, 'data-scheme'), 'dark', id);
    want[id] = await pixels(dark, id);
  }
  await dark.close();
  const { page, log } = await sample();
  await page.setViewportSize({ width: 1280, height: 800 });
  await settled(page);
  const light = {};
  for (const id of ids) {
    assert.equal(await page.getAttribute(`[data-testid=chart-${id}]`, 'data-scheme'), 'light', id);
    light[id] = await pixels(page, id);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const id of ids) {
    await page.waitForSelector(`[data-testid=chart-${id}][data-scheme=dark]`);
  }
  await settled(page);
  for (const id of ids) {
    const now = await pixels(page, id);
    assert.notEqual(now, light[id], `${id} still light`);
    assert.equal(now, want[id], `${id} differs from a page opened dark`);
  }
  await page.screenshot({ path: path.join(shots, 'charts-switched-dark.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});
