// fused-view.js: the long form against the fused form on the page.
// mountFusedLab(root, { attn, doc, state, onState }). The bytes and the agreement of the two O
// are computed at once; the times are measured after the redraw, one n per task (about 30 ms
// each), so the page keeps answering while the sweep runs; a measurement is kept per n.
import { compareForms, timeForms, plotGeometry, explainFused, bytesText, timeText, MODE, N_MIN, N_MAX, SWEEP, BLOCK, TILE, WIDTH, defaultState, writeState } from './fused.js';
import { h, slider, checkbox, button, table, paragraphs, labShell, svg } from './ui.js';
import { grouped } from '../blocks/words.js';

const now = () => performance.now();

/** @typedef {import('./lab-types').FusedState} FusedState @typedef {ReturnType<typeof timeForms>} Timing */
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<FusedState>} [options] */
export function mountFusedLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<FusedState>} */ ({})) {
  /** @type {Map<string, ReturnType<typeof compareForms>>} */
  const compared = new Map(); // `${causal} ${n}` -> compareForms()
  /** @type {Map<string, Timing>} */
  const timed = new Map(); // `${causal} ${n}` -> timeForms()
  const key = (/** @type {FusedState} */ s, n = s.n) => `${s.causal ? 1 : 0} ${n}`;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {number | null} */
  let measuring = null;

  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'The fused form: O tile by tile, without the n × n matrix',
    lede: `The long form computes S = Q·Kᵀ/√dk, the masked softmax A and O = A·V, and keeps every n × n matrix, which is what you need to understand it and what the explorer shows. The fused form here (the core’s own) works as FlashAttention does: a block of ${BLOCK} queries against a tile of ${TILE} keys at a time, with an online softmax. For each query row it carries the running maximum m of its scores, the running sum l of exp(score − m) and its output so far, the average of the values seen: a tile’s weights are exp(score − m) ÷ l, and what the row had is rescaled by α·l_old ÷ l_new, with α = exp(m_old − m_new) below 1 when the tile brings a larger score. No row of S is ever whole. PyTorch’s fused kernels for scaled_dot_product_attention (FlashAttention, memory-efficient attention) take the keys a tile at a time in the same way, on their own tile sizes. Slide n and watch the memory, the time and the outputs of both, measured live in this browser.`,
    render: (/** @type {FusedState} */ s, /** @type {HTMLElement} */ out) => render(s, out),
  });

  const n = slider(doc, 'Tokens n', { min: N_MIN, max: N_MAX, value: state.n, name: 'n' });
  n.onChange((v) => lab.set({ n: v }));
  lab.controls.append(
    n.el,
    checkbox(doc, 'causal mask', state.causal, (c) => lab.set({ causal: c }), 'causal'),
    button(doc, 'Time every n again', () => {
      for (const m of [lab.state.n, ...SWEEP]) timed.delete(key(lab.state, m));
      lab.redraw();
    }, 'retime'),
  );

  // The next n to time: the current one first, then the sweep's.
  /** @param {FusedState} s */
  function nextToTime(s) {
    return [s.n, ...SWEEP].find((m) => !timed.has(key(s, m))) ?? null;
  }
  function schedule() {
    clearTimeout(timer);
    const s = lab.state, m = nextToTime(s);
    measuring = m;
    if (m === null) return;
    timer = setTimeout(() => {
      timed.set(key(s, m), timeForms(attn, s, m, now));
      measuring = null;
      if (lab.state === s) lab.redraw();
    }, 0);
  }

  /** @param {FusedState} s @param {HTMLElement} out */
  function render(s, out) {
    const c = compared.get(key(s)) ?? compareForms(attn, s);
    compared.set(key(s), c);
    const t = timed.get(key(s)) ?? null;
    const points = /** @type {Timing[]} */ (SWEEP.map((m) => timed.get(key(s, m))).filter(Boolean)); // filter(Boolean) leaves out the undefined
    if (t && !SWEEP.includes(s.n)) points.push(t);
    out.append(
      h(doc, 'p', { class: 'lab-verdict ' + (c.identical ? 'lab-ok' : ''), attrs: { 'data-role': 'agree' }, text: `Same O${c.identical ? '' : ' to rounding'}: largest difference ${c.identical ? '0' : c.maxDiff.toExponential(1)} over ${grouped(c.outputs)} outputs` }),
      table(doc, ['one head', 'long form', 'fused form'], [
        ['time per call', t ? timeText(t.long) : 'timing…', t ? timeText(t.fused) : 'timing…'],
        ['memory in all', bytesText(c.long.total), bytesText(c.fused.total)],
        ['of it n × n', bytesText(c.long.square), bytesText(c.fused.square)],
        ['what it keeps', `S, M and A (${s.n} × ${s.n} each), then O`, `${BLOCK} × ${Math.min(s.n, TILE)} scores of one tile, and m, l and the output so far of ${BLOCK} rows, at a time; then O`],
      ], { caption: `One head, n = ${s.n}, d = dk = dv = ${WIDTH}${s.causal ? ', causal' : ''}: memory from the core, times measured here`, cellClass: (i, j) => (i === 3 && j > 0 ? 'wrap' : '') }),
      plot(doc, points, s),
      paragraphs(doc, explainFused(c, t, points, s)),
      h(doc, 'p', { class: 'muted small', attrs: { 'data-role': 'status' }, text: status(s, points) }),
    );
    schedule();
  }

  /** @param {FusedState} s @param {Timing[]} points */
  function status(s, points) {
    const m = nextToTime(s);
    if (m !== null) return `Timing n = ${m}… (${points.length} of ${SWEEP.length} sizes on the plot so far). Each time is the fastest of three runs of about 5 ms.`;
    return `Each time is the fastest of three runs of about 5 ms, in this browser, now: another tab or a busy computer slows them. “Time every n again” measures afresh.`;
  }

  const destroy = lab.destroy;
  lab.destroy = () => {
    clearTimeout(timer);
    destroy();
  };
  const api = Object.assign(lab, { measuring: () => measuring });
  api.redraw();
  return api;
}

