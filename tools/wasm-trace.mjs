// wasm-trace.mjs: for tools/mutate-c.mjs, loaded with `node --import` (through NODE_OPTIONS, so
// child node processes load it too). It wraps the exports of every module WebAssembly.instantiate
// makes and, at exit, appends the name of each export called to the file $AE_WASM_TRACE. The
// mutation run uses it to know which exports of c/wasm_exports.c each Node test calls.
import { appendFileSync } from 'node:fs';

const called = new Set();
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  const instance = result.instance ?? result;
  const exports = {};
  for (const [name, value] of Object.entries(instance.exports)) {
    exports[name] = typeof value !== 'function' ? value : (...a) => { called.add(name); return value(...a); };
  }
  const traced = { exports: Object.freeze(exports) };
  return result.instance ? { module: result.module, instance: traced } : traced;
};
process.on('exit', () => { if (process.env.AE_WASM_TRACE) appendFileSync(process.env.AE_WASM_TRACE, [...called].map((n) => n + '\n').join('')); });
