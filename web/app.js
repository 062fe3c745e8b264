// app.js: the page's entry. It mounts one explorer (web/explorer.js) on the page, with its state
// in the page's URL, and exposes it to the browser tests and the frame benchmark.
import { mountExplorer } from './explorer.js';

const explorer = mountExplorer(document, {
  container: document.getElementById('explorer'),
  url: true,
});

// Exposed for the browser tests and the frame benchmark (read-only use).
globalThis.__explorer = explorer;
