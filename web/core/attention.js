// attention.js: the one module that owns the WebAssembly core's memory.
//
// It loads the C core (c/*.c, compiled to Wasm and inlined as base64 in ES modules under gen/,
// so no .wasm file has to be found or fetched), checks every input in the caller's
// terms, copies the inputs into Wasm memory, runs one head and hands back copies of every
// intermediate. Works unchanged in browsers and in Node 20+.
//
// Shapes use the project legend: n query tokens, m key/value tokens, d model width,
// dk query/key width, dv value width. Matrices are row-major Float32Arrays: [i][j] is at i*cols + j.
// The full API is documented in docs/api.md.

import { wasmBytes } from '../gen/wasm-source.js';
import { BUFFERS, LAB_BUFFERS, TILE_BUFFERS, L_FUSED, L_MASK, MAX_TOKENS_FUSED, TILE_KEYS, TILE_ROWS } from '../gen/wasm-exports.js';
import { STATUS, describe } from './words.js';

// The shapes below are declared in web/core/types.d.ts (tsc reads it; the page never loads it).
/** @typedef {import('./types').CoreExports} CoreExports @typedef {import('../../types/attention').ResultArray} ResultArray */
/** @typedef {import('./types').Given} Given @typedef {import('./types').Mat} Mat @typedef {import('./types').Plan} Plan */
/** @typedef {import('./types').Arrays} Arrays @typedef {import('./types').Trainers} Trainers */
/** @typedef {import('./types').Checked} Checked @typedef {import('./types').CheckedMask} CheckedMask @typedef {import('./types').MultiHeadArgs} MultiHeadArgs */
/** forward()'s options read once. @typedef {{ outputs: readonly string[] | null, into: Result | null, fused: boolean }} Options */

// maxTokens bounds n and m of the long form (every n×m matrix kept); the fused form (outputs:
// ['O'] alone, and multiHead) keeps none and takes up to maxTokensFused (c/attention.h).
export const LIMITS = Object.freeze({ maxTokens: 512, maxTokensFused: MAX_TOKENS_FUSED, maxWidth: 256, maxHeads: 64 });
/** The limit on n and m, and what to do past it, for the long or the fused form. @param {boolean} fused */
const tokenLimit = (fused) => (fused ? LIMITS.maxTokensFused : LIMITS.maxTokens);
const SHORTER = 'use a shorter sequence';
const SHORTER_OR_O = `use a shorter sequence, or ask for O alone (outputs: ['O']), which takes up to ${MAX_TOKENS_FUSED}`;
/** @param {boolean} fused */
const shorter = (fused) => (fused ? SHORTER : SHORTER_OR_O);

// Buffer ids (BUFFERS: the table c/wasm_exports.def, in arena order: the buffers a result returns
// come first, one after another, then the scratch ones), and the lab rows' ids.
const BUF = Object.fromEntries(BUFFERS.map((name, i) => [name, i]));
const LAB = Object.fromEntries(LAB_BUFFERS.map((name, i) => [name, i]));
const TILE = Object.fromEntries(TILE_BUFFERS.map((name, i) => [name, i]));

const NONFINITE = 3, BAD_MASK = 4, OVERFLOW = 6;
const SLAB_FLOATS = 65536;

// A 29-byte module whose one function returns i8x16.splat(0): WebAssembly.validate accepts it
// only where the engine has SIMD, so the SIMD build is chosen without loading it first.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);

// The cores (Makefile), each in a SIMD and a scalar build: each does all that the ones before it
// do. 'forward': forward, multiHead and the softmax rows, half the size of 'full' (the explorer and
// labs pages); 'trainer': also createTrainer (the training page); 'full': also createInduction.
/** @type {readonly unknown[]} */
const CORES = ['forward', 'trainer', 'full'];

/**
 * Loads the core. `simd`: 'auto' (default) picks the SIMD build when WebAssembly.validate
 * accepts it and the scalar build otherwise; true or false forces one. `core`: 'full' (default),
 * or 'trainer' or 'forward' for a smaller download that does less (CORES).
 * @param {{ simd?: 'auto' | boolean, core?: 'full' | 'trainer' | 'forward' }} [options]
 * @returns {Promise<import('../../types/attention').Attention>}
 */
export async function loadAttention({ simd = 'auto', core = 'full' } = {}) {
  if (!CORES.includes(core)) throw new Error(`core is ${describe(core)}: use one of ${CORES.map((c) => `'${c}'`).join(', ')} (or leave it out for 'full')`);
  const useSimd = simd === 'auto' ? WebAssembly.validate(SIMD_PROBE) : Boolean(simd);
  // The trainers' part of this module (web/core/trainer.js) comes with the cores that
  // train, the induction models' (web/core/induction-model.js) with the full core.
  const parts = (/** @type {boolean} */ induction) => Promise.all([import('./trainer.js'), induction ? import('./induction-model.js') : null])
    .then(([t, i]) => ({ Trainer: t.Trainer, InductionModel: i && i.InductionModel }));
  const trainers = core !== 'forward' ? parts(core === 'full') : null;
  trainers?.catch(() => {}); // loaded alongside the Wasm: if that fails first, this one's failure is not unhandled
  const bytes = await wasmBytes(useSimd, core); // gzip-compressed in the module, inflated here (web/core/gunzip.js)
  const { instance } = await WebAssembly.instantiate(/** @type {BufferSource} */ (bytes), {});
  const exports = /** @type {CoreExports} */ (/** @type {unknown} */ (instance.exports));
  if (exports._initialize) exports._initialize();
  return new Attention(exports, useSimd, trainers && await trainers);
}

// ------------------------------------------------------------------ input checking

// A matrix argument: a nested array (rows of numbers, or of booleans for a mask), or
// { shape: [rows, cols], data }. Fills and returns `out`, a Mat of the plan, without copying.
/** @param {string} name @param {unknown} v @param {Mat} out @returns {Mat} */
function matrixOf(name, v, out) {
  if (v && !Array.isArray(v) && typeof v === 'object' && 'shape' in v) {
    const { shape, data } = /** @type {{ shape: unknown, data?: { length?: unknown } }} */ (v);
    if (!Array.isArray(shape) || shape.length !== 2 || !Number.isInteger(shape[0]) || !Number.isInteger(shape[1])) {
      throw new Error(`${name}.shape must be [rows, cols] with whole numbers, got ${Array.isArray(shape) ? `[${shape.slice(0, 4).map(describe).join(', ')}${shape.length > 4 ? ', …' : ''}]` : describe(shape)}`);
    }
    const rows = shape[0], cols = shape[1];
    if (rows < 1 || cols < 1) throw new Error(`${name} is empty (shape [${rows}, ${cols}]): it needs at least one row and one column`);
    if (!data || typeof data.length !== 'number') throw new Error(`${name}.data must be an array or Float32Array of ${rows}×${cols} values`);
    if (data.length !== rows * cols) {
      throw new Error(`${name}.data has ${countOf(data.length, 'value')} but shape [${rows}, ${cols}] needs ${rows * cols}`);
    }
    return fillMat(out, rows, cols, /** @type {Given} */ (data), null);
  }
  if (!Array.isArray(v)) {
    throw new Error(`${name} must be a matrix: an array of rows, like [[1, 0], [0, 1]], or { shape: [rows, cols], data }`);
  }
  if (v.length === 0) throw new Error(`${name} is empty: it needs at least one row and one column`);
  // Each row is read once: a getter or a Proxy that answers differently the second time cannot
  // make the rows checked here differ from the rows written.
  const nested = Array.from(v);
  if (!isRow(nested[0])) {
    throw new Error(`${name} must be an array of rows: ${name}[0] is ${describe(nested[0])}, not an array or a typed array such as Float32Array`);
  }
  const cols = nested[0].length;
  if (cols === 0) throw new Error(`${name} is empty: its rows have no numbers; it needs at least one column`);
  for (let i = 1; i < nested.length; i++) {
    const row = nested[i];
    if (!isRow(row)) throw new Error(`${name}[${i}] is ${describe(row)}, not a row of numbers: every row of ${name} must be an array`);
    if (row.length !== cols) {
      throw new Error(`${name} is ragged: row ${i} has ${countOf(row.length, 'value')} but row 0 has ${cols}; every row needs the same length`);
    }
  }
  return fillMat(out, nested.length, cols, null, nested);
}

/** @param {Mat} mat @param {number} rows @param {number} cols @param {Given | null} data @param {Given[] | null} nested */
function fillMat(mat, rows, cols, data, nested) {
  const m = /** @type {{ rows: number, cols: number, data: Given | null, nested: Given[] | null }} */ (mat);
  m.rows = rows; m.cols = cols; m.data = data; m.nested = nested;
  return mat;
}

// A row of a nested matrix: an array or a typed array (a DataView has no elements to index).
/** @type {(r: unknown) => r is Given} */
const isRow = (r) => Array.isArray(r) || (ArrayBuffer.isView(r) && !(r instanceof DataView));

// "1 value", "3 values": a count and its noun, for the messages.
/** @param {number} n @param {string} noun */
const countOf = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** @param {string} name @param {number} count @param {string} what @param {number} limit @param {string} fix */
function checkSize(name, count, what, limit, fix) {
  if (count > limit) throw new Error(`${name} has ${count} ${what} but at most ${limit} are supported: ${fix}`);
}

