// Writes dist/: attention-explorer.js, the <attention-explorer> element and the core in ONE file
// (the Wasm is already inlined as base64 by scripts/embed-wasm.mjs), and index.html and lab.html,
// pages that open by double-click from file:// (the explorer; a lab).
//
// The bundle has no import or export statement, so it runs both as a classic script (which
// Chromium allows from file://, where it blocks module imports) and as a module
// (<script type="module">). Each module becomes a function in dependency order; its imports
// become reads of the modules already run. Only the plain forms the house style uses are
// accepted (named imports, also over several lines, namespace imports, named exports, relative
// paths); anything else stops the build.
// Deterministic: the same sources give the same bytes.
// Usage: node scripts/build-dist.mjs [ENTRY] [OUTDIR]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = resolve(ROOT, process.argv[2] || 'web/attention-explorer.js');
const outDir = resolve(ROOT, process.argv[3] || 'dist');

const fail = (file, msg) => {
  console.error(`build-dist: ${relative(ROOT, file)}: ${msg}`);
  process.exit(1);
};

// "a, b as c" -> [['a', 'a'], ['b', 'c']]  (imported or local name, exported or bound name)
const names = (list) =>
  list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/.exec(s);
    if (!m) throw new Error(`cannot read the name list “${list}”`);
    return [m[1], m[2] || m[1]];
  });

