// core-words.js: the words web/core/attention.js and web/core/trainer.js share: what each status
// code of the core means, and how a value the caller passed is named in a message.

// attn_status codes from c/attention.h. forward() checks its input before calling the core,
// so reaching one of these means a check here is missing: the message says so.
/** @type {Record<number, string>} */
export const STATUS = {
  1: 'a size is below 1 or past the limits',
  2: 'a buffer is missing',
  3: 'an input holds NaN or Infinity',
  4: 'the mask holds NaN or +Infinity',
  5: 'the scale is not a positive finite number',
  6: 'the values overflow float32',
  [-1]: 'the WebAssembly memory could not grow',
};

/** A value as an error message names it: a short quoted string, "an array", "a function"... @param {unknown} x */
export function describe(x) {
  if (typeof x === 'string') return JSON.stringify(x.length > 20 ? x.slice(0, 20) + '…' : x);
  if (typeof x === 'bigint') return `${x}n (a BigInt)`;
  if (typeof x === 'symbol') return 'a Symbol';
  if (typeof x === 'function') return 'a function';
  if (x instanceof DataView) return 'a DataView';
  if (x === null || x === undefined || typeof x !== 'object') return String(x);
  return Array.isArray(x) ? 'an array' : 'an object';
}
