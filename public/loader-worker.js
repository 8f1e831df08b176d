// tpsview's loading worker (see src/loader.rs and src/worker.rs). The page sends the URL of its
// own wasm-bindgen JS and the WebAssembly.Module it already compiled; this imports the one and
// instantiates the other, and the module's main(), finding no window, then serves load jobs.
// A file of its own, not a blob: URL, so that the page's Content-Security-Policy can stay
// script-src 'self'.
self.onmessage = async (e) => {
  self.onmessage = null;
  try {
    const glue = await import(e.data.glue);
    await glue.default({ module_or_path: e.data.module });
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
