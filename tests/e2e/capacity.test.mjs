// Capacity under a latency target (issue 16), in a real headless Chromium: the SLO panel's preset
// and text, the SLO table and the capacity card against values computed here from the CLI's plain
// figures (level targets) or from the fixture's raw arrays (per-request targets: attainment and
// goodput recounted in JavaScript), the shaded region on the canvas, the cost card and axis, a bad
// SLO named, the permalink carrying it all, screenshots and axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, open, cliSummary, fixture, root, shots, settled, upload, axe } from './harness.mjs';

const SAMPLE = path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json');
const GOODPUT = fixture('vllm/goodput-ttft250-tpot33.json');

let server, context;
before(async () => {
  server = await serve();
  context = await launch();
});
after(async () => { await context?.close(); await server?.close(); });

/** Pixels of the shaded window's colour (its 18 % yellow over the white page) on a canvas. */
async function shaded(page, testid) {
  return page.$eval(`[data-testid=${testid}]`, (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const want = [250, 204, 21].map((v) => Math.round(v * 0.18 + 255 * 0.82));
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - want[0]) < 4 && Math.abs(d[i + 1] - want[1]) < 4 && Math.abs(d[i + 2] - want[2]) < 4) n++;
    }
    return n;
  });
}

/** Opens the capacity panel (collapsed until an SLO or a price is set) as a user does. */
async function openPanel(page) {
  if (!(await page.locator('[data-testid=capacity]').evaluate((d) => d.open))) {
    await page.click('[data-testid=capacity] > summary');
  }
  await page.waitForFunction(() => document.querySelector('[data-testid=capacity]').open);
}

async function setSlo(page, text) {
  await openPanel(page);
  await page.fill('[data-testid=slo]', text);
  await page.press('[data-testid=slo]', 'Enter');
  await page.locator('[data-testid=slo]').blur();
  await settled(page);
}

async function sloRows(page) {
  return page.$$eval('[data-testid=slo-row]', (rows) => rows.map((r) => ({
    run: r.dataset.run,
    concurrency: Number(r.dataset.concurrency),
    met: r.dataset.met,
    attainment: r.querySelector('[data-testid=slo-attainment]')?.dataset.value,
    goodput_rps: r.querySelector('[data-testid=slo-goodput-rps]')?.dataset.value,
    tool: r.querySelector('[data-testid=slo-tool-goodput]')?.dataset.agrees,
  })));
}

