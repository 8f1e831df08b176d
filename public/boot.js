// The page's start (ARCHITECTURE.md): #boot is the example's first view, rendered ahead of time;
// the app mounts unseen under it (#app) and this removes #boot once the app shows the same.
(() => {
  const root = document.documentElement;
  const boot = () => document.getElementById('boot');
  // The viewer's route as src/route.rs reads the hash; someone else's data: a shared link's
  // bundle, ?src=, runs kept here. Either hides the example's figures at once.
  const viewer = () => !/^#(learn|model$|claim$|glossary)/.test(location.hash);
  let kept = false;
  try { kept = !!localStorage.getItem('tpsview.kept-runs'); } catch (_) { /* no storage */ }
  // A `tpsview report` file holds its own data, which the app opens first: shown like the example.
  const report = root.hasAttribute('data-report');
  const own = !report && (kept || location.hash.startsWith('#bundle=')
    || new URLSearchParams(location.search).getAll('src').some((s) => s));
  const other = () => { root.classList.add('boot-other'); document.querySelector('#boot main')?.remove(); };
  if (own || !viewer()) root.classList.add('boot-other');
  addEventListener('hashchange', () => { if (boot() && !viewer()) other(); });
  // Ready: mounted, and over the example its answer and chart drawn with nothing pending — or
  // its error shown (Sources open), or another screen; over other data, once mounted.
  const ready = () => {
    const app = document.getElementById('app');
    if (!app?.firstElementChild) return false;
    if (root.classList.contains('boot-other')) return true;
    if (root.dataset.busy !== '0') return false;
    const has = (s) => !!app.querySelector(s);
    return !has('main[data-testid=viewer]') || has('details[data-testid=sources][open]')
      || (has('[data-testid=kpi-peak-system]') && has('canvas[data-testid=chart-throughput][data-drawn=true]'));
  };
  // Checked before the next paint, after whatever the app's tasks changed.
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (ready()) { observer.disconnect(); boot()?.remove(); }
    });
  });
  addEventListener('DOMContentLoaded', () => {
    if (root.classList.contains('boot-other')) other();
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-busy', 'data-drawn', 'open'] });
  });
  // Until the app is up, a dropped file must not make the browser navigate to it.
  for (const t of ['dragover', 'drop']) addEventListener(t, (e) => { if (boot()) e.preventDefault(); });
  // The loading line becomes a message if the app cannot start.
  const failed = (reason) => {
    const note = document.getElementById('boot-status');
    if (!note) return;
    note.textContent = `tpsview could not start in this browser (${reason}). It runs as ` +
      'WebAssembly with SIMD (Chrome 91, Firefox 89, Safari 16.4 or later); if a file did not ' +
      'arrive, reloading may help.';
    note.setAttribute('data-failed', '');
  };
  addEventListener('error', (e) => failed(e.message || 'a script failed'));
  addEventListener('unhandledrejection', (e) => failed(String(e.reason)));
})();
