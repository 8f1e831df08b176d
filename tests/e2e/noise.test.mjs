// The baseline diff's verdicts against noise in a real headless Chromium: the built-in example
// against a copy whose decode is 10 % slower at concurrency 16 only (made here from the file), each
// cell's verdict equal to `tpsview compare --json`'s for its run, level and figure; the slowed
// level's TPOT flagged, the untouched levels' not; a p99 over too few requests left unmarked
// with the reason in its title; axe on the table with its badges.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { serve, launch, open, cliCompare, cliSummary, root, shots, settled, upload, axe } from './harness.mjs';

const BASE = path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json');
const dir = path.join(root, 'target', 'e2e-noise');
const SLOWER = path.join(dir, 'slower.tpsview.json');
const SLOWER_LABEL = 'slower decode at 16';

/** Scrolls a section's top to the top of the screen and waits for two frames drawn there: the
 *  sections below the first screen are laid out (`content-visibility`) only once on screen. */
async function showSection(page, testid) {
  await page.evaluate((id) => new Promise((done) => {
    document.querySelector(`[data-testid=${id}]`).scrollIntoView({ block: 'start' });
    requestAnimationFrame(() => requestAnimationFrame(done));
  }), testid);
}

let server, context;
before(async () => {
  await mkdir(dir, { recursive: true });
  await mkdir(shots, { recursive: true });
  const doc = JSON.parse(await readFile(BASE, 'utf8'));
  const run = doc.runs[0];
  run.label = SLOWER_LABEL;
  for (const p of run.points) {
    if (p.concurrency !== 16) continue;
    const r = p.requests;
    // Every token after the first arrives 10 % later: decode time and each chunk gap × 1.1.
    r.e2e_s = r.e2e_s.map((e, i) => r.ttft_s[i] + (e - r.ttft_s[i]) * 1.1);
    r.chunk_gaps_s = r.chunk_gaps_s.map((g) => g * 1.1);
  }
  await writeFile(SLOWER, JSON.stringify(doc));
  server = await serve();
  context = await launch();
});
after(async () => { await context?.close(); await server?.close(); });

test('each diff cell carries the verdict tpsview compare gives it', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, [BASE, SLOWER]);
  await page.waitForSelector('[data-testid=diff-table]');
  await settled(page);
  const cells = await page.$$eval('[data-testid=diff-cell]', (cs) => cs.map((c) => ({
    key: `${c.closest('tr').dataset.run}|${c.closest('tr').dataset.concurrency}|${c.dataset.metric}`,
    verdict: c.dataset.verdict ?? null,
    badge: c.querySelector('.diff-badge')?.textContent ?? null,
    title: c.title,
  })));
  const cli = cliCompare([BASE, SLOWER]);
  const byKey = Object.fromEntries(cli.verdicts.map((j) => [`${j.run}|${j.concurrency}|${j.metric}`, j]));
  let judged = 0;
  for (const c of cells) {
    const j = byKey[c.key];
    assert.ok(j, `${c.key}: no verdict from the CLI`);
    assert.equal(c.verdict, j.verdict, c.key);
    assert.equal(c.badge, { regression: 'worse', improvement: 'better', within_noise: '≈' }[j.verdict] ?? null, c.key);
    if (j.verdict) {
      judged++;
      assert.match(c.title, /99 % interval/, c.key);
    } else {
      assert.ok(c.title.includes(`not judged: ${j.not_judged}`), `${c.key}: ${c.title}`);
    }
  }
  assert.ok(judged >= 10, `${judged} judged`);
  // What the file says, independently of the CLI: at 16 decode is 10 % slower — TPOT mean worse,
  // per-stream T/s worse; at 1, 64 and 128 nothing was changed: no regression, no improvement.
  const at = (c, m) => cells.find((x) => x.key === `${SLOWER_LABEL}|${c}|${m}`);
  assert.equal(at(16, 'tpot_mean_ms').verdict, 'regression');
  assert.equal(at(16, 'per_stream_tps').verdict, 'regression');
  for (const c of [64, 128]) {
    for (const m of ['tpot_mean_ms', 'ttft_mean_ms', 'e2e_mean_ms', 'per_stream_tps']) assert.equal(at(c, m).verdict, 'within_noise', `${c} ${m}`);
  }
  // 128 requests at 16: too few for a p99 (5 beyond it needs 500).
  assert.equal(at(16, 'tpot_p99_ms').verdict, null);
  assert.match(at(16, 'tpot_p99_ms').title, /judged from 500/);
  // A figure of the whole level is never judged from one run.
  assert.equal(at(16, 'system_tps').verdict, null);
  assert.match(await page.textContent('[data-testid=diff-table] caption'), /worse \/ better: beyond noise \(99 % interval/);
  await page.locator('[data-testid=diff-table]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'noise-1280.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, []);
  assert.deepEqual(log.errors, []);
});

