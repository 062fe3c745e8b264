// @ts-check
// induction.js: the pure part of "Watch an induction head form" (?mode=induction). No DOM, no
// Wasm: the settings and their URL form, the criteria, the step of the drop, the geometry of the
// charts and every sentence the page says. web/induction/panel.js draws them; the numbers come
// from the core (web/core/attention.js createInduction) through web/induction/engine.js.
//
// A run is deterministic for (seed, learning rate, heads a layer): the same settings replay the
// same steps to the same weights, so a link records those and the step count, never the weights:
//
//   ?mode=induction&seed=1&lr=0.02&steps=600&ex=0&head=2.1&ablate=1.1&control=0
//   ?mode=induction&seed=1&lr=0.02&heads=2&steps=600&head=2.2&ablate=1.2   (the anchor's 2×2)
//
// ex picks the sequence shown; head the head opened in the explorer; ablate the heads left out
// when the page measures what they do (training itself never leaves a head out).

import { fmt, tokenRef } from '../blocks/format.js';
import { count, list, verb, range } from '../blocks/words.js';
import { PRESETS, DEFAULT_PRESET } from '../blocks/presets.js';

export const MODE = 'induction';
/** The model and training settings of the page (c/induction.h): the anchor's size (2 layers,
 * d 32, dk = dv = dh 16 (the lesson's dk: each head's query, key and value width), vocabulary 28, context 32, batch 16) with one head a layer by default. With two
 * heads in layer 2 both often learn to copy and share the work, so ablating one of them leaves
 * the other (docs/induction.md); the anchor's two heads a layer stay a setting, HEAD_CHOICES. */
export const MODEL = Object.freeze({ layers: 2, heads: 1, d: 32, dh: 16, n: 32, vocab: 28, batch: 16, weightDecay: 0.01 });
/** Heads a layer the page offers: 1 (the default) or 2 (the anchor's size). */
export const HEAD_CHOICES = [1, 2];
export const LR_CHOICES = [0.005, 0.01, 0.02, 0.03, 0.05];
/** Steps a link may ask the page to replay on load. */
export const MAX_STEPS = 5000;
/** Held-out scores are measured every EVAL_EVERY steps (and at step 0). */
export const EVAL_EVERY = 10;
/** The circuit counts as formed when a layer-2 head's induction score passes INDUCTION and the
 * repeated part's held-out loss falls below LOSS (nats). Its drop is the step at which, besides
 * that score, the repeated part costs GAP nats less than the one-layer control's (which learns
 * everything but the circuit): an earlier fall that the control makes too is not the circuit's.
 * A layer-1 head is called a previous-token head at a position where it puts more than PREVIOUS
 * of its attention on the token just before (its mean over all positions mixes two behaviours:
 * trained, it looks back early in the sequence and at BOS later, docs/induction.md). TRACK: two
 * losses this close (nats) fall together. */
export const CRITERIA = Object.freeze({ induction: 0.5, loss: 0.3, previous: 0.5, gap: 1, track: 0.15 });

/** @typedef {{ seed: number, lr: number, heads: number, steps: number, ex: number, head: number | null, ablate: number[], control: boolean }} InductionState */
/** @type {Readonly<InductionState>} */
export const DEFAULTS = Object.freeze({ seed: 1, lr: 0.02, heads: MODEL.heads, steps: 0, ex: 0, head: null, ablate: [], control: true });

const isSeed = (/** @type {string} */ s) => /^\d{1,10}$/.test(s) && Number(s) <= 0xffffffff;

/** "2.1" for head index 2 with 2 heads a layer, or index 1 with 1 (heads are numbered layer by layer from 0). */
export const headName = (/** @type {number} */ index, /** @type {number} */ heads = MODEL.heads) => `${Math.floor(index / heads) + 1}.${(index % heads) + 1}`;

/** Heads a layer of a two-layer model whose scores (one per head) are `scores`. */
const perLayer = (/** @type {ArrayLike<unknown>} */ scores) => Math.max(1, Math.floor(scores.length / MODEL.layers));

/** The names of every head of the model, "1.1, 1.2, 2.1 or 2.2" ("1.1 or 2.1" for one a layer). */
export const headNames = (/** @type {number} */ heads = MODEL.heads) => list(Array.from({ length: MODEL.layers * heads }, (_, h) => headName(h, heads)), 'or');

/** "1 head a layer", or "2 heads a layer (the anchor's size)": the setting's words. */
export const headsLabel = (/** @type {number} */ heads) => `${count(heads, 'head')} a layer${heads === 2 ? ' (the anchor’s size)' : ''}`;

/** The index of "2.1", or null when it names no head of a model of `layers` layers. */
export function headIndex(/** @type {string} */ name, /** @type {number} */ layers = MODEL.layers, /** @type {number} */ heads = MODEL.heads) {
  const m = /^(\d)\.(\d)$/.exec(name || '');
  if (!m) return null;
  const l = Number(m[1]) - 1, h = Number(m[2]) - 1;
  return l >= 0 && l < layers && h >= 0 && h < heads ? l * heads + h : null;
}

// ------------------------------------------------------------------ URL state

/**
 * Reads the state from location.search and .hash (the hash wins):
 * { seed, lr, steps, ex, head, ablate, control, notes } where notes lists, in the learner's
 * words, every parameter that was not used and why.
 * @param {string} search
 * @param {string} [hash]
 */
