// Types of `attention-explorer` (web/core/attention.js): the core that computes one attention head in
// WebAssembly. docs/api.md is the full contract; these declarations follow it.
// Shapes use the project legend: n query tokens, m key/value tokens, d model width, dk
// query/key width, dv value width. Flat arrays are row-major: [i][j] is at i*cols + j.

/** A matrix: an array of equal-length rows, or a flat row-major array with its shape. */
export type Matrix = ReadonlyArray<ArrayLike<number>> | FlatMatrix;
/** A flat matrix: `data` holds rows × cols numbers, row after row. */
export interface FlatMatrix {
  shape: readonly [rows: number, cols: number];
  data: ArrayLike<number>;
}
/**
 * A mask [n][m]: booleans (true = may attend) or numbers added to the scores (-Infinity
 * removes a key), nested or flat.
 */
export type Mask =
  | ReadonlyArray<ArrayLike<boolean>>
  | ReadonlyArray<ArrayLike<number>>
  | { shape: readonly [rows: number, cols: number]; data: ArrayLike<boolean> | ArrayLike<number> };

interface HeadOptions {
  /** Query i sees only keys j <= i (top-left aligned when n != m). Default false. */
  causal?: boolean;
  mask?: Mask | null;
  /** A number > 0; default (null or left out) 1/√dk. */
  scale?: number | null;
}
/** The projection form: Q = X·Wq, K = Xkv·Wk, V = Xkv·Wv (Xkv defaults to X: self-attention). */
export interface ProjectedArgs extends HeadOptions {
  /** [n][d] */ X: Matrix;
  /** [d][dk] */ Wq: Matrix;
  /** [d][dk] */ Wk: Matrix;
  /** [d][dv] */ Wv: Matrix;
  /** [m][d]: cross-attention, K and V come from this sequence. */
  Xkv?: Matrix | null;
  Q?: undefined; K?: undefined; V?: undefined;
}
/** The direct form: Q, K and V given. */
export interface DirectArgs extends HeadOptions {
  /** [n][dk] */ Q: Matrix;
  /** [m][dk] */ K: Matrix;
  /** [m][dv] */ V: Matrix;
  X?: undefined; Xkv?: undefined; Wq?: undefined; Wk?: undefined; Wv?: undefined;
}
export type ForwardArgs = ProjectedArgs | DirectArgs;

/** The arrays a result can hold, in forward's `outputs` option. */
export type ResultArray = 'X' | 'Xkv' | 'Wq' | 'Wk' | 'Wv' | 'Q' | 'K' | 'V' | 'S' | 'M' | 'A' | 'O';

/**
 * forward's result. Every array is a copy (later calls never change it): views into one private
 * copy, so transfer r.A.slice(), not r.A.buffer. The inputs X ... Wv are null in the direct form.
 */
/** The running state of a tile's query rows: per row the maximum score so far, the sum of exp(score − max), the output so far (rows × dv). */
export interface TileState { max: Float32Array; sum: Float32Array; out: Float32Array }
/** One tile of the walk: query rows q0 .. q0+rows−1 against keys k0 .. k0+keys−1; a skipped tile (wholly hidden by the causal mask) has no numbers. */
export interface TileStep {
  q0: number; rows: number; k0: number; keys: number; skipped: boolean;
  before: TileState | null; after: TileState | null;
  /** rows × keys: the scores plus the mask (−Infinity where the causal mask hides the key), and p = exp(z − max) */
  z: Float32Array | null; p: Float32Array | null;
  /** per row: exp(max_old − max_new), and the factor alpha·sum_old / sum_new the output so far was multiplied by */
  alpha: Float32Array | null; rescale: Float32Array | null;
}
/** Attention.tileWalk's result: the steps in the core's order, the walk's O, and the fused form's O of the same head. */
export interface TileWalk { n: number; m: number; dv: number; queryTile: number; keyTile: number; steps: TileStep[]; O: Float32Array; fusedO: Float32Array }

