// The prerendered first view (issue 30): index.html carries the built-in example's answer, chart
// (SVG) and table, rendered ahead of time by the same components (src/prerender.rs). With
// JavaScript off it is what the page shows; with the app's wasm held back it is on screen before
// any wasm arrives; once the app has replaced it, the live page's figures are the prerendered ones
// and the chart is where it was (no layout jump). Opened with someone else's data (`?src=`, a
// shared link's bundle, runs kept in this browser) the example's figures never show.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, launchNoJs, open, root, shots, cliSummary, cliValue, tableRows, settled, axe } from './harness.mjs';

let server, context, noJs;
before(async () => {
  server = await serve();
  context = await launch();
  noJs = await launchNoJs();
});
after(async () => { await noJs?.close(); await context?.close(); await server?.close(); });

/** The answer's figures and the table's, as the elements carry them (`data-value`). */
async function figures(page) {
  const cards = await page.$$eval('[data-testid=run-answer] [data-testid^=kpi-][data-value]',
    (els) => els.map((e) => [e.dataset.testid, e.dataset.value, e.dataset.concurrency ?? null]));
  return { cards, rows: await tableRows(page) };
}

/** The throughput chart's box, relative to the page. */
const chartBox = (page) => page.$eval('[data-testid=chart-throughput]', (e) => {
  const r = e.getBoundingClientRect();
  return { top: r.top + scrollY, left: r.left, width: r.width, height: r.height };
});

