// tpsview's loading worker (see src/loader.rs and src/worker.rs). Its module is its own
// (src/bin/tpsview-worker.rs, which Trunk builds as the glue imported below and its .wasm): the
// importers and everything else reading a file needs, which the page itself does not carry. The
// page compiles that .wasm once and sends the compiled module here first, so that every load
// after the first starts without compiling it again; the module's main() then serves load jobs
// and says `ready`. The build names this file and the module's after their contents' hash
// (pkg-config/csp.py), so a cached worker never meets a newer page. A file of its own, not a
// blob: URL, so that the page's Content-Security-Policy can stay script-src 'self'.
import init from './tpsview-worker.js';

self.onmessage = async (e) => {
  self.onmessage = null;
  try {
    await init({ module_or_path: e.data.module });
  } catch (err) {
    self.postMessage({ type: 'done', error: `the loading worker could not start (${err})` });
  }
};
// A job that dies inside the module (out of memory traps as "unreachable") rejects a promise
// rather than raising an error event: answer the page, which then ends this worker.
self.addEventListener('unhandledrejection', (e) => {
  self.postMessage({
    type: 'done',
    error: `the loader stopped (${e.reason}); a file this big may need more memory than this tab can have`,
  });
});
