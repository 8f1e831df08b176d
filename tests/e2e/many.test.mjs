// The page holds up under many (issue 29): a llama-bench JSONL of 300 tests in 40 runs — five
// builds × four backends × flash-attn off and on, each a depth sweep, as people append
// invocations to one file — at 390×844 and 1280×800. The runs are told apart by what varies and
// each is a sweep (checked against the file written here); no control is repeated per run or per
// point without bound (the legends collapse behind a filter, the table pages, no "set the
// concurrency" box per point); the answer cards and the first chart come before the table, the
// page above the table is under three screens, and the longest page task (CPU time, the faster of
// two loads) is under 3 × the longest of the file's first run alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { serve, launch, open, cliSummary, shots, settled, upload, axe, traceMainThread } from './harness.mjs';

let server, context, file, oneRun;
const builds = ['a1b2c3d', 'b2c3d4e', 'c3d4e5f', 'd4e5f60', 'e5f6071'];
const backends = ['CUDA', 'Vulkan', 'ROCm', 'CPU'];
const depths = [0, 512, 1024, 2048, 4096, 8192, 16384, 32768];
let expectedRuns = 0;
let expectedPoints = 0;

before(async () => {
  server = await serve();
  context = await launch();
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-many-'));
  const lines = [];
  let r = 0;
  for (const build of builds) for (const backend of backends) for (const fa of [false, true]) {
    // Half the runs sweep eight depths, half seven: 20 × 8 + 20 × 7 = 300 tests.
    const ds = r++ % 2 === 0 ? depths : depths.slice(0, 7);
    expectedRuns += 1;
    for (const d of ds) {
      const ts = 40 + (r % 13) - d / 4096;
      lines.push(JSON.stringify({
        build_commit: build, build_number: 6000 + r, cpu_info: 'AMD EPYC', gpu_info: 'GPU', backends: backend,
        model_filename: 'models/llama-8b-q4_k_m.gguf', model_type: 'llama 8B Q4_K - Medium', model_size: 4920000000,
        model_n_params: 8030000000, n_batch: 2048, n_ubatch: 512, n_threads: 16, type_k: 'f16', type_v: 'f16',
        n_gpu_layers: 99, flash_attn: fa, n_prompt: 0, n_gen: 128, n_depth: d, test_time: `2026-11-30T10:${String(r).padStart(2, '0')}:00Z`,
        avg_ns: Math.round(128e9 / ts), stddev_ns: 1000, avg_ts: ts, stddev_ts: 0.1,
      }));
      expectedPoints += 1;
    }
  }
  file = path.join(dir, 'llama-bench-many.jsonl');
  await writeFile(file, lines.join('\n') + '\n');
  // The baseline of the timing: the same file's first run alone (its eight depths).
  oneRun = path.join(dir, 'llama-bench-one.jsonl');
  await writeFile(oneRun, lines.slice(0, depths.length).join('\n') + '\n');
});

// Opens the page at w×h, loads `f` and returns the page once it is ready and settled, with the
// longest main-thread task (CPU time) of the load.
async function load(w, h, f) {
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: w, height: h });
  await settled(page);
  const stopTrace = await traceMainThread(page);
  await upload(page, [f]);
  await page.waitForFunction(() => document.querySelector('[data-testid=viewer]')?.dataset.ready === 'true');
  await settled(page);
  const tasks = await stopTrace();
  const cpu = tasks.map((t) => t.cpu).filter((c) => c !== undefined);
  return { page, log, longest: Math.max(...cpu), tasks: tasks.length };
}
after(async () => { await context?.close(); await server?.close(); });

test('the file reads as 40 runs, each a depth sweep with no two points at one level', () => {
  const s = cliSummary(file);
  assert.equal(expectedPoints, 300);
  assert.equal(s.runs.length, expectedRuns);
  assert.equal(s.runs.reduce((n, r) => n + r.points.length, 0), 300);
  for (const run of s.runs) {
    assert.equal(run.axis, 'n_depth', run.label);
    const xs = run.points.map((p) => p.concurrency);
    assert.equal(new Set(xs).size, xs.length, `${run.label}: ${xs}`);
    assert.match(run.label, /^llama 8B Q4_K - Medium · tg128 · backends=\w+ · build_commit=\w+ · build_number=\d+ · flash_attn=(true|false)$/);
  }
  assert.equal(new Set(s.runs.map((r) => r.label)).size, expectedRuns);
});

