// docs/embedding.md's recipes that need nothing but Node and Chromium, built from the guide's own
// text (tests/recipes.mjs): a static page, an iframe, and Vite building from the packed package
// offline. The hosts that need Debian packages (MkDocs, Sphinx, Hugo, Jupyter) are in
// tests/hosts/ (make test-hosts). Also: theme="auto" follows the page's color-scheme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync, cpSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot } from './helpers.mjs';
import { CSP } from './embed-helpers.mjs';
import { ROOT, writeRecipe, checkExplorer, withServed } from '../recipes.mjs';

let browser, tmp;
before(async () => {
  if (!existsSync(ROOT + 'dist/attention-explorer.js')) execFileSync('make', ['-s', 'dist'], { cwd: ROOT, stdio: 'inherit' });
  browser = await launch();
  tmp = mkdtempSync(join(tmpdir(), 'ae-recipes-'));
});
after(async () => {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * Serves `dir` under the strict CSP (and `csp`, more of it), opens `path` and runs fn({ page,
 * errors }); the server closes whatever fn does (withServed).
 */
const served = (dir, path, fn, { colorScheme = 'light', csp = '' } = {}) =>
  withServed(browser, dir, path, { headers: { 'content-security-policy': CSP + csp }, colorScheme }, fn);

test('docs recipe "static": the page as written, with the one file beside it, draws both elements and explains a hover', async () => {
  const dir = join(tmp, 'static');
  writeRecipe('static', dir, { dist: ['attention-explorer.js'] });
  await served(dir, '', async ({ page, errors }) => {
    await checkExplorer(page, 'static page');
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.dataset.ready));
    assert.deepEqual(errors, []);
  });
});

test('docs recipe "iframe": dist/index.html in a sandboxed frame draws and explains a hover, sizes its frame to its page as it changes, and its theme button works without storage', async () => {
  const dir = join(tmp, 'iframe');
  writeRecipe('iframe', dir, { dist: ['attention/attention-explorer.js'] });
  copyFileSync(ROOT + 'dist/index.html', join(dir, 'attention/index.html'));
  await served(dir, '', async ({ page, errors }) => {
    const iframe = await page.waitForSelector('iframe');
    const frame = await iframe.contentFrame();
    await checkExplorer(frame, 'iframe');
    // The frame's height is its page's (the element's message and fit-frame.js), with nothing cut.
    const fits = async (what) => {
      const inner = await page.waitForFunction(() => {
        const f = document.querySelector('iframe');
        return f.clientHeight !== 900 && f.clientHeight;
      });
      const height = await inner.jsonValue();
      const doc = await frame.evaluate(() => [Math.ceil(document.documentElement.getBoundingClientRect().height), document.documentElement.scrollHeight, innerHeight]);
      assert.equal(height, doc[0], `${what}: the frame is as tall as its page`);
      assert.ok(doc[1] <= doc[2], `${what}: nothing scrolls inside the frame (${doc[1]} px of page in ${doc[2]} px)`);
      return height;
    };
    const first = await fits('the cat preset');
    assert.ok(first > 900, `the page in the frame is taller than the recipe's fallback height (${first} px)`);
    // A bigger head grows the frame; a smaller one shrinks it again (below the first height).
    await frame.evaluate(() => (document.querySelector('attention-explorer').preset = 'previous-token'));
    await page.waitForFunction((h) => document.querySelector('iframe').clientHeight > h, first);
    const bigger = await fits('six tokens');
    await frame.evaluate(() => (document.querySelector('attention-explorer').preset = 'worked-example'));
    await page.waitForFunction((h) => document.querySelector('iframe').clientHeight < h, first);
    const smaller = await fits('three tokens');
    assert.ok(smaller < first && first < bigger, `the frame followed the head: ${first}, ${bigger}, ${smaller} px`);
    // The sandbox blocks storage; the theme button still switches (for the page's life).
    assert.equal(await frame.evaluate(() => { try { return typeof localStorage.getItem('x'); } catch { return 'blocked'; } }), 'blocked', 'the sandbox blocks localStorage');
    const el = frame.locator('attention-explorer');
    const before = await el.getAttribute('data-theme');
    await el.locator('#theme').click();
    await frame.waitForFunction((t) => document.querySelector('attention-explorer').dataset.theme !== t, before);
    assert.notEqual(await el.getAttribute('data-theme'), before, 'the theme button switched the theme');
    assert.deepEqual(errors, []);
  });
});

