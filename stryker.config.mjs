// stryker.config.mjs: `make mutate-js`, mutation testing of the page's pure JS modules with
// StrykerJS (pinned in package.json) and the Node tests (tests/*.test.mjs; not the browser
// ones). It takes tens of minutes, so it is not part of `make test`. The report: build/mutate-js/
// (report.html to browse, report.json), and per file plus every survivor on the terminal
// (tools/mutate-js-report.mjs).
//
// What is mutated: the modules whose behaviour the Node tests own: the explanation text (explain.js
// and the explorer's own sentences, explorer/notes.js), config parsing and URL state (config.js,
// the explorer's state and its URL form, explorer/state.js), number formatting, colours, the
// grammar of sentences, the tensor paste parser, the training state (train.js, train/state.js),
// the labs' pure modules (not their views, not ui.js: DOM), and the input checks of
// web/core/attention.js and web/core/trainer.js (found by their section comments and names; the
// rest of those files moves Wasm memory and is tested through the core, not here).

import { existsSync, readdirSync, readFileSync } from 'node:fs';

const MODULES = [
  'web/blocks/explain.js', 'web/explorer/notes.js',
  'web/blocks/config.js', 'web/explorer/state.js', 'web/explorer/geometry.js',
  'web/blocks/format.js', 'web/blocks/colors.js', 'web/blocks/words.js', 'web/blocks/tensor-text.js',
  'web/train/words.js', 'web/train/state.js',
  'web/labs/random.js', 'web/labs/index.js', 'web/labs/catalog.js',
  ...labModules(),
];

// The labs' pure modules: every lab is a pair, web/labs/NAME.js (its state, numbers and words)
// and NAME-view.js (its DOM), so a new lab is mutated as soon as it exists, with every test of
// tests/labs/ as an owner (below).
function labModules() {
  return readdirSync('web/labs').filter((f) => f.endsWith('-view.js')).map((f) => `web/labs/${f.replace(/-view\.js$/, '.js')}`).filter((f) => existsSync(f)).sort();
}
const labTests = () => readdirSync('tests/labs').filter((f) => f.endsWith('.test.mjs')).map((f) => `labs/${f.replace(/\.test\.mjs$/, '')}`).sort();

// Functions found by name in a file, each from its first line to the closing brace at its own
// indentation (a name that is gone is skipped): file:from-to ranges for Stryker.
function functions(file, names) {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  return names.flatMap((name) => {
    const re = new RegExp(`^(\\s*)(?:export )?(?:function )?${name}\\(.*\\{\\s*$`);
    const start = lines.findIndex((l) => re.test(l));
    if (start < 0) return [];
    const indent = re.exec(lines[start])[1];
    const end = lines.findIndex((l, k) => k > start && l === indent + '}');
    return end > start ? [`${file}:${start + 1}-${end + 1}`] : [];
  });
}

// The input checks: web/core/attention.js's sections whose heading says "input check" (each up to the
// next section or the Result class), and web/core/trainer.js's checkSeed and Trainer.set.
function inputChecks() {
  const out = [];
  const file = 'web/core/attention.js';
  if (existsSync(file)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((l, from) => {
      if (!/^\/\/ -+ .*input check/.test(l)) return;
      const to = lines.findIndex((l2, k) => k > from && /^(class Result\b|\/\/ -+ )/.test(l2));
      if (to > from) out.push(`${file}:${from + 2}-${to}`);
    });
  }
  return [...out, ...functions('web/core/trainer.js', ['checkSeed', 'set'])];
}

// web/labs/mount.js: its URL state (queryOf, paramNotes); mountLabRecord puts the DOM together
// and is tested in the browsers (tests/browser/).
const LAB_MOUNT = () => functions('web/labs/mount.js', ['queryOf', 'paramNotes']);

// MUTATE_JS_ONLY=web/blocks/format.js,web/labs/*.js (globs, comma-separated; `attention-checks` for the
// input checks) restricts a run to some of these modules.
function mutateList() {
  const all = [...MODULES, ...LAB_MOUNT(), ...inputChecks()];
  const only = process.env.MUTATE_JS_ONLY;
  if (!only) return all;
  return only.split(',').flatMap((g) => (g === 'attention-checks' ? inputChecks() : [g]));
}

