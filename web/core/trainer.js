// attention-training.js: the trainers of web/core/attention.js, which alone imports it (with
// web/core/induction-model.js, which builds on it), and only with a core that trains
// (loadAttention's core 'trainer' or 'full'): the explorer and labs pages, which load the forward
// core, never download it. It reads and writes the trainers' slots in the Wasm memory
// web/core/attention.js loaded. Trainer: one head and a read-out learning a built-in task
// (c/train.h). docs/api.md, "Training".

import { STATUS, describe } from './words.js';
import { TRAIN_BUFFERS, TRAIN_INFO, TRAIN_SLOTS } from '../gen/wasm-exports.js';

/** @typedef {import('./types').TrainCore} TrainCore */
/** @typedef {import('../../types/attention').TrainTask} TrainTask */
/** @typedef {import('../../types/attention').Optimizer} Optimizer */

// ------------------------------------------------------------------ training (c/train.h)

// Buffer and info ids (TRAIN_BUFFERS, TRAIN_INFO: the table c/wasm_exports.def).
const TB = Object.fromEntries(TRAIN_BUFFERS.map((name, i) => [name, i]));
const TI = Object.fromEntries(TRAIN_INFO.map((name, i) => [name, i]));
/** @type {readonly unknown[]} */
const OPTIMIZERS = ['sgd', 'adam'];
/** @type {Record<number, string>} */
export const TRAIN_STATUS = {
  ...STATUS,
  3: 'the weights became NaN or Infinity',
  6: 'the weights grew past float32',
  16: 'there is no such task',
  17: 'dk, dv or batch is out of range',
  18: `all ${TRAIN_SLOTS} trainer slots are in use: call dispose() on a trainer you no longer need (a trainer dropped without dispose() gives its slot back only once it is garbage-collected)`,
  19: 'the learning rate is not a positive finite number',
};
const TRAIN_KEYS = new Set(['task', 'seed', 'lr', 'optimizer', 'batch', 'dk', 'dv']);

// A trainer dropped without dispose() gives its Wasm slot back when it is garbage-collected
// (dispose() unregisters it, so a slot is never freed twice or under a newer trainer).
const DROPPED_TRAINERS = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((/** @type {{ exports: TrainCore, slot: number }} */ { exports, slot }) => exports.ae_train_free(slot))
  : null;

// A NUL-terminated string in Wasm memory.
/** @param {{ memory: WebAssembly.Memory }} exports @param {number} ptr */
export function cString(exports, ptr) {
  const bytes = new Uint8Array(exports.memory.buffer);
  let end = ptr;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(ptr, end));
}

