// Teaching mode in a real headless Chromium: the walkthrough step by step (texts, highlighted
// values against the table, deep links, keyboard), the decode model, the claim reader and the
// glossary. Screenshots of each step go to target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, open, tableRows, shots, settled, root, cliSummary } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

const values = (page) => page.$$eval('[data-testid=learn-values] dd', (dds) => dds.map((d) => Number(d.dataset.value)));

test('the walkthrough walks every step with the run\'s own numbers', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const rows = await tableRows(page);
  const at = (c) => rows.find((r) => r.concurrency === String(c));
  // Tokens/s per user at the busiest level, from the CLI's summary of the same sample.
  const cli128 = cliSummary(path.join(root, 'public/samples/h100-llama70b-fp8.tpsview.json')).runs[0].points.find((p) => p.concurrency === 128);
  const user = cli128.interactivity;
  await page.click('a:text("Learn")');
  await page.waitForSelector('[data-testid=learn-step]');
  const expected = [
    ['decode-step', /one step every 19\.9 ms/, [1, at(1).tpot_mean_ms]],
    ['batch-one', /per-stream T\/s = 1 \/ TPOT = 50\.3 T\/s/, [at(1).per_stream_tps, at(1).system_tps]],
    ['shared-read', /At concurrency 64, 64 streams share each read/, [64, at(64).per_stream_tps, at(64).system_tps]],
    ['per-stream-falls', /mean TPOT grows from 19\.9 ms to 36\.0 ms/, [at(128).tpot_mean_ms, at(128).tpot_p99_ms]],
    ['both-correct', /one user sees 27\.8 T\/s/, [at(128).per_stream_tps, at(128).system_tps]],
    // Capacity under mean-TPOT targets, by hand from the table: the busiest level within 30 ms is 64.
    ['capacity', /mean TPOT ≤ 50 ms \(20 T\/s per user\): concurrency 128.*mean TPOT ≤ 30 ms \(33 T\/s per user\): concurrency 64.*mean TPOT ≤ 20 ms \(50 T\/s per user\): concurrency 1,/, [64, at(64).system_tps]],
    ['read-a-claim', /Ask which aggregation it is.*about 47\.5 T\/s.*or a few percent more, because the bound is ideal.*the quoted 50 T\/s at batch 1 is such a figure, 5 % over/, []],
    ['per-user', /At concurrency 128, per-stream T\/s .* 90 % of requests get at least .*slow tail.*the other tail/, [user.per_stream_tps, user.e2e_normalized.p50, user.e2e_normalized.p90]],
  ];
  for (let i = 0; i < expected.length; i++) {
    const [slug, text, vals] = expected[i];
    const step = page.locator('[data-testid=learn-step]');
    await page.waitForFunction((s) => document.querySelector('[data-testid=learn-step]')?.dataset.slug === s, slug);
    // The step's chart is drawn for this step (not the last one) before anything is read off it.
    await settled(page);
    assert.match(await step.textContent(), text, slug);
    assert.deepEqual(await values(page), vals, slug);
    assert.equal(new URL(page.url()).hash, `#learn/${i + 1}`);
    assert.equal(await page.locator('.learn-panel canvas.chart-canvas').first().getAttribute('data-drawn'), 'true');
    const tips = page.locator('.learn-panel [data-testid=chart-tooltip]');
    if (vals.length) {
      // The discussed level is highlighted: the chart's tooltip is pinned on it.
      assert.equal(await tips.count(), 1, slug);
    }
    await page.screenshot({ path: path.join(shots, `learn-${i + 1}-${slug}.png`) });
    if (i + 1 < expected.length) await page.click('text=Next →');
  }
  // ← goes back; deep links open a step directly.
  await page.focus('[data-testid=learn]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => location.hash === '#learn/7');
  await page.goto(server.origin + '/#learn/3');
  await page.waitForFunction(() => document.querySelector('[data-testid=learn-step]')?.dataset.slug === 'shared-read');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('explain this run: the walkthrough follows an uploaded file', async () => {
  const { page } = await open(context, server.origin + '/#learn/2');
  await page.waitForSelector('[data-testid=learn-step]');
  await page.setInputFiles('[data-testid=file-input]', path.join(process.cwd(), 'tests/fixtures/vllm/append-result.json'));
  // Loads run in a worker: wait until the uploaded file has replaced the example.
  await page.waitForFunction(() => [...document.querySelectorAll('.diagnostics-list-name')].map((e) => e.textContent).join() === 'append-result.json');
  await page.waitForFunction(() => /concurrency 1 and|1 stream in flight/.test(document.querySelector('[data-testid=learn-step]')?.textContent ?? ''));
  await settled(page);
  assert.deepEqual(await values(page), [1000 / 20, 50]);
  await page.close();
});

test('the decode model computes the bound and rates the loaded run', async () => {
  const { page, log } = await open(context, server.origin + '/#model');
  await page.waitForSelector('[data-testid=decode-model]');
  await page.waitForSelector('[data-testid=efficiency] tbody tr');
  await settled(page);
  // Defaults: H100 SXM, Llama 3.1 70B, FP8; batch 64; the context is the loaded run's own: its
  // mean prompt plus half its mean output (the mean length while decoding), computed here from
  // the sample's request columns.
  const sample = JSON.parse(await readFile(path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json'), 'utf8'));
  let [n, sin, sout] = [0, 0, 0];
  for (const p of sample.runs[0].points) {
    p.requests.output_tokens.forEach((o, i) => { n++; sout += o; sin += p.requests.input_tokens[i]; });
  }
  const ctx = Math.round(sin / n + sout / n / 2);
  assert.equal(Number(await page.inputValue('input[aria-label="context tokens per sequence"]')), ctx);
  const kvPerToken = 2 * 80 * 8 * 128 * 2;
  const perStream = Number(await page.getAttribute('[data-testid=bound-per-stream]', 'data-value'));
  const bytes = 70.6e9 + 64 * ctx * kvPerToken;
  assert.ok(Math.abs(perStream - 3.35e12 / bytes) < 1e-9, `${perStream}`);
  // One story: batch 1 sits a few percent above the ideal bound ("≈ bound", explained), the other
  // levels under it; nothing is called beyond.
  const cli = cliSummary(path.join(root, 'public', 'samples', 'h100-llama70b-fp8.tpsview.json')).runs[0];
  for (const p of cli.points) {
    const bound = p.concurrency * 3.35e12 / (70.6e9 + p.concurrency * ctx * kvPerToken);
    const r = p.system_tps / bound;
    const want = r <= 1 ? 'below' : r <= 1.1 ? 'at' : 'beyond';
    const cell = page.locator(`[data-testid=efficiency] tr[data-concurrency="${p.concurrency}"] td[data-against]`);
    assert.equal(await cell.getAttribute('data-against'), want, `batch ${p.concurrency}: ${r}`);
  }
  assert.equal(await page.getAttribute('[data-testid=efficiency] tr[data-concurrency="1"] td[data-against]', 'data-against'), 'at');
  assert.equal(await page.locator('[data-testid=efficiency] td[data-against=beyond]').count(), 0);
  assert.match(await page.textContent('[data-testid=efficiency-note]'), /the bound is ideal/);
  // Batch 1 without context: 47.45 T/s, the figure of docs/metrics.md.
  await page.fill('input[aria-label="context tokens per sequence"]', '0');
  await page.press('input[aria-label="context tokens per sequence"]', 'Enter');
  await page.fill('input[aria-label="batch size"]', '1');
  await page.press('input[aria-label="batch size"]', 'Enter');
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('[data-testid=bound-per-stream]').dataset.value) - 47.45) < 0.01);
  assert.match(await page.textContent('[data-testid=bound-knee]'), /^\d/);
  // H200 + Llama 3.1 8B BF16: 300 T/s.
  await page.selectOption('select[aria-label="GPU preset"]', { label: 'H200' });
  await page.selectOption('select[aria-label="model preset"]', { label: 'Llama 3.1 8B' });
  await page.fill('input[aria-label="parameters (billions)"]', '8');
  await page.press('input[aria-label="parameters (billions)"]', 'Enter');
  await page.selectOption('select[aria-label="weight precision"]', { index: 0 });
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('[data-testid=bound-per-stream]').dataset.value) - 300) < 1e-6);
  assert.equal(await page.locator('[data-testid=efficiency] tbody tr').count(), 4);
  await settled(page);
  assert.equal(await page.getAttribute('[data-testid=chart-roofline]', 'data-drawn'), 'true');
  await page.screenshot({ path: path.join(shots, 'decode-model.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the claim reader classifies a table of claims', async () => {
  const { page } = await open(context, server.origin + '/#claim');
  await page.waitForSelector('[data-testid=claim-reader]');
  const cases = [
    // claim, model, precision, gpu, gpus, verdict
    [50, 'Llama 3.1 70B', 'FP8', 'H100 SXM', 1, 'per_stream'],
    [4000, 'Llama 3.1 70B', 'FP8', 'H100 SXM', 1, 'system'],
    [40000, 'Llama 3.1 70B', 'FP8', 'H100 SXM', 1, 'impossible'],
    [40000, 'Llama 3.1 70B', 'FP8', 'H100 SXM', 8, 'system'],
    [250, 'Llama 3.1 8B', 'BF16', 'H200', 1, 'per_stream'],
    [20, 'Llama 3.1 405B', 'INT4', 'A100 80 GB', 1, 'system'],
  ];
  for (const [claim, model, prec, gpu, n, want] of cases) {
    await page.fill('[data-testid=claim-value]', String(claim));
    await page.selectOption('[data-testid=claim-model]', { label: model });
    await page.selectOption('[data-testid=claim-precision]', { label: prec });
    await page.selectOption('[data-testid=claim-gpu]', { label: gpu });
    await page.fill('[data-testid=claim-gpus]', String(n));
    await page.waitForFunction((w) => document.querySelector('[data-testid=claim-verdict]').dataset.verdict === w, want);
  }
  await page.fill('[data-testid=claim-value]', '4000');
  await page.selectOption('[data-testid=claim-model]', { label: 'Llama 3.1 70B' });
  await page.selectOption('[data-testid=claim-precision]', { label: 'FP8' });
  await page.selectOption('[data-testid=claim-gpu]', { label: 'H100 SXM' });
  await page.fill('[data-testid=claim-gpus]', '1');
  await page.waitForFunction(() => document.querySelector('[data-testid=claim-verdict]').dataset.verdict === 'system');
  assert.match(await page.textContent('[data-testid=claim-reader]'), /3\.35 TB\/s ÷ 70\.6 GB = 47\.5 tokens\/s/);
  // The same story as the decode model and Learn: 50 T/s is 5 % above the ideal bound, explained.
  await page.fill('[data-testid=claim-value]', '50');
  await page.waitForFunction(() => document.querySelector('[data-testid=claim-verdict]').dataset.verdict === 'per_stream');
  assert.match(await page.textContent('[data-testid=claim-verdict]'), /5 % above the ideal single-stream bound of 47\.5 T\/s — close enough, because the bound is ideal/);
  // "114 tok/s/user at p90" on a 70B FP8 H100: 114 ÷ (3.35 TB/s ÷ 70.6 GB) = 2.4 × what one stream
  // can decode, so not one user's rate there; on an 8B BF16 H200 (4.8 TB/s ÷ 16.06 GB = 298.9) it can be.
  await page.fill('[data-testid=claim-value]', '114');
  await page.selectOption('[data-testid=claim-kind]', 'user');
  await page.waitForFunction(() => document.querySelector('[data-testid=claim-verdict]').dataset.verdict === 'not_per_user');
  assert.match(await page.textContent('[data-testid=claim-verdict]'), /^Not one user's rate on this hardware: 2\.4 × .*fast-tail p90.*Ask which p90 it is/);
  await page.selectOption('[data-testid=claim-model]', { label: 'Llama 3.1 8B' });
  await page.selectOption('[data-testid=claim-precision]', { label: 'BF16' });
  await page.selectOption('[data-testid=claim-gpu]', { label: 'H200' });
  await page.waitForFunction(() => document.querySelector('[data-testid=claim-verdict]').dataset.verdict === 'per_user');
  assert.match(await page.textContent('[data-testid=claim-verdict]'), /^Can be tokens\/s per user: .*slow tail/);
  await page.screenshot({ path: path.join(shots, 'claim.png') });
  await page.close();
});

test('every metric label links to the glossary, which has each tool\'s definition', async () => {
  const { page } = await open(context, server.origin + '/');
  await settled(page);
  const links = await page.$$eval('[data-testid=summary-table] thead a', (as) => as.map((a) => a.getAttribute('href')));
  assert.ok(links.length >= 9 && links.every((h) => h.startsWith('#glossary-')), links.join(' '));
  // Each chart section names its metrics with links too, and every link has a term to land on.
  const chartLinks = await page.$$eval('.viewer-page-terms a', (as) => as.map((a) => a.getAttribute('href')));
  assert.ok(chartLinks.length >= 9, chartLinks.join(' '));
  const ids = new Set([...links, ...chartLinks].map((h) => h.slice(1)));
  await page.goto(server.origin + '/#glossary');
  await page.waitForSelector('[data-testid=glossary]');
  for (const id of ids) assert.equal(await page.locator(`#${id}`).count(), 1, id);
  await page.goto(server.origin + '/');
  await settled(page);
  await page.click('[data-testid=summary-table] thead a[href="#glossary-tpot"]');
  const term = page.locator('#glossary-tpot');
  await term.waitFor();
  assert.match(await term.textContent(), /GenAI-Perf \/ AIPerf: called "inter_token_latency"/);
  assert.ok(await term.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top > -1 && r.top < innerHeight; }), 'scrolled into view (sub-pixel layout: a top of −0.3 is the top)');
  await page.screenshot({ path: path.join(shots, 'glossary.png') });
  await page.close();
});

test('a probe report sets the decode model from its measured bandwidth and peak, and the walkthrough runs on it', async () => {
  const file = path.join(root, 'public', 'samples', 'cpu-probe.tpsview.json');
  const report = JSON.parse(await readFile(file, 'utf8'));
  const labels = report.runs[0].meta.labels;
  const bw = Number(labels.bandwidth_gbs) * 1e9;
  const weights = Number(labels.weight_bytes);
  const { page, log } = await open(context, server.origin + '/?src=samples/cpu-probe.tpsview.json#model');
  await page.waitForSelector('[data-testid=decode-model-probe]');
  assert.match(await page.textContent('[data-testid=decode-model-probe]'), new RegExp(`streaming bandwidth ${Number(labels.bandwidth_gbs).toFixed(2)} GB/s`));
  // Batch 1's bound per stream: one read of the probe's weights at its measured bandwidth.
  await page.fill('input[aria-label="batch size"]', '1');
  await page.press('input[aria-label="batch size"]', 'Enter');
  await page.waitForFunction((want) => Math.abs(Number(document.querySelector('[data-testid=bound-per-stream]')?.dataset.value) - want) < 1e-6 * want, bw / weights);
  // Every measured batch is rated against that bound.
  await page.waitForSelector('[data-testid=efficiency] tbody tr');
  assert.equal(await page.locator('[data-testid=efficiency] tbody tr').count(), report.runs[0].points.length);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'probe-model.png'), fullPage: true });
  // The Learn walkthrough on the probe: its batch-1 step names the probe's own figures.
  await page.goto(server.origin + '/?src=samples/cpu-probe.tpsview.json#learn/2');
  await page.waitForSelector('[data-testid=learn-step]');
  await settled(page);
  const cli = cliSummary(file).runs[0].points[0];
  const step = await page.textContent('[data-testid=learn-step]');
  assert.ok(step.includes(`per-stream T/s = 1 / TPOT = ${cli.per_stream_tps.toFixed(1)} T/s`), step);
  assert.ok(step.includes('One stream has the hardware to itself'), step);
  assert.deepEqual(log.errors, []);
  await page.close();
});
