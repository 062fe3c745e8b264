// cross-view.js: cross-attention on the page. mountCrossLab(root, { attn, doc, state, onState }).
import { fmt } from '../blocks/format.js';
import { computeCross, explainCross, shapesLine, PAIRS, MODE, defaultState, writeState } from './cross.js';
import { select, checkbox, matrixFigure, paragraphs, labShell, h } from './ui.js';

/** @typedef {import('./cross.js').CrossState} CrossState */
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<CrossState>} [options] */
export function mountCrossLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<CrossState>} */ ({})) {
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Cross-attention: queries from one sentence, keys and values from another',
    lede: 'In self-attention Q, K and V all come from the same sequence. In cross-attention (translation, vision-language models) the queries come from one sequence and the keys and values from another; the formula is unchanged. Here the French translation asks, the English source answers.',
    render: (/** @type {CrossState} */ s, /** @type {HTMLElement} */ out) => render(attn, doc, s, out),
  });
  lab.controls.append(
    select(doc, 'Sentence pair', Object.entries(PAIRS).map(([k, p]) => [k, `${p.source.join(' ')} → ${p.target.join(' ')}`]), state.pair, (/** @type {string} */ v) => lab.set({ pair: v }), 'pair'),
    checkbox(doc, 'causal mask', state.causal, (/** @type {boolean} */ c) => lab.set({ causal: c }), 'causal'),
  );
  lab.redraw();
  return lab;
}

/** @param {import('../../types/attention').Attention} attn @param {Document} doc @param {CrossState} s @param {HTMLElement} out */
function render(attn, doc, s, out) {
  const x = computeCross(attn, s);
  const { r, rowLabels: tgt, colLabels: src, concepts } = x;
  out.append(
    h(doc, 'div', { class: 'lab-row' },
      matrixFigure(doc, { name: 'A', id: 'A-cross', rows: r.n, cols: r.m, rowLabels: tgt, colLabels: src, values: r.A, about: 'rows: French queries; columns: English keys' }).el,
      matrixFigure(doc, { name: 'S', id: 'S-cross', rows: r.n, cols: r.m, rowLabels: tgt, colLabels: src, values: maskedScores(r), about: 'scaled scores; −∞ where masked' }).el,
      matrixFigure(doc, { name: 'O', id: 'O-cross', rows: r.n, cols: r.dv, rowLabels: tgt, colLabels: concepts, values: r.O, about: 'each French word’s output: the meaning it read from the English' }).el),
    paragraphs(doc, explainCross(x, s, fmt)),
    h(doc, 'p', { class: 'muted small', text: shapesLine(r, concepts) }),
  );
}

/** @param {import('../../types/attention').ForwardResult} r */
function maskedScores(r) {
  const out = new Float32Array(r.S.length);
  for (let k = 0; k < out.length; k++) out[k] = r.M[k] === -Infinity ? -Infinity : r.S[k];
  return out;
}
