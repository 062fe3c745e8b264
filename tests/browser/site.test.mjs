// The production build (tools/build-site.mjs, what make run serves): every page of the site
// (tools/site-pages.mjs) loads from it in Chromium and shows its numbers with no error, its files
// go compressed, and the explorer's first load fits its byte budget (issue 24: a learner's wait
// is mostly bytes on a slow link; bytes are deterministic where a time is not: make bench times it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../tools/build-site.mjs';
import { startServer } from '../../tools/serve.mjs';
import { sitePages } from '../../tools/site-pages.mjs';
import { launch, ROOT } from './helpers.mjs';
import { measureLoad } from './load.mjs';

const FIRST_LOAD_BUDGET = 80 * 1024; // the explorer, compressed, every request until its first numbers

let dir, server, browser;

before(async () => {
  if (!existsSync(ROOT + 'web/gen/wasm-source.js')) throw new Error('web/gen/ is not built: run make all first');
  dir = mkdtempSync(join(tmpdir(), 'ae-site-'));
  await buildSite(dir);
  server = await startServer({ root: dir, port: 0 });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Every script a page needs before its numbers is asked for at once, by the page's HTML or by
// web/preload.js (what its mode needs), never found one import at a time; and a page downloads
// only the core it computes with (the training page: the trainer core, not the explorer's too).
test('every page of the site shows its numbers from the production build, with no error, every script a bundled asset asked for at once, and one core', async () => {
  const sources = (path) => JSON.parse(readFileSync(join(dir, path.slice(1) + '.map'), 'utf8')).sources.join(' ');
  const rows = [];
  const cores = {};
  for (const p of sitePages()) {
    const load = await measureLoad(browser, server.url + p.path);
    rows.push(`${p.name} ${(load.bytes / 1024).toFixed(1)} KB in ${load.requests}`);
    assert.deepEqual(load.errors, [], p.name);
    const scripts = load.files.filter((f) => /\.js$/.test(new URL(f.url).pathname)).map((f) => new URL(f.url).pathname);
    assert.ok(scripts.length > 0, p.name);
    for (const s of scripts) assert.match(s, /^\/assets\/[a-z-]+-[A-Z0-9]{8}\.js$/, `${p.name}: ${s} is not a bundled asset`);
    const asked = load.asked.map((u) => new URL(u).pathname);
    assert.deepEqual(scripts.filter((s) => !asked.includes(s) && !/^\/assets\/worker-/.test(s)), [], `${p.name}: scripts found only once an import ran`);
    cores[p.name] = scripts.filter((s) => /web\/gen\/attention-wasm-/.test(sources(s))).map((s) => sources(s).match(/attention-wasm-[a-z-]+/)[0]);
    assert.equal(cores[p.name].length, 1, `${p.name} loads one core: ${cores[p.name].join(', ')}`);
  }
  assert.deepEqual(cores.train, ['attention-wasm-trainer-simd'], 'the training page computes with the trainer core, and downloads no other');
  console.log(`  until the first numbers: ${rows.join('; ')}`);
  console.log(`  the core each page loads: ${Object.entries(cores).map(([k, v]) => `${k} ${v}`).join('; ')}`);
});

test("the explorer's first load goes compressed and fits its budget", async () => {
  const load = await measureLoad(browser, server.url);
  const text = load.files.filter((f) => /\.(html|js|css)$|\/$/.test(new URL(f.url).pathname));
  for (const f of text) assert.match(f.encoding, /^(br|gzip)$/, `${f.url} went uncompressed`);
  const list = load.files.map((f) => `${new URL(f.url).pathname} ${f.bytes}`).join(', ');
  console.log(`  explorer's first load: ${load.bytes} bytes in ${load.requests} requests (${list})`);
  assert.ok(load.bytes <= FIRST_LOAD_BUDGET, `the explorer's first load is ${load.bytes} bytes, over its budget of ${FIRST_LOAD_BUDGET}: ${list}`);
});

test('the build is one folder a static host serves as it is: pages link only files in it, every text file has .br and .gz beside it, every bundle its source map of the readable modules', () => {
  const files = new Set(readdirSync(dir, { recursive: true }).map(String));
  for (const page of ['index.html', 'labs.html']) {
    const html = readFileSync(join(dir, page), 'utf8');
    for (const [, href] of html.matchAll(/(?:src|href)="([^"?#]+\.(?:js|css|svg))"/g)) assert.ok(files.has(href), `${page} links ${href}, which the build lacks`);
    assert.match(html, /rel="modulepreload"/, page);
  }
  for (const f of files) {
    if (!/\.(html|js|css|svg)$/.test(f)) continue;
    assert.ok(files.has(f + '.br') && files.has(f + '.gz'), `${f} has no .br or .gz`);
    if (!f.endsWith('.js')) continue;
    assert.ok(files.has(f + '.map'), `${f} has no source map`);
    const map = JSON.parse(readFileSync(join(dir, f + '.map'), 'utf8'));
    for (const s of map.sources) assert.match(s, /^attention-explorer:\/\/\/web\//, `${f}.map: ${s}`);
  }
});