// Which test files own each module: a mutant there runs only their tests (those that reach it).
// The modules every test goes through (the core's checks, formatting, grammar) would otherwise
// run hundreds of unrelated tests for each mutant that survives; a module not named here runs
// every test that reaches it. A folder ends in /.
// A name here may have no file yet: each module's new exact-text and input-check tests go in files of
// their own (input-checks, explain-text, labs-sqrtdk, ...), so that work on one module touches no other's.
const OWNERS = {
  'web/core/attention.js': ['core/input-checks', 'core/bad-input', 'core/core', 'core/into', 'core/reentrancy', 'core/wasm-abi', 'core/fused', 'core/property'],
  'web/core/trainer.js': ['core/input-checks', 'train/learns', 'train/state', 'core/bad-input', 'core/reentrancy', 'core/wasm-abi'],
  'web/blocks/format.js': ['blocks/format', 'blocks/words', 'blocks/explain', 'explorer/sentences', 'labs/words', 'train/ui', 'explorer/notes'],
  'web/blocks/words.js': ['blocks/words', 'explorer/sentences', 'blocks/explain', 'labs/words', 'train/ui', 'explorer/notes'],
  'web/blocks/colors.js': ['blocks/colors', 'explorer/contrast', 'explorer/sentences'],
  'web/blocks/config.js': ['blocks/config', 'blocks/tensor-text', 'explorer/state', 'explorer/own-head', 'blocks/explain', 'blocks/lookups', 'train/ui', 'train/state'],
  'web/blocks/tensor-text.js': ['blocks/tensor-text', 'blocks/config', 'explorer/own-head'],
  'web/blocks/explain.js': ['blocks/explain-text', 'blocks/explain', 'explorer/sentences', 'explorer/notes', 'train/ui', 'train/state', 'labs/words'],
  'web/explorer/geometry.js': ['explorer/geometry'],
  'web/explorer/': ['explorer/notes-text', 'explorer/state', 'explorer/notes', 'explorer/own-head', 'explorer/lead'],
  'web/train/words.js': ['train/text', 'train/ui', 'train/state', 'blocks/lookups'],
  'web/train/': ['train/text', 'train/state', 'train/ui'],
  'web/labs/': [...labTests(), 'blocks/lookups', 'explorer/sentences'],
};
const testsOf = () => Object.fromEntries(Object.entries(OWNERS).map(([m, names]) => [m, names.map((n) => `tests/${n}.test.mjs`)]));

// The Node test files, but for those that test other things and import none of the mutated
// modules for their own sake: the ONNX vectors, the CLI, loading, export, the npm package, the
// server, the types, the Wasm builds' export table (it reads build/, which Stryker's sandbox has
// not), and the induction page (a minute of its own model's training per run).
// MUTATE_JS_TESTS (comma-separated names like blocks/format,blocks/words) replaces the list.
const SKIP = /^(browser|hosts)\/|^(core\/onnx|core\/loader|core\/wasm-exports|tools\/.*|explorer\/export|element\/.*|types\/.*|induction\/.*)\.test\.mjs$/;
function testFiles() {
  const names = process.env.MUTATE_JS_TESTS?.split(',').map((n) => `${n.replace(/\.test\.mjs$/, '')}.test.mjs`);
  return readdirSync('tests', { recursive: true }).map(String).filter((f) => (names ? names.includes(f) : f.endsWith('.test.mjs') && !SKIP.test(f))).sort().map((f) => `tests/${f}`);
}

export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  // tools/stryker-node-test/: a test runner that keeps one Node process with the test files
  // imported, and runs for each mutant only the single tests that reach it (coverage per test),
  // fastest first, stopping at the first that fails: a mutant takes milliseconds, not the
  // seconds of a Node process per test file (Stryker's tap runner; a full run took hours).
  plugins: ['./tools/stryker-node-test/runner.mjs'],
  testRunner: 'node-test-in-process',
  // Left out: the tests that take seconds each under instrumentation (a mutant that survives runs
  // every test that reaches it, so these made a run take hours on a busy 2-core machine). First
  // the core's resources, not these modules' behaviour (10,000 forward() calls alone take a
  // minute): memory over many calls, 100 seeds learning each task, the garbage collector. Then the
  // sweeps over hundreds of seeded heads or shapes, whose rules the faster tests of each module
  // also check on fewer cases: the sentence rules over 200 random heads and every preset cell, the
  // core against float64 at the size limits, the fused form on 300 shapes, the ONNX heads and the
  // byte counts, and the √dk narrative's sweeps.
  nodeTest: {
    testFiles: testFiles(),
    skip: [
      'do not grow the Wasm memory', 'all of 100 seeds reach', 'reclaimed by the garbage collector',
      '200 seeded random heads keep the rules', 'every sentence of every preset keeps the rules',
      'at the size limits \\(n = m = maxTokens', 'on 300 seeded shapes', 'on every head of the 51 ONNX vectors',
      'the long form needs 3 × n² floats', '√dk 7: every number the narrative quotes', '√dk 7: at n = 64 the narrative',
    ],
    testsOf: testsOf(),
  },
  dryRunTimeoutMinutes: 30,
  coverageAnalysis: 'perTest',
  // Mutants in code that runs when a module loads (constant tables, top-level settings) would
  // need every test file each; they are left out ("other" in the report) to keep a run short.
  ignoreStatic: true,
  // A re-run tests only the mutants whose code or tests changed since the last run in this
  // checkout (the results are kept in build/mutate-js/); MUTATE_ARGS=--force runs them all.
  incremental: true,
  incrementalFile: 'build/mutate-js/incremental.json',
  mutate: mutateList(),
  // The machine is shared: one test process at a time, at low priority (make mutate-js uses nice).
  concurrency: 1,
  timeoutMS: 10000,
  reporters: ['progress', 'html', 'json'],
  htmlReporter: { fileName: 'build/mutate-js/report.html' },
  jsonReporter: { fileName: 'build/mutate-js/report.json' },
  tempDirName: 'build/stryker-tmp',
  ignorePatterns: ['build', 'tests/out', 'bench', '*.tgz'],
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
