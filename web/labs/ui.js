// ui.js: the small DOM helpers the lab views share. User and config text only ever goes in
// through textContent; no inline styles or scripts, so the labs run under a strict CSP.

import { createHeatmap } from '../blocks/heatmap.js';
import { scaleKind, maxAbsFinite } from '../blocks/colors.js';
import { fmt } from '../blocks/format.js';

const SVG = 'http://www.w3.org/2000/svg';
/** @typedef {import('./lab-types').UI} UI */

/** h(doc, 'div', { class, text, attrs, on }, ...children): one element. @type {UI['h']} */
export function h(doc, tag, props = {}, ...children) {
  const el = doc.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text != null) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs || {})) if (v != null && v !== false) el.setAttribute(k, v === true ? '' : String(v));
  // HTMLElement's addEventListener: a union of the tags' overloads cannot be called
  for (const [k, fn] of Object.entries(props.on || {})) /** @type {HTMLElement} */ (el).addEventListener(k, fn);
  for (const c of children) if (c != null) el.append(typeof c === 'string' ? doc.createTextNode(c) : c);
  return el;
}

// The theme a lab draws in: its host's when it lives in an <attention-explorer> (the element
// carries data-theme), else the page's. labShell's redraw sets `drawing` around its synchronous
// render, so the views' figures need no theme argument.
/** @type {import('../blocks/colors.js').Theme | null} */
let drawing = null;
const themeAt = (/** @type {HTMLElement} */ node) => {
  // a shadow root's host is an HTMLElement (the <attention-explorer>)
  const el = /** @type {ShadowRoot} */ (node.getRootNode?.()).host || node.ownerDocument.documentElement;
  return /** @type {HTMLElement} */ (el).dataset.theme === 'dark' ? 'dark' : 'light';
};
export const themeOf = (/** @type {Document} */ doc) => drawing || (doc.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

/** A labelled <select>; onChange gets the chosen value (a string). @type {UI['select']} */
export function select(doc, label, options, value, onChange, name) {
  const s = h(doc, 'select', { attrs: { 'data-control': name }, on: { change: () => onChange(s.value) } });
  for (const [v, text] of options) s.append(h(doc, 'option', { text, attrs: { value: v } }));
  s.value = String(value);
  return h(doc, 'label', { class: 'lab-field' }, label + ' ', s);
}

/** A labelled checkbox. @type {UI['checkbox']} */
export function checkbox(doc, label, checked, onChange, name) {
  const c = h(doc, 'input', { attrs: { type: 'checkbox', 'data-control': name }, on: { change: () => onChange(c.checked) } });
  c.checked = checked;
  return h(doc, 'label', { class: 'lab-field lab-check' }, c, ' ' + label);
}

/** A slider with a number box beside it, kept in step; onChange gets an integer. @type {UI['slider']} */
export function slider(doc, label, { min, max, value, name, list }) {
  const wrap = h(doc, 'span', { class: 'lab-slider' });
  const range = h(doc, 'input', { attrs: { type: 'range', min, max, step: 1, 'aria-label': label, 'data-control': name + '-range' } });
  const box = h(doc, 'input', { attrs: { type: 'number', min, max, step: 1, 'aria-label': label, 'data-control': name, inputmode: 'numeric' } });
  range.value = box.value = String(value);
  wrap.append(range, box);
  let handler = (/** @type {number} */ _v) => {};
  const commit = (/** @type {string} */ raw) => {
    const v = Math.round(Number(raw));
    if (!Number.isFinite(v)) return;
    const c = Math.min(max, Math.max(min, v));
    range.value = box.value = String(c);
    handler(c);
  };
  range.addEventListener('input', () => commit(range.value));
  box.addEventListener('change', () => commit(box.value));
  if (list) range.setAttribute('list', list);
  return { el: h(doc, 'label', { class: 'lab-field' }, label + ' ', wrap), onChange: (fn) => (handler = fn) };
}

/** @type {UI['button']} */
export function button(doc, text, onClick, name, attrs = {}) {
  return h(doc, 'button', { text, attrs: { type: 'button', 'data-control': name, ...attrs }, on: { click: onClick } });
}

/** @type {UI['paragraphs']} */
export function paragraphs(doc, lines, cls = 'lab-text') {
  return h(doc, 'div', { class: cls, attrs: { 'aria-live': 'polite' } }, ...lines.map((t) => h(doc, 'p', { text: t })));
}

/**
 * A matrix as the explorer draws it: { name, about, values, rows, cols, rowLabels, colLabels,
 * kind (default from the name), format, hidden (cells show "?") }.
 * @type {UI['matrixFigure']}
 */
export function matrixFigure(doc, o) {
  const kind = o.kind || scaleKind(o.name);
  const caption = `${o.name}: ${o.rows} × ${o.cols}`;
  const hm = createHeatmap(doc, { m: o.id || o.name, rows: o.rows, cols: o.cols, rowLabels: o.rowLabels, colLabels: o.colLabels, caption, mode: 'cells' });
  const format = o.hidden ? () => '?' : o.format || fmt;
  const values = o.hidden ? new Float32Array(o.rows * o.cols).fill(0.5) : o.values;
  hm.update(values, {
    kind: o.hidden ? 'mask' : kind, maxAbs: maxAbsFinite(o.values), theme: themeOf(doc), format,
    label: (i, j, v) => `${o.name} row ${i + 1} ${o.rowLabels[i]}, column ${j + 1} ${o.colLabels[j]}: ${o.hidden ? 'hidden' : fmt(v)}`,
  });
  hm.el.addEventListener('keydown', (ev) => {
    const c = hm.cursor, d = /** @type {Record<string, [number, number]>} */ ({ ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] })[ev.key];
    if (!d) return;
    ev.preventDefault();
    hm.setCursor(c.i + d[0], c.j + d[1]);
    hm.focusCursor();
  });
  const cap = h(doc, 'figcaption', {}, h(doc, 'span', { class: 'pname', text: o.name }), h(doc, 'span', { class: 'shape', text: `(${o.rows}, ${o.cols})` }));
  if (o.about) cap.append(h(doc, 'span', { class: 'about', text: o.about }));
  const fig = h(doc, 'figure', { class: 'panel lab-matrix', attrs: { 'data-figure': o.id || o.name } }, cap, h(doc, 'div', { class: 'scroller' }, hm.el));
  return { el: fig, hm };
}

