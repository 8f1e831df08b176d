// What the server saw (issue 31), in a real headless Chromium: a real `tpsview bench
// --server-metrics` run on llama.cpp (4 slots; concurrency 1, 4, 8) opened in the viewer — the
// throughput chart's "asked 8, ran 4" mark and the dashed line at the batch the server ran, the
// peak card's batch, the timeline's server panel — checked against running means and queue
// lengths recounted here from the file's own arrays, then screenshots (light, phone, dark) and
// axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, open, fixture, shots, settled, upload, axe, cliSummary } from './harness.mjs';

const FILE = fixture('tpsview-bench/llamacpp-4slots-server-metrics.json');

let server, context;
before(async () => {
  server = await serve();
  context = await launch();
});
after(async () => { await context?.close(); await server?.close(); });

/** Per level, from the file: the running mean over the polls inside [first send, last response]
 *  and the most waiting there. */
async function recount() {
  const report = JSON.parse(await readFile(FILE, 'utf8'));
  return report.runs[0].points.map((p) => {
    const r = p.requests;
    const first = Math.min(...r.start_s);
    const last = Math.max(...r.start_s.map((s, i) => s + r.e2e_s[i]));
    const inside = p.server.t_s.map((t, i) => [t, i]).filter(([t]) => t >= first && t <= last).map(([, i]) => i);
    const running = inside.map((i) => p.server.values.running[i]);
    const waiting = inside.map((i) => p.server.values.waiting[i]);
    return {
      concurrency: p.concurrency,
      ran: running.reduce((a, b) => a + b, 0) / running.length,
      waited: Math.max(...waiting),
    };
  });
}

test('the batch the server ran, beside the concurrency asked', async () => {
  const levels = await recount();
  // The bench asked 8 of a 4-slot server: it ran 4 and queued 4.
  const at8 = levels.find((l) => l.concurrency === 8);
  assert.equal(Math.round(at8.ran), 4);
  assert.ok(at8.waited > 0);
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [FILE]);
  const chart = page.locator('[data-testid=chart-throughput]');
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-throughput]')?.dataset.drawn === 'true');
  const marks = (await chart.getAttribute('data-marks')).split(' | ');
  // Marked where the server ran fewer than asked while requests waited — only at 8.
  const short = levels.filter((l) => l.concurrency - l.ran >= 0.5 && l.waited > 0);
  assert.deepEqual(short.map((l) => l.concurrency), [8]);
  assert.ok(marks.includes(`asked 8, ran ${Math.round(at8.ran)}: ${at8.waited} waited@8`), marks.join(' | '));
  assert.equal(marks.filter((m) => m.startsWith('asked')).length, 1);
  // The legend names the dashed line.
  assert.match(await page.textContent('[data-testid=chart-throughput-legend], section[aria-labelledby=h-throughput]'), /system T\/s at the batch the server ran/);
  // The peak card: the level with the highest system T/s (from the CLI), and the batch there.
  const cli = cliSummary(FILE).runs[0].points;
  const peak = cli.reduce((a, b) => (b.system_tps > a.system_tps ? b : a));
  const card = page.locator('[data-testid=kpi-peak-system]').first();
  assert.equal(Number(await card.getAttribute('data-concurrency')), peak.concurrency);
  const ran = levels.find((l) => l.concurrency === peak.concurrency).ran;
  assert.ok(Math.abs(Number(await card.getAttribute('data-ran')) - ran) < 1e-9, `${await card.getAttribute('data-ran')} vs ${ran}`);
  assert.match(await card.textContent(), new RegExp(`the server ran ${ran.toFixed(1).replace(/\.0$/, '')}, ${peak.server.tokens_per_decode_step.toFixed(2)} tokens per decode step`));
  await page.screenshot({ path: path.join(shots, 'server-1280.png'), fullPage: false });
  // The timeline at 8: the server's panel under the requests.
  await page.selectOption('[data-testid=timeline-point]', { label: /8/ }).catch(async () => {
    const options = await page.$$eval('[data-testid=timeline-point] option', (o) => o.map((x) => [x.value, x.textContent]));
    const v = options.find(([, t]) => /concurrency 8\b/.test(t))?.[0];
    await page.selectOption('[data-testid=timeline-point]', v);
  });
  await settled(page);
  const timeline = page.locator('[data-testid=chart-timeline]');
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'server-timeline-1280.png') });
  assert.match(await page.textContent('section[aria-labelledby=h-timeline]'), /running \(the batch\)/);
  assert.deepEqual(await axe(page), []);
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await page.locator('[data-testid=kpi-peak-system]').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'server-390.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await settled(page);
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'server-dark.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});

