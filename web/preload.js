// @ts-check
// preload.js: the first script of each page of the production build (tools/build-site.mjs). It
// imports nothing, so it runs as soon as it arrives, and asks at once for what the page's mode
// needs before its first numbers (its ?mode=: the core it computes with, the modules and the
// stylesheet of its panel or lab), which the page would otherwise find one import at a time.
// The page's HTML preloads only what every mode needs.
// The build writes each page's table in place of the empty one below: a mode's files, relative
// to the page, with the key "" for a page opened with no mode, or one it does not know.
// As the repository holds it, the table is empty: `make dev` preloads nothing.

/** @type {Record<string, string[]>} */
const PRELOADS = {};

const mode = new URLSearchParams(location.search).get('mode') || '';
const files = Object.hasOwn(PRELOADS, mode) ? PRELOADS[mode] : PRELOADS[''] || [];
for (const file of files) {
  const link = document.createElement('link');
  if (file.endsWith('.css')) {
    link.rel = 'preload';
    link.as = 'style';
  } else {
    link.rel = 'modulepreload';
  }
  link.href = file;
  document.head.append(link);
}
