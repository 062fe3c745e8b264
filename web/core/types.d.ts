// Types that only tsc reads (JSDoc `import('./types').X`): the pages never load this file and
// the package does not ship it, so these cost the pages nothing. First the Wasm core's exports
// (c/wasm_exports.c), as web/core/attention.js, web/core/trainer.js and
// web/core/induction-model.js call them: pointers are byte offsets into `memory`, a status is 0
// (ok) or a key of core-words.js's STATUS. Then the shapes web/core/attention.js passes between its functions.

/** The exports every core has ('forward', 'trainer' and 'full'). */
interface ForwardExports {
  memory: WebAssembly.Memory;
  /** emcc's standalone-Wasm constructor, present in some builds */
  _initialize?: () => void;
  ae_max_tokens(): number;
  ae_max_width(): number;
  /** lays out the arena: status */
  ae_prepare(n: number, m: number, d: number, dk: number, dv: number, layout: number): number;
  /** byte offset of buffer `which` (the BUFFERS order) */
  ae_buffer(which: number): number;
  /** floats in buffer `which` (a C long) */
  ae_buffer_floats(which: number): number;
  ae_sdpa(hasMask: number, causal: number, scale: number): number;
  ae_forward(hasXkv: number, hasMask: number, causal: number, scale: number): number;
  ae_lab_buffer(which: number): number;
  ae_softmax_stable(m: number): number;
  ae_softmax_naive(m: number): number;
  ae_softmax_backward(m: number): number;
  ae_softmax_stats(m: number): number;
}

/** The trainers' exports ('trainer' and 'full' cores; c/train.h). */
interface TrainExports {
  ae_train_task_count(): number;
  /** a NUL-terminated string's byte offset */
  ae_train_task_name(task: number): number;
  ae_train_token_name(task: number, token: number): number;
  ae_train_max_head(): number;
  ae_train_max_batch(): number;
  ae_train_loss_chunk(): number;
  ae_train_eval_sequences(): number;
  /** a slot >= 0, or -1 when all are in use */
  ae_train_create(task: number, dk: number, dv: number, seed: number): number;
  ae_train_free(slot: number): void;
  ae_train_set(slot: number, lr: number, optimizer: number, batch: number): number;
  ae_train_steps(slot: number, k: number): number;
  ae_train_reset(slot: number): void;
  ae_train_reroll(slot: number, seed: number): void;
  ae_train_evaluate(slot: number): number;
  ae_train_example(slot: number, seed: number): number;
  ae_train_loss(slot: number): number;
  ae_train_info(slot: number, which: number): number;
  ae_train_buffer(slot: number, which: number): number;
}

/** The induction models' exports (the 'full' core; c/induction.h). */
interface InductionExports {
  ae_ind_token_name(token: number): number;
  ae_ind_loss_chunk(): number;
  ae_ind_eval_sequences(): number;
  ae_ind_slot_bytes(): number;
  ae_ind_memory_bytes(layers: number, heads: number, d: number, dh: number, n: number, vocab: number): number;
  ae_ind_create(layers: number, heads: number, d: number, dh: number, n: number, vocab: number, seed: number): number;
  ae_ind_free(slot: number): void;
  ae_ind_set(slot: number, lr: number, weightDecay: number, batch: number): number;
  ae_ind_ablate(slot: number, mask: number): number;
  ae_ind_steps(slot: number, k: number): number;
  ae_ind_reset(slot: number): void;
  ae_ind_reroll(slot: number, seed: number): void;
  ae_ind_evaluate(slot: number): number;
  ae_ind_composition(slot: number): number;
  ae_ind_example(slot: number, seed: number): number;
  ae_ind_key_split(slot: number, layer: number, head: number): number;
  ae_ind_loss(slot: number, which: number): number;
  ae_ind_info(slot: number, which: number): number;
  ae_ind_buffer(slot: number, which: number, index: number): number;
}

/** A loaded core: the training and induction exports are there only in the cores that have them. */
export type CoreExports = ForwardExports & Partial<TrainExports> & Partial<InductionExports>;
/** A core that trains (the Trainer is made only from one). */
export type TrainCore = ForwardExports & TrainExports;
/** The full core (an InductionModel is made only from one). */
export type FullCore = ForwardExports & TrainExports & InductionExports;

// ------------------------------------------------------------------ web/core/attention.js's own shapes

/** A value or row a caller gave, not yet checked. */
export type Given = ArrayLike<unknown>;
/** A matrix argument read once (matrixOf): flat `data` or `nested` rows, [rows][cols]. */
export type Mat =
  | { rows: number; cols: number; data: Given; nested: null }
  | { rows: number; cols: number; data: null; nested: Given[] };
/** forward()'s arguments checked and read once (planForward): sizes, and mats[k] named names[k].
 * One per instance, refilled by every call: slots are its six Mats, forms the fixed lists mats is one of. */
export interface Plan {
  direct: boolean; cross: boolean;
  n: number; m: number; d: number; dk: number; dv: number;
  names: string[]; ids: number[]; mats: Mat[];
  mask: Mat | null; scale: number; causal: boolean;
  slots: Mat[]; forms: { self: Mat[]; cross: Mat[]; direct: Mat[] };
}
/** The twelve result arrays in RESULT_ARRAYS order, null where not asked for. */
export type Arrays = (Float32Array | null)[];
/** A multiHead tensor checked and copied. */
export interface Checked { shape: number[]; data: ArrayLike<number> }
/** A mask tensor checked and copied: booleans or numbers. */
export interface CheckedMask { shape: number[]; data: ArrayLike<number | boolean> }
/** multiHead's arguments checked and read once (checkMultiHeadArgs). */
export interface MultiHeadArgs {
  Q: Checked; K: Checked; V: Checked; mask?: CheckedMask;
  qHeads?: number | null; kvHeads?: number | null; causal?: boolean; scale?: number | null;
}
/** The trainers' classes (web/core/trainer.js, web/core/induction-model.js). */
export interface Trainers {
  Trainer: typeof import('./trainer.js').Trainer;
  InductionModel: typeof import('./induction-model.js').InductionModel | null;
}
