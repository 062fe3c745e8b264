// @ts-check
// induction-engine.js: trains the induction model and its one-layer control, and answers the
// page's questions about them. It runs in a Web Worker (web/induction/worker.js) or, where a
// worker cannot be had, on the page's thread in short slices (web/induction/panel.js): the same
// messages either way. No DOM. Everything it sends is a plain copy.
//
// Messages in: { type: 'init', settings, steps } | { type: 'run' } | { type: 'pause' } |
//   { type: 'step', k } | { type: 'reset' } | { type: 'reroll', seed } |
//   { type: 'show', ex, head, ablate } (what the page looks at; training is unaffected) |
//   { type: 'control', on } | { type: 'lr', lr } | { type: 'heads', heads } (heads a layer) |
//   { type: 'bench', k, heads? } (times k steps of a fresh model of the same settings, or of
//   `heads` heads a layer, alone: make bench)
// Messages out: { type: 'update', ... } after every change and, while training, at most every
// postEveryMs (the page redraws no more often than that: each update is a copy of the whole
// history to make and to read), and { type: 'error', message }.

import { MODEL, EVAL_EVERY, MAX_STEPS, headName, copyReadout } from './words.js';

/**
 * @param {any} attn  the loaded core (web/core/attention.js loadAttention())
 * @param {(msg: any) => void} post
 * @param {{ sliceMs?: number, postEveryMs?: number, now?: () => number, later?: (f: () => void) => void }} [options]
 *   sliceMs: how long one slice of training may take before the engine yields (so pause and
 *   input get through); postEveryMs: the least time between two updates while training;
 *   later(f): runs f after the messages waiting (setTimeout 0 unless given)
 */
