// Prints the viewer's speed figures in headless Chromium (a benchmark, never a test): navigation →
// first chart drawn (Performance API mark), and chart redraw times after a hover and after a
// series toggle (each canvas's data-draw-ms, set by the Chart component around its draw).
// Usage: node scripts/budgets.mjs   (after `trunk build --release`; scripts/budgets.sh does both)
import path from 'node:path';
import { serve, launch } from '../tests/e2e/harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const server = await serve();
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
  await page.waitForSelector('[data-testid=chart-timeline][data-drawn=true]');
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
    await page.click('[data-testid=chart-controls] input[data-series="per-stream T/s"]');
    await page.waitForTimeout(50);
    toggles.push(await drawMs('throughput'));
  }
  console.log(`navigation → first chart drawn: median ${median(firsts).toFixed(0)} ms of ${firsts.length} loads (${firsts.map((x) => x.toFixed(0)).join(', ')}; budget 500 ms)`);
  for (const [id, xs] of Object.entries(hovers)) {
    console.log(`hover layer redraw, ${id}: median ${median(xs).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms (budget 4 ms)`);
  }
  console.log(`redraw after a series toggle, throughput: median ${median(toggles).toFixed(2)} ms (budget 4 ms)`);
  console.log(`device pixel ratio ${await page.evaluate(() => devicePixelRatio)}, viewport 1280×900, ${path.basename(process.env.CHROMIUM ?? '/usr/bin/chromium')}`);
} finally {
  await context.close();
  await server.close();
}