/** @param {string} name @param {number} i @param {number} j @param {unknown} x */
function badValue(name, i, j, x) {
  if (typeof x !== 'number') return new Error(`${name}[${i}][${j}] is ${describe(x)}, not a number: every value of ${name} must be a number`);
  if (Number.isFinite(x)) {
    return new Error(`${name}[${i}][${j}] is ${x}, past float32's range: every value of ${name} must lie within about ±3.4e38`);
  }
  return new Error(`${name}[${i}][${j}] is ${x}: every value of ${name} must be a finite number`);
}

// Copies a matrix into heap at float offset `at`. This runs on every call, so it checks only
// that every value is a number: Float32Array and Float64Array data (numbers by construction)
// go in with one heap.set. Whether the values are finite in float32 the core checks for all
// inputs at once, and nonFiniteError() then names the first bad one.
/** @param {string} name @param {Mat} mat @param {Float32Array} heap @param {number} at */
function writeMatrix(name, mat, heap, at) {
  const { rows, cols, data, nested } = mat;
  if (data) {
    if (data.length !== rows * cols) throw resized(name, data.length, rows * cols);
    if (data instanceof Float32Array || data instanceof Float64Array) {
      heap.set(data, at);
      return;
    }
    for (let t = 0, count = rows * cols; t < count; t++) {
      const x = data[t];
      if (typeof x !== 'number') throw badValue(name, Math.floor(t / cols), t % cols, x);
      heap[at + t] = x;
    }
    return;
  }
  for (let i = 0; i < rows; i++) {
    const row = nested[i], base = at + i * cols;
    if (row.length !== cols) throw resized(`${name}[${i}]`, row.length, cols);
    if (row instanceof Float32Array || row instanceof Float64Array) {
      heap.set(row, base);
      continue;
    }
    for (let j = 0; j < cols; j++) {
      const x = row[j];
      if (typeof x !== 'number') throw badValue(name, i, j, x);
      heap[base + j] = x;
    }
  }
}

// A typed array on a resizable ArrayBuffer can change length after it was checked (a getter
// on a later argument resizes it): heap.set would then copy fewer values and leave the last
// call's behind. Checked again as it is copied.
/** @param {string} name @param {number} now @param {number} was */
function resized(name, now, was) {
  return new Error(`${name} changed length while forward() read its arguments (${was} values when checked, ${now} when copied: a resizable ArrayBuffer resized meanwhile): resize it before calling forward()`);
}

// The error for the first value of a matrix the core found not finite in float32 (NaN,
// ±Infinity, or a number past float32's range, which became Infinity in heap), or null.
/** @param {string} name @param {Mat} mat @param {Float32Array} heap @param {number} at */
function nonFiniteError(name, mat, heap, at) {
  const { cols, data, nested } = mat;
  for (let t = 0, count = mat.rows * cols; t < count; t++) {
    if (Number.isFinite(heap[at + t])) continue;
    const i = Math.floor(t / cols), j = t % cols;
    return badValue(name, i, j, data ? data[t] : nested[i][j]);
  }
  return null;
}

// A mask is all booleans (true = may attend, false = masked) or all numbers added to the
// scores, where -Infinity removes a key. Written as the additive form the core takes. Numeric
// Float32Array / Float64Array data goes in with one heap.set; the core checks it for NaN and
// +Infinity and maskError() names the entry.
/** @param {Mat} mat @param {Float32Array} heap @param {number} at */
function writeMask(mat, heap, at) {
  const { rows, cols, data, nested } = mat;
  if (data instanceof Float32Array || data instanceof Float64Array) {
    heap.set(data, at);
    return;
  }
  const first = data ? data[0] : nested[0][0];
  const kind = typeof first;
  if (kind !== 'boolean' && kind !== 'number') {
    throw new Error(`mask[0][0] is ${describe(first)}: a mask holds booleans (true = may attend) or numbers added to the scores`);
  }
  for (let i = 0; i < rows; i++) {
    const row = data ? null : nested[i];
    for (let j = 0; j < cols; j++) {
      const x = /** @type {number | boolean} */ (row ? row[j] : /** @type {Given} */ (data)[i * cols + j]); // checked just below
      if (typeof x !== kind) {
        throw new Error(`mask mixes booleans and numbers (mask[${i}][${j}] is ${describe(x)}): use all booleans (true = may attend) or all numbers`);
      }
      if (typeof x === 'boolean') { heap[at + i * cols + j] = x ? 0 : -Infinity; continue; }
      if (Number.isNaN(x) || Math.fround(x) === Infinity) throw maskValueError(i, j, x);
      heap[at + i * cols + j] = x;
    }
  }
}

/** @param {number} i @param {number} j @param {unknown} x */
function maskValueError(i, j, x) {
  return new Error(`mask[${i}][${j}] is ${x}: a mask's numbers are added to the scores, so they must be finite within float32's range (about ±3.4e38) or -Infinity (which removes the key)`);
}

// The error for the first mask entry the core refused (NaN or +Infinity in heap).
/** @param {Mat} mat @param {Float32Array} heap @param {number} at */
function maskError(mat, heap, at) {
  const { cols, data } = mat;
  for (let t = 0, count = mat.rows * cols; t < count; t++) {
    const x = heap[at + t];
    // only flat Float32Array or Float64Array data reaches the core unchecked (writeMask)
    if (Number.isNaN(x) || x === Infinity) return maskValueError(Math.floor(t / cols), t % cols, /** @type {Given} */ (data)[t]);
  }
  return null;
}

/** @param {unknown} scale @param {number} dk @returns {number} */
function checkScale(scale, dk) {
  if (scale === undefined || scale === null) return 1 / Math.sqrt(dk);
  if (typeof scale !== 'number' || !Number.isFinite(Math.fround(scale)) || Math.fround(scale) <= 0) {
    throw new Error(`scale is ${describe(scale)}: it must be a positive finite number within float32's range (about 1.2e-38 to 3.4e38), or null for the default 1/√dk = ${(1 / Math.sqrt(dk)).toPrecision(4)}`);
  }
  return scale;
}

// ------------------------------------------------------------------ multiHead's input checks
// Everything multiHead is given is checked here, in the caller's terms and with forward()'s
// wording, before anything is allocated or copied: types, shapes against the limits, then every
// value. (Data like ['1', true, null] would otherwise be converted silently by the copy into a
// Float32Array, and a shape like [1, 1, 4e8, 1] would be refused only after copying it.)

/** @type {readonly unknown[]} */
const MULTIHEAD_KEYS = ['Q', 'K', 'V', 'qHeads', 'kvHeads', 'mask', 'causal', 'scale'];

// { shape, data } with whole sizes >= 1 and data an array or typed array of exactly that many
// values; the values themselves are checked later, once the sizes are known to be in range.
// Returns { shape (a copy), data }: each property is read once.
/** @param {string} name @param {unknown} t @returns {{ shape: number[], data: Given }} */
function tensorShape(name, t) {
  if (!t || typeof t !== 'object' || Array.isArray(t) || !('shape' in t) || !('data' in t)) {
    throw new Error(`${name} is ${describe(t)}: it must be a tensor { shape: [...], data } with data in row-major order`);
  }
  const given = t.shape, data = t.data;
  if (!Array.isArray(given) || given.length < 1 || given.length > 4) {
    throw new Error(`${name}.shape is ${describe(given)}: it must be an array of 1 to 4 sizes, like [batch, heads, len, size]`);
  }
  const shape = /** @type {number[]} */ (Array.from(given)); // each checked just below
  shape.forEach((v, a) => {
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name}.shape[${a}] is ${describe(v)}: every size must be a whole number >= 1`);
  });
  if (!Array.isArray(data) && !(ArrayBuffer.isView(data) && !(data instanceof DataView))) {
    throw new Error(`${name}.data is ${describe(data)}: it must be an array or a typed array (such as Float32Array) of numbers`);
  }
  return { shape, data: /** @type {Given} */ (data) };
}

// Reads every value once, checks it, and returns the values: a Float32Array (a plain array of
// booleans or numbers for a mask). The sizes were checked first, so this copy is bounded.
/** @param {string} name @param {Given} data @param {{ mask?: boolean }} [options] @returns {ArrayLike<number | boolean>} */
function checkTensorValues(name, data, { mask = false } = {}) {
  const first = data[0];
  const kind = mask ? typeof first : 'number';
  if (mask && kind !== 'boolean' && kind !== 'number') {
    throw new Error(`${name}.data[0] is ${describe(first)}: a mask holds booleans (true = may attend) or numbers added to the scores`);
  }
  const out = mask ? new Array(data.length) : new Float32Array(data.length);
  for (let k = 0; k < data.length; k++) {
    const x = /** @type {number | boolean} */ (k === 0 ? first : data[k]); // checked just below
    if (typeof x !== kind) {
      if (mask) throw new Error(`${name} mixes booleans and numbers (${name}.data[${k}] is ${describe(x)}): use all booleans (true = may attend) or all numbers`);
      throw new Error(`${name}.data[${k}] is ${describe(x)}, not a number: every value of ${name} must be a number`);
    }
    if (typeof x !== 'number') {
      out[k] = x;
      continue;
    }
    const f = Math.fround(x);
    if (mask ? Number.isNaN(x) || f === Infinity : !Number.isFinite(f)) {
      if (mask) throw new Error(`${name}.data[${k}] is ${x}: a mask's numbers are added to the scores, so they must be finite within float32's range (about ±3.4e38) or -Infinity (which removes the key)`);
      if (Number.isFinite(x)) throw new Error(`${name}.data[${k}] is ${x}, past float32's range: every value of ${name} must lie within about ±3.4e38`);
      throw new Error(`${name}.data[${k}] is ${x}: every value of ${name} must be a finite number`);
    }
    out[k] = x;
  }
  return out;
}

