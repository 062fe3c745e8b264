// sqrtdk-view.js: the √dk lab on the page. mountSqrtDkLab(root, { attn, doc, state, onState }).
import { fmt } from '../blocks/format.js';
import { computeSqrtDk, sweep, explainSqrtDk, saturation, readState, writeState, defaultState, DK_MAX, N_CHOICES, ONE_HOT, MODE } from './sqrtdk.js';
import { h, slider, select, button, histogramSvg, weightBars, table, paragraphs, labShell } from './ui.js';

/** @typedef {import('./lab-types').SqrtDkState} SqrtDkState @typedef {import('./lab-types').LabShell<SqrtDkState>} Lab */
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<SqrtDkState>} [options] */
export function mountSqrtDkLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<SqrtDkState>} */ ({})) {
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Why divide by √dk?',
    lede: 'Random queries and keys with mean 0 and variance 1. Their dot product is a sum of dk products, so its standard deviation is √dk. Pick dk and watch the raw scores spread and the softmax saturate as dk grows; the table shows from which width the gradient through the softmax collapses, and where it has not yet. The scaled scores stay at a standard deviation of 1.',
    render: (/** @type {SqrtDkState} */ s, /** @type {HTMLElement} */ out) => render(attn, doc, s, out, lab),
  });
  const dk = slider(doc, 'dk (query/key width)', { min: 1, max: DK_MAX, value: state.dk, name: 'dk' });
  dk.onChange((v) => lab.set({ dk: v }));
  const n = select(doc, 'Sequence length n', N_CHOICES.map((v) => [v, String(v)]), state.n, (v) => lab.set({ n: Number(v), row: Math.min(lab.state.row, Number(v) - 1) }), 'n');
  const seed = h(doc, 'span', { class: 'lab-seed', attrs: { 'data-role': 'seed' } });
  const reroll = button(doc, 'Re-roll Q and K', () => lab.set({ seed: (lab.state.seed + 1) % 2 ** 31 }), 'reroll');
  lab.controls.append(dk.el, n, reroll, seed);
  lab.redraw();
  return lab;
}

