// Writes site/: the production build of the pages, the folder `make run` serves and any static
// host can serve as it is (docs/deploy.md).
//   index.html, labs.html   web/'s pages, their module script pointing at the bundle, and a
//                           <link rel="modulepreload"> for every chunk it needs before its first
//                           numbers (so the browser fetches them at once, not one import at a time)
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

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');

// Each page, its module script (as web/ names it) and the modules it imports with import()
// before it can show numbers in its first mode, which its HTML preloads too: the forward core's
// SIMD build (web/gen/wasm-source.js picks it on every engine the bundle targets but the oldest).
const FORWARD_CORE = 'web/gen/attention-wasm-forward-simd.js';
export const PAGES = {
  'index.html': { script: 'app.js', preload: [FORWARD_CORE] },
  'labs.html': { script: 'labs/labs-page.js', preload: [FORWARD_CORE] },
};
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
  for (const [name, { script }] of Object.entries(PAGES)) {
    const result = await bundleJs(outDir, rel(join(WEB, script)), workerFile);
    add(result);
    pages[name] = { outputs: outputsByModule(result.metafile, outDir), metafile: result.metafile };
  }
  return { files, pages };
}

/** web/'s page with its script pointing at the bundle, and the preloads. */
function page(name, { script, preload }, outputs, metafile, outDir) {
  const html = readFileSync(join(WEB, name), 'utf8');
  const tag = `<script type="module" src="${script}"></script>`;
  if (!html.includes(tag)) throw new Error(`build-site: web/${name} has no ${tag}`);
  const entry = outputs.get(rel(join(WEB, script)));
  const needed = [...new Set([entry, ...preload.flatMap((id) => {
    const out = outputs.get(id);
    if (!out) throw new Error(`build-site: ${id}, preloaded by ${name}, is not a chunk of its own (no import() reaches it)`);
    return [out];
  })].flatMap((out) => staticClosure(metafile, outDir, out)))].filter((out) => out !== entry);
  const links = needed.map((out) => `<link rel="modulepreload" href="assets/${out}">`);
  return html.replace(tag, [`<script type="module" src="assets/${entry}"></script>`, ...links].join('\n'));
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
  for (const [name, p] of Object.entries(PAGES)) writeFileSync(join(outDir, name), page(name, p, pages[name].outputs, pages[name].metafile, outDir));
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
