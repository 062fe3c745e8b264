// Types that only tsc reads (JSDoc `import('./types').X`): the pages never load this file and
// the package does not ship it, so these cost the pages nothing. First the Wasm core's exports, as
// web/core/attention.js, web/core/trainer.js and web/core/induction-model.js call them: their types
// are generated from the table c/wasm_exports.def (tools/wasm-exports.mjs, make all) into
// web/gen/wasm-exports-types.d.ts; pointers are byte offsets into `memory`, a status is 0 (ok) or
// a key of words.js's STATUS. Then the shapes web/core/attention.js passes between its functions.

import type { ForwardExports as ForwardRows, TrainExports, InductionExports } from '../gen/wasm-exports-types';

/** The exports every core has: the table's AE_FORWARD rows, with the memory and emcc's constructor. */
interface ForwardExports extends ForwardRows {
  memory: WebAssembly.Memory;
  /** emcc's standalone-Wasm constructor, present in some builds */
  _initialize?: () => void;
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
