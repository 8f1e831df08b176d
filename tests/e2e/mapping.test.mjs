// A file no reader knows is not a dead end (issue 44): the page shows what the file holds, proposes
// a mapping, takes corrections one field at a time and reads the file again at once, saves the
// mapping as JSON (which the CLI's --map reads), reuses it for the next file of the same fields,
// and a permalink carries it. Expected figures are computed here from the rows themselves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { serve, launch, open, shots, settled, upload, tableRows, axe, root } from './harness.mjs';

const SECRET = 'sk-abcdefghijklmnopqrstuvwxyz123456';
// A team's own harness, in names tpsview's proposal reads: ms, epoch seconds, a level per row.
const HARNESS = [
  { sent_at: 1765000000.0, ttft_ms: 100, latency_ms: 1090, completion_tokens: 100, prompt_tokens: 50, concurrency: 1, status: 'ok' },
  { sent_at: 1765000001.5, ttft_ms: 300, latency_ms: 2280, completion_tokens: 100, prompt_tokens: 50, concurrency: 1, status: 'ok' },
  { sent_at: 1765000010.0, ttft_ms: 200, latency_ms: 1200, completion_tokens: 51, prompt_tokens: 60, concurrency: 2, status: 'ok' },
  { sent_at: 1765000010.0, ttft_ms: 400, latency_ms: 1400, completion_tokens: 51, prompt_tokens: 60, concurrency: 2, status: 'ok' },
];
// Names no proposal reads: `wait` is the TTFT in µs, `total_s` the E2E, `n_out` the output tokens.
const timings = (scale) => [
  { wait: 150000 * scale, total_s: 1.15 * scale, n_out: 101, users: 4, token: SECRET },
  { wait: 250000 * scale, total_s: 2.25 * scale, n_out: 201, users: 4, token: SECRET },
  { wait: 350000 * scale, total_s: 3.35 * scale, n_out: 301, users: 4, token: SECRET },
];
const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const close = (a, b, what) => assert.ok(Math.abs(a / b - 1) < 1e-9, `${what}: ${a} against ${b}`);

let server, context, dir;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tpsview-mapping-'));
  await writeFile(path.join(dir, 'own-harness.jsonl'), jsonl(HARNESS));
  await writeFile(path.join(dir, 'timings.jsonl'), jsonl(timings(1)));
  await writeFile(path.join(dir, 'timings-2.jsonl'), jsonl(timings(2)));
  server = await serve({ '/fx/timings.jsonl': [200, 'application/x-ndjson', jsonl(timings(1))] });
  context = await launch();
});
after(async () => { await context?.close(); await server?.close(); });

async function opened() {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.click('[data-testid=clear]');
  return { page, log };
}

/** Expected per level of per-request rows: mean TTFT (ms), mean TPOT (ms), system T/s. */
function expected(rows) {
  const levels = new Map();
  for (const r of rows) (levels.get(r.c) ?? levels.set(r.c, []).get(r.c)).push(r);
  return [...levels].map(([c, rs]) => {
    const t0 = Math.min(...rs.map((r) => r.start));
    const t1 = Math.max(...rs.map((r) => r.start + r.e2e));
    return {
      concurrency: c,
      ttft: mean(rs.map((r) => r.ttft * 1e3)),
      tpot: mean(rs.map((r) => (r.e2e - r.ttft) / (r.out - 1) * 1e3)),
      system: rs.reduce((s, r) => s + r.out, 0) / (t1 - t0),
    };
  });
}

const timingsRows = (rows) => rows.map((r) => ({ c: 4, start: 0, ttft: r.wait / 1e6, e2e: r.total_s, out: r.n_out }));

async function choose(page, field, testid, value) {
  await page.selectOption(`[data-testid=mapping-panel] tr[data-field="${field}"] [data-testid=${testid}]`, value);
  await settled(page);
}

