// random.js: seeded random numbers for the labs (the same mulberry32 the tests use), so a seed
// in the URL always gives the same queries, keys and weights.

/**
 * mulberry32: returns a function giving numbers in [0, 1).
 * @param {number} seed @returns {() => number}
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A Float32Array of `count` numbers with mean 0 and variance 1 (Box–Muller).
 * @param {() => number} rand @param {number} count
 */
export function normals(rand, count) {
  const out = new Float32Array(count);
  for (let k = 0; k < count; k += 2) {
    const u = 1 - rand(), v = rand(); // u in (0, 1]: log(u) is finite
    const r = Math.sqrt(-2 * Math.log(u));
    out[k] = r * Math.cos(2 * Math.PI * v);
    out[k + 1] = r * Math.sin(2 * Math.PI * v); // past the end when count is odd: a typed array ignores it
  }
  return out;
}

/**
 * An integer query parameter in [lo, hi], or `fallback` when absent or not a whole number.
 * @param {URLSearchParams} params @param {string} key @param {number} lo @param {number} hi @param {number} fallback
 */
export function intParam(params, key, lo, hi, fallback) {
  const t = params.get(key);
  if (!/^-?\d+$/.test(String(t))) return fallback; // absent: "null"
  return Math.min(hi, Math.max(lo, Number(t)));
}

/**
 * One of `choices`, or `fallback`.
 * @template {string} T @param {URLSearchParams} params @param {string} key @param {readonly T[]} choices @param {T} fallback @returns {T}
 */
export function oneOf(params, key, choices, fallback) {
  const t = params.get(key);
  return /** @type {readonly (string | null)[]} */ (choices).includes(t) ? /** @type {T} */ (t) : fallback;
}
