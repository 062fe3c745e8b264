// attention-induction.js: the induction models of web/core/attention.js, which alone imports it, and
// only with the full core: InductionModel, a two-layer attention-only model in which an induction
// head forms (c/induction.h). It reads and writes the models' slots in the Wasm memory
// web/core/attention.js loaded. docs/api.md, "Training".

import { describe } from './words.js';
import { TRAIN_STATUS, cString, checkSeed } from './trainer.js';
import { IND_BUFFERS, IND_INFO, IND_SLOTS } from '../gen/wasm-exports.js';

/** @typedef {import('./types').FullCore} FullCore */

// ------------------------------------------------------------------ induction (c/induction.h)

// Buffer and info ids (IND_BUFFERS, IND_INFO: the table c/wasm_exports.def).
const IB = Object.fromEntries(IND_BUFFERS.map((name, i) => [name, i]));
const II = Object.fromEntries(IND_INFO.map((name, i) => [name, i]));
/** @type {Record<number, string>} */
const IND_STATUS = {
  ...TRAIN_STATUS,
  32: 'a size is out of range (layers 1-2, heads 1-4, d even 2-64, dh 1-32, n 5-64, vocab up to 64 and enough different tokens for the task)',
  33: `all ${IND_SLOTS} model slots are in use: call dispose() on a model you no longer need (a model dropped without dispose() gives its slot back only once it is garbage-collected)`,
  34: 'the learning rate must be above 0 and at most 1, and the weight decay at least 0',
};
const IND_DEFAULTS = Object.freeze({ layers: 2, heads: 2, d: 32, dh: 16, n: 32, vocab: 28, seed: 1, lr: 0.01, weightDecay: 0.01, batch: 16 });
const IND_KEYS = new Set(Object.keys(IND_DEFAULTS));
/** The most steps one step(k) call takes: a call runs synchronously, so it is bounded (about a
 * minute of the anchor's steps); take more in several calls, as the page does, between frames. */
export const MAX_STEPS_PER_CALL = 100000;

// A model dropped without dispose() gives its Wasm slot back when it is garbage-collected
// (dispose() unregisters it, so a slot is never freed twice or under a newer model).
const DROPPED_MODELS = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((/** @type {{ exports: FullCore, slot: number }} */ { exports, slot }) => exports.ae_ind_free(slot))
  : null;

/** An Error with a code a caller can test (e.code), as the trainers' AE_TRAINER_SLOTS.
 * @param {string} message @param {string} code @param {object} [extra] */
function coded(message, code, extra = {}) {
  return Object.assign(new Error(message), { code, ...extra });
}

/**
 * Creates a model's slot, or says why not: a size that is not a whole number from 1 up (checked
 * before the core, which reads int32s: 2 ** 32 + 2 would reach it as 2), a shape the core refuses,
 * a shape too large for a slot (with the bytes it needs and a slot holds), or every slot in use.
 * @param {FullCore} exports @param {Record<'layers' | 'heads' | 'd' | 'dh' | 'n' | 'vocab', unknown> & { seed: number }} o
 */
function createSlot(exports, o) {
  const sizes = /** @type {const} */ (['layers', 'heads', 'd', 'dh', 'n', 'vocab']);
  for (const k of sizes) {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 0x7fffffff) throw new Error(`${k} is ${describe(v)}: ${IND_STATUS[32]}`);
  }
  const [layers, heads, d, dh, n, vocab] = sizes.map((k) => /** @type {number} */ (o[k]));
  const need = exports.ae_ind_memory_bytes(layers, heads, d, dh, n, vocab), room = exports.ae_ind_slot_bytes();
  if (need === 0) throw coded(`could not create the model: ${IND_STATUS[32]}`, 'AE_INDUCTION_SHAPE');
  if (need > room) {
    throw coded(`could not create the model: this shape needs ${need.toLocaleString('en')} bytes and a model slot holds ${room.toLocaleString('en')}: use fewer heads, a smaller d, dh or n (docs/api.md lists the shapes that fit)`, 'AE_INDUCTION_SIZE', { bytes: need, slotBytes: room });
  }
  const slot = exports.ae_ind_create(layers, heads, d, dh, n, vocab, o.seed);
  if (slot === -33) throw coded(`could not create the model: ${IND_STATUS[33]}`, 'AE_INDUCTION_SLOTS', { slots: IND_SLOTS });
  if (slot < 0) throw new Error(`could not create the model: ${IND_STATUS[-slot] ?? 'status ' + -slot}`);
  return slot;
}