/**
 * Throws a named Error for anything multiHead cannot take, allocating nothing until every size
 * is known to be within the limits. Returns the arguments read once, with copies of the data:
 * { Q, K, V, mask: { shape, data } or undefined, qHeads, kvHeads, causal, scale }.
 * @param {unknown} args @returns {MultiHeadArgs}
 */
function checkMultiHeadArgs(args) {
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error(`multiHead needs an object { Q, K, V } of tensors { shape, data } (with optional qHeads, kvHeads, mask, causal, scale), got ${describe(args)}`);
  }
  for (const key of Object.keys(args)) {
    if (!MULTIHEAD_KEYS.includes(key)) throw new Error(`multiHead got an unknown input ${describe(key)}: the inputs are ${MULTIHEAD_KEYS.join(', ')}`);
  }
  const { Q: q, K: k, V: v, qHeads, kvHeads, mask: givenMask, causal, scale } = /** @type {Record<string, unknown>} */ (args);
  const Q = tensorShape('Q', q), K = tensorShape('K', k), V = tensorShape('V', v);
  const mask = givenMask === undefined || givenMask === null ? null : tensorShape('mask', givenMask);
  const qs = Q.shape, ks = K.shape, vs = V.shape;
  const rank = qs.length;
  if (rank !== 3 && rank !== 4) throw new Error(`Q has rank ${rank}: multiHead takes 4-D [batch, heads, len, size] or 3-D [batch, len, heads·size] tensors`);
  if (ks.length !== rank || vs.length !== rank) throw new Error(`Q, K and V must have the same rank (got ${rank}, ${ks.length}, ${vs.length})`);
  /** @type {[string, unknown][]} */
  const counts = [['qHeads', qHeads], ['kvHeads', kvHeads]];
  const missing = counts.filter(([, h]) => h === undefined || h === null).map(([name]) => name);
  if (rank === 3 && missing.length) {
    throw new Error(`3-D tensors need qHeads and kvHeads (whole numbers >= 1) to split the hidden axis into heads: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing`);
  }
  for (const [name, h] of counts) {
    if (h != null && (typeof h !== 'number' || !Number.isSafeInteger(h) || h < 1)) throw new Error(`${name} is ${describe(h)}: it must be a whole number of heads >= 1`);
  }
  if (causal !== undefined && typeof causal !== 'boolean') throw new Error(`causal is ${describe(causal)}: it must be true or false`);
  // [batch, heads, len, head size] of each, in either layout
  // (3-D: both head counts were checked to be numbers just above)
  const dims = (/** @type {number[]} */ s, /** @type {unknown} */ heads) => (rank === 4 ? s : [s[0], /** @type {number} */ (heads), s[1], s[2] / /** @type {number} */ (heads)]);
  const [b, qh, L, dk] = dims(qs, qHeads), [, kh, S, dkK] = dims(ks, kvHeads), [, vh, SV, dv] = dims(vs, kvHeads);
  // 4-D head counts given must agree with the shapes (in 3-D, qh and kh are qHeads and kvHeads themselves)
  if (qHeads != null && qHeads !== qh) throw new Error(`qHeads is ${qHeads} but Q has ${countOf(qh, 'head')} (Q.shape[1]): leave qHeads out for 4-D tensors, or make them agree`);
  if (kvHeads != null && kvHeads !== kh) throw new Error(`kvHeads is ${kvHeads} but K has ${countOf(kh, 'head')} (K.shape[1]): leave kvHeads out for 4-D tensors, or make them agree`);
  for (const [name, size, what] of [['Q', dk, 'Q.shape[2] / qHeads'], ['K', dkK, 'K.shape[2] / kvHeads'], ['V', dv, 'V.shape[2] / kvHeads']]) {
    if (!Number.isInteger(size)) throw new Error(`${name}'s hidden size does not divide by its head count (${what} = ${size}): the hidden sizes must be whole multiples of qHeads and kvHeads`);
  }
  checkSize('Q', L, 'queries (len)', LIMITS.maxTokensFused, SHORTER); // (every head runs the fused form)
  checkSize('K', S, 'keys (len)', LIMITS.maxTokensFused, SHORTER);
  checkSize('V', SV, 'keys (len)', LIMITS.maxTokensFused, SHORTER);
  checkSize('Q', dk, 'values per head (head size)', LIMITS.maxWidth, 'use a narrower head');
  checkSize('K', dkK, 'values per head (head size)', LIMITS.maxWidth, 'use a narrower head');
  checkSize('V', dv, 'values per head (head size)', LIMITS.maxWidth, 'use a narrower head');
  checkSize('Q', b * qh, 'heads in all (batch × heads)', LIMITS.maxHeads, 'split the batch');
  checkSize('K', b * kh, 'heads in all (batch × heads)', LIMITS.maxHeads, 'split the batch');
  checkSize('V', b * vh, 'heads in all (batch × heads)', LIMITS.maxHeads, 'split the batch');
  // Every size is now bounded (at most 64 heads of 512 × 256), so the products are exact.
  for (const [name, t, shape] of /** @type {const} */ ([['Q', Q, qs], ['K', K, ks], ['V', V, vs]])) {
    const size = shape.reduce((x, y) => x * y, 1);
    if (t.data.length !== size) throw new Error(`${name}.data has ${countOf(t.data.length, 'value')} but shape [${shape.join(', ')}] needs ${size}`);
  }
  if (mask) {
    const ms = mask.shape;
    if (ms.length < 2) throw new Error(`mask has rank ${ms.length}: it must be 2-D [qLen, kvLen], 3-D [heads, qLen, kvLen] or 4-D`);
    const full = [b, qh, L, S], padded = [...Array(4 - ms.length).fill(1), ...ms];
    if (padded.some((x, a) => x !== 1 && x !== full[a])) {
      throw new Error(`mask shape [${ms.join(', ')}] does not broadcast to the scores [${full.join(', ')}]: each axis must be 1 or match`);
    }
    const size = ms.reduce((x, y) => x * y, 1);
    if (mask.data.length !== size) throw new Error(`mask.data has ${countOf(mask.data.length, 'value')} but shape [${ms.join(', ')}] needs ${size}`);
  }
  checkScale(scale, dk);
  const tensor = (/** @type {{ shape: number[] }} */ t, /** @type {ArrayLike<number | boolean>} */ data) => ({ shape: t.shape, data });
  return /** @type {MultiHeadArgs} */ ({ // qHeads, kvHeads, causal and scale are checked above
    Q: tensor(Q, checkTensorValues('Q', Q.data)), K: tensor(K, checkTensorValues('K', K.data)), V: tensor(V, checkTensorValues('V', V.data)),
    mask: mask ? tensor(mask, checkTensorValues('mask', mask.data, { mask: true })) : undefined,
    qHeads, kvHeads, causal, scale,
  });
}

// softmaxStats describes a row of softmax weights: each in [0, 1], adding up to 1 within
// WEIGHTS_SUM_TOLERANCE (room for a float32 row of 512 and for weights typed to 3 decimals),
// or all 0 (a row whose every key was removed). Anything else has no entropy to report.
const WEIGHTS_SUM_TOLERANCE = 1e-3;
function checkWeightsRow(/** @type {Float64Array} */ weights /* labRow's checked copy */) {
  let sum = 0;
  for (let j = 0; j < weights.length; j++) {
    const a = weights[j];
    if (a < 0 || a > 1) throw new Error(`weights[${j}] is ${a}: softmax weights lie between 0 and 1; give the softmax of a row (attn.softmaxRow(scores)), not its scores`);
    sum += a;
  }
  if (sum !== 0 && Math.abs(sum - 1) > WEIGHTS_SUM_TOLERANCE) {
    throw new Error(`the weights add up to ${sum.toPrecision(6)}, not 1: a row of softmax weights must add up to 1 (within ${WEIGHTS_SUM_TOLERANCE}), or be all 0 when every key is removed`);
  }
}

