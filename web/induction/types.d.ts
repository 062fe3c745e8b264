// Types that only tsc reads (JSDoc `import('./types').X`): the messages between the
// induction page (web/induction/panel.js) and its engine (web/induction/engine.js, in a Web
// Worker or on the page's thread), and the panel's elements. No page loads this file.
import type { Evaluation } from './words.js';

/** What the learner asked for: the engine's settings, sent back with every update. */
export interface InductionSettings {
  seed: number; lr: number; heads: number; ex: number; head: number | null; ablate: number[]; control: boolean;
}

/** A message to the engine (web/induction/engine.js, "Messages in"). */
export type EngineRequest =
  | { type: 'init'; settings: InductionSettings; steps: number }
  | { type: 'run' } | { type: 'pause' } | { type: 'reset' }
  | { type: 'step'; k: number } | { type: 'reroll'; seed: number }
  | { type: 'show'; ex: number; head: number | null; ablate: number[] }
  | { type: 'control'; on: boolean } | { type: 'lr'; lr: number } | { type: 'heads'; heads: number }
  | { type: 'bench'; k: number; heads?: number };

/** The head the learner opened: its weights and what it read, from the core. */
export interface HeadView {
  index: number;
  /** [n*d] the residual stream the head reads; Wq, Wk, Wv [d*dh]; Q, K [n*dh]; S [n*n] */
  X: Float32Array; Wq: Float32Array; Wk: Float32Array; Wv: Float32Array;
  Q: Float32Array; K: Float32Array; S: Float32Array;
  gradients: { Wq: Float32Array; Wk: Float32Array; Wv: Float32Array };
  /** the parts X is the sum of: the embedding and position, then every earlier head's output */
  embedding: Float32Array;
  earlier: { name: string; C: Float32Array; ablated: boolean }[];
  /** a layer-2 head's K split by source [n*dh] each (they add up to K); null in layer 1 */
  split: Float32Array[] | null;
}

/** What the page shows for the current weights: one sequence run through both models. */
export interface ModelView {
  tokens: string[]; part: number[]; induct: number[]; k: number;
  /** each head's A [n*n], and the one-layer control's (null without it) */
  A: Float32Array[]; controlA: Float32Array[] | null;
  /** the held-out numbers with the ablated heads left out (null: none ablated) */
  without: { lossFirst: number; lossRepeat: number; accuracy: number; induction: number[] } | null;
  /** the same sequence with no head ablated: every head's A, each layer-2 head's copy readout
   * (null for layer 1 and without a repeated part), and the token names by id */
  full: { A: Float32Array[]; copy: (import('./words.js').CopyReadout | null)[]; names: string[] };
  head?: HeadView;
}

/** The engine's state after every change ("update"). */
export interface InductionUpdate {
  type: 'update';
  settings: InductionSettings;
  step: number;
  weightsHash: string;
  running: boolean;
  /** steps a second while training */
  rate: number;
  /** the last step's batch losses; null at step 0 */
  loss: { all: number; first: number; repeat: number } | null;
  /** one loss per step since step 0 */
  losses: { first: Float32Array; repeat: Float32Array; control: Float32Array };
  evals: Evaluation[];
  view: ModelView;
  /** init: the steps replayed to reach a link's step */
  replayed?: number;
}

/** What a "bench" request measures (make bench). */
export interface BenchResult { type: 'bench'; k: number; heads: number; ms: number; stepsPerSecond: number }

/** A message from the engine. */
export type EngineMessage = InductionUpdate | BenchResult | { type: 'error'; message: string };

/** Where the engine runs: a Web Worker, or the page's thread. */
export interface Runner { kind: 'worker' | 'page'; post(msg: EngineRequest): void; dispose(): void }

/** The panel's elements whose id names more than an HTMLElement (the markup is a constant). */
export interface Controls {
  'ind-curve': SVGSVGElement; 'ind-kcomp': SVGSVGElement;
  'ind-lr': HTMLSelectElement; 'ind-heads': HTMLSelectElement; 'ind-query': HTMLSelectElement; 'ind-control': HTMLInputElement;
}
/** An element of the panel by its id. */
export type Lookup = <K extends string>(id: K) => K extends keyof Controls ? Controls[K] : HTMLElement;