export interface ForwardResult {
  n: number;
  m: number;
  /** null in the direct form */
  d: number | null;
  dk: number;
  dv: number;
  /** the scale used */
  scale: number;
  causal: boolean;
  /** [n*d] */ X: Float32Array | null;
  /** [m*d]: the same array as X in self-attention */ Xkv: Float32Array | null;
  /** [d*dk] */ Wq: Float32Array | null;
  /** [d*dk] */ Wk: Float32Array | null;
  /** [d*dv] */ Wv: Float32Array | null;
  /** [n*dk] */ Q: Float32Array;
  /** [m*dk] */ K: Float32Array;
  /** [m*dv] */ V: Float32Array;
  /** [n*m]: scale·Q·Kᵀ before the mask */ S: Float32Array;
  /** [n*m]: the additive mask used: 0 = may look, -Infinity = masked */ M: Float32Array;
  /** [n*m]: softmax by row of S + M; masked weights exactly 0, a fully masked row all 0 */ A: Float32Array;
  /** [n*dv] = A·V */ O: Float32Array;
}
/** A result with only the arrays named in `outputs`; the others are null. */
export type SomeResult<K extends ResultArray> = Omit<ForwardResult, ResultArray> &
  { [P in ResultArray]: P extends K ? ForwardResult[P] : null };

/** A tensor in ONNX layout: 4-D [batch, heads, len, size] or 3-D [batch, len, heads·size]. */
export interface Tensor {
  shape: readonly number[];
  data: ArrayLike<number>;
}
export interface MultiHeadArgs {
  Q: Tensor;
  K: Tensor;
  V: Tensor;
  /** Required for 3-D tensors; read from the shapes for 4-D. */
  qHeads?: number;
  kvHeads?: number;
  /** Broadcast against [batch, qHeads, qLen, kvLen] (numpy rules). */
  mask?: { shape: readonly number[]; data: ArrayLike<boolean> | ArrayLike<number> } | null;
  causal?: boolean;
  scale?: number | null;
}

export interface SoftmaxSteps {
  weights: Float32Array;
  /** exp(s − shift) (stable) or exp(s) (naive) */
  terms: Float32Array;
  /** the row max (stable) or 0 (naive) */
  shift: number;
  /** Σ terms */
  sum: number;
}
export interface SoftmaxStats {
  maxWeight: number;
  /** in nats */
  entropy: number;
  /** ‖diag(a) − a·aᵀ‖_F, 0 when one-hot */
  gradNorm: number;
}

export type TrainTask = 'previous-token' | 'find-the-noun';
export type Optimizer = 'adam' | 'sgd';
export interface TrainerOptions {
  task?: TrainTask;
  /** 0 .. 2^32−1: the initial weights and the training stream */
  seed?: number;
  /** learning rate, > 0 */
  lr?: number;
  optimizer?: Optimizer;
  /** sequences per step (1..256) */
  batch?: number;
  /** head widths (1..16) */
  dk?: number;
  dv?: number;
}
export interface Evaluation {
  loss: number;
  /** mean weight on the right key over queries that have one */
  attentionOnRight: number;
  accuracy: number;
  /** held-out sequences evaluated (256) */
  sequences: number;
}
export interface TrainerWeights {
  /** [d*dk] */ Wq: Float32Array;
  /** [d*dk] */ Wk: Float32Array;
  /** [d*dv] */ Wv: Float32Array;
  /** [dv*vocab] */ Wout: Float32Array;
}
export interface TrainerGradients {
  dWq: Float32Array;
  dWk: Float32Array;
  dWv: Float32Array;
  dWout: Float32Array;
}
/** One sequence of a task in the config format (attention-explorer/config), nested arrays. */
export interface TrainingExample {
  tokens: string[];
  features: string[];
  X: number[][];
  Wq: number[][];
  Wk: number[][];
  Wv: number[][];
  causal: true;
  scale: null;
}

/** createInduction's options (docs/api.md, "Induction"); each has a default. */
export interface InductionOptions {
  /** 1 or 2 (1 is the control: no earlier layer for K-composition); default 2 */
  layers?: number;
  /** per layer, 1..4; default 2 */
  heads?: number;
  /** residual width, even, 2..64; default 32 */
  d?: number;
  /** each head's Q/K/V width, 1..32; default 16 */
  dh?: number;
  /** context, 5..64; default 32 */
  n?: number;
  /** BOS + words (vocab - 1 >= max(2, n / 4), the longest period); default 28 */
  vocab?: number;
  /** 0 .. 2^32−1: the initial weights and the training stream; default 1 */
  seed?: number;
  /** AdamW's learning rate, above 0 and at most 1; default 0.01 */
  lr?: number;
  /** at least 0; default 0.01 */
  weightDecay?: number;
  /** sequences per step (1..64); default 16 */
  batch?: number;
}