test('a file in names tpsview knows is read through the proposed mapping, the panel open to check it', async () => {
  const { page, log } = await opened();
  await upload(page, [path.join(dir, 'own-harness.jsonl')]);
  const panel = page.locator('[data-testid=mapping-panel]');
  assert.equal(await panel.getAttribute('data-origin'), 'proposed');
  assert.equal(await page.locator('[data-testid=sources]').evaluate((d) => d.open), true, 'opened: a proposal must be checked');
  assert.equal(await page.locator('[data-testid=load-error]').count(), 0);
  assert.equal(await panel.locator('tr[data-field=ttft_ms] [data-testid=mapping-quantity]').inputValue(), 'ttft');
  assert.equal(await panel.locator('tr[data-field=ttft_ms] [data-testid=mapping-unit]').inputValue(), 'ms');
  const rows = await tableRows(page);
  // Sends are relative to each level's first in the file's own epoch seconds.
  const want = expected(HARNESS.map((r) => ({ c: r.concurrency, start: r.sent_at, ttft: r.ttft_ms / 1e3, e2e: r.latency_ms / 1e3, out: r.completion_tokens })));
  assert.equal(rows.length, want.length);
  for (const [row, w] of rows.map((r, i) => [r, want[i]])) {
    assert.equal(Number(row.concurrency), w.concurrency);
    close(row.ttft_mean_ms, w.ttft, 'mean TTFT');
    close(row.tpot_mean_ms, w.tpot, 'mean TPOT');
    assert.ok(Math.abs(row.system_tps / w.system - 1) < 1e-6, `system T/s ${row.system_tps} against ${w.system}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'mapping-1280x800.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('corrected field by field, the figures follow; saved, the CLI reads it; the next file of its fields reuses it', async () => {
  const { page, log } = await opened();
  await upload(page, [path.join(dir, 'timings.jsonl')]);
  const panel = page.locator('[data-testid=mapping-panel]');
  assert.equal(await panel.getAttribute('data-origin'), 'proposed');
  // Nothing says TTFT: the error names what is missing, the panel what the file holds.
  assert.match(await page.textContent('[data-testid=load-error]'), /timings\.jsonl.*ttft/);
  assert.match(await panel.textContent(), /It holds 3 rows with 5 fields/);
  assert.match(await panel.locator('tr[data-field=wait] .mapping-panel-samples').textContent(), /^150000, 250000, 350000$/);
  assert.ok(!(await panel.textContent()).includes(SECRET.slice(0, 12)), 'the secret sample is masked');
  await choose(page, 'wait', 'mapping-quantity', 'ttft');
  // Its unit from its magnitude (as ms a TTFT of 150–350 s is possible), corrected to µs.
  assert.equal(await panel.locator('tr[data-field=wait] [data-testid=mapping-unit]').inputValue(), 'ms');
  await choose(page, 'wait', 'mapping-unit', 'us');
  await choose(page, 'total_s', 'mapping-quantity', 'e2e');
  assert.equal(await panel.locator('tr[data-field=total_s] [data-testid=mapping-unit]').inputValue(), 's');
  await choose(page, 'n_out', 'mapping-quantity', 'output_tokens');
  assert.equal(await page.locator('[data-testid=load-error]').count(), 0);
  assert.equal(await panel.getAttribute('data-origin'), 'given');
  const [w] = expected(timingsRows(timings(1)));
  const [row] = await tableRows(page);
  assert.equal(Number(row.concurrency), 4, '`users` proposed as the level');
  close(row.ttft_mean_ms, w.ttft, 'mean TTFT');
  close(row.tpot_mean_ms, w.tpot, 'mean TPOT');

  // Saved: a tpsview-mapping/1 document the CLI reads the same file through, to the same figures.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=mapping-save]')]);
  assert.equal(dl.suggestedFilename(), 'mapping.json');
  const saved = await readFile(await dl.path(), 'utf8');
  const doc = JSON.parse(saved);
  assert.equal(doc.format, 'tpsview-mapping/1');
  assert.deepEqual(doc.fields.find((f) => f.field === 'wait'), { field: 'wait', quantity: 'ttft', unit: 'us' });
  const mapFile = path.join(dir, 'mapping.json');
  await writeFile(mapFile, saved);
  const bin = path.join(root, 'target', 'debug', 'tpsview');
  const cli = JSON.parse(execFileSync(bin, ['summarize', '--json', '--map', mapFile, path.join(dir, 'timings.jsonl')], { encoding: 'utf8' }));
  const p = cli.runs[0].points[0];
  assert.equal(p.ttft_ms.mean, row.ttft_mean_ms, 'the page and the CLI compute the same bits');
  assert.equal(p.tpot_ms.mean, row.tpot_mean_ms);

  // The next file with the same fields is read through it at once.
  await page.click('[data-testid=clear]');
  await upload(page, [path.join(dir, 'timings-2.jsonl')]);
  assert.equal(await panel.getAttribute('data-origin'), 'saved');
  assert.equal(await page.locator('[data-testid=load-error]').count(), 0);
  const [w2] = expected(timingsRows(timings(2)));
  const [row2] = await tableRows(page);
  close(row2.ttft_mean_ms, w2.ttft, 'mean TTFT of the second file');
  close(row2.tpot_mean_ms, w2.tpot, 'mean TPOT of the second file');

  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'mapping-390x844.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'mapping-dark.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a permalink carries the mapping: a fresh browser reads the file the link names through it', async () => {
  // A mapping written by hand, as docs/viewer.md describes the document.
  const mapping = {
    format: 'tpsview-mapping/1', records: '', scope: 'request', keys: Object.keys(timings(1)[0]).sort(),
    fields: [
      { field: 'wait', quantity: 'ttft', unit: 'us' },
      { field: 'total_s', quantity: 'e2e', unit: 's' },
      { field: 'n_out', quantity: 'output_tokens', unit: 'count' },
      { field: 'users', quantity: 'concurrency', unit: 'count' },
    ],
    concurrency: null, label: null,
  };
  const fresh = await launch();
  try {
    const url = `${server.origin}/?src=${encodeURIComponent('/fx/timings.jsonl')}&map=${encodeURIComponent(JSON.stringify(mapping))}#viewer`;
    const { page, log } = await open(fresh, url);
    await page.waitForSelector('[data-testid=mapping-panel]', { state: 'attached' });
    await settled(page);
    assert.equal(await page.getAttribute('[data-testid=mapping-panel]', 'data-origin'), 'saved');
    const [w] = expected(timingsRows(timings(1)));
    const [row] = await tableRows(page);
    close(row.ttft_mean_ms, w.ttft, 'mean TTFT');
    await page.click('[data-testid=make-permalink]');
    const link = new URL(await page.inputValue('[data-testid=permalink]'));
    assert.deepEqual(JSON.parse(link.searchParams.get('map')), mapping, 'the same document, every field');
    assert.ok(link.searchParams.getAll('src').some((s) => s.endsWith('/fx/timings.jsonl')), link.href);
    assert.deepEqual(log.errors, []);
    await page.close();
  } finally {
    await fresh.close();
  }
});
