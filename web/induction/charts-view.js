// @ts-check
// induction/charts-view.js: the induction page's SVG charts: the loss curves, the K-composition
// over training and each head's sparkline. Each draws an update (`last`) into the element it is
// handed; the geometry and every word come from web/induction/words.js.

import { compositionCaption, linePath, binned, headName } from './words.js';
import { niceCeil } from '../train/words.js';
import { fmt } from '../blocks/format.js';

/** @typedef {{ x: number, y: number, w: number, h: number }} Box @typedef {import('./types').InductionUpdate} Last */

const SVG = 'http://www.w3.org/2000/svg';
const CURVE = { width: 420, height: 190 };
const SPARK = { width: 150, height: 44 };

/** @param {Element} parent @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
function svgEl(parent, tag, attrs, text) {
  const doc = /** @type {Document} */ (parent.ownerDocument); // an element's is never null
  const e = parent.appendChild(doc.createElementNS(SVG, tag));
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  if (text != null) e.textContent = text;
  return e;
}

/** An empty SVG element for a sparkline (grid-view.js puts one in each head's card). @param {Document} doc */
export function sparkSvg(doc) {
  const sp = doc.createElementNS(SVG, 'svg');
  sp.setAttribute('class', 'ind-spark');
  sp.setAttribute('aria-hidden', 'true');
  return sp;
}

/**
 * Whether `el` shows what `key` names already; if not, it is marked as showing it (the caller
 * draws it now). A chart whose numbers did not change is left alone: the evaluations behind
 * the sparklines and K-composition arrive every few steps, the panel redraws ten times a second.
 * @param {HTMLElement | SVGElement} el @param {string} key
 */
const drawnFor = (el, key) => el.dataset.drawn === key || ((el.dataset.drawn = key), false);

/**
 * A chart's layer of lines, emptied: its frame (axes, grid) is drawn by frame() only when key,
 * the chart's scale, changes. Training redraws the lines ten times a second; the frame stays.
 * @param {SVGSVGElement} svg @param {string} key @param {() => void} frame @returns {SVGGElement}
 */
function lines(svg, key, frame) {
  if (svg.dataset.frame !== key) {
    for (const c of [...svg.children]) if (c.tagName !== 'title') c.remove();
    frame();
    svgEl(svg, 'g', {});
    svg.dataset.frame = key;
  }
  const g = /** @type {SVGGElement} */ (svg.lastChild); // the layer made above
  g.textContent = '';
  return g;
}

/**
 * A chart's frame in `box`: dashed lines and labels at 0, half and yMax, the x ticks, both axis titles.
 * @param {SVGSVGElement} svg @param {Box} box @param {number} xMax @param {number} yMax @param {string} yTitle
 */
