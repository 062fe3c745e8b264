// Writes dist/ with esbuild (devDependency, pinned):
//   attention-explorer.js  the <attention-explorer> element, the explorer and the SIMD build of the
//                          forward core (the explorer's) in one minified file: all a page with the
//                          explorer needs
//   attention-explorer.<part>.js  the rest (PARTS below: the labs, the train and induction modes,
//                          the trainers, the other Wasm builds), each loaded by the main file
//                          from beside itself the first time it is needed (web/element/dist-parts.js)
//   index.html, lab.html   the explorer and a lab as pages that open by double-click from file://
//
// Every file is an IIFE with no import or export statement, so it runs both as a classic script
// (which Chromium allows from file://, where it blocks module imports) and as a module
// (<script type="module">, Node). The main file's API is globalThis.AttentionExplorer.
// Deterministic: the same sources give the same bytes (tests/browser/pack.test.mjs builds twice).
// Usage: node tools/build-dist.mjs [OUTDIR]
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { createHash } from 'node:crypto';
import { build as esbuild, transform } from 'esbuild';
import { labModules } from './site-pages.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(ROOT, process.argv[2] || 'dist');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// The engines the bundle is written for: every one with DecompressionStream (web/core/gunzip.js),
// which also have class fields, private methods and ?? (ES2022).
export const TARGET = ['es2022', 'chrome91', 'firefox113', 'safari16.4'];

// Modules replaced in the bundle (paths from the repository root). The induction page's worker
// is a file of its own, which a classic script cannot start from file://: there it trains on the
// page's thread instead.
export const ALIASES = {
  'web/induction/worker-url.js': 'web/induction/worker-url-inline.js',
};

// The parts: what the main file loads the first time it is needed, each from a file of its own
// beside it, dist/attention-explorer.<name>.js (web/element/dist-parts.js). Every import() in the main
// file's modules loads the part holding its module (an entry here, or a module an entry imports),
// except those in INLINE, which stay in the main file: the explorer's own core. `what` names the
// part in the message a failed load gives.
export const PARTS = {
  labs: { what: 'the labs (mode="sqrt-dk-lab" and the others)', entries: ['web/element/mode-labs.js', ...Object.values(labModules()).flat()] },
  train: { what: 'mode="train"', entries: ['web/element/mode-train.js'] },
  induction: { what: 'mode="induction"', entries: ['web/element/mode-induction.js'] },
  src: { what: 'loading a config from the src attribute', entries: ['web/element/fetch-config.js'] },
  geometry: { what: 'the explorer’s geometry view (its arrows button, mode="geometry")', entries: ['web/explorer/geometry-view.js'] },
  frame: { what: 'reporting the height of a frame to the page around it', entries: ['web/element/frame-height.js'] },
  trainers: { what: "the core's trainers and induction models", entries: ['web/core/trainer.js', 'web/core/induction-model.js'] },
  'forward-scalar': { what: 'the scalar build of the forward core (for engines without Wasm SIMD)', entries: ['web/gen/attention-wasm-forward-scalar.js'] },
  'trainer-simd': { what: 'the trainer core (SIMD build)', entries: ['web/gen/attention-wasm-trainer-simd.js'] },
  'trainer-scalar': { what: 'the trainer core (scalar build, for engines without Wasm SIMD)', entries: ['web/gen/attention-wasm-trainer-scalar.js'] },
  'full-simd': { what: 'the full core (SIMD build)', entries: ['web/gen/attention-wasm-simd.js'] },
  'full-scalar': { what: 'the full core (scalar build, for engines without Wasm SIMD)', entries: ['web/gen/attention-wasm-scalar.js'] },
};
export const INLINE = ['web/gen/attention-wasm-forward-simd.js'];
// A module that two parts import is in both, as two copies: only stateless ones may be (the
// induction panel takes niceCeil from web/train/words.js; the training panel and the geometry view
// draw with web/blocks/svg.js). The build refuses any other.
export const MAY_REPEAT = ['web/train/words.js', 'web/blocks/copy-link.js', 'web/blocks/svg.js'];

