// explorer/geometry-view.js: the geometry view (geometry.js's picture) as two SVG planes, q and k
// on the left and v and O on the right, and its wiring: the tip of an arrow is a focusable handle
// that the pointer drags (touch too) and the arrow keys move, each move an edit of the head
// through state.js (setRow), so the heatmaps, the link, "Reset to the preset" and every
// explanation follow it. Hovering or focusing an arrow or the angle explains it.
//
// The non-focusable drawing (grid, arrows, shadows, hull, the construction of O) is drawn anew
// each time; the handles stay the same elements, so a handle moved by the keyboard keeps the focus.

import { el, setText, setAttr } from '../blocks/dom.js';
import { setMarkup } from '../blocks/trusted-types.js';
import { GEOMETRY_CSS } from '../gen/geometry-css.js';
import { constructable, sheetOf } from '../blocks/sheets.js';
import { svgEl } from '../blocks/svg.js';
import { fmtShort, tokenRef } from '../blocks/format.js';
import * as S from './state.js';
import {
  geometryOf, fitPlanes, planeSentences, scalingPrompt, maskPrompt, averagePrompt,
  arrowLabel, arrowName, dragEdit, cellOf, crowdedSentence, dragSentence, activeText, STEP, FINE, MAX_ARROWS, MATRIX_OF,
} from './geometry.js';

/** @typedef {import('./mount.js').Lookup} Lookup @typedef {import('./mount.js').View} View @typedef {import('./state.js').State} State */
/** @typedef {import('./geometry.js').Geometry} Geometry @typedef {import('./geometry.js').Point} Point */
/** @typedef {'q' | 'k' | 'v' | 'o'} Kind */
/** @typedef {import('./geometry.js').Active} Active */

const SIZE = 300, PAD = 26, MID = SIZE / 2;

// The view's constant markup (no user text), put into the explorer's #geo-body when the view
// loads (web/explorer/markup.js holds the section around it, so the page's first load is lighter).
const MARKUP = `
    <p id="geo-planes" class="note"></p>
    <div class="geo-row">
    <div class="geo-planes">
      <figure class="geo-plane">
        <figcaption>The query q and the keys k: q·k is |q| |k| cos θ, the length of k’s shadow on q times |q|. A key’s width is its weight.</figcaption>
        <svg id="geo-qk" class="geo-svg" viewBox="0 0 300 300" role="group" aria-label="The query and the keys as arrows"><g class="geo-art" aria-hidden="true"></g><g class="geo-handles"></g></svg>
        <p id="geo-qk-dims" class="geo-dims" hidden></p>
      </figure>
      <figure class="geo-plane">
        <figcaption>The values v and the output O: O is the weighted values added tip to tail, inside the shaded hull of the visible values.</figcaption>
        <svg id="geo-v" class="geo-svg" viewBox="0 0 300 300" role="group" aria-label="The values and the output as arrows"><g class="geo-art" aria-hidden="true"></g><g class="geo-handles"></g></svg>
        <p id="geo-v-dims" class="geo-dims" hidden></p>
      </figure>
    </div>
    <div class="geo-text">
      <p id="geo-explain" class="geo-explain" aria-live="polite"></p>
      <ul id="geo-prompts" class="geo-prompts"></ul>
    </div>
    </div>
  `;

/**
 * A plane's scale: the half-width E of the square drawn, from the points it must hold (at least
 * 1, in steps of 0.5), and the maps between its numbers and the SVG's.
 * @param {readonly Point[]} points @param {number | null} frozen an E kept while a tip is dragged
 */
function frame(points, frozen) {
  const far = Math.max(1, ...points.map((p) => Math.max(Math.abs(p.x), Math.abs(p.y))));
  const E = frozen && frozen >= far ? frozen : Math.ceil(far * 1.6 * 2) / 2; // room to drag a tip outwards
  const s = (MID - PAD) / E;
  return { E, s, at: (/** @type {Point} */ p) => ({ x: MID + p.x * s, y: MID - p.y * s }) };
}
/** @typedef {ReturnType<typeof frame>} Frame */

