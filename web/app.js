// app.js: the page's entry. It mounts one explorer (web/explorer.js) on the page, with its state
// in the page's URL, and exposes it to the browser tests and the frame benchmark.
// ?mode=train puts the training panel (web/train-panel.js) above the explorer instead, ?mode=induction
// the induction page (web/induction-panel.js), and
// ?mode=<name>-lab opens that lab on the labs page (web/labs.html) with the same parameters.
import { mountExplorer } from './explorer.js';

const mode = new URLSearchParams(location.search).get('mode') || 'explorer';
for (const a of document.querySelectorAll('.page-modes [data-mode]')) {
  if (a.dataset.mode === mode) a.setAttribute('aria-current', 'page');
}
if (/^[a-z0-9-]+-lab$/.test(mode)) {
  location.replace('labs.html' + location.search + location.hash);
} else if (mode === 'induction') {
  import('./induction-panel.js')
    .then((m) => m.startInductionPage(document)) // sets __explorer and __induction
    .catch((e) => {
      const p = document.getElementById('explorer').appendChild(document.createElement('p'));
      p.className = 'error';
      p.textContent = 'The induction page could not start: ' + e.message;
    });
} else if (mode === 'train') {
  import('./train-panel.js')
    .then((m) => m.startTrainPage(document)) // sets __explorer and __train
    .catch((e) => {
      const p = document.getElementById('explorer').appendChild(document.createElement('p'));
      p.className = 'error';
      p.textContent = 'Training could not start: ' + e.message;
    });
} else {
  // Exposed for the browser tests and the frame benchmark (read-only use).
  globalThis.__explorer = mountExplorer(document, {
    container: document.getElementById('explorer'),
    url: true,
  });
  // The explorer's skip links come first on the page, before the header's links.
  document.body.prepend(document.querySelector('#explorer .skips'));
}
