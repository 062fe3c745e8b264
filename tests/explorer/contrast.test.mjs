// The page's own colours (web/explorer/style.css) meet WCAG AA for text on both themes, and the focus
// ring meets the 3:1 of a user-interface component. Cell text is checked in page-colors.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { contrast } from '../../web/blocks/colors.js';

const css = readFileSync(new URL('../../web/explorer/style.css', import.meta.url), 'utf8');
const block = (selector) => css.slice(css.indexOf(selector)).split('}')[0];
const vars = (text) => Object.fromEntries([...text.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map(([, k, v]) => [k, v]));
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const THEMES = { light: vars(block(':root {')), dark: vars(block("html[data-theme='dark'] {")) };

for (const [theme, v] of Object.entries(THEMES)) {
  test(`${theme}: text, muted text, links and errors are at least 4.5:1 on the background and on panels`, () => {
    for (const fg of ['fg', 'muted', 'accent']) {
      for (const bg of ['bg', 'panel']) {
        const c = contrast(rgb(v[fg]), rgb(v[bg]));
        assert.ok(c >= 4.5, `--${fg} on --${bg}: ${c.toFixed(2)}:1`);
      }
    }
    assert.ok(contrast(rgb(v['accent-fg']), rgb(v.accent)) >= 4.5, 'text on an accent (pressed) button');
    assert.ok(contrast(rgb(v['error-fg']), rgb(v['error-bg'])) >= 4.5, 'error text');
  });
  test(`${theme}: the focus ring is at least 3:1 on the background and on panels`, () => {
    for (const bg of ['bg', 'panel']) assert.ok(contrast(rgb(v.focus), rgb(v[bg])) >= 3, `--focus on --${bg}`);
  });
}
