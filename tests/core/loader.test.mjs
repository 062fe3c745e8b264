// How web/core/attention.js loads the core: the SIMD build where the engine has SIMD, the scalar
// one on request, and only the build it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAttention } from '../../web/core/attention.js';
import { gunzipSync } from 'node:zlib';
import { WASM_GZIP as SIMD } from '../../web/gen/attention-wasm-simd.js';
import { WASM_GZIP as SCALAR } from '../../web/gen/attention-wasm-scalar.js';

const bytes = (b64) => Uint8Array.from(gunzipSync(Buffer.from(b64, 'base64')));

test("loadAttention() picks the SIMD build on an engine with SIMD (Node 20's V8)", async () => {
  assert.equal(WebAssembly.validate(bytes(SIMD)), true);
  const attn = await loadAttention();
  assert.equal(attn.simd, true);
  const scalar = await loadAttention({ simd: false });
  assert.equal(scalar.simd, false);
});

test('the two builds are different modules with the same exports and no imports', () => {
  const simd = new WebAssembly.Module(bytes(SIMD)), scalar = new WebAssembly.Module(bytes(SCALAR));
  assert.notEqual(SIMD, SCALAR);
  assert.deepEqual(WebAssembly.Module.imports(simd), []);
  assert.deepEqual(WebAssembly.Module.imports(scalar), []);
  const names = (m) => WebAssembly.Module.exports(m).map((e) => e.name).sort();
  assert.deepEqual(names(simd), names(scalar));
});

test('the SIMD build really holds SIMD instructions and the scalar fallback none (wasm-dis)', () => {
  // wasm-dis comes with Debian's emscripten (binaryen), which make installs to build the core.
  const dir = mkdtempSync(join(tmpdir(), 'wasm-'));
  const count = (b64, name) => {
    writeFileSync(join(dir, name), bytes(b64));
    const text = execFileSync('wasm-dis', [join(dir, name)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    return (text.match(/\b(f32x4|i32x4|v128)\.[a-z_]+/g) || []).length;
  };
  const simd = count(SIMD, 'simd.wasm'), scalar = count(SCALAR, 'scalar.wasm');
  rmSync(dir, { recursive: true });
  assert.ok(simd > 50, `the SIMD build has ${simd} vector instructions`);
  assert.equal(scalar, 0);
});

test('the Wasm ships gzip-compressed: web/core/gunzip.js inflates it with DecompressionStream, and wasm-source.js gives each build of each core', async () => {
  const { gunzipBase64 } = await import('../../web/core/gunzip.js');
  const { wasmBytes } = await import('../../web/gen/wasm-source.js');
  const simd = bytes(SIMD), scalar = bytes(SCALAR);
  assert.deepEqual(await gunzipBase64(SIMD), simd);
  assert.deepEqual(await wasmBytes(true), simd);
  assert.deepEqual(await wasmBytes(false), scalar);
  for (const core of ['forward', 'trainer']) {
    for (const build of ['simd', 'scalar']) {
      const { WASM_GZIP } = await import(`../../web/gen/attention-wasm-${core}-${build}.js`);
      assert.deepEqual(await wasmBytes(build === 'simd', core), bytes(WASM_GZIP), `${core} ${build}`);
    }
  }
  // Each build is at most about half its size once compressed (base64 adds a third back, which
  // the page's own gzip takes off again).
  for (const [name, b64, raw] of [['SIMD', SIMD, simd.length], ['scalar', SCALAR, scalar.length]]) {
    const packed = Buffer.from(b64, 'base64').length;
    console.log(`  ${name}: ${raw} bytes of Wasm, ${packed} gzipped`);
    assert.ok(packed < raw * 0.6, `${name}: ${packed} of ${raw}`);
  }
});

test("the smaller cores: 'forward' has no trainers, 'trainer' no induction models; each refuses what it lacks and says how to load the full core", async () => {
  const full = await loadAttention(), trainer = await loadAttention({ core: 'trainer' }), forward = await loadAttention({ core: 'forward' });
  assert.deepEqual([full.core, trainer.core, forward.core], ['full', 'trainer', 'forward']);
  const names = (a) => Object.keys(a.exports).sort();
  const sub = (a, b) => names(a).every((n) => names(b).includes(n));
  assert.ok(sub(forward, trainer) && sub(trainer, full), 'each core exports a subset of the next');
  assert.ok(!names(trainer).some((n) => n.startsWith('ae_ind_')) && names(trainer).includes('ae_train_create'));
  assert.ok(!names(forward).some((n) => n.startsWith('ae_train_')) && names(forward).includes('ae_softmax_stats'));
  // The same numbers from every core (the forward code is the same C, built the same way).
  const args = { X: [[1, 0.5], [0, 1], [1, 1]], Wq: [[1, 0], [0, 1]], Wk: [[0.5, 0], [0, 1]], Wv: [[1, 2], [0, 1]], causal: true };
  assert.deepEqual(forward.forward(args).O, full.forward(args).O);
  assert.deepEqual(trainer.forward(args).A, full.forward(args).A);
  assert.deepEqual(trainer.createTrainer({ seed: 3 }).step(2), full.createTrainer({ seed: 3 }).step(2));
  assert.throws(() => forward.createTrainer(), /createTrainer is not in this core, which was loaded with loadAttention\(\{ core: 'forward' \}\): load the full one with loadAttention\(\)/);
  assert.throws(() => trainer.createInduction(), /createInduction is not in this core.*core: 'trainer'/);
  await assert.rejects(loadAttention({ core: 'tiny' }), /core is "tiny": use one of 'forward', 'trainer', 'full'/);
  for (const a of [full, trainer, forward]) a.dispose();
});

test('a damaged payload is refused with an error, and an engine without DecompressionStream is told what to do', async () => {
  const { gunzipBase64 } = await import('../../web/core/gunzip.js');
  await assert.rejects(gunzipBase64(Buffer.from('not gzip at all').toString('base64')));
  const keep = globalThis.DecompressionStream;
  try {
    delete globalThis.DecompressionStream;
    await assert.rejects(gunzipBase64(SIMD), /no DecompressionStream.*Firefox 113, Safari 16\.4/);
  } finally {
    globalThis.DecompressionStream = keep;
  }
});
