// tests/core/onnx.test.mjs: the 51 ONNX Attention conformance vectors (tests/onnx-attention/, copied
// from the shared set; see its README) through the public attn.multiHead() API.
// Pass check per element: |got - expected| <= atol + rtol*|expected| (atol 1e-5, rtol 1e-4);
// a fully masked query row must come out exactly 0.
//
//   node --test tests/core/onnx.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { loadAttention } from '../../web/core/attention.js';

const DIR = new URL('../onnx-attention/', import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
const attn = await loadAttention();

let worstAbs = 0;
let worstFile = '';
let zeroRowsSeen = 0;
let filesRun = 0;
after(() => {
  console.log(`onnx.test.mjs: ${filesRun} vectors run, max |got - expected| = ${worstAbs.toExponential(3)} (${worstFile}), ${zeroRowsSeen} fully masked rows exactly 0`);
});

/** The JSON tensor as { shape, data }: "-inf" strings become -Infinity, booleans stay booleans. */
function tensorOf(t) {
  if (t.dtype === 'bool') return { shape: t.shape, data: t.data.slice() };
  return { shape: t.shape, data: Float32Array.from(t.data, (x) => (x === '-inf' ? -Infinity : x)) };
}

test('the ONNX conformance set holds all 51 vectors', () => {
  assert.equal(FILES.length, 51);
});

for (const file of FILES) {
  const v = JSON.parse(readFileSync(new URL(file, DIR), 'utf8'));

  test(`multiHead() matches ONNX vector ${v.name} within atol ${v.tolerance.atol}, rtol ${v.tolerance.rtol}`, (t) => {
    const { Q, K, V, attn_mask: mask } = v.inputs;
    const args = {
      Q: tensorOf(Q),
      K: tensorOf(K),
      V: tensorOf(V),
      causal: v.attrs.is_causal,
      scale: v.attrs.scale,
    };
    if (v.layout === '3d') {
      args.qHeads = v.attrs.q_num_heads;
      args.kvHeads = v.attrs.kv_num_heads;
    }
    if (mask) args.mask = tensorOf(mask);

    const y = attn.multiHead(args);
    const expected = v.expected.Y;
    assert.deepEqual(y.shape, expected.shape, 'output shape');
    assert.ok(y.data instanceof Float32Array, 'output data is a Float32Array');
    assert.equal(y.data.length, expected.data.length);

    const { atol, rtol } = v.tolerance;
    let maxAbs = 0;
    let failures = 0;
    let first = '';
    for (let k = 0; k < expected.data.length; k++) {
      const e = expected.data[k];
      const g = y.data[k];
      const diff = Math.abs(g - e);
      if (!(diff <= atol + rtol * Math.abs(e))) {
        if (!failures) first = `element ${k}: got ${g}, expected ${e}`;
        failures++;
      }
      if (!(diff <= maxAbs)) maxAbs = diff; // also catches NaN
    }

    // Fully masked query rows: their expected output is exactly 0 (README), and so must ours be.
    // A row is one head's vSize outputs for one query; in both layouts these are contiguous.
    const vSize = v.layout === '4d' ? expected.shape[3] : expected.shape[2] / v.attrs.q_num_heads;
    let zeroRows = 0;
    for (let start = 0; start < expected.data.length; start += vSize) {
      if (!expected.data.slice(start, start + vSize).every((x) => x === 0)) continue;
      zeroRows++;
      for (let c = 0; c < vSize; c++) {
        assert.ok(y.data[start + c] === 0, `fully masked row at ${start}: element ${c} is ${y.data[start + c]}, not exactly 0`);
      }
    }

    t.diagnostic(`max |got - expected| = ${maxAbs.toExponential(3)}${zeroRows ? `, ${zeroRows} fully masked rows exactly 0` : ''}`);
    if (maxAbs > worstAbs || Number.isNaN(maxAbs)) {
      worstAbs = maxAbs;
      worstFile = v.name;
    }
    zeroRowsSeen += zeroRows;
    filesRun++;
    assert.equal(failures, 0, `${failures} of ${expected.data.length} elements out of tolerance; first: ${first} (max |diff| ${maxAbs})`);
  });
}

test('the fully masked rows of the whole set (25, per its README) all came out exactly 0', () => {
  // Runs after the vectors (node:test runs top-level tests in order).
  assert.equal(filesRun, 51, 'every vector ran');
  assert.equal(zeroRowsSeen, 25);
});
