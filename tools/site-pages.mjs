// @ts-check
// The site's pages, as a learner opens them: each mode of web/index.html's nav (its
// <a data-mode> links) and each lab of web/labs/catalog.js on web/labs.html. The nav's "labs"
// link stands for every lab. make bench (bench/first-numbers.mjs) and the site's test
// (tests/tools/site.test.mjs) open these; adding a mode to the nav or a lab to the catalog adds
// it to both.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../web/labs/catalog.js';

const INDEX = fileURLToPath(new URL('../web/index.html', import.meta.url));
const CATALOG_FILE = fileURLToPath(new URL('../web/labs/catalog.js', import.meta.url));

/** @typedef {{ name: string, path: string }} SitePage  path: relative to the site's root */

/** @returns {SitePage[]} */
export function sitePages() {
  const html = readFileSync(INDEX, 'utf8');
  /** @type {SitePage[]} */
  const pages = [];
  for (const [, href, mode] of html.matchAll(/<a href="([^"]*)" data-mode="([a-z-]+)"/g)) {
    if (mode === 'labs') pages.push(...CATALOG.map((lab) => ({ name: lab.mode, path: `labs.html?mode=${lab.mode}` })));
    else pages.push({ name: mode, path: href === './' ? '' : href });
  }
  if (!pages.length) throw new Error('site-pages: web/index.html has no <a href data-mode> links in its nav');
  return pages;
}

/**
 * The modules of each lab of web/labs/catalog.js: what its entry imports (one line each,
 * entry('<mode>', ..., import('./x.js') ...)), as paths from the repository root. The site's build
 * preloads them on the lab's page; the build of dist/ puts them in its labs part.
 * @returns {Record<string, string[]>}
 */
export function labModules() {
  /** @type {Record<string, string[]>} */
  const modules = {};
  for (const [line, mode] of readFileSync(CATALOG_FILE, 'utf8').matchAll(/^\s*entry\('([a-z0-9-]+)'.*$/gm)) {
    modules[mode] = [...line.matchAll(/import\('\.\/([^']+)'\)/g)].map(([, f]) => 'web/labs/' + f);
  }
  const missing = CATALOG.filter((lab) => !modules[lab.mode]?.length).map((lab) => lab.mode);
  if (missing.length) throw new Error(`site-pages: no line entry('<mode>', ..., import('./...')) in web/labs/catalog.js for ${missing.join(', ')}`);
  return modules;
}