// Drops whole-line comments (// ... and /* ... */ blocks that start a line) outside template
// literals, to keep the file small; a line's backticks tell whether a template is open.
function stripComments(lines) {
  const out = [];
  let template = false, block = false;
  for (const line of lines) {
    if (block) {
      if (line.includes('*/')) block = false;
      continue;
    }
    if (!template && /^\s*\/\//.test(line)) continue;
    if (!template && /^\s*\/\*/.test(line)) {
      if (!/\*\/\s*$/.test(line)) block = true;
      continue;
    }
    if (!template && line.trim() === '') continue;
    if (((line.match(/(?<!\\)`/g) || []).length) % 2) template = !template;
    out.push(line);
  }
  return out;
}

// Modules replaced in the bundle: the page loads only the Wasm build its engine runs with a
// dynamic import(), which one classic-script file cannot do, so the bundle holds both builds.
// The induction page's worker is a file of its own, which one file cannot hold: it trains on the
// page's thread instead.
const ALIASES = { 'web/gen/wasm-source.js': 'web/gen/wasm-source-inline.js', 'web/induction-worker-url.js': 'web/induction-worker-url-inline.js' };

const modules = new Map(); // absolute path -> { id, code } in dependency order
const visiting = new Set();

function load(file) {
  if (modules.has(file)) return modules.get(file).id;
  if (visiting.has(file)) fail(file, 'import cycle');
  visiting.add(file);
  const src = readFileSync(file, 'utf8');
  const id = relative(ROOT, file).split('\\').join('/');
  const deps = [];
  const exported = []; // [local, exported]
  const dep = (spec) => {
    if (!spec.startsWith('./') && !spec.startsWith('../')) fail(file, `only relative imports can be bundled, not “${spec}”`);
    const target = resolve(dirname(file), spec);
    return load(ALIASES[relative(ROOT, target)] ? resolve(ROOT, ALIASES[relative(ROOT, target)]) : target);
  };
  // A named import over several lines becomes one line (its names hold no comments or strings).
  const joined = src.replace(/^import\s*\{[^}]*\}\s*from\s*'[^']+';[ \t]*$/gm, (imp) => imp.replace(/\s*\n\s*/g, ' '));
  const lines = joined.split('\n').map((line) => {
    let m;
    if ((m = /^import\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*'([^']+)';\s*$/.exec(line))) {
      return `const ${m[1]} = __m[${JSON.stringify(dep(m[2]))}];`;
    }
    if ((m = /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';\s*$/.exec(line))) {
      const d = dep(m[2]);
      return `const { ${names(m[1]).map(([a, b]) => (a === b ? a : `${a}: ${b}`)).join(', ')} } = __m[${JSON.stringify(d)}];`;
    }
    if ((m = /^export\s*\{([^}]*)\}\s*from\s*'([^']+)';\s*$/.exec(line))) {
      const d = dep(m[2]);
      for (const [a, b] of names(m[1])) deps.push([d, a, b]);
      return '';
    }
    if ((m = /^export\s*\{([^}]*)\};\s*$/.exec(line))) {
      exported.push(...names(m[1]));
      return '';
    }
    if ((m = /^export\s+((?:async\s+)?function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/.exec(line))) {
      exported.push([m[2], m[2]]);
      return line.replace(/^export\s+/, '');
    }
    if (/^\s*(import|export)\b(?!\.)/.test(line) && !/^\s*(\/\/|\*)/.test(line)) fail(file, `this form cannot be bundled: ${line.trim()}`);
    return line;
  });
  const body = stripComments(lines).join('\n');
  if (/\bimport\s*\(|\bimport\.meta\b/.test(body.replace(/\/\/.*$/gm, ''))) fail(file, 'dynamic import() and import.meta cannot be bundled');
  const exportsList = [...exported.map(([a, b]) => `${JSON.stringify(b)}: ${a}`), ...deps.map(([d, a, b]) => `${JSON.stringify(b)}: __m[${JSON.stringify(d)}][${JSON.stringify(a)}]`)];
  const code = `// ---- ${id}\n__m[${JSON.stringify(id)}] = (function () {\n${body.trimEnd()}\nreturn Object.freeze({ ${exportsList.join(', ')} });\n})();\n`;
  visiting.delete(file);
  modules.set(file, { id, code });
  return id;
}

const entryId = load(entry);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const bundle = `/*! attention-explorer ${pkg.version} (${pkg.license}): the <attention-explorer> element and its
 * WebAssembly core in one file, built by scripts/build-dist.mjs. Works as a classic script
 * (<script src>, also from file://) and as a module (<script type="module" src>).
 * After loading: <attention-explorer preset="cat"></attention-explorer>; the JS API is
 * globalThis.AttentionExplorer (loadAttention, mountExplorer, registerMode, AttentionExplorer). */
(function () {
'use strict';
if (globalThis.AttentionExplorer) return; // loaded twice (a classic and a module tag): the first one wins
const __m = Object.create(null);
${[...modules.values()].map((m) => m.code).join('\n')}
globalThis.AttentionExplorer = __m[${JSON.stringify(entryId)}];
})();
`;
// The file must hold no import or export statement: compiling it as a classic script checks that.
try {
  new Script(bundle, { filename: 'attention-explorer.js' });
} catch (e) {
  console.error(`build-dist: the bundle is not a valid classic script: ${e.message}`);
  process.exit(1);
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
const page = htmlPage('Attention Explorer', 'Attention Explorer', `<attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>
<noscript><p>The explorer needs JavaScript and WebAssembly.</p></noscript>
<p><a href="lab.html">A lab: why divide by √dk?</a> (the element's mode="sqrt-dk-lab")</p>`);
// A lab in the same file: the element's mode attribute (docs/embedding.md lists the modes).
const labPage = htmlPage('Why divide by √dk?', 'Why divide by √dk?', `<attention-explorer mode="sqrt-dk-lab" params="dk=64&amp;n=32&amp;seed=1"></attention-explorer>
<noscript><p>The lab needs JavaScript and WebAssembly.</p></noscript>
<p><a href="index.html">The explorer</a></p>`);

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'attention-explorer.js'), bundle);
writeFileSync(join(outDir, 'index.html'), page);
writeFileSync(join(outDir, 'lab.html'), labPage);
console.log(`dist: ${relative(ROOT, join(outDir, 'attention-explorer.js'))} (${Buffer.byteLength(bundle)} bytes, ${modules.size} modules), index.html and lab.html`);