test('an energy card from AIPerf GPU telemetry, recounted from the files', async () => {
  const files = [1, 4].map((c) => fixture(`aiperf/telemetry-c${c}_profile_export_aiperf.json`));
  // J per output token, from each file: distinct GPUs (by UUID; a GPU two exporters report at
  // the mean of theirs), energy counter max − min (MJ), ÷ total output tokens.
  const want = [];
  for (const f of files) {
    const d = JSON.parse(await readFile(f, 'utf8'));
    const gpus = new Map();
    for (const e of Object.values(d.telemetry_data.endpoints)) {
      for (const g of Object.values(e.gpus)) {
        const ec = g.metrics.energy_consumption;
        assert.equal(ec.unit, 'MJ');
        gpus.set(g.gpu_uuid, [...(gpus.get(g.gpu_uuid) ?? []), (ec.max - ec.min) * 1e6]);
      }
    }
    const joules = [...gpus.values()].reduce((a, v) => a + v.reduce((x, y) => x + y, 0) / v.length, 0);
    want.push({ concurrency: d.input_config.loadgen.concurrency, jpt: joules / d.total_output_tokens.avg });
  }
  // Batching shows in energy too: fewer joules per token at 4 than at 1.
  assert.ok(want[1].jpt < want[0].jpt / 3, JSON.stringify(want));
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, files);
  // The two files are one setup at two levels: one run, its card at the peak (concurrency 4).
  const cards = page.locator('[data-testid=kpi-energy]');
  assert.equal(await cards.count(), 1);
  const peak = Number(await page.getAttribute('[data-testid=kpi-peak-system]', 'data-concurrency'));
  assert.equal(peak, 4);
  const got = Number(await cards.first().getAttribute('data-value'));
  const at4 = want.find((w) => w.concurrency === 4).jpt;
  assert.ok(Math.abs(got - at4) < 1e-9 * at4, `${got} vs ${at4}`);
  const text = await cards.first().textContent();
  assert.match(text, /at concurrency 4 \(the peak\)/);
  assert.match(text, /1 GPU: NVIDIA RTX 6000 Ada Generation/);
  assert.match(text, /energy counter/);
  // Which GPU and over which window, in full in its title; the two counts' difference in a note.
  assert.match(await cards.first().getAttribute('title'), /counted once · AIPerf's telemetry window of the level, 65\.8 s/);
  assert.match(await page.textContent('[data-testid=energy-note] summary'), /two counts 20 % apart/);
  await cards.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'energy-1280.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});

test("AIPerf's server-metrics and GPU-telemetry exports, dropped with their records", async () => {
  // A level's folder as AIPerf writes it (tests/fixtures/aiperf/companions-c4/), its four files
  // dropped without their folder: the exports join the records nearest in time, the summary
  // pairs with them. Recounted here:
  // the running mean over the scrapes inside [first send, last response] on the records' clock,
  // and J per output token = the DCGM counter's max − min ÷ the records' output tokens.
  const dir = 'aiperf/companions-c4/';
  const files = ['profile_export.jsonl', 'server_metrics_export.jsonl', 'gpu_telemetry_export.jsonl', 'profile_export_aiperf.json'].map((f) => fixture(dir + f));
  const lines = async (f) => (await readFile(f, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const [recs, scrapes, gpu] = await Promise.all(files.slice(0, 3).map(lines));
  const t0 = recs.reduce((a, r) => (BigInt(r.metadata.request_start_ns) < a ? BigInt(r.metadata.request_start_ns) : a), BigInt(recs[0].metadata.request_start_ns));
  const start = recs.map((r) => Number(BigInt(r.metadata.request_start_ns) - t0) / 1e9);
  const last = Math.max(...recs.map((r, i) => start[i] + r.metrics.request_latency.value / 1e3));
  const running = scrapes
    .map((s) => [Number(BigInt(s.timestamp_ns) - t0) / 1e9, s.metrics['vllm:num_requests_running'][0].value])
    .filter(([t]) => t >= 0 && t <= last)
    .map(([, v]) => v);
  const ran = running.reduce((a, b) => a + b, 0) / running.length;
  const e = gpu.map((g) => g.telemetry_data.energy_consumption);
  const tokens = recs.reduce((a, r) => a + r.metrics.output_sequence_length.value, 0);
  const jpt = ((Math.max(...e) - Math.min(...e)) * 1e6) / tokens;
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, files);
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-throughput]')?.dataset.drawn === 'true');
  // One level, at the summary's concurrency 4: the exports make no run of their own.
  const card = page.locator('[data-testid=kpi-peak-system]').first();
  assert.equal(Number(await card.getAttribute('data-concurrency')), 4);
  assert.ok(Math.abs(Number(await card.getAttribute('data-ran')) - ran) < 1e-9, `${await card.getAttribute('data-ran')} vs ${ran}`);
  const energy = page.locator('[data-testid=kpi-energy]');
  assert.equal(await energy.count(), 1);
  const got = Number(await energy.first().getAttribute('data-value'));
  assert.ok(Math.abs(got - jpt) < 1e-9 * jpt, `${got} vs ${jpt}`);
  assert.match(await energy.first().textContent(), /NVIDIA H100 80GB HBM3/);
  assert.match(await page.textContent('section[aria-labelledby=h-timeline]'), /running \(the batch\)/);
  await energy.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'companions-1280.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
  // An export alone: said, naming it and what it needs; the page does not blank.
  const alone = await open(context, server.origin + '/');
  await upload(alone.page, [files[1]]);
  await alone.page.waitForFunction(() => /profile_export\.jsonl/.test(document.querySelector('[data-testid=sources]')?.textContent ?? ''));
  assert.match(await alone.page.textContent('[data-testid=sources]'), /server_metrics_export\.jsonl[\s\S]*open it with its level's records/);
  assert.deepEqual(alone.log.errors, []);
});

test("AIPerf's default server-metrics CSV beside its summary: the batch the server ran", async () => {
  // tests/fixtures/aiperf/server-stats-c8/: a summary-only level at concurrency 8 and AIPerf's
  // server_metrics_export.csv (its statistics over its profiling window). Read here from the
  // CSV's own cells: the running gauge's avg, the waiting gauge's max.
  const dir = 'aiperf/server-stats-c8/';
  const files = ['profile_export_aiperf.json', 'server_metrics_export.csv'].map((f) => fixture(dir + f));
  const csv = (await readFile(files[1], 'utf8')).split('\n');
  const header = csv.find((l) => l.startsWith('Endpoint,Type,Metric,Unit,avg')).split(',');
  const cell = (metric, col) => Number(csv.find((l) => l.split(',')[2] === metric).split(',')[header.indexOf(col)]);
  const ran = cell('vllm:num_requests_running', 'avg');
  const waited = cell('vllm:num_requests_waiting', 'max');
  assert.ok(8 - ran >= 0.5 && waited > 0, 'the fixture ran fewer than asked while requests waited');
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, files);
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-throughput]')?.dataset.drawn === 'true');
  const card = page.locator('[data-testid=kpi-peak-system]').first();
  assert.equal(Number(await card.getAttribute('data-concurrency')), 8);
  assert.equal(Number(await card.getAttribute('data-ran')), ran);
  const marks = (await page.locator('[data-testid=chart-throughput]').getAttribute('data-marks')).split(' | ');
  assert.ok(marks.includes(`asked 8, ran ${ran.toFixed(1)}: ${waited} waited@8`), marks.join(' | '));
  assert.match(await page.textContent('[data-testid=sources]'), /server_metrics_export\.csv/);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'server-stats-1280.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
});