/** The grid: lines at whole numbers (or a coarser step for a large E) and the two axes with their dimensions. @param {Element} g @param {Frame} f @param {string[]} names */
function drawGrid(g, f, names) {
  const step = f.E <= 5 ? 1 : Math.ceil(f.E / 4);
  for (let t = -Math.floor(f.E / step) * step; t <= f.E + 1e-9; t += step) {
    const a = f.at({ x: t, y: t });
    svgEl(g, 'line', { class: t === 0 ? 'geo-axis' : 'geo-grid', x1: a.x, y1: PAD / 2, x2: a.x, y2: SIZE - PAD / 2 });
    svgEl(g, 'line', { class: t === 0 ? 'geo-axis' : 'geo-grid', x1: PAD / 2, y1: a.y, x2: SIZE - PAD / 2, y2: a.y });
  }
  const tick = f.at({ x: step, y: step });
  svgEl(g, 'text', { class: 'geo-tick', x: tick.x, y: MID + 14, 'text-anchor': 'middle' }, fmtShort(step));
  svgEl(g, 'text', { class: 'geo-dim', x: SIZE - 4, y: MID - 6, 'text-anchor': 'end' }, names[0]);
  if (names[1]) svgEl(g, 'text', { class: 'geo-dim', x: MID + 6, y: 14 }, names[1]);
}

/**
 * An arrow from a to b with its head, in class cls; `weight` (a key's or value's, 0 when masked)
 * sets its width and opacity, through CSS properties (a style attribute breaks a strict CSP).
 * @param {Element} g @param {Point} a @param {Point} b @param {string} cls @param {Record<string, string | number>} [extra] @param {number | null} [weight]
 */