const banner = `/*! attention-explorer ${pkg.version} (${pkg.license}): the <attention-explorer> element and its
 * WebAssembly core, as a classic or module script. It loads its parts (attention-explorer.*.js:
 * labs, modes, other cores) from beside itself: copy them along. API: globalThis.AttentionExplorer. */`;

const rel = (abs) => relative(ROOT, abs).split('\\').join('/');
const abs = (id) => join(ROOT, id);
const fileOf = (name) => `attention-explorer.${name}.js`;

/** The shadow-root CSS strings of web/gen/*-css.js, minified (tools/build-site.mjs uses it too). */
export const minifyCss = (b) => b.onLoad({ filter: /[\\/]gen[\\/][a-z]+-css\.js$/ }, async (args) => {
  const m = /^export const ([A-Z_]+) = (".*");$/m.exec(readFileSync(args.path, 'utf8'));
  if (!m) throw new Error(`${rel(args.path)}: not a CSS module written by tools/embed-css.mjs`);
  const { code } = await transform(JSON.parse(m[2]), { loader: 'css', minify: true, target: TARGET.slice(1) });
  return { contents: `export const ${m[1]} = ${JSON.stringify(code.trim())};\n`, loader: 'js' };
});

/**
 * esbuild plugin of every build: ALIASES, the minified CSS, and the virtual modules `files`
 * (namespace "dist": path -> contents). `resolveFirst(id, args)` may answer an import first (the main
 * file's and the parts' own rules, below).
 */
const distPlugin = (files, resolveFirst = () => undefined) => ({
  name: 'attention-explorer-dist',
  setup(b) {
    b.onResolve({ filter: /^dist:/ }, (args) => ({ path: args.path, namespace: 'dist' }));
    b.onLoad({ filter: /.*/, namespace: 'dist' }, (args) => ({ contents: files[args.path], resolveDir: ROOT, loader: 'js' }));
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace === 'dist' && /^\.\/attention-explorer\.[a-z-]+\.js$/.test(args.path)) return { path: args.path, external: true };
      const id = rel(resolve(args.resolveDir, args.path));
      const answer = resolveFirst(id, args);
      if (answer) return answer;
      return ALIASES[id] ? { path: abs(ALIASES[id]) } : undefined;
    });
    minifyCss(b);
  },
});

const BUILD_OPTIONS = { bundle: true, minify: true, target: TARGET, charset: 'utf8', legalComments: 'none', write: false, logLevel: 'silent', metafile: true };

// A warning here is a bundle that would break: import.meta is empty in an IIFE (a worker's or a
// file's URL from it would be wrong), so such a module needs an entry in ALIASES.
function noWarnings(result, what) {
  if (result.warnings.length) throw new Error(`build-dist: esbuild warned, so ${what} would not work as written:\n${result.warnings.map((w) => `${w.location?.file}:${w.location?.line}: ${w.text}`).join('\n')}`);
  return result;
}
const inputsOf = (result) => Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('dist:')).map((f) => rel(resolve(ROOT, f)));

/** The main file's entry: the element's exports, and the set-up of web/element/dist-parts.js. */
function mainEntry({ build = '', shared = [] } = {}) {
  const names = Object.keys(PARTS);
  return [
    `export * from ${JSON.stringify(abs('web/element/attention-explorer.js'))};`,
    `import { setupParts } from ${JSON.stringify(abs('web/element/dist-parts.js'))};`,
    ...shared.map((id, i) => `import * as m${i} from ${JSON.stringify(abs(id))};`),
    'setupParts({',
    `  build: ${JSON.stringify(build)},`,
    `  modules: { ${shared.map((id, i) => `${JSON.stringify(id)}: m${i}`).join(', ')} },`,
    `  imports: { ${names.map((n) => `${JSON.stringify(n)}: () => import(${JSON.stringify('./' + fileOf(n))})`).join(', ')} },`,
    `  what: ${JSON.stringify(Object.fromEntries(names.map((n) => [n, PARTS[n].what])))},`,
    '});',
  ].join('\n');
}

/**
 * Builds the main file. `holder` maps a module that an import() reaches to the part holding it;
 * without it (the first pass) every import() but INLINE's is left out, to find the main file's
 * own modules. Returns { text, inputs, dynamic }: dynamic lists the modules import() reaches.
 */