/** One layer's heads in InductionModel.weights(); gradients() has the same shapes. */
export interface InductionHeadWeights {
  /** [d*dh] */ Wq: Float32Array;
  /** [d*dh] */ Wk: Float32Array;
  /** [d*dh] */ Wv: Float32Array;
  /** [dh*d] */ Wo: Float32Array;
}
/** One sequence run forward (InductionModel.example). */
export interface InductionExample {
  seed: number;
  /** token names */
  tokens: string[];
  ids: number[];
  /** the token each position should predict, -1 for none */
  targets: number[];
  /** 0 none, 1 the first part, 2 the repeated part */
  part: number[];
  /** the key an induction head should attend to, or -1 */
  induct: number[];
  /** the period */
  k: number;
  /** the residual stream before each layer and after the last: layers + 1 arrays of n*d */
  X: Float32Array[];
  /** per head (index l*H + h): Q, K, V, O [n*dh], S, A [n*n], C = O·Wo [n*d] */
  heads: { Q: Float32Array; K: Float32Array; V: Float32Array; O: Float32Array; S: Float32Array; A: Float32Array; C: Float32Array }[];
  /** [n*vocab] the next-token probabilities */
  probs: Float32Array;
}
/**
 * An attention-only transformer of 1 or 2 layers learning repeated random tokens in Wasm, in
 * which an induction head forms (docs/api.md, "Induction"). Heads are numbered l*H + h.
 */
export interface InductionModel {
  readonly layers: number;
  /** heads per layer */
  readonly heads: number;
  readonly d: number;
  readonly dh: number;
  readonly n: number;
  readonly vocab: number;
  readonly seed: number;
  readonly lr: number;
  readonly weightDecay: number;
  readonly batch: number;
  /** 'BOS', 'A', 'B', ... */
  readonly tokenNames: string[];
  /** layers × heads */
  readonly headCount: number;
  readonly steps: number;
  /** the last step's batch losses (NaN before the first step) */
  readonly loss: { all: number; first: number; repeat: number };
  /** the heads ablate() left out */
  readonly ablated: number[];
  readonly parameterCount: number;
  /** k steps (default 1): each step's batch loss on the first and the repeated part. */
  step(k?: number): { first: Float32Array; repeat: Float32Array };
  evaluate(): { lossFirst: number; lossRepeat: number; accuracy: number; sequences: number; prev: number[]; induction: number[] };
  /** K-composition [a][b] from layer-1 head a to layer-2 head b; null for one layer. */
  composition(): number[][] | null;
  ablate(heads?: Iterable<number>): void;
  example(seed?: number): InductionExample;
  /** After example(): head (layer, head)'s K split by source; the parts add up to K. */
  keySplit(layer: number, head: number): { from: 'embedding' | number; K: Float32Array }[];
  weights(): { E: Float32Array; P: Float32Array; heads: InductionHeadWeights[] };
  gradients(): { E: Float32Array; heads: InductionHeadWeights[] };
  /** every parameter in one array, to compare runs bit for bit */
  parameters(): Float32Array;
  set(options: { lr?: number; weightDecay?: number; batch?: number }): void;
  reset(): void;
  reroll(seed: number): void;
  /** Frees the model's slot (there are 4); the object must not be used afterwards. */
  dispose(): void;
}