// forward()'s arguments, checked and read once (each property and row), into the instance's
// one Plan p, refilled by every call (newPlan): { direct, cross, n, m, d (0 in the direct form),
// dk, dv, scale, causal, mask, names, mats }, mats[k] named names[k] in the core's order.
/** @param {unknown} given @param {Plan} p @param {boolean} fused the fused form (its limit on n and m) @returns {Plan} */
function planForward(given, p, fused) {
  if (!given || typeof given !== 'object') throw new Error('forward needs an object: { X, Wq, Wk, Wv } or { Q, K, V }');
  const args = /** @type {Record<string, unknown>} */ (given);
  for (const key in args) {
    if (!isForwardKey(key)) throw new Error(`forward got an unknown input ${describe(key)}: the inputs are ${FORWARD_INPUTS.join(', ')}`);
  }
  // each property read once, into locals (this runs on every call: no object for them)
  const X = args.X, Xkv = args.Xkv, Wq = args.Wq, Wk = args.Wk, Wv = args.Wv, Q = args.Q, K = args.K, V = args.V;
  const mask = args.mask, causal = args.causal, scale = args.scale;
  const direct = Q != null || K != null || V != null;
  if (direct ? Q == null || K == null || V == null : X == null || Wq == null || Wk == null || Wv == null) {
    /** @type {Record<string, unknown>} */
    const a = { X, Wq, Wk, Wv, Q, K, V };
    const missing = (direct ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv']).filter((k) => a[k] == null);
    throw new Error(`forward needs X, Wq, Wk, Wv (projection form) or Q, K, V (direct form): ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`);
  }
  if (direct && (X != null || Xkv != null || Wq != null || Wk != null || Wv != null)) {
    /** @type {Record<string, unknown>} */
    const a = { X, Xkv, Wq, Wk, Wv };
    const mixed = ['X', 'Xkv', 'Wq', 'Wk', 'Wv'].filter((k) => a[k] != null);
    throw new Error(`give either Q, K, V or X, Wq, Wk, Wv, not both (${mixed.join(', ')} given with Q, K, V)`);
  }
  if (causal !== undefined && typeof causal !== 'boolean') {
    throw new Error(`causal is ${describe(causal)}: it must be true or false`);
  }
  if (direct) planDirect(p, Q, K, V, fused);
  else planProjected(p, X, Xkv, Wq, Wk, Wv, fused);
  p.mask = maskOf(mask, p.n, p.m, p.slots[5]);
  p.scale = checkScale(scale, p.dk);
  p.causal = Boolean(causal);
  return p;
}

const IDS_SELF = [BUF.X, BUF.Wq, BUF.Wk, BUF.Wv], IDS_CROSS = [BUF.X, BUF.Xkv, BUF.Wq, BUF.Wk, BUF.Wv], IDS_DIRECT = [BUF.Q, BUF.K, BUF.V];
const NAMES_SELF = ['X', 'Wq', 'Wk', 'Wv'], NAMES_CROSS = ['X', 'Xkv', 'Wq', 'Wk', 'Wv'], NAMES_DIRECT = ['Q', 'K', 'V'];

// An instance's Plan: allocating one per call cost a quarter of a (5,4,4) call. Its six Mats
// (slots): X or Q, Xkv or K, Wq or V, Wk, Wv, the mask; mats is one of three fixed lists.
/** @returns {Plan} */
function newPlan() {
  const slots = Array.from({ length: 6 }, () => /** @type {Mat} */ (/** @type {unknown} */ ({ rows: 0, cols: 0, data: null, nested: null })));
  const [s0, s1, s2, s3, s4] = slots;
  return {
    direct: false, cross: false, n: 0, m: 0, d: 0, dk: 0, dv: 0, names: NAMES_SELF, ids: IDS_SELF, mats: [],
    mask: null, scale: 0, causal: false,
    slots, forms: { self: [s0, s2, s3, s4], cross: [s0, s1, s2, s3, s4], direct: [s0, s1, s2] },
  };
}

/** @param {Plan} p @param {boolean} direct @param {boolean} cross @param {number} n @param {number} m @param {number} d @param {number} dk @param {number} dv */
function setShape(p, direct, cross, n, m, d, dk, dv) {
  p.direct = direct; p.cross = cross; p.n = n; p.m = m; p.d = d; p.dk = dk; p.dv = dv;
  p.names = direct ? NAMES_DIRECT : cross ? NAMES_CROSS : NAMES_SELF;
  p.ids = direct ? IDS_DIRECT : cross ? IDS_CROSS : IDS_SELF;
  p.mats = direct ? p.forms.direct : cross ? p.forms.cross : p.forms.self;
}

/** Lets go of the caller's matrices once a call is over. @param {Plan} p */
function releasePlan(p) {
  for (let k = 0; k < p.slots.length; k++) fillMat(p.slots[k], 0, 0, null, null);
  p.mask = null;
}

/** @param {Plan} p @param {unknown} x @param {unknown} xkv @param {unknown} wq @param {unknown} wk @param {unknown} wv @param {boolean} fused */
function planProjected(p, x, xkv, wq, wk, wv, fused) {
  const slot = p.slots;
  const X = matrixOf('X', x, slot[0]), Wq = matrixOf('Wq', wq, slot[2]), Wk = matrixOf('Wk', wk, slot[3]), Wv = matrixOf('Wv', wv, slot[4]);
  const cross = xkv !== undefined && xkv !== null;
  const Xkv = cross ? matrixOf('Xkv', xkv, slot[1]) : X;
  const n = X.rows, d = X.cols, dk = Wq.cols, dv = Wv.cols, m = Xkv.rows;
  checkSize('X', n, 'rows (tokens)', tokenLimit(fused), shorter(fused));
  checkSize('X', d, 'columns (features, d)', LIMITS.maxWidth, 'use a narrower model');
  if (cross) checkSize('Xkv', m, 'rows (tokens)', tokenLimit(fused), shorter(fused));
  checkSize('Wq', dk, 'columns (dk)', LIMITS.maxWidth, 'use a narrower head');
  checkSize('Wv', dv, 'columns (dv)', LIMITS.maxWidth, 'use a narrower head');
  if (Wq.rows !== d || Wk.rows !== d || Wv.rows !== d) {
    const [name, W, what] = Wq.rows !== d ? ['Wq', Wq, 'dk'] : Wk.rows !== d ? ['Wk', Wk, 'dk'] : ['Wv', Wv, 'dv'];
    throw new Error(`${name} has ${countOf(W.rows, 'row')} but X has ${countOf(d, 'column')}: ${name} must be [d][${what}] with d = ${d}, the width of X`);
  }
  if (Wk.cols !== dk) {
    throw new Error(`Wk has ${countOf(Wk.cols, 'column')} but Wq has ${dk}: queries and keys need the same width dk so their dot products are defined`);
  }
  if (cross && Xkv.cols !== d) throw new Error(`Xkv has ${countOf(Xkv.cols, 'column')} but X has ${d}: Xkv must be [m][d] with the same width d = ${d}`);
  setShape(p, false, cross, n, m, d, dk, dv);
}

/** @param {Plan} p @param {unknown} q @param {unknown} k @param {unknown} v @param {boolean} fused */
function planDirect(p, q, k, v, fused) {
  const slot = p.slots;
  const Q = matrixOf('Q', q, slot[0]), K = matrixOf('K', k, slot[1]), V = matrixOf('V', v, slot[2]);
  const n = Q.rows, dk = Q.cols, m = K.rows, dv = V.cols;
  checkSize('Q', n, 'rows (queries)', tokenLimit(fused), shorter(fused));
  checkSize('K', m, 'rows (keys)', tokenLimit(fused), shorter(fused));
  checkSize('Q', dk, 'columns (dk)', LIMITS.maxWidth, 'use a narrower head');
  checkSize('V', dv, 'columns (dv)', LIMITS.maxWidth, 'use a narrower head');
  if (K.cols !== dk) throw new Error(`K has ${countOf(K.cols, 'column')} but Q has ${dk}: queries and keys need the same width dk so their dot products are defined`);
  if (V.rows !== m) throw new Error(`V has ${countOf(V.rows, 'row')} but K has ${m}: V needs one row per key (m = ${m})`);
  setShape(p, true, false, n, m, 0, dk, dv);
}

/** @param {unknown} mask @param {number} n @param {number} m @param {Mat} out */
function maskOf(mask, n, m, out) {
  if (mask === undefined || mask === null) return null;
  const M = matrixOf('mask', mask, out);
  if (M.rows !== n || M.cols !== m) {
    throw new Error(`mask is ${M.rows} × ${M.cols} but the scores are ${n} × ${m} (queries × keys): give one entry per query and key`);
  }
  return M;
}

// One row for the softmax helpers, read once into a Float64Array the call owns and checked:
// 1..maxTokens numbers, finite in float32 (-Infinity too when allowMinusInf, a removed key).
/** @param {string} name @param {unknown} given @param {boolean} [allowMinusInf] */
function labRow(name, given, allowMinusInf = false) {
  const values = /** @type {Given} */ (given); // checked just below
  if (!given || typeof values.length !== 'number' || typeof given === 'string') throw new Error(`${name} must be an array of numbers, got ${describe(given)}`);
  const m = values.length;
  if (m < 1) throw new Error(`${name} is empty: give at least one number`);
  checkSize(name, m, 'values', LIMITS.maxTokens, 'use a shorter row');
  const row = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const x = values[j];
    if (typeof x !== 'number' || Number.isNaN(x) || (!(allowMinusInf && x === -Infinity) && !Number.isFinite(Math.fround(x)))) {
      throw new Error(`${name}[${j}] is ${describe(x)}: every value must be a finite number within float32's range (about ±3.4e38)${allowMinusInf ? ' or -Infinity (a removed key)' : ''}`);
    }
    row[j] = x;
  }
  return row;
}

/** @type {ResultArray[]} */
const RESULT_ARRAYS = ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
const FORWARD_INPUTS = ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'mask', 'causal', 'scale'];
// (a switch on the name: the names are constants, so each case is one comparison)
/** @param {string} key */
function isForwardKey(key) {
  switch (key) {
    case 'X': case 'Xkv': case 'Wq': case 'Wk': case 'Wv': case 'Q': case 'K': case 'V': case 'mask': case 'causal': case 'scale': return true;
    default: return false;
  }
}
/** @type {Options} */
const NO_OPTIONS = Object.freeze({ outputs: null, into: null, fused: false });
const O_ONLY = Object.freeze(['O']);
/** @type {Options} */
const ONLY_O_OPTIONS = Object.freeze({ outputs: O_ONLY, into: null, fused: true });

