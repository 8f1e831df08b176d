// Secrets a file carries reach no page, link or bundle (issue 29): a vLLM result with an API key
// in a string field, a key and a password in its base URL, a bearer token in its command line and
// a key in a failed request's error is opened in the viewer; its keys are in no part of the page
// (the DOM, with "How this was run" open), the permalink, the inline link nor the exported bundle,
// while the masked fields are there as "[redacted]".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { serve, launch, open, fixture, settled, upload } from './harness.mjs';

const KEYS = ['sk-proj-PLANTEDa1b2c3d4e5f6g7h8i9', 'PLANTEDbearer0123456789abcdef', 'PLANTEDurlpass0123456789'];
let server, context, file;
before(async () => {
  server = await serve();
  context = await launch();
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-secrets-'));
  const v = JSON.parse(await readFile(fixture('vllm/detailed-small.json'), 'utf8'));
  v.api_key = KEYS[0];
  v.base_url = `https://me:${KEYS[2]}@llm.example/v1?api_key=${KEYS[0]}`;
  v.command = `vllm bench serve --header 'Authorization: Bearer ${KEYS[1]}'`;
  v.errors[0] = `401 Unauthorized: Incorrect API key provided: ${KEYS[0]}`;
  file = path.join(dir, 'planted-vllm.json');
  await writeFile(file, JSON.stringify(v));
});
after(async () => { await context?.close(); await server?.close(); });

function clean(what, text) {
  for (const k of KEYS) assert.ok(!text.includes(k), `${what} carries ${k}`);
}

test('a key in a file reaches no part of the page, no link and no bundle', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [file]);
  // Everything that shows text: the run's drawer and the sources list open.
  for (const d of await page.locator('details').all()) await d.evaluate((e) => { e.open = true; });
  await settled(page);
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  clean('the page', html);
  assert.ok(html.includes('[redacted]'), 'the masked fields are shown masked');
  await page.click('[data-testid=make-permalink]');
  clean('the permalink', await page.inputValue('[data-testid=permalink]'));
  await page.click('[data-testid=make-inline-link]');
  await page.waitForSelector('[data-testid=inline-link], [data-testid=inline-link-message]');
  if (await page.locator('[data-testid=inline-link]').count()) {
    const link = await page.inputValue('[data-testid=inline-link]');
    // The data inside is compressed: open it in a fresh page and read what it shows.
    const fresh = await context.newPage();
    await fresh.goto(link);
    await settled(fresh);
    clean('the inline link, opened', await fresh.evaluate(() => document.documentElement.outerHTML));
    await fresh.close();
  }
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-bundle]')]);
  const bundle = await readFile(await dl.path(), 'utf8');
  clean('the bundle', bundle);
  assert.ok(bundle.includes('[redacted]'));
  assert.deepEqual(log.errors, []);
  await page.close();
});
