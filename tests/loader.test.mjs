// How web/attention.js loads the core: the SIMD build where the engine has SIMD, the scalar
// one on request, and only the build it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAttention } from '../web/attention.js';
import { gunzipSync } from 'node:zlib';
import { WASM_GZIP as SIMD } from '../web/gen/attention-wasm-simd.js';
import { WASM_GZIP as SCALAR } from '../web/gen/attention-wasm-scalar.js';

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

test('the Wasm ships gzip-compressed: web/gunzip.js inflates it with DecompressionStream, and the one-file stream of both builds holds the same bytes', async () => {
  const { gunzipBase64 } = await import('../web/gunzip.js');
  const inline = await import('../web/gen/wasm-source-inline.js');
  const simd = bytes(SIMD), scalar = bytes(SCALAR);
  assert.deepEqual(await gunzipBase64(SIMD), simd);
  assert.deepEqual(await inline.wasmBytes(true), simd);
  assert.deepEqual(await inline.wasmBytes(false), scalar);
  // Each build is at most about half its size once compressed (base64 adds a third back, which
  // the page's own gzip takes off again).
  const { WASM_GZIP: BOTH } = await import('../web/gen/attention-wasm-both.js');
  for (const [name, b64, raw] of [['SIMD', SIMD, simd.length], ['scalar', SCALAR, scalar.length], ['both', BOTH, simd.length + scalar.length]]) {
    const packed = Buffer.from(b64, 'base64').length;
    console.log(`  ${name}: ${raw} bytes of Wasm, ${packed} gzipped`);
    assert.ok(packed < raw * 0.6, `${name}: ${packed} of ${raw}`);
  }
  // Deflate finds the scalar build's repeats of the SIMD one only within its 32 KB window: while
  // the SIMD build is under 32 KB the pair shares most of its bytes; past that, little. Never more.
  const size = (b64) => Buffer.from(b64, 'base64').length;
  assert.ok(size(BOTH) <= size(SIMD) + size(SCALAR) + 64, 'the shared stream costs no more than the two apart');
});

test('a damaged payload is refused with an error, and an engine without DecompressionStream is told what to do', async () => {
  const { gunzipBase64 } = await import('../web/gunzip.js');
  await assert.rejects(gunzipBase64(Buffer.from('not gzip at all').toString('base64')));
  const keep = globalThis.DecompressionStream;
  try {
    delete globalThis.DecompressionStream;
    await assert.rejects(gunzipBase64(SIMD), /no DecompressionStream.*Firefox 113, Safari 16\.4/);
  } finally {
    globalThis.DecompressionStream = keep;
  }
});
