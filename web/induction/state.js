// @ts-check
// induction/state.js: the induction page's own state, what the learner asked for, and the
// actions that change it. Pure: no DOM, no engine. Everything about the model is in the engine's
// latest update (`last`, never edited here); an action changes the state and returns the
// request the engine needs (or null when nothing changed), which web/induction/panel.js posts.
// Also pure here: every text the panel shows from (state, last), the score split of one query
// and the head handed to the explorer, so the panel's wiring only moves them into the page.

import {
  MODEL, LR_CHOICES, HEAD_CHOICES, MAX_STEPS, CRITERIA, dropStep, formedAt, narrate, ablationSentence, circuitAblation,
  statusLine, curveCaption, sourceNames, sourceLabels, residualParts, strongestInduction, strongestPrevious, servedPrevious,
  copyPattern, patternSentence, copySentence, explorerLabel, headName, previousSentence,
} from './words.js';

/** @typedef {import('./types').EngineRequest} EngineRequest @typedef {import('./types').EngineMessage} EngineMessage */
/** @typedef {import('./types').InductionUpdate} Last @typedef {import('./types').HeadView} HeadView */
/**
 * @typedef {{ seed: number, lr: number, heads: number, ex: number, head: number | null, ablate: number[], control: boolean,
 *   playing: boolean, error: string, query: number | null }} PanelState
 */

/**
 * The state a panel starts from: readInductionUrl's settings, and its notes as the error shown.
 * @param {ReturnType<typeof import('./words.js').readInductionUrl>} initial @returns {PanelState}
 */
export function createState(initial) {
  return {
    seed: initial.seed, lr: initial.lr, heads: initial.heads, ex: initial.ex, head: initial.head, ablate: initial.ablate.slice(), control: initial.control,
    playing: false, error: initial.notes.join(' '), query: null,
  };
}

/**
 * The first request: the engine starts from the state's settings and replays the link's steps.
 * @param {PanelState} st @param {number} steps @returns {EngineRequest}
 */
export function initRequest(st, steps) {
  return { type: 'init', settings: { seed: st.seed, lr: st.lr, heads: st.heads, ex: st.ex, head: st.head, ablate: st.ablate, control: st.control }, steps: Math.min(steps, MAX_STEPS) };
}

/**
 * An update or an error from the engine: whether training runs now, and the error to show.
 * Returns the update (the new `last`), or null for an error.
 * @param {PanelState} st @param {Exclude<EngineMessage, { type: 'bench' }>} msg @returns {Last | null}
 */
export function receive(st, msg) {
  if (msg.type === 'error') {
    st.error = `Training stopped: ${msg.message}.`;
    st.playing = false;
    return null;
  }
  st.playing = msg.running;
  return msg;
}

/** @param {PanelState} st @returns {EngineRequest} */
export function play(st) {
  st.error = '';
  st.playing = true;
  return { type: 'run' };
}

/** @param {PanelState} st @returns {EngineRequest} */
export function pause(st) {
  st.playing = false;
  return { type: 'pause' };
}

/**
 * What the page looks at (training is unaffected): the sequence, the opened head, the ablated heads.
 * @param {PanelState} st @param {{ ex?: number, head?: number | null, ablate?: number[] }} change @returns {EngineRequest}
 */
export function show(st, change) {
  Object.assign(st, change);
  return { type: 'show', ex: st.ex, head: st.head, ablate: st.ablate };
}

/**
 * New random weights: a new seed drawn from the old one, so a sequence of re-rolls is itself reproducible.
 * @param {PanelState} st @returns {EngineRequest}
 */
