// Every tool's files in a real headless Chromium: detection, pairing, the tool-definitions panel
// with its audit marks (checked against `tpsview summarize --json`), bad records, hostile strings,
// the "read as" override and regrouping runs by name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeFile, mkdtemp, mkdir, copyFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { serve, launch, open, cliSummary, cliValue, tableRows, fixture, shots, settled } from './harness.mjs';

let server, context;
before(async () => { server = await serve(); context = await launch(); });
after(async () => { await context?.close(); await server?.close(); });

const METRICS = ['system_tps', 'per_stream_tps', 'tpot_mean_ms', 'tpot_p99_ms', 'ttft_mean_ms', 'e2e_mean_ms', 'requests_ok'];

async function upload(page, files, rows) {
  await settled(page);
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=summary-row]').length === n
    && !document.querySelector('.viewer-page-busy')?.textContent, rows);
  await settled(page);
}

test('a GenAI-Perf export and its summary pair into one point, with the tool\'s definitions beside it', async () => {
  const { page, log } = await open(context, server.origin + '/');
  const files = [fixture('genai-perf/profile_export.json'), fixture('genai-perf/profile_export_genai_perf.json')];
  await upload(page, files, 1);
  const [row] = await tableRows(page);
  const [p] = cliSummary(...files).runs[0].points;
  for (const m of METRICS) assert.equal(row[m], cliValue(p, m), m);
  assert.equal(row.concurrency, '4');
  const block = page.locator('[data-testid=tool-definitions][data-tool=genai-perf]');
  assert.match(await block.locator('summary').textContent(), /How GenAI-Perf defines the numbers/);
  assert.match(await block.textContent(), /"inter token latency" is tpsview's TPOT/);
  // GenAI-Perf's ITL maps to tpsview's TPOT, and the recomputation under its definition agrees.
  const itl = block.locator('tr[data-tool-key="inter_token_latency.avg"]');
  assert.match(await itl.textContent(), /tpot_mean_ms/);
  const cell = itl.locator('td[data-audit]');
  assert.equal(await cell.getAttribute('data-audit'), 'agrees');
  assert.equal(Number(await cell.getAttribute('data-value')), p.reported['inter_token_latency.avg']);
  // Every figure the CLI audited is marked as checked in the page, and nothing differs.
  const agrees = await block.locator('td[data-audit=agrees]').count();
  assert.equal(agrees, p.audited.length);
  assert.equal(await block.locator('td[data-audit=differs]').count(), 0);
  // Per-user throughput is GenAI-Perf's own definition, named as such.
  assert.match(await block.locator('tr[data-tool-key="output_token_throughput_per_user.avg"]').textContent(), /mean over requests of \(N − 1\) \/ \(E2E − TTFT\)/);
  assert.match(await page.textContent('.diagnostics-list'), /paired with its summary/);
  await page.screenshot({ path: path.join(shots, 'genai-perf-pair.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a re-tokenized summary is flagged under the tool\'s own definition, with its cause', async () => {
  const { page, log } = await open(context, server.origin + '/');
  const files = [fixture('genai-perf/profile_export.json'), fixture('genai-perf/discrepant-retokenized_genai_perf.json')];
  await upload(page, files, 1);
  const [p] = cliSummary(...files).runs[0].points;
  const differs = page.locator('[data-testid=tool-definitions] td[data-audit=differs]');
  assert.equal(await differs.count(), p.discrepancies.length);
  const itl = page.locator('tr[data-tool-key="inter_token_latency.avg"] td[data-audit]');
  assert.equal(await itl.getAttribute('data-audit'), 'differs');
  assert.match(await itl.getAttribute('title'), /re-tokenizes/);
  // The summary table flags tpsview's TPOT (same quantity), not the tool-defined per-user rate.
  assert.match(await page.locator('[data-metric=tpot_mean_ms]').getAttribute('class'), /summary-table-differs/);
  assert.doesNotMatch(await page.locator('[data-metric=per_stream_tps]').getAttribute('class') ?? '', /summary-table-differs/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('every tool\'s files load together, each with its format named and its figures equal to the CLI', async () => {
  const { page, log } = await open(context, server.origin + '/');
  const files = [
    'sglang/bench-serving-details.jsonl', 'sglang/one-batch.jsonl',
    'aiperf/profile_export.jsonl', 'aiperf/profile_export_aiperf.json',
    'trtllm/concurrency8-requests.json', 'trtllm/concurrency8-report.json',
    'llama-bench/threads-sweep.json',
    'llmperf/llama-3-8b_550_150_individual_responses.json', 'llmperf/llama-3-8b_550_150_summary.json',
    'guidellm/benchmarks-v0.2.json', 'guidellm/benchmarks-v0.5-sampled.json',
    'inference-benchmarker/results.json', 'vllm-latency/latency.json', 'vllm-throughput/throughput.json',
  ].map(fixture);
  const cli = cliSummary(...files);
  const n = cli.runs.reduce((a, r) => a + r.points.length, 0);
  await upload(page, files, n);
  assert.equal(await page.locator('[data-testid=load-error]').count(), 0);
  const list = await page.textContent('.diagnostics-list');
  for (const name of ['SGLang bench_serving JSONL', 'SGLang bench_one_batch JSONL', 'AIPerf profile_export.jsonl',
    'TensorRT-LLM trtllm-bench report JSON', 'llama.cpp llama-bench JSON/JSONL', 'LLMPerf individual_responses JSON',
    'GuideLLM benchmarks JSON', 'HF inference-benchmarker results', 'vLLM bench latency JSON', 'vLLM bench throughput JSON']) {
    assert.ok(list.includes(name), name);
  }
  const rows = await tableRows(page);
  for (const run of cli.runs) {
    const mine = rows.filter((r) => r.run === run.label);
    assert.equal(mine.length, run.points.length, run.label);
    run.points.forEach((p, i) => {
      for (const m of METRICS) assert.equal(mine[i][m], cliValue(p, m), `${run.label} ${m}`);
    });
  }
  // No tool figure disagrees with its recomputation anywhere (the fixtures' acceptance test).
  assert.equal(await page.locator('[data-testid=tool-definitions] td[data-audit=differs]').count(), 0);
  assert.ok(await page.locator('[data-testid=tool-definitions] td[data-audit=agrees]').count() > 40);
  // The llama-bench sweep's axis is its swept parameter.
  const tools = await page.$$eval('[data-testid=tool-definitions]', (b) => b.map((x) => x.dataset.tool));
  for (const t of ['sglang-bench-serving', 'aiperf', 'trtllm-bench', 'llama-bench', 'llmperf', 'guidellm-0.2', 'guidellm-0.5', 'inference-benchmarker']) {
    assert.ok(tools.includes(t), t);
  }
  assert.match(await page.textContent('[data-testid=tool-definitions][data-tool=llama-bench]'), /n_threads 8/);
  await page.screenshot({ path: path.join(shots, 'all-formats.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('broken and hostile files: bad records are listed, HTML stays text, truncated files say so', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [fixture('aiperf/broken-lines.jsonl'), fixture('sglang/bench-serving-details.jsonl'),
    fixture('llmperf/broken_individual_responses.json')], 4);
  await page.setInputFiles('[data-testid=file-input]', fixture('genai-perf/truncated_profile_export.json'));
  await page.waitForSelector('[data-testid=load-error]');
  await settled(page);
  const err = await page.textContent('[data-testid=load-error]');
  assert.match(err, /truncated_profile_export\.json/);
  const warnings = await page.$$eval('.diagnostics-list-warnings li', (l) => l.map((x) => x.textContent));
  assert.ok(warnings.some((w) => /broken-lines\.jsonl: warning: field `line 6`/.test(w)), warnings.join('\n'));
  assert.ok(warnings.some((w) => /broken_individual_responses\.json: warning: field `\[4\]`, request 4/.test(w)), warnings.join('\n'));
  // The SGLang tag holds <b>…</b>: shown as text, never as markup.
  const labels = await page.$$eval('[data-testid=summary-row] th', (t) => t.map((x) => x.textContent));
  assert.ok(labels.includes('sglang · <b>Llama-3.1-8B</b>'), labels.join('|'));
  assert.equal(await page.locator('[data-testid=summary-table] b').count(), 0);
  assert.equal(await page.locator('.diagnostics-list i, .diagnostics-list img').count(), 0);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a file can be read as another format, and files renamed alike form one run', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await upload(page, [fixture('sglang/bench-serving-details.jsonl'), fixture('guidellm/benchmarks-v0.2.json')], 4);
  // The answer comes first: the file rows are under Sources (2), collapsed after a load.
  const sources = page.locator('[data-testid=sources]');
  assert.equal(await sources.evaluate((d) => d.open), false);
  assert.match(await sources.locator(':scope > summary').textContent(), /^Sources \(2\)/);
  await sources.locator(':scope > summary').click();
  const selects = page.locator('[data-testid=read-as]');
  assert.equal(await selects.first().inputValue(), 'sglang-bench-serving');
  await selects.first().selectOption('vllm-bench-serve');
  await page.waitForFunction(() => document.querySelector('[data-testid=read-as]').value === 'vllm-bench-serve'
    && document.querySelector('.diagnostics-list-format').textContent.includes('vLLM bench serve result'));
  // The file list changes at once; the summary (and with it the tool-definitions panel) two tasks
  // later: wait for the page to have done it.
  await settled(page);
  assert.equal(await page.locator('[data-testid=tool-definitions][data-tool=vllm-bench-serve]').count(), 1);
  assert.equal(await sources.evaluate((d) => d.open), true, 'what the user opened stays open');
  // Two runs; name both "before" and they become one run of four points.
  let runs = new Set((await tableRows(page)).map((r) => r.run));
  assert.equal(runs.size, 2);
  const names = page.locator('[data-testid=run-label]');
  for (let i = 0; i < 2; i++) {
    // Typed and committed (Enter or leaving the field fires `change`).
    await names.nth(i).evaluate((el) => { el.value = 'before'; el.dispatchEvent(new Event('change', { bubbles: true })); });
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid=run-label]')[k].value === 'before', i);
  }
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=summary-row]')].every((r) => r.dataset.run === 'before'));
  await settled(page);
  const rows = await tableRows(page);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows.map((r) => r.concurrency), ['1', '4', '4', '8']);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('an unknown file says how many formats were tried, offers each in its read-as list and a mapping, and can be read as one of them', async () => {
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-fmt-'));
  const csv = path.join(dir, 'concurrency2-export.csv');
  // A GenAI-Perf CSV whose first line was edited away: detection fails.
  await writeFile(csv, 'Stat,avg\nTime To First Token (ms),"1,120.5"\nRequest Latency (ms),"2,000"\n');
  await page.setInputFiles('[data-testid=file-input]', csv);
  await page.waitForSelector('[data-testid=load-error]');
  const err = await page.textContent('[data-testid=load-error]');
  assert.match(err, /concurrency2-export\.csv/);
  assert.match(err, /none of the \d+ supported formats reads it/);
  assert.ok(err.length < 900, `a short message, not every format's name: ${err.length} characters`);
  // Every format is offered beside it, and a mapping panel shows what the file holds.
  const offered = await page.locator('[data-testid=read-as] option').allTextContents();
  for (const name of ['GenAI-Perf profile_export_genai_perf.csv', 'GuideLLM benchmarks JSON', 'LLMPerf summary JSON']) assert.ok(offered.includes(name), name);
  assert.match(await page.textContent('[data-testid=mapping-panel]'), /It holds 2 rows with 2 fields/);
  await page.locator('[data-testid=read-as]').selectOption('genai-perf-csv');
  // Read as GenAI-Perf CSV it still has no `Metric,…` header: a clear error, not a blank page.
  await page.waitForFunction(() => /no metric rows/.test(document.querySelector('[data-testid=load-error]')?.textContent ?? ''));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a vllm bench sweep serve folder opens as runs by setting and repeat, each run read once', async () => {
  const { page } = await open(context, server.origin + '/');
  await settled(page);
  const dir = fixture('vllm-sweep/exp-20261130');
  // The folder picker: the attribute is set once the input exists.
  await page.waitForSelector('[data-testid=folder-input][webkitdirectory]', { state: 'attached' });
  await page.setInputFiles('[data-testid=folder-input]', dir);
  // 4 runs (2 settings × 2 repeats) with 7 levels; the failed repeat is a file with an error.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 7
    && !document.querySelector('.viewer-page-busy')?.textContent);
  await settled(page);
  const cli = cliSummary(dir);
  const rows = await tableRows(page);
  assert.deepEqual([...new Set(rows.map((r) => r.run))], cli.runs.map((r) => r.label));
  assert.deepEqual(cli.runs.map((r) => r.label), [
    'vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=0', 'vllm · Qwen/Qwen3-8B · max_num_seqs=8 · run=1',
    'vllm · Qwen/Qwen3-8B · max_num_seqs=16 · run=0', 'vllm · Qwen/Qwen3-8B · max_num_seqs=16 · run=1']);
  for (const run of cli.runs) {
    for (const p of run.points) {
      const row = rows.find((r) => r.run === run.label && Number(r.concurrency) === p.concurrency);
      assert.ok(row, `${run.label} at ${p.concurrency}`);
      for (const m of METRICS) assert.equal(row[m], cliValue(p, m), `${run.label} at ${p.concurrency}: ${m}`);
    }
  }
  // What the folder left out, and why; the failed repeat named with its error, as text.
  const note = await page.textContent('[data-testid=load-note]');
  assert.match(note, /From the folder, 8 file\(s\) are read; left out: /);
  assert.match(note, /4 × summary\.json \(the run=N\.json files beside it hold the same results/);
  assert.match(note, /; warmup\.json \(the sweep's warm-up run/);
  assert.match(note, /; summary\.csv \(the run=N\.json files under it hold the same results/);
  const error = page.locator('[data-testid=load-error]').filter({ hasText: 'run=1.failure.json' });
  assert.match(await error.textContent(), /run 1 of this setting failed \(RuntimeError: Server <died> during benchmark\)/);
  await page.screenshot({ path: path.join(shots, 'sweep-folder.png'), fullPage: false });
  await page.close();
});

test('two real sweeps alike in one folder open as two runs, each named after its folder, not one run with every level twice', async () => {
  // FlashSampling's baseline and FlashInfer sweeps (tests/wild): same model, settings and
  // repeats, so their runs are alike. Two levels of repeat 0 of each, under baseline/ and variant/.
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-sweeps-'));
  const wild = (n, stamp, c) => path.join(process.cwd(), 'tests/wild/vllm-sweep', `yifanzhang-pro-FlashSampling-${n}`,
    stamp, `BENCH--max_concurrency=${c}-num_prompts=${c * 10}-request_rate=${c}`, 'run=0.json');
  for (const [name, n, stamp] of [['baseline', 1, '20260211_140427'], ['variant', 2, '20260211_152152']]) {
    for (const c of [1, 64]) {
      const to = path.join(dir, 'sweeps', name, stamp, `BENCH--max_concurrency=${c}-num_prompts=${c * 10}-request_rate=${c}`);
      await mkdir(to, { recursive: true });
      await copyFile(wild(n, stamp, c), path.join(to, 'run=0.json'));
    }
  }
  const { page, log } = await open(context, server.origin + '/');
  await settled(page);
  await page.waitForSelector('[data-testid=folder-input][webkitdirectory]', { state: 'attached' });
  await page.setInputFiles('[data-testid=folder-input]', path.join(dir, 'sweeps'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 4
    && !document.querySelector('.viewer-page-busy')?.textContent);
  await settled(page);
  const cli = cliSummary(path.join(dir, 'sweeps'));
  assert.deepEqual(cli.runs.map((r) => r.label), [
    'openai-chat · openai/gpt-oss-120b · folder=baseline · run=0', 'openai-chat · openai/gpt-oss-120b · folder=variant · run=0']);
  const rows = await tableRows(page);
  assert.deepEqual([...new Set(rows.map((r) => r.run))], cli.runs.map((r) => r.label));
  for (const run of cli.runs) {
    assert.deepEqual(run.points.map((p) => p.concurrency), [1, 64], run.label);
    for (const p of run.points) {
      const row = rows.find((r) => r.run === run.label && Number(r.concurrency) === p.concurrency);
      for (const m of METRICS) assert.equal(row[m], cliValue(p, m), `${run.label} at ${p.concurrency}: ${m}`);
    }
  }
  // Each run's system T/s at 64 is its own file's output_throughput: nothing merged.
  for (const [label, n, stamp] of [[cli.runs[0].label, 1, '20260211_140427'], [cli.runs[1].label, 2, '20260211_152152']]) {
    const want = JSON.parse(await readFile(wild(n, stamp, 64), 'utf8')).output_throughput;
    const row = rows.find((r) => r.run === label && r.concurrency === '64');
    assert.ok(Math.abs(row.system_tps - want) <= 1e-9 * want, `${label}: ${row.system_tps} vs ${want}`);
  }
  // No level claimed twice; the split said once, as a note.
  assert.doesNotMatch(await page.textContent('body'), /both claim concurrency/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('an MLPerf submission folder: a point per scenario run, the token rate, its GPUs, and its own SLO offered', async () => {
  const { page } = await open(context, server.origin + '/');
  await settled(page);
  const dir = fixture('mlperf/closed/Acme');
  await page.waitForSelector('[data-testid=folder-input][webkitdirectory]', { state: 'attached' });
  await page.setInputFiles('[data-testid=folder-input]', dir);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-row]').length === 3
    && !document.querySelector('.viewer-page-busy')?.textContent);
  await settled(page);
  const cli = cliSummary(dir);
  const rows = await tableRows(page);
  for (const run of cli.runs) {
    const row = rows.find((r) => r.run === run.label);
    assert.ok(row, run.label);
    assert.equal(row.system_tps, run.points[0].system_tps, run.label);
    assert.equal(row.tpot_p99_ms, run.points[0].tpot_ms.p99, run.label);
    assert.equal(row.ttft_mean_ms, run.points[0].ttft_ms.mean, run.label);
    assert.equal(run.meta.gpu_count, 8);
  }
  assert.ok(rows.some((r) => r.run === 'llama2-70b-interactive-99 · Interactive · h200x8_vllm'));
  // The scenarios' own limits are offered as SLOs; choosing the Server's checks its level.
  const options = await page.$$eval('[data-testid=slo-from-file]', (o) => o.map((x) => [x.value, x.textContent]));
  assert.deepEqual(options.map((o) => o[0]), ['file:tpot_p99_ms=200,ttft_p99_ms=2000', 'file:tpot_p99_ms=40,ttft_p99_ms=450']);
  assert.match(options[0][1], /From the files: llama2-70b-99 · Server · h200x8_vllm/);
  await page.click('[data-testid=capacity] summary');
  await page.selectOption('[data-testid=slo-preset]', 'file:tpot_p99_ms=200,ttft_p99_ms=2000');
  await page.waitForFunction(() => document.querySelector('[data-testid=slo]')?.value === 'tpot_p99_ms=200,ttft_p99_ms=2000');
  await settled(page);
  const serverPoint = cli.runs.find((r) => r.label.includes('· Server ·')).points[0];
  const met = serverPoint.ttft_ms.p99 <= 2000 && serverPoint.tpot_ms.p99 <= 200;
  const cell = page.locator('[data-testid=slo-row][data-run="llama2-70b-99 · Server · h200x8_vllm"]');
  await cell.waitFor();
  assert.equal(await cell.getAttribute('data-met'), String(met));
  await page.screenshot({ path: path.join(shots, 'mlperf-folder.png'), fullPage: false });
  await page.close();
});
