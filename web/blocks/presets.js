// @ts-check
// presets.js: the heads a learner can pick. Each is a config in the format of config.js plus a
// title and a one-line note. Weights are hand-picked so they can be read, not learned.

/** @typedef {import('../../types/presets').Preset} Preset */
/** @typedef {import('../../types/presets').PresetName} PresetName */

/** @type {Readonly<Record<PresetName, Preset>>} */
export const PRESETS = {
  cat: {
    title: 'The cat sat on the',
    note: 'The toy head of the widget page “Queries, keys and values, step by step”. Features mean thing, action, small word and first token. Wq maps small word onto the first query dimension (“I’m looking for a thing”) and Wk maps thing onto that same dimension, so the last “the” looks at “cat”.',
    config: {
      tokens: ['The', 'cat', 'sat', 'on', 'the'],
      features: ['thing', 'action', 'small word', 'first token'],
      X: [
        [0, 0, 1, 1],
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 1, 0],
      ],
      // Rows are features, columns query dimensions: small word -> "looking for a thing",
      // action -> "looking for who does it".
      Wq: [
        [0, 0, 0, 0],
        [0, 2, 0, 0],
        [2, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      // thing -> "I am a thing" (dimension 1) and "I can do things" (dimension 2).
      Wk: [
        [1.5, 1.5, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      // Values pass the features on, things and actions at full strength.
      Wv: [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 0.5, 0],
        [0, 0, 0, 0.5],
      ],
      causal: true,
      scale: null,
    },
  },
  'worked-example': {
    title: 'The lesson’s worked example',
    note: 'Three tokens, width two, starting from Q = K and V directly, with no mask, as in the lesson’s table: weights 0.401 0.198 0.401 for token 1, outputs [1.604, 0.797].',
    config: {
      tokens: ['1', '2', '3'],
      Q: [[1, 0], [0, 1], [1, 1]],
      K: [[1, 0], [0, 1], [1, 1]],
      V: [[1, 0], [0, 2], [3, 1]],
      causal: false,
      scale: null,
    },
  },
  'previous-token': {
    title: 'A previous-token head',
    note: 'Features are positions. Wq turns “I am at position p” into “I am looking for position p − 1” and Wk says “I am at position p”, so each token attends mostly to the token just before it. Real heads learn this pattern.',
    config: {
      tokens: ['once', 'upon', 'a', 'time', 'there', 'was'],
      features: ['pos 1', 'pos 2', 'pos 3', 'pos 4', 'pos 5', 'pos 6'],
      X: identity(6),
      Wq: shift(6, 6),
      Wk: identity(6),
      Wv: identity(6),
      causal: true,
      scale: null,
    },
  },
};

/** @param {number} n @returns {number[][]} the n × n identity */
function identity(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}
// Row p (position p) puts weight w on column p - 1 (position p - 1).
/** @param {number} n @param {number} w @returns {number[][]} */
function shift(n, w) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === i - 1 ? w : 0)));
}

/** @type {PresetName} */
export const DEFAULT_PRESET = 'cat';

/**
 * A random-looking but deterministic head of n tokens (for large inputs and the benchmark).
 * @param {number} n @param {number} [d] @param {number} [seed]
 * @returns {import('../../types/config').ProjectedConfig}
 */
export function syntheticConfig(n, d = 8, seed = 1) {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.round(((s / 2 ** 32) * 2 - 1) * 100) / 100;
  };
  /** @param {number} r @param {number} c */
  const mat = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, rnd));
  return {
    tokens: Array.from({ length: n }, (_, i) => 't' + (i + 1)),
    features: Array.from({ length: d }, (_, i) => 'f' + (i + 1)),
    X: mat(n, d), Wq: mat(d, d), Wk: mat(d, d), Wv: mat(d, d),
    causal: true, scale: null,
  };
}
