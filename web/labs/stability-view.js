// stability-view.js: the stability lab on the page. mountStabilityLab(root, { attn, doc, state, onState }).
import { fmtFine, fmtShort } from '../blocks/format.js';
import { computeStability, sweepTops, explainStability, verdict, parseScores, rowOf, TOPS, KIND_WORDS, MODE, defaultState, writeState } from './stability.js';
import { h, select, button, table, paragraphs, labShell } from './ui.js';

// Tiny weights and terms keep their digits (2.06e−9), so an underflow to 0 shows in the table.
const fmtv = (/** @type {number} */ v) => (Number.isNaN(v) ? 'NaN' : fmtFine(v));

/** @typedef {import('./lab-types').StabilityState} StabilityState */
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<StabilityState>} [options] */
export function mountStabilityLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<StabilityState>} */ ({})) {
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Numerical stability: subtract the row max',
    lede: 'Softmax implementations subtract the row maximum before exponentiating. Make the scores grow to the hundreds and thousands and see both ways computed by the C core in float32: the textbook exp(s)/Σexp(s) and the max-subtracted one.',
    render: (/** @type {StabilityState} */ s, /** @type {HTMLElement} */ out) => render(attn, doc, s, out),
  });
  const tops = select(doc, 'Largest score', TOPS.map((t) => [t, String(t)]), TOPS.includes(state.top) ? state.top : 1000, (/** @type {string} */ v) => {
    input.value = '';
    lab.set({ top: Number(v), scores: null });
  }, 'top');
  const input = h(doc, 'input', { attrs: { type: 'text', 'data-control': 'scores', 'aria-label': 'Your own scores', placeholder: 'e.g. 1000, 990, 500, 0', inputmode: 'decimal' } });
  if (state.scores) input.value = state.scores.join(', ');
  const err = h(doc, 'span', { class: 'lab-error', attrs: { role: 'alert', 'data-role': 'scores-error' } });
  const apply = () => {
    const p = /** @type {import('./lab-types').Parsed<{ scores: number[] }>} */ (parseScores(input.value)); // stability.js is not typed yet
    err.textContent = p.ok ? '' : p.error;
    input.setAttribute('aria-invalid', String(!p.ok));
    if (p.ok) lab.set({ scores: p.scores });
  };
  input.addEventListener('keydown', (ev) => ev.key === 'Enter' && apply());
  lab.controls.append(tops, h(doc, 'label', { class: 'lab-field' }, 'or your own scores ', input), button(doc, 'Use these scores', apply, 'apply'), err);
  lab.redraw();
  return lab;
}

/** @param {import('../../types/attention').Attention} attn @param {Document} doc @param {StabilityState} s @param {HTMLElement} out */
function render(attn, doc, s, out) {
  const r = computeStability(attn, s);
  const bad = (/** @type {number} */ v) => !Number.isFinite(v);
  const rows = r.scores.map((/** @type {number} */ sc, /** @type {number} */ j) => [
    `key ${j + 1}`, fmtShort(sc),
    fmtv(r.naive.terms[j]), fmtv(r.naive.weights[j]),
    fmtShort(sc - r.stable.shift), fmtv(r.stable.terms[j]), fmtv(r.stable.weights[j]),
  ]);
  rows.push(['sum', '', fmtv(r.naive.sum), fmtv(r.naiveSum), '', fmtv(r.stable.sum), fmtv(r.stableSum)]);
  const cls = (/** @type {number} */ i, /** @type {number} */ j) => {
    const v = i < r.scores.length ? [null, null, r.naive.terms[i], r.naive.weights[i], null, r.stable.terms[i], r.stable.weights[i]][j] : [null, null, r.naive.sum, r.naiveSum, null, null, null][j];
    const lost = i < r.scores.length && j === 3 && r.lost.includes(i); // a weight that underflowed to 0
    return (v != null && bad(v)) || lost ? 'lab-bad' : j >= 2 && j <= 3 ? 'lab-naive' : '';
  };
  out.append(
    h(doc, 'p', { class: 'lab-verdict ' + (r.kind === 'fits' ? 'lab-ok' : 'lab-bad'), attrs: { 'data-role': 'verdict' }, text: verdict(r) }),
    table(doc, ['key', 'score s', 'naive exp(s)', 'naive weight', 's − max', 'exp(s − max)', 'stable weight'], rows, { caption: `Scores [${rowOf(s).map(fmtShort).join(', ')}], float32, from the core`, cellClass: cls }),
    paragraphs(doc, explainStability(r, fmtv)),
  );
  const sw = sweepTops(attn);
  out.append(h(doc, 'h3', { text: 'Where the naive softmax breaks' }), table(doc, ['largest score', 'naive exp(largest)', 'naive', 'stable largest weight'],
    sw.map((x) => [fmtShort(x.top), fmtv(x.largestTerm), KIND_WORDS[/** @type {keyof typeof KIND_WORDS} */ (x.kind)], fmtv(x.stableMax)]),
    { caption: 'The row top × [1, 0.99, 0.5, 0] for each top score', cellClass: (i, j) => (j === 2 && sw[i].kind !== 'fits' ? 'lab-bad' : '') }));
}
