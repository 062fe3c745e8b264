// explorer/geometry.js: attention as geometry. One query q_i, the keys k_j and the values v_j as
// arrows in a plane, with the numbers of the core's result for the head shown: the shadow of each
// key on the query, the scores, the weights, and O_i built as the weighted sum of the values.
// Pure: no DOM (web/explorer/geometry-view.js draws it), tested in Node
// (tests/explorer/geometry.test.mjs).
//
// A plane is two dimensions of Q and K (or of V and O), counted from 0: with dk = 2 the q·k plane
// is the whole vector and the picture is exact; with dk > 2 it shows two of them, and the words say
// what is hidden. A width of 1 is a line (the second axis is -1: y = 0).
//
// Numbers: Q, K, V, S, A and O are the core's (view.r); q·k is the core's unscaled score
// (view.raw.S). Lengths, angles and the partial sums that build O are geometry of those numbers,
// computed here to explain them, never in place of them.

import { fmt, tokenRef } from '../blocks/format.js';
import { count, list, largest, verb } from '../blocks/words.js';

/** @typedef {import('./mount.js').View} View */
/** Two dimensions, counted from 0; -1 is "none" (a width of 1: the line y = 0). @typedef {[number, number]} Dims */
/** The two planes drawn: q and k in `qk`, v and O in `v`. @typedef {import("../../types/config").Planes} Planes */
/** A point of a plane. @typedef {{ x: number, y: number }} Point */
/** An arrow or angle in hand: { kind, j } ('angle' is the angle between q and key j). @typedef {{ kind: 'q' | 'k' | 'v' | 'o' | 'angle', j: number }} Active */
/**
 * One key (and its value) as the query in hand sees it.
 * @typedef {{ j: number, k: Point, v: Point, visible: boolean, dot: number, score: number, weight: number,
 *   kLen: number, cos: number | null, shown: number }} Key
 */

/** The keyboard's step for a tip, and the finer one with Shift (also the pointer's snap). */
export const STEP = 0.1;
export const FINE = 0.01;
/** Above this many tokens the arrows crowd each other: the view says so instead of drawing them. */
export const MAX_ARROWS = 16;
/** The planes of a new view: the first two dimensions of each. @type {Planes} */
export const DEFAULT_PLANES = Object.freeze({ qk: /** @type {Dims} */ ([0, 1]), v: /** @type {Dims} */ ([0, 1]) });

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
/** A row number as a subscript, counted from 1 as the lesson counts tokens: sub(2) -> "₃". @param {number} i */
export const sub = (i) => String(i + 1).replace(/\d/g, (d) => SUBSCRIPT[Number(d)]);
/** The arrows' names: arrowName('k', 0) -> "k₁". @param {'q' | 'k' | 'v' | 'o'} kind @param {number} i */
export const arrowName = (kind, i) => (kind === 'o' ? 'O' : kind) + sub(i);
/** The matrix whose row an arrow is. */
export const MATRIX_OF = /** @type {const} */ ({ q: 'Q', k: 'K', v: 'V' });

/**
 * The planes fitted to a head of widths dk and dv: each pair of distinct dimensions inside its
 * width, else the first two (a width of 1 gives [0, -1]).
 * @param {Planes} planes @param {number} dk @param {number} dv @returns {Planes}
 */
export function fitPlanes(planes, dk, dv) {
  /** @param {Dims} d @param {number} w @returns {Dims} */
  const fit = ([a, b], w) => {
    if (w === 1) return [0, -1];
    return a >= 0 && b >= 0 && a < w && b < w && a !== b ? [a, b] : [0, 1];
  };
  return { qk: fit(planes.qk, dk), v: fit(planes.v, dv) };
}

