// worker.mjs: the mutation runner's test process (forked by runner.mjs, in Stryker's sandbox).
// It imports the Node test files once (their `node:test` is shim.mjs, so importing only registers
// the tests) and then runs single tests on request, with a mutant switched on: Stryker's
// instrumented code reads the active mutant from globalThis.__stryker__ at every call, so one
// process serves every mutant. Messages (process.send):
//   { cmd: 'load', files }  -> { tests: [{ id, name, file }] }
//   { cmd: 'run', ids, mutant, hitLimit, bail, coverage }
//      -> { results: [{ id, ok, ms, message }], coverage, hitCount }
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

register('./hooks.mjs', import.meta.url);
const { context, call } = await import('./shim.mjs');

const registry = (globalThis.__mutationTests ??= { file: null, files: new Map() });
const ns = () => (globalThis.__stryker__ ??= {});
/** @type {Map<string, { file: string, name: string, fn: Function }>} */
const tests = new Map();
const started = new Map(); // file -> promise of its before() hooks
let stray = null; // an error thrown outside any await of the running test (a timer, a rejection)
process.on('uncaughtException', (e) => { stray ??= e; });
process.on('unhandledRejection', (e) => { stray ??= e; });
process.on('disconnect', () => process.exit(0));

async function load(files) {
  for (const file of files) {
    if (registry.files.has(file)) continue;
    registry.file = file;
    ns().currentTestId = undefined;
    try {
      await import(pathToFileURL(resolve(file)).href);
    } finally {
      registry.file = null;
    }
    const seen = new Map();
    for (const t of registry.files.get(file)?.tests ?? []) {
      if (t.skip) continue;
      const k = (seen.get(t.name) ?? 0) + 1;
      seen.set(t.name, k);
      const id = `${file}: ${t.name}${k > 1 ? ` #${k}` : ''}`;
      tests.set(id, { file, name: t.name, fn: t.fn });
    }
  }
  return [...tests].map(([id, t]) => ({ id, name: t.name, file: t.file }));
}

async function runOne(id) {
  const t = tests.get(id);
  const e = registry.files.get(t.file);
  if (!started.has(t.file)) started.set(t.file, (async () => { for (const h of e.before) await call(h, context(t.file)); })());
  await started.get(t.file);
  const ctx = context(t.name);
  for (const h of e.beforeEach) await call(h, ctx);
  try {
    await call(t.fn, ctx);
  } finally {
    await ctx.runAfters();
    for (const h of e.afterEach) await call(h, ctx);
  }
}

async function run({ ids, mutant, hitLimit, bail, coverage }) {
  const g = ns();
  g.activeMutant = mutant ?? undefined;
  if (hitLimit) { g.hitLimit = hitLimit; g.hitCount = 0; } else { delete g.hitLimit; delete g.hitCount; }
  // The instrumented code keeps a reference to this object: clear it in place, never replace it.
  const cov = (g.mutantCoverage ??= { static: {}, perTest: {} });
  if (coverage) for (const k of Object.keys(cov.perTest)) delete cov.perTest[k];
  const results = [];
  for (const id of ids) {
    if (!tests.has(id)) { results.push({ id, ok: false, ms: 0, message: `no test ${id}` }); if (bail) break; continue; }
    g.currentTestId = coverage ? id : undefined;
    stray = null;
    const t0 = performance.now();
    let message = null;
    try {
      await runOne(id);
      await new Promise((r) => setImmediate(r)); // let a stray rejection of this test surface
      if (stray) throw stray;
    } catch (err) {
      message = String(err?.stack ?? err).split('\n').slice(0, 6).join('\n');
    }
    results.push({ id, ok: message === null, ms: performance.now() - t0, message });
    if (message !== null && bail) break;
    if (hitLimit && g.hitCount > hitLimit) break;
  }
  g.currentTestId = undefined;
  const hitCount = g.hitCount;
  g.activeMutant = undefined;
  delete g.hitLimit; delete g.hitCount;
  return { results, coverage: coverage ? g.mutantCoverage : undefined, hitCount };
}

process.on('message', async (msg) => {
  try {
    if (msg.cmd === 'load') process.send({ tests: await load(msg.files) });
    else if (msg.cmd === 'run') process.send(await run(msg));
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
});
process.send({ ready: true });
