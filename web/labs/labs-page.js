// labs-page.js: the standalone labs page (web/labs.html). Reads ?mode=<lab>&... from the URL,
// mounts that lab, and keeps the URL in step with its state (history.replaceState), so a link
// reopens exactly what the learner sees. It downloads only the lab it shows (web/labs/catalog.js):
// the lab links load the page again.
import { list, clipMessage } from '../blocks/words.js';
import { loadAttention } from '../core/attention.js';
import { CATALOG } from './catalog.js';
import { mountLabRecord, queryOf } from './mount.js';

const LABS = CATALOG;
const labOf = (/** @type {string | null} */ mode) => CATALOG.find((l) => l.mode === mode) || null;

const doc = document;
// web/labs.html has these elements.
const root = /** @type {HTMLElement} */ (doc.getElementById('lab-root'));
const nav = /** @type {HTMLElement} */ (doc.getElementById('lab-nav'));
const themeBtn = /** @type {HTMLElement} */ (doc.getElementById('theme'));

/** @param {boolean} dark */
function setTheme(dark) {
  doc.documentElement.dataset.theme = dark ? 'dark' : 'light';
  themeBtn.setAttribute('aria-pressed', String(dark));
}

async function main() {
  const params = new URLSearchParams(location.search);
  if (params.get('theme') === 'dark' || (params.get('theme') !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches)) setTheme(true);
  else setTheme(false);
  const asked = params.get('mode');
  const shown = labOf(asked) || LABS[0];
  const mode = shown.mode;
  const notes = asked !== null && !labOf(asked)
    ? [`There is no lab “${clipMessage(asked, 40)}”; the labs are ${list(LABS.map((l) => l.mode))}. Showing “${LABS[0].title}”.`]
    : [];
  for (const lab of LABS) {
    const a = doc.createElement('a');
    a.href = '?mode=' + lab.mode;
    a.textContent = lab.title;
    a.className = 'lab-link';
    if (lab.mode === mode) a.setAttribute('aria-current', 'page');
    nav.append(a);
  }
  const [attn, record] = await Promise.all([
    loadAttention({ core: shown.core }), // the labs never train: the forward core, unless a lab needs more (catalog.js)
    shown.load(),
  ]);
  const onState = (/** @type {Record<string, unknown>} */ state) => history.replaceState(null, '', queryOf(state) + location.hash);
  let lab = mountLabRecord(record, root, { attn, doc, params, onState, notes });
  themeBtn.addEventListener('click', () => {
    setTheme(doc.documentElement.dataset.theme !== 'dark');
    lab.redraw();
  });
  doc.documentElement.dataset.ready = 'true';
  globalThis.__lab = lab;
}

main().catch((err) => {
  const box = /** @type {HTMLElement} */ (doc.getElementById('error'));
  box.hidden = false;
  box.textContent = 'The labs could not start: ' + err.message;
  doc.documentElement.dataset.ready = 'true';
});