export function readInductionUrl(search, hash = '') {
  const p = new URLSearchParams(search || '');
  const h = new URLSearchParams((hash || '').replace(/^#/, ''));
  const get = (/** @type {string} */ k) => (h.has(k) ? h.get(k) : p.get(k));
  /** @type {string[]} */
  const notes = [];
  const s = { ...DEFAULTS, ablate: /** @type {number[]} */ ([]), notes };
  const heads = get('heads');
  if (heads != null) {
    if (HEAD_CHOICES.map(String).includes(heads)) s.heads = Number(heads);
    else notes.push(`heads=${heads} is not one of ${list(HEAD_CHOICES.map(String), 'or')} heads a layer; using ${s.heads}.`);
  }
  for (const key of /** @type {const} */ (['seed', 'ex'])) {
    const v = get(key);
    if (v == null) continue;
    if (isSeed(v)) s[key] = Number(v);
    else notes.push(`${key}=${v} is not a whole number from 0 to 4294967295; using ${s[key]}.`);
  }
  const lr = get('lr');
  if (lr != null) {
    if (LR_CHOICES.includes(Number(lr))) s.lr = Number(lr);
    else notes.push(`lr=${lr} is not one of the learning rates ${LR_CHOICES.join(', ')}; using ${s.lr}.`);
  }
  const steps = get('steps');
  if (steps != null) {
    if (/^\d{1,9}$/.test(steps) && Number(steps) <= MAX_STEPS) s.steps = Number(steps);
    else notes.push(`steps=${steps} is not a whole number from 0 to ${MAX_STEPS}; starting at step 0.`);
  }
  const head = get('head');
  if (head != null && head !== '') {
    const i = headIndex(head, MODEL.layers, s.heads);
    if (i != null) s.head = i;
    else notes.push(`head=${head} is not a head of the model (${headNames(s.heads)}); opening none.`);
  }
  const ablate = get('ablate');
  if (ablate) {
    for (const name of ablate.split(',')) {
      const i = headIndex(name, MODEL.layers, s.heads);
      if (i == null) notes.push(`ablate=${ablate}: “${name}” is not a head (${headNames(s.heads)}); it is not left out.`);
      else if (!s.ablate.includes(i)) s.ablate.push(i);
    }
    s.ablate.sort((a, b) => a - b);
  }
  const control = get('control');
  if (control === '0' || control === '1') s.control = control === '1';
  return s;
}

/**
 * The query string of a state (the inverse of readInductionUrl).
 * heads is written only when it is not the default.
 * @param {{ seed: number, lr: number, heads?: number, steps: number, ex?: number, head?: number | null, ablate?: number[], control?: boolean }} s
 */
export function writeInductionUrl({ seed, lr, heads = MODEL.heads, steps, ex = 0, head = null, ablate = [], control = true }) {
  let q = `?mode=${MODE}&seed=${seed}&lr=${lr}`;
  if (heads !== MODEL.heads) q += `&heads=${heads}`;
  q += `&steps=${steps}`;
  if (ex) q += `&ex=${ex}`;
  if (head != null) q += `&head=${headName(head, heads)}`;
  if (ablate.length) q += `&ablate=${ablate.map((h) => headName(h, heads)).join(',')}`;
  if (!control) q += '&control=0';
  return q;
}

// ------------------------------------------------------------------ what the scores say

/**
 * @typedef {{ step: number, lossFirst: number, lossRepeat: number, accuracy: number,
 *   prev: number[], induction: number[], composition: number[][] | null,
 *   control: { lossFirst: number, lossRepeat: number, prev: number[], induction: number[] } | null }} Evaluation
 */

// The functions below take the scores of a two-layer model, one per head, and read the heads a
// layer from their number (heads = scores.length / 2) unless told.

/** The head of layers >= 2 with the largest induction score: { head, score }, or null. */
export function strongestInduction(/** @type {number[]} */ induction, heads = perLayer(induction)) {
  let best = null;
  for (let h = heads; h < induction.length; h++) if (!best || induction[h] > best.score) best = { head: h, score: induction[h] };
  return best;
}

/** Every head of layers >= 2 whose induction score reaches CRITERIA.induction, in order. */
export function inductionHeads(/** @type {number[]} */ induction, heads = perLayer(induction)) {
  const out = [];
  for (let h = heads; h < induction.length; h++) if (induction[h] >= CRITERIA.induction) out.push(h);
  return out;
}

/**
 * The button that ablates the circuit's induction heads together (when a second layer-2 head is
 * an induction head too, ablating the strongest one alone leaves the other doing part of the
 * work): { heads, pressed, label }, or null while no head is an induction head. pressed: every
 * one of them is ablated now (the button then restores them).
 * @param {number[]} induction  the latest held-out induction scores, one per head
 * @param {number[]} ablated
 * @param {number} [perHead]  heads a layer (from the scores unless given)
 */
export function circuitAblation(induction, ablated, perHead = perLayer(induction)) {
  const heads = inductionHeads(induction, perHead);
  if (!heads.length) return null;
  const pressed = heads.every((h) => ablated.includes(h));
  const names = list(heads.map((h) => headName(h, perHead)));
  const what = heads.length === 1 ? `the induction head, ${names}` : `${heads.length === 2 ? 'both' : 'all ' + heads.length} induction heads, ${names}`;
  return { heads, pressed, label: `${pressed ? 'Restore' : 'Ablate'} ${what}` };
}

/** The layer-1 head with the largest previous-token score: { head, score }. */
export function strongestPrevious(/** @type {number[]} */ prev, heads = perLayer(prev)) {
  let best = { head: 0, score: prev[0] };
  for (let h = 1; h < Math.min(heads, prev.length); h++) if (prev[h] > best.score) best = { head: h, score: prev[h] };
  return best;
}

/** True when an evaluation meets CRITERIA (a layer-2 head's induction score and the repeated-part loss). */
export function formed(/** @type {Evaluation} */ e) {
  const best = strongestInduction(e.induction);
  return !!best && best.score > CRITERIA.induction && e.lossRepeat < CRITERIA.loss;
}

/** The first evaluated step that meets CRITERIA, or null. */
export function formedAt(/** @type {Evaluation[]} */ evals) {
  const e = evals.find(formed);
  return e ? e.step : null;
}

/**
 * The step of the circuit's drop: the first evaluation at which a layer-2 head's induction score
 * reaches CRITERIA.induction and the held-out repeated part costs at least CRITERIA.gap nats less
 * than the one-layer control's (without the control, than the first part's). The loss alone
 * cannot tell: early on both models' repeated part falls together, as they learn that the next
 * word is one already seen, and only the two-layer model can go further by copying. null before.
 */
export function dropStep(/** @type {Evaluation[]} */ evals) {
  const e = evals.find((x) => {
    const best = strongestInduction(x.induction);
    const base = x.control ? x.control.lossRepeat : x.lossFirst;
    return !!best && best.score >= CRITERIA.induction && base - x.lossRepeat >= CRITERIA.gap;
  });
  return e ? e.step : null;
}

/**
 * The last evaluation before `drop` (or before the end) at which the repeated part had fallen
 * at least CRITERIA.track below step 0's and was within CRITERIA.track of the control's: the
 * early fall both models make. null without the control or without such a fall.
 * @param {Evaluation[]} evals @param {number | null} drop
 */
export function sharedFall(evals, drop) {
  if (!evals.length) return null;
  const start = evals[0].lossRepeat;
  let found = null;
  for (const e of evals) {
    if (drop != null && e.step >= drop) break;
    if (e.control && start - e.lossRepeat >= CRITERIA.track && Math.abs(e.lossRepeat - e.control.lossRepeat) < CRITERIA.track) found = e;
  }
  return found;
}

// ------------------------------------------------------------------ the task's own numbers

/** The periods k the task draws, uniform in [min, max] (c/induction.c k_min and k_max). */
export const periodRange = (n = MODEL.n) => ({ min: Math.max(2, Math.floor(n / 8)), max: Math.max(2, Math.floor(n / 4)) });

/**
 * The induction score of attention spread evenly over the keys (chance): query i of the repeated
 * part (k < i <= n - 2) has floor((i - 1)/k) keys right after an earlier copy among its i + 1,
 * averaged over the periods the task draws. About 1/k far into a sequence, less near its start.
 */
export function chanceInduction(n = MODEL.n) {
  const { min, max } = periodRange(n);
  let sum = 0, c = 0;
  for (let k = min; k <= max; k++) for (let i = k + 1; i <= n - 2; i++) sum += Math.floor((i - 1) / k) / (i + 1), c++;
  return sum / c;
}

/**
 * The least a model can pay on the first part (nats a token, the task's own odds): at query i
 * (0 <= i <= k) the i words seen are all different, so the period has not ended before i; it
 * ends at i with probability 1/(max - i + 1) (k uniform in [min, max]), and then the next word
 * is word 1, else one of the words - i not seen yet.
 */
export function bestFirstLoss(words = MODEL.vocab - 1, n = MODEL.n) {
  const { min, max } = periodRange(n);
  let sum = 0, c = 0;
  for (let k = min; k <= max; k++) {
    for (let i = 0; i <= k; i++) {
      const end = i >= min ? 1 / (max - i + 1) : 0;
      sum += i < k ? -Math.log((1 - end) / (words - i)) : -Math.log(end);
      c++;
    }
  }
  return sum / c;
}

// ------------------------------------------------------------------ what one sequence shows

/**
 * Positions as runs: [[2, 10], [21, 21]].
 * @param {number[]} positions ascending
 */
function runs(positions) {
  /** @type {[number, number][]} */
  const out = [];
  for (const p of positions) {
    const r = out[out.length - 1];
    if (r && p === r[1] + 1) r[1] = p;
    else out.push([p, p]);
  }
  return out;
}

/** "tokens 3 to 11 and 22" from positions. @param {number[]} positions */
function tokenRuns(positions) {
  const r = runs(positions);
  if (r.length > 3) return `${count(positions.length, 'token')} from ${positions[0]} to ${positions[positions.length - 1]}`;
  const parts = r.map(([a, b]) => (a === b ? String(a) : b === a + 1 ? `${a} and ${b}` : `${a} to ${b}`));
  return `${positions.length === 1 ? 'token' : 'tokens'} ${list(parts)}`;
}

/** "0.76 to 0.98", or one number when they read the same. @param {number[]} xs */
const spread = (xs) => {
  const lo = fmt(Math.min(...xs)), hi = fmt(Math.max(...xs));
  return lo === hi ? lo : `${lo} to ${hi}`;
};

/**
 * A layer-1 head query by query on one sequence (A [n·n]): the queries (0-based, from 2: query 1's
 * previous token is BOS) where it puts more than CRITERIA.previous on the previous token, and
 * those where it puts more than half on BOS.
 * @param {ArrayLike<number>} A @param {number} n
 */
export function previousByPosition(A, n) {
  /** @type {number[]} */ const back = [];
  /** @type {number[]} */ const bos = [];
  for (let i = 2; i < n; i++) {
    if (A[i * n + i - 1] > CRITERIA.previous) back.push(i);
    else if (A[i * n] > 0.5) bos.push(i);
  }
  return { back, bos, backWeights: back.map((i) => A[i * n + i - 1]), bosWeights: bos.map((i) => A[i * n]) };
}

/**
 * How much a layer-1 head looks back where a layer-2 head reads: over the queries of the repeated
 * part, the layer-2 head's weight on each key right after an earlier copy, times the layer-1
 * head's weight, at that key, on the token before it. The layer-1 head serves the circuit as a
 * previous-token head when this passes CRITERIA.previous, whatever its mean over all positions.
 * null when the layer-2 head puts no weight on such keys.
 * @param {ArrayLike<number>} A1 @param {ArrayLike<number>} A2 @param {ArrayLike<number | string>} tokens @param {number} n
 */
export function servedPrevious(A1, A2, tokens, n) {
  let num = 0, den = 0;
  for (let i = 0; i < n - 1; i++) {
    for (const j of inductionKeys(tokens, i)) num += A2[i * n + j] * A1[j * n + j - 1], den += A2[i * n + j];
  }
  return den > 0 ? num / den : null;
}

/**
 * A layer-1 head on one sequence, in words: where it looks at the previous token, and where at
 * BOS (an attention sink).
 * @param {{ A: ArrayLike<number>, n: number, name: string }} s
 */
export function previousSentence({ A, n, name }) {
  const p = previousByPosition(A, n);
  let s = p.back.length
    ? `On this sequence head ${name} puts ${spread(p.backWeights)} of its attention on the previous token at ${tokenRuns(p.back.map((i) => i + 1))}`
    : `On this sequence head ${name} puts no more than ${fmt(CRITERIA.previous)} of its attention on the previous token at any token after the second`;
  if (p.bos.length) s += `${p.back.length ? ', and' : '; it puts'} ${spread(p.bosWeights)} on BOS at ${tokenRuns(p.bos.map((i) => i + 1))}: BOS is an attention sink, where a head puts the attention it has no use for`;
  return s + '.';
}

/**
 * Whether a layer-1 head is a previous-token head where the induction head reads (servedPrevious
 * past CRITERIA.previous), in words.
 * @param {{ name: string, served: number, reader: string }} s
 */
export function servedSentence({ name, served, reader }) {
  return served > CRITERIA.previous
    ? `Where head ${reader} reads (the keys right after an earlier copy), head ${name} is a previous-token head: ${fmt(served)} of its attention there is on the token before, which it writes into the residual stream for head ${reader}’s keys.`
    : `Where head ${reader} reads (the keys right after an earlier copy), head ${name} puts only ${fmt(served)} on the token before: not a previous-token head there yet.`;
}

/**
 * Where a layer-2 head's attention goes on one sequence, over the queries of the repeated part:
 * near, the mean weight on the key right after the nearest earlier copy (a line k - 1 below the
 * diagonal); older, on the keys after older copies (lines 2k - 1, 3k - 1, ... below); oldest, on
 * the key after the first copy (when there are two or more copies). null without a repeated part.
 * @param {ArrayLike<number>} A @param {ArrayLike<number | string>} tokens @param {number} n
 */
export function copyPattern(A, tokens, n) {
  let near = 0, older = 0, oldest = 0, olderMany = 0, c = 0, many = 0;
  for (let i = 0; i < n - 1; i++) {
    const keys = inductionKeys(tokens, i);
    if (!keys.length) continue;
    c++;
    near += A[i * n + keys[keys.length - 1]];
    for (const j of keys.slice(0, -1)) older += A[i * n + j];
    if (keys.length > 1) for (const j of keys.slice(0, -1)) olderMany += A[i * n + j];
    if (keys.length > 1) oldest += A[i * n + keys[0]], many++;
  }
  // firstShare: of the weight on older copies, the share on the first one
  return c ? { near: near / c, older: older / c, firstShare: olderMany > 0 ? oldest / olderMany : 0, queries: c } : null;
}

/** A layer-2 head's pattern in words. @param {{ pattern: NonNullable<ReturnType<typeof copyPattern>>, name: string, k: number }} s */
export function patternSentence({ pattern, name, k }) {
  const { near, older, firstShare } = pattern;
  let s = `Over the repeated part of this sequence, head ${name} puts ${fmt(near)} of its attention, on average, on the key right after the nearest earlier copy (the line k − 1 = ${k - 1} below the diagonal) and ${fmt(older)} on the keys after older copies (lines 2k − 1 = ${2 * k - 1}, 3k − 1 = ${3 * k - 1}, … below)`;
  if (older > near) s += `, ${firstShare > 0.5 ? 'most of it on the first copy, ' : ''}where the previous-token head wrote “the token before me”; every copy is followed by the same word`;
  return s + '.';
}

/**
 * The copy side of a head: what its output C [n·d] alone adds to the logits through the tied
 * unembedding, C[i]·E[t]/sqrt(d) for every token t, at the queries of the repeated part (part 2).
 * { hits, total, at }: at how many of them its largest logit is the next word, and at the last
 * one (at.i) the token it raises most, its logit, the next word and its logit, the runner-up.
 * null without a repeated part.
 * @param {{ C: ArrayLike<number>, E: ArrayLike<number>, ids: ArrayLike<number>, targets: ArrayLike<number>, part: ArrayLike<number>, d: number, vocab: number }} s
 */
export function copyReadout({ C, E, ids, targets, part, d, vocab }) {
  let hits = 0, total = 0;
  /** @type {CopyReadout['at'] | null} */
  let at = null;
  for (let i = 0; i < ids.length; i++) {
    if (part[i] !== 2) continue;
    const logits = Array.from({ length: vocab }, (_, t) => {
      let v = 0;
      for (let c = 0; c < d; c++) v += C[i * d + c] * E[t * d + c];
      return v / Math.sqrt(d);
    });
    const order = logits.map((_, t) => t).sort((a, b) => logits[b] - logits[a]);
    total++;
    if (order[0] === targets[i]) hits++;
    at = { i, top: order[0], topLogit: logits[order[0]], second: order[1], secondLogit: logits[order[1]], target: targets[i], targetLogit: logits[targets[i]] };
  }
  return at ? { hits, total, at } : null;
}

/** @typedef {{ hits: number, total: number, at: { i: number, top: number, topLogit: number, second: number, secondLogit: number, target: number, targetLogit: number } }} CopyReadout */

/**
 * The copy side in words, from copyReadout and the token names.
 * @param {{ readout: CopyReadout, tokens: string[], names: string[], name: string }} s
 */
export function copySentence({ readout, tokens, names, name }) {
  const { hits, total, at } = readout;
  const right = at.top === at.target;
  let s = `What head ${name} writes: its output C = O·Wo, read through the unembedding alone (C·Eᵀ/√d), raises each word’s logit. At query ${tokenRef(tokens, at.i)}, whose next word is “${names[at.target]}”, it raises “${names[at.top]}” most, by ${fmt(at.topLogit)}`;
  s += right ? ` (the next word; the runner-up, “${names[at.second]}”, by ${fmt(at.secondLogit)}).` : ` (the next word by ${fmt(at.targetLogit)}).`;
  s += ` Over the repeated part its largest logit is the next word at ${hits} of the ${count(total, 'query', 'queries')}`;
  s += hits === total ? ': this is the copy, the V and Wo side of the induction head (W_OV = Wv·Wo).' : hits * 2 > total ? ': mostly the copy.' : ': it does not copy the next word yet.';
  return s;
}

/**
 * The line above the explorer: what it shows (its own example until a head is opened).
 * @param {{ head: number | null, heads: number, step: number, ex: number }} s
 */
export function explorerLabel({ head, heads, step, ex }) {
  if (head == null) return `The explorer below shows its own example, the “${PRESETS[DEFAULT_PRESET].title}” head of the lesson, not the model: click a head above to open it there.`;
  return `The explorer below shows head ${headName(head, heads)} of the model at step ${step}, on sequence ${ex + 1}.`;
}

/** The name of a head of the one-layer control: "C.1" (never one of the model's names). */
export const controlHeadName = (/** @type {number} */ h) => `C.${h + 1}`;

// ------------------------------------------------------------------ chart geometry

/**
 * A polyline path for values over steps in a box (x, y, w, h) with x from 0 to xMax and y from
 * 0 (bottom) to yMax (top); values above yMax are drawn at the top, non-finite values skipped.
 * @param {number[]} steps
 * @param {ArrayLike<number>} values
 * @param {{ x: number, y: number, w: number, h: number }} box
 * @param {number} xMax
 * @param {number} yMax
 */
export function linePath(steps, values, box, xMax, yMax) {
  let d = '', pen = false;
  const r1 = (/** @type {number} */ v) => Math.round(v * 10) / 10;
  for (let k = 0; k < steps.length; k++) {
    const v = values[k];
    if (!Number.isFinite(v)) { pen = false; continue; }
    const x = box.x + (steps[k] / xMax) * box.w, y = box.y + box.h - (Math.max(0, Math.min(v, yMax)) / yMax) * box.h;
    d += (pen ? 'L' : (d ? ' M' : 'M')) + r1(x) + ' ' + r1(y);
    pen = true;
  }
  return d;
}

/**
 * Per-step batch losses averaged into at most `columns` points: { steps, values } (the mean of
 * the steps that share a column, placed at their middle). Keeps the curve readable and cheap
 * when thousands of steps share a few hundred pixels.
 * @param {ArrayLike<number>} losses  one per step: losses[k] belongs to step k + 1
 * @param {number} columns
 */
export function binned(losses, columns) {
  const n = losses.length, per = Math.max(1, Math.ceil(n / Math.max(1, columns)));
  const steps = /** @type {number[]} */ ([]);
  const values = /** @type {number[]} */ ([]);
  for (let k = 0; k < n; k += per) {
    let sum = 0, c = 0;
    for (let q = k; q < Math.min(n, k + per); q++) if (Number.isFinite(losses[q])) sum += losses[q], c++;
    steps.push(k + (Math.min(n, k + per) - k + 1) / 2);
    values.push(c ? sum / c : NaN);
  }
  return { steps, values };
}

// ------------------------------------------------------------------ what the page says

const nats = (/** @type {number} */ v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
/** A sentence's first letter in upper case. @param {string} t */
const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * Where losses (nats a token) sit against ln(words), what a uniform guess costs: "close to" within
 * a tenth of it, "more than" or "less than" when every loss is on that side, else "either side of".
 * @param {number[]} losses @param {number} words
 */
export function versusGuess(losses, words) {
  const guess = Math.log(words);
  const side = (/** @type {number} */ v) => (Math.abs(v - guess) <= 0.1 * guess ? 'close to' : v > guess ? 'more than' : 'less than');
  const sides = new Set(losses.filter(Number.isFinite).map(side));
  const word = sides.size === 1 ? [...sides][0] : 'either side of';
  return `${word} ln ${words} = ${nats(guess)}, what a uniform guess among the ${words} words costs`;
}

/** "about 4.08 nats on both parts", or each part's when they differ as shown. @param {Evaluation} e */
const bothParts = (e) => (nats(e.lossFirst) === nats(e.lossRepeat) ? `about ${nats(e.lossRepeat)} nats a token on both parts` : `${nats(e.lossFirst)} nats a token on the first part and ${nats(e.lossRepeat)} on the repeated part`);

/**
 * The paragraph under the title: what happened so far, in plain words, from the latest
 * evaluation and the whole history; view (optional): the attention of every head on the
 * sequence shown, which says where each head looks (its mean score mixes positions).
 * @param {{ step: number, evals: Evaluation[], words: number, view?: { A: ArrayLike<number>[], tokens: ArrayLike<number | string>, n: number } | null }} s
 */
export function narrate({ step, evals, words, view = null }) {
  const e = evals[evals.length - 1];
  if (!e) return 'Loading the model…';
  const lines = [];
  if (step === 0) {
    const vs = versusGuess([e.lossFirst, e.lossRepeat], words);
    lines.push(`Step 0: random weights. Every head spreads its attention over the tokens before it, and the model has no idea what comes next: its loss is ${bothParts(e)}, ${vs}${vs.startsWith('more') ? ' (random weights favour some words over others, mostly the wrong ones)' : ''}. Press Train.`);
  } else {
    const H = perLayer(e.induction), prev = strongestPrevious(e.prev, H), ind = strongestInduction(e.induction, H);
    const drop = dropStep(evals);
    lines.push(`Step ${step}: on held-out sequences (not the training batch), the first part costs ${nats(e.lossFirst)} nats a token and the repeated part ${nats(e.lossRepeat)}.`);
    const isInduction = !!ind && ind.score >= CRITERIA.induction;
    lines.push(`Head ${headName(prev.head, H)} puts ${fmt(prev.score)} of its attention, averaged over every position, on the previous token${view ? ' (below: where it looks on this sequence)' : ''}.`);
    const served = view && ind && isInduction ? servedPrevious(view.A[prev.head], view.A[ind.head], view.tokens, view.n) : null;
    if (served != null && ind) lines.push(servedSentence({ name: headName(prev.head, H), served, reader: headName(ind.head, H) }));
    if (isInduction && ind)
      lines.push(`Head ${headName(ind.head, H)} is an induction head: a token’s query finds keys that say “the token before me was this one”, the tokens right after its earlier copies, and copies what is there (${fmt(ind.score)} of its attention goes there; spreading it evenly would score ${fmt(chanceInduction())}). Nobody wrote that rule: it lowers the loss, so gradient descent found it.`);
    else if (ind) lines.push(`${H === 1 ? `Head ${headName(ind.head, H)} does not find` : `No layer-2 head finds`} the earlier copies of the current token yet (${H === 1 ? 'it puts' : `head ${headName(ind.head, H)} puts`} ${fmt(ind.score)} of its attention there; spreading it evenly would score ${fmt(chanceInduction())}).`);
    const early = sharedFall(evals, drop);
    if (early && early.control) lines.push(`${drop != null ? `Before step ${drop}` : 'So far'} the repeated part fell only as far as the control’s (${nats(early.lossRepeat)} against ${nats(early.control.lossRepeat)} at step ${early.step}): both models learn that the next word is one already seen, without copying it.`);
    if (drop != null) lines.push(`At step ${drop} (marked on the curve) the repeated part fell away ${e.control ? 'from the one-layer control’s' : 'from the first part'}: head ${ind ? headName(ind.head, H) : ''} found the earlier copies (induction ≥ ${fmt(CRITERIA.induction)}) and the two layers work together.`);
    if (drop != null) lines.push(`The first part, at ${nats(e.lossFirst)}, is ${versusGuess([e.lossFirst], words)}: mostly unpredictable (the best a model can do there, ruling out the words already seen and guessing when the period ends, is ${nats(bestFirstLoss(words))}).`);
  }
  if (e.control) {
    const H = perLayer(e.induction), names = Array.from({ length: H }, (_, h) => controlHeadName(h));
    lines.push(`The one-layer control (${H === 1 ? 'head' : 'heads'} ${list(names)}) learns from the same sequences but has no earlier layer to write “the token before me” into its keys, so no induction head can form: its repeated part costs ${nats(e.control.lossRepeat)} nats.`);
  }
  return lines.join(' ');
}

/**
 * What ablating heads did: lossRepeat with every head and with `ablated` left out.
 * served: how much the layer-1 head looks back where the induction head reads (servedPrevious),
 * or null: it is called the previous-token head only when that passes CRITERIA.previous.
 * @param {{ ablated: number[], full: { lossRepeat: number, lossFirst: number }, without: { lossRepeat: number, lossFirst: number } | null, induction: number[], prev: number[], served?: number | null }} s
 */
export function ablationSentence({ ablated, full, without, induction, prev, served = null }) {
  if (!ablated.length || !without) return 'Ablate a head to measure what it does: the page runs the held-out sequences again without it (training is not affected).';
  const H = perLayer(induction);
  const names = ablated.map((h) => `head ${headName(h, H)}`);
  // the difference of the numbers as printed, so that it adds up by hand
  const delta = Number(nats(without.lossRepeat)) - Number(nats(full.lossRepeat));
  const ind = strongestInduction(induction, H), pv = strongestPrevious(prev, H), all = inductionHeads(induction, H);
  let s = `Without ${list(names)}, the repeated part costs ${nats(without.lossRepeat)} nats instead of ${nats(full.lossRepeat)} (${delta >= 0 ? '+' : '−'}${nats(Math.abs(delta))})`;
  s += `, and the first part ${nats(without.lossFirst)} instead of ${nats(full.lossFirst)}.`;
  const circuit = [];
  let named = 0; // heads the circuit's clauses name: "without it" or "without them"
  const gone = all.filter((h) => ablated.includes(h));
  if (gone.length > 1) circuit.push(`heads ${list(gone.map((h) => headName(h, H)))} are the induction heads`), named += gone.length;
  else if (ind && ind.score >= CRITERIA.induction && ablated.includes(ind.head)) circuit.push(`head ${headName(ind.head, H)} is the induction head`), named++;
  if (served != null && served > CRITERIA.previous && ablated.includes(pv.head))
    circuit.push(`head ${headName(pv.head, H)} is the previous-token head ${all.length > 1 ? 'the induction heads read their' : 'the induction head reads its'} keys from`), named++;
  // another layer-2 head that also finds the copy and is still there: a backup (only with two or
  // more heads in layer 2)
  const backups = all.filter((h) => !ablated.includes(h)).map((h) => `head ${headName(h, H)}`);
  if (circuit.length && delta > 1) s += ` The loss jumps back up because ${list(circuit)}: without ${verb(named, 'it', 'them')} the circuit is broken.`;
  else if (delta > 1) s += ` The loss jumps back up: the model needs what ${verb(ablated.length, 'this head does', 'these heads do')}.`;
  else if (Math.abs(delta) < 0.1 && !backups.length) s += ` Almost nothing changes: the model does not rely on ${verb(ablated.length, 'this head', 'these heads')} for the repeat.`;
  if (backups.length && gone.length && delta <= 1)
    s += ` ${capital(list(backups))} ${verb(backups.length, 'is', 'are')} an induction head too and still ${verb(backups.length, 'finds', 'find')} the earlier copy, so the loss rises less: ablate ${verb(backups.length, 'it', 'them')} as well to break the circuit.`;
  return s;
}

/**
 * The keys an induction head should attend to from query i: every key j <= i right after an
 * earlier occurrence of token i (tokens[j - 1] === tokens[i]). In a sequence that repeats its
 * k words they all hold the same next word.
 * @param {ArrayLike<number | string>} tokens
 * @param {number} i
 */
export function inductionKeys(tokens, i) {
  const keys = [];
  for (let j = 1; j <= i; j++) if (tokens[j - 1] === tokens[i] && j - 1 !== i) keys.push(j);
  return keys;
}

/**
 * The sentence under the K-composition split for query i of head `head` (layer 2): which source
 * gives the right keys their scores. parts: the shares scale·q_i·k_j of each source at keys j,
 * one array per source (sources[p] names it); total: the head's scores S[i].
 * heads: heads a layer (sources are the embedding and each layer-1 head, unless given).
 * @param {{ tokens: string[], i: number, sources: string[], parts: number[][], total: ArrayLike<number>, head: number, heads?: number }} s
 */
export function splitSentence({ tokens, i, sources, parts, total, head, heads = sources.length - 1 }) {
  const right = inductionKeys(tokens, i);
  if (!right.length) return `Head ${headName(head, heads)}, query ${tokenRef(tokens, i)}: this token has not occurred before, so there is no earlier copy to find. Pick a query from the repeated part.`;
  const best = right.reduce((a, j) => (total[j] > total[a] ? j : a), right[0]);
  let other = -1;
  for (let j = 0; j <= i; j++) if (!right.includes(j) && (other < 0 || total[j] > total[other])) other = j;
  let src = 0;
  for (let p = 1; p < parts.length; p++) if (parts[p][best] > parts[src][best]) src = p;
  const where = right.length === 1 ? `the key right after the earlier ${tokenRef(tokens, right[0] - 1)}, ${tokenRef(tokens, right[0])}` : `the ${right.length} keys right after an earlier “${tokens[i]}”: ${list(right.map((j) => tokenRef(tokens, j)))}`;
  const wins = other < 0 || total[best] > total[other];
  return `Head ${headName(head, heads)}, query ${tokenRef(tokens, i)}: the keys to find are ${where}; each holds the word that comes next. ` +
    `The best of them, ${tokenRef(tokens, best)}, scores ${fmt(total[best])}, ${wins ? 'more than' : 'not yet more than'} any other key (the best other key, ${other < 0 ? 'none' : tokenRef(tokens, other)}, scores ${other < 0 ? '—' : fmt(total[other])}). ` +
    `The largest share of its score, ${fmt(parts[src][best])}, comes from the part of its key written by ${sources[src]}.` +
    (src > 0 ? ' That is K-composition: this head’s keys read what an earlier head wrote into the residual stream, “the token before me was …”.' : '');
}

/** The words used for the sources of a layer-2 key: the embedding and "head 1.1", .... */
export function sourceNames(/** @type {number} */ heads = MODEL.heads) {
  return ['the token embedding and position', ...Array.from({ length: heads }, (_, h) => `head ${headName(h, heads)}`)];
}

/** The split table's row labels (short): "embedding", "head 1.1", ..., "total S". */
export function sourceLabels(/** @type {number} */ heads = MODEL.heads) {
  return ['embedding', ...Array.from({ length: heads }, (_, h) => `head ${headName(h, heads)}`), 'total S'];
}

/**
 * The explanation of a cell of the split table: { title, text }. Row p < parts.length is source
 * p's share of the score of query i at key j; row parts.length is the total, the head's S[i][j].
 * @param {{ tokens: string[], i: number, j: number, p: number, sources: string[], parts: number[][], total: ArrayLike<number>, scale: number }} s
 */
export function explainSplit({ tokens, i, j, p, sources, parts, total, scale }) {
  const shares = parts.map((row, q) => `${fmt(row[j])} (${sources[q]})`);
  const sum = `${shares.join(' + ')} = ${fmt(total[j])}`;
  const right = inductionKeys(tokens, i).includes(j) ? ` Key ${tokenRef(tokens, j)} comes right after an earlier “${tokens[i]}”: it is one the induction head should find.` : '';
  if (p >= parts.length) {
    return {
      title: `S[${i + 1}][${j + 1}] = ${fmt(total[j])}`,
      text: `The head’s scaled score of query ${tokenRef(tokens, i)} against key ${tokenRef(tokens, j)}, q·k × ${fmt(scale)} (S in the explorer below). The key is X·Wk and the head’s input X is ${list(sources)} added together, so the score is the sum of one share per source: ${sum}.${right}`,
    };
  }
  return {
    title: `${sources[p]}: ${fmt(parts[p][j])}`,
    text: `The share of ${sources[p]} in the score of query ${tokenRef(tokens, i)} against key ${tokenRef(tokens, j)}: q · (its part of X)·Wk × ${fmt(scale)}, where q is the query’s row of Q. All the shares add up to the score: ${sum}.${right}`,
  };
}

/**
 * The X explanation extra for the explorer (web/blocks/explain.js explainCell's `extra.residual`):
 * the parts of a head's input, each [n·d]: the embedding and position, then each earlier head.
 * @param {Float32Array} embedding
 * @param {{ name: string, C: Float32Array, ablated: boolean }[]} heads
 */
export function residualParts(embedding, heads) {
  return [{ name: 'token embedding + position', data: embedding }, ...heads.map((h) => ({ name: h.ablated ? `${h.name}’s output (ablated: 0)` : `${h.name}’s output`, data: h.ablated ? new Float32Array(embedding.length) : h.C }))];
}

/** A short status line: "step 430 · repeated part 0.12 nats · first part 3.31". */
export function statusLine(/** @type {number} */ step, /** @type {{ first: number, repeat: number } | null} */ loss) {
  if (!step || !loss) return `Step ${step}`;
  return `Step ${step} · batch loss: repeated part ${nats(loss.repeat)}, first part ${nats(loss.first)} nats`;
}

/** The grid cell's label: "Head 2.1: previous-token 0.04, induction 0.93" (heads: heads a layer). */
export function headLabel(/** @type {number} */ h, /** @type {number} */ prev, /** @type {number} */ ind, /** @type {number} */ heads = MODEL.heads) {
  return `Head ${headName(h, heads)}: previous-token ${fmt(prev)}, induction ${fmt(ind)}`;
}

/**
 * The caption of the K-composition chart: what the score is, and what the weights at step 0
 * (random) and now score, from the evaluations that have it.
 * @param {Evaluation[]} evals
 */
export function compositionCaption(evals) {
  const ev = evals.filter((e) => e.composition);
  const all = (/** @type {Evaluation} */ e) => /** @type {number[][]} */ (e.composition).flat();
  let s = 'How much each layer-2 head’s keys read what a layer-1 head writes: K-composition, ‖W_QK·W_OVᵀ‖ / (‖W_QK‖·‖W_OV‖), from the weights alone, where W_QK = Wq·Wkᵀ (the layer-2 head’s query-key matrix: its scores are X·W_QK·Xᵀ, scaled) and W_OV = Wv·Wo (what the layer-1 head writes into the residual stream for each token it attends to).';
  const first = ev[0], last = ev[ev.length - 1];
  if (first && first.step === 0) s += ` At step 0, with random weights, it is ${spread(all(first))}.`;
  if (last && last !== first) s += ` At step ${last.step} it is ${spread(all(last))}${first && first.step === 0 && Math.max(...all(last)) > Math.max(...all(first)) ? ': the layer-2 keys read more of what layer 1 writes than they did at random' : ''}.`;
  return s;
}

/** The caption of the loss chart. */
export function curveCaption(/** @type {number} */ steps, /** @type {number | null} */ drop, /** @type {boolean} */ control) {
  if (!steps) return 'No steps yet. The curves will show each step’s batch loss, in nats per predicted token: the first part (where the current word has not occurred before) and the repeated part (where it has).';
  return `The batch loss of each step, in nats per predicted token: first part (dashed) and repeated part (solid)${control ? ', and the one-layer control’s repeated part (dotted)' : ''}. ` +
    (drop != null ? `The repeated part drops at step ${drop}.` : 'The repeated part has not dropped yet.') + ` ${count(steps, 'step')} so far.`;
}