/** @param {import('../../types/attention').Attention} attn @param {Document} doc @param {SqrtDkState} s @param {HTMLElement} out @param {Lab} lab */
function render(attn, doc, s, out, lab) {
  /** @type {HTMLElement} */ (lab.el.querySelector('[data-role="seed"]')).textContent = `seed ${s.seed}`;
  const r = computeSqrtDk(attn, s);
  const row = Math.min(s.row, s.n - 1);
  const sq = fmt(r.sqrtDk);
  const stat = (/** @type {string} */ name, /** @type {number} */ v, /** @type {Node} */ want) => h(doc, 'p', { class: 'lab-stat' }, h(doc, 'span', { class: 'label', text: name + ' ' }), h(doc, 'span', { text: fmt(v), attrs: { 'data-stat': name } }), want);

  const hists = h(doc, 'div', { class: 'lab-row' });
  for (const [key, title, want, wantText] of /** @type {['raw' | 'scaled', string, number, string][]} */ ([['raw', 'Raw scores q·k (scale 1)', r.sqrtDk, `√dk = √${s.dk} = ${sq}`], ['scaled', 'Scaled scores q·k / √dk', 1, '1']])) {
    const side = r[key];
    hists.append(h(doc, 'figure', { class: 'panel lab-card', attrs: { 'data-side': key } },
      h(doc, 'figcaption', {}, h(doc, 'span', { class: 'pname', text: title })),
      histogramSvg(doc, side.hist, { title, summary: `${r.samples} scores, measured standard deviation ${fmt(side.std)}, expected ${wantText}`, marks: [{ at: -side.std }, { at: side.std }], cls: key }),
      stat('measured std', side.std, h(doc, 'span', { class: 'muted', text: `  expected ≈ ${wantText}` })),
      h(doc, 'p', { class: 'muted small', text: `${r.samples} scores (${s.n} queries × ${s.n} keys), mean ${fmt(side.average)}. Both histograms share one x-axis; the lines mark ± one measured std.` })));
  }
  out.append(h(doc, 'h3', { text: 'The scores' }), hists);

  const picker = select(doc, 'Query', Array.from({ length: s.n }, (_, i) => [i, String(i + 1)]), row, (v) => lab.set({ row: Number(v) }), 'row');
  const rows = h(doc, 'div', { class: 'lab-row' });
  for (const [key, title] of /** @type {['raw' | 'scaled', string][]} */ ([['raw', 'softmax without scaling'], ['scaled', 'softmax of the scaled scores']])) {
    const st = r[key].stats[row];
    rows.append(h(doc, 'figure', { class: 'panel lab-card', attrs: { 'data-row-side': key } },
      h(doc, 'figcaption', {}, h(doc, 'span', { class: 'pname', text: `Query ${row + 1}: ${title}` })),
      weightBars(doc, r[key].weights[row], { title: `Weights of query ${row + 1}, ${title}: largest ${fmt(st.maxWeight)}` }),
      table(doc, ['measure', 'this query', `all ${s.n} queries`], [
        ['largest weight', fmt(st.maxWeight), `mean ${fmt(r[key].mean.maxWeight)}`],
        ['entropy (nats)', fmt(st.entropy), `mean ${fmt(r[key].mean.entropy)} (uniform: ln ${s.n} = ${fmt(r.maxEntropy)})`],
        ['‖J‖_F (Frobenius norm)', fmt(st.gradNorm), `median ${fmt(r[key].medianGradNorm)}`],
        ['gradient left for the other keys', fmt(st.others), `median ${fmt(r[key].medianOthers)}`],
        [`nearly one-hot (largest > ${ONE_HOT})`, st.maxWeight > ONE_HOT ? 'yes' : 'no', `${r[key].oneHot} of ${s.n}`],
      ], { cellClass: (i, j) => (j === 2 ? 'note' : ''), label: `Query ${row + 1}, ${title}` })));
  }
  out.append(h(doc, 'h3', { text: 'What the softmax does to a row' }), h(doc, 'div', { class: 'bar' }, picker), rows);

  const sw = sweep(attn, s);
  out.append(paragraphs(doc, [
    ...explainSqrtDk(r, sw, fmt),
    'The scores, weights, entropy and ‖J‖_F come from the C core: the scores from forward() with scale 1 and with the default 1/√dk, the rest from its softmax functions. The histogram bins, means, medians, standard deviations and the gradient left for the other keys are counted in the page from those numbers.' + (s.dk > 256 ? ' (Above dk = 256, the core’s head-width limit, the dot products are computed in two chunks of columns and added.)' : ''),
  ]));

  const bites = (/** @type {ReturnType<typeof sweep>[number]} */ x) => saturation(x.raw.median, x.scaled.median, fmt);
  out.append(h(doc, 'h3', { text: `As dk grows (n = ${s.n}, seed ${s.seed})` }), table(doc,
    ['dk', 'std raw', 'std scaled', 'mean largest weight raw', 'scaled', 'one-hot rows raw', 'scaled', 'median ‖J‖_F raw', 'scaled', 'median gradient left for the other keys raw', 'scaled'],
    sw.map((x) => [String(x.dk), fmt(x.rawStd), fmt(x.scaledStd), fmt(x.raw.maxWeight), fmt(x.scaled.maxWeight), `${x.raw.oneHot}/${s.n}`, `${x.scaled.oneHot}/${s.n}`, fmt(x.raw.median), fmt(x.scaled.median), fmt(x.raw.others), fmt(x.scaled.others)]),
    { caption: 'Means and medians over the rows. Marked: widths where the unscaled ‖J‖_F falls below a tenth of the scaled one (saturation bites).', cellClass: (i, j) => (j === 7 && bites(sw[i]) === 'bites' ? 'lab-bad' : '') }));
}

export { readState, writeState };
