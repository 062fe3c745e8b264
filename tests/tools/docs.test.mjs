// The published pages: a README a newcomer reads in five minutes, with a picture that exists, and
// no link in the README, CONTRIBUTING, the CHANGELOG or docs/ that leads nowhere. The CDN
// addresses name the package as package.json does, so a new version cannot leave them behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file) => readFileSync(join(ROOT, file), 'utf8');
const PAGES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const pkg = JSON.parse(read('package.json'));

/** Every Markdown link and image target of a page, with its line number; code blocks and code spans left out. */
function links(text) {
  const found = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: m[1], line: i + 1 });
  });
  return found;
}

test('the README is short enough to read in five minutes: at most 200 lines', () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines <= 200, `README.md has ${lines} lines: move detail to a page of docs/ and link it`);
});

test("the README shows a picture of the explorer that exists, made by make screenshot, small enough to load at once", () => {
  const images = links(read('README.md')).filter(({ target }) => /\.png$/.test(target));
  assert.ok(images.length >= 1, 'README.md embeds a PNG');
  for (const { target } of images) {
    const file = join(ROOT, target);
    assert.ok(existsSync(file), `${target} exists (make screenshot writes it)`);
    assert.equal(readFileSync(file).subarray(1, 4).toString('latin1'), 'PNG', `${target} is a PNG`);
    assert.ok(statSync(file).size < 150 * 1024, `${target} is ${(statSync(file).size / 1024).toFixed(0)} KB: under 150 KB`);
  }
  assert.match(read('Makefile'), /^screenshot:.*##/m, 'make screenshot is a documented target');
});

test('every relative link of the README, CONTRIBUTING, the CHANGELOG and docs/ leads to a file of the repository', () => {
  const broken = [];
  for (const page of PAGES) {
    if (!existsSync(join(ROOT, page))) {
      broken.push(`${page} is missing`);
      continue;
    }
    for (const { target, line } of links(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;   // http:, mailto:, an anchor of the page itself
      const path = decodeURIComponent(target.split('#')[0]);
      const file = join(ROOT, dirname(page), path);
      if (!relative(ROOT, file).startsWith('..') && existsSync(file)) continue;
      broken.push(`${page}:${line} links to ${target}, which is not a file of the repository`);
    }
  }
  assert.deepEqual(broken, []);
});

test("every CDN address in the README and docs/ names the package and the version of package.json", () => {
  let seen = 0;
  for (const page of PAGES) {
    for (const [url, name, version] of read(page).matchAll(/https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/([\w.-]+)@([\w.-]+)\//g)) {
      seen++;
      assert.equal(`${name}@${version}`, `${pkg.name}@${pkg.version}`, `${page}: ${url} should name ${pkg.name}@${pkg.version}`);
    }
  }
  assert.ok(seen >= 2, 'the README and docs/embedding.md give the CDN address');
});

test('the CHANGELOG has a section for the version package.json gives', () => {
  assert.match(read('CHANGELOG.md'), new RegExp(`^## \\[?${pkg.version.replace(/\./g, '\\.')}\\]?`, 'm'));
});

test("the README's API example runs as written, against web/core/attention.js, and its fused O is the long form's", async () => {
  const code = /## The API\s*```js\n([\s\S]*?)```/.exec(read('README.md'))?.[1];
  assert.ok(code, 'README.md has a js block under "The API"');
  const local = pathToFileURL(join(ROOT, 'web/core/attention.js')).href;
  const body = code.replace(/^import .*$/m, '').replace(/^(attn\.forward\(head, \{ outputs: \['O'\] \}\));/m, 'const fused = $1;');
  assert.match(code, new RegExp(`from '${pkg.name}'`), 'it imports the package by its name');
  const { loadAttention } = await import(local);
  const run = new Function('loadAttention', `return (async () => { ${body}; return { r, fused }; })();`);
  const { r, fused } = await run(loadAttention);
  assert.equal(r.A.length, r.n * r.m);
  assert.deepEqual(Array.from(fused.O), Array.from(r.O));
  assert.equal(r.A[1], 0, 'causal: query 0 cannot see key 1');
});
