// Writes site/: the production build of the pages, the folder `make run` serves and any static
// host can serve as it is (docs/deploy.md).
//   index.html, labs.html   web/'s pages, their module script pointing at the bundle, a
//                           <link rel="modulepreload"> for every chunk each of its modes needs
//                           before its first numbers, and before them web/preload.js, bundled with
//                           the table of what each mode needs besides (the training page's core,
//                           a lab's modules), which it asks for at once: the browser fetches all
//                           of it together, not one import at a time, and nothing a mode leaves unused
//   assets/*-<hash>.js      each page's modules bundled by esbuild (and the induction worker's):
//                           minified, split into chunks (a mode, a lab, a core build loads when
//                           it is asked for), with source
//                           maps (*.js.map) that show the readable modules in the browser's tools
//                           (under attention-explorer:///web/...);
//                           the hash in each name lets a server cache them for good
//   explorer/style.css ...  the stylesheets, minified, where the pages and web/app.js look for them
//   *.gz, *.br              every text file compressed (gzip -9, brotli 11), which tools/serve.mjs
//                           (and a static host told to) sends to a browser that accepts it
// The readable modules of web/ stay as they are: `make dev` serves them.
// Deterministic: the same sources give the same bytes. Usage: node tools/build-site.mjs [OUTDIR]
import { readFileSync, writeFileSync, mkdirSync, rmSync, readdirSync, statSync, copyFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { build as esbuild, transform } from 'esbuild';
import { TARGET, minifyCss } from './build-dist.mjs';
import { CATALOG } from '../web/labs/catalog.js';
import { labModules } from './site-pages.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');

// Each page, its module script (as web/ names it), the modules it imports with import() before it
// can show numbers in any of its modes, which its HTML preloads too, and the table of what each
// of its modes needs before its first numbers (modes(): mode -> modules and stylesheets, "" for
// no mode), which web/preload.js asks for as soon as it runs. A core is its SIMD build
// (web/gen/wasm-source.js picks it on every engine the bundle targets but the oldest).
// The cores that train load web/core/trainer.js with their Wasm, the full one
// web/core/induction-model.js too (web/core/attention.js loadAttention).
const coreModules = (core) => [`web/gen/attention-wasm-${core === 'full' ? '' : core + '-'}simd.js`,
  ...(core === 'forward' ? [] : ['web/core/trainer.js']), ...(core === 'full' ? ['web/core/induction-model.js'] : [])];
const FORWARD_CORE = coreModules('forward')[0];
export const PAGES = {
  'index.html': { script: 'app.js', preload: [], modes: appModes },
  'labs.html': { script: 'labs/labs-page.js', preload: [], modes: labModes },
};
const PRELOAD = 'web/preload.js';

/**
 * web/app.js's modes: the explorer (and any mode it does not know) needs the forward core; each
 * panel of its PANELS (one line each: { load: () => import('./x/panel.js')..., css: '...', core: '...' })
 * its module, its stylesheet and its core.
 */
