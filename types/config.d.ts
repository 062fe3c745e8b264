// Types of `attention-explorer/config` (web/blocks/config.js): the config format of a head (the same
// for the page's URL, files, the element's config attribute and the CLI), its strict parser and
// the page state in the URL.
import type { DirectArgs, ProjectedArgs } from './attention.js';

/** The projection form: X and the three projection matrices. */
export interface ProjectedConfig {
  /** n token names, shown literally (never as HTML); default "1", "2", ... */
  tokens: string[];
  /** d names of X's columns; default "f1", "f2", ... */
  features: string[];
  /** [n][d] */ X: number[][];
  /** [d][dk] */ Wq: number[][];
  /** [d][dk] */ Wk: number[][];
  /** [d][dv] */ Wv: number[][];
  /** token i may look only at tokens j <= i (default true) */
  causal: boolean;
  /** null = 1/√dk; a number > 0 replaces it */
  scale: number | null;
}
/** The direct form (the lesson's worked example): Q, K and V given. */
export interface DirectConfig {
  tokens: string[];
  /** [n][dk] */ Q: number[][];
  /** [n][dk] */ K: number[][];
  /** [n][dv] */ V: number[][];
  causal: boolean;
  scale: number | null;
}
/** A parsed, normalised config. */
export type Config = ProjectedConfig | DirectConfig;

/** What parseConfig accepts as an object: tokens, features, causal and scale may be left out. */
export type ConfigInput =
  | (Partial<Pick<ProjectedConfig, 'tokens' | 'features' | 'causal' | 'scale'>> & Pick<ProjectedConfig, 'X' | 'Wq' | 'Wk' | 'Wv'>)
  | (Partial<Pick<DirectConfig, 'tokens' | 'causal' | 'scale'>> & Pick<DirectConfig, 'Q' | 'K' | 'V'>);

/** A config the parser refused; the message says what to fix. */
export declare class ConfigError extends Error {}

/** The longest config text accepted, in characters (checked before parsing). */
export declare const MAX_JSON: number;
/** How long the element's src may take, in ms, before it gives up on it and says so. */
export declare const SRC_TIMEOUT_MS: number;
/** The longest token or feature name. */
export declare const MAX_NAME: number;
/** The longest message shown to a reader, in characters; longer text is cut with "…". */
export declare const MAX_MESSAGE: number;
/** `text` cut to at most `max` (default MAX_MESSAGE) characters, ending in "…" when it was cut. */
export declare function clipMessage(text: unknown, max?: number): string;
/** A value from a config, named briefly: strings quoted and clipped, containers by their kind. */
export declare function describeValue(v: unknown): string;
export declare const DEFAULT_LIMITS: { maxTokens: number; maxWidth: number };
/** The names a config gets where it gives none: tokens "1", "2", ..., features "f1", "f2", .... */
export declare const UNNAMED: Readonly<{ tokens: (i: number) => string; features: (i: number) => string }>;

/**
 * Parses and validates a config given as JSON text or as an object (untrusted input). Returns a
 * new, normalised config; throws ConfigError with a message that says what to fix.
 */
export declare function parseConfig(input: string | ConfigInput, limits?: { maxTokens: number; maxWidth: number }): Config;
/**
 * Reads a config as parseConfig does, and says how it was written: `pasted` is null for JSON text
 * or an object; for tensors as PyTorch or NumPy print them it says which settings the text gave
 * itself (causal: an is_causal= line; scale: a scale= line). Where it gave none,
 * scaled_dot_product_attention's defaults apply: no causal mask, scale 1/√dk.
 */
export declare function readConfig(input: string | ConfigInput, limits?: { maxTokens: number; maxWidth: number }): { config: Config; pasted: { causal: boolean; scale: boolean } | null };
export declare function isDirect(config: Config): config is DirectConfig;
/** The argument of attn.forward for a parsed config (scaleOverride replaces its scale). */
export declare function forwardArgs(config: DirectConfig, scaleOverride?: number | null): DirectArgs;
export declare function forwardArgs(config: ProjectedConfig, scaleOverride?: number | null): ProjectedArgs;
export declare function forwardArgs(config: Config, scaleOverride?: number | null): DirectArgs | ProjectedArgs;
/** A deep copy that serialises back to the config format. */
export declare function cloneConfig<C extends Config>(config: C): C;

/** The steps of a head, in order. */
export type Step = 'project' | 'score' | 'scale' | 'mask' | 'softmax' | 'mix';
export declare const STEPS: Step[];
/** The matrices the explorer draws. */
export type MatrixName = 'X' | 'Wq' | 'Wk' | 'Wv' | 'Q' | 'K' | 'V' | 'S' | 'M' | 'A' | 'O';
export declare const MATRICES: MatrixName[];

/** A selected cell: matrix, 0-based row and column. */
export interface Cell {
  m: MatrixName;
  i: number;
  j: number;
}
/** The page's state in its URL. */
/**
 * The geometry view's planes: two dimensions (counted from 0) of q and k, and of v and O; -1 as
 * the second is the line y = 0 of a width of 1.
 */
export interface Planes {
  qk: [number, number];
  v: [number, number];
}
export interface UrlState {
  preset: string | null;
  configText: string | null;
  /** The preset a changed head started as (so "Reset to the preset" still works). */
  from: string | null;
  step: Step | null;
  follow: number | null;
  cell: Cell | null;
  /** The theme the link asks for; null leaves the reader's own choice. */
  theme: 'light' | 'dark' | null;
  /** The geometry view's planes when the link shows it (geometry=on, or geometry=0.1.0.1), else null. */
  geometry: Planes | null;
  /** The step, follow, cell or theme the link gave that could not be read, each with why. */
  ignored: IgnoredParam[];
}
/** A link parameter left out: its name, the value as given and why (a phrase, no full stop). */
export interface IgnoredParam {
  name: string;
  value: string;
  why: string;
}
/** Reads the state from location.search and location.hash (the hash wins). */
/** The planes in a link's form: "on" for the first two dimensions of each, else "a.b.c.d". */
export declare function writePlanes(planes: Planes): string;
/** Reads writePlanes's form: the planes, or why the text is not one. */
export declare function readPlanes(text: string): { planes: Planes } | { why: string };
export declare function readUrlState(search: string | null | undefined, hash: string | null | undefined): UrlState;
/** The search + hash part of a link for a state (the inverse of readUrlState). */
export declare function writeUrlState(state: {
  preset?: string | null;
  config?: Config | null;
  from?: string | null;
  step?: Step | null;
  follow?: number | null;
  cell?: Cell | null;
  theme?: 'light' | 'dark' | null;
  geometry?: Planes | null;
}): string;