test('over repeats the diff judges system T/s as tpsview compare does', async () => {
  // One file of four runs made from the example: setup "base" twice and setup "slower" (every
  // request's times 10 % later at every level: system T/s ~9 % lower) twice, as
  // `tpsview bench --repeat 2` labels them; each repeat's first request a little different so
  // that the repeats spread.
  const doc = JSON.parse(await readFile(BASE, 'utf8'));
  const one = doc.runs[0];
  const runs = [];
  for (const [setup, slow] of [['base', 1.0], ['slower', 1.1]]) {
    for (const k of [1, 2]) {
      const run = JSON.parse(JSON.stringify(one));
      run.label = `${setup} · repeat=${k}`;
      for (const p of run.points) {
        const r = p.requests;
        const f = slow * (k === 2 ? 1.01 : 1.0);
        r.start_s = r.start_s.map((x) => x * f);
        r.ttft_s = r.ttft_s.map((x) => x * f);
        r.e2e_s = r.e2e_s.map((x) => x * f);
        r.chunk_gaps_s = r.chunk_gaps_s.map((g) => g * f);
      }
      runs.push(run);
    }
  }
  doc.runs = runs;
  const file = path.join(dir, 'repeats.tpsview.json');
  await writeFile(file, JSON.stringify(doc));
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, [file]);
  await page.waitForSelector('[data-testid=diff-table]');
  await settled(page);
  const cells = await page.$$eval('[data-testid=diff-cell][data-metric=system_tps]', (cs) => cs.map((c) => ({
    run: c.closest('tr').dataset.run, level: c.closest('tr').dataset.concurrency,
    verdict: c.dataset.verdict ?? null, title: c.title,
  })));
  const cli = cliCompare([file]);
  let judged = 0;
  for (const c of cells) {
    const j = cli.verdicts.find((v) => v.run === c.run && String(v.concurrency) === c.level && v.metric === 'system_tps');
    assert.ok(j, `${c.run} ${c.level}`);
    assert.equal(c.verdict, j.verdict, `${c.run} ${c.level}`);
    if (c.run.startsWith('slower')) {
      // Judged over two repeats against two; the means ~9 % apart (1/1.1 − 1, from the file).
      assert.deepEqual(j.repeats, [2, 2]);
      assert.ok(Math.abs(j.change.change_pct - (100 / 1.1 - 100)) < 1.5, `${j.change.change_pct}`);
      assert.match(c.title, /over 2 repeats against 2/);
      judged++;
    } else {
      assert.match(c.title, /a repeat of the baseline's own setup/);
    }
  }
  assert.equal(judged, 2 * one.points.length);
  // The summary table: each row's system T/s with ± its setup's interval over the repeats, the
  // bounds those of `summarize --intervals`.
  const sum = cliSummary(file, '--intervals');
  const spans = await page.$$eval('[data-testid=summary-row] [data-metric=system_tps] [data-testid=over-repeats]', (xs) => xs.map((x) => ({
    run: x.closest('tr').dataset.run, level: x.closest('tr').dataset.concurrency,
    low: Number(x.dataset.low), high: Number(x.dataset.high), text: x.textContent, title: x.title,
  })));
  assert.equal(spans.length, 4 * one.points.length);
  for (const s of spans) {
    const p = sum.runs.find((r) => r.label === s.run).points.find((q) => String(q.concurrency) === s.level);
    const [lo, hi] = p.repeats.figures.system_tps.interval;
    assert.ok(Math.abs(s.low - lo) <= 1e-9 * Math.abs(lo) && Math.abs(s.high - hi) <= 1e-9 * Math.abs(hi), `${s.run} ${s.level}`);
    assert.match(s.text, /^ ±[\d,.]+$/);
    assert.match(s.title, /its setup over 2 repeats: the mean's 99 % interval/);
  }
  await page.locator('[data-testid=summary-table]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'repeats-1280.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});

test('each figure carries ± its interval over the level\'s requests, and the latency band can be it', async () => {
  // The example: once the page has computed every level's intervals (in steps, `data-intervals`),
  // each per-request figure of the table has ± its interval, the bounds those of
  // `tpsview summarize --intervals --json`; the latency chart's band switched to the line's
  // interval draws the same bounds.
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, [BASE]);
  await page.waitForSelector('[data-testid=viewer][data-intervals=done]');
  await settled(page);
  const sum = cliSummary(BASE, '--intervals');
  const spans = await page.$$eval('[data-testid=summary-row] [data-testid=over-requests]', (xs) => xs.map((x) => ({
    level: x.closest('tr').dataset.concurrency, metric: x.closest('td').dataset.metric,
    value: Number(x.closest('td').dataset.value),
    low: Number(x.dataset.low), high: Number(x.dataset.high), text: x.textContent, title: x.title,
  })));
  const want = [];
  for (const p of sum.runs[0].points) {
    for (const [k, iv] of Object.entries(p.intervals?.intervals ?? {})) {
      if (['per_stream_tps', 'tpot_mean_ms', 'tpot_p99_ms', 'ttft_mean_ms', 'e2e_mean_ms'].includes(k)) want.push([String(p.concurrency), k, iv]);
    }
  }
  assert.ok(want.length >= 8, `${want.length} intervals`);
  assert.equal(spans.length, want.length);
  for (const [level, metric, [lo, hi]] of want) {
    const s = spans.find((x) => x.level === level && x.metric === metric);
    assert.ok(s, `${metric} at ${level}`);
    assert.ok(Math.abs(s.low - lo) <= 1e-9 * Math.abs(lo) && Math.abs(s.high - hi) <= 1e-9 * Math.abs(hi), `${metric} at ${level}: page ${s.low} ${s.high} cli ${lo} ${hi}`);
    assert.ok(s.low <= s.value && s.value <= s.high, `${metric} at ${level}: ${s.low} ${s.value} ${s.high}`);
    assert.match(s.text, /^ ±[\d,.]+$/);
    assert.match(s.title, /over this level's requests: 99 % interval .* \(bootstrap\)/);
  }
  // The latency band: p50–p99 by default; the line's interval when asked.
  const bands = () => page.getAttribute('[data-testid=chart-latency]', 'data-bands');
  const spread = await bands();
  const draws = async () => Number(await page.getAttribute('[data-testid=chart-latency]', 'data-draws'));
  const before = await draws();
  await page.check('[data-testid=latency-interval]');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=chart-latency]').dataset.draws) > n, before);
  const tpot = (await bands()).split(' | ')[0].split(';')[0].split(' ').map((b) => b.split(':').map(Number));
  assert.notEqual(await bands(), spread);
  const means = sum.runs[0].points.filter((p) => p.intervals?.intervals?.tpot_mean_ms);
  assert.equal(tpot.length, means.length);
  for (const [x, lo, hi] of tpot) {
    const [wlo, whi] = means.find((p) => p.concurrency === x).intervals.intervals.tpot_mean_ms;
    assert.ok(Math.abs(lo - wlo) <= 1e-9 * wlo && Math.abs(hi - whi) <= 1e-9 * whi, `${x}`);
  }
  await settled(page);
  await page.locator('[data-testid=chart-latency]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'latency-interval-1280.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});

test('several runs of one setup on several dates get a trend chart judged as tpsview compare --history judges it', async () => {
  // Four nights of the example's setup, written out of date order, the third night 10 % slower
  // to decode at every level: the page orders them by date, plots each night's peak system T/s
  // and best per-stream T/s (the values `compare --history --json` gives), and marks the nights
  // where figures moved beyond noise with the counts the CLI's moves give.
  const doc = JSON.parse(await readFile(BASE, 'utf8'));
  const nights = ['2026-11-29', '2026-11-27', '2026-11-28', '2026-11-30'];
  const files = [];
  for (const night of nights) {
    const d = structuredClone(doc);
    const run = d.runs[0];
    run.label = `nightly ${night}`;
    run.meta.date = night;
    if (night === '2026-11-29') {
      for (const p of run.points) {
        const r = p.requests;
        r.e2e_s = r.e2e_s.map((e, i) => r.ttft_s[i] + (e - r.ttft_s[i]) * 1.1);
        r.chunk_gaps_s = r.chunk_gaps_s.map((g) => g * 1.1);
      }
    }
    const f = path.join(dir, `nightly-${night}.tpsview.json`);
    await writeFile(f, JSON.stringify(d));
    files.push(f);
  }
  const cli = cliCompare(files, ['--history']);
  assert.equal(cli.order, 'date');
  assert.deepEqual(cli.runs.map((r) => r.date), [...nights].sort());
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, files);
  await page.waitForSelector('[data-testid=trend][data-judged=done]');
  await settled(page);
  const rows = await page.$$eval('[data-testid=trend-row]', (xs) => xs.map((x) => ({
    run: x.dataset.run, place: Number(x.dataset.place),
    regressions: Number(x.dataset.regressions), improvements: Number(x.dataset.improvements), judged: Number(x.dataset.judged),
    peak: Number(x.querySelectorAll('td')[2].dataset.value), best: Number(x.querySelectorAll('td')[3].dataset.value),
  })));
  assert.deepEqual(rows.map((r) => r.run), cli.runs.map((r) => r.run));
  for (const [k, r] of rows.entries()) {
    const want = cli.runs[k];
    assert.ok(Math.abs(r.peak - want.peak_system_tps) <= 1e-9 * want.peak_system_tps, r.run);
    assert.ok(Math.abs(r.best - want.best_per_stream_tps) <= 1e-9 * want.best_per_stream_tps, r.run);
    const mine = cli.moves.filter((m) => m.run === r.run);
    const count = (v) => mine.filter((m) => m.verdict === v).length;
    assert.equal(r.regressions, count('regression'), r.run);
    assert.equal(r.improvements, count('improvement'), r.run);
    assert.equal(r.judged, mine.filter((m) => m.verdict).length, r.run);
  }
  // The slow night (third by date) is worse, TPOT among its regressions; the night after better.
  assert.ok(rows[2].regressions > 0 && rows[3].improvements > 0, JSON.stringify(rows));
  assert.ok(cli.moves.some((m) => m.run === rows[2].run && m.metric === 'tpot_mean_ms' && m.verdict === 'regression'));
  assert.equal(rows[1].regressions + rows[1].improvements, 0);
  // The chart: one point per night at its place, the peak's value; marks say the same.
  const chart = page.locator('[data-testid=chart-trend]');
  assert.ok(Number(await chart.getAttribute('data-draws')) > 0);
  await showSection(page, 'trend');
  await page.screenshot({ path: path.join(shots, 'trend-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await showSection(page, 'trend');
  await page.screenshot({ path: path.join(shots, 'trend-390.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});

test('a history of 60 runs pages its table', async () => {
  // Sixty nightly runs of one setup as figures only (nothing to judge over requests): the table
  // shows 50 rows at a time with a pager, the other 10 on the next page.
  const runs = [];
  for (let k = 0; k < 60; k++) {
    const day = new Date(Date.UTC(2026, 9, 1) + k * 86400e3).toISOString().slice(0, 10);
    runs.push({
      label: `nightly ${day}`,
      meta: { engine: 'vllm', model: 'm', gpu: 'H100', date: day },
      points: [1, 8].map((c) => ({ concurrency: c, reported: { tool: 'tpsview/1', figures: { system_tps: 100 * c + k, per_stream_tps: 50 - c } } })),
    });
  }
  const f = path.join(dir, 'sixty-nights.tpsview.json');
  await writeFile(f, JSON.stringify({ format: 'tpsview/1', runs }));
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, [f]);
  await page.waitForSelector('[data-testid=trend][data-judged=done]');
  await settled(page);
  assert.equal(await page.locator('[data-testid=trend-row]').count(), 50);
  assert.equal(await page.getAttribute('[data-testid=trend-table-pager]', 'data-pages'), '2');
  await page.click('[data-testid=trend-table-pager-next]');
  await page.waitForSelector('[data-testid=trend-table-pager][data-page="1"]');
  const places = await page.$$eval('[data-testid=trend-row]', (xs) => xs.map((x) => Number(x.dataset.place)));
  assert.deepEqual(places, Array.from({ length: 10 }, (_, i) => 51 + i));
  // The last night's peak, by hand: 100 × 8 + 59.
  const last = await page.$eval('[data-testid=trend-row][data-place="60"] td:nth-of-type(3)', (td) => Number(td.dataset.value));
  assert.equal(last, 859);
  assert.deepEqual(log.errors, []);
});
