// How the viewer feels: drop and paste load files, dark theme, a phone-sized screen, a high-DPI
// screen, and keyboard reachability with accessible names. Screenshots go to target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, open, tableRows, fixture, shots, settled, drawnAtSize } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

/** Everything loaded, computed and drawn at the page's current size. */
const ready = (page) => drawnAtSize(page);

test('dropping a file anywhere on the page loads it', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await ready(page);
  const text = await readFile(fixture('vllm/detailed-small.json'), 'utf8');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    document.querySelector('.viewer-page').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  assert.match(await page.textContent('.diagnostics-list'), /dropped\.json — vLLM bench serve result/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('pasted JSON loads like a file', async () => {
  const { page } = await open(context, server.origin + '/');
  await ready(page);
  await page.click('[data-testid=more] summary');
  await page.click('text=…or paste JSON');
  await page.fill('textarea[aria-label="benchmark JSON"]', await readFile(fixture('vllm/summary-only-c16.json'), 'utf8'));
  await page.click('text=Load pasted JSON');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 1);
  await settled(page);
  const [row] = await tableRows(page);
  assert.equal(row.system_tps, 720);
  assert.match(await page.getAttribute('[data-metric=system_tps]', 'title'), /as reported/);
  await page.close();
});

test('dark theme follows the system setting', async () => {
  const { page } = await open(context, server.origin + '/');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await ready(page);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(11, 18, 32)');
  // The chart's own background is dark too.
  const px = await page.$eval('[data-testid=chart-throughput]', (c) => Array.from(c.getContext('2d').getImageData(2, 2, 1, 1).data));
  assert.ok(px[0] < 60 && px[1] < 60 && px[2] < 80, `chart background ${px}`);
  await page.screenshot({ path: path.join(shots, 'dark.png') });
  await page.close();
});

test('a phone-sized screen keeps the layout intact', async () => {
  const { page } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 390, height: 844 });
  await ready(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await page.screenshot({ path: path.join(shots, 'phone.png'), fullPage: false });
  await page.close();
});

test('canvases are sharp on a high-DPI screen', async () => {
  const p = await context.newPage();
  // A persistent context fixes the scale factor at launch; emulate 2× through the DevTools protocol.
  const cdp = await context.newCDPSession(p);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 2, mobile: false });
  await p.goto(server.origin + '/');
  await ready(p);
  const [w, css] = await p.$eval('[data-testid=chart-throughput]', (c) => [c.width, c.clientWidth]);
  assert.equal(w, css * 2);
  await p.close();
});

test('every control is reachable by keyboard and has an accessible name', async () => {
  const { page } = await open(context, server.origin + '/');
  await ready(page);
  const seen = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => {
      const el = document.activeElement;
      const name = el.getAttribute('aria-label') || el.labels?.[0]?.textContent?.trim() || el.textContent?.trim() || '';
      return `${el.tagName.toLowerCase()}:${name.slice(0, 40)}`;
    }));
  }
  assert.ok(seen.every((s) => !s.endsWith(':')), `a control without a name: ${seen.join(' | ')}`);
  for (const want of ['input:Open benchmark files', 'select:load a sample report', 'button:Clear', 'a:Learn', 'a:Glossary', 'canvas:system and per-stream tokens per second']) {
    assert.ok(seen.some((s) => s.startsWith(want)), `${want} not reached: ${seen.join(' | ')}`);
  }
  await page.close();
});
