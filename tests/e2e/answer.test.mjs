// The answer first (issue 15), in a real headless Chromium: each run's header and answer cards
// against values computed here from `tpsview summarize --json` (the knee by an independent
// implementation of the stated rule), the ranked data-health panel for broken or partial data,
// undefined values shown as "–" never 0, Sources collapsed after a load, the empty page, the
// status line after Clear, screenshots at 1280×800, 390×844 and dark, and axe-core on every page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { serve, launch, open, cliSummary, fixture, root, shots, settled, tableRows, upload, axe } from './harness.mjs';

const SAMPLE = path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json');

let server, context, dir;
before(async () => {
  server = await serve();
  context = await launch();
  dir = await mkdtemp(path.join(tmpdir(), 'tpsview-answer-'));
});
after(async () => { await context?.close(); await server?.close(); });

/** The knee as the "?" of the card states it, written again here: the first level from which the
 * next level gains less than 25 % system T/s per doubling of concurrency. */
function knee(points) {
  const pts = points
    .filter((p) => p.concurrency > 0 && p.system_tps > 0)
    .map((p) => [p.concurrency, p.system_tps])
    .sort((a, b) => a[0] - b[0]);
  for (let i = 0; i + 1 < pts.length; i++) {
    const [[c0, s0], [c1, s1]] = [pts[i], pts[i + 1]];
    if (c1 === c0) continue;
    const gain = Math.pow(s1 / s0, 1 / Math.log2(c1 / c0)) - 1;
    if (gain < 0.25) return c0;
  }
  return null;
}

/** The level with the highest `key` (the lowest level on a tie). */
function best(points, key) {
  let top = null;
  for (const p of points) if (p[key] != null && (top === null || p[key] > top[key])) top = p;
  return top;
}