test('a preset SLO: the levels that meet it, the capacity card, the shaded region and the capacity mark', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const before = await shaded(page, 'chart-throughput');
  // Collapsed on a page without an SLO or a price: the charts come right after the answers.
  assert.equal(await page.locator('[data-testid=capacity]').evaluate((d) => d.open), false);
  await openPanel(page);
  await page.selectOption('[data-testid=slo-preset]', 'Chat');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid=slo]'), 'ttft_p90_ms=500,tpot_p90_ms=50');
  // By hand from the plain figures: p90 TTFT ≤ 500 ms and p90 TPOT ≤ 50 ms.
  const cli = cliSummary(SAMPLE).runs[0].points;
  const meets = (p) => p.ttft_ms.p90 <= 500 && p.tpot_ms.p90 <= 50;
  const rows = await sloRows(page);
  assert.equal(rows.length, cli.length);
  for (const p of cli) {
    const row = rows.find((r) => r.concurrency === p.concurrency);
    assert.equal(row.met, String(meets(p)), `level ${p.concurrency}`);
    assert.equal(row.attainment, undefined, 'level targets only: no attainment column');
  }
  const ok = cli.filter(meets);
  assert.ok(ok.length > 0 && ok.length < cli.length, 'the sample has levels on both sides');
  const cap = ok.reduce((a, b) => (b.system_tps > a.system_tps ? b : a));
  const card = page.locator('[data-testid=kpi-capacity]');
  assert.equal(Number(await card.getAttribute('data-value')), cap.system_tps);
  assert.equal(Number(await card.getAttribute('data-concurrency')), cap.concurrency);
  // The canvas: a shaded window (none before) captioned in the legend, the capacity marked there.
  const after = await shaded(page, 'chart-throughput');
  assert.ok(after > before + 2000, `${before} → ${after} shaded pixels`);
  const canvas = page.locator('[data-testid=chart-throughput]');
  const [lo, hi] = (await canvas.getAttribute('data-shade')).split(' ').map(Number);
  assert.deepEqual([lo, hi], [Math.min(...ok.map((p) => p.concurrency)), Math.max(...ok.map((p) => p.concurrency))]);
  assert.match(await canvas.getAttribute('data-marks'), new RegExp(`capacity \\(SLO\\)@${cap.concurrency}`));
  assert.match(await page.locator('[data-testid=chart-throughput-legend]').textContent(), /meets the SLO/);
  // The interactivity chart shades from 1000 / 50 ms = 20 T/s per user.
  assert.equal(Number((await page.locator('[data-testid=chart-interactivity]').getAttribute('data-shade')).split(' ')[0]), 20);
  await page.locator('[data-testid=capacity]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'capacity.png') });
  await page.locator('#h-throughput').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'capacity-chart.png') });
  // The walkthrough's capacity step speaks of the SLO just set.
  await page.goto(server.origin + '/#learn/6');
  await page.waitForFunction(() => document.querySelector('[data-testid=learn-step]')?.dataset.slug === 'capacity');
  await settled(page);
  assert.match(await page.locator('[data-testid=learn-step]').textContent(), new RegExp(`Under the SLO you set, the busiest level that qualifies is concurrency ${cap.concurrency}:`));
  await page.goto(server.origin + '/#');
  await settled(page);
  // None: everything goes back.
  await page.selectOption('[data-testid=slo-preset]', '');
  await settled(page);
  assert.equal(await page.locator('[data-testid=kpi-capacity]').count(), 0);
  assert.equal(await canvas.getAttribute('data-shade'), '');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('per-request targets: attainment and goodput recounted from the raw arrays, the tool\'s goodput agreeing', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await upload(page, [GOODPUT]);
  await setSlo(page, 'ttft_ms=250,tpot_ms=33');
  // vLLM's rule, written here: a request that did not fail, TTFT ≤ 250 ms and (one token, or
  // (E2E − TTFT) / (n − 1) ≤ 33 ms); failed ones count in the denominator.
  const f = JSON.parse(await readFile(GOODPUT, 'utf8'));
  let good = 0;
  for (let i = 0; i < f.ttfts.length; i++) {
    if (f.errors[i] !== '') continue;
    const n = f.output_lens[i];
    const tpot = n > 1 ? (f.latencies[i] - f.ttfts[i]) / (n - 1) : 0;
    if (f.ttfts[i] * 1e3 <= 250 && tpot * 1e3 <= 33) good++;
  }
  const first = Math.min(...f.start_times);
  const last = Math.max(...f.start_times.map((s, i) => (f.errors[i] === '' ? s + f.latencies[i] : -Infinity)));
  const rows = await sloRows(page);
  assert.equal(rows.length, 1);
  assert.ok(Math.abs(Number(rows[0].attainment) - good / f.ttfts.length) < 1e-12, `${rows[0].attainment} vs ${good}/${f.ttfts.length}`);
  assert.ok(Math.abs(Number(rows[0].goodput_rps) - good / (last - first)) < 1e-9);
  assert.equal(rows[0].tool, 'true', "vLLM's request_goodput under the same SLO agrees");
  // …and in the table of the tool's own figures, audited like the others.
  const audit = () => page.locator('[data-testid=tool-definitions] tr[data-tool-key=request_goodput] td[data-audit]').getAttribute('data-audit');
  assert.equal(await audit(), 'agrees');
  // Another SLO: the tool's figure (made under its own) is flagged, not hidden.
  await setSlo(page, 'ttft_ms=100,tpot_ms=33');
  assert.equal((await sloRows(page))[0].tool, 'false');
  assert.equal(await audit(), 'differs');
  // The goodput series is drawn beside system T/s.
  assert.match(await page.locator('[data-testid=chart-throughput-legend]').textContent(), /goodput T\/s/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a summary-only file: level targets checked on the tool\'s own statistics, per-request ones said to need each request', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await upload(page, [fixture('vllm/summary-only-c16.json')]);
  // The tool printed p99 TPOT 24.5 ms (read here from the file, not from tpsview).
  const f = JSON.parse(await readFile(fixture('vllm/summary-only-c16.json'), 'utf8'));
  await setSlo(page, `tpot_p99_ms=${f.p99_tpot_ms}`);
  const met = page.locator('[data-testid=slo-met]');
  assert.equal(await met.textContent(), "yes (tool's statistics)");
  await setSlo(page, `tpot_p99_ms=${f.p99_tpot_ms - 0.1}`);
  assert.equal(await met.textContent(), "no (tool's statistics)");
  assert.equal(await page.locator('[data-testid=kpi-capacity] .kpi-value').textContent(), 'none');
  // A per-request target cannot be checked without each request: "–" with the reason, and the
  // capacity is unknown, not "none".
  await setSlo(page, 'ttft_ms=300');
  assert.equal(await met.textContent(), '–');
  assert.match(await met.getAttribute('title'), /per-request targets need each request's latencies/);
  assert.match(await page.locator('[data-testid=slo-attainment]').getAttribute('title'), /summary figures only/);
  assert.equal(await page.locator('[data-testid=kpi-capacity] .kpi-value').textContent(), '–');
  assert.match(await page.locator('[data-testid=kpi-capacity]').textContent(), /cannot be checked/);
  // A price, but the file states no GPU count: the cost card says what it needs; given 2 GPUs,
  // $3 × 2 over an hour of the file's output throughput, per million.
  await page.fill('[data-testid=gpu-hour-usd]', '3');
  await page.locator('[data-testid=gpu-hour-usd]').blur();
  await settled(page);
  const cost = page.locator('[data-testid=kpi-cost]');
  assert.equal(await cost.getAttribute('data-value'), '');
  assert.match(await cost.textContent(), /needs the GPUs this run used/);
  await page.fill('[data-testid=cost-gpu-count]', '2');
  await page.locator('[data-testid=cost-gpu-count]').blur();
  await settled(page);
  const want = (3 * 2) / (f.output_throughput * 3600) * 1e6;
  assert.ok(Math.abs(Number(await cost.getAttribute('data-value')) - want) < 1e-9 * want, `${await cost.getAttribute('data-value')} vs ${want}`);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a bad SLO is named, not applied; a price gives the cost card and the cost axis; the link carries them', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await setSlo(page, 'ttft_p90_ms=500,tpot_p97_ms=50');
  const err = page.locator('[data-testid=slo-error]');
  assert.match(await err.textContent(), /"tpot_p97_ms=50".*unknown statistic/);
  assert.equal(await page.locator('[data-testid=slo-table]').count(), 0);
  await setSlo(page, 'ttft_p90_ms=500,tpot_p90_ms=50');
  assert.equal(await err.count(), 0);
  await page.fill('[data-testid=gpu-hour-usd]', '2.5');
  await page.locator('[data-testid=gpu-hour-usd]').blur();
  await settled(page);
  // $2.50 × the sample's 1 GPU over an hour of tokens at the capacity level, per million.
  const meta = JSON.parse(await readFile(SAMPLE, 'utf8')).runs[0].meta;
  const cap = Number(await page.locator('[data-testid=kpi-capacity]').getAttribute('data-value'));
  const usd = (2.5 * meta.gpu_count) / (cap * 3600) * 1e6;
  const cost = page.locator('[data-testid=kpi-cost]');
  assert.ok(Math.abs(Number(await cost.getAttribute('data-value')) - usd) < 1e-9);
  assert.ok(Math.abs(Number(await cost.getAttribute('data-tokens-per-usd')) - 1e6 / usd) < 1e-3);
  await page.check('[data-testid=cost-axis]');
  await settled(page);
  assert.match(await page.locator('[data-testid=chart-interactivity]').getAttribute('data-y'), /^USD per million output tokens/);
  // The permalink carries the SLO, the price and the axis: a fresh page opens with them.
  await page.click('[data-testid=make-permalink]');
  const link = await page.inputValue('[data-testid=permalink]');
  const again = await open(context, link);
  await settled(again.page);
  await again.page.waitForFunction(() => document.querySelector('[data-testid=slo]')?.value === 'ttft_p90_ms=500,tpot_p90_ms=50');
  // …and the panel opens by itself, since the link sets an SLO.
  await again.page.waitForFunction(() => document.querySelector('[data-testid=capacity]')?.open === true);
  assert.equal(await again.page.inputValue('[data-testid=gpu-hour-usd]'), '2.5');
  assert.equal(Number(await again.page.locator('[data-testid=kpi-cost]').getAttribute('data-value')), Number(await cost.getAttribute('data-value')));
  assert.match(await again.page.locator('[data-testid=chart-interactivity]').getAttribute('data-y'), /^USD per million/);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(again.log.errors, []);
  await again.page.close();
  await page.close();
});

test('the capacity panel at 390×844 and dark, and axe-core finds nothing serious', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await openPanel(page);
  await page.selectOption('[data-testid=slo-preset]', 'Chat');
  await page.fill('[data-testid=gpu-hour-usd]', '2.5');
  await page.locator('[data-testid=gpu-hour-usd]').blur();
  await settled(page);
  for (const [name, size, scheme] of [['capacity-390x844', { width: 390, height: 844 }, 'light'], ['capacity-dark', { width: 1280, height: 800 }, 'dark']]) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    await settled(page);
    await page.locator('[data-testid=capacity]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `${name}.png`) });
    assert.deepEqual(await axe(page), [], name);
  }
  assert.deepEqual(log.errors, []);
  await page.close();
});