/** Time against n on log axes: both forms, the n² line, the current n. */
/** @param {Document} doc @param {Timing[]} points @param {FusedState} s */
function plot(doc, points, s) {
  const g = plotGeometry(points, /** @type {{}} */ ({ current: s.n })); // fused.js is not typed yet: tsc infers its current as null
  const el = svg(doc, 'svg', {
    viewBox: `0 0 ${g.width} ${g.height}`, class: 'lab-plot', role: 'img', 'data-role': 'plot',
    'aria-label': `Time per call against n, both on log scales. ${points.length ? [...points].sort((a, b) => a.n - b.n).map((p) => `n ${p.n}: long ${timeText(p.long)}, fused ${timeText(p.fused)}`).join('; ') : 'Not measured yet.'}`,
  });
  const { left, right, top, bottom } = g.pad;
  for (const t of g.yTicks) {
    el.append(svg(doc, 'line', { x1: left, x2: g.width - right, y1: t.y, y2: t.y, class: 'grid' }));
    const label = svg(doc, 'text', { x: left - 6, y: t.y + 4, 'text-anchor': 'end', class: 'tick' });
    label.textContent = t.label;
    el.append(label);
  }
  for (const t of g.xTicks) {
    el.append(svg(doc, 'line', { x1: t.x, x2: t.x, y1: top, y2: g.height - bottom, class: 'grid' }));
    const label = svg(doc, 'text', { x: t.x, y: g.height - bottom + 14, 'text-anchor': 'middle', class: 'tick' });
    label.textContent = t.label;
    el.append(label);
  }
  const axis = svg(doc, 'text', { x: (left + g.width - right) / 2, y: g.height - 4, 'text-anchor': 'middle', class: 'tick' });
  axis.textContent = 'tokens n (log scale)';
  el.append(axis);
  if (g.marker !== null) el.append(svg(doc, 'line', { x1: g.marker, x2: g.marker, y1: top, y2: g.height - bottom, class: 'marker', 'data-series': 'current' }));
  if (g.square.length) el.append(svg(doc, 'polyline', { points: g.square.map((p) => p.join(',')).join(' '), class: 'square', 'data-series': 'n2' }));
  for (const name of /** @type {const} */ (['long', 'fused'])) {
    if (!g[name].length) continue;
    el.append(svg(doc, 'polyline', { points: g[name].map((/** @type {number[]} */ p) => p.join(',')).join(' '), class: 'series ' + name, 'data-series': name }));
    for (const [x, y] of g[name]) el.append(svg(doc, 'circle', { cx: x, cy: y, r: 3, class: 'dot ' + name }));
  }
  const legend = h(doc, 'p', { class: 'lab-legend small' },
    h(doc, 'span', { class: 'key long', text: 'long form' }), ' ',
    h(doc, 'span', { class: 'key fused', text: 'fused form' }), ' ',
    h(doc, 'span', { class: 'key square', text: 'n² through the long form’s largest n' }));
  return h(doc, 'figure', { class: 'panel lab-card wide' }, h(doc, 'figcaption', {}, h(doc, 'span', { class: 'pname', text: 'Time per call against n' })), el, legend);
}
