// The recipes of docs/embedding.md, read from the guide itself so the tests and the guide cannot
// drift: each file of a recipe is a fenced block after a marker line
//   <!-- recipe: NAME PATH -->   (or NAME,NAME PATH for a file two recipes share)
// and checkExplorer() is what "it works" means for every host: the element draws the head, and
// hovering a weight explains it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../tools/serve.mjs';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GUIDE = readFileSync(ROOT + 'docs/embedding.md', 'utf8');

/** The files of recipe `name`: { path: text }. */
export function recipe(name) {
  const files = {};
  for (const m of GUIDE.matchAll(/<!-- recipe: (\S+) (\S+) -->\n```[a-z]*\n([\s\S]*?)```/g)) {
    if (m[1].split(',').includes(name)) files[m[2]] = m[3];
  }
  assert.ok(Object.keys(files).length, `docs/embedding.md has no recipe "${name}"`);
  return files;
}

/** Writes a recipe's files under `dir`, and dist/attention-explorer.js at each path of `dist`, with its parts (dist/attention-explorer.*.js) beside it, as docs/embedding.md says. */
export function writeRecipe(name, dir, { dist = [] } = {}) {
  const files = recipe(name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const path of dist) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(ROOT + 'dist/attention-explorer.js', join(dir, path));
    for (const part of readdirSync(ROOT + 'dist').filter((f) => /^attention-explorer\.[a-z-]+\.js$/.test(f))) copyFileSync(ROOT + 'dist/' + part, join(dir, dirname(path), part));
  }
  return files;
}

/**
 * In `frame` (a Playwright page or frame): an <attention-explorer> draws the head (the cat
 * preset: A is 5 × 5), and hovering A[5][2] explains that weight with its number.
 */
export async function checkExplorer(frame, what) {
  await frame.waitForSelector('attention-explorer[data-ready]', { timeout: 30_000 });
  const el = frame.locator('attention-explorer').first();
  const cells = await el.locator('[data-matrix="A"][data-row]').count();
  assert.equal(cells, 25, `${what}: the 5 × 5 weights are drawn`);
  const cell = el.locator('[data-matrix="A"][data-row="4"][data-col="1"]');
  await cell.scrollIntoViewIfNeeded();
  await cell.hover();
  await frame.waitForFunction(() => /^A\[5\]\[2\] = /.test(document.querySelector('attention-explorer').shadowRoot.querySelector('#explain-title').textContent));
  const text = await el.locator('#explanation').textContent();
  assert.match(text, /softmax|weight/i, `${what}: hovering A[5][2] explains it`);
  assert.equal(await el.locator('#explain-title').textContent(), `A[5][2] = ${(await cell.textContent()).trim()}`);
}

/**
 * Serves `dir` (with extra response `headers`) and opens `path` in a fresh context. `errors`
 * collects uncaught exceptions, console errors and failed responses (with their URL); the
 * browser's own request for /favicon.ico is not a page's.
 */
export async function openServed(browser, dir, path = '', { headers = {}, colorScheme = 'light' } = {}) {
  const server = await startServer({ root: dir, port: 0, headers });
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme });
  // Only the local server answers, as on a machine without network (CI): a theme's request to a CDN
  // fails at once instead of hanging the page's load event until a timeout.
  await context.route((url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost', (route) => route.abort('internetdisconnected'));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && !/^Failed to load resource/.test(m.text()) && errors.push(m.text()));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(server.url + path);
  return { page, errors, close: async () => (await context.close(), await server.close()) };
}

/**
 * openServed, then fn({ page, errors }); the page and the server close whatever fn does (a failed
 * assertion must not leave the server open: node would wait for ever).
 * @param {import('playwright-core').Browser} browser @param {string} dir @param {string} path
 * @param {{ headers?: Record<string, string | null>, colorScheme?: 'light' | 'dark' }} options
 * @param {(site: { page: import('playwright-core').Page, errors: string[] }) => Promise<void>} fn
 */
export async function withServed(browser, dir, path, options, fn) {
  const { close, ...site } = await openServed(browser, dir, path, options);
  try {
    await fn(site);
  } finally {
    await close();
  }
}
