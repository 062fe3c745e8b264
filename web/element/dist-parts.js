// @ts-check
// dist-parts.js: loads the parts of dist/ (only in the build of tools/build-dist.mjs, which sets
// this module up). dist/attention-explorer.js holds the element, the explorer and the SIMD build of
// the forward core; the rest is in files beside it, attention-explorer.<part>.js (the labs, the
// train and induction modes, the trainers, the other Wasm builds), each loaded the first time
// something needs it (an import() in web/ that the build turned into loadPart):
//   - as a classic script (<script src>, which browsers allow from file://, where Chromium
//     refuses module imports): a <script> element with the part's URL beside this file's own, read
//     while the file runs (document.currentScript; the page's address for a script inlined in it);
//   - as a module (<script type="module">, Node, a bundler): import() of the part beside it.
// A part file only registers itself, by name, in REGISTRY on globalThis; its code runs when it is
// first asked for, with this file's modules. So parts joined to the main file in one script (the
// Jupyter recipe of docs/embedding.md) or loaded by <script> tags of their own are never fetched
// again. A part of another build is refused: the files must come from one dist/ folder.

import { setScriptSrc } from '../blocks/trusted-types.js';

/** The key of the registry on globalThis: part name -> { build, load(require, module) }. */
export const REGISTRY = Symbol.for('attention-explorer.parts');
/** @typedef {{ build: string, load: (require: (id: string) => object, module: { exports: any }) => void }} PartFile */
/** @type {Record<string, PartFile | undefined>} */
const registry = (/** @type {any} */ (globalThis)[REGISTRY] ||= {});

/** This file's <script> element while it runs as a classic script; null as a module or in Node. */
const script = typeof document === 'object' && document ? /** @type {HTMLScriptElement | null} */ (document.currentScript) : null;

/** @type {{ build: string, modules: Record<string, object>, imports: Record<string, () => Promise<unknown>>, what: Record<string, string> }} */
const dist = { build: '', modules: {}, imports: {}, what: {} };
/**
 * Called once by the build's entry: the build's id, this file's modules the parts use (by path),
 * an import() of each part file (for modules and bundlers), and what each part holds (for messages).
 * @param {typeof dist} setup
 */
export function setupParts(setup) {
  Object.assign(dist, setup);
}

/** @type {Map<string, Promise<Record<string, object>>>} */
const loaded = new Map();

/**
 * The modules of part `name`, by path ({ 'web/element/mode-labs.js': its namespace, ... }),
 * loading its file first unless it is registered already. A failed load is tried again next time.
 * @param {string} name @returns {Promise<Record<string, object>>}
 */
export function loadPart(name) {
  let p = loaded.get(name);
  if (!p) {
    loaded.set(name, (p = fetchPart(name).then(() => runPart(name))));
    p.catch(() => loaded.delete(name));
  }
  return p;
}

/** @param {string} name */
const fileOf = (name) => `attention-explorer.${name}.js`;

/** @param {string} name @returns {Promise<void>} */
async function fetchPart(name) {
  if (registry[name]) return;
  const file = fileOf(name);
  const where = script ? new URL(file, script.src || document.baseURI).href : file;
  try {
    if (script) await addScript(where);
    else await dist.imports[name]();
  } catch (e) {
    if (/** @type {{ code?: string }} */ (e).code === 'AE_TRUSTED_TYPES') throw e; // it says what to fix
    throw new Error(`${file}, which holds ${dist.what[name]}, did not load from “${where}”: put every attention-explorer*.js file of dist/ beside attention-explorer.js, or join them all into the one script where the script is inlined. (${/** @type {Error} */ (e).message})`);
  }
}

/** A classic <script> for the part, with this file's nonce for a page whose CSP asks for one. @param {string} url */
function addScript(url) {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    setScriptSrc(el, url); // (a page that enforces Trusted Types: web/blocks/trusted-types.js)
    if (script && script.nonce) el.nonce = script.nonce;
    el.onload = () => resolve(undefined);
    el.onerror = () => reject(new Error('the browser could not load it'));
    (document.head || document.documentElement).appendChild(el);
  });
}

/** Runs the registered part with this file's modules; returns its modules. @param {string} name */
function runPart(name) {
  const part = registry[name], file = fileOf(name);
  if (!part) throw new Error(`${file} loaded, but it is not a part of attention-explorer: put the attention-explorer*.js files of one dist/ folder beside attention-explorer.js.`);
  if (part.build !== dist.build) throw new Error(`${file} is from another build than attention-explorer.js (build ${part.build}, not ${dist.build}): copy every attention-explorer*.js file of one dist/ folder together.`);
  const module = { exports: /** @type {any} */ ({}) };
  part.load((id) => {
    if (!(id in dist.modules)) throw new Error(`${file} needs ${id}, which attention-explorer.js does not share: the two are from different builds.`);
    return dist.modules[id];
  }, module);
  return /** @type {Record<string, object>} */ (module.exports.modules);
}