function arrow(g, a, b, cls, extra = {}, weight = null) {
  const group = /** @type {SVGGElement} */ (svgEl(g, 'g', { class: cls, ...extra }));
  if (weight !== null) {
    group.style.setProperty('--w', `${(1.5 + 5 * weight).toFixed(2)}px`);
    group.style.setProperty('--a', (0.35 + 0.65 * weight).toFixed(3));
  }
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  svgEl(group, 'line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y });
  svgEl(group, 'line', { class: 'geo-hit', x1: a.x, y1: a.y, x2: b.x, y2: b.y }); // a wider line the pointer can find
  if (len < 2) return group;
  const ux = (b.x - a.x) / len, uy = (b.y - a.y) / len, h = Math.min(9, len / 2);
  const p = (/** @type {number} */ s, /** @type {number} */ t) => `${b.x - ux * h + uy * s * t},${b.y - uy * h - ux * s * t}`;
  svgEl(group, 'polygon', { points: `${b.x},${b.y} ${p(4.5, 1)} ${p(4.5, -1)}` });
  return group;
}

/** The arc of the angle θ between directions u and w, at radius r, with the angle's own data. @param {Element} g @param {Frame} f @param {Point} u @param {Point} w @param {number} j */
function angleArc(g, f, u, w, j) {
  const a0 = Math.atan2(u.y, u.x), a1 = Math.atan2(w.y, w.x);
  let d = a1 - a0;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  const r = 28, o = f.at({ x: 0, y: 0 });
  const pt = (/** @type {number} */ t) => `${o.x + r * Math.cos(t)},${o.y - r * Math.sin(t)}`;
  const arc = `M${pt(a0)} A${r},${r} 0 0 ${d > 0 ? 0 : 1} ${pt(a0 + d)}`;
  svgEl(g, 'path', { class: 'geo-angle', d: arc });
  svgEl(g, 'path', { class: 'geo-hit geo-angle-hit', d: arc, 'data-kind': 'angle', 'data-j': j }); // a wider band the pointer can find
  const mid = a0 + d / 2;
  svgEl(g, 'text', { class: 'geo-angle-label', x: o.x + (r + 10) * Math.cos(mid), y: o.y - (r + 10) * Math.sin(mid) + 4, 'text-anchor': 'middle' }, 'θ');
}

/**
 * The labels beside the arrows' tips, away from the origin; arrows whose tips meet (q₃ = k₃, or
 * keys of length 0) share one label, "q₃, k₃", in the colour of the first.
 * @param {Element} g @param {[Point, string, string][]} labels [tip in the SVG, name, class]
 */
function drawLabels(g, labels) {
  /** @type {[Point, string[], string][]} */
  const groups = [];
  for (const [tip, name, cls] of labels) {
    const same = groups.find(([p]) => Math.hypot(p.x - tip.x, p.y - tip.y) < 4);
    if (same) same[1].push(name);
    else groups.push([tip, [name], cls]);
  }
  for (const [tip, names, cls] of groups) {
    const dx = tip.x - MID, dy = tip.y - MID, len = Math.hypot(dx, dy);
    const [ux, uy] = len > 1 ? [dx / len, dy / len] : [0.7, 0.7]; // at the origin: below right
    const x = tip.x + ux * (12 + 3 * names.length), y = tip.y + uy * 13 + 4;
    svgEl(g, 'text', { class: `geo-label ${cls}`, x: Math.max(16, Math.min(SIZE - 16, x)), y: Math.max(12, Math.min(SIZE - 4, y)), 'text-anchor': 'middle' }, names.join(', '));
  }
}

/**
 * What the view keeps between frames: the arrow or angle in hand, the query at the start of the
 * learner's last drag of it (for the scaling prompt), a tip being dragged (its kind and row, and
 * the planes' scales, kept still meanwhile but grown to hold the tip), what was drawn last, and the
 * widths the plane menus were built for, and what the planes were last drawn for (draw's key).
 * @typedef {{ active: Active | null, before: { i: number, rev: number, qLen: number, top: number } | null,
 *   drag: { kind: 'q' | 'k' | 'v', j: number, E: { qk: number, v: number } } | null,
 *   last: { state: State, view: View, g: Geometry, movable: boolean, frames: { qk: Frame, v: Frame } } | null, planesKey: string, drawn: string }} Kept
 */
/** The view's document, lookup and kept state, which every part below gets. @typedef {{ doc: Document, $: Lookup, v: Kept }} Ctx */

/**
 * The view's stylesheet (web/explorer/geometry.css) on the root the view is drawn in: the page's
 * document or the element's shadow root; an engine without constructable sheets gets a <style>
 * (which needs style-src 'unsafe-inline', as the element's own).
 * @param {Document} doc @param {Node} node
 */
function adoptCss(doc, node) {
  const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
  if (!constructable(root)) return void (root === doc ? doc.head : root).appendChild(Object.assign(doc.createElement('style'), { textContent: GEOMETRY_CSS }));
  const sheet = sheetOf(doc, GEOMETRY_CSS);
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** @param {Document} doc @param {Lookup} $ */
export function createGeometryView(doc, $) {
  adoptCss(doc, $('geometry'));
  /** @type {Ctx} */
  const x = { doc, $, v: { active: null, before: null, drag: null, last: null, planesKey: '', drawn: '' } };
  const t = doc.createElement('template');
  setMarkup(t, MARKUP); // a constant: never user text
  $('geo-body').replaceChildren(t.content);
  return {
    /** @param {State} state @param {View} view */
    draw: (state, view) => draw(x, state, view),
    wire: (/** @type {Parameters<typeof wireGeometry>[1]} */ ctx) => wireGeometry(x, ctx),
  };
}


/** The handle of an arrow, made once per kind and row. @param {Element} layer @param {string} kind @param {number} j */
function handle(layer, kind, j) {
  const key = `${kind}${j}`;
  let h = /** @type {SVGElement | null} */ (layer.querySelector(`[data-key="${key}"]`));
  if (!h) {
    h = svgEl(layer, 'circle', { 'data-key': key, 'data-kind': kind, 'data-j': j, class: `geo-handle geo-handle-${kind}`, r: 12, tabindex: 0, role: 'button' });
  }
  h.dataset.seen = '1';
  return h;
}

/**
 * One plane: its grid and drawing, then the handles of the arrows it has.
 * @param {Ctx} x @param {'qk' | 'v'} which @param {Geometry} g @param {Frame} f @param {boolean} movable
 */
function drawPlane(x, which, g, f, movable) {
  const { $, v } = x;
  const svg = $(`geo-${which}`);
  const art = /** @type {Element} */ (svg.querySelector('.geo-art'));
  const layer = /** @type {Element} */ (svg.querySelector('.geo-handles'));
  art.textContent = '';
  const dims = which === 'qk' ? g.planes.qk : g.planes.v;
  drawGrid(art, f, dims.map((d) => (d < 0 ? '' : `dim ${d + 1}`)));
  const o = f.at({ x: 0, y: 0 });
  /** @type {[Kind, number, Point][]} */
  const tips = [];
  if (which === 'qk') {
    drawKeys(x, art, g, f, o, tips);
  } else {
    drawValues(x, art, g, f, o, tips);
  }
  for (const h of layer.children) /** @type {SVGElement} */ (h).dataset.seen = '';
  for (const [kind, j, p] of tips) {
    const h = handle(layer, kind, j);
    const at = f.at(p);
    setAttr(h, 'cx', at.x.toFixed(2));
    setAttr(h, 'cy', at.y.toFixed(2));
    const canMove = movable && kind !== 'o';
    setAttr(h, 'aria-label', arrowLabel(g, kind, j, canMove));
    setAttr(h, 'aria-roledescription', canMove ? 'draggable arrow tip' : 'arrow tip');
    h.classList.toggle('geo-movable', canMove);
    h.classList.toggle('geo-on', Boolean(v.active && v.active.kind === kind && v.active.j === j));
  }
  for (const h of [...layer.children]) if (!(/** @type {SVGElement} */ (h).dataset.seen)) h.remove();
}

/** The keys (with their shadows on q and the angle in hand) and q. @param {Ctx} x @param {Element} art @param {Geometry} g @param {Frame} f @param {Point} o @param {[Kind, number, Point][]} tips */
function drawKeys(x, art, g, f, o, tips) {
  const { v } = x;
  const qTip = f.at(g.q), qn = g.qShown;
  // q under the keys, wider: a key that lies along q (Q = K in the worked example) stays visible
  arrow(art, o, qTip, 'geo-arrow geo-q', { 'data-kind': 'q', 'data-j': g.i });
  /** @type {[Point, string, string][]} */
  const labels = [[qTip, arrowName('q', g.i), 'geo-label-q']];
  for (const k of g.keys) {
    const tip = f.at(k.k);
    const on = v.active && (v.active.kind === 'k' || v.active.kind === 'angle') && v.active.j === k.j;
    if (k.visible && qn > 0) { // the shadow of k on the line of q: (k·q̂) q̂
      const t = k.shown / (qn * qn), foot = f.at({ x: g.q.x * t, y: g.q.y * t });
      svgEl(art, 'line', { class: `geo-shadow${on ? ' geo-on' : ''}`, x1: tip.x, y1: tip.y, x2: foot.x, y2: foot.y });
      svgEl(art, 'circle', { class: `geo-foot${on ? ' geo-on' : ''}`, cx: foot.x, cy: foot.y, r: on ? 4 : 2.5 });
    }
    const w = k.visible ? k.weight : 0;
    arrow(art, o, tip, `geo-arrow geo-k${k.visible ? '' : ' geo-masked'}${on ? ' geo-on' : ''}`,
      { 'data-kind': 'k', 'data-j': k.j }, w);
    labels.push([tip, arrowName('k', k.j), 'geo-label-k']);
    tips.push(['k', k.j, k.k]);
    if (on && k.cos !== null && qn > 0 && Math.hypot(k.k.x, k.k.y) > 0) angleArc(art, f, g.q, k.k, k.j);
  }
  drawLabels(art, labels);
  tips.push(['q', g.i, g.q]);
}

/** The values, their hull, the construction of O tip to tail, and O. @param {Ctx} x @param {Element} art @param {Geometry} g @param {Frame} f @param {Point} o @param {[Kind, number, Point][]} tips */
function drawValues(x, art, g, f, o, tips) {
  const { v } = x;
  if (g.hull.length >= 2) svgEl(art, 'polygon', { class: 'geo-hull', points: g.hull.map((p) => { const a = f.at(p); return `${a.x},${a.y}`; }).join(' ') });
  /** @type {[Point, string, string][]} */
  const labels = [[f.at(g.o), arrowName('o', g.i), 'geo-label-o']];
  for (const k of g.keys) {
    const tip = f.at(k.v), w = k.visible ? k.weight : 0;
    const on = v.active && v.active.kind === 'v' && v.active.j === k.j;
    arrow(art, o, tip, `geo-arrow geo-v${k.visible ? '' : ' geo-masked'}${on ? ' geo-on' : ''}`,
      { 'data-kind': 'v', 'data-j': k.j }, w);
    labels.push([tip, arrowName('v', k.j), 'geo-label-v']);
    tips.push(['v', k.j, k.v]);
  }
  g.chain.slice(1).forEach((p, s) => arrow(art, f.at(g.chain[s]), f.at(p), 'geo-chain', { 'data-kind': 'v', 'data-j': g.visible[s].j }));
  arrow(art, o, f.at(g.o), 'geo-arrow geo-o', { 'data-kind': 'o', 'data-j': g.i });
  drawLabels(art, labels);
  tips.push(['o', g.i, g.o]);
}

/** The plane menus of a width over 2 (which two dimensions to draw). @param {Ctx} x @param {Geometry} g */
function drawPlaneMenus(x, g) {
  const { doc, $, v } = x;
  const key = `${g.dk},${g.dv}`;
  for (const [which, width] of /** @type {const} */ ([['qk', g.dk], ['v', g.dv]])) {
    const box = $(`geo-${which}-dims`);
    box.hidden = width <= 2;
    if (key !== v.planesKey) {
      box.textContent = '';
      for (const [axis, text] of /** @type {const} */ ([[0, 'across'], [1, 'up']])) {
        const lab = box.appendChild(el(doc, 'label', null, `${which === 'qk' ? 'q and k' : 'v and O'} ${text}: `));
        const sel = lab.appendChild(el(doc, 'select'));
        sel.dataset.plane = which;
        sel.dataset.axis = String(axis);
        for (let d = 0; d < width; d++) sel.appendChild(el(doc, 'option', null, `dimension ${d + 1}`)).value = String(d);
      }
    }
    const dims = g.planes[which];
    box.querySelectorAll('select').forEach((s, axis) => { if (s.value !== String(dims[axis])) s.value = String(dims[axis]); });
  }
  v.planesKey = key;
}

/**
 * Draws the view for the state and the core's result (hidden while the state has no planes).
 * @param {Ctx} x @param {State} state @param {View} view
 */
function draw(x, state, view) {
  const { doc, $, v } = x;
  if (!state.geometry) return void (v.last = null, v.drawn = ''); // (geometry-slot.js hides the section)
  // The explorer redraws every view each frame (a hover over a cell too): the planes only when
  // what they show changed, the numbers (serial), the query, the planes, the arrow in hand, a drag.
  const key = [view.serial, state.follow, JSON.stringify(state.geometry), S.can(state, 'edit'), v.active && v.active.kind + v.active.j,
    v.drag && `${v.drag.E.qk},${v.drag.E.v}`, v.before && v.before.rev].join('|');
  if (key === v.drawn && v.last) return void (v.last = { ...v.last, state, view });
  v.drawn = key;
  const c = S.headOf(state), n = c.tokens.length;
  const crowded = n > MAX_ARROWS;
  $('geo-body').hidden = crowded;
  setText($('geo-crowded'), crowded ? crowdedSentence(n) : '');
  if (crowded) return void (v.last = null);
  const i = state.follow ?? n - 1;
  const g = geometryOf(view, i, fitPlanes(state.geometry, view.r.dk, view.r.dv));
  const movable = S.editable(state).has('Q');
  const frames = {
    qk: frame([g.q, ...g.keys.map((k) => k.k)], v.drag && v.drag.E.qk),
    v: frame([g.o, ...g.chain, ...g.keys.map((k) => k.v)], v.drag && v.drag.E.v),
  };
  v.last = { state, view, g, movable, frames };
  drawPlane(x, 'qk', g, frames.qk, movable);
  drawPlane(x, 'v', g, frames.v, movable);
  drawPlaneMenus(x, g);
  setText($('geo-query'), `the query ${arrowName('q', i)} of ${tokenRef(c.tokens, i)}`);
  setText($('geo-planes'), [...planeSentences(g), dragSentence(movable, S.can(state, 'edit'))].join(' '));
  const prompts = [scalingPrompt(g, v.before && v.before.i === i && v.before.rev === state.rev ? v.before : null, movable), maskPrompt(g), averagePrompt(g)];
  const list = $('geo-prompts');
  while (list.children.length < prompts.length) list.appendChild(el(doc, 'li'));
  prompts.forEach((p, k) => setText(list.children[k], p));
  setText($('geo-explain'), activeText(g, v.active, c.tokens));
}

/** @param {Ctx} x @param {Active | null} a */
function setActive(x, a) {
  const { v } = x;
  if (a && v.active && a.kind === v.active.kind && a.j === v.active.j) return;
  v.active = a;
  if (v.last) draw(x, v.last.state, v.last.view);
}

/**
 * The learner moved a tip to p (a plane's numbers): the edit, and the query before it for the
 * scaling prompt. `act` runs state.js's action; the frame it schedules redraws everything.
 * @param {Ctx} x @param {(action: typeof S.setRow, ...args: unknown[]) => void} act @param {'q' | 'k' | 'v'} kind @param {number} j @param {Point} p @param {number} snap
 */
function move(x, act, kind, j, p, snap) {
  const { v } = x;
  if (!v.last || !v.last.movable) return;
  const { g, state } = v.last;
  if (kind === 'q' && !(v.before && v.before.i === g.i && v.before.rev === state.rev))
    v.before = { i: g.i, rev: state.rev, qLen: g.qLen, top: Math.max(0, ...g.visible.map((k) => k.weight)) };
  const e = dragEdit(kind, j, g.planes, p, snap);
  act(S.setRow, e.m, e.i, e.cols, e.values);
  if (kind === 'q' && v.before) v.before.rev = state.rev;
}

/**
 * The view's events: hover and focus explain, the pointer drags, the arrow keys move.
 * @param {Ctx} x @param {{ act: (action: any, ...args: unknown[]) => void, listen: import('./mount.js').Listen }} ctx
 */
export function wireGeometry(x, { act, listen }) {
  const { $, v } = x;
  const section = $('geometry');
  /** @param {Event} ev @returns {Active | null} */
  const target = (ev) => {
    const t = /** @type {Element | null} */ (ev.target instanceof Element ? ev.target.closest('[data-kind]') : null);
    return t ? { kind: /** @type {Active['kind']} */ (/** @type {HTMLElement} */ (t).dataset.kind), j: Number(/** @type {HTMLElement} */ (t).dataset.j) } : null;
  };
  listen(section, 'pointerover', (ev) => { const a = target(ev); if (a) setActive(x, a); });
  listen(section, 'focusin', (ev) => { const a = target(ev); if (a) setActive(x, a); });
  listen(section, 'pointerleave', () => !v.drag && setActive(x, null));
  listen(section, 'change', (ev) => {
    const s = /** @type {HTMLSelectElement} */ (ev.target);
    if (!s.dataset.plane || !v.last) return;
    const which = /** @type {'qk' | 'v'} */ (s.dataset.plane);
    const dims = /** @type {[number, number]} */ ([...v.last.g.planes[which]]);
    const axis = Number(s.dataset.axis), other = 1 - axis;
    if (Number(s.value) === dims[other]) dims[other] = dims[axis]; // choosing the other axis's dimension swaps them
    dims[axis] = Number(s.value);
    act(S.setPlane, which, dims);
  });
  listen(section, 'click', (ev) => { // a tip that does not drag (O, or a projected head's): its cell
    const h = /** @type {SVGElement | null} */ (ev.target instanceof Element ? ev.target.closest('.geo-handle:not(.geo-movable)') : null);
    if (h && v.last) act(S.select, cellOf(v.last.g, /** @type {Kind} */ (h.dataset.kind), Number(h.dataset.j)));
  });
  listen(section, 'pointerdown', (/** @type {PointerEvent} */ ev) => {
    const h = /** @type {SVGElement | null} */ (ev.target instanceof Element ? ev.target.closest('.geo-movable') : null);
    if (!h || !v.last) return;
    ev.preventDefault();
    h.setPointerCapture?.(ev.pointerId);
    h.focus();
    v.drag = { kind: /** @type {'q' | 'k' | 'v'} */ (h.dataset.kind), j: Number(h.dataset.j), E: { qk: v.last.frames.qk.E, v: v.last.frames.v.E } };
  });
  listen(section, 'pointermove', (/** @type {PointerEvent} */ ev) => {
    if (!v.drag || !v.last) return;
    v.drag.E = { qk: v.last.frames.qk.E, v: v.last.frames.v.E };
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($(v.drag.kind === 'v' ? 'geo-v' : 'geo-qk')));
    const f = v.last.frames[v.drag.kind === 'v' ? 'v' : 'qk'];
    const m = svg.getScreenCTM();
    if (!m) return;
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    // Past the plane's edge the tip follows (the pointer is captured); the plane then zooms out to hold it.
    move(x, act, v.drag.kind, v.drag.j, { x: (pt.x - MID) / f.s, y: (MID - pt.y) / f.s }, ev.shiftKey ? FINE : STEP);
  });
  const end = () => {
    if (!v.drag) return;
    v.drag = null;
    if (v.last) draw(x, v.last.state, v.last.view); // the planes take their own scale again
  };
  // A touch that starts on a tip drags it and never scrolls the page (touch-action on an SVG
  // shape is not honoured everywhere); a touch anywhere else scrolls as usual.
  const onTip = (/** @type {TouchEvent} */ ev) => {
    if (ev.target instanceof Element && ev.target.closest('.geo-movable')) ev.preventDefault();
  };
  listen(section, 'touchstart', onTip, { passive: false });
  listen(section, 'touchmove', onTip, { passive: false });
  listen(section, 'pointerup', end);
  listen(section, 'pointercancel', end);
  listen(section, 'keydown', (/** @type {KeyboardEvent} */ ev) => {
    const h = /** @type {SVGElement} */ (ev.target);
    if ((ev.key === 'Enter' || ev.key === ' ') && h.classList && h.classList.contains('geo-handle') && v.last) {
      ev.preventDefault();
      ev.stopPropagation(); // (space would play the steps)
      return act(S.select, cellOf(v.last.g, /** @type {Kind} */ (h.dataset.kind), Number(h.dataset.j)));
    }
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
    if (!d || !h.classList || !h.classList.contains('geo-movable') || !v.last) return;
    ev.preventDefault();
    ev.stopPropagation(); // the explorer's own ← and → step through the steps
    const kind = /** @type {'q' | 'k' | 'v'} */ (h.dataset.kind), j = Number(h.dataset.j);
    // From the head as it is now, not as last drawn: keys pressed faster than frames all count.
    const row = /** @type {Record<string, number[][]>} */ (/** @type {unknown} */ (S.headOf(v.last.state)))[MATRIX_OF[kind]][j];
    const d2 = kind === 'v' ? v.last.g.planes.v : v.last.g.planes.qk;
    const p = { x: row[d2[0]], y: d2[1] < 0 ? 0 : row[d2[1]] };
    const by = ev.shiftKey ? FINE : STEP;
    move(x, act, kind, j, { x: p.x + d[0] * by, y: p.y + d[1] * by }, FINE);
  });
}