/** @param {ArrayLike<number>} a @param {number} row @param {number} width @param {Dims} d @returns {Point} */
const pointOf = (a, row, width, [x, y]) => ({ x: a[row * width + x], y: y < 0 ? 0 : a[row * width + y] });
/** The length of row `row` of a (all its width, not only the plane). @param {ArrayLike<number>} a @param {number} row @param {number} width */
function rowLength(a, row, width) {
  let s = 0;
  for (let c = 0; c < width; c++) s += a[row * width + c] ** 2;
  return Math.sqrt(s);
}

/**
 * The picture of query row i: the query, every key and value as row i sees them, O_i, the steps
 * of its construction (0, a₁v₁, a₁v₁ + a₂v₂, …) and the hull of the visible values.
 * @param {View} view @param {number} i @param {Planes} planes (fitted: fitPlanes)
 */
export function geometryOf(view, i, planes) {
  const { r, raw } = view;
  const { m, dk, dv } = r;
  const q = pointOf(r.Q, i, dk, planes.qk);
  const qLen = rowLength(r.Q, i, dk), qShown = Math.hypot(q.x, q.y);
  /** @type {Key[]} */
  const keys = [];
  for (let j = 0; j < m; j++) {
    const k = pointOf(r.K, j, dk, planes.qk), kLen = rowLength(r.K, j, dk);
    const dot = /** @type {Float32Array} */ (raw.S)[i * m + j];
    keys.push({
      j, k, v: pointOf(r.V, j, dv, planes.v), kLen, dot,
      visible: r.M[i * m + j] !== -Infinity,
      score: r.S[i * m + j], weight: r.A[i * m + j],
      cos: qLen > 0 && kLen > 0 ? Math.max(-1, Math.min(1, dot / (qLen * kLen))) : null,
      shown: q.x * k.x + q.y * k.y, // the part of q·k in this plane
    });
  }
  const visible = keys.filter((k) => k.visible);
  /** @type {Point[]} */
  const chain = [{ x: 0, y: 0 }];
  for (const k of visible) {
    const last = chain[chain.length - 1];
    chain.push({ x: last.x + k.weight * k.v.x, y: last.y + k.weight * k.v.y });
  }
  const o = pointOf(r.O, i, dv, planes.v);
  const hull = convexHull(visible.map((k) => k.v));
  return {
    i, n: r.n, m, dk, dv, planes, q, qLen, qShown, keys, visible, chain, o, hull, scale: r.scale, causal: r.causal,
    exact: { qk: dk <= 2, v: dv <= 2 },
    inside: insideHull(o, hull), // (no visible value: an empty hull, which holds nothing)
  };
}
/** @typedef {ReturnType<typeof geometryOf>} Geometry */

/**
 * The convex hull of some points, counter-clockwise, without repeats or points on its edges
 * (Andrew's monotone chain): 0, 1 or 2 points for a point or a segment.
 * @param {readonly Point[]} points @returns {Point[]}
 */
export function convexHull(points) {
  const ps = [...new Map(points.map((p) => [`${p.x},${p.y}`, p])).values()].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  /** @param {Point} o @param {Point} a @param {Point} b */
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  /** @param {Point[]} seq */
  const half = (seq) => {
    /** @type {Point[]} */
    const h = [];
    for (const p of seq) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    return h.slice(0, -1);
  };
  return [...half(ps), ...half([...ps].reverse())]; // (points all on one line: its two ends)
}

/**
 * Whether p lies in the hull (convexHull's order), within float32 rounding of the hull's size:
 * O is computed in float32, so a weight sum of 1 − 2⁻²⁴ may put it a hair outside an edge.
 * @param {Point} p @param {readonly Point[]} hull
 */