export function createEngine(attn, post, { sliceMs = 40, postEveryMs = 100, now = () => performance.now(), later = (f) => setTimeout(f, 0) } = {}) {
  let model = /** @type {any} */ (null);
  let control = /** @type {any} */ (null);
  /** @type {Settings} */
  const s = { seed: 1, lr: 0.02, heads: MODEL.heads, ex: 0, head: null, ablate: [], control: true };
  let running = false;
  /** @type {{ first: number[], repeat: number[], control: number[] }} */
  let losses = { first: [], repeat: [], control: [] };
  let evals = /** @type {any[]} */ ([]);
  let rate = 0; // measured steps per second of the last slices
  let run = 0; // which run a pending slice belongs to: a pause and a new run never leave two going
  let postedAt = -Infinity; // when the last update went out

  function create() {
    if (model) model.dispose();
    if (control) control.dispose();
    model = attn.createInduction({ ...MODEL, heads: s.heads, seed: s.seed, lr: s.lr });
    control = s.control ? attn.createInduction({ ...MODEL, layers: 1, heads: s.heads, seed: s.seed, lr: s.lr }) : null;
    losses = { first: [], repeat: [], control: [] };
    evals = [];
    evaluate();
  }

  /** Held-out numbers of both models at the current step, every head present. */
  const evaluate = () => evals.push(evaluation(model, control));

  /** k steps of both models, evaluating every EVAL_EVERY steps. @param {number} k */
  function train(k) {
    k = Math.min(k, MAX_STEPS - model.steps);
    while (k > 0) {
      const now = Math.min(k, EVAL_EVERY - (model.steps % EVAL_EVERY));
      const l = model.step(now);
      for (let q = 0; q < now; q++) losses.first.push(l.first[q]), losses.repeat.push(l.repeat[q]);
      if (control) for (const v of control.step(now).repeat) losses.control.push(v);
      k -= now;
      if (model.steps % EVAL_EVERY === 0) evaluate();
    }
  }

  function update(extra = {}) {
    postedAt = now();
    post({
      type: 'update',
      settings: { ...s, ablate: s.ablate.slice() },
      step: model.steps,
      weightsHash: weightsHash(model),
      running,
      rate,
      loss: model.steps ? model.loss : null,
      losses: { first: Float32Array.from(losses.first), repeat: Float32Array.from(losses.repeat), control: Float32Array.from(losses.control) },
      evals,
      view: modelView(model, control, s),
      ...extra,
    });
  }

  // One slice of training: as many chunks of EVAL_EVERY steps as fit in sliceMs.
  function slice(/** @type {number} */ which) {
    if (!running || which !== run) return;
    const t0 = now();
    let done = 0;
    while (running && model.steps < MAX_STEPS) {
      train(EVAL_EVERY);
      done += EVAL_EVERY;
      if (now() - t0 >= sliceMs) break;
    }
    const ms = now() - t0;
    if (ms > 0) rate = (done * 1000) / ms;
    if (model.steps >= MAX_STEPS) running = false;
    if (!running || now() - postedAt >= postEveryMs) update();
    if (running) later(() => slice(which)); // yield: a pause or a click gets through between slices
  }

  function fail(/** @type {any} */ e) {
    running = false;
    post({ type: 'error', message: String(e && e.message ? e.message : e) });
  }

  return {
    /** @param {any} msg */
    handle(msg) {
      try {
        switch (msg.type) {
          case 'init':
            Object.assign(s, msg.settings);
            create();
            if (msg.steps) train(msg.steps); // a link replays to its step
            return update({ replayed: msg.steps || 0 });
          case 'run':
            if (running) return;
            running = true;
            return slice(++run);
          case 'pause':
            running = false;
            return update();
          case 'step':
            running = false;
            train(msg.k || 1);
            return update();
          case 'reset':
          case 'reroll':
          case 'lr':
          case 'heads':
            running = false;
            restart(s, msg);
            create();
            return update();
          case 'control': {
            // the control replays to the same step, so both curves cover the same steps
            running = false;
            s.control = Boolean(msg.on);
            const steps = model.steps;
            create();
            train(steps);
            return update();
          }
          case 'show':
            if ('ex' in msg) s.ex = msg.ex;
            if ('head' in msg) s.head = msg.head;
            if ('ablate' in msg) s.ablate = msg.ablate.slice().sort((/** @type {number} */ a, /** @type {number} */ b) => a - b);
            return update();
          case 'bench':
            return post(bench(attn, { ...s, heads: msg.heads || s.heads }, msg.k, now));
          default:
            return fail(new Error(`unknown message ${msg.type}`));
        }
      } catch (e) {
        fail(e);
      }
    },
    /** Frees both models. */
    dispose() {
      running = false;
      if (model) model.dispose();
      if (control) control.dispose();
      model = control = null;
    },
  };
}

/** @typedef {{ seed: number, lr: number, heads: number, ex: number, head: number | null, ablate: number[], control: boolean }} Settings */

/**
 * Held-out numbers of the model (and the control) at the current step, every head present.
 * @param {any} model @param {any} control
 */
function evaluation(model, control) {
  const e = model.evaluate();
  const c = control ? control.evaluate() : null;
  return {
    step: model.steps, lossFirst: e.lossFirst, lossRepeat: e.lossRepeat, accuracy: e.accuracy, prev: e.prev, induction: e.induction,
    composition: model.composition(),
    control: c && { lossFirst: c.lossFirst, lossRepeat: c.lossRepeat, prev: c.prev, induction: c.induction },
  };
}

/**
 * What a message that restarts the run from step 0 changes in the settings (reset: nothing).
 * @param {Settings} s @param {any} msg
 */
function restart(s, msg) {
  if (msg.type === 'reroll') s.seed = msg.seed;
  // a new learning rate restarts the run: a link replays one rate from step 0
  if (msg.type === 'lr') s.lr = msg.lr;
  // another model: the run restarts, and head numbers name other heads now
  if (msg.type === 'heads') Object.assign(s, { heads: msg.heads, head: null, ablate: [] });
}

