// The numbers of 2026 on the page (issue 43): a reasoning run's cards lead with the first visible
// token, a run with sessions gets a lane per session (paged past fifty) with its sessions'
// figures, and the interactivity chart can take tokens/s per user at p90 as its x axis. Expected
// values are computed here from the fixture's own columns (tests/fixtures/sessions/README.md works
// them by hand), never read from tpsview's output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, launch, open, shots, settled, drawnAtSize, upload, fixture, axe } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

const FILE = fixture('sessions/two-sessions.tpsview.json');
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;

async function opened(file = FILE) {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.click('[data-testid=clear]');
  await upload(page, [file]);
  return { page, log };
}

test('a reasoning run leads with the first visible token and the share of output that was reasoning', async () => {
  const r = JSON.parse(await readFile(FILE, 'utf8')).runs[0].points[0].requests;
  const { page, log } = await opened();
  const card = page.locator('[data-testid=kpi-first-visible]');
  // The first card of the run's answer.
  assert.equal(await page.locator('.answer-cards > .kpi').first().getAttribute('data-testid'), 'kpi-first-visible');
  assert.ok(Math.abs(Number(await card.getAttribute('data-value')) - mean(r.ttfvt_s) * 1e3) < 1e-9);
  const share = r.reasoning_tokens.reduce((s, x) => s + x, 0) / r.output_tokens.reduce((s, x) => s + x, 0);
  assert.ok(Math.abs(Number(await card.getAttribute('data-reasoning-share')) - share) < 1e-12);
  const text = await card.textContent();
  assert.match(text, new RegExp(`${Math.round(share * 100)} % of output tokens were reasoning`));
  assert.match(text, new RegExp(`the first token at ${Math.round(mean(r.ttft_s) * 1e3)} ms`));
  // The peak card names the first visible token, not TTFT.
  assert.match(await page.textContent('[data-testid=kpi-peak-system]'), /first visible token 950 ms there/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a run with sessions: a lane per session, cold against warm TTFT, and the hover names the turn', async () => {
  const r = JSON.parse(await readFile(FILE, 'utf8')).runs[0].points[0].requests;
  const { page, log } = await opened();
  const figures = page.locator('[data-testid=sessions-figures]');
  await figures.waitFor();
  assert.equal(await figures.getAttribute('data-count'), String(new Set(r.session).size));
  const first = r.ttft_s.filter((_, i) => r.turn[i] === 0).map((t) => t * 1e3);
  const later = r.ttft_s.filter((_, i) => r.turn[i] > 0).map((t) => t * 1e3);
  const rows = await figures.locator('tbody tr').allTextContents();
  assert.match(rows[0], new RegExp(`^TTFT, first turn \\(ms\\)${Math.round(mean(first))}`));
  assert.match(rows[1], new RegExp(`^TTFT, later turns \\(ms\\)${Math.round(mean(later))}`));
  const pager = page.locator('[data-testid=sessions-pager]');
  assert.equal(await pager.getAttribute('data-shown'), '2');
  assert.equal(await page.locator('[data-testid=sessions-next]').count(), 0, 'two sessions: no pages');
  // Hover lane 1 (session a, first sent) late in the level: its third turn (sent 6.0 s, ends 10.3 s).
  const canvas = page.locator('[data-testid=chart-timeline]');
  await canvas.scrollIntoViewIfNeeded();
  await settled(page);
  assert.match(await canvas.getAttribute('data-y'), /^session/);
  const box = await canvas.boundingBox();
  await page.screenshot({ path: path.join(shots, 'sessions-1280x800.png'), clip: { x: 0, y: Math.max(0, box.y - 420), width: 1280, height: 800 } });
  let title = '';
  for (let k = 0; k < 40 && !/turn 2/.test(title); k++) {
    await page.mouse.move(box.x + box.width * (0.55 + k * 0.01), box.y + box.height * (0.2 + (k % 4) * 0.15));
    title = (await page.locator('[data-testid=chart-tooltip] .chart-tooltip-title').textContent({ timeout: 2000 }).catch(() => '')) ?? '';
  }
  assert.match(title, /^session [12], turn 2 \(request \d\)$/);
  // Requests instead of lanes, on request.
  await page.uncheck('[data-testid=timeline-by-session]');
  await settled(page);
  assert.match(await canvas.getAttribute('data-y'), /^request/);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('past fifty sessions the lanes are paged, fifty at a time, on a phone and dark too', async () => {
  const n = 240;
  const doc = { format: 'tpsview/1', runs: [{ label: 'many sessions', points: [{ concurrency: 8, requests: {
    start_s: Array.from({ length: n }, (_, i) => i * 0.5), ttft_s: Array(n).fill(0.1), e2e_s: Array(n).fill(2),
    output_tokens: Array(n).fill(20), input_tokens: Array(n).fill(100),
    cached_prompt_tokens: Array.from({ length: n }, (_, i) => (i < 120 ? 0 : 80)),
    session: Array.from({ length: n }, (_, i) => `s${String(i % 120).padStart(3, '0')}`),
    turn: Array.from({ length: n }, (_, i) => Math.floor(i / 120)) } }] }] };
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'tpsview-sessions-')), 'many.tpsview.json');
  await writeFile(file, JSON.stringify(doc));
  const { page, log } = await opened(file);
  const pager = page.locator('[data-testid=sessions-pager]');
  await pager.waitFor();
  const state = async () => [await pager.getAttribute('data-total'), await pager.getAttribute('data-first'), await pager.getAttribute('data-shown')];
  assert.deepEqual(await state(), ['120', '0', '50']);
  assert.match(await pager.textContent(), /^Sessions 1–50 of 120/);
  assert.ok(await page.locator('[data-testid=sessions-prev]').isDisabled());
  await page.click('[data-testid=sessions-next]');
  await page.waitForFunction(() => document.querySelector('[data-testid=sessions-pager]')?.dataset.first === '50');
  await page.click('[data-testid=sessions-next]');
  await page.waitForFunction(() => document.querySelector('[data-testid=sessions-pager]')?.dataset.first === '100');
  assert.deepEqual(await state(), ['120', '100', '20']);
  assert.ok(await page.locator('[data-testid=sessions-next]').isDisabled());
  // Each session: 0 of 100 cached on its first turn, 80 of 100 on its second → 40 % each.
  const hit = await page.locator('[data-testid=sessions-figures] tbody tr').nth(3).textContent();
  assert.match(hit, /^prefix-cache hit rate per session \(%\)(40(\.0)?){3}$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await drawnAtSize(page);
  await pager.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'sessions-390x844.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await drawnAtSize(page);
  await pager.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'sessions-dark.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the interactivity chart takes tokens/s per user at p90 as its x axis', async () => {
  const { page, log } = await opened();
  const canvas = page.locator('[data-testid=chart-interactivity]');
  assert.match(await canvas.getAttribute('data-x'), /^per-stream T\/s/);
  const draws = Number(await canvas.getAttribute('data-draws'));
  await page.check('[data-testid=per-user-x]');
  await settled(page);
  assert.match(await canvas.getAttribute('data-x'), /^tokens\/s per user, p90/);
  assert.ok(Number(await canvas.getAttribute('data-draws')) > draws);
  // The tooltip at the level: x is the slow-tail p90 of OSL ÷ E2E (README: 8.98 tok/s/user).
  await canvas.scrollIntoViewIfNeeded();
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  const tip = page.locator('[data-testid=chart-tooltip]');
  await tip.waitFor();
  // Its rows name the axes' quantities (not per-stream T/s once x is per user).
  assert.match(await tip.textContent(), /tokens\/s per user, p908\.98/);
  assert.doesNotMatch(await tip.textContent(), /per-stream/);
  await page.screenshot({ path: path.join(shots, 'interactivity-per-user.png') });
  assert.deepEqual(log.errors, []);
  await page.close();
});