/**
 * An attention-only transformer of 1 or 2 layers (token embedding, fixed sinusoidal positions,
 * H heads per layer each adding O·Wo to the residual stream, an unembedding tied to the
 * embedding) learning repeated random tokens in Wasm; c/induction.h describes it. Every array
 * it returns is a copy; heads are numbered l*H + h in one list (head 0 is "1.1").
 */
export class InductionModel {
  /** @type {FullCore | null} */
  #ex;
  #slot;
  /** @type {{ exports: unknown } | null} */
  #owner; // the Attention it was made by: its dispose() ends this model too
  /**
   * @param {FullCore} exports @param {import('../../types/attention').InductionOptions} options (checked here)
   * @param {{ exports: unknown } | null} [owner]
   */
  constructor(exports, options, owner = null) {
    if (!options || typeof options !== 'object') throw new Error('createInduction needs an object like { layers: 2, seed: 1 }');
    for (const key in options) {
      if (!IND_KEYS.has(key)) throw new Error(`createInduction got an unknown option "${key}": the options are ${[...IND_KEYS].join(', ')}`);
    }
    const o = { ...IND_DEFAULTS, ...options };
    checkSeed(o.seed);
    const slot = createSlot(exports, o);
    this.#ex = exports;
    this.#slot = slot;
    this.#owner = owner;
    DROPPED_MODELS?.register(this, { exports, slot }, this);
    this.layers = o.layers; this.heads = o.heads; this.d = o.d; this.dh = o.dh; this.n = o.n; this.vocab = o.vocab;
    this.seed = o.seed;
    // set() below sets these (a read here declares their types for tsc)
    /** @type {number} */
    this.lr;
    /** @type {number} */
    this.weightDecay;
    /** @type {number} */
    this.batch;
    this.tokenNames = Array.from({ length: o.vocab }, (_, v) => cString(exports, exports.ae_ind_token_name(v)));
    try {
      this.set({ lr: o.lr, weightDecay: o.weightDecay, batch: o.batch });
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  #live() {
    if (!this.#ex) throw new Error('this model was disposed: create a new one with attn.createInduction()');
    if (this.#owner && !this.#owner.exports) {
      throw new Error('this model\'s Attention was disposed (attn.dispose()), and its models with it: load the core again with loadAttention() and create a new model');
    }
    return this.#ex;
  }
  /** @param {string} which @param {number} count */
  #floats(which, count, index = 0) {
    const ex = this.#live();
    return new Float32Array(ex.memory.buffer, ex.ae_ind_buffer(this.#slot, IB[which], index), count).slice();
  }
  /** @param {string} which @param {number} count */
  #ints(which, count) {
    const ex = this.#live();
    return Array.from(new Int32Array(ex.memory.buffer, ex.ae_ind_buffer(this.#slot, IB[which], 0), count));
  }
  /** @param {number} st @param {string} what */
  #check(st, what) {
    if (st !== 0) throw new Error(`${what} failed at step ${this.steps}: ${IND_STATUS[st] ?? 'status ' + st}`);
  }

  /** Heads in all (layers × heads). */
  get headCount() {
    return this.layers * this.heads;
  }

  /**
   * Changes any of { lr, weightDecay, batch }; the others keep their values.
   * @param {{ lr?: number, weightDecay?: number, batch?: number }} [options] (checked here)
   */
  set({ lr = this.lr, weightDecay = this.weightDecay, batch = this.batch, ...rest } = {}) {
    const ex = this.#live();
    for (const key of Object.keys(rest)) throw new Error(`set got an unknown option "${key}": the options are lr, weightDecay, batch`);
    if (typeof lr !== 'number' || !(lr > 0) || lr > 1) throw new Error(`lr is ${describe(lr)}: the learning rate must be a number above 0 and at most 1, like 0.01`);
    if (typeof weightDecay !== 'number' || !(weightDecay >= 0) || weightDecay * lr >= 1) throw new Error(`weightDecay is ${describe(weightDecay)}: it must be a number from 0 (none) up, like 0.01, with weightDecay·lr below 1`);
    if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1 || batch > 64) throw new Error(`batch is ${describe(batch)}: it must be a whole number of sequences from 1 to 64`);
    this.#check(ex.ae_ind_set(this.#slot, lr, weightDecay, batch), 'set');
    this.lr = lr;
    this.weightDecay = weightDecay;
    this.batch = batch;
  }

  /**
   * k training steps (default 1). Returns { first, repeat }: Float32Arrays of the k batch losses
   * of the first (unpredictable) and the repeated part, each measured before its step's update.
   */
  step(k = 1) {
    const ex = this.#live();
    if (!Number.isInteger(k) || k < 0 || k > MAX_STEPS_PER_CALL) throw new Error(`step(k): k is ${describe(k)}, it must be a whole number of steps from 0 to ${MAX_STEPS_PER_CALL} (a call runs synchronously: take more steps in several calls)`);
    const first = new Float32Array(k), repeat = new Float32Array(k);
    const chunk = ex.ae_ind_loss_chunk();
    for (let done = 0; done < k; ) {
      const now = Math.min(chunk, k - done);
      const st = ex.ae_ind_steps(this.#slot, now);
      if (st !== 0) throw new Error(`training stopped at step ${this.steps}: ${IND_STATUS[st] ?? 'status ' + st}; lower the learning rate and reset()`);
      const both = new Float32Array(ex.memory.buffer, ex.ae_ind_buffer(this.#slot, IB.losses, 0), 2 * now);
      for (let s = 0; s < now; s++) {
        first[done + s] = both[2 * s];
        repeat[done + s] = both[2 * s + 1];
      }
      done += now;
    }
    return { first, repeat };
  }

  /** Steps taken since creation, reset() or reroll(). */
  get steps() {
    return this.#live().ae_ind_info(this.#slot, II.step);
  }

  /** The last step's batch losses { all, first, repeat } (NaN before the first step). */
  get loss() {
    const ex = this.#live();
    return { all: ex.ae_ind_loss(this.#slot, 0), first: ex.ae_ind_loss(this.#slot, 1), repeat: ex.ae_ind_loss(this.#slot, 2) };
  }

  /**
   * The model on a fixed held-out set of sequences (the same for every seed), with the heads
   * ablate() left out: { lossFirst, lossRepeat, accuracy (repeated part), sequences,
   * prev: [per head], induction: [per head] } where prev is the mean weight a head puts on the
   * previous token and induction the mean weight on the token after the earlier occurrence.
   */
  evaluate() {
    const ex = this.#live();
    this.#check(ex.ae_ind_evaluate(this.#slot), 'evaluation');
    const H = this.headCount;
    const e = this.#floats('eval', 3 + 2 * H);
    return {
      lossFirst: e[0], lossRepeat: e[1], accuracy: e[2], sequences: ex.ae_ind_eval_sequences(),
      prev: Array.from({ length: H }, (_, h) => e[3 + 2 * h]),
      induction: Array.from({ length: H }, (_, h) => e[4 + 2 * h]),
    };
  }

  /**
   * K-composition scores: an array of heads × heads, [a][b] from layer-1 head a to layer-2 head
   * b (null for a one-layer model).
   */
  composition() {
    if (this.layers < 2) return null;
    const ex = this.#live();
    this.#check(ex.ae_ind_composition(this.#slot), 'composition');
    const H = this.heads, c = this.#floats('composition', H * H);
    return Array.from({ length: H }, (_, a) => Array.from(c.subarray(a * H, a * H + H)));
  }

  /** Leaves the listed heads (indices l*H + h) out of the residual stream from now on. @param {Iterable<number>} [heads] */
  ablate(heads = []) {
    const ex = this.#live();
    let mask = 0;
    for (const h of heads) {
      if (!Number.isInteger(h) || h < 0 || h >= this.headCount) throw new Error(`ablate: ${describe(h)} is not a head; heads are 0 to ${this.headCount - 1} (1.1 is 0)`);
      mask |= 1 << h;
    }
    this.#check(ex.ae_ind_ablate(this.#slot, mask >>> 0), 'ablate');
  }

  /** The heads left out, as indices. */
  get ablated() {
    const m = this.#live().ae_ind_info(this.#slot, II.ablated);
    return Array.from({ length: this.headCount }, (_, h) => h).filter((h) => (m >> h) & 1);
  }

  /**
   * One sequence from its seed, run forward with the current weights: { seed, tokens (names),
   * ids, targets (ids, -1 for none), part (0 none, 1 first, 2 repeated), induct (the key an
   * induction head should attend to, or -1), k (the period), X: [L+1 residual streams, n·d],
   * heads: [{ Q, K, V, O (n·dh), S, A (n·n), C (n·d) }], probs (n·vocab) }.
   * @param {number} [seed]
   */
  example(seed = 0) {
    const ex = this.#live();
    const n = ex.ae_ind_example(this.#slot, checkSeed(seed));
    if (n < 0) this.#check(-n, 'the example');
    const { d, dh, vocab } = this;
    const ids = this.#ints('tokens', n);
    return {
      seed,
      ids,
      tokens: ids.map((t) => this.tokenNames[t]),
      targets: this.#ints('targets', n),
      part: this.#ints('part', n),
      induct: this.#ints('induct', n),
      k: ex.ae_ind_info(this.#slot, II.k),
      X: Array.from({ length: this.layers + 1 }, (_, l) => this.#floats('X', n * d, l)),
      heads: Array.from({ length: this.headCount }, (_, h) => ({
        Q: this.#floats('Q', n * dh, h), K: this.#floats('K', n * dh, h), V: this.#floats('V', n * dh, h),
        O: this.#floats('O', n * dh, h), S: this.#floats('S', n * n, h), A: this.#floats('A', n * n, h),
        C: this.#floats('C', n * d, h),
      })),
      probs: this.#floats('probs', n * vocab),
    };
  }

  /**
   * After example(): head (layer, head)'s keys split by source (both 0-based): [{ from, K }]
   * with from 'embedding' (token and position) or a head index, K [n·dh]; they add up to the
   * head's K (to float32 rounding).
   * @param {number} layer @param {number} head @returns {{ from: 'embedding' | number, K: Float32Array }[]}
   */
  keySplit(layer, head) {
    const ex = this.#live();
    const whole = (/** @type {unknown} */ v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    if (!whole(layer) || !whole(head)) throw new Error(`keySplit(layer, head) takes 0-based whole numbers (0 is layer 1, head 1): got ${describe(layer)}, ${describe(head)}`);
    const noHead = () => new Error(`keySplit: there is no head ${layer + 1}.${head + 1} (the model has ${this.layers} layer${this.layers > 1 ? 's' : ''} of ${this.heads} head${this.heads > 1 ? 's' : ''})`);
    if (layer >= this.layers || head >= this.heads) throw noHead(); // checked here: the core reads int32s
    const parts = ex.ae_ind_key_split(this.#slot, layer, head);
    if (parts < 0) throw noHead();
    const size = this.n * this.dh, all = this.#floats('split', parts * size);
    return Array.from({ length: parts }, (_, p) => ({ from: p === 0 ? 'embedding' : p - 1, K: all.slice(p * size, (p + 1) * size) }));
  }

  /** Copies of the parameters: { E [vocab·d], P [n·d] (fixed), heads: [{ Wq, Wk, Wv [d·dh], Wo [dh·d] }] }. */
  weights() {
    const { d, dh, vocab, n } = this;
    return {
      E: this.#floats('E', vocab * d),
      P: this.#floats('P', n * d),
      heads: Array.from({ length: this.headCount }, (_, h) => ({
        Wq: this.#floats('Wq', d * dh, h), Wk: this.#floats('Wk', d * dh, h), Wv: this.#floats('Wv', d * dh, h), Wo: this.#floats('Wo', dh * d, h),
      })),
    };
  }

  /** The last step's mean gradients, shaped like weights() (without P); all 0 before a step. */
  gradients() {
    const { d, dh } = this;
    const all = this.#floats('grads', this.parameterCount);
    return {
      E: all.slice(0, this.vocab * d),
      heads: Array.from({ length: this.headCount }, (_, h) => ({
        Wq: this.#floats('dWq', d * dh, h), Wk: this.#floats('dWk', d * dh, h), Wv: this.#floats('dWv', d * dh, h), Wo: this.#floats('dWo', dh * d, h),
      })),
    };
  }

  /** How many numbers training changes. */
  get parameterCount() {
    return this.#live().ae_ind_info(this.#slot, II.params);
  }

  /** Every parameter in one Float32Array (a copy), for comparing two runs bit for bit. */
  parameters() {
    return this.#floats('params', this.parameterCount);
  }

  /** Back to the same initial weights and training stream; settings and ablation are kept. */
  reset() {
    this.#live().ae_ind_reset(this.#slot);
  }

  /** New initial weights (and training stream) from a new seed. @param {number} seed */
  reroll(seed) {
    checkSeed(seed);
    this.#live().ae_ind_reroll(this.#slot, seed);
    this.seed = seed;
  }

  /** Frees the model's slot in Wasm (there are 4); the object must not be used afterwards. */
  dispose() {
    if (this.#ex) {
      DROPPED_MODELS?.unregister(this);
      this.#ex.ae_ind_free(this.#slot);
    }
    this.#ex = null;
  }
}
