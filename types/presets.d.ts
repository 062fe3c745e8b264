// Types of `attention-explorer/presets` (web/blocks/presets.js): the heads a learner can pick.
import type { Config, ProjectedConfig } from './config.js';

export type PresetName = 'cat' | 'worked-example' | 'previous-token';
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