function axes(svg, box, xMax, yMax, yTitle) {
  for (const v of [0, yMax / 2, yMax]) {
    const y = box.y + box.h - (v / yMax) * box.h;
    svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: y, y2: y, class: 'grid' });
    svgEl(svg, 'text', { x: box.x - 4, y: y + 4, 'text-anchor': 'end', class: 'tick' }, String(v));
  }
  for (const v of [0, xMax / 2, xMax]) svgEl(svg, 'text', { x: box.x + (v / xMax) * box.w, y: box.y + box.h + 14, 'text-anchor': 'middle', class: 'tick' }, String(v));
  svgEl(svg, 'line', { x1: box.x, x2: box.x, y1: box.y, y2: box.y + box.h, class: 'axis' });
  svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h, class: 'axis' });
  svgEl(svg, 'text', { x: box.x + box.w / 2, y: CURVE.height - 4, 'text-anchor': 'middle', class: 'axis-title' }, 'training step');
  svgEl(svg, 'text', { x: 12, y: box.y + box.h / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${box.y + box.h / 2})` }, yTitle);
}

/**
 * The loss curves (first part, repeated part, the control's repeated part) and the drop's mark.
 * @param {SVGSVGElement} svg @param {HTMLElement} legend @param {Last} last @param {number | null} drop
 */
export function drawCurve(svg, legend, last, drop) {
  const { width, height } = CURVE;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const box = { x: 44, y: 10, w: width - 60, h: height - 46 };
  const L = last.losses, n = L.first.length;
  const top = Math.max(1, ...[L.first[0], L.repeat[0], L.control[0], last.evals[0].lossFirst].filter(Number.isFinite));
  const yMax = niceCeil(top), xMax = niceCeil(Math.max(n, 100));
  const g = lines(svg, `${xMax} ${yMax}`, () => axes(svg, box, xMax, yMax, 'loss (nats)'));
  const cols = Math.floor(box.w);
  for (const [key, cls] of /** @type {['first' | 'control' | 'repeat', string][]} */ ([['first', 'first'], ['control', 'control'], ['repeat', 'repeat']])) {
    if (!L[key].length) continue;
    const b = binned(L[key], cols);
    svgEl(g, 'path', { d: linePath(b.steps, b.values, box, xMax, yMax), class: 'ind-line ' + cls });
  }
  if (drop != null) {
    const x = box.x + (drop / xMax) * box.w;
    svgEl(g, 'line', { x1: x, x2: x, y1: box.y, y2: box.y + box.h, class: 'ind-drop' });
    svgEl(g, 'text', { x: x + 4, y: box.y + 12, class: 'ind-drop-label' }, `drop: step ${drop}`);
  }
  /** @type {HTMLElement} */ (legend.querySelector('.control')).hidden = !L.control.length; // an <li> of the markup
}

/**
 * The K-composition scores over training: one line per (layer-1 head -> layer-2 head), its legend and caption.
 * @param {SVGSVGElement} svg @param {HTMLElement} legend @param {HTMLElement} caption @param {Last} last
 */
export function drawComposition(svg, legend, caption, last) {
  const { width, height } = CURVE;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  // the evaluations that have it (a two-layer model's always do)
  const ev = /** @type {(import('./words.js').Evaluation & { composition: number[][] })[]} */ (last.evals.filter((e) => e.composition));
  const box = { x: 44, y: 10, w: width - 60, h: height - 46 };
  const xMax = niceCeil(Math.max(last.step, 100));
  let yMax = 0;
  for (const e of ev) for (const row of e.composition) for (const v of row) yMax = Math.max(yMax, v);
  yMax = niceCeil(Math.max(yMax, 0.1));
  if (drawnFor(svg, JSON.stringify([xMax, yMax, ev.map((e) => [e.step, e.composition])]))) return;
  const g = lines(svg, `${xMax} ${yMax}`, () => axes(svg, box, xMax, yMax, 'K-composition'));
  const H = last.settings.heads, steps = ev.map((e) => e.step);
  const latest = ev[ev.length - 1];
  /** @type {[string, string][]} */
  const items = [];
  let k = 0;
  for (let a = 0; a < H; a++) {
    for (let b = 0; b < H; b++, k++) {
      svgEl(g, 'path', { d: linePath(steps, ev.map((e) => e.composition[a][b]), box, xMax, yMax), class: `ind-line kc kc${k}` });
      items.push([`kc kc${k}`, `${headName(a, H)} → ${headName(H + b, H)}: ${latest ? fmt(latest.composition[a][b]) : ''}`]);
    }
  }
  const doc = /** @type {Document} */ (legend.ownerDocument);
  legend.textContent = '';
  for (const [cls, text] of items) {
    const li = legend.appendChild(doc.createElement('li'));
    li.appendChild(doc.createElement('span')).className = 'swatch ' + cls;
    li.appendChild(doc.createTextNode(text));
  }
  caption.textContent = compositionCaption(ev);
}

/**
 * A head's previous-token and induction scores over training.
 * @param {SVGSVGElement} svg @param {number[]} steps @param {number[]} prev @param {number[]} ind
 */
export function spark(svg, steps, prev, ind) {
  const { width, height } = SPARK;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const box = { x: 1, y: 2, w: width - 2, h: height - 4 };
  const xMax = Math.max(steps[steps.length - 1] || 0, 10);
  if (drawnFor(svg, `${steps}|${prev}|${ind}`)) return;
  const g = lines(svg, 'spark', () => {
    svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h, class: 'axis' });
    svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h / 2, y2: box.y + box.h / 2, class: 'grid' });
  });
  svgEl(g, 'path', { d: linePath(steps, prev, box, xMax, 1), class: 'ind-line prev' });
  svgEl(g, 'path', { d: linePath(steps, ind, box, xMax, 1), class: 'ind-line induct' });
}