function appModes() {
  const modes = { '': [FORWARD_CORE] };
  for (const [, mode, module, css, core] of readFileSync(join(WEB, 'app.js'), 'utf8').matchAll(/^\s*([a-z]+): \{ load: \(\) => import\('\.\/([^']+)'\).*?css: '([^']+)', core: '([a-z]+)'/gm)) {
    modes[mode] = [...coreModules(core), 'web/' + module, css];
  }
  if (Object.keys(modes).length < 2) throw new Error('build-site: found no panel in web/app.js PANELS (one line each: name: { load: () => import(...), css, core, ... })');
  return modes;
}

/** web/labs/catalog.js's labs, each with its modules; the page with no lab, or one it does not know, shows the first. */
function labModes() {
  const modes = labModules();
  // each lab's core with it: the forward core, or the larger one a lab needs (catalog.js)
  for (const lab of CATALOG) modes[lab.mode] = [...modes[lab.mode], ...coreModules(lab.core)];
  return { ...modes, '': modes[CATALOG[0].mode] };
}

// Started by web/induction/panel.js with new Worker(web/induction/worker-url.js's URL): a bundle
// of its own, whose name the build puts in worker-url.js's place.
const WORKER = 'web/induction/worker.js';
const WORKER_URL = 'web/induction/worker-url.js';
// Files copied as they are, and the stylesheets (minified).
const COPY = ['favicon.svg'];
const CSS = ['explorer/style.css', 'labs/labs.css', 'train/train.css', 'induction/induction.css'];
const COMPRESS = /\.(html|js|css|svg|map|json|txt)$/;

const rel = (abs) => relative(ROOT, resolve(ROOT, abs)).split('\\').join('/');

/**
 * One entry's bundle (`entry` a path from the repository root): the entry, the chunks it imports
 * and those its import()s load, in assets/. `workerFile` (a name in assets/) is the worker's URL.
 */
async function bundleJs(outDir, entry, workerFile) {
  const result = await esbuild({
    entryPoints: [join(ROOT, entry)],
    outdir: join(outDir, 'assets'), outbase: WEB,
    entryNames: '[name]-[hash]', chunkNames: 'chunk-[hash]',
    bundle: true, splitting: true, format: 'esm', minify: true, sourcemap: 'linked',
    target: TARGET, charset: 'utf8', legalComments: 'none', metafile: true, write: false, logLevel: 'silent',
    plugins: [{
      name: 'attention-explorer-site',
      setup(b) {
        b.onLoad({ filter: /[\\/]induction[\\/]worker-url\.js$/ }, (args) => {
          if (rel(args.path) !== WORKER_URL) return undefined;
          return { contents: `export const workerUrl = () => new URL(${JSON.stringify('./' + workerFile)}, import.meta.url);\n`, loader: 'js' };
        });
        minifyCss(b);
      },
    }],
  });
  if (result.warnings.length) throw new Error(`build-site: esbuild warned:\n${result.warnings.map((w) => `${w.location?.file}:${w.location?.line}: ${w.text}`).join('\n')}`);
  return result;
}

/** The output file of each module that is an entry or the target of an import(). */
function outputsByModule(metafile, outDir) {
  const byModule = new Map();
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint) byModule.set(rel(info.entryPoint), relative(join(outDir, 'assets'), resolve(ROOT, out)));
  }
  return byModule;
}

/** An output and every chunk it imports statically, in the order found (names in assets/). */
function staticClosure(metafile, outDir, first) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const key = Object.keys(metafile.outputs).find((o) => o.endsWith('/assets/' + name));
    for (const imp of metafile.outputs[key].imports) if (imp.kind === 'import-statement') visit(relative(join(outDir, 'assets'), resolve(ROOT, imp.path)));
  };
  visit(first);
  return [...seen];
}

/**
 * A bundle for each page and one for the worker, each split for what it loads later. Bundled
 * apart, a page's first load is its entry and a chunk or two, not the dozen small chunks that
 * modules shared between pages would make (on a slow link each costs a round trip); a module two
 * pages use is downloaded once by each. The worker comes first: a page's bundle needs its name.
 * Returns { files: path -> bytes, pages: page -> { outputs, metafile } }.
 */
async function bundle(outDir) {
  /** @type {Map<string, Uint8Array | string>} */
  const files = new Map();
  const add = (result) => {
    for (const f of result.outputFiles) {
      const body = f.path.endsWith('.map') ? sourceMap(f.path, f.text) : f.contents;
      const known = files.get(f.path);
      // Two bundles may hold the same chunk (the same bytes, so the same name); never two contents under one name.
      if (known !== undefined && Buffer.compare(Buffer.from(known), Buffer.from(body)) !== 0) throw new Error(`build-site: two bundles wrote ${rel(f.path)} with different contents`);
      files.set(f.path, body);
    }
  };
  const worker = await bundleJs(outDir, WORKER, '');
  add(worker);
  const workerFile = outputsByModule(worker.metafile, outDir).get(WORKER);
  const pages = {};
  for (const [name, { script, preload, modes }] of Object.entries(PAGES)) {
    const result = await bundleJs(outDir, rel(join(WEB, script)), workerFile);
    add(result);
    const outputs = outputsByModule(result.metafile, outDir);
    const entry = outputs.get(rel(join(WEB, script)));
    const closure = (ids) => [...new Set(ids.flatMap((id) => {
      if (id.endsWith('.css')) return [id];
      const out = outputs.get(id);
      if (!out) throw new Error(`build-site: ${id}, preloaded by ${name}, is not a chunk of its own (no import() reaches it)`);
      return staticClosure(result.metafile, outDir, out).map((f) => 'assets/' + f);
    }))];
    // What every mode needs is in the HTML; the table holds what the mode needs besides.
    const always = closure([rel(join(WEB, script)), ...preload]);
    const table = Object.fromEntries(Object.entries(modes()).map(([mode, ids]) => [mode, closure(ids).filter((f) => !always.includes(f))]));
    const boot = await bundlePreload(outDir, table);
    add(boot);
    pages[name] = { entry, always: always.filter((f) => f !== 'assets/' + entry), boot: outputsByModule(boot.metafile, outDir).get(PRELOAD) };
  }
  return { files, pages };
}

