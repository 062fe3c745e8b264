// How web/attention.js loads the core: the SIMD build where the engine has SIMD, the scalar
// one on request, and only the build it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAttention } from '../web/attention.js';
import { WASM_BASE64 as SIMD } from '../web/gen/attention-wasm-simd.js';
import { WASM_BASE64 as SCALAR } from '../web/gen/attention-wasm-scalar.js';

const bytes = (b64) => Uint8Array.from(Buffer.from(b64, 'base64'));

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
