// multihead-view.js: several heads side by side. mountMultiHeadLab(root, { attn, doc, state, onState }).
import { fmt } from '../blocks/format.js';
import { computeMultiHead, HEAD_CHOICES, MODE, defaultState, writeState } from './multihead.js';
import { h, select, checkbox, button, matrixFigure, paragraphs, labShell } from './ui.js';
import { count } from '../blocks/words.js';

/** @typedef {import('./multihead.js').MultiHeadState} MultiHeadState */
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<MultiHeadState>} [options] */
export function mountMultiHeadLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<MultiHeadState>} */ ({})) {
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Several heads on the same tokens',
    lede: 'Each head has its own Wq, Wk and Wv, so its own pattern. Their outputs are put side by side (concatenated). With grouped-query attention, a group of query heads shares one key/value head: any number of them, here groups of two (half as many K/V heads); one K/V head for all query heads is multi-query attention. Weights here are random (seeded), not learned.',
    render: (/** @type {MultiHeadState} */ s, /** @type {HTMLElement} */ out) => render(attn, doc, s, out),
  });
  lab.controls.append(
    select(doc, 'Heads', HEAD_CHOICES.map((k) => [k, String(k)]), state.heads, (/** @type {string} */ v) => lab.set({ heads: Number(v), gqa: Number(v) > 1 && lab.state.gqa }), 'heads'),
    checkbox(doc, 'grouped-query attention (half as many K/V heads)', state.gqa, (/** @type {boolean} */ c) => lab.set({ gqa: c }), 'gqa'),
    checkbox(doc, 'causal mask', state.causal, (/** @type {boolean} */ c) => lab.set({ causal: c }), 'causal'),
    button(doc, 'Re-roll the weights', () => lab.set({ seed: (lab.state.seed + 1) % 2 ** 31 }), 'reroll'),
  );
  lab.redraw();
  return lab;
}

/** @param {import('../../types/attention').Attention} attn @param {Document} doc @param {MultiHeadState} s @param {HTMLElement} out */
function render(attn, doc, s, out) {
  const x = computeMultiHead(attn, s);
  const t = x.tokens, dims = (/** @type {string} */ p, /** @type {number} */ k) => Array.from({ length: k }, (_, c) => p + (c + 1));
  out.append(h(doc, 'ul', { class: 'lab-shapes', attrs: { 'data-role': 'shapes' } }, ...x.shapes.map((l) => h(doc, 'li', { text: l }))));
  const row = h(doc, 'div', { class: 'lab-row lab-heads' });
  for (const p of x.perHead) {
    row.append(h(doc, 'article', { class: 'lab-card', attrs: { 'data-head': p.h } },
      h(doc, 'h3', { text: `Head ${p.h + 1}` + (x.kvHeads < x.heads ? ` (K/V head ${p.kv + 1})` : '') }),
      matrixFigure(doc, { name: 'A', id: `A-h${p.h}`, rows: x.n, cols: x.n, rowLabels: t, colLabels: t, values: p.r.A, about: `weights of head ${p.h + 1}` }).el,
      matrixFigure(doc, { name: 'O', id: `O-h${p.h}`, rows: x.n, cols: x.dv, rowLabels: t, colLabels: dims(`h${p.h + 1}.`, x.dv), values: p.r.O, about: `output of head ${p.h + 1}` }).el));
  }
  out.append(row);
  /** @type {string[]} */
  const cols = [];
  for (let k = 0; k < x.heads; k++) cols.push(...dims(`h${k + 1}.`, x.dv));
  let diff = 0;
  for (let k = 0; k < x.concat.length; k++) diff = Math.max(diff, Math.abs(x.concat[k] - x.concatOneByOne[k]));
  out.append(matrixFigure(doc, { name: 'concat', id: 'concat', rows: x.n, cols: x.heads * x.dv, rowLabels: t, colLabels: cols, values: x.concat, kind: 'diverging', about: 'the heads’ outputs side by side, from the core’s multiHead()' }).el,
    paragraphs(doc, [
      `The concatenated output comes from one multiHead() call on the heads’ Q, K and V; ${diff === 0 ? 'it equals' : 'it differs by rounding from'} the heads’ own outputs put side by side, each head’s O computed alone by the same fused form (largest difference ${diff === 0 ? '0' : diff.toExponential(1)}).`,
      x.kvHeads < x.heads ? `Grouped-query attention: ${x.heads} query heads share ${count(x.kvHeads, 'key/value head')}, ${x.group} query heads to each, so heads in a group read the same K and V but ask different questions (their own Q): their patterns still differ, and the K/V cache is ${x.group} times smaller.` : `Every head has its own keys and values: ${x.heads} × (Wq, Wk, Wv), each (${x.d}, ${x.dk}).`,
    ]));
  void fmt;
}
