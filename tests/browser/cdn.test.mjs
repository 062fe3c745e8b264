// docs/embedding.md's CDN form works as written: `npm pack` gives the tarball the registry would
// get; its files are served under /npm/<name>@<version>/ from a second origin, as the public npm
// CDNs serve a published package (with Access-Control-Allow-Origin: *); a page of another origin
// holding exactly the documented snippet, under the documented policy, shows the head's numbers
// and loads a lab's part from the CDN. The snippet and the policy are read from the doc, so the
// doc and the test cannot differ.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, ROOT } from './helpers.mjs';
import { startServer } from '../../tools/serve.mjs';

const CDN = 'https://cdn.jsdelivr.net';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const doc = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');
let dir, cdn, site, browser;

before(async () => {
  // `make test` builds these first; run alone, this test builds them.
  if (!['web/gen/wasm-source.js', 'dist/attention-explorer.js'].every((f) => existsSync(join(ROOT, f)))) {
    execFileSync('make', ['-s', 'all', 'dist'], { cwd: ROOT, stdio: 'inherit' });
  }
  dir = mkdtempSync(join(tmpdir(), 'ae-cdn-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  mkdirSync(join(dir, 'cdn', 'npm'), { recursive: true });
  renameSync(join(dir, 'package'), join(dir, 'cdn', 'npm', `${pkg.name}@${pkg.version}`));
  cdn = await startServer({ root: join(dir, 'cdn'), port: 0, headers: { 'access-control-allow-origin': '*' } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await cdn?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("docs/embedding.md's CDN snippet, served from the packed tarball on another origin, shows the head's numbers and loads a lab from the CDN", async () => {
  const snippet = /<!-- cdn -->\s*```html\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(snippet, 'docs/embedding.md has the marked CDN snippet');
  assert.ok(snippet.includes(`${CDN}/npm/${pkg.name}@${pkg.version}/dist/`), `the snippet names ${pkg.name}@${pkg.version}`);
  const policy = new RegExp(`\`(script-src ${CDN.replace(/\./g, '\\.')}[^\`]*)\``).exec(doc)?.[1];
  assert.ok(policy, 'docs/embedding.md gives the script-src a CDN page needs');

  const origin = cdn.url.replace(/\/$/, '');
  mkdirSync(join(dir, 'site'));
  // The lesson page: its own icon (else the browser's request for /favicon.ico is a 404), then the snippet.
  copyFileSync(join(ROOT, 'web/favicon.svg'), join(dir, 'site', 'favicon.svg'));
  writeFileSync(join(dir, 'site', 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>A lesson</title>' +
    `<link rel="icon" href="favicon.svg">\n${snippet.replaceAll(CDN, origin)}`);
  site = await startServer({
    root: join(dir, 'site'), port: 0,
    headers: { 'content-security-policy': `default-src 'self'; ${policy.replaceAll(CDN, origin)}; style-src 'self'` },
  });
  assert.notEqual(new URL(site.url).origin, origin, 'the page and the CDN are two origins');

  const page = await browser.newPage();
  const problems = [], requests = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  await page.goto(site.url);
  await page.waitForSelector('attention-explorer[data-ready]', { timeout: 60000 });
  // The snippet follows a token: its row of A is drawn, numbers that add up to 1.
  const follow = Number(/follow="(\d+)"/.exec(snippet)?.[1] ?? 0);
  const row = await page.locator(`attention-explorer [data-matrix="A"][data-row="${follow}"]`).allTextContents();
  assert.ok(row.length > 0, 'A is drawn');
  const weights = row.map(Number);
  assert.ok(weights.every((w) => w >= 0 && w <= 1), `A's row is weights: ${row.join(' ')}`);
  assert.ok(Math.abs(weights.reduce((a, b) => a + b) - 1) < 0.01, `A's row adds up to 1: ${row.join(' ')}`);

  // A lab is a part of dist/: the element fetches it from beside attention-explorer.js, on the CDN.
  const labsPart = `${origin}/npm/${pkg.name}@${pkg.version}/dist/attention-explorer.labs.js`;
  await page.evaluate(() => {
    const el = document.createElement('attention-explorer');
    el.setAttribute('mode', 'stability-lab');
    document.body.append(el);
    return /** @type {any} */ (el).ready;
  });
  assert.ok(requests.includes(labsPart), `the lab's part came from the CDN (${labsPart})`);
  assert.deepEqual(requests.filter((u) => !u.startsWith(site.url) && !u.startsWith(`${origin}/npm/${pkg.name}@${pkg.version}/dist/`) && !/^(data|blob):/.test(u)), [], 'nothing else was fetched');
  assert.deepEqual(problems, []);
});
