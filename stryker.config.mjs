// stryker.config.mjs: `make mutate-js`, mutation testing of the page's pure JS modules with
// StrykerJS (pinned in package.json) and the Node tests (tests/*.test.mjs; not the browser
// ones). It takes minutes, so it is not part of `make test`. The report: build/mutate-js/
// (report.html to browse, report.json), and per file plus every survivor on the terminal
// (scripts/mutate-js-report.mjs).
//
// What is mutated: the modules whose behaviour the Node tests own: explanation text, config
// parsing and URL state, number formatting, colours, the training state, the labs' pure
// modules (not their views), the grammar of sentences, the tensor paste parser, and the input
// checks of web/attention.js (found by its section comment; the rest of that file moves Wasm
// memory and is tested through the core, not here).

import { existsSync, readFileSync } from 'node:fs';

const MODULES = [
  'web/explain.js', 'web/explorer/explain*.js', // (explain.js may move into web/explorer/)
  'web/config.js', 'web/format.js', 'web/colors.js', 'web/words.js', 'web/train.js', 'web/tensor-text.js',
  'web/labs/cross.js', 'web/labs/misconceptions.js', 'web/labs/multihead.js', 'web/labs/predict.js',
  'web/labs/sqrtdk.js', 'web/labs/stability.js', 'web/labs/random.js', 'web/labs/index.js', 'web/labs/fused.js',
];

// The input checks of web/attention.js: its "input checking" section (up to the Result class or
// the next section), and the training settings' checks, found by name (checkSeed, set): each
// from its first line to the closing brace at its own indentation. A name that is gone is skipped.
function inputChecks(file) {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  const from = lines.findIndex((l) => /^\/\/ -+ input checking/.test(l));
  const to = lines.findIndex((l, k) => k > from && /^(class Result\b|\/\/ -+ )/.test(l));
  if (from >= 0 && to > from) out.push(`${file}:${from + 2}-${to}`);
  for (const name of ['checkSeed', 'set']) {
    const re = new RegExp(`^(\\s*)(?:function )?${name}\\(.*\\{\\s*$`);
    const start = lines.findIndex((l) => re.test(l));
    if (start < 0) continue;
    const indent = re.exec(lines[start])[1];
    const end = lines.findIndex((l, k) => k > start && l === indent + '}');
    if (end > start) out.push(`${file}:${start + 1}-${end + 1}`);
  }
  return out;
}

// MUTATE_JS_ONLY=web/format.js,web/labs/*.js (globs, comma-separated; `attention-checks` for the
// input checks of web/attention.js) restricts a run to some of these modules, for a machine too
// slow or busy for all of them in one go.
function mutateList() {
  const all = [...MODULES, ...inputChecks('web/attention.js')];
  const only = process.env.MUTATE_JS_ONLY;
  if (!only) return all;
  return only.split(',').flatMap((g) => (g === 'attention-checks' ? inputChecks('web/attention.js') : [g]));
}

export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  plugins: ['@stryker-mutator/tap-runner'],
  testRunner: 'tap',
  // The Node test files, but for those that test other things (the ONNX vectors, the CLI,
  // loading, export, the npm package). Each mutant runs only the files whose tests reach it
  // (coverage per file), in name order, and stops at the first that fails.
  // serve and types import none of these modules either.
  // MUTATE_JS_TESTS (a glob) replaces that list, e.g. to leave out a slow file on a busy machine.
  tap: { testFiles: [process.env.MUTATE_JS_TESTS || 'tests/!(onnx|cli|loader|embed-export|embed-pack|serve|types).test.mjs'], forceBail: true },
  // The first run of every test file (to learn which tests reach which mutant) takes minutes on
  // a busy 2-core machine; Stryker's default limit is 5.
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
  timeoutMS: 20000,
  reporters: ['progress', 'html', 'json'],
  htmlReporter: { fileName: 'build/mutate-js/report.html' },
  jsonReporter: { fileName: 'build/mutate-js/report.json' },
  tempDirName: 'build/stryker-tmp',
  ignorePatterns: ['build', 'tests/out', 'bench', '*.tgz'],
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
