// make test-hosts, the hosts that come from npm: docs/embedding.md's React 18 and 19 (Vite),
// VitePress, Astro and Eleventy recipes, each installed at the versions the guide names (pinned by
// the package.json and package-lock.json of tests/hosts/npm/HOST/; npm ci needs the npm registry),
// with the packed package installed as a course author installs it, built by the host's own CLI
// exactly as the guide says, then opened in Chromium: both elements draw their heads (25 and 9
// weights), a hover is explained, the host's dark mode reaches the element where it has one, and
// nothing logs an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../browser/helpers.mjs';
import { ROOT, writeRecipe, checkExplorer, withServed } from '../recipes.mjs';

let browser, tmp, tgz;
before(async () => {
  if (!existsSync(ROOT + 'dist/attention-explorer.js')) execFileSync('make', ['-s', 'dist'], { cwd: ROOT, stdio: 'inherit' });
  browser = await launch();
  tmp = mkdtempSync(join(tmpdir(), 'ae-npm-hosts-'));
  tgz = join(tmp, execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop());
});
after(async () => {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs a command in `cwd`; on failure the message holds its output. */
function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_UPDATE_NOTIFIER: '1' } });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout}\n${e.stderr}`);
  }
}

/** A course folder with the host at its pinned versions and the packed package, and the recipe's files. */
function course(host, recipe = host) {
  const app = join(tmp, recipe);
  mkdirSync(app, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(ROOT + `tests/hosts/npm/${host}/${f}`, join(app, f));
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], app);
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', tgz], app);
  writeRecipe(recipe, app);
  return app;
}

// A site is served as its host would serve it: without tools/serve.mjs's strict policy.
// visit(dir, [path,] fn): the site served and opened, fn run on it, both closed whatever happens.
const visit = (dir, ...rest) => withServed(browser, dir, rest.length > 1 ? rest[0] : '', { headers: { 'content-security-policy': null } }, rest[rest.length - 1]);

/** Both elements draw (the cat preset's 5 × 5 weights, then a 3-token head's 3 × 3) and the first explains a hover. */
async function checkBoth(page, what) {
  await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].filter((e) => e.dataset.ready).length === 2, null, { timeout: 30_000 });
  const counts = await page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((e) => e.shadowRoot.querySelectorAll('[data-matrix="A"][data-row]').length));
  assert.deepEqual(counts, [25, 9], `${what}: the weights of both heads are drawn`);
  await checkExplorer(page, what);
}

for (const react of ['react18', 'react19']) {
  test(`${react === 'react18' ? 'React 18' : 'React 19'} with Vite: the TSX type-checks, the build draws both heads, the head in state is shown and follows its state, a selection reaches React`, async () => {
    const app = course(react);
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], app); // the guide's `npx tsc`
    run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], app);
    await visit(join(app, 'dist'), async ({ page, errors }) => {
      await checkBoth(page, react);
      // The second element shows the head set from state on the first render: its tokens, and
      // every key visible (causal: false)
      const mine = page.locator('attention-explorer').nth(1);
      const shown = () => mine.evaluate((e) => ({ tokens: e.config.tokens, causal: e.config.causal, masked: e.shadowRoot.querySelectorAll('[data-matrix="A"].masked, [data-matrix="A"] .masked').length }));
      assert.deepEqual((await shown()).tokens, ['I', 'saw', 'it']);
      assert.equal((await shown()).causal, false);
      // A change of state reaches it: causal now
      await page.click('#causal');
      await page.waitForFunction(() => document.querySelectorAll('attention-explorer')[1].config.causal === true);
      // A click on a token to follow reaches React's state
      await page.locator('attention-explorer').first().locator('[data-follow="2"]').first().click();
      await page.waitForFunction(() => document.querySelector('#row').textContent === 'Following row 2');
      assert.deepEqual(errors, []);
    });
  });
}

test('VitePress: with isCustomElement the built page keeps both elements, hydrates without a mismatch, and the dark switch turns them dark', async () => {
  const app = course('vitepress');
  run(process.execPath, ['node_modules/vitepress/bin/vitepress.js', 'build', 'docs'], app);
  await visit(join(app, 'docs/.vitepress/dist'), async ({ page, errors }) => {
    await checkBoth(page, 'VitePress');
    const themes = () => page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((e) => e.dataset.theme));
    assert.deepEqual(await themes(), ['light', 'light']);
    // VitePress's own switch (at this width it sits in the "..." menu of the navigation bar)
    await page.locator('.VPNavBarExtra button').first().click();
    await page.locator('.VPSwitchAppearance:visible').first().click();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true, 'VitePress is dark');
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.dataset.theme === 'dark'));
    assert.deepEqual(errors.filter((e) => !/favicon/.test(e)), []);
  });
});

test('Astro: the element imported in a <script> is bundled; the built page draws both heads', async () => {
  const app = course('astro');
  run(process.execPath, ['node_modules/astro/astro.js', 'build', '--silent'], app);
  await visit(join(app, 'dist'), async ({ page, errors }) => {
    await checkBoth(page, 'Astro');
    assert.deepEqual(errors, []);
  });
});

test('Eleventy: the passthrough copy brings the element and its parts; the built page draws both heads and opens a lab from a part', async () => {
  const app = course('eleventy');
  run(process.execPath, ['node_modules/@11ty/eleventy/cmd.cjs', '--quiet'], app);
  await visit(join(app, '_site'), async ({ page, errors }) => {
    await checkBoth(page, 'Eleventy');
    const lab = await page.evaluate(async () => {
      const el = document.body.appendChild(document.createElement('attention-explorer'));
      el.setAttribute('mode', 'sqrt-dk-lab');
      await el.ready;
      return el.shadowRoot.querySelectorAll('section.lab').length;
  });
  assert.equal(lab, 1, 'a lab, loaded from its part in _site/attention/');
  assert.deepEqual(errors, []);
  });
});