/** Opens the page with the app's wasm held back until `release()` is called. */
async function held(url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  let release;
  const gate = new Promise((r) => { release = r; });
  let asked = false;
  await page.route('**/tpsview-web-*_bg.wasm', async (route) => { asked = true; await gate; await route.continue(); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return { page, errors, release: () => release(), asked: () => asked };
}

test('with JavaScript off the page shows the example’s answer, its chart as SVG above the fold and the table, with the CLI’s figures', async () => {
  for (const [width, height, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
    const page = await noJs.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(server.origin + '/');
    const chart = page.locator('[data-testid=chart-throughput]');
    assert.equal(await chart.getAttribute('data-static'), 'true');
    assert.equal(await chart.getAttribute('data-drawn'), 'true');
    // One of its four drawings shows: light, at this screen's size (the phone's own on a phone).
    const shown = page.locator('[data-testid=chart-throughput] svg:visible');
    assert.equal(await shown.count(), 1, 'one drawing shows');
    assert.ok(await page.locator(`[data-testid=chart-throughput] .chart-static-light.chart-static-${name === 'phone' ? 'narrow' : 'wide'} svg`).isVisible(),
      `the light drawing at the ${name}'s size`);
    const [vw, vh] = (await shown.getAttribute('viewBox')).split(' ').slice(2).map(Number);
    const box = await shown.boundingBox();
    assert.ok(Math.abs(vw / vh - box.width / box.height) < 0.05 * (vw / vh), `the drawing (${vw}×${vh}) fits its box (${box.width}×${box.height}) without bands`);
    assert.ok(await page.isVisible('[data-testid=kpi-peak-system]'));
    if (name === 'desktop') {
      const box = await chartBox(page);
      assert.ok(box.top < height, `the chart starts above the fold at ${width}×${height} (at ${box.top} px)`);
    }
    // The figures are the CLI's, computed from the sample file itself.
    const cli = cliSummary(path.join(root, 'public/samples/h100-llama70b-fp8.tpsview.json'));
    const rows = await tableRows(page);
    assert.deepEqual(rows.map((r) => r.concurrency), cli.runs[0].points.map((p) => String(p.concurrency)));
    cli.runs[0].points.forEach((p, i) => {
      for (const m of ['system_tps', 'per_stream_tps', 'tpot_mean_ms', 'tpot_p99_ms', 'ttft_mean_ms', 'e2e_mean_ms', 'requests_ok']) {
        assert.equal(rows[i][m], cliValue(p, m), `${m} at ${p.concurrency}`);
      }
    });
    const peak = Math.max(...cli.runs[0].points.map((p) => p.system_tps));
    assert.equal(Number(await page.getAttribute('[data-testid=kpi-peak-system]', 'data-value')), peak);
    assert.match(await page.textContent('#boot-status'), /needs JavaScript and WebAssembly/);
    assert.deepEqual(await page.$$eval('script', (s) => s.length), 2, 'boot.js and the app\'s start, neither run');
    await page.screenshot({ path: path.join(shots, `first-view-nojs-${name}.png`) });
    await page.close();
  }
});

test('the first view is on screen before any wasm arrives, and the live app replaces it with the same figures where it was', async () => {
  for (const [width, height, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
    const { page, errors, release, asked } = await held(server.origin + '/');
    await page.setViewportSize({ width, height });
    await page.waitForSelector('#boot [data-testid=chart-throughput][data-static=true] svg:visible');
    assert.equal(await page.locator('#app [data-testid=viewer]').count(), 0, 'no app yet');
    assert.match(await page.textContent('#boot-status'), /Loading the interactive viewer/);
    const before = await figures(page);
    const boxBefore = await chartBox(page);
    assert.ok(before.cards.length >= 2 && before.rows.length === 4, `cards and rows in the first view: ${JSON.stringify(before)}`);
    if (name === 'desktop') {
      assert.deepEqual(await axe(page), [], 'the first view passes axe');
      await page.screenshot({ path: path.join(shots, 'first-view-static.png') });
    }
    release();
    await page.waitForFunction(() => !document.getElementById('boot'));
    await settled(page);
    assert.ok(asked(), 'the app asked for its wasm');
    assert.equal(await page.getAttribute('[data-testid=chart-throughput]', 'data-static'), null, 'the live chart (a canvas)');
    assert.equal(await page.getAttribute('[data-testid=viewer]', 'data-ready'), 'true');
    const after = await figures(page);
    assert.deepEqual(after, before, 'the live app shows the first view\'s figures');
    const boxAfter = await chartBox(page);
    for (const k of ['top', 'left', 'width', 'height']) {
      assert.ok(Math.abs(boxAfter[k] - boxBefore[k]) <= 1, `the chart's ${k} did not move at ${width}×${height}: ${boxBefore[k]} → ${boxAfter[k]}`);
    }
    if (name === 'desktop') await page.screenshot({ path: path.join(shots, 'first-view-live.png') });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('in dark mode the first view draws its dark chart', async () => {
  const { page, release } = await held(server.origin + '/');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForSelector('#boot .chart-static-dark.chart-static-wide', { state: 'visible' });
  assert.equal(await page.locator('#boot [data-testid=chart-throughput] svg:visible').count(), 1, 'only the dark desktop drawing');
  assert.deepEqual(await axe(page), []);
  await page.screenshot({ path: path.join(shots, 'first-view-dark.png') });
  release();
  await page.waitForFunction(() => !document.getElementById('boot'));
  await page.close();
});

test('opened with someone else’s data or another screen, the example’s figures never show', async () => {
  // ?src= names another file; #learn is another screen.
  for (const url of ['/?src=samples/cpu-probe.tpsview.json', '/#learn/2']) {
    const { page, release } = await held(server.origin + url);
    await page.waitForSelector('#boot-status');
    assert.equal(await page.locator('#boot main').count(), 0, `${url}: the example's answer is gone at once`);
    assert.equal(await page.locator('[data-testid=kpi-peak-system]').count(), 0);
    assert.ok(await page.isVisible('#boot header'), 'its header shows while the app loads');
    release();
    await page.waitForFunction(() => !document.getElementById('boot'));
    await settled(page);
    await page.close();
  }
  // The ?src= file is what the page shows, not the example.
  const { page } = await open(context, server.origin + '/?src=samples/cpu-probe.tpsview.json');
  await settled(page);
  assert.doesNotMatch(await page.textContent('main'), /Llama 3\.1 70B/);
  await page.close();
  // Runs kept in this browser.
  const kept = await context.newPage();
  await kept.addInitScript(() => localStorage.setItem('tpsview.kept-runs', '{"format":"tpsview/1","runs":[]}'));
  await kept.route('**/tpsview-web-*_bg.wasm', (r) => r.abort());
  await kept.goto(server.origin + '/', { waitUntil: 'domcontentloaded' });
  assert.equal(await kept.locator('#boot main').count(), 0, 'kept runs: the example does not show');
  await kept.evaluate(() => localStorage.removeItem('tpsview.kept-runs'));
  await kept.close();
});
