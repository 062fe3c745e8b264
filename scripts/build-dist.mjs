// Writes dist/ with esbuild (devDependency, pinned):
//   attention-explorer.js  the <attention-explorer> element, its modes and the core in ONE minified
//                          file with both Wasm builds inside (one gzip stream, web/gen/attention-wasm-both.js)
//   index.html, lab.html   the explorer and a lab as pages that open by double-click from file://
//
// The bundle is an IIFE with no import or export statement, so it runs both as a classic script
// (which Chromium allows from file://, where it blocks module imports) and as a module
// (<script type="module">). Its API is globalThis.AttentionExplorer.
// Deterministic: the same sources give the same bytes (tests/embed-pack.test.mjs builds twice).
// Usage: node scripts/build-dist.mjs [OUTDIR]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { build, transform } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(ROOT, process.argv[2] || 'dist');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// The engines the bundle is written for: every one with DecompressionStream (web/gunzip.js),
// which also have class fields, private methods and ?? (ES2022).
export const TARGET = ['es2022', 'chrome91', 'firefox113', 'safari16.4'];

// Modules replaced in the bundle (paths from the repository root): the page loads only the Wasm
// build its engine runs with a dynamic import(), which one classic-script file cannot do, so the
// bundle holds both builds. The induction page's worker is a file of its own, which one file
// cannot hold: there it trains on the page's thread instead.
export const ALIASES = {
  'web/gen/wasm-source.js': 'web/gen/wasm-source-inline.js',
  'web/induction-worker-url.js': 'web/induction-worker-url-inline.js',
};

/**
 * esbuild plugin: every import of a module in ALIASES gets its replacement; the shadow-root CSS
 * strings of web/gen/*-css.js are minified.
 */
export const oneFile = {
  name: 'attention-explorer-one-file',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const to = ALIASES[relative(ROOT, resolve(args.resolveDir, args.path)).split('\\').join('/')];
      return to ? { path: join(ROOT, to) } : undefined;
    });
    b.onLoad({ filter: /[\\/]gen[\\/][a-z]+-css\.js$/ }, async (args) => {
      const m = /^export const ([A-Z_]+) = (".*");$/m.exec(readFileSync(args.path, 'utf8'));
      if (!m) throw new Error(`${relative(ROOT, args.path)}: not a CSS module written by scripts/embed-css.mjs`);
      const { code } = await transform(JSON.parse(m[2]), { loader: 'css', minify: true, target: TARGET.slice(1) });
      return { contents: `export const ${m[1]} = ${JSON.stringify(code.trim())};\n`, loader: 'js' };
    });
  },
};

const banner = `/*! attention-explorer ${pkg.version} (${pkg.license}): the <attention-explorer> element and its
 * WebAssembly core in one file (built by scripts/build-dist.mjs with esbuild). Works as a classic
 * script (<script src>, also from file://) and as a module (<script type="module" src>).
 * After loading: <attention-explorer preset="cat"></attention-explorer>; the JS API is
 * globalThis.AttentionExplorer (loadAttention, mountExplorer, registerMode, AttentionExplorer). */`;

/** Builds the one file; returns its text. */
export async function bundle() {
  const result = await build({
    entryPoints: [join(ROOT, 'web/attention-explorer.js')],
    bundle: true,
    format: 'iife',
    globalName: '__attentionExplorer',
    minify: true,
    target: TARGET,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent', // warnings are errors (below)
    plugins: [oneFile],
    // Loaded twice (a classic and a module tag, or two copies on one page): the first one wins.
    banner: { js: `${banner}\n(()=>{if(globalThis.AttentionExplorer)return;` },
    footer: { js: 'globalThis.AttentionExplorer=__attentionExplorer})();' },
  });
  // A warning here is a bundle that would break: import.meta is empty in an IIFE (a worker's or a
  // file's URL from it would be wrong), so such a module needs an entry in ALIASES.
  if (result.warnings.length) throw new Error(`build-dist: esbuild warned, so the one file would not work as written:\n${result.warnings.map((w) => `${w.location?.file}:${w.location?.line}: ${w.text}`).join('\n')}`);
  return result.outputFiles[0].text;
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
  const js = await bundle();
  // The file must hold no import or export statement: compiling it as a classic script checks that.
  try {
    new Script(js, { filename: 'attention-explorer.js' });
  } catch (e) {
    console.error(`build-dist: the bundle is not a valid classic script: ${e.message}`);
    process.exit(1);
  }
  const page = htmlPage('Attention Explorer', 'Attention Explorer', `<attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>
<noscript><p>The explorer needs JavaScript and WebAssembly.</p></noscript>
<p><a href="lab.html">A lab: why divide by √dk?</a> (the element's mode="sqrt-dk-lab")</p>`);
  // A lab in the same file: the element's mode attribute (docs/embedding.md lists the modes).
  const labPage = htmlPage('Why divide by √dk?', 'Why divide by √dk?', `<attention-explorer mode="sqrt-dk-lab" params="dk=64&amp;n=32&amp;seed=1"></attention-explorer>
<noscript><p>The lab needs JavaScript and WebAssembly.</p></noscript>
<p><a href="index.html">The explorer</a></p>`);
  // docs/embedding.md's Jupyter recipe puts the file inside a <script> element: it must not end it.
  if (/<\/script|<!--/i.test(js)) {
    console.error('build-dist: the bundle holds "</script" or "<!--", so it cannot be inlined in a <script> element (the Jupyter recipe)');
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'attention-explorer.js'), js);
  writeFileSync(join(outDir, 'index.html'), page);
  writeFileSync(join(outDir, 'lab.html'), labPage);
  console.log(`dist: ${relative(ROOT, join(outDir, 'attention-explorer.js'))} (${Buffer.byteLength(js)} bytes), index.html and lab.html`);
}
