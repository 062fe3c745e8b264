// hooks.mjs: module resolution in the mutation runner's test process: `node:test` is shim.mjs.
const SHIM = new URL('./shim.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if (specifier === 'node:test') return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}
