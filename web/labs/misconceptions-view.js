// misconceptions-view.js: three misconceptions, shown. mountMisconceptionsLab(root, { attn, doc, state, onState }).
import { fmt } from '../blocks/format.js';
import { PRESETS } from '../blocks/presets.js';
import { wrongAxis, explainWrongAxis, diagonal, explainDiagonal, valuesMatter, explainValues, PRESET_CHOICES, MODE, defaultState, writeState } from './misconceptions.js';
import { h, select, matrixFigure, paragraphs, labShell, table } from './ui.js';

/** @typedef {import('./lab-types').MisconceptionsState} MisconceptionsState */
// The cast of defaultState(): misconceptions.js is not typed yet, and tsc reads its choices as any string.
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<MisconceptionsState>} [options] */
export function mountMisconceptionsLab(root, { attn, doc = root.ownerDocument, state = /** @type {MisconceptionsState} */ (defaultState()), onState } = /** @type {import('./lab-types').ViewOptions<MisconceptionsState>} */ ({})) {
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Common misconceptions, shown',
    lede: 'Three things learners often believe about attention, each checked against the numbers of a real head.',
    render: (/** @type {MisconceptionsState} */ s, /** @type {HTMLElement} */ out) => render(attn, doc, s, out),
  });
  lab.controls.append(
    select(doc, 'Head for 1 and 2', /** @type {MisconceptionsState['preset'][]} */ (PRESET_CHOICES).map((p) => [p, PRESETS[p].title]), state.preset, (v) => lab.set({ preset: /** @type {MisconceptionsState['preset']} */ (v) }), 'preset'),
    select(doc, 'Values for 3', [['silent', 'token 3’s value is zero'], ['lesson', 'the lesson’s values']], state.values, (v) => lab.set({ values: /** @type {MisconceptionsState['values']} */ (v) }), 'values'),
  );
  lab.redraw();
  return lab;
}

/** @param {import('../../types/attention').Attention} attn @param {Document} doc @param {MisconceptionsState} s @param {HTMLElement} out */
function render(attn, doc, s, out) {
  const w = wrongAxis(attn, s.preset);
  const t = w.config.tokens, n = w.r.n, m = w.r.m;
  const fig = (/** @type {Omit<import('./lab-types').MatrixFigureOptions, 'rows' | 'cols' | 'rowLabels' | 'colLabels'>} */ o) => matrixFigure(doc, { rowLabels: t, colLabels: t, rows: n, cols: m, ...o }).el;
  const sumsRow = (/** @type {string} */ label, /** @type {number[]} */ sums, /** @type {string} */ role) => h(doc, 'p', { class: 'lab-sums', attrs: { 'data-role': role } }, h(doc, 'span', { class: 'label', text: label + ' ' }), sums.map(fmt).join('  '));

  out.append(h(doc, 'article', { class: 'lab-card wide', attrs: { 'data-part': 'wrong-axis' } },
    h(doc, 'h3', { text: '1. “softmax(S, dim=0) is fine, the numbers are between 0 and 1”' }),
    h(doc, 'div', { class: 'lab-row' },
      h(doc, 'div', {}, fig({ name: 'A', id: 'A-right', values: w.r.A, about: 'softmax(S, dim=-1): over the keys, right' }), sumsRow('row sums', w.rightRowSums, 'right-row-sums')),
      h(doc, 'div', {}, fig({ name: 'A wrong', id: 'A-wrong', kind: 'sequential', values: w.wrong, about: 'softmax(S, dim=0): over the queries, a bug' }), sumsRow('column sums', w.colSums, 'wrong-col-sums'), sumsRow('row sums', w.rowSums, 'wrong-row-sums'))),
    paragraphs(doc, explainWrongAxis(w, fmt))));

  const d = diagonal(attn, s.preset);
  const dfig = matrixFigure(doc, { name: 'A', id: 'A-diag', rows: n, cols: m, rowLabels: t, colLabels: t, values: d.r.A, about: 'the diagonal is outlined: each token’s weight on itself' });
  for (let i = 0; i < Math.min(n, m); i++) dfig.hm.cell(i, i)?.classList.add('lab-diag');
  out.append(h(doc, 'article', { class: 'lab-card wide', attrs: { 'data-part': 'diagonal' } },
    h(doc, 'h3', { text: '2. “A token attends only to other tokens”' }), dfig.el, paragraphs(doc, explainDiagonal(d, fmt))));

  const v = valuesMatter(attn, s.values);
  const tk = ['1', '2', '3'], r = v.r;
  const vdims = ['v1', 'v2'];
  const afig = matrixFigure(doc, { name: 'A', id: 'A-values', rows: 3, cols: 3, rowLabels: tk, colLabels: tk, values: r.A, about: 'weights' });
  for (let j = 0; j < 3; j++) afig.hm.cell(v.row, j)?.classList.add('follow');
  out.append(h(doc, 'article', { class: 'lab-card wide', attrs: { 'data-part': 'values' } },
    h(doc, 'h3', { text: '3. “The weights say which tokens are important”' }),
    h(doc, 'p', { class: 'muted', text: 'The lesson’s worked example: Q = K = [[1, 0], [0, 1], [1, 1]].' }),
    h(doc, 'div', { class: 'lab-row' }, afig.el,
      matrixFigure(doc, { name: 'V', id: 'V-values', rows: 3, cols: 2, rowLabels: tk, colLabels: vdims, values: r.V, about: 'what each token passes on' }).el,
      matrixFigure(doc, { name: 'O', id: 'O-values', rows: 3, cols: 2, rowLabels: tk, colLabels: vdims, values: r.O, about: 'output = A·V' }).el),
    table(doc, ['key', `weight A[${v.row + 1}][j]`, 'value V[j]', 'adds A·V[j] to the output'], v.contributions.map((c) => [`token ${c.j + 1}`, fmt(c.weight), `[${c.value.map(fmt).join(', ')}]`, `[${c.part.map(fmt).join(', ')}]`]), { caption: `Row ${v.row + 1} of O, taken apart` }),
    paragraphs(doc, explainValues(v, fmt))));
}
