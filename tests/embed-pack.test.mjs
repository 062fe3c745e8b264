// The npm package: `npm pack` gives a tarball that, installed offline into an empty folder, works
// in Node (`import { loadAttention } from 'attention-explorer'`, the docs/embedding.md example)
// and in a page (the element served from node_modules). Also: the dist file is deterministic and
// holds no import or export statement.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
let dir, app;

before(() => {
  // `make test` builds these before the tests; run alone, this test builds them first.
  if (!['web/gen/wasm-source.js', 'web/gen/explorer-css.js', 'dist/attention-explorer.js'].every((f) => existsSync(ROOT + f))) {
    execFileSync('make', ['-s', 'all', 'dist'], { cwd: ROOT, stdio: 'inherit' });
  }
  dir = mkdtempSync(join(tmpdir(), 'ae-pack-'));
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-course', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(dir, out)], { cwd: app, stdio: 'pipe' });
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('npm pack + install into an empty folder: the package holds the Wasm and the element, and no dev files', () => {
  const pkg = join(app, 'node_modules', 'attention-explorer');
  for (const f of ['web/attention.js', 'web/gen/wasm-source.js', 'web/gen/explorer-css.js', 'web/attention-explorer.js', 'dist/attention-explorer.js', 'dist/index.html', 'docs/embedding.md']) {
    assert.ok(existsSync(join(pkg, f)), f);
  }
  assert.ok(!existsSync(join(pkg, 'tests')) && !existsSync(join(pkg, 'c')) && !existsSync(join(pkg, 'node_modules')));
  assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.')), ['attention-explorer'], 'no dependencies pulled in');
});

test("installed package in Node: the docs' test of a head runs, and forward gives the lesson's numbers", () => {
  // The example of docs/embedding.md, "A Node test of your head", verbatim.
  const docs = readFileSync(ROOT + 'docs/embedding.md', 'utf8');
  const example = /<!-- node-test -->\s*```js\n([\s\S]*?)```/.exec(docs);
  assert.ok(example, 'docs/embedding.md has the marked Node example');
  writeFileSync(join(app, 'head.test.mjs'), example[1]);
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // run as its own test run, not as a child of this one
  const out = execFileSync(process.execPath, ['--test', 'head.test.mjs'], { cwd: app, encoding: 'utf8', env });
  assert.match(out, /# pass [1-9]/);
  assert.match(out, /# fail 0/);

  writeFileSync(join(app, 'forward.mjs'), `
import { loadAttention, LIMITS } from 'attention-explorer';
import 'attention-explorer/element';           // importable in Node: defines nothing there
const attn = await loadAttention();
const Q = [[1, 0], [0, 1], [1, 1]];
const r = attn.forward({ Q, K: Q, V: [[1, 0], [0, 2], [3, 1]] });
console.log(JSON.stringify({ A: Array.from(r.A, (v) => +v.toFixed(3)), O: Array.from(r.O, (v) => +v.toFixed(3)), max: LIMITS.maxTokens }));
`);
  const got = JSON.parse(execFileSync(process.execPath, ['forward.mjs'], { cwd: app, encoding: 'utf8' }));
  assert.deepEqual(got.A, [0.401, 0.198, 0.401, 0.198, 0.401, 0.401, 0.248, 0.248, 0.503]);
  assert.deepEqual(got.O, [1.604, 0.797, 1.401, 1.203, 1.759, 1]);
});

test('installed package in a page: the element from node_modules renders, under the strict CSP', async () => {
  const { launch } = await import('./browser/helpers.mjs');
  const { startServer } = await import('../web/serve.mjs');
  writeFileSync(join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="node_modules/attention-explorer/web/favicon.svg">' +
    '<script type="module" src="node_modules/attention-explorer/web/attention-explorer.js"></script>' +
    '<attention-explorer preset="worked-example"></attention-explorer>');
  const server = await startServer({ root: app, port: 0, headers: { 'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'" } });
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.waitForSelector('attention-explorer[data-ready]');
    const row = await page.locator('attention-explorer [data-matrix="A"][data-row="0"]').allTextContents();
    assert.deepEqual(row, ['0.401', '0.198', '0.401']);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('dist/attention-explorer.js is deterministic, a valid classic script with no import or export, runs the core, and fits its budget', async () => {
  // Two builds from the same sources, each from scratch: the same bytes.
  const [a, b] = ['dist-1', 'dist-2'].map((d) => {
    execFileSync(process.execPath, ['scripts/build-dist.mjs', join(dir, d)], { cwd: ROOT, stdio: 'pipe' });
    return readFileSync(join(dir, d, 'attention-explorer.js'), 'utf8');
  });
  assert.equal(a, b, 'same sources, same bytes');
  const script = new Script(a, { filename: 'attention-explorer.js' }); // throws on import/export statements
  // Run it as a classic script in a bare context (no DOM): the core works; no element is defined.
  const ctx = { atob, TextDecoder, WebAssembly, DecompressionStream, Blob, Response, console };
  ctx.globalThis = ctx;
  script.runInNewContext(ctx);
  const api = ctx.AttentionExplorer;
  assert.equal(typeof api.loadAttention, 'function');
  const attn = await api.loadAttention();
  const r = attn.forward({ Q: [[1, 0], [0, 1], [1, 1]], K: [[1, 0], [0, 1], [1, 1]], V: [[1, 0], [0, 2], [3, 1]] });
  assert.deepEqual(Array.from(r.O, (v) => +v.toFixed(3)), [1.604, 0.797, 1.401, 1.203, 1.759, 1]);
  assert.equal((await api.loadAttention({ simd: false })).simd, false, 'the scalar build is inside too');
  const small = await api.loadAttention({ core: 'forward', simd: false });
  assert.equal(small.core, 'full', 'the one file holds only the full core and gives it for any core asked for');
  const scalar = await api.loadAttention({ simd: false });
  assert.deepEqual(Array.from(small.createTrainer({ seed: 2 }).step(2)), Array.from(scalar.createTrainer({ seed: 2 }).step(2)), 'its trainers run, as the full core\'s do');
  const gz = execFileSync('gzip', ['-9c', join(dir, 'dist-1', 'attention-explorer.js')]).length;
  console.log(`  dist/attention-explorer.js: ${Buffer.byteLength(a)} bytes, ${gz} gzipped`);
  // Was 337 KB raw / 114 KB gzipped with the hand-written bundler and uncompressed Wasm; 187 / 81
  // with esbuild and the Wasm gzipped; 225 / 103 once the faster core (fused form) grew both Wasm
  // builds past deflate's 32 KB window, so the two no longer compress as one; 160 once the induction
  // model grew both builds to 64 KB; 144 with the builds interleaved in 8 KB pieces (scripts/embed-wasm.mjs),
  // so deflate's window sees each scalar piece right after its SIMD twin (Wasm 55 -> 40 KB gzipped).
  // The budget is today's weight plus a little room (issue 12's target is 75 KB, not met: the
  // element's minified JS alone, every mode in one classic script, is about 104 KB gzipped).
  assert.ok(gz <= 147 * 1024, `dist/attention-explorer.js is ${gz} bytes gzipped; the budget is 147 KB`);
});
