// Shared set-up for the browser tests: a static server for dist/ on 127.0.0.1, Debian's chromium
// driven by playwright-core with a fresh profile, the CLI for expected values, and screenshots
// under target/e2e/.
import { createServer } from 'node:http';
import { readFile, mkdtemp, mkdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(root, 'dist');
export const shots = path.join(root, 'target', 'e2e');
export const fixture = (p) => path.join(root, 'tests', 'fixtures', p);

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Serves dist/ on an ephemeral loopback port; `extra` maps paths to [status, type, body] or to a
 *  handler (req, res);
 *  with `cors`, every answer allows reading from other origins. */
export async function serve(extra = {}, { cors = false } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (cors) res.setHeader('access-control-allow-origin', '*');
    if (typeof extra[url.pathname] === 'function') return extra[url.pathname](req, res);
    if (extra[url.pathname]) {
      const [status, type, body] = extra[url.pathname];
      res.writeHead(status, { 'content-type': type });
      return res.end(body);
    }
    const file = path.join(dist, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname));
    if (!file.startsWith(dist)) { res.writeHead(403); return res.end(); }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((r) => server.close(r)) };
}

/** Launches Debian's chromium headless with a fresh profile (1280×900); `{ js: false }`: with
 *  JavaScript off (1280×800). */
export async function launch({ js = true } = {}) {
  const profile = await mkdtemp(path.join(tmpdir(), js ? 'tpsview-e2e-' : 'tpsview-e2e-nojs-'));
  await mkdir(shots, { recursive: true });
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    javaScriptEnabled: js,
    viewport: { width: 1280, height: js ? 900 : 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Launches the same chromium with JavaScript off. */
export const launchNoJs = () => launch({ js: false });

/** Opens a page that records console errors, page errors, dialogs and every request; waits until
 *  the app has replaced index.html's prerendered first view (#boot), whose elements carry the
 *  app's test ids too (`{ boot: true }` returns at once). */
export async function open(context, url, { boot = false } = {}) {
  const page = await context.newPage();
  const log = { errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('dialog', (d) => { log.dialogs.push(d.message()); d.dismiss(); });
  await page.goto(url);
  if (!boot) await page.waitForFunction(() => !document.getElementById('boot'));
  return { page, log };
}

/** `tpsview summarize --json` on the given files, parsed. */
export function cliSummary(...files) {
  const bin = path.join(root, 'target', 'debug', 'tpsview');
  return JSON.parse(execFileSync(bin, ['summarize', '--json', ...files], { encoding: 'utf8' }));
}

/** Table cell metric name → the CLI JSON value of a point. */
export function cliValue(point, metric) {
  const m = metric.match(/^(tpot|ttft|itl|e2e)_(mean|p50|p90|p99)_ms$/);
  return m ? point[`${m[1]}_ms`][m[2]] : point[metric];
}

/** Every summary-row of a run, as {concurrency, metric: value} with values from data-value. */
export async function tableRows(page, run) {
  return page.$$eval('[data-testid=summary-row]', (rows, run) => rows
    .filter((r) => run === undefined || r.dataset.run === run)
    .map((r) => {
      const out = { run: r.dataset.run, concurrency: r.dataset.concurrency };
      for (const c of r.querySelectorAll('[data-metric]')) out[c.dataset.metric] = c.dataset.value === '' ? null : Number(c.dataset.value);
      return out;
    }), run);
}

/** `tpsview compare --json BASE OTHER... [extra args]`, parsed. */
export function cliCompare(files, extra = []) {
  const bin = path.join(root, 'target', 'debug', 'tpsview');
  return JSON.parse(execFileSync(bin, ['compare', '--json', ...extra, ...files], { encoding: 'utf8' }));
}

/** Waits until the page has done all the work asked of it so far — loads in the worker, the
 *  summary, the timeline's spec, every chart's draw — as the page itself counts it (`data-busy`
 *  on the document element: pieces of work pending). State, never a length of time. */
export async function settled(page, options = {}) {
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0'
    && !document.getElementById('boot'), null, options);
}

/** Waits until every chart canvas is drawn at its current CSS size (after a resize, the charts
 *  redraw once their ResizeObserver has seen the new size) and nothing else is pending. */
export async function drawnAtSize(page) {
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0'
    && [...document.querySelectorAll('canvas.chart-canvas')].every((c) => c.dataset.drawn === 'true'
      && c.width === Math.round(c.clientWidth * devicePixelRatio)));
}

/** Loads files through the page's file input and waits until the Sources list counts them and the
 *  page has settled. */
export async function upload(page, files) {
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForFunction((n) => document.querySelector('[data-testid=sources] summary')?.textContent.startsWith(`Sources (${n})`), files.length);
  await settled(page);
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function axe(page) {
  const src = await readFile(path.join(root, 'tests', 'e2e', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Evaluated through the debugging protocol: the page's CSP (no inline script) does not apply.
  await page.evaluate(src);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Records long tasks (the Long Tasks API: every task of 50 ms or more). */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
      .observe({ type: 'longtask' });
  });
}

/** Starts a Chromium trace; the returned function stops it and gives, for every task the page's
 *  main thread ran meanwhile, its wall-clock duration and the CPU time the thread spent in it
 *  (ms). The CPU time is the page's own work: unlike wall-clock time (and the Long Tasks API,
 *  which sees only wall-clock tasks from 50 ms up), it does not grow when other processes take
 *  the cores, so it can be held to a limit on a busy machine. */
export async function traceMainThread(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline', transferMode: 'ReportEvents' });
  return async () => {
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`));
    return events.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
      .map((e) => ({ wall: e.dur / 1e3, cpu: e.tdur === undefined ? undefined : e.tdur / 1e3 }));
  };
}
