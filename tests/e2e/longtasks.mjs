// Not a test: what the page's longest main-thread tasks were made of while it loaded the 40-run
// llama-bench file of many.test.mjs (each task's CPU time, the trace events inside it — layout, style,
// script — the DOM mutations it made and the user-timing marks in it). For finding what to bound
// when many.test.mjs finds a long task: `node tests/e2e/longtasks.mjs [WIDTH HEIGHT]` against dist/
// (PROF=1 adds a sampling profile of the wasm; its function names need a build that keeps them;
// CHRONO=1 lists every task over 3 ms in the order they ran, in place of the four longest).
import path from 'node:path';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { serve, launch, open, settled, upload } from './harness.mjs';
const w = Number(process.argv[2] ?? 390), h = Number(process.argv[3] ?? 844);
const builds = ['a1b2c3d', 'b2c3d4e', 'c3d4e5f', 'd4e5f60', 'e5f6071'];
const backends = ['CUDA', 'Vulkan', 'ROCm', 'CPU'];
const depths = [0, 512, 1024, 2048, 4096, 8192, 16384, 32768];
const lines = []; let r = 0;
for (const build of builds) for (const backend of backends) for (const fa of [false, true]) {
  const ds = r++ % 2 === 0 ? depths : depths.slice(0, 7);
  for (const d of ds) {
    const ts = 40 + (r % 13) - d / 4096;
    lines.push(JSON.stringify({ build_commit: build, build_number: 6000 + r, cpu_info: 'AMD EPYC', gpu_info: 'GPU', backends: backend,
      model_filename: 'models/llama-8b-q4_k_m.gguf', model_type: 'llama 8B Q4_K - Medium', model_size: 4920000000,
      model_n_params: 8030000000, n_batch: 2048, n_ubatch: 512, n_threads: 16, type_k: 'f16', type_v: 'f16',
      n_gpu_layers: 99, flash_attn: fa, n_prompt: 0, n_gen: 128, n_depth: d, test_time: `2026-11-30T10:${String(r).padStart(2, '0')}:00Z`,
      avg_ns: Math.round(128e9 / ts), stddev_ns: 1000, avg_ts: ts, stddev_ts: 0.1 }));
  }
}
const dir = await mkdtemp(path.join(tmpdir(), 'tpsview-many-'));
const file = path.join(dir, 'llama-bench-many.jsonl');
await writeFile(file, lines.join('\n') + '\n');
const server = await serve(); const context = await launch();
const { page } = await open(context, server.origin + '/');
await page.setViewportSize({ width: w, height: h });
await settled(page);
const cdp = await page.context().newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,blink.user_timing,blink.console', transferMode: 'ReportEvents' });
await page.evaluate(() => {
  new MutationObserver((ms) => {
    const ids = new Set();
    for (const m of ms) for (const n of m.addedNodes) if (n.nodeType === 1) { if (n.dataset?.testid) ids.add(n.dataset.testid); for (const c of n.querySelectorAll?.('[data-testid]') ?? []) ids.add(c.dataset.testid); }
    const attrs = new Set(ms.filter((m) => m.type === 'attributes').map((m) => (m.target.dataset?.testid ?? m.target.tagName) + '.' + m.attributeName));
    console.timeStamp(`mut ${ms.length}: +[${[...ids].slice(0, 12)}] attrs[${[...attrs].slice(0, 8)}]`);
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
});
const PROF = process.env.PROF === '1'; if (PROF) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
await upload(page, [file]);
await page.waitForFunction(() => document.querySelector('[data-testid=viewer]')?.dataset.ready === 'true');
await settled(page);
const { profile } = PROF ? await cdp.send('Profiler.stop') : { profile: { nodes: [], samples: [], timeDeltas: [] } };
{
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = {}, total = {};
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const d = (dt[i + 1] ?? 0) / 1e3;
    const n = byId.get(id); const k = n.callFrame.functionName || '(anon)';
    self[k] = (self[k] ?? 0) + d;
    const seen = new Set(); let cur = id;
    while (cur !== undefined) { const f = byId.get(cur).callFrame.functionName || '(anon)'; if (!seen.has(f)) { total[f] = (total[f] ?? 0) + d; seen.add(f); } cur = parent.get(cur); }
  });
  console.log('SELF', Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(1)} ${k.slice(0, 120)}`).join('\n'));
  console.log('TOTAL', Object.entries(total).sort((a, b) => b[1] - a[1]).slice(0, 60).map(([k, v]) => `${v.toFixed(1)} ${k.slice(0, 120)}`).join('\n'));
}
const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.end'); await done;
const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const tasks = events.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)).sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0));
const t0 = Math.min(...tasks.map((t) => t.ts));
const shown = process.env.CHRONO ? tasks.filter((t) => t.tdur > 3000).sort((a, b) => a.ts - b.ts) : tasks.slice(0, 4);
for (const t of shown) {
  console.log(`task at ${((t.ts - t0) / 1e3).toFixed(0)} ms: cpu ${(t.tdur / 1e3).toFixed(1)} ms wall ${(t.dur / 1e3).toFixed(1)}`);
  const inside = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === `${t.pid}:${t.tid}` && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e !== t);
  for (const e of events.filter((e) => e.cat?.includes('user_timing') && e.ts >= t.ts && e.ts <= t.ts + t.dur)) console.log('    mark', e.name, ((e.ts - t.ts) / 1e3).toFixed(1));
  for (const e of events.filter((e) => e.name === 'TimeStamp' && e.ts >= t.ts && e.ts <= t.ts + t.dur)) console.log('   ', e.args?.data?.message?.slice(0, 300));
  for (const e of inside.filter((e) => e.name === 'Layout' || e.name === 'UpdateLayoutTree')) console.log('    ', e.name, ((e.tdur ?? e.dur) / 1e3).toFixed(1), JSON.stringify(e.args).slice(0, 300));
  const agg = {};
  for (const e of inside) { const k = e.name + (e.args?.data?.functionName ? ':' + e.args.data.functionName : '') + (e.args?.data?.type ? ':' + e.args.data.type : ''); agg[k] = (agg[k] ?? 0) + (e.tdur ?? e.dur) / 1e3; }
  console.log(Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `  ${v.toFixed(1)} ${k}`).join('\n'));
}
const counts = await page.evaluate(() => {
  const out = { all: document.querySelectorAll('*').length };
  for (const el of document.querySelectorAll('[data-testid]')) { const n = el.querySelectorAll('*').length; if (n > 150) out[el.dataset.testid] = Math.max(out[el.dataset.testid] ?? 0, n); }
  return out;
});
console.log(counts);
console.log(await page.evaluate(() => { const src = document.querySelector('[data-testid=sources]'); const t = {}; for (const e of src.querySelectorAll('*')) { const k = e.tagName + (e.dataset.testid ? '#' + e.dataset.testid : ''); t[k] = (t[k] ?? 0) + 1; } return JSON.stringify(Object.entries(t).sort((a, b) => b[1] - a[1]).slice(0, 10)); }));
console.log(await page.evaluate(() => { const t = {}; for (const e of document.querySelectorAll('main > *, main > * > *')) { t[(e.dataset.testid ?? e.className ?? e.tagName).toString().slice(0,40)] = e.querySelectorAll('*').length; } return JSON.stringify(Object.entries(t).sort((a, b) => b[1] - a[1]).slice(0, 14)); }));
await context.close(); await server.close();
