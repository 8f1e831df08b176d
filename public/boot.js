// Turns index.html's "loading" note into a message if the app cannot start (ARCHITECTURE.md).
(() => {
  const failed = (reason) => {
    const note = document.getElementById('boot-status');
    if (!note) return; // the app is up and shows its own errors
    note.textContent = `tpsview could not start in this browser (${reason}). It runs as ` +
      'WebAssembly with SIMD (Chrome 91, Firefox 89, Safari 16.4 or later); if a file did not ' +
      'arrive, reloading may help.';
    note.parentElement.setAttribute('data-failed', '');
  };
  addEventListener('error', (e) => failed(e.message || 'a script failed'));
  addEventListener('unhandledrejection', (e) => failed(String(e.reason)));
})();
