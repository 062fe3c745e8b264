// @ts-check
// app.js: the page's entry. It mounts one explorer (web/explorer/index.js) on the page, with its state
// in the page's URL, and exposes it to the browser tests and the frame benchmark.
// ?mode=train puts the training panel (web/train/panel.js) above the explorer instead, ?mode=induction
// the induction page (web/induction/panel.js), and
// ?mode=<name>-lab opens that lab on the labs page (web/labs.html) with the same parameters.
import { mountExplorer, sharedCore } from './explorer/index.js';
import { clipMessage } from './blocks/config.js';

/** The page's markup has this element (web/index.html). @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const mode = new URLSearchParams(location.search).get('mode') || 'explorer';

// A mode's own stylesheet (train.css, induction.css) is linked when that mode opens, so the
// explorer does not download them; the mode starts once it has loaded (or failed to).
/** @param {string} href @returns {Promise<void>} */
function stylesheet(href) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  const loaded = new Promise((done) => { link.onload = link.onerror = () => done(undefined); });
  document.head.append(link);
  return loaded;
}
for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.page-modes [data-mode]'))) {
  if (a.dataset.mode === mode) a.setAttribute('aria-current', 'page');
}
// The page's panel modes: the module that starts each, its stylesheet, the core it computes with
// (web/explorer/mount.js sharedCore) and the start of the message a failure gives.
/** @type {Record<'induction' | 'train', { load: () => Promise<(doc: Document) => Promise<unknown>>, css: string, core: 'forward' | 'trainer' | 'full', failed: string }>} */
const PANELS = {
  induction: { load: () => import('./induction/panel.js').then((m) => m.startInductionPage), css: 'induction/induction.css', core: 'forward', failed: 'The induction page could not start: ' },
  train: { load: () => import('./train/panel.js').then((m) => m.startTrainPage), css: 'train/train.css', core: 'trainer', failed: 'Training could not start: ' },
};
const panel = mode === 'induction' || mode === 'train' ? PANELS[mode] : null;

if (/^[a-z0-9-]+-lab$/.test(mode)) {
  location.replace('labs.html' + location.search + location.hash);
} else if (panel) {
  // The mode's core starts loading now, beside its code, not once that code has run: the panel
  // asks sharedCore for the same core and gets this load (its failure is the panel's to report).
  sharedCore({ core: panel.core }).catch(() => {});
  Promise.all([panel.load(), stylesheet(panel.css)])
    .then(([start]) => start(document)) // sets __explorer and __train or __induction
    .catch((e) => {
      const p = byId('explorer').appendChild(document.createElement('p'));
      p.className = 'error';
      p.textContent = panel.failed + e.message;
    });
} else {
  if (mode !== 'explorer') {
    // An unknown mode falls back to the explorer, and says so.
    const p = document.createElement('p');
    byId('explorer').insertAdjacentElement('beforebegin', p);
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = `There is no mode “${clipMessage(mode, 40)}”: use mode=train to watch a head learn, or open a lab from the Labs page (mode=sqrt-dk-lab and others). Showing the explorer.`;
  }
  // Exposed for the browser tests and the frame benchmark (read-only use).
  globalThis.__explorer = mountExplorer(document, {
    container: byId('explorer'),
    url: true,
    core: sharedCore({ core: 'forward' }), // this page never trains: the forward core is enough
  });
  // The explorer's skip links come first on the page, before the header's links.
  document.body.prepend(/** @type {Element} */ (document.querySelector('#explorer .skips')));
}