/** @param {unknown} seed @returns {number} */
export function checkSeed(seed) {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed is ${describe(seed)}: it must be a whole number from 0 to 4294967295`);
  return seed;
}

/**
 * One head (Wq, Wk, Wv) and a read-out Wout learning a task; the training runs in Wasm.
 * Every array it returns is a copy (a fresh Float32Array or plain array): later steps never
 * change it. Heap views are re-made on every call, since a forward() may grow memory.
 */
export class Trainer {
  /** @type {TrainCore | null} */
  #ex;
  #slot;
  /** @type {{ exports: unknown } | null} */
  #owner; // the Attention it was made by: its dispose() ends this trainer too
  /**
   * @param {TrainCore} exports
   * @param {import('../../types/attention').TrainerOptions} options (checked here: it comes from the caller)
   * @param {{ exports: unknown } | null} owner
   */
  constructor(exports, options, owner) {
    if (!options || typeof options !== 'object') throw new Error('createTrainer needs an object like { task: "previous-token", seed: 1 }');
    for (const key in options) {
      if (!TRAIN_KEYS.has(key)) throw new Error(`createTrainer got an unknown option ${describe(key)}: the options are ${[...TRAIN_KEYS].join(', ')}`);
    }
    const { task = 'previous-token', seed = 1, lr = 0.01, optimizer = 'adam', batch = 16, dk = 8, dv = 8 } = options;
    const names = Array.from({ length: exports.ae_train_task_count() }, (_, t) => cString(exports, exports.ae_train_task_name(t)));
    const taskId = names.indexOf(/** @type {string} */ (task)); // -1 for anything but a task's name
    if (taskId < 0) throw new Error(`task is ${describe(task)}: the built-in tasks are ${names.map((x) => JSON.stringify(x)).join(', ')}`);
    const maxHead = exports.ae_train_max_head();
    for (const [name, v] of [['dk', dk], ['dv', dv]]) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > maxHead) throw new Error(`${name} is ${describe(v)}: a trained head's ${name} must be a whole number from 1 to ${maxHead}`);
    }
    checkSeed(seed);
    const slot = exports.ae_train_create(taskId, dk, dv, seed);
    if (slot < 0) {
      const e = new Error(`could not create a trainer: ${TRAIN_STATUS[-slot] ?? 'status ' + -slot}`);
      if (-slot === 18) Object.assign(e, { code: 'AE_TRAINER_SLOTS', slots: TRAIN_SLOTS });
      throw e;
    }
    this.#ex = exports;
    this.#slot = slot;
    this.#owner = owner;
    DROPPED_TRAINERS?.register(this, { exports, slot }, this);
    /** @type {TrainTask} */
    this.task = task;
    // set() below sets these (a read here declares their types for tsc)
    /** @type {number} */
    this.lr;
    /** @type {Optimizer} */
    this.optimizer;
    /** @type {number} */
    this.batch;
    try {
      this.set({ lr, optimizer, batch });
    } catch (e) {
      this.dispose();
      throw e;
    }
    const info = (/** @type {string} */ k) => exports.ae_train_info(slot, TI[k]);
    this.n = info('n'); // the longest sequence
    this.d = info('d');
    this.dk = dk;
    this.dv = dv;
    this.vocab = Array.from({ length: info('vocab') }, (_, v) => cString(exports, exports.ae_train_token_name(taskId, v)));
    const positions = info('positions');
    this.features = [...this.vocab, ...Array.from({ length: positions }, (_, i) => `pos ${i + 1}`)];
    this.seed = seed;
  }

  #live() {
    if (!this.#ex) throw new Error('this trainer was disposed: create a new one with attn.createTrainer()');
    if (this.#owner && !this.#owner.exports) {
      throw new Error('this trainer\'s Attention was disposed (attn.dispose()), and its trainers with it: load the core again with loadAttention() and create a new trainer');
    }
    return this.#ex;
  }
  /** @param {string} which @param {number} count */
  #floats(which, count) {
    const ex = this.#live();
    return new Float32Array(ex.memory.buffer, ex.ae_train_buffer(this.#slot, TB[which]), count).slice();
  }
  /** @param {string} which @param {number} count */
  #ints(which, count) {
    const ex = this.#live();
    return Array.from(new Int32Array(ex.memory.buffer, ex.ae_train_buffer(this.#slot, TB[which]), count));
  }

  /**
   * Changes any of { lr, optimizer: 'adam' | 'sgd', batch }; the others keep their values.
   * @param {{ lr?: number, optimizer?: Optimizer, batch?: number }} [options] (checked here)
   */
  set({ lr = this.lr, optimizer = this.optimizer, batch = this.batch, ...rest } = {}) {
    const ex = this.#live();
    for (const key of Object.keys(rest)) throw new Error(`set got an unknown option ${describe(key)}: the options are lr, optimizer, batch`);
    if (typeof lr !== 'number' || !(Math.fround(lr) > 0) || !Number.isFinite(Math.fround(lr))) {
      throw new Error(`lr is ${describe(lr)}: the learning rate must be a positive finite number, like 0.01`);
    }
    if (!OPTIMIZERS.includes(optimizer)) throw new Error(`optimizer is ${describe(optimizer)}: it must be "adam" or "sgd"`);
    const maxBatch = ex.ae_train_max_batch();
    if (!Number.isInteger(batch) || batch < 1 || batch > maxBatch) throw new Error(`batch is ${describe(batch)}: it must be a whole number of sequences from 1 to ${maxBatch}`);
    const st = ex.ae_train_set(this.#slot, lr, OPTIMIZERS.indexOf(optimizer), batch);
    if (st !== 0) throw new Error(`the trainer refused the settings (${TRAIN_STATUS[st] ?? 'status ' + st})`);
    this.lr = lr;
    this.optimizer = optimizer;
    this.batch = batch;
  }

  /**
   * k training steps (default 1). Returns a Float32Array of the k batch losses, each measured
   * before its step's update. Throws if training diverges (then lower the learning rate and
   * reset); the error's `losses` holds the losses of the steps this call did take.
   */
  step(k = 1) {
    const ex = this.#live();
    if (!Number.isInteger(k) || k < 0) throw new Error(`step(k): k is ${describe(k)}, it must be a whole number of steps >= 0`);
    const losses = new Float32Array(k);
    const chunk = ex.ae_train_loss_chunk();
    for (let done = 0; done < k; ) {
      const now = Math.min(chunk, k - done);
      const before = this.steps;
      const st = ex.ae_train_steps(this.#slot, now);
      if (st !== 0) {
        const taken = this.steps - before; // the C loop wrote the losses of the steps it took
        losses.set(new Float32Array(ex.memory.buffer, ex.ae_train_buffer(this.#slot, TB.losses), taken), done);
        const err = new Error(`training stopped at step ${this.steps}: ${TRAIN_STATUS[st] ?? 'status ' + st}; lower the learning rate (now ${this.lr}) and reset()`);
        throw Object.assign(err, { losses: losses.slice(0, done + taken) });
      }
      losses.set(new Float32Array(ex.memory.buffer, ex.ae_train_buffer(this.#slot, TB.losses), now), done);
      done += now;
    }
    return losses;
  }

  /** The last step's batch loss (NaN before the first step). */
  get loss() {
    return this.#live().ae_train_loss(this.#slot);
  }

  /** Steps taken since creation, reset() or reroll(). */
  get steps() {
    return this.#live().ae_train_info(this.#slot, TI.step);
  }

  /**
   * The model on a fixed set of held-out sequences (the same for every seed, never drawn for
   * training): { loss, attentionOnRight, accuracy, sequences }.
   */
  evaluate() {
    const ex = this.#live();
    const st = ex.ae_train_evaluate(this.#slot);
    if (st !== 0) throw new Error(`evaluation failed: ${TRAIN_STATUS[st] ?? 'status ' + st}`);
    const [loss, attentionOnRight, accuracy] = this.#floats('eval', 3);
    return { loss, attentionOnRight, accuracy, sequences: ex.ae_train_eval_sequences() };
  }

  /** Copies of the parameters: Wq [d*dk], Wk [d*dk], Wv [d*dv], Wout [dv*vocab], row-major. */
  weights() {
    const { d, dk, dv } = this, V = this.vocab.length;
    return { Wq: this.#floats('Wq', d * dk), Wk: this.#floats('Wk', d * dk), Wv: this.#floats('Wv', d * dv), Wout: this.#floats('Wout', dv * V) };
  }

  /**
   * Copies of the last step's mean gradients dLoss/dW, at the weights before that step's update
   * (all 0 before the first step): dWq, dWk, dWv, dWout, shaped like weights().
   */
  gradients() {
    const { d, dk, dv } = this, V = this.vocab.length;
    return { dWq: this.#floats('dWq', d * dk), dWk: this.#floats('dWk', d * dk), dWv: this.#floats('dWv', d * dv), dWout: this.#floats('dWout', dv * V) };
  }

  /** @param {unknown} seed */
  #example(seed) {
    const ex = this.#live();
    const n = ex.ae_train_example(this.#slot, checkSeed(seed));
    if (n < 0) throw new Error(`example failed: ${TRAIN_STATUS[-n] ?? 'status ' + -n}`);
    return n;
  }

  /**
   * One sequence of the task with the current weights, in the page's config format
   * (web/blocks/config.js): { tokens, features, X, Wq, Wk, Wv, causal: true, scale: null }, nested
   * arrays. seed picks the sequence (default 0; for find-the-noun, 0 is the lesson's
   * "the cat sat on the"). The read-out is not part of a config: see weights().Wout.
   * @param {{ seed?: number }} [options]
   * @returns {import('../../types/attention').TrainingExample}
   */
  example({ seed = 0 } = {}) {
    const n = this.#example(seed);
    const { d, dk, dv } = this;
    const rows = (/** @type {Float32Array} */ flat, /** @type {number} */ r, /** @type {number} */ c) => Array.from({ length: r }, (_, i) => Array.from(flat.subarray(i * c, (i + 1) * c)));
    const w = this.weights();
    return {
      tokens: this.#ints('exTokens', n).map((t) => this.vocab[t]),
      features: this.features.slice(),
      X: rows(this.#floats('exX', n * d), n, d),
      Wq: rows(w.Wq, d, dk),
      Wk: rows(w.Wk, d, dk),
      Wv: rows(w.Wv, d, dv),
      causal: true,
      scale: null,
    };
  }

  /**
   * What example({ seed }) should learn: target[i] is the token position i should predict
   * (null where it predicts nothing) and right[i] the key query i should attend to (null where
   * there is none).
   * @param {{ seed?: number }} [options]
   */
  answers({ seed = 0 } = {}) {
    const n = this.#example(seed);
    const target = this.#ints('exTargets', n).map((t) => (t < 0 ? null : this.vocab[t]));
    const right = this.#ints('exRight', n).map((j) => (j < 0 ? null : j));
    return { target, right };
  }

  /** Back to the same initial weights and training stream; settings are kept. */
  reset() {
    this.#live().ae_train_reset(this.#slot);
  }

  /** New initial weights (and training stream) from a new seed, then reset. @param {number} seed */
  reroll(seed) {
    checkSeed(seed);
    this.#live().ae_train_reroll(this.#slot, seed);
    this.seed = seed;
  }

  /** Frees the trainer's slot in Wasm (there are 8); the object must not be used afterwards. */
  dispose() {
    if (this.#ex) {
      DROPPED_TRAINERS?.unregister(this);
      this.#ex.ae_train_free(this.#slot);
    }
    this.#ex = null;
  }
}