test('docs recipe "reveal": a reveal.js deck with the element on a dark slide; keys it acts on move the step and never the slide, other keys drive the deck', async () => {
  const dir = join(tmp, 'reveal');
  writeRecipe('reveal', dir, { dist: ['attention/attention-explorer.js'] });
  cpSync(ROOT + 'node_modules/reveal.js/dist', join(dir, 'reveal'), { recursive: true }); // the pinned reveal.js
  // (the strict CSP, with fonts from data: URLs, as reveal.js's themes embed theirs)
  await served(dir, '#/1', async ({ page, errors }) => {
    await page.waitForFunction(() => window.Reveal?.isReady() && document.querySelector('attention-explorer').dataset.ready);
    // reveal.js's default 960 × 700 slide (laid out again once the head is drawn) shows the heading
    // and the whole compact element under it, down to O's legend.
    assert.deepEqual(await page.evaluate(() => [Reveal.getConfig().width, Reveal.getConfig().height]), [960, 700]);
    await page.waitForFunction(() => {
      const el = document.querySelector('attention-explorer');
      const r = el.getBoundingClientRect();
      const legend = el.shadowRoot.querySelector('[data-panel="O"] .legend').getBoundingClientRect();
      return el.dataset.layout === 'compact' && document.querySelector('.present h3').getBoundingClientRect().bottom <= r.top && r.top >= 0 && r.bottom <= innerHeight && legend.bottom <= innerHeight;
    });
    const frame = page.mainFrame();
    await checkExplorer(frame, 'reveal.js');
    const el = page.locator('attention-explorer');
    assert.equal(await el.getAttribute('data-theme'), 'dark', 'the element is dark on the black theme (deck.css says color-scheme: dark)');
    const slide = () => page.evaluate(() => Reveal.getIndices().h);
    const step = () => page.evaluate(() => document.querySelector('attention-explorer').step);
    assert.deepEqual([await slide(), await step()], [1, 'softmax']);
    await shot(page, 'recipe-reveal-compact');
    // ArrowRight on the step bar: the next step, the same slide.
    await el.locator('[data-step="softmax"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('attention-explorer').step === 'mix');
    assert.equal(await slide(), 1, 'ArrowRight on the element stepped the head, not the deck');
    // Space on a step button presses it, and the deck stays.
    await el.locator('[data-step="score"]').focus();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('attention-explorer').step === 'score');
    assert.equal(await slide(), 1, 'Space on a button of the element pressed it, and the deck stayed');
    // A key the element does not use (N) passes: reveal.js goes to the next slide.
    await page.keyboard.press('n');
    await page.waitForFunction(() => Reveal.getIndices().h === 2);
    // Focus outside the element: ArrowLeft is the deck's.
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => Reveal.getIndices().h === 1);
    assert.equal(await step(), 'score', 'the deck\'s keys left the element alone');
    assert.deepEqual(errors, []);
  }, { csp: "; font-src 'self' data:" });
});

test('docs recipe "vite": vite build of the packed, installed package (offline) gives a page that draws and explains a hover', async () => {
  // The package as a course author gets it: npm pack, then npm install of the tarball.
  const app = join(tmp, 'vite-app');
  mkdirSync(app, { recursive: true });
  const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-course', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(tmp, tgz)], { cwd: app, stdio: 'pipe' });
  writeRecipe('vite', app);
  // Vite itself is the repository's pinned one (the guide's `npm install --save-dev vite` needs the network).
  execFileSync(process.execPath, [ROOT + 'node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'pipe' });
  const built = readdirSync(join(app, 'dist/assets'));
  assert.ok(built.some((f) => /attention-wasm-simd.*\.js$/.test(f)) && built.some((f) => /attention-wasm-scalar.*\.js$/.test(f)), `both Wasm builds are separate chunks: ${built}`);
  await served(join(app, 'dist'), '', async ({ page, errors }) => {
    const loaded = [];
    page.on('request', (r) => /attention-wasm-/.test(r.url()) && loaded.push(r.url()));
    await checkExplorer(page, 'vite build');
    assert.equal(loaded.filter((u) => /scalar/.test(u)).length, 0, 'the scalar build is not downloaded where SIMD runs');
    assert.deepEqual(errors, []);
  });
});

test('theme="auto" follows the page\'s color-scheme the way Docusaurus sets it, live, in the explorer and in a lab', async () => {
  const dir = join(tmp, 'theme');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(ROOT + 'dist').filter((f) => /^attention-explorer(\.[a-z-]+)?\.js$/.test(f))) copyFileSync(ROOT + 'dist/' + f, join(dir, f)); // the file and its parts (the lab's)
  // Infima's (Docusaurus's) rules, and its toggle: data-theme on <html>.
  writeFileSync(join(dir, 'site.css'), ":root { --ifm-color-scheme: light; }\nhtml[data-theme='dark'] { --ifm-color-scheme: dark; }\nhtml { color-scheme: var(--ifm-color-scheme); }\n");
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8"><title>t</title>' +
    '<link rel="stylesheet" href="site.css"><script src="attention-explorer.js"></script></head><body>' +
    '<attention-explorer id="e" preset="cat"></attention-explorer><attention-explorer id="l" mode="sqrt-dk-lab"></attention-explorer>' +
    '<attention-explorer id="fixed" preset="cat" theme="light"></attention-explorer></body></html>');
  // The reader's system says dark: the page's own light scheme wins, then its toggle.
  await served(dir, '', async ({ page, errors }) => {
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.dataset.ready));
    const themes = () => page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((e) => e.dataset.theme));
    assert.deepEqual(await themes(), ['light', 'light', 'light']);
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await page.waitForFunction(() => document.getElementById('e').dataset.theme === 'dark' && document.getElementById('l').dataset.theme === 'dark');
    assert.deepEqual(await themes(), ['dark', 'dark', 'light'], 'theme="light" stays light');
    const bg = await page.locator('#e .ae').evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(bg, 'rgb(255, 255, 255)', 'the dark stylesheet is in use');
    // A page that does not say: the reader's system setting.
    await page.evaluate(() => document.querySelector('link[rel=stylesheet]').remove());
    await page.evaluate(() => (document.documentElement.dataset.theme = 'none'));
    await page.waitForFunction(() => document.getElementById('e').dataset.theme === 'dark');
    assert.deepEqual(errors, []);
  }, { colorScheme: 'dark' });
});