export function insideHull(p, hull) {
  const size = Math.max(1, ...hull.map((h) => Math.max(Math.abs(h.x), Math.abs(h.y))));
  const tol = 1e-5 * size;
  if (!hull.length) return false;
  if (hull.length === 1) return Math.hypot(p.x - hull[0].x, p.y - hull[0].y) <= tol;
  if (hull.length === 2) return distanceToSegment(p, hull[0], hull[1]) <= tol;
  for (let k = 0; k < hull.length; k++) {
    const a = hull[k], b = hull[(k + 1) % hull.length];
    const edge = Math.hypot(b.x - a.x, b.y - a.y);
    if (((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / edge < -tol) return false;
  }
  return true;
}
/** @param {Point} p @param {Point} a @param {Point} b */
function distanceToSegment(p, a, b) {
  const dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** An angle in degrees, one decimal. @param {number} cos */
const degrees = (cos) => `${(Math.acos(cos) * 180 / Math.PI).toFixed(1)}°`;
/** The scaling as the lesson writes it: "÷ √2" (1/√dk), "× 1 (the scaling is off)", else "× 0.500". @param {number} scale @param {number} dk */
function scaleText(scale, dk) {
  if (Math.abs(scale - 1 / Math.sqrt(dk)) < 1e-7) return `÷ √${dk}`;
  return scale === 1 ? '× 1 (the scaling is off)' : `× ${fmt(scale)}`;
}
/** [x, y] as the page writes a vector; a line (dimension -1) has only x. @param {Point} p @param {Dims} d */
const vec = (p, d) => (d[1] < 0 ? `[${fmt(p.x)}]` : `[${fmt(p.x)}, ${fmt(p.y)}]`);
/** "dimensions 1 and 2" (counted from 1, as the heatmaps' columns), of a plane of a width over 2. @param {Dims} d */
const dimsText = (d) => `dimensions ${d[0] + 1} and ${d[1] + 1}`;

/**
 * What the planes show: exact, or which dimensions and what the learner does not see.
 * @param {Geometry} g @returns {string[]}
 */
export function planeSentences(g) {
  const out = [];
  if (g.exact.qk && g.exact.v) out.push(`Q, K and V have ${g.dk === 2 && g.dv === 2 ? 'two columns each' : 'at most two columns'} here, so every arrow is the whole vector and the picture is exact.`);
  if (!g.exact.qk) {
    const hidden = g.dk - 2;
    out.push(`Q and K have dk = ${g.dk} columns; the left plane shows ${dimsText(g.planes.qk)}, and the other ${count(hidden, 'dimension')} ${verb(hidden, 'is', 'are')} not drawn: a key’s shadow on the query is only the part of q·k these two give (hover a key for the rest). The heatmaps hold every number.`);
  }
  if (!g.exact.v) out.push(`V and O have dv = ${g.dv} columns; the right plane shows ${dimsText(g.planes.v)} of them. O stays a weighted average in every pair of dimensions, so the hull still holds it.`);
  return out;
}

/**
 * The sentence of the query in hand: its length, the scaling, and where its weight goes.
 * @param {Geometry} g @param {readonly string[]} tokens
 */
export function querySentence(g, tokens) {
  const q = arrowName('q', g.i);
  const len = `|${q}| = ${fmt(g.qLen)}`;
  if (!g.visible.length) return `${q}, the query of ${tokenRef(tokens, g.i)}: ${len}. Every key is masked for it, so its weights and O${sub(g.i)} are 0, as in PyTorch.`;
  const top = largest(g.keys.map((k) => k.weight), g.visible.map((k) => k.j));
  const names = top.map((j) => arrowName('k', j));
  return `${q}, the query of ${tokenRef(tokens, g.i)}: ${len}. Its largest weight is ${fmt(g.keys[top[0]].weight)}, on ${list(names)}${names.length > 1 ? ' (a tie)' : ''}.`;
}

/**
 * Scaling, as a drag shows it: every score of row i is (q·k) × scale, so a longer q multiplies
 * them all and the softmax sharpens, unless the visible scores are equal (then every weight
 * stays 1/count). `before` is the query at the start of the learner's last drag of it; `movable`:
 * the tips can be dragged (the direct form).
 * @param {Geometry} g @param {{ qLen: number, top: number } | null} [before] @param {boolean} [movable]
 */
export function scalingPrompt(g, before = null, movable = true) {
  const q = arrowName('q', g.i);
  const longer = movable ? `Drag ${q} longer` : `Make ${q} longer (larger numbers in X or Wq)`;
  const by = scaleText(g.scale, g.dk);
  if (g.visible.length === 0) return `Scaling: every key is masked for ${q}, so there is nothing to sharpen.`;
  if (g.visible.length === 1) return `Scaling: ${q} sees one key, so its weight is 1 however long ${q} is.`;
  const scores = g.visible.map((k) => k.score);
  const top = Math.max(...g.visible.map((k) => k.weight));
  const equal = scores.every((s) => fmt(s) === fmt(scores[0]));
  const since = before && before.qLen > 0 && fmt(before.qLen) !== fmt(g.qLen)
    ? ` Since your last drag of ${q}: |${q}| ${fmt(before.qLen)} → ${fmt(g.qLen)} (× ${(g.qLen / before.qLen).toFixed(2)}), the largest weight ${fmt(before.top)} → ${fmt(top)}.`
    : '';
  if (equal) return `Scaling: scores are q·k ${by}. Every visible key scores ${fmt(scores[0])} for ${q}, so lengthening ${q} changes no weight: turn it towards one key first.${since}`;
  return `Scaling: scores are q·k ${by}, so a longer ${q} multiplies every score of its row. ${longer} and the softmax sharpens (largest weight now ${fmt(top)}); shorter and it flattens towards ${fmt(1 / g.visible.length)} each.${since}`;
}

/**
 * The causal mask, as the keys greyed out for the query in hand.
 * @param {Geometry} g
 */
export function maskPrompt(g) {
  const q = arrowName('q', g.i);
  const hidden = g.keys.filter((k) => !k.visible).map((k) => arrowName('k', k.j));
  if (!g.causal && !hidden.length) return `Mask: off, so ${q} sees all ${count(g.m, 'key')}; switch it on beside M (key M) and the later keys grey out.`;
  if (!hidden.length) return `Mask: ${q} is the last query, so the causal mask hides nothing from it; follow an earlier token to see keys greyed out.`;
  return `Mask: ${list(hidden)} ${verb(hidden.length, 'comes', 'come')} after ${q}’s token, so the causal mask greys ${hidden.length === 1 ? 'it' : 'them'} out: ${hidden.length === 1 ? 'its weight is' : 'their weights are'} 0 however ${q} turns.`;
}

/**
 * "Attention is a weighted average": O_i is Σ a_j v_j with weights ≥ 0 that sum to 1, so it lies in
 * the hull of the visible values; the sentence says where, and states it only when it holds.
 * @param {Geometry} g
 */
export function averagePrompt(g) {
  const o = arrowName('o', g.i);
  if (!g.visible.length) return `Average: no value is visible to ${arrowName('q', g.i)}, so ${o} = 0 (PyTorch’s rule for a row with no key left).`;
  const terms = g.visible.map((k) => `${fmt(k.weight)}·${arrowName('v', k.j)}`).join(' + ');
  const where = g.visible.length === 1 ? `${o} is ${arrowName('v', g.visible[0].j)} itself.`
    : `${o} lies ${g.hull.length <= 2 ? 'on the segment the visible values span' : `inside the shaded hull of the ${count(g.visible.length, 'visible value')}`}, however the arrows move.`;
  const holds = g.inside ? where : `${o} should lie in the hull of the visible values but is outside it by more than float32 rounding: please report this head.`;
  return `Average: ${o} = ${terms} = ${vec(g.o, g.planes.v)}. The weights are at least 0 and sum to 1, so ${holds}`;
}

/**
 * The explanation of an arrow (hovered or focused): its coordinates, and for a key the dot
 * product as lengths and an angle, the scaling, the weight and its share of O.
 * @param {Geometry} g @param {'q' | 'k' | 'v' | 'o'} kind @param {number} j @param {readonly string[]} tokens
 */
export function explainArrow(g, kind, j, tokens) {
  const name = arrowName(kind, j);
  if (kind === 'q') return `${name}, the query of ${tokenRef(tokens, j)}, at ${vec(g.q, g.planes.qk)}${g.exact.qk ? '' : ` in ${dimsText(g.planes.qk)}`}: |${name}| = ${fmt(g.qLen)}. ${querySentence(g, tokens)}`;
  if (kind === 'o') return `${name}, the output of ${tokenRef(tokens, g.i)}, at ${vec(g.o, g.planes.v)}: the sum of the weighted values, drawn tip to tail. ${averagePrompt(g)}`;
  const k = g.keys[j], q = arrowName('q', g.i);
  if (kind === 'v') {
    const share = k.visible ? `${q} gives it weight ${fmt(k.weight)}, so it adds ${fmt(k.weight)} × ${vec(k.v, g.planes.v)} = ${vec({ x: k.weight * k.v.x, y: k.weight * k.v.y }, g.planes.v)} to ${arrowName('o', g.i)}.` : `It is masked for ${q}: it adds nothing to ${arrowName('o', g.i)}.`;
    return `${name}, the value of ${tokenRef(tokens, j)}, at ${vec(k.v, g.planes.v)}. ${share}`;
  }
  return `${name}, the key of ${tokenRef(tokens, j)}, at ${vec(k.k, g.planes.qk)}. ${dotText(g, k)}`;
}

/**
 * q_i·k_j told as geometry, then the scaling, the mask and the weight.
 * @param {Geometry} g @param {Key} k
 */
export function dotText(g, k) {
  const q = arrowName('q', g.i), kn = arrowName('k', k.j);
  const dot = `${q}·${kn}`;
  const cos = k.cos === null
    ? `${dot} = ${fmt(k.dot)} (a zero-length arrow has no angle)`
    : `${dot} = |${q}| |${kn}| cos θ = ${fmt(g.qLen)} × ${fmt(k.kLen)} × cos ${degrees(k.cos)} = ${fmt(k.dot)}`;
  const rest = g.exact.qk ? '' : ` Of it, ${fmt(k.shown)} comes from the two dimensions drawn and ${fmt(k.dot - k.shown)} from the other ${count(g.dk - 2, 'dimension')}.`;
  const scaled = ` ${scaleText(g.scale, g.dk)} gives the score S[${g.i + 1}][${k.j + 1}] = ${fmt(k.score)}`;
  if (!k.visible) return `${cos}.${rest}${scaled}, but ${kn} is masked for ${q} (it comes later), so its weight is 0.`;
  return `${cos}.${rest}${scaled}; after the softmax its weight is A[${g.i + 1}][${k.j + 1}] = ${fmt(k.weight)}, the share of ${arrowName('v', k.j)} in ${arrowName('o', g.i)}.`;
}

/**
 * An arrow's accessible name: what it is and where its tip is, and how to move it when it can.
 * @param {Geometry} g @param {'q' | 'k' | 'v' | 'o'} kind @param {number} j @param {boolean} movable
 */
export function arrowLabel(g, kind, j, movable) {
  const p = kind === 'q' ? g.q : kind === 'o' ? g.o : kind === 'k' ? g.keys[j].k : g.keys[j].v;
  const d = kind === 'q' || kind === 'k' ? g.planes.qk : g.planes.v;
  const role = { q: 'query', k: 'key', v: 'value', o: 'output' }[kind];
  const masked = (kind === 'k' || kind === 'v') && !g.keys[j].visible ? ', masked' : '';
  const weight = (kind === 'k' || kind === 'v') && g.keys[j].visible ? `, weight ${fmt(g.keys[j].weight)}` : '';
  const move = movable ? `; arrow keys move it by ${STEP}, with Shift by ${FINE}` : '';
  const c = cellOf(g, kind, j);
  return `${arrowName(kind, j)}, ${role} arrow, tip at ${vec(p, d)}${masked}${weight}${move}; Enter shows ${c.m}[${c.i + 1}][${c.j + 1}]`;
}

/** What the view says of a head of n tokens, more than MAX_ARROWS, instead of its arrows. @param {number} n */
export const crowdedSentence = (n) =>
  `This head has ${n} tokens: the arrows are drawn for heads of up to ${MAX_ARROWS}. Remove tokens, or pick a smaller preset; the heatmaps below hold every number.`;

/**
 * How the tips move: by drag and arrow keys in a head given as Q, K and V (`movable`); else why
 * not, and, where the learner may edit (`canEdit`), what to do instead.
 * @param {boolean} movable @param {boolean} canEdit
 */
export function dragSentence(movable, canEdit) {
  const follow = 'Follow another token above to take its query.';
  if (movable) return `Drag the tip of any q, k or v, or focus it (Tab) and use the arrow keys (Shift for finer steps): every matrix below follows. ${follow}`;
  const instead = canEdit ? ' Edit X, Wq, Wk or Wv below, or paste a head as Q, K and V to drag it.' : '';
  return `Here Q = X·Wq, K = X·Wk and V = X·Wv: the arrows are the core’s rows of them, and moving one would need a change of X or the weights, so they do not drag.${instead} ${follow}`;
}

/**
 * The explanation under the planes: of the arrow or angle in hand, else of the query.
 * @param {Geometry} g @param {Active | null} active @param {readonly string[]} tokens
 */
export function activeText(g, active, tokens) {
  const k = active && active.kind !== 'q' && active.kind !== 'o' ? g.keys[active.j] : null;
  if (!active || (active.kind !== 'q' && active.kind !== 'o' && !k)) return querySentence(g, tokens) + ' Hover or focus an arrow, or the angle θ, for its arithmetic.';
  if (active.kind === 'angle') return `The angle θ between ${arrowName('q', g.i)} and ${arrowName('k', active.j)}: ${dotText(g, /** @type {Key} */ (k))}`;
  return explainArrow(g, active.kind, active.kind === 'q' || active.kind === 'o' ? g.i : active.j, tokens);
}

/**
 * The cell of the matrices an arrow stands for, which Enter on its tip selects (the explorer then
 * explains it): q_i its row of Q (the plane's first dimension), k_j the score S[i][j] it makes
 * with q_i, v_j the weight A[i][j] it gets, O_i its row of O.
 * @param {Geometry} g @param {'q' | 'k' | 'v' | 'o'} kind @param {number} j
 * @returns {import('../../types/config').Cell}
 */
export function cellOf(g, kind, j) {
  if (kind === 'q') return { m: 'Q', i: g.i, j: g.planes.qk[0] };
  if (kind === 'o') return { m: 'O', i: g.i, j: g.planes.v[0] };
  return { m: kind === 'k' ? 'S' : 'A', i: g.i, j };
}

/**
 * The edit a drag of an arrow's tip to (x, y) makes: the row of Q, K or V and the two columns it
 * sets (the plane's dimensions), each value snapped to `snap`. Only in the direct form (Q, K and
 * V given): a projected head's q is x·Wq, which no single edit moves exactly.
 * @param {'q' | 'k' | 'v'} kind @param {number} row @param {Planes} planes @param {Point} p @param {number} snap
 * @returns {{ m: 'Q' | 'K' | 'V', i: number, cols: number[], values: number[] }}
 */
export function dragEdit(kind, row, planes, p, snap) {
  const d = kind === 'v' ? planes.v : planes.qk;
  const round = (/** @type {number} */ v) => Math.round(Math.round(v / snap) * snap * 1e6) / 1e6 + 0; // + 0: no −0
  const cols = d[1] < 0 ? [d[0]] : [d[0], d[1]];
  const values = d[1] < 0 ? [round(p.x)] : [round(p.x), round(p.y)];
  return { m: MATRIX_OF[kind], i: row, cols, values };
}