/** One head and a read-out learning a built-in task; the training runs in Wasm. */
export interface Trainer {
  readonly task: TrainTask;
  readonly seed: number;
  readonly lr: number;
  readonly optimizer: Optimizer;
  readonly batch: number;
  /** the longest sequence */
  readonly n: number;
  readonly d: number;
  readonly dk: number;
  readonly dv: number;
  /** token names */
  readonly vocab: string[];
  /** names of X's columns: the vocabulary, then 'pos 1' ... */
  readonly features: string[];
  /** the last step's batch loss (NaN before the first step) */
  readonly loss: number;
  /** steps since creation, reset() or reroll() */
  readonly steps: number;
  /** k steps (default 1): the k batch losses; throws if training diverges. */
  step(k?: number): Float32Array;
  evaluate(): Evaluation;
  weights(): TrainerWeights;
  gradients(): TrainerGradients;
  example(options?: { seed?: number }): TrainingExample;
  answers(options?: { seed?: number }): { target: (string | null)[]; right: (number | null)[] };
  set(options: { lr?: number; optimizer?: Optimizer; batch?: number }): void;
  reset(): void;
  reroll(seed: number): void;
  /** Frees the trainer's slot (there are 8); the object must not be used afterwards. */
  dispose(): void;
}

/** A loaded core. Throws Error with a message naming the input and the fix on bad input. */
export interface Attention {
  /** true when the SIMD build was chosen */
  readonly simd: boolean;
  /** which core was loaded: 'forward' cannot train (createTrainer throws), 'trainer' has no createInduction; null once disposed */
  readonly core: 'full' | 'trainer' | 'forward' | null;
  forward(args: ForwardArgs): ForwardResult;
  /**
   * outputs: the arrays to copy out (['O'] alone runs the fused form, FlashAttention's tiling: no
   * n×m matrix is stored, n and m up to LIMITS.maxTokensFused, O the long form's to float32 rounding).
   * into: an earlier result whose arrays are overwritten in place; that same object is returned.
   */
  forward<K extends ResultArray>(args: ForwardArgs, options: { outputs: readonly K[]; into?: SomeResult<K> | ForwardResult | null }): SomeResult<K>;
  forward(args: ForwardArgs, options?: { outputs?: readonly ResultArray[] | null; into?: ForwardResult | null }): ForwardResult;
  /** Several heads / grouped-query attention; the result has Q's layout. */
  multiHead(args: MultiHeadArgs): { shape: number[]; data: Float32Array };
  /** The fused form's walk, tile by tile, for the FlashAttention lab: every step's running state and numbers (the trainer or full core). */
  tileWalk(args: ForwardArgs, tiles: { queryTile: number; keyTile: number }): TileWalk;
  /** One softmax row computed by the core; naive: exp(s)/Σexp(s) straight in float32. */
  softmaxRow(scores: ArrayLike<number>, options?: { naive?: boolean }): Float32Array;
  softmaxSteps(scores: ArrayLike<number>, options?: { naive?: boolean }): SoftmaxSteps;
  /** dLoss/ds = a·(grad − Σ a·grad) */
  softmaxBackward(weights: ArrayLike<number>, grad: ArrayLike<number>): Float32Array;
  softmaxStats(weights: ArrayLike<number>): SoftmaxStats;
  createTrainer(options?: TrainerOptions): Trainer;
  /** The full core only (a 'trainer' or 'forward' core throws). */
  createInduction(options?: InductionOptions): InductionModel;
  /** bytes of Wasm memory */
  memoryBytes(): number;
  /** The working buffers the last forward() laid out, in bytes (the fused form has no S, M, A, only work). */
  workspace(): { total: number; buffers: Record<ResultArray | 'mask' | 'Kt' | 'work', number> };
  /** Drops the instance; the object must not be used afterwards. */
  dispose(): void;
}

/** n, m <= maxTokens (the long form), <= maxTokensFused (outputs: ['O'] alone, and multiHead); d, dk, dv <= maxWidth; batch × heads <= maxHeads in one multiHead call. */
export declare const LIMITS: Readonly<{ maxTokens: 512; maxTokensFused: 8192; maxWidth: 256; maxHeads: 64 }>;

/**
 * Loads the core (no fetch: the Wasm is inside the module). simd: 'auto' (default) picks the
 * SIMD build where the engine has it; true or false forces one. core: 'full' (default); 'trainer'
 * (no createInduction) or 'forward' (no createTrainer either: half the download) load less.
 */
export declare function loadAttention(options?: { simd?: 'auto' | boolean; core?: 'full' | 'trainer' | 'forward' }): Promise<Attention>;
