// Types of `attention-explorer/presets` (web/blocks/presets.js): the heads a learner can pick.
import type { Config, ProjectedConfig } from './config.js';

// lists.mjs: PresetName (generated from web/blocks/presets.js by `node tools/lists.mjs`; edit the module, not these lines)
/** The built-in heads, by name (the keys of PRESETS). */
export type PresetName = 'cat' | 'worked-example' | 'previous-token';
// lists.mjs: end
export interface Preset {
  /** the name shown in the preset menu */
  title: string;
  /** one line on what the head does */
  note: string;
  /** the head, in the config format (parse it with parseConfig before use) */
  config: Config;
}
export declare const PRESETS: Readonly<Record<PresetName, Preset>>;
export declare const DEFAULT_PRESET: PresetName;
/** A random-looking but deterministic head of n tokens (for large inputs and benchmarks). */
export declare function syntheticConfig(n: number, d?: number, seed?: number): ProjectedConfig;