/** @type {UI['svg']} */
export function svg(doc, tag, attrs = {}) {
  const el = doc.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * A histogram as an SVG bar chart: hist = { lo, hi, counts }; marks = [{ at, label }] vertical
 * lines (e.g. ± one standard deviation). Summary text goes in the aria-label.
 * @type {UI['histogramSvg']}
 */
export function histogramSvg(doc, hist, { title, marks = [], summary, cls = '' }) {
  const W = 320, H = 120, pad = 18;
  const el = svg(doc, 'svg', { viewBox: `0 0 ${W} ${H + pad}`, class: 'lab-hist ' + cls, role: 'img', 'aria-label': `${title}. ${summary}` });
  const max = Math.max(1, ...hist.counts);
  const bw = W / hist.counts.length;
  hist.counts.forEach((c, k) => {
    const bh = (c / max) * (H - 4);
    el.append(svg(doc, 'rect', { x: (k * bw + 0.5).toFixed(2), y: (H - bh).toFixed(2), width: Math.max(0.5, bw - 1).toFixed(2), height: bh.toFixed(2), class: 'bar' }));
  });
  const xOf = (/** @type {number} */ v) => ((v - hist.lo) / (hist.hi - hist.lo)) * W;
  for (const m of marks) {
    const x = Math.min(W - 1, Math.max(1, xOf(m.at)));
    el.append(svg(doc, 'line', { x1: x, x2: x, y1: 0, y2: H, class: 'mark' }));
  }
  el.append(svg(doc, 'line', { x1: 0, x2: W, y1: H, y2: H, class: 'axis' }));
  const tick = (/** @type {number} */ v, /** @type {string} */ anchor) => {
    const t = svg(doc, 'text', { x: Math.min(W - 2, Math.max(2, xOf(v))), y: H + pad - 3, 'text-anchor': anchor, class: 'tick' });
    t.textContent = fmtTick(v);
    el.append(t);
  };
  tick(hist.lo, 'start');
  tick(0, 'middle');
  tick(hist.hi, 'end');
  return el;
}

const fmtTick = (/** @type {number} */ v) => (Math.abs(v) >= 100 ? String(Math.round(v)) : String(Math.round(v * 10) / 10)).replace('-', '\u2212');

/** A row of weights in [0, 1] as bars, one per key. @type {UI['weightBars']} */
export function weightBars(doc, weights, { title, labels }) {
  const W = 320, H = 90;
  const el = svg(doc, 'svg', { viewBox: `0 0 ${W} ${H + 4}`, class: 'lab-bars', role: 'img', 'aria-label': title });
  const bw = W / weights.length;
  weights.forEach((w, k) => {
    const bh = Math.max(0, Math.min(1, w)) * H;
    const r = svg(doc, 'rect', { x: (k * bw + 0.5).toFixed(2), y: (H - bh).toFixed(2), width: Math.max(0.5, bw - 1).toFixed(2), height: Math.max(bh, 0.5).toFixed(2), class: 'bar' });
    const t = svg(doc, 'title');
    t.textContent = `${labels ? labels[k] : 'key ' + (k + 1)}: ${fmt(w)}`;
    r.append(t);
    el.append(r);
  });
  el.append(svg(doc, 'line', { x1: 0, x2: W, y1: H, y2: H, class: 'axis' }));
  return el;
}

/**
 * A small table: head = column titles, rows = arrays of cell text; cellClass(r, c) optional;
 * label names it for a screen reader when it has no caption. When the table is wider than its
 * box it scrolls sideways: the scroller then takes keyboard focus (a region named after the
 * table, arrow keys scroll it) and a fade with an arrow marks each edge where columns are cut.
 * @type {UI['table']}
 */
export function table(doc, head, rows, { caption, cellClass, label } = {}) {
  const t = h(doc, 'table', { class: 'lab-table' });
  if (caption) t.append(h(doc, 'caption', { text: caption }));
  t.append(h(doc, 'thead', {}, h(doc, 'tr', {}, ...head.map((c) => h(doc, 'th', { text: c, attrs: { scope: 'col' } })))));
  t.append(h(doc, 'tbody', {}, ...rows.map((r, i) => h(doc, 'tr', {}, ...r.map((c, j) => h(doc, j === 0 ? 'th' : 'td', { text: c, class: cellClass ? cellClass(i, j) : '', attrs: j === 0 ? { scope: 'row' } : {} }))))));
  const scroller = h(doc, 'div', { class: 'lab-scroll' }, t);
  const wrap = h(doc, 'div', { class: 'lab-scroll-wrap' }, scroller);
  const name = `${caption || label || head.filter(Boolean).join(', ')} (table, scrolls sideways)`;
  const mark = () => {
    const more = scroller.scrollWidth - scroller.clientWidth;
    const cut = more > 1;
    wrap.dataset.cutLeft = String(cut && scroller.scrollLeft > 1);
    wrap.dataset.cutRight = String(cut && scroller.scrollLeft < more - 1);
    if (cut) {
      scroller.setAttribute('tabindex', '0');
      scroller.setAttribute('role', 'region');
      scroller.setAttribute('aria-label', name);
    } else {
      for (const a of ['tabindex', 'role', 'aria-label']) scroller.removeAttribute(a);
    }
  };
  scroller.addEventListener('scroll', mark, { passive: true });
  const RO = doc.defaultView && doc.defaultView.ResizeObserver;
  if (RO) new RO(mark).observe(scroller);
  return wrap;
}

/** A selector for the element that has focus inside `out` (a control or a matrix cell), or null. @param {HTMLElement} root @param {HTMLElement} out */
function focusKey(root, out) {
  const top = /** @type {Document | ShadowRoot | null} */ (root.getRootNode ? root.getRootNode() : null); // or root itself, detached: no activeElement
  const a = (top && top.activeElement) || out.ownerDocument.activeElement;
  if (!a || !out.contains(a)) return null;
  const d = /** @type {HTMLElement} */ (a).dataset || {};
  if (d.control) return `[data-control="${d.control}"]`;
  const fig = /** @type {HTMLElement | null} */ (a.closest('[data-figure]'));
  if (fig && d.row != null && d.col != null) return `[data-figure="${fig.dataset.figure}"] [data-row="${d.row}"][data-col="${d.col}"]`;
  return null;
}

/** @param {HTMLElement} out @param {string} selector */
function refocus(out, selector) {
  const e = /** @type {HTMLInputElement | null} */ (out.querySelector(selector)); // a control or a cell; tagName says which
  if (!e) return;
  e.focus({ preventScroll: true });
  if (e.tagName === 'INPUT' && e.type === 'text') e.setSelectionRange(e.value.length, e.value.length);
}

/**
 * Shared plumbing of a lab view: state, URL callback, re-render of the output part.
 * @template S @param {HTMLElement} root @param {import('./lab-types').LabShellOptions<S>} options @returns {import('./lab-types').LabShell<S>}
 */
export function labShell(root, { doc, title, lede, kind, state, writeState, onState, render }) {
  const el = h(doc, 'section', { class: 'lab', attrs: { 'data-lab': kind, 'aria-label': title } });
  const controls = h(doc, 'div', { class: 'lab-controls bar' });
  const out = h(doc, 'div', { class: 'lab-out' });
  el.append(h(doc, 'h2', { class: 'lab-title', text: title }), h(doc, 'p', { class: 'lede', text: lede }), controls, out);
  root.append(el);
  /** @type {import('./lab-types').LabShell<S>} */
  const api = {
    el, controls, out, state,
    set(patch) {
      api.state = { ...api.state, ...patch };
      if (onState) onState(writeState(api.state));
      api.redraw();
    },
    redraw() {
      // The output is rebuilt, controls included: the focus goes back to the same control or
      // cell, so a keyboard user who changes a select or presses Enter in a field stays there.
      const where = focusKey(root, out);
      out.replaceChildren();
      drawing = themeAt(root);
      try {
        render(api.state, out);
      } finally {
        drawing = null;
      }
      if (where) refocus(out, where);
    },
    destroy() { el.remove(); },
  };
  return api;
}