/** web/preload.js, bundled with the page's table of what each mode needs in place of its empty one. */
async function bundlePreload(outDir, table) {
  const EMPTY = 'const PRELOADS = {};';
  return esbuild({
    entryPoints: [join(ROOT, PRELOAD)],
    outdir: join(outDir, 'assets'), outbase: WEB, entryNames: '[name]-[hash]',
    bundle: true, format: 'esm', minify: true, sourcemap: 'linked',
    target: TARGET, charset: 'utf8', legalComments: 'none', metafile: true, write: false, logLevel: 'silent',
    plugins: [{
      name: 'attention-explorer-preloads',
      setup(b) {
        b.onLoad({ filter: /[\\/]preload\.js$/ }, (args) => {
          const text = readFileSync(args.path, 'utf8');
          if (!text.includes(EMPTY)) throw new Error(`build-site: ${PRELOAD} has no line "${EMPTY}" for the build to fill`);
          return { contents: text.replace(EMPTY, `const PRELOADS = ${JSON.stringify(table)};`), loader: 'js' };
        });
      },
    }],
  });
}

/**
 * web/'s page with its script pointing at the bundle, web/preload.js's bundle before it (it imports
 * nothing and runs first), and a preload of every chunk each of its modes needs.
 */
function page(name, { script }, { entry, always, boot }) {
  const html = readFileSync(join(WEB, name), 'utf8');
  const tag = `<script type="module" src="${script}"></script>`;
  if (!html.includes(tag)) throw new Error(`build-site: web/${name} has no ${tag}`);
  const links = always.map((f) => `<link rel="modulepreload" href="${f}">`);
  return html.replace(tag, [`<script type="module" src="assets/${boot}" fetchpriority="high"></script>`, `<script type="module" src="assets/${entry}"></script>`, ...links].join('\n'));
}

// A source map names each readable module by its path in the repository under this scheme
// (as webpack:// does), so the browser's tools list web/'s tree, and the map is the same wherever
// the build is written. The maps hold the sources' text: no request for them goes out.
const SOURCE_SCHEME = 'attention-explorer:///';
/** esbuild's map at `path`, its sources renamed. @param {string} path @param {string} text */
function sourceMap(path, text) {
  const map = JSON.parse(text);
  map.sources = map.sources.map((/** @type {string} */ s) => SOURCE_SCHEME + rel(resolve(dirname(path), s)));
  return JSON.stringify(map);
}

/** Writes `name.gz` and `name.br` beside every text file of `dir` that they make smaller. */
function compressAll(dir) {
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(name));
    if (!COMPRESS.test(file) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    const gz = gzipSync(body, { level: 9 });
    const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
    if (gz.length < body.length) writeFileSync(file + '.gz', gz);
    if (br.length < body.length) writeFileSync(file + '.br', br);
  }
}

export async function buildSite(outDir) {
  const { files, pages } = await bundle(outDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  for (const [path, body] of files) writeFileSync(path, body);
  for (const [name, p] of Object.entries(PAGES)) writeFileSync(join(outDir, name), page(name, p, pages[name]));
  for (const f of COPY) copyFileSync(join(WEB, f), join(outDir, f));
  for (const f of CSS) {
    const { code } = await transform(readFileSync(join(WEB, f), 'utf8'), { loader: 'css', minify: true, target: TARGET.slice(1) });
    mkdirSync(dirname(join(outDir, f)), { recursive: true });
    writeFileSync(join(outDir, f), code);
  }
  compressAll(outDir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(ROOT, process.argv[2] || 'site');
  await buildSite(outDir);
  const files = readdirSync(outDir, { recursive: true }).map(String).filter((f) => !/\.(gz|br|map)$/.test(f) && statSync(join(outDir, f)).isFile());
  const size = (f) => statSync(join(outDir, f)).size;
  const brSize = (f) => { try { return size(f + '.br'); } catch { return size(f); } };
  console.log(`site: ${relative(ROOT, outDir)}/, ${files.length} files (${(files.reduce((s, f) => s + size(f), 0) / 1024).toFixed(0)} KB, ${(files.reduce((s, f) => s + brSize(f), 0) / 1024).toFixed(0)} KB with brotli) and their source maps`);
}