/**
 * What the page shows for the current weights (ablation applies here only): one sequence through
 * both models, and the opened head's weights and what it read. full: the same sequence through
 * the whole model (no head ablated), which the page's story describes: every head's A, and what
 * each layer-2 head's output alone adds to the logits (words.js copyReadout).
 * @param {any} model @param {any} control @param {Settings} s
 */
function modelView(model, control, s) {
  const H = model.headCount;
  model.ablate([]);
  const x0 = model.example(s.ex);
  const E = model.weights().E;
  const full = {
    A: x0.heads.map((/** @type {any} */ h) => h.A),
    copy: x0.heads.map((/** @type {any} */ h, /** @type {number} */ i) => (i < model.heads ? null : copyReadout({ C: h.C, E, ids: x0.ids, targets: x0.targets, part: x0.part, d: model.d, vocab: model.vocab }))),
    names: model.tokenNames.slice(),
  };
  let without = null;
  if (s.ablate.length) {
    model.ablate(s.ablate);
    const w = model.evaluate();
    without = { lossFirst: w.lossFirst, lossRepeat: w.lossRepeat, accuracy: w.accuracy, induction: w.induction };
  }
  const x = s.ablate.length ? model.example(s.ex) : x0; // with the ablation: the page shows what the ablated model does
  // the opened head is read while the ablation holds, so its key split gives an ablated head's
  // share as 0 and the shares add up to the S shown
  const head = s.head != null && s.head < H ? headView(model, x, s.head, s.ablate) : undefined;
  model.ablate([]);
  const cx = control ? control.example(s.ex) : null;
  /** @type {any} */
  const out = {
    tokens: x.tokens, part: x.part, induct: x.induct, k: x.k,
    A: x.heads.map((/** @type {any} */ h) => h.A),
    controlA: cx ? cx.heads.map((/** @type {any} */ h) => h.A) : null,
    without,
    full,
  };
  if (head) out.head = head;
  return out;
}

/**
 * The opened head h: its weights, gradients, what it read (Q, K, S of example x) and the parts
 * of the residual stream it read; a layer-2 head's keys split by source.
 * @param {any} model @param {any} x model.example()'s @param {number} h @param {number[]} ablate
 */
function headView(model, x, h, ablate) {
  const l = Math.floor(h / model.heads);
  const w = model.weights().heads[h], g = model.gradients().heads[h];
  return {
    index: h,
    X: x.X[l], Wq: w.Wq, Wk: w.Wk, Wv: w.Wv, K: x.heads[h].K, Q: x.heads[h].Q, S: x.heads[h].S,
    gradients: { Wq: g.Wq, Wk: g.Wk, Wv: g.Wv },
    // the parts of X: the embedding and position (X0), then every earlier head's output
    embedding: x.X[0],
    earlier: Array.from({ length: l * model.heads }, (_, e) => ({ name: `head ${headName(e, model.heads)}`, C: x.heads[e].C, ablated: ablate.includes(e) })),
    split: l > 0 ? model.keySplit(l, h % model.heads).map((/** @type {any} */ p) => p.K) : null,
  };
}

/** FNV-1a over the bits of every parameter: equal runs give equal hashes, in any engine. */
/** @param {any} model */
function weightsHash(model) {
  const bits = new Uint32Array(model.parameters().buffer);
  let h = 0x811c9dc5;
  for (let e = 0; e < bits.length; e++) {
    for (let b = 0; b < 32; b += 8) h = Math.imul(h ^ ((bits[e] >>> b) & 0xff), 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * Times k steps of a fresh model of settings s, alone (make bench).
 * @param {any} attn @param {Settings} s @param {number} k @param {() => number} now
 */
function bench(attn, s, k, now) {
  const m = attn.createInduction({ ...MODEL, heads: s.heads, seed: s.seed, lr: s.lr });
  m.step(10); // the engine's compiler warms up
  const t0 = now();
  m.step(k);
  const ms = now() - t0;
  m.dispose();
  return { type: 'bench', k, heads: m.heads, ms, stepsPerSecond: (k * 1000) / ms };
}