export function reroll(st) {
  st.seed = (Math.imul(st.seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000000;
  return { type: 'reroll', seed: st.seed };
}

/** @param {PanelState} st @param {number} lr @returns {EngineRequest | null} null for a rate the page does not offer */
export function setLr(st, lr) {
  if (!LR_CHOICES.includes(lr)) return null;
  st.lr = lr;
  return { type: 'lr', lr };
}

/**
 * Another model: a new run from step 0, and no head opened or ablated (their numbers would name other heads).
 * @param {PanelState} st @param {number} heads @returns {EngineRequest | null} null when nothing changes
 */
export function setHeads(st, heads) {
  if (!HEAD_CHOICES.includes(heads) || heads === st.heads) return null;
  Object.assign(st, { heads, head: null, ablate: [], query: null });
  return { type: 'heads', heads };
}

/** @param {PanelState} st @param {boolean} on @returns {EngineRequest} */
export function setControl(st, on) {
  st.control = on;
  return { type: 'control', on };
}

/** @param {PanelState} st @returns {EngineRequest} the next sequence */
export const nextExample = (st) => show(st, { ex: (st.ex + 1) % 1000 });

/** @param {PanelState} st @param {number} h @returns {EngineRequest} head h opened, or closed when it was open */
export const toggleOpen = (st, h) => show(st, { head: st.head === h ? null : h });

/** @param {PanelState} st @param {number} h @returns {EngineRequest} head h ablated, or restored when it was */
export const toggleAblate = (st, h) => show(st, { ablate: st.ablate.includes(h) ? st.ablate.filter((x) => x !== h) : [...st.ablate, h] });

/**
 * The circuit button: ablates every induction head of the circuit, or restores them all.
 * @param {PanelState} st @param {Last | null} last @returns {EngineRequest | null} null when there is no circuit to ablate
 */
export function toggleCircuit(st, last) {
  if (!last) return null;
  const circuit = circuitAblation(last.evals[last.evals.length - 1].induction, st.ablate);
  if (!circuit) return null;
  const rest = st.ablate.filter((h) => !circuit.heads.includes(h));
  return show(st, { ablate: circuit.pressed ? rest : [...rest, ...circuit.heads] });
}

/** The query whose scores are split: the one chosen, else the last token of the repeated part. */
export const queryOf = (/** @type {number | null} */ query, /** @type {number} */ n) => (query != null && query < n ? query : n - 1);

/**
 * Every text of the panel's controls and sentences, from the state and the latest update
 * (`model` is null before the first update). runner: where the engine runs.
 * @param {PanelState} st @param {Last | null} last @param {'worker' | 'page'} runner
 */
export function panelText(st, last, runner) {
  const controls = {
    error: st.error,
    run: st.playing ? '❚❚ Pause' : '▶ Train',
    live: st.playing ? 'off' : 'polite',
  };
  if (!last) return { ...controls, model: null };
  const drop = dropStep(last.evals);
  const at = formedAt(last.evals);
  const v = last.view, e = last.evals[last.evals.length - 1];
  const circuit = circuitAblation(e.induction, st.ablate);
  const story = circuitStory(last);
  return {
    ...controls,
    model: {
      drop,
      status: statusLine(last.step, last.loss),
      where: `Seed ${last.settings.seed}; training in ${runner === 'worker' ? 'a Web Worker' : 'this page (no worker here)'}` +
        (last.running && last.rate ? `, ${Math.round(last.rate)} steps a second` : '') +
        (at != null ? `; the circuit formed (induction > ${CRITERIA.induction}, repeated part < ${CRITERIA.loss} nats) at step ${at}.` : '.'),
      says: narrate({ step: last.step, evals: last.evals, words: MODEL.vocab - 1, view: { A: v.full.A, tokens: v.tokens, n: MODEL.n } }),
      curveCaption: curveCaption(last.step, drop, last.losses.control.length > 0),
      seqName: `sequence ${last.settings.ex + 1} (k = ${v.k})`,
      seq: v.tokens.join(' '),
      ablation: ablationSentence({ ablated: last.settings.ablate, full: e, without: v.without, induction: e.induction, prev: e.prev, served: story.served }),
      circuit,
      copy: story.text,
      explorer: explorerLabel({ head: last.view.head ? last.view.head.index : null, heads: last.settings.heads, step: last.step, ex: last.settings.ex }),
    },
  };
}

/**
 * The circuit on the sequence shown, with no head ablated (view.full): where the previous-token
 * head looks, where the induction head's attention goes and what its output writes, in words, and how much the previous-token head looks back
 * where it reads (served). The head is the one with the largest held-out induction score; text
 * is '' before training.
 * @param {Last} last @returns {{ text: string, served: number | null }}
 */
export function circuitStory(last) {
  const e = last.evals[last.evals.length - 1], v = last.view, H = last.settings.heads;
  const ind = strongestInduction(e.induction, H), prev = strongestPrevious(e.prev, H);
  if (!ind || !last.step) return { text: '', served: null };
  const served = servedPrevious(v.full.A[prev.head], v.full.A[ind.head], v.tokens, MODEL.n);
  const pattern = copyPattern(v.full.A[ind.head], v.tokens, MODEL.n), readout = v.full.copy[ind.head];
  const name = headName(ind.head, H);
  const text = [
    previousSentence({ A: v.full.A[prev.head], n: MODEL.n, name: headName(prev.head, H) }),
    pattern ? patternSentence({ pattern, name, k: v.k }) : '',
    readout ? copySentence({ readout, tokens: v.tokens, names: v.full.names, name }) : '',
  ].filter(Boolean).join(' ');
  return { text, served };
}

/**
 * One query's scores split by the source of the keys (a layer-2 head): parts[p][j] is
 * scale·q_i·k_j^p from the core's Q and key parts (float64 sums; NaN for a key query i cannot
 * see), total the core's S row. data is the heatmap's rows: every part, then the total, over the
 * keys query i may see.
 * @param {HeadView & { split: Float32Array[] }} hv @param {string[]} tokens @param {number} i @param {number} heads
 */
export function splitTable(hv, tokens, i, heads) {
  const n = MODEL.n, dh = MODEL.dh, scale = 1 / Math.sqrt(dh);
  const q = hv.Q.subarray(i * dh, (i + 1) * dh);
  const parts = hv.split.map((K) => Array.from({ length: n }, (_, j) => {
    if (j > i) return NaN;
    let s = 0;
    for (let c = 0; c < dh; c++) s += q[c] * K[j * dh + c];
    return s * scale;
  }));
  const total = hv.S.subarray(i * n, (i + 1) * n);
  const rows = sourceLabels(heads), keys = i + 1; // the keys query i may see
  const data = new Float32Array(rows.length * keys);
  parts.forEach((row, p) => { for (let j = 0; j < keys; j++) data[p * keys + j] = row[j]; });
  for (let j = 0; j < keys; j++) data[parts.length * keys + j] = total[j];
  const colLabels = tokens.slice(0, keys).map((x, j) => `${x} ${j + 1}`);
  return { scale, parts, total, sources: sourceNames(heads), rows, keys, data, colLabels };
}

/**
 * The key of what the explorer shows of the opened head: it changes when the head or its
 * numbers do. null when no head is open.
 * @param {Last} last @returns {string | null}
 */
export function headKey(last) {
  const hv = last.view.head;
  if (!hv) return null;
  return `${hv.index}:${last.step}:${last.settings.ex}:${last.settings.ablate}:${last.settings.seed}:${last.settings.heads}:${last.evals.length}`;
}

/**
 * What the explorer is handed for the opened head (last.view.head, there): its config, and
 * what the explorer shows beside it (the step, the gradients, the parts of the residual stream).
 * @param {Last} last
 */
export function explorerHead(last) {
  const hv = /** @type {HeadView} */ (last.view.head);
  const { n, d, dh } = MODEL;
  const rows = (/** @type {Float32Array} */ flat, /** @type {number} */ r, /** @type {number} */ c) => Array.from({ length: r }, (_, i) => Array.from(flat.subarray(i * c, (i + 1) * c)));
  return {
    config: {
      tokens: last.view.tokens,
      features: Array.from({ length: d }, (_, c) => 'r' + (c + 1)),
      X: rows(hv.X, n, d), Wq: rows(hv.Wq, d, dh), Wk: rows(hv.Wk, d, dh), Wv: rows(hv.Wv, d, dh),
      causal: true, scale: null,
    },
    extra: {
      trained: { step: last.step },
      gradients: last.step ? hv.gradients : null,
      residual: residualParts(hv.embedding, hv.earlier),
    },
  };
}