async function buildMain({ build, shared, holder }) {
  const dynamic = new Set();
  const files = { 'dist:main': mainEntry({ build, shared }) }; // and the stubs, as they are met
  const result = noWarnings(await esbuild({
    ...BUILD_OPTIONS,
    entryPoints: ['dist:main'],
    format: 'iife',
    globalName: '__attentionExplorer',
    plugins: [distPlugin(files, (id, args) => {
      if (args.kind !== 'dynamic-import' || INLINE.includes(id)) return undefined;
      dynamic.add(id);
      if (!holder) return { path: id, external: true };
      const part = holder.get(id);
      if (!part) throw new Error(`build-dist: import() of ${id} (in ${rel(args.importer)}) is in no part: add it to PARTS or INLINE`);
      // The module stands for its part: import() of it resolves to the part's module (a promise
      // resolves to what a "then" export gives), loaded by web/element/dist-parts.js.
      files[`dist:stub:${id}`] = `import { loadPart } from ${JSON.stringify(abs('web/element/dist-parts.js'))};\n` +
        `export const then = (resolve, reject) => loadPart(${JSON.stringify(part)}).then((m) => resolve(m[${JSON.stringify(id)}]), reject);\n`;
      return { path: `dist:stub:${id}`, namespace: 'dist' };
    })],
    // Loaded twice (a classic and a module tag, or two copies on one page): the first one wins.
    banner: { js: `${banner}\n(()=>{if(globalThis.AttentionExplorer)return;` },
    footer: { js: 'globalThis.AttentionExplorer=__attentionExplorer})();' },
  }), 'the main file');
  return { text: result.outputFiles[0].text, inputs: inputsOf(result), dynamic };
}

/**
 * Builds part `name`: its entries and what they import, but for the main file's modules (`main`),
 * which it takes from the main file when it runs (require). `expose` lists the modules whose
 * namespaces it gives (its entries and any other module an import() of the main file reaches).
 * Returns { text, inputs, shared }: shared lists the main file's modules it uses.
 */
async function buildPart(name, { build = '', main, expose }) {
  const shared = new Set();
  const entry = expose.map((id, i) => `import * as m${i} from ${JSON.stringify(abs(id))};`).join('\n') +
    `\nexport const modules = { ${expose.map((id, i) => `${JSON.stringify(id)}: m${i}`).join(', ')} };\n`;
  const result = noWarnings(await esbuild({
    ...BUILD_OPTIONS,
    entryPoints: ['dist:part'],
    format: 'cjs',
    plugins: [distPlugin({ 'dist:part': entry }, (id, args) => {
      if (!main.has(id)) return undefined;
      if (args.kind === 'dynamic-import') throw new Error(`build-dist: part ${name}: import() of ${id}, a module of the main file; import it instead`);
      shared.add(id);
      return { path: id, external: true };
    })],
    banner: { js: `/*! attention-explorer ${pkg.version} (${pkg.license}): ${PARTS[name].what}, a part of attention-explorer.js, which loads it from beside itself. */\n` +
      `(globalThis[Symbol.for("attention-explorer.parts")]||={})[${JSON.stringify(name)}]={build:${JSON.stringify(build)},load:(require,module)=>{` },
    footer: { js: '}};' },
  }), `part ${name}`);
  return { text: result.outputFiles[0].text, inputs: inputsOf(result), shared };
}

/**
 * Builds the main file and its parts; returns { 'attention-explorer.js': text, 'attention-explorer.labs.js': ..., ... }.
 * First the main file alone, to know its modules; then each part without them; then the main
 * file again, sharing the modules the parts use, and with the build's id: a hash of every source.
 */
