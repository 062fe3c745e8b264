// make test-hosts: docs/embedding.md's recipes for the site generators and Jupyter, built by the
// real tools (Debian's mkdocs, mkdocs-material, python3-sphinx, hugo, jupyter-nbconvert; setup.sh
// hosts installs them) from the guide's own text (tests/recipes.mjs), then opened in Chromium: the
// element draws the head and hovering a weight explains it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../browser/helpers.mjs';
import { ROOT, recipe, writeRecipe, checkExplorer, withServed } from '../recipes.mjs';

let browser, tmp;
before(async () => {
  if (!existsSync(ROOT + 'dist/attention-explorer.js')) execFileSync('make', ['-s', 'dist'], { cwd: ROOT, stdio: 'inherit' });
  browser = await launch();
  tmp = mkdtempSync(join(tmpdir(), 'ae-hosts-'));
});
after(async () => {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs a site generator; on failure the message holds its output. */
function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout}\n${e.stderr}`);
  }
}

// A site generator's pages run their theme's own inline scripts and styles, so each site is served
// as its host would serve it: without tools/serve.mjs's strict policy (the element's own CSP test is
// tests/browser/recipes.test.mjs).
// visit(dir, [path,] fn): the site served and opened, fn run on it, both closed whatever happens.
const visit = (dir, ...rest) => withServed(browser, dir, rest.length > 1 ? rest[0] : '', { headers: { 'content-security-policy': null } }, rest[rest.length - 1]);

test('MkDocs: the recipe as written builds a site whose page draws the element and explains a hover', async () => {
  const dir = join(tmp, 'mkdocs');
  writeRecipe('mkdocs', dir, { dist: ['docs/attention-explorer.js'] });
  run('mkdocs', ['build', '--strict', '--site-dir', 'site'], dir);
  await visit(join(dir, 'site'), async ({ page, errors }) => {
    await checkExplorer(page, 'MkDocs');
    // MkDocs's own theme takes highlight.js from a CDN (no network here) and then calls it.
    assert.deepEqual(errors.filter((e) => !/hljs/.test(e)), []);
  });
});

test('Material for MkDocs: navigation.instant (with site_url) brings the element in by an instant page change; the palette toggle turns it dark', async () => {
  const dir = join(tmp, 'material');
  writeRecipe('material', dir, { dist: ['docs/attention-explorer.js'] });
  run('mkdocs', ['build', '--strict', '--site-dir', 'site'], dir);
  await visit(join(dir, 'site'), async ({ page, errors }) => {
    await page.waitForSelector('a[href="lesson/"]');
    await page.evaluate(() => (window.__samePage = true)); // a full page load would drop it
    await page.locator('article a[href="lesson/"]').click();
    await checkExplorer(page, 'Material, after an instant page change');
    assert.match(page.url(), /\/lesson\/$/);
    assert.equal(await page.evaluate(() => window.__samePage), true, 'the page changed without a full load (instant loading is on)');
    const theme = () => page.locator('attention-explorer').getAttribute('data-theme');
    assert.equal(await theme(), 'light');
    await page.locator('form[data-md-component="palette"] label:visible').first().click();
    await page.waitForFunction(() => document.querySelector('attention-explorer').dataset.theme === 'dark');
    assert.deepEqual(errors, []);
  });
});

test('Sphinx: the raw directive of the recipe gives a page that draws the element and explains a hover', async () => {
  const dir = join(tmp, 'sphinx');
  writeRecipe('sphinx', dir, { dist: ['_static/attention-explorer.js'] });
  run('sphinx-build', ['-q', '-W', '-b', 'html', '.', '_build/html'], dir);
  await visit(join(dir, '_build/html'), async ({ page, errors }) => {
    await checkExplorer(page, 'Sphinx');
    assert.deepEqual(errors, []);
  });
});

test('Hugo: with markup.goldmark.renderer.unsafe the page keeps the element; it draws and explains a hover', async () => {
  const dir = join(tmp, 'hugo');
  writeRecipe('hugo', dir, { dist: ['static/attention-explorer.js'] });
  // The recipe works with any theme; this stands in for one: a page's content in a plain page.
  mkdirSync(join(dir, 'layouts/_default'), { recursive: true });
  writeFileSync(join(dir, 'layouts/_default/single.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><main>{{ .Content }}</main></body></html>\n');
  writeFileSync(join(dir, 'layouts/_default/list.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ .Content }}</body></html>\n');
  run('hugo', ['--quiet', '--destination', 'public'], dir);
  assert.doesNotMatch(readFileSync(join(dir, 'public/lesson/index.html'), 'utf8'), /raw HTML omitted/);
  await visit(join(dir, 'public'), 'lesson/', async ({ page, errors }) => {
    await checkExplorer(page, 'Hugo');
    assert.deepEqual(errors, []);
  });
});

test('Jupyter: the two cells of the recipe, executed by nbconvert, give an HTML page that draws the element and explains a hover', async () => {
  const dir = join(tmp, 'jupyter');
  mkdirSync(dir, { recursive: true });
  writeRecipe('jupyter', dir, { dist: ['attention-explorer.js'] });
  const cells = Object.values(recipe('jupyter')).map((source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source }));
  const notebook = { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, cells };
  writeFileSync(join(dir, 'lesson.ipynb'), JSON.stringify(notebook));
  run('jupyter', ['nbconvert', '--to', 'html', '--execute', '--ExecutePreprocessor.timeout=60', 'lesson.ipynb'], dir);
  // The page carries the main file and its parts joined: with the files gone, a lab still opens.
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.js'))) rmSync(join(dir, f));
  await visit(dir, 'lesson.html', async ({ page, errors }) => {
    await checkExplorer(page, 'nbconvert HTML');
    const lab = await page.evaluate(async () => {
      const el = document.body.appendChild(document.createElement('attention-explorer'));
      el.setAttribute('mode', 'stability-lab');
      await el.ready;
      return el.shadowRoot.querySelectorAll('section.lab[data-lab="stability-lab"]').length;
    });
    assert.equal(lab, 1, 'a lab, from the parts inlined in the page');
    // The exported page's own template asks a CDN for require.js and MathJax (no network here):
    // those requests fail harmlessly; nothing of ours may throw.
    assert.deepEqual(errors.filter((e) => !/require|MathJax/i.test(e)), []);
  });
});
