// tpsview's teaching screens (see src/teach.rs): the walkthrough, the decode model, the claim
// reader and the glossary are a module of their own (src/bin/tpsview-teach.rs, which Trunk builds
// as the glue imported below and its .wasm), which the page loads with this script the first time
// one of their routes opens, so that the page does not carry them. The build names this file and
// the module's after their contents' hash (pkg-config/csp.py); the page finds it in
// `<meta name="tpsview-teach">`.
import init from './tpsview-teach.js';

init().catch((err) => {
  const wait = document.getElementById('teach-wait');
  if (wait) wait.textContent = `The teaching screens could not start (${err}).`;
});