// forward()'s second argument, read once: { outputs (null = every array), into, fused }.
// Only O asked for runs the fused form. With into, `scratch` (the instance's own) is refilled.
/** @param {unknown} opts @param {Options} scratch @returns {Options} */
function forwardOptions(opts, scratch) {
  if (opts === undefined || opts === null) return NO_OPTIONS;
  const options = /** @type {Record<string, unknown>} */ (opts);
  if (typeof options !== 'object') throw new Error(`forward's second argument is ${describe(options)}: it must be an object like { outputs: ['O'] } or { into: previousResult }`);
  for (const key in options) {
    if (key !== 'outputs' && key !== 'into') throw new Error(`forward got an unknown option "${key}": the options are outputs and into`);
  }
  const given = options.outputs;
  /** @type {{} | readonly unknown[] | null} */
  let outputs = given ?? null;
  let fused = false;
  if (outputs !== null) {
    if (!Array.isArray(outputs)) throw badOutputs();
    if (outputs.length === 1 && outputs[0] === 'O') {
      outputs = O_ONLY; // the common case, without a copy
      fused = true;
    } else {
      const list = (outputs = outputs.slice());
      fused = true;
      for (let k = 0; k < list.length; k++) {
        if (!/** @type {readonly unknown[]} */ (RESULT_ARRAYS).includes(list[k])) throw badOutputs();
        if (list[k] !== 'O') fused = false;
      }
    }
  }
  const given2 = options.into;
  const into = given2 ?? null;
  if (into !== null && !Result.is(into)) {
    throw new Error(`into is ${describe(into)}: it must be a result an earlier forward() returned, whose arrays this call may overwrite`);
  }
  // checked before anything is written: a frozen result would take new arrays but not its new
  // scale, half refilled
  if (into !== null && Object.isFrozen(into)) throw new Error('into is a frozen result (Object.freeze): forward() cannot refill it; pass a result that is not frozen, or leave into out for a new one');
  // (outputs: each checked to be in RESULT_ARRAYS; into: a Result, Result.is)
  if (into === null) return outputs === null ? NO_OPTIONS : outputs === O_ONLY ? ONLY_O_OPTIONS : /** @type {Options} */ ({ outputs, into, fused });
  scratch.outputs = /** @type {readonly string[] | null} */ (outputs);
  scratch.into = into;
  scratch.fused = fused;
  return scratch;
}

const badOutputs = () => new Error(`outputs must be an array of names from ${RESULT_ARRAYS.join(', ')}, or left out for all of them`);

// What forward() returns: plain data fields (the sizes, scale, causal and the twelve arrays, null
// where not asked for), in a class only so that a private field can remember what forward()
// gave it, for `into`: { key (sizes and layout), cross, region, arrays }. `into` reuses an
// array only if it is still the one forward() put there (the caller may have put an array of
// its own, which must not be written); region, when set, is the one private copy all its
// arrays are views of (#freshResult). A copy of a result ({ ...r }, structuredClone) has no
// such field and is refused as into. (A WeakMap would do the same but costs the garbage
// collector about 2 µs per short-lived result.)
class Result {
  // What forward() gave it: #key, #cross, #region, and its twelve arrays (#arrays), or null
  // there when it was given O alone (#o): the fused form's short path allocates no list of twelve.
  /** @type {number} */ #key;
  /** @type {boolean} */ #cross;
  /** @type {Float32Array | null} */ #region;
  /** @type {Arrays | null} */ #arrays;
  /** @type {Float32Array | null} */ #o;
  /** @param {Plan} plan @param {Arrays | null} arrays @param {Float32Array | null} O @param {number} key @param {Float32Array | null} region */
  constructor(plan, arrays, O, key, region) {
    const a = arrays ?? NO_ARRAYS;
    this.n = plan.n; this.m = plan.m; this.d = plan.d || null; this.dk = plan.dk; this.dv = plan.dv;
    this.scale = plan.scale; this.causal = plan.causal;
    this.X = a[0]; this.Xkv = a[1]; this.Wq = a[2]; this.Wk = a[3]; this.Wv = a[4];
    this.Q = a[5]; this.K = a[6]; this.V = a[7];
    this.S = a[8]; this.M = a[9]; this.A = a[10]; this.O = O;
    this.#key = key; this.#cross = plan.cross; this.#region = region; this.#arrays = arrays; this.#o = O;
  }

  /** Whether r is a result of forward() (a copy of one is not). @param {unknown} r @returns {r is Result} */
  static is(r) {
    return r !== null && typeof r === 'object' && #key in r;
  }

  /** The array forward() gave result r under RESULT_ARRAYS[k] (null if none). @param {Result} r @param {number} k */
  static held(r, k) {
    return r.#arrays !== null ? r.#arrays[k] : k === 11 ? r.#o : null;
  }