for (const [w, h, name] of [[390, 844, 'phone'], [1280, 800, 'desktop']]) {
  test(`at ${w}×${h} the answer and the first chart come first and nothing repeats without bound`, async () => {
    // Each file loaded twice, the faster of the two kept: a busy machine only adds to a task's
    // time, so the lesser is the nearer to what the page itself costs.
    const times = [];
    for (const f of [oneRun, oneRun, file]) {
      const l = await load(w, h, f);
      times.push(l.longest);
      await l.page.close();
    }
    const { page, log, longest: last, tasks } = await load(w, h, file);
    times.push(last);
    // Bounded: one collapsed legend of runs (with its filter), each chart's legend collapsed, a
    // pager on the table, and no per-point concurrency box.
    const legend = page.locator('[data-testid=run-legend-many]');
    assert.equal(await legend.count(), 1);
    assert.equal(Number(await legend.getAttribute('data-count')), 40);
    assert.equal(await legend.evaluate((d) => d.open), false);
    assert.ok(await page.locator('[data-testid=chart-legend-many]').count() >= 2);
    assert.equal(await page.locator('[data-testid=set-concurrency]').count(), 0);
    // 300 rows in pages of 50 (tpsview_core::bounds::PAGE): the last page holds the last 50.
    assert.equal(await page.locator('[data-testid=summary-row]').count(), 50);
    const pager = page.locator('[data-testid=summary-table-pager]');
    assert.equal(await pager.getAttribute('data-pages'), '6');
    const firstRow = await page.locator('[data-testid=summary-row]').first().getAttribute('data-run');
    for (let i = 0; i < 5; i++) await page.click('[data-testid=summary-table-pager-next]');
    await page.waitForFunction(() => document.querySelector('[data-testid=summary-table-pager]')?.dataset.page === '5');
    assert.equal(await page.locator('[data-testid=summary-row]').count(), 50);
    assert.match(await pager.textContent(), /rows 251–300 of 300/);
    assert.ok(await page.locator('[data-testid=summary-table-pager-next]').isDisabled());
    assert.notEqual(await page.locator('[data-testid=summary-row]').first().getAttribute('data-run'), firstRow);
    // The filter narrows the run legend to the runs it names.
    await legend.locator('summary').click();
    await page.fill('[data-testid=run-legend-many-filter]', 'vulkan flash_attn=true');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=run-legend] [data-testid=legend-run]').length === 5);
    await legend.locator('summary').click();
    // One run's answer cards (the highest peak system T/s), and a line for the other 39.
    assert.equal(await page.locator('[data-testid=run-header]').count(), 1);
    // Which of the 40 it is: its settings in its header; its cards read on the depth it sweeps.
    assert.match(await page.textContent('[data-testid=run-header] h2'), /backends=\w+ · build_commit=\w+ · build_number=\d+ · flash_attn=(true|false)/);
    assert.match(await page.textContent('[data-testid=kpi-peak-system]'), /at n_depth \d+ /);
    assert.match(await page.textContent('[data-testid=kpi-knee]'), /a sweep of n_depth, not of concurrency/);
    assert.match(await page.textContent('[data-testid=more-runs]'), /of 40; 39 more runs/);
    // The answer first: the cards and the first chart above the table, the table's top within
    // three screens.
    const top = async (sel) => page.locator(sel).first().evaluate((e) => e.getBoundingClientRect().top + scrollY);
    const [cards, chart, table] = [await top('[data-testid=kpi-peak-system]'), await top('[data-testid=chart-throughput]'), await top('[data-testid=summary-table]')];
    assert.ok(cards < chart && chart < table, `cards ${cards}, chart ${chart}, table ${table}`);
    assert.ok(table < 3 * h, `the table starts at ${table} px, over three screens of ${h}`);
    // The Sources drawer says the file's 300 "no per-request data" notes once (its objects count
    // from 1, as a line number would).
    const notes = await page.locator('[data-testid=sources] .diagnostics-list-notes li').allTextContents();
    assert.deepEqual(notes.filter((t) => t.includes('no per-request data')),
      [`llama-bench-many.jsonl (${expectedPoints} objects, each of #1 to #${expectedPoints}): note: field \`requests\`: no per-request data: figures are shown as reported by the tool`]);
    const base = Math.min(times[0], times[1]);
    const longest = Math.min(times[2], times[3]);
    console.log(`# many runs at ${w}×${h}: table at ${table.toFixed(0)} px (${(table / h).toFixed(2)} screens); longest main-thread task ${longest.toFixed(1)} ms of CPU (of ${tasks} tasks; loads ${times[2].toFixed(1)}, ${times[3].toFixed(1)}) — ${(longest / base).toFixed(2)} × the one-run file's ${base.toFixed(1)} ms`);
    // What grows with the runs is bounded: the 40 runs' longest task within 3 × one run's, measured
    // in the same run of the test. The goal of 50 ms is printed above, not asserted: on an
    // idle machine here it is 13–16 ms, and CI's machine, a core kept busy, ran the same page 3.5–4 ×
    // slower (docs/performance.md); a task ten times the goal is a freeze anywhere.
    assert.ok(longest < 3 * base, `longest main-thread task ${longest} ms of CPU, ${longest / base} × one run's ${base} ms`);
    assert.ok(longest < 500, `longest main-thread task ${longest} ms of CPU`);
    await page.screenshot({ path: path.join(shots, `many-runs-${name}.png`), fullPage: false });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}

test('a folder of 60 files lists them a page at a time, with one page of controls', async () => {
  // 60 vLLM results, one per concurrency: the file list (Sources) pages by 50 files
  // (tpsview_core::bounds::PAGE), so that 60 — or 600 — files build one page of "read as" and
  // "run" controls, not one per file.
  const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-files-'));
  const names = [];
  for (let c = 1; c <= 60; c++) {
    const name = path.join(dir, `vllm-c${String(c).padStart(2, '0')}.json`);
    await writeFile(name, JSON.stringify({
      backend: 'vllm', model_id: 'm', max_concurrency: c, completed: 20, duration: 10,
      total_output_tokens: 2000 * c, output_throughput: 200 * c, mean_ttft_ms: 50 + c, mean_tpot_ms: 20 + c / 10,
    }));
    names.push(name);
  }
  const { page, log } = await open(context, server.origin + '/');
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page, names);
  await page.waitForFunction(() => document.querySelector('[data-testid=viewer]')?.dataset.ready === 'true');
  const pager = page.locator('[data-testid=files-pager]');
  assert.equal(await pager.getAttribute('data-pages'), '2');
  const listed = () => page.locator('.diagnostics-list-name').allTextContents();
  assert.equal((await listed()).length, 50);
  assert.equal(await page.locator('[data-testid=read-as]').count(), 50);
  assert.equal(await page.locator('[data-testid=run-label]').count(), 50);
  await page.locator('[data-testid=sources] > summary').click();
  await page.click('[data-testid=files-pager-next]');
  await page.waitForFunction(() => document.querySelector('[data-testid=files-pager]')?.dataset.page === '1');
  // The second page: the last ten files, each once.
  const second = await listed();
  assert.deepEqual([...second].sort(), names.slice(50).map((n) => path.basename(n)).sort());
  assert.match(await pager.textContent(), /rows 51–60 of 60/);
  await pager.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'files-pager-desktop.png'), fullPage: false });
  // The controls of the second page act on their own files: renaming the last one's run splits it off.
  const last = page.locator('[data-testid=run-label]').last();
  await last.fill('the last file');
  await last.dispatchEvent('change');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=legend-run]')].some((e) => e.textContent.includes('the last file')));
  assert.deepEqual(log.errors, []);
  await page.close();
});