test('the sample leads with its header and answer cards, equal to values computed from the CLI', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const meta = JSON.parse(await readFile(SAMPLE, 'utf8')).runs[0].meta;
  const cli = cliSummary(SAMPLE).runs[0];
  const header = page.locator('[data-testid=run-header]');
  assert.equal(await header.count(), 1);
  const text = await header.locator('h2').textContent();
  assert.ok(text.includes(meta.model), `${text} names ${meta.model}`);
  assert.ok(text.includes(meta.gpu) && text.includes(meta.engine_version), text);
  const peak = best(cli.points, 'system_tps');
  const card = page.locator('[data-testid=kpi-peak-system]');
  assert.equal(Number(await card.getAttribute('data-value')), peak.system_tps);
  assert.equal(Number(await card.getAttribute('data-concurrency')), peak.concurrency);
  assert.match(await card.textContent(), new RegExp(`at concurrency ${peak.concurrency} `));
  const fast = best(cli.points, 'per_stream_tps');
  const bestCard = page.locator('[data-testid=kpi-best-per-stream]');
  assert.equal(Number(await bestCard.getAttribute('data-value')), fast.per_stream_tps);
  assert.equal(Number(await bestCard.getAttribute('data-concurrency')), fast.concurrency);
  const k = knee(cli.points);
  assert.equal(await page.getAttribute('[data-testid=kpi-knee]', 'data-concurrency'), k === null ? '' : String(k));
  // Above the fold at 1280×800: the header and the cards.
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const id of ['run-header', 'kpi-peak-system', 'kpi-knee', 'kpi-health']) {
    const box = await page.locator(`[data-testid=${id}]`).boundingBox();
    assert.ok(box && box.y + box.height <= 800, `${id} ends at ${box?.y + box?.height}`);
  }
  // Sources: one file, collapsed.
  assert.match(await page.textContent('[data-testid=sources] summary'), /^Sources \(1\)/);
  assert.equal(await page.locator('[data-testid=sources]').evaluate((d) => d.open), false);
  // The first view, as a reader meets it (before the "?" and the drawer below are opened).
  await page.screenshot({ path: path.join(shots, 'answer-1280x800.png') });
  // The "?" of the knee states the rule.
  await page.click('[data-testid=kpi-knee] summary');
  assert.match(await page.textContent('[data-testid=kpi-knee] .kpi-help p'), /less than 25 % per doubling/);
  // The drawer holds every metadata field as text.
  await page.click('[data-testid=run-drawer] summary');
  const drawer = await page.textContent('[data-testid=run-drawer]');
  for (const v of [meta.model, meta.gpu, meta.engine, meta.precision, meta.labels.source]) assert.ok(drawer.includes(v), v);
  await page.screenshot({ path: path.join(shots, 'answer-drawer.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a knee inside the levels is found where the rule puts it', async () => {
  // System T/s 100, 190, 360, 400, 420 at 1…16: by hand, 4 → 8 gains 400 / 360 − 1 = 11 % < 25 %.
  const levels = [[1, 100, 100], [2, 190, 95], [4, 360, 90], [8, 400, 50], [16, 420, 26.25]];
  const doc = {
    format: 'tpsview/1',
    meta: { model: 'knee-model', gpu: 'L4' },
    runs: [{ label: 'knee run', points: levels.map(([c, s, p]) => ({ concurrency: c, reported: { tool: 'tpsview/1', figures: { system_tps: s, per_stream_tps: p } } })) }],
  };
  const file = path.join(dir, 'knee.tpsview.json');
  await writeFile(file, JSON.stringify(doc));
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [file]);
  const cli = cliSummary(file).runs[0];
  assert.equal(knee(cli.points), 4);
  assert.equal(await page.getAttribute('[data-testid=kpi-knee]', 'data-concurrency'), '4');
  assert.match(await page.textContent('[data-testid=kpi-knee] .kpi-value'), /^concurrency 4$/);
  assert.equal(await page.getAttribute('[data-testid=kpi-peak-system]', 'data-value'), '420');
  assert.match(await page.textContent('[data-testid=run-header] h2'), /^knee-model · L4 · tpsview$/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('every request failed: an error ranked first, and "–" with the reason instead of 0', async () => {
  const file = path.join(dir, 'all-failed.json');
  await writeFile(file, JSON.stringify({
    backend: 'vllm', model_id: '<b>failing-model</b>', max_concurrency: 4, duration: 2.0, completed: 0, failed: 10,
    output_throughput: 0.0, request_throughput: 0.0, mean_ttft_ms: 0.0, median_ttft_ms: 0.0, p99_ttft_ms: 0.0,
    mean_tpot_ms: 0.0, median_tpot_ms: 0.0, p99_tpot_ms: 0.0, mean_e2el_ms: 0.0,
  }));
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [file]);
  const items = page.locator('[data-testid=data-health] [data-testid=health-item]');
  assert.equal(await items.first().getAttribute('data-severity'), 'error');
  assert.match(await items.first().textContent(), /no request completed at 1 of 1 level \(concurrency 4\).*10 requests failed/);
  assert.equal(await page.getAttribute('[data-testid=kpi-health]', 'data-errors'), '1');
  // Undefined, not 0: the cards and the table.
  const peak = page.locator('[data-testid=kpi-peak-system]');
  assert.equal(await peak.getAttribute('data-value'), '');
  assert.match(await peak.locator('.kpi-value').textContent(), /^–/);
  const rows = await tableRows(page);
  assert.equal(rows.length, 1);
  for (const m of ['system_tps', 'tpot_mean_ms', 'ttft_mean_ms']) assert.equal(rows[0][m], null, m);
  const cells = await page.$$eval('[data-testid=summary-row] td[data-metric=tpot_mean_ms], [data-testid=summary-row] td[data-metric=system_tps]', (c) => c.map((x) => x.textContent.trim()));
  assert.ok(cells.length > 0 && cells.every((t) => t.startsWith('–')), cells.join('|'));
  // The model's name is text, never markup.
  assert.match(await page.textContent('[data-testid=run-header] h2'), /<b>failing-model<\/b>/);
  assert.equal(await page.locator('[data-testid=run-header] b').count(), 0);
  assert.match(await page.textContent('[data-testid=chart-empty][data-chart=latency]'), /No level has these figures/);
  await page.screenshot({ path: path.join(shots, 'answer-all-failed.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('levels without send times, and a run per GPU leaves out, are warnings that say where', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [fixture('sglang/one-bad-line.jsonl')]);
  const cli = cliSummary(fixture('sglang/one-bad-line.jsonl'));
  const levels = cli.runs[0].points.map((p) => p.concurrency).join(', ');
  const warn = page.locator('[data-testid=health-item][data-concern=NoSendTimes]');
  assert.equal(await warn.getAttribute('data-severity'), 'warning');
  assert.match(await warn.textContent(), new RegExp(`2 of 2 levels without send times \\(concurrency ${levels}\\)`));
  // The timeline says it cannot draw those levels (here every level lacks send times: no
  // timeline at all, and the section says why).
  assert.match(await page.textContent('section[aria-labelledby=h-timeline]'), /No level with send times/);
  // The skipped line is a warning too; no note is repeated per file.
  const texts = await page.$$eval('[data-testid=health-item]', (l) => l.map((x) => x.textContent));
  assert.ok(texts.some((t) => /Result object skipped/.test(t)), texts.join('\n'));
  assert.equal(new Set(texts).size, texts.length, 'each item once');
  // Per GPU: the compare fixtures' second run has no GPU count; the panel names it.
  await page.click('[data-testid=clear]');
  await upload(page, [fixture('compare/before.tpsview.json'), fixture('compare/after.tpsview.json')]);
  await page.check('[data-testid=per-gpu]');
  const left = page.locator('[data-testid=health-item][data-concern=NoGpuCount]');
  await left.waitFor();
  assert.match(await left.textContent(), /after: <i>chunked prefill<\/i>, max_num_seqs 256: left off the per-GPU charts/);
  await page.uncheck('[data-testid=per-gpu]');
  await left.waitFor({ state: 'detached' });
  // Some levels with send times and one without: the timeline offers those it can draw and says
  // how many it cannot.
  await page.click('[data-testid=clear]');
  await upload(page, [SAMPLE, fixture('vllm/old-keys.json')]);
  const all = cliSummary(SAMPLE, fixture('vllm/old-keys.json')).runs.reduce((n, r) => n + r.points.length, 0);
  assert.match(await page.textContent('[data-testid=timeline-missing]'), new RegExp(`^${all - 1} of ${all} levels have each request's send time; the other 1 cannot`));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('an empty chart says why inside itself and offers the fix: a concurrency for a file without one', async () => {
  const { page, log } = await open(context, server.origin + '/');
  const file = fixture('trtllm/minimal-report.json');
  await upload(page, [file]);
  const note = page.locator('[data-testid=chart-empty][data-chart=throughput]');
  assert.match(await note.textContent(), /minimal-report\.json records no concurrency/);
  assert.equal(await page.locator('[data-testid=health-item][data-concern=NoConcurrency]').count(), 1);
  // The note sits inside the chart's box.
  const [n, c] = [await note.boundingBox(), await page.locator('[data-testid=chart-throughput]').boundingBox()];
  assert.ok(n.y > c.y && n.y + n.height < c.y + c.height && n.x > c.x && n.x + n.width < c.x + c.width, 'inside the chart');
  assert.equal(await page.locator('[data-testid=explain-link]').count(), 0, 'no walkthrough without levels');
  const input = note.locator('[data-testid=set-concurrency]');
  await input.fill('8');
  await input.dispatchEvent('change');
  await note.waitFor({ state: 'detached' });
  await settled(page);
  const cli = cliSummary(file).runs[0].points[0];
  const card = page.locator('[data-testid=kpi-peak-system]');
  assert.equal(await card.getAttribute('data-concurrency'), '8');
  assert.equal(Number(await card.getAttribute('data-value')), cli.system_tps);
  assert.equal(await page.locator('[data-testid=health-item][data-concern=NoConcurrency]').count(), 0);
  // Still no walkthrough: this report has no per-stream figure to walk through (checked here).
  assert.equal(cli.per_stream_tps, null);
  assert.equal(await page.locator('[data-testid=explain-link]').count(), 0);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the table: the tool\'s value only where it differs, whole numbers plain, sticky run column, cards on a phone', async () => {
  const { page, log } = await open(context, server.origin + '/');
  const file = fixture('vllm/detailed-discrepant.json');
  await upload(page, [file]);
  const cli = cliSummary(file).runs[0].points[0];
  const differs = new Set(cli.discrepancies.filter((d) => !d.tool_defined).map((d) => d.metric));
  const cells = await page.$$eval('[data-testid=summary-row] td[data-metric]', (c) => c.map((x) => ({
    metric: x.dataset.metric, text: x.textContent, tool: !!x.querySelector('.summary-table-tool'), agrees: !!x.querySelector('.summary-table-agrees'),
  })));
  for (const c of cells) {
    if (differs.has(c.metric)) assert.ok(c.tool && /tool: /.test(c.text), `${c.metric} differs: the tool's value shown`);
    else assert.ok(!c.tool && !/tool: /.test(c.text), `${c.metric}: no tool value where it agrees`);
  }
  assert.ok(differs.size > 0 && cells.some((c) => c.agrees));
  // A whole number has no decimals: requests completed.
  const ok = cells.find((c) => c.metric === 'requests_ok');
  assert.match(ok.text, new RegExp(`^${cli.requests_ok}\\b`));
  assert.equal(await page.$eval('[data-testid=summary-row] th[scope=row]', (th) => getComputedStyle(th).position), 'sticky');
  await page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await page.$eval('[data-testid=summary-row]', (tr) => getComputedStyle(tr).display), 'block');
  const label = await page.$eval('[data-testid=summary-row] td[data-metric=system_tps]', (td) => getComputedStyle(td, '::before').content);
  assert.match(label, /system/);
  await page.locator('[data-testid=summary-table]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'answer-table-390x844.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('charts: HTML legends below the plot, a log y axis that the permalink keeps', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const legend = page.locator('[data-testid=chart-throughput-legend] li');
  const words = await legend.allTextContents();
  assert.ok(words.some((w) => /system T\/s$/.test(w)) && words.some((w) => /per-stream T\/s$/.test(w)), words.join('|'));
  const [l, c] = [await page.locator('[data-testid=chart-throughput-legend]').boundingBox(), await page.locator('[data-testid=chart-throughput]').boundingBox()];
  assert.ok(l.y >= c.y + c.height - 1, 'the legend is below the plot, not over it');
  const before = await page.$eval('[data-testid=chart-throughput]', (x) => x.toDataURL());
  await page.check('[data-testid=log-y]');
  await settled(page);
  assert.notEqual(await page.$eval('[data-testid=chart-throughput]', (x) => x.toDataURL()), before);
  await page.click('[data-testid=make-permalink]');
  const view = JSON.parse(new URL(await page.inputValue('[data-testid=permalink]')).searchParams.get('view'));
  assert.equal(view.log_y, true);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('formats land well: a llama-bench depth sweep is one run per test kind, tool files are named by their model', async () => {
  const lines = [];
  for (const d of [0, 512, 1024, 2048]) {
    lines.push(JSON.stringify({ model_type: 'llama 8B Q4_0', n_prompt: 512, n_gen: 0, n_depth: d, n_threads: 8, avg_ts: 1000 - d / 10 }));
    lines.push(JSON.stringify({ model_type: 'llama 8B Q4_0', n_prompt: 0, n_gen: 128, n_depth: d, n_threads: 8, avg_ts: 40 - d / 200 }));
  }
  const file = path.join(dir, 'depths.jsonl');
  await writeFile(file, lines.join('\n'));
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [file]);
  const chips = await page.$$eval('[data-testid=legend-run]', (b) => b.map((x) => x.dataset.run));
  assert.deepEqual(chips.sort(), ['llama 8B Q4_0 · pp512', 'llama 8B Q4_0 · tg128']);
  const rows = await tableRows(page);
  assert.equal(rows.length, 8, 'four depths per run');
  // AIPerf names its model: the run is named after it, not after the tool.
  await page.click('[data-testid=clear]');
  await upload(page, [fixture('aiperf/minimal-phases_aiperf.json')]);
  assert.equal(await page.getAttribute('[data-testid=legend-run]', 'data-run'), 'qwen3-0.6b');
  assert.match(await page.textContent('[data-testid=run-header] h2'), /^qwen3-0\.6b · AIPerf/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a finished look: styled controls, folded explanations, a pinned tooltip under its chart, legends off the plot on a phone', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  // No default browser control: buttons and selects take the design system's radius and border.
  for (const sel of ['[data-testid=clear]', 'select[aria-label="load a sample report"]', '[data-testid=make-permalink]']) {
    const radius = await page.$eval(sel, (e) => getComputedStyle(e).borderRadius);
    assert.equal(radius, '6px', sel);
  }
  // The per-level paragraphs are folded under one line.
  assert.equal(await page.$eval('[data-testid=gap-notes]', (d) => d.tagName === 'DETAILS' && !d.open), true);
  // The walkthrough's pinned level: its tooltip sits under the chart, not over the title.
  await page.goto(server.origin + '/#learn/5');
  await settled(page);
  const [tip, canvas] = [await page.locator('.learn-panel [data-testid=chart-tooltip]').boundingBox(), await page.locator('.learn-panel canvas.chart-canvas').first().boundingBox()];
  assert.ok(tip.y >= canvas.y + canvas.height - 1, `tooltip at ${tip.y}, chart ends at ${canvas.y + canvas.height}`);
  // The decode model on a phone: its legend below the plot.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.origin + '/#model');
  await settled(page);
  const [legend, plot] = [await page.locator('[data-testid=chart-roofline-legend]').boundingBox(), await page.locator('[data-testid=chart-roofline]').boundingBox()];
  assert.ok(legend.y >= plot.y + plot.height - 1, 'the legend is under the plot');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('Clear gives an empty page with a drop zone and sample buttons, and no stale status', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.waitForSelector('[data-testid=load-figures]');
  // The built-in sample is read on the page itself, not by the loading worker; its request count
  // is the CLI's (every request of every level, failed or not).
  const cli = cliSummary(path.join(root, 'public/samples/h100-llama70b-fp8.tpsview.json'));
  const n = cli.runs.flatMap((r) => r.points).reduce((a, p) => a + p.requests_ok + p.requests_failed + p.requests_invalid, 0);
  const status = await page.textContent('[data-testid=load-figures]');
  assert.match(status, /^h100-llama70b-fp8\.tpsview\.json: [\d.]+ MB read and computed on this page in [\d.]+ s \(\d+ MB\/s\), [\d,]+ requests$/);
  assert.equal(Number(status.match(/([\d,]+) requests$/)[1].replaceAll(',', '')), n);
  await page.click('[data-testid=clear]');
  await page.waitForSelector('[data-testid=drop-zone]');
  assert.equal(await page.locator('[data-testid=load-figures]').count(), 0, 'the status line is about the current state');
  assert.equal(await page.locator('[data-testid=run-header]').count(), 0);
  assert.match(await page.textContent('[data-testid=sources] summary'), /^Sources \(0\)/);
  const samples = page.locator('[data-testid=sample-button]');
  assert.ok(await samples.count() >= 2);
  await page.screenshot({ path: path.join(shots, 'answer-empty.png') });
  assert.deepEqual(await axe(page), []);
  await samples.first().click();
  await page.waitForSelector('[data-testid=kpi-peak-system]');
  await settled(page);
  assert.equal(await page.locator('[data-testid=drop-zone]').count(), 0);
  // The Sample picker says which sample is open.
  assert.equal(await page.locator('select[aria-label="load a sample report"]').inputValue(), 'samples/h100-llama70b-fp8.tpsview.json');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('phone and dark: the answer in the first screen; axe-core finds nothing serious on any page', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.origin + '/');
  await settled(page);
  // ux.md: the run header and all four answer cards in a phone's first screen.
  for (const id of ['run-header', 'kpi-peak-system', 'kpi-best-per-stream', 'kpi-knee', 'kpi-health']) {
    const box = await page.locator(`[data-testid=${id}]`).first().boundingBox();
    assert.ok(box && box.y + box.height <= 844, `${id} ends at ${box?.y + box?.height} on a phone`);
  }
  await page.screenshot({ path: path.join(shots, 'answer-390x844.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'answer-dark.png') });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const route of ['#viewer', '#learn/1', '#model', '#claim', '#glossary']) {
      await page.goto(server.origin + '/' + route);
      await settled(page);
      const found = await axe(page);
      assert.deepEqual(found, [], `${scheme} ${route}: ${JSON.stringify(found, null, 1)}`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
