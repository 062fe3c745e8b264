// shim.mjs: what `node:test` is inside the mutation runner's test process (worker.mjs maps the
// import here). A test file, when imported, only registers its tests and hooks; worker.mjs then
// runs any of them, any number of times, one at a time. The part of node:test the Node tests use:
// test(name, [options], fn), test.skip/todo, describe/it, before/after/beforeEach/afterEach, and
// a context with name, diagnostic, skip, todo, plan, after and nested t.test (run at once).

const registry = (globalThis.__mutationTests ??= { file: null, files: new Map() });

function entry() {
  const file = registry.file;
  if (!file) throw new Error('node:test used outside the import of a test file');
  if (!registry.files.has(file)) registry.files.set(file, { tests: [], before: [], after: [], beforeEach: [], afterEach: [], prefix: [] });
  return registry.files.get(file);
}

function args(a, b, c) {
  if (typeof a === 'function') return { name: a.name || '<anonymous>', options: {}, fn: a };
  if (typeof b === 'function') return { name: String(a), options: {}, fn: b };
  return { name: String(a), options: b ?? {}, fn: c ?? (() => {}) };
}

/** Calls fn(t) or fn(t, done) and waits for it. */
export function call(fn, t) {
  if (fn.length >= 2) return new Promise((resolve, reject) => fn(t, (err) => (err ? reject(err) : resolve())));
  return fn(t);
}

function context(name) {
  const afters = [];
  return {
    name,
    /** t.after(fn): fn runs once the test has ended, passed or failed (runAfters) */
    after(fn) { afters.push(fn); },
    async runAfters() { for (const fn of afters.splice(0)) await fn(); },
    signal: new AbortController().signal,
    diagnostic() {},
    skip() {},
    todo() {},
    plan() {},
    async test(n, o, f) {
      const { name: sub, options, fn } = args(n, o, f);
      if (options.skip || options.todo) return;
      const ctx = context(sub);
      try {
        await call(fn, ctx);
      } finally {
        await ctx.runAfters();
      }
    },
  };
}
export { context };

export function test(a, b, c) {
  const e = entry();
  const { name, options, fn } = args(a, b, c);
  e.tests.push({ name: [...e.prefix, name].join(' > '), skip: !!(options.skip || options.todo), fn });
}
test.skip = (a, b, c) => { const t = args(a, b, c); test(t.name, { ...t.options, skip: true }, t.fn); };
test.todo = test.skip;
test.only = test;
export const it = test;

export function describe(a, b, c) {
  const e = entry();
  const { name, fn } = args(a, b, c);
  e.prefix.push(name);
  try { fn(); } finally { e.prefix.pop(); }
}
describe.skip = () => {};
export const suite = describe;

export const before = (fn) => entry().before.push(fn);
export const after = (fn) => entry().after.push(fn);
export const beforeEach = (fn) => entry().beforeEach.push(fn);
export const afterEach = (fn) => entry().afterEach.push(fn);

export default test;
