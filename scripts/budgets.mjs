// Prints the viewer's speed figures in headless Chromium (a benchmark, never a test): navigation →
// first chart drawn (Performance API mark), and chart redraw times after a hover and after a
// series toggle (each canvas's data-draw-ms, set by the Chart component around its draw).
// Usage: node scripts/budgets.mjs   (after `trunk build --release`; scripts/budgets.sh does both)
import path from 'node:path';
import { serve, launch } from '../tests/e2e/harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
// A vLLM --save-detailed file of 10,000 requests (64 chunk gaps each, send times over ~100 s):
// the timeline's worst case.
function bigVllm(n = 10_000) {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const start = [], ttft = [], itls = [], out = [];
  for (let i = 0; i < n; i++) {
    start.push(i * 0.01);
    ttft.push(0.05 + rnd() * 0.2);
    itls.push(Array.from({ length: 64 }, () => 0.02 + rnd() * 0.01));
    out.push(65);
  }
  return JSON.stringify({ backend: 'vllm', model_id: 'big', max_concurrency: 64, duration: n * 0.01 + 3,
    completed: n, total_output_tokens: 65 * n, start_times: start, ttfts: ttft, itls, output_lens: out,
    input_lens: out.map(() => 100), errors: out.map(() => ''), mean_tpot_ms: 25 });
}
const server = await serve({ '/big.json': [200, 'application/json', bigVllm()] });
const context = await launch();
try {
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const page = await context.newPage();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => performance.getEntriesByName('tpsview-first-chart').length > 0);
    firsts.push(await page.evaluate(() => performance.getEntriesByName('tpsview-first-chart')[0].startTime));
    await page.close();
  }
  const page = await context.newPage();
  await page.goto(server.origin + '/');
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0'
    && document.querySelector('[data-testid=chart-timeline][data-drawn=true]'));
  const drawMs = (id) => page.$eval(`[data-testid=chart-${id}]`, (c) => Number(c.dataset.drawMs));
  const hoverMs = (id) => page.$eval(`[data-testid=chart-${id}-hover]`, (c) => Number(c.dataset.hoverMs));
  const hovers = {};
  for (const id of ['throughput', 'latency', 'interactivity', 'timeline']) {
    const canvas = page.locator(`[data-testid=chart-${id}]`);
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    hovers[id] = [];
    for (let k = 0; k < 12; k++) {
      await page.mouse.move(box.x + box.width * (0.15 + 0.06 * k), box.y + box.height * 0.4);
      await page.waitForSelector('[data-testid=chart-tooltip]');
      hovers[id].push(await hoverMs(id));
    }
    await page.mouse.move(0, 0);
  }
  const toggles = [];
  for (let k = 0; k < 6; k++) {
    const draws = await page.$eval('[data-testid=chart-throughput]', (c) => Number(c.dataset.draws));
    await page.click('[data-testid=chart-controls] input[data-series="per-stream T/s"]');
    // The redraw runs in a task of its own: wait for it (the chart counts its draws).
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=chart-throughput]').dataset.draws) > n
      && document.documentElement.dataset.busy === '0', draws);
    toggles.push(await drawMs('throughput'));
  }
  const timelineDraws = [];
  for (let i = 0; i < 5; i++) {
    const p = await context.newPage();
    await p.goto(server.origin + '/?src=/big.json');
    await p.waitForSelector('[data-testid=chart-timeline][data-drawn=true]', { timeout: 60_000 });
    timelineDraws.push(await p.$eval('[data-testid=chart-timeline]', (c) => Number(c.dataset.drawMs)));
    await p.close();
  }
  console.log(`navigation → first chart drawn: median ${median(firsts).toFixed(0)} ms of ${firsts.length} loads (${firsts.map((x) => x.toFixed(0)).join(', ')}; budget 500 ms)`);
  for (const [id, xs] of Object.entries(hovers)) {
    console.log(`hover layer redraw, ${id}: median ${median(xs).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms (budget 4 ms)`);
  }
  console.log(`redraw after a series toggle, throughput: median ${median(toggles).toFixed(2)} ms (budget 4 ms)`);
  console.log(`timeline of 10,000 requests, full draw: median ${median(timelineDraws).toFixed(2)} ms of ${timelineDraws.length} (${timelineDraws.map((x) => x.toFixed(1)).join(', ')}; budget 16 ms)`);
  console.log(`device pixel ratio ${await page.evaluate(() => devicePixelRatio)}, viewport 1280×900, ${path.basename(process.env.CHROMIUM ?? '/usr/bin/chromium')}`);
} finally {
  await context.close();
  await server.close();
}