  /** What forward() gave result r: its arrays (or null), region, key and cross. */
  /** @param {Result} r */ static arrays(r) { return r.#arrays; }
  /** @param {Result} r */ static region(r) { return r.#region; }
  /** @param {Result} r */ static key(r) { return r.#key; }
  /** @param {Result} r */ static cross(r) { return r.#cross; }

  /**
   * r, refilled by forward(): its fields and what forward() gave it.
   * @param {Result} r @param {Plan} plan @param {Arrays | null} arrays @param {Float32Array | null} O @param {number} key @param {Float32Array | null} region
   */
  static refill(r, plan, arrays, O, key, region) {
    const a = arrays ?? NO_ARRAYS;
    r.n = plan.n; r.m = plan.m; r.d = plan.d || null; r.dk = plan.dk; r.dv = plan.dv; r.scale = plan.scale; r.causal = plan.causal;
    r.X = a[0]; r.Xkv = a[1]; r.Wq = a[2]; r.Wk = a[3]; r.Wv = a[4];
    r.Q = a[5]; r.K = a[6]; r.V = a[7];
    r.S = a[8]; r.M = a[9]; r.A = a[10]; r.O = O;
    r.#key = key; r.#cross = plan.cross; r.#region = region; r.#arrays = arrays; r.#o = O;
    return r;
  }
}
// Not frozen: V8 reads a frozen array's elements the slow way, and each result of the fused
// form's short path reads all twelve (9-14% of such a call at (5,4,4)). Nothing writes to it.
/** @type {readonly null[]} */
const NO_ARRAYS = new Array(12).fill(null);

// ------------------------------------------------------------------ the head

class Attention {
  /** @type {string | null} */
  #busy = null; // the public call under way (see #enter), or null
  #key = -1; // the sizes and layout the arena is laid out for, as one number (see #prepare)
  /** @type {Float32Array | null} */
  #span = null; // heap view of a whole result's buffers (X .. O) for #refillRegion, re-made when stale
  /** @type {Float32Array | null} */
  #oSpan = null; // heap view of O, the same for #resultO

  /** @type {Trainers | null} */
  #trainers; // or null for the forward core
  #plan = newPlan(); // forward()'s arguments (planForward)
  /** @type {Options} */
  #options = { outputs: null, into: null, fused: false }; // forward()'s options with into

  /** @param {CoreExports} exports @param {boolean} simd @param {Trainers | null} [trainers] */
  constructor(exports, simd, trainers = null) {
    this.#trainers = trainers;
    this.exports = exports;
    this.simd = simd;
    this.heap = new Float32Array(exports.memory.buffer);
    this.offsets = new Array(BUFFERS.length).fill(0); // float offset of each buffer in heap
    this.slab = new ArrayBuffer(SLAB_FLOATS * 4); // where small results are copied to (#copyOut)
    this.slabUsed = 0;
    if (exports.ae_max_tokens() !== LIMITS.maxTokens || exports.ae_max_width() !== LIMITS.maxWidth) {
      throw new Error('web/core/attention.js and the Wasm core disagree on the size limits: run `make` to rebuild web/gen/');
    }
  }

  /** Bytes of Wasm memory in use: stays the same over repeated calls of the same size. */
  memoryBytes() {
    return this.exports.memory.buffer.byteLength;
  }

  /**
   * The working buffers the last forward() laid out in Wasm memory, in bytes:
   * { total, buffers: { X, Xkv, ..., work } }, one entry for each of BUFFERS (c/wasm_exports.def).
   * The long form has S, M and A (n·m each); the fused form has none of them, only `work`
   * (K and V packed for reading, and a block of 4 rows of scores).
   */
  workspace() {
    if (!this.exports) throw new Error('this Attention was disposed: call loadAttention() again');
    /** @type {Record<string, number>} */
    const buffers = {};
    let total = 0;
    for (let b = 0; b < BUFFERS.length; b++) {
      const bytes = this.#key < 0 ? 0 : Number(this.exports.ae_buffer_floats(b)) * 4;
      buffers[BUFFERS[b]] = bytes;
      total += bytes;
    }
    return { total, buffers };
  }

  /** Drops the instance; the object must not be used afterwards. */
  dispose() {
    if (this.#busy) throw this.#reentrancy('dispose()');
    // every call checks for a disposed instance first (#enter), so the fields keep their types
    const gone = /** @type {{ exports: CoreExports | null, heap: Float32Array | null }} */ (this);
    gone.exports = null;
    gone.heap = null;
  }

  // Every public call that uses the arena or the lab rows runs inside #enter ... finally
  // #busy = null. User code can run while a call reads its arguments (a getter, a Proxy);
  // if it calls this instance again, that inner call is refused before it touches anything,
  // so the outer call's buffers, offsets and heap view stay as it left them.
  /** @param {string} call */
  #enter(call) {
    if (!this.exports) throw new Error('this Attention was disposed: call loadAttention() again');
    if (this.#busy) throw this.#reentrancy(call);
    this.#busy = call;
  }

  /** @param {string} call */
  #reentrancy(call) {
    const e = new Error(`${call} was called while ${this.#busy} was still running on the same Attention (from a getter, a Proxy or a callback in its arguments): compute the arguments first, or use a second instance from loadAttention()`);
    e.name = 'ReentrancyError';
    return e;
  }

  /**
   * One head. See docs/api.md for the arguments. Every array in the result is a copy that no
   * later call changes, unless the result is passed back as `into`.
   * Options (all optional):
   *   outputs: names of the arrays to copy out, e.g. ['A', 'O']; the others are null.
   *            ['O'] alone runs the fused form: no n×m matrix is stored at all.
   *   into:    an earlier result; its arrays of the right length are overwritten in place
   *            instead of allocating new ones, and that same object is returned.
   * @template {ResultArray} K
   * @param {import('../../types/attention').ForwardArgs} args
   * @param {{ outputs?: readonly K[] | null, into?: object | null }} [options]
   * @returns {import('../../types/attention').SomeResult<K>}
   */
  forward(args, options) {
    this.#enter('forward()');
    try {
      const opts = forwardOptions(options, this.#options);
      const plan = planForward(args, this.#plan, opts.fused);
      this.#run(plan, opts.fused);
      return /** @type {import('../../types/attention').SomeResult<K>} */ (/** @type {unknown} */ (this.#result(plan, opts)));
    } finally {
      this.#options.into = null; // nothing of the caller's is kept
      releasePlan(this.#plan);
      this.#busy = null;
    }
  }

  // Lays out the arena for one call, writes its inputs, runs the core. Every argument and row
  // was read into `plan` first; reading the values themselves may still run a getter, but any
  // call it makes to this instance is refused (#enter), so the layout cannot change under it.
  /** @param {Plan} plan @param {boolean} fused */
  #run(plan, fused) {
    const { n, m, d, dk, dv, mask, names, ids, mats } = plan;
    this.#prepare(n, m, d, dk, dv, (fused ? L_FUSED : 0) | (mask ? L_MASK : 0));
    const heap = this.heap, off = this.offsets;
    for (let k = 0; k < names.length; k++) writeMatrix(names[k], mats[k], heap, off[ids[k]]);
    if (mask) writeMask(mask, heap, off[BUF.mask]);
    const ex = this.exports, causal = plan.causal ? 1 : 0;
    const st = plan.direct ? ex.ae_sdpa(mask ? 1 : 0, causal, plan.scale) : ex.ae_forward(plan.cross ? 1 : 0, mask ? 1 : 0, causal, plan.scale);
    if (st === 0) return;
    if (st === NONFINITE) {
      for (let k = 0; k < names.length; k++) {
        const err = nonFiniteError(names[k], mats[k], heap, off[ids[k]]);
        if (err) throw err;
      }
    }
    if (st === BAD_MASK && mask) {
      const err = maskError(mask, heap, off[BUF.mask]);
      if (err) throw err;
    }
    this.#check(st, plan.direct ? 'Q and K' : plan.cross ? 'X, Xkv, Wq, Wk and Wv' : 'X, Wq, Wk and Wv');
  }

  // Lays out the arena for these sizes and layout (skipped when they are the last call's), and
  // re-reads the heap view: ae_prepare may have grown memory, which detaches the old view.
  /** @param {number} n @param {number} m @param {number} d @param {number} dk @param {number} dv @param {number} layout */
  #prepare(n, m, d, dk, dv, layout) {
    // (unique for n, m <= 8192, d, dk, dv <= 256 and layout <= 3, and below 2^53)
    const key = n + 8193 * (m + 8193 * (d + 257 * (dk + 257 * (dv + 257 * layout))));
    if (key === this.#key) return;
    this.#key = -1;
    const status = this.exports.ae_prepare(n, m, d, dk, dv, layout);
    if (status === -1) {
      const mb = (/** @type {number} */ x) => `${Math.ceil(x / 2 ** 20)} MB`;
      throw new Error(layout & L_MASK
        ? `a mask of ${n} × ${m} takes ${mb(n * m * 4)}, more than the core's memory can hold: for a causal mask give causal: true instead, or use a shorter sequence`
        : `${n} queries and ${m} keys of widths ${d || '-'}, ${dk} and ${dv} need more memory than the core can hold: use a shorter sequence or narrower heads`);
    }
    this.#check(status);
    this.#freshHeap();
    for (let b = 0; b < BUFFERS.length; b++) this.offsets[b] = this.exports.ae_buffer(b) >> 2;
    this.#span = this.#oSpan = null;
    this.#key = key;
  }

  // Memory growth (ae_prepare, called by #prepare only) detaches every view of the old buffer:
  // re-read it when it did, and drop #span and #oSpan (cheaper than asking a view its buffer).
  #freshHeap() {
    if (this.heap.buffer === this.exports.memory.buffer) return;
    this.heap = new Float32Array(this.exports.memory.buffer);
    this.#span = this.#oSpan = null;
  }

  /** @param {number} status */
  #check(status, inputs = 'Q and K') {
    if (status === OVERFLOW) {
      throw new Error(`the values are too large: the projections or scores overflow float32 (past about 3.4e38); use smaller values in ${inputs}`);
    }
    if (status !== 0) throw new Error(`the attention core refused the input (${STATUS[status] ?? 'status ' + status}); please report this: forward() should have caught it first`);
  }

  // A fresh JS copy of heap[start, end). Small copies are carved one after another from a
  // shared 256 KB slab rather than each getting its own ArrayBuffer (allocating one costs
  // more than a small head itself); a region is never handed out twice, so no result ever
  // changes. A slab is freed when no result that points into it is left.
  /** @param {number} start @param {number} end @param {Float32Array | null} [source] */
  #copyOut(start, end, source = null) {
    return this.#copyAt(this.#reserve(end - start), start, end, source);
  }

  /** #copyOut into the room `at` that #reserve gave. @param {number} at @param {number} start @param {number} end @param {Float32Array | null} source */
  #copyAt(at, start, end, source) {
    if (at < 0) return this.heap.slice(start, end);
    const copy = new Float32Array(this.slab, at, end - start);
    copy.set(source ?? this.heap.subarray(start, end));
    return copy;
  }

  /** Room for len floats in this.slab: the byte offset, or -1 if too large for a slab. @param {number} len */
  #reserve(len) {
    if (len > SLAB_FLOATS / 8) return -1;
    // a full slab, or one a caller detached (transferred one result's buffer, which takes the
    // whole slab: the docs warn against it): a new one, so later calls keep working
    if (this.slabUsed + len > SLAB_FLOATS || this.slab.byteLength === 0) { this.slab = new ArrayBuffer(SLAB_FLOATS * 4); this.slabUsed = 0; }
    const at = this.slabUsed * 4;
    this.slabUsed += (len + 3) & ~3;
    return at;
  }

  /** @param {Plan} plan @param {Options} options @returns {Result} */
  #result(plan, { outputs, into, fused }) {
    if (outputs === null) {
      if (into === null) return this.#freshResult(plan);
      if (this.#refillRegion(into, plan)) return into;
    }
    if (fused && outputs !== null && outputs.length === 1) return this.#resultO(plan, into);
    return this.#someResults(plan, outputs, into);
  }

  // outputs: ['O'] alone (the fused form's common case, kept short): a new result, or `into`
  // with its O overwritten when it still holds the O forward() gave it and the length fits.
  /** @param {Plan} plan @param {Result | null} into */
  #resultO(plan, into) {
    const at = this.offsets[BUF.O], len = plan.n * plan.dv;
    if (this.#oSpan === null) this.#oSpan = this.heap.subarray(at, at + len);
    const old = into === null ? null : Result.held(into, 11);
    let O;
    if (old !== null && /** @type {Result} */ (into).O === old && old.length === len) (O = old).set(this.#oSpan);
    else O = this.#copyOut(at, at + len, this.#oSpan);
    return into === null ? new Result(plan, null, O, this.#key, null) : Result.refill(into, plan, null, O, this.#key, null);
  }

  // Every array. The buffers lie one after another in the arena (c/wasm_exports.c), so one
  // slice copies them all and each result array is a view into that private copy (its region).
  /** @param {Plan} plan */
  #freshResult(plan) {
    const { n, m, d, dk, dv, cross } = plan;
    const off = this.offsets, base = off[BUF.X], end = off[BUF.O] + n * dv;
    if (this.#span === null || this.#span.length !== end - base) this.#span = this.heap.subarray(base, end);
    const at = this.#reserve(end - base); // (its buffer and offset known here: asking the copy is two calls)
    const region = this.#copyAt(at, base, end, this.#span);
    const buf = at < 0 ? region.buffer : this.slab, at0 = Math.max(at, 0) - base * 4;
    const view = (/** @type {number} */ b, /** @type {number} */ len) => new Float32Array(buf, at0 + off[b] * 4, len);
    const X = d ? view(BUF.X, n * d) : null;
    const arrays = [
      X, d ? (cross ? view(BUF.Xkv, m * d) : X) : null,
      d ? view(BUF.Wq, d * dk) : null, d ? view(BUF.Wk, d * dk) : null, d ? view(BUF.Wv, d * dv) : null,
      view(BUF.Q, n * dk), view(BUF.K, m * dk), view(BUF.V, m * dv),
      view(BUF.S, n * m), view(BUF.M, n * m), view(BUF.A, n * m), view(BUF.O, n * dv),
    ];
    return new Result(plan, arrays, arrays[11], this.#key, region);
  }

  // `into` a result of #freshResult for the same sizes and layout whose arrays are all still
  // the ones forward() put there: one copy refills its whole region. false when not so.
  /** @param {Result} into @param {Plan} plan */
  #refillRegion(into, plan) {
    const region = Result.region(into), a = Result.arrays(into);
    if (!region || a === null || Result.key(into) !== this.#key || Result.cross(into) !== plan.cross || region.length === 0) return false;
    if (into.X !== a[0] || into.Xkv !== a[1] || into.Wq !== a[2] || into.Wk !== a[3] || into.Wv !== a[4] || into.Q !== a[5] ||
        into.K !== a[6] || into.V !== a[7] || into.S !== a[8] || into.M !== a[9] || into.A !== a[10] || into.O !== a[11]) return false;
    const base = this.offsets[BUF.X];
    if (this.#span === null || this.#span.length !== region.length) {
      this.#span = this.heap.subarray(base, base + region.length);
    }
    region.set(this.#span);
    // only when changed: a number stored into an old result costs V8's write barrier (a third of a small call)
    if (into.scale !== plan.scale) into.scale = plan.scale;
    if (into.causal !== plan.causal) into.causal = plan.causal;
    return true;
  }

  // The arrays named in `outputs` (null: all), each copied on its own; the others are null.
  // With `into`, an array it still holds from forward() with the right length is overwritten
  // instead of copied, and `into` itself is updated and returned.
  /** @param {Plan} plan @param {readonly string[] | null} outputs @param {Result | null} into */
  #someResults(plan, outputs, into) {
    const { n, m, d, dk, dv, cross } = plan;
    /** @type {Record<ResultArray, number>} */
    const len = { X: n * d, Xkv: m * d, Wq: d * dk, Wk: d * dk, Wv: d * dv, Q: n * dk, K: m * dk, V: m * dv, S: n * m, M: n * m, A: n * m, O: n * dv };
    const arrays = new Array(RESULT_ARRAYS.length).fill(null);
    for (let k = 0; k < RESULT_ARRAYS.length; k++) {
      const name = RESULT_ARRAYS[k];
      if ((!d && k < 5) || (outputs !== null && !outputs.includes(name))) continue;
      if (name === 'Xkv' && !cross && arrays[0]) { arrays[1] = arrays[0]; continue; } // self-attention: Xkv is X
      const b = name === 'Xkv' && !cross ? BUF.X : BUF[name];
      const start = this.offsets[b];
      const old = into ? Result.held(into, k) : null;
      // reusable: still the array forward() put there, the right length, and not the one X just took
      let a;
      if (old && /** @type {Result} */ (into)[name] === old && old.length === len[name] && old !== arrays[0]) {
        a = old;
        a.set(this.heap.subarray(start, start + len[name]));
      } else {
        a = this.#copyOut(start, start + len[name]);
      }
      arrays[k] = a;
    }
    return into ? Result.refill(into, plan, arrays, arrays[11], this.#key, null) : new Result(plan, arrays, arrays[11], this.#key, null);
  }

  // ---------------------------------------------------------------- one softmax row (the labs)
  // c/wasm_exports.c's lab section: static row buffers outside the arena. Every result is a copy.

  /**
   * The softmax of one row of scores, computed by the core. `naive: false` (default) is the
   * max-subtracted softmax every head uses; `naive: true` is exp(s)/Σexp(s) straight in float32,
   * which really gives Infinity and NaN for scores above about 88.7 (that is what it is for).
   * scores: an array or Float32Array of 1..512 numbers; -Infinity removes a key.
   * @returns {Float32Array} the weights (a copy)
   */
  /** @param {ArrayLike<number>} scores @param {{ naive?: boolean }} [options] */
  softmaxRow(scores, options) {
    return this.softmaxSteps(scores, options).weights;
  }

  /**
   * The same, with the intermediate numbers: { weights, terms, shift, sum } where terms[j] is
   * exp(s[j] − shift) (stable; shift = the row max) or exp(s[j]) (naive; shift = 0) and sum = Σ terms.
   * Every array is a copy.
   * @param {ArrayLike<number>} scores @param {{ naive?: boolean }} [options]
   */
  softmaxSteps(scores, options) {
    this.#enter('softmaxSteps()');
    try {
      const naive = Boolean(options && options.naive);
      const row = labRow('scores', scores, true);
      const m = this.#labWrite(row, LAB.in);
      this.#labCheck(naive ? this.exports.ae_softmax_naive(m) : this.exports.ae_softmax_stable(m), 'scores');
      const out = this.#labView(LAB.out, m), terms = this.#labView(LAB.terms, m), sc = this.#labView(LAB.scalars, 2);
      return { weights: out.slice(), terms: terms.slice(), shift: sc[0], sum: sc[1] };
    } finally {
      this.#busy = null;
    }
  }

  /**
   * The backward pass of one softmax row: given weights a = softmax(s) and grad = dLoss/da,
   * returns dLoss/ds (a Float32Array copy), ds[k] = a[k]·(grad[k] − Σ a·grad).
   * @param {ArrayLike<number>} weights @param {ArrayLike<number>} grad
   */
  softmaxBackward(weights, grad) {
    this.#enter('softmaxBackward()');
    try {
      const a = labRow('weights', weights);
      const m = a.length;
      if (!grad || typeof grad.length !== 'number' || grad.length !== m) {
        throw new Error(`grad must hold one number per weight (${m}), got ${grad && typeof grad.length === 'number' ? grad.length : describe(grad)}`);
      }
      const g = labRow('grad', grad);
      this.#labWrite(a, LAB.in);
      this.#labWrite(g, LAB.grad);
      this.#labCheck(this.exports.ae_softmax_backward(m), 'weights and grad');
      return this.#labView(LAB.out, m).slice();
    } finally {
      this.#busy = null;
    }
  }

  /**
   * How saturated a row of weights is: { maxWeight, entropy (nats), gradNorm } where gradNorm is
   * the Frobenius norm of the softmax Jacobian diag(a) − a·aᵀ at this row (0 when one-hot).
   * @param {ArrayLike<number>} weights
   */
  softmaxStats(weights) {
    this.#enter('softmaxStats()');
    try {
      const row = labRow('weights', weights);
      checkWeightsRow(row);
      const m = this.#labWrite(row, LAB.in);
      this.#labCheck(this.exports.ae_softmax_stats(m), 'weights');
      const sc = this.#labView(LAB.scalars, 3);
      return { maxWeight: sc[0], entropy: sc[1], gradNorm: sc[2] };
    } finally {
      this.#busy = null;
    }
  }

  // A fresh view of lab buffer `which` (memory growth by forward() detaches older views).
  /** @param {number} which @param {number} len */
  #labView(which, len) {
    this.#freshHeap();
    const at = this.exports.ae_lab_buffer(which) >> 2;
    return this.heap.subarray(at, at + len);
  }

  // Writes a checked row (a Float64Array from labRow) into lab buffer `which`; returns its length.
  /** @param {Float64Array} row @param {number} which */
  #labWrite(row, which) {
    this.#labView(which, row.length).set(row);
    return row.length;
  }

  /** @param {number} status @param {string} inputs */
  #labCheck(status, inputs) {
    if (status !== 0) throw new Error(`the attention core refused ${inputs} (${STATUS[status] ?? 'status ' + status})`);
  }

  /**
   * The fused form's walk, one tile at a time, for the FlashAttention lab (web/labs/tiles.js):
   * the head (forward()'s arguments, n and m up to LIMITS.maxTokens) goes through the core's
   * fused form once (its O is `fusedO`), then through ae_tile_step tile after tile in the order
   * the core visits them: query tiles of `queryTile` rows, each against key tiles of `keyTile`
   * keys up to the last key its last row sees (with the causal mask, the tiles past it are
   * listed as skipped and not run). Each step keeps copies of the rows' running maximum, sum and
   * output before and after, the tile's z (scores plus mask), p = exp(z − max), alpha and the
   * rescale of the output so far. `O` is the walk's output. Needs the trainer or full core.
   * @param {import('../../types/attention').ForwardArgs} args
   * @param {{ queryTile: number, keyTile: number }} tiles
   * @returns {import('../../types/attention').TileWalk}
   */
  tileWalk(args, tiles) {
    this.#enter('tileWalk()');
    try {
      const ex = this.exports, { ae_tile_step: tileStep, ae_tile_reset: tileReset, ae_tile_buffer: tileBuffer } = ex;
      if (!tileStep || !tileReset || !tileBuffer) throw new Error("tileWalk() needs the trainer or the full core: loadAttention({ core: 'trainer' })");
      const { queryTile, keyTile } = /** @type {{ queryTile?: unknown, keyTile?: unknown }} */ (tiles ?? {});
      for (const [name, v, most] of /** @type {const} */ ([['queryTile', queryTile, TILE_ROWS], ['keyTile', keyTile, TILE_KEYS]])) {
        if (!Number.isInteger(v) || /** @type {number} */ (v) < 1 || /** @type {number} */ (v) > most) throw new Error(`${name} is ${describe(v)}: it must be a whole number from 1 to ${most}`);
      }
      const bq = /** @type {number} */ (queryTile), bk = /** @type {number} */ (keyTile);
      const plan = planForward(args, this.#plan, false); // the long form's limits: the lab shows n × m things
      const { n, m, dv } = plan;
      this.#run(plan, true);
      const fusedO = this.heap.slice(this.offsets[BUF.O], this.offsets[BUF.O] + n * dv);
      this.#check(tileReset());
      const view = (/** @type {number} */ which, /** @type {number} */ from, /** @type {number} */ len) => {
        const at = (tileBuffer(which) >> 2) + from;
        return this.heap.slice(at, at + len);
      };
      const state = (/** @type {number} */ q0, /** @type {number} */ rows) => ({ max: view(TILE.max, q0, rows), sum: view(TILE.sum, q0, rows), out: view(TILE.out, q0 * dv, rows * dv) });
      /** @type {import('../../types/attention').TileStep[]} */
      const steps = [];
      for (let q0 = 0; q0 < n; q0 += bq) {
        const rows = Math.min(bq, n - q0), end = plan.causal ? Math.min(q0 + rows, m) : m;
        for (let k0 = 0; k0 < m; k0 += bk) {
          const keys = Math.min(bk, m - k0);
          if (k0 >= end) {
            steps.push({ q0, rows, k0, keys, skipped: true, before: null, after: null, z: null, p: null, alpha: null, rescale: null });
            continue;
          }
          const before = state(q0, rows);
          this.#check(tileStep(plan.mask ? 1 : 0, plan.causal ? 1 : 0, plan.scale, q0, bq, k0, bk), 'Q and K');
          const grid = (/** @type {number} */ which) => {
            const out = new Float32Array(rows * keys), all = view(which, 0, rows * bk);
            for (let r = 0; r < rows; r++) out.set(all.subarray(r * bk, r * bk + keys), r * keys);
            return out;
          };
          steps.push({ q0, rows, k0, keys, skipped: false, before, after: state(q0, rows), z: grid(TILE.z), p: grid(TILE.p), alpha: view(TILE.alpha, 0, rows), rescale: view(TILE.rescale, 0, rows) });
        }
      }
      return { n, m, dv, queryTile: bq, keyTile: bk, steps, O: view(TILE.out, 0, n * dv), fusedO };
    } finally {
      releasePlan(this.#plan);
      this.#busy = null;
    }
  }

  /**
   * Several heads over ONNX-layout tensors, with grouped-query attention: each (batch, head)
   * goes through the fused form of forward() (O only). See docs/api.md for the layouts.
   * @param {import('../../types/attention').MultiHeadArgs} args
   * @returns {{ shape: number[], data: Float32Array }}
   */
  multiHead(args) {
    this.#enter('multiHead()');
    try {
      // every input read once, checked, and its data copied (checkMultiHeadArgs)
      return this.#multiHead(checkMultiHeadArgs(args));
    } finally {
      releasePlan(this.#plan);
      this.#busy = null;
    }
  }

  /** @param {MultiHeadArgs} args */
  #multiHead({ Q, K, V, qHeads, kvHeads, mask, causal = false, scale }) {
    // checkMultiHeadArgs checked the keys, the tensors and their data, the ranks, the head counts
    // (both given in 3-D), that the hidden sizes divide by them, and every size against LIMITS.
    // Left here: that Q, K and V fit together.
    const rank = Q.shape.length;
    /** @type {number} */
    let batch, L, S, dk, dv;
    if (rank === 4) {
      [batch, qHeads, L, dk] = Q.shape; kvHeads = K.shape[1]; S = K.shape[2]; dv = V.shape[3];
      if (K.shape[3] !== dk) throw new Error(`K's head size is ${K.shape[3]} but Q's is ${dk}: they must match`);
      if (V.shape[1] !== kvHeads || V.shape[2] !== S) throw new Error(`V is [${V.shape}] but K is [${K.shape}]: V needs the same batch, heads and length as K`);
    } else {
      qHeads = /** @type {number} */ (qHeads); kvHeads = /** @type {number} */ (kvHeads); // given: 3-D needs both
      [batch, L] = Q.shape; S = K.shape[1];
      dk = Q.shape[2] / qHeads; dv = V.shape[2] / kvHeads;
      if (K.shape[2] / kvHeads !== dk) throw new Error(`K's head size is ${K.shape[2] / kvHeads} but Q's is ${dk}: they must match`);
      if (V.shape[1] !== S) throw new Error(`V has length ${V.shape[1]} but K has ${S}: V needs one row per key`);
    }
    if (K.shape[0] !== batch || V.shape[0] !== batch) throw new Error(`Q, K and V need the same batch size (got ${Q.shape[0]}, ${K.shape[0]}, ${V.shape[0]})`);
    if (qHeads % kvHeads) throw new Error(`qHeads (${qHeads}) must be a multiple of kvHeads (${kvHeads}) for grouped-query attention`);
    const group = qHeads / kvHeads;

    // Element (b, h, t, c) of a tensor with `size`-wide heads in either layout.
    /** @type {(shape: number[], b: number, h: number, t: number, c: number) => number} */
    const index4 = (shape, b, h, t, c) => ((b * shape[1] + h) * shape[2] + t) * shape[3] + c;
    /** @type {(shape: number[], size: number, b: number, h: number, t: number, c: number) => number} */
    const index3 = (shape, size, b, h, t, c) => (b * shape[1] + t) * shape[2] + h * size + c;
    /** @type {(T: Checked, size: number, b: number, h: number, t: number, c: number) => number} */
    const at = rank === 4 ? (T, size, b, h, t, c) => index4(T.shape, b, h, t, c) : (T, size, b, h, t, c) => index3(T.shape, size, b, h, t, c);
    /** @type {(T: Checked, size: number, len: number, b: number, h: number) => Checked} */
    const head = (T, size, len, b, h) => {
      const out = new Float32Array(len * size);
      for (let t = 0; t < len; t++) for (let c = 0; c < size; c++) out[t * size + c] = T.data[at(T, size, b, h, t, c)];
      return { shape: [len, size], data: out };
    };
    const maskHead = mask ? this.#broadcastMask(mask, L, S) : null;

    const outShape = rank === 4 ? [batch, qHeads, L, dv] : [batch, L, qHeads * dv];
    const Y = { shape: outShape, data: new Float32Array(outShape.reduce((a, b) => a * b, 1)) };
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < qHeads; h++) {
        const kvh = Math.floor(h / group); // each KV head serves `group` consecutive query heads
        const O = this.#fusedO({
          Q: head(Q, dk, L, b, h), K: head(K, dk, S, b, kvh), V: head(V, dv, S, b, kvh),
          mask: maskHead ? maskHead(b, h) : undefined, causal, scale,
        });
        for (let t = 0; t < L; t++) for (let c = 0; c < dv; c++) Y.data[at(Y, dv, b, h, t, c)] = O[t * dv + c];
      }
    }
    return Y;
  }

  // One head's O by the fused form, as a view of Wasm memory (valid until the next call).
  /** @param {unknown} args */
  #fusedO(args) {
    const plan = planForward(args, this.#plan, true);
    this.#run(plan, true);
    const o = this.offsets[BUF.O];
    return this.heap.subarray(o, o + plan.n * plan.dv);
  }

  // numpy broadcasting, right-aligned, of a mask against [batch, heads, L, S]. checkMultiHeadArgs
  // checked that it does broadcast (rank 2 to 4, each axis 1 or matching), so this only reads it.
  /** @param {CheckedMask} mask @param {number} L @param {number} S */
  #broadcastMask(mask, L, S) {
    const shape = [...Array(4 - mask.shape.length).fill(1), ...mask.shape];
    const stride = [shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3], 1];
    return (/** @type {number} */ b, /** @type {number} */ h) => {
      const data = new Array(L * S);
      const base = (shape[0] === 1 ? 0 : b) * stride[0] + (shape[1] === 1 ? 0 : h) * stride[1];
      for (let i = 0; i < L; i++) {
        for (let j = 0; j < S; j++) {
          data[i * S + j] = mask.data[base + (shape[2] === 1 ? 0 : i) * stride[2] + (shape[3] === 1 ? 0 : j)];
        }
      }
      return { shape: [L, S], data };
    };
  }