export async function bundle() {
  const first = await buildMain({});
  const main = new Set(first.inputs);
  for (const [name, { entries }] of Object.entries(PARTS)) {
    for (const id of entries) if (main.has(id)) throw new Error(`build-dist: ${id}, an entry of part ${name}, is imported by the main file without import(): it would be in both`);
  }
  // Which part holds each module an import() reaches (the first pass gives each part's modules).
  const holder = new Map();
  const partInputs = {};
  for (const name of Object.keys(PARTS)) {
    partInputs[name] = (await buildPart(name, { main, expose: PARTS[name].entries })).inputs;
    for (const id of first.dynamic) {
      if (!partInputs[name].includes(id)) continue;
      if (holder.has(id)) throw new Error(`build-dist: ${id} is in two parts (${holder.get(id)} and ${name}): import() of it could load either`);
      holder.set(id, name);
    }
  }
  const seen = new Map();
  for (const [name, ids] of Object.entries(partInputs)) {
    for (const id of ids) {
      if (seen.has(id) && !MAY_REPEAT.includes(id)) throw new Error(`build-dist: ${id} is in parts ${seen.get(id)} and ${name}, so each would have its own copy: import it in the main file, or add it to MAY_REPEAT if it holds no state`);
      seen.set(id, name);
    }
  }
  const hash = createHash('sha256').update(pkg.version);
  const sources = [...new Set([...first.inputs, ...Object.values(partInputs).flat(), 'tools/build-dist.mjs'])].sort();
  for (const id of sources) hash.update(`\0${id}\0`).update(readFileSync(abs(id)));
  const build = hash.digest('hex').slice(0, 12);
  const files = {}, shared = new Set();
  for (const name of Object.keys(PARTS)) {
    const expose = [...new Set([...PARTS[name].entries, ...[...holder].filter(([, p]) => p === name).map(([id]) => id)])];
    const part = await buildPart(name, { build, main, expose });
    for (const id of part.shared) shared.add(id);
    files[fileOf(name)] = part.text;
  }
  const final = await buildMain({ build, shared: [...shared].sort(), holder });
  if (final.inputs.some((id) => !main.has(id))) throw new Error('build-dist: the main file grew between its two builds');
  return { 'attention-explorer.js': final.text, ...files };
}

// A page that opens by double-click: the one file as a classic script, then `body`.
const htmlPage = (title, heading, body) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} (offline)</title>
<script src="attention-explorer.js"></script>
</head>
<body>
<h1>${heading}</h1>
${body}
</body>
</html>
`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await bundle();
  for (const [name, js] of Object.entries(files)) {
    // No import or export statement: compiling each file as a classic script checks that.
    try {
      new Script(js, { filename: name });
    } catch (e) {
      console.error(`build-dist: ${name} is not a valid classic script: ${e.message}`);
      process.exit(1);
    }
    // docs/embedding.md's Jupyter recipe puts the files inside a <script> element: none may end it.
    if (/<\/script|<!--/i.test(js)) {
      console.error(`build-dist: ${name} holds "</script" or "<!--", so it cannot be inlined in a <script> element (the Jupyter recipe)`);
      process.exit(1);
    }
  }
  const page = htmlPage('Attention Explorer', 'Attention Explorer', `<attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>
<noscript><p>The explorer needs JavaScript and WebAssembly.</p></noscript>
<p><a href="lab.html">A lab: why divide by √dk?</a> (the element's mode="sqrt-dk-lab")</p>`);
  // A lab: the element's mode attribute (docs/embedding.md lists the modes); its code is a part.
  const labPage = htmlPage('Why divide by √dk?', 'Why divide by √dk?', `<attention-explorer mode="sqrt-dk-lab" params="dk=64&amp;n=32&amp;seed=1"></attention-explorer>
<noscript><p>The lab needs JavaScript and WebAssembly.</p></noscript>
<p><a href="index.html">The explorer</a></p>`);
  mkdirSync(outDir, { recursive: true });
  // Parts of an earlier build would be refused by this one's main file: none is left behind.
  for (const old of readdirSync(outDir)) if (/^attention-explorer\.[a-z-]+\.js$/.test(old)) rmSync(join(outDir, old));
  for (const [name, js] of Object.entries(files)) writeFileSync(join(outDir, name), js);
  writeFileSync(join(outDir, 'index.html'), page);
  writeFileSync(join(outDir, 'lab.html'), labPage);
  const size = (name) => `${name} ${Buffer.byteLength(files[name])} bytes`;
  console.log(`dist: ${relative(ROOT, outDir)}/${size('attention-explorer.js')}; ${Object.keys(files).length - 1} parts (${Object.keys(files).slice(1).map(size).join(', ')}); index.html and lab.html`);
}