  /**
   * A trainer: one head and a linear read-out learning a built-in task by gradient descent in
   * Wasm. See the Trainer class below and docs/api.md ("Training").
   * @param {import('../../types/attention').TrainerOptions} [options]
   */
  createTrainer(options = {}) {
    if (!this.exports) throw new Error('this Attention was disposed: call loadAttention() again');
    this.#needTraining('createTrainer'); // so #trainers is set
    return new /** @type {Trainers} */ (this.#trainers).Trainer(/** @type {import('./types').TrainCore} */ (this.exports), options, this);
  }

  /**
   * A two-layer attention-only transformer learning repeated random tokens, in which an
   * induction head forms (c/induction.h). See the InductionModel class below.
   * @param {import('../../types/attention').InductionOptions} [options]
   */
  createInduction(options = {}) {
    if (!this.exports) throw new Error('this Attention was disposed: call loadAttention() again');
    this.#needTraining('createInduction'); // so the full core and its InductionModel are here
    const { InductionModel } = /** @type {{ InductionModel: typeof import('./induction-model.js').InductionModel }} */ (this.#trainers);
    return new InductionModel(/** @type {import('./types').FullCore} */ (this.exports), options, this);
  }

  /** Which core this is (CORES): 'forward' cannot train, 'trainer' has no induction models. */
  get core() {
    const ex = this.exports;
    return !ex ? null : ex.ae_ind_create ? 'full' : ex.ae_train_create ? 'trainer' : 'forward';
  }

  /** @param {string} call */
  #needTraining(call) {
    if (!this.#trainers || (call === 'createInduction' && !this.exports.ae_ind_create)) {
      throw new Error(`${call} is not in this core, which was loaded with loadAttention({ core: '${this.core}' }): load the full one with loadAttention() to use it`);
    }
  }
}
