// One source for every list: the presets (web/blocks/presets.js), the labs (web/labs/catalog.js)
// and the element's modes (web/element/modes.js). What cannot import them (the published types,
// the docs' tables) is written by tools/lists.mjs and checked here; everything else derives from
// them, and no other file of the product spells a list out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BLOCKS, differences, withBlock, markers } from '../../tools/lists.mjs';
import { PRESETS } from '../../web/blocks/presets.js';
import { CATALOG } from '../../web/labs/catalog.js';
import { MODES } from '../../web/element/modes.js';
import { MARKUP } from '../../web/explorer/markup.js';
import { fillPresetMenu } from '../../web/explorer/controls-view.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRESET_NAMES = Object.keys(PRESETS);
const LAB_MODES = CATALOG.map((l) => l.mode);

test('the generated types and docs tables are those the modules give (else: run node tools/lists.mjs)', () => {
  const stale = differences().map((d) => {
    const want = d.want.split('\n'), have = d.have.split('\n');
    const missing = want.filter((l) => !have.includes(l)), extra = have.filter((l) => !want.includes(l));
    return `${d.file} (${d.name}): wants ${JSON.stringify(missing)}, has ${JSON.stringify(extra)}`;
  });
  assert.deepEqual(stale, [], 'run node tools/lists.mjs to rewrite these blocks from their modules');
});

test('a generated block names every entry of its module, in its order', () => {
  const text = (/** @type {string} */ name) => /** @type {typeof BLOCKS[number]} */ (BLOCKS.find((b) => b.name === name)).lines.join('\n');
  const order = (/** @type {string} */ s, /** @type {string[]} */ names) => names.map((n) => s.indexOf(`${n}`)).every((i, k, a) => i >= 0 && (k === 0 || i > a[k - 1]));
  assert.ok(order(text('PresetName'), PRESET_NAMES.map((n) => `'${n}'`)), text('PresetName'));
  assert.ok(order(text('presets'), PRESET_NAMES.map((n) => `\`${n}\``)), text('presets'));
  assert.ok(order(text('LabMode'), [...MODES.keys()].map((n) => `'${n}'`)), text('LabMode'));
});

test('a missing marker line is named, with what to do', () => {
  const b = BLOCKS[0];
  assert.throws(() => withBlock('no markers here', b), new RegExp(`^Error: ${b.file} has no line “${markers(b)[0].replace(/[()`.]/g, '\\$&')}”.*run node tools/lists\\.mjs$`));
  assert.equal(withBlock(markers(b).join('\n'), b), [markers(b)[0], ...b.lines, markers(b)[1]].join('\n'));
});

test('docs/embedding.md’s table of modes has a row for each mode of web/element/modes.js, in its order', () => {
  const doc = readFileSync(ROOT + 'docs/embedding.md', 'utf8');
  const table = doc.slice(doc.indexOf('| `mode` | shows |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2).map((r) => /^\| `([^`]+)`/.exec(r)?.[1]);
  assert.deepEqual(rows, [...MODES.keys()]);
});

// A tiny stand-in for the DOM: enough for the menu to be filled.
function fakeMenu() {
  /** @type {{ tag: string, text: string, value?: string }[]} */
  const children = [];
  const own = { tag: 'option', text: '(your own head)', value: '' };
  children.push(own);
  const doc = {
    createElement: (/** @type {string} */ tag) => ({ tag, text: '', set textContent(t) { this.text = t; }, setAttribute(k, v) { this[k] = v; } }),
  };
  const menu = { insertBefore: (/** @type {any} */ e, /** @type {any} */ ref) => children.splice(children.indexOf(ref), 0, e) };
  return { doc, menu, own, children };
}

test('the explorer’s preset menu lists every preset of PRESETS by its title, in order, before “(your own head)”', () => {
  const { doc, menu, own, children } = fakeMenu();
  fillPresetMenu(/** @type {any} */ (doc), /** @type {any} */ (menu), /** @type {any} */ (own));
  assert.deepEqual(children.map((o) => [o.value, o.text]), [...Object.entries(PRESETS).map(([name, p]) => [name, p.title]), ['', '(your own head)']]);
  assert.doesNotMatch(MARKUP, /<option value="[^"]/, 'the markup holds no copy of a preset option');
});

/** Every text file of the product and its docs (README.md aside: it links to docs/). */
function productFiles() {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ dir) => {
    for (const name of readdirSync(ROOT + dir)) {
      const path = dir + '/' + name;
      if (name === 'gen' || name === 'node_modules') continue;
      if (statSync(ROOT + path).isDirectory()) walk(path);
      else if (/\.(js|mjs|ts|html|md|css)$/.test(name)) out.push(path);
    }
  };
  for (const dir of ['web', 'types', 'docs', 'tools', 'tests']) walk(dir);
  return out;
}

/** The lines of a file that name three or more entries of a list (two are an example; three, a copy of it). */
function copiesIn(/** @type {string} */ text, /** @type {string[]} */ names, /** @type {(n: string) => RegExp} */ mention) {
  return text.split('\n').filter((line) => names.filter((n) => mention(n).test(line)).length >= Math.min(3, names.length));
}

test('no file but the list’s own module (and the blocks tools/lists.mjs writes) spells out the presets or the labs', () => {
  const generated = new Set(BLOCKS.flatMap((b) => b.lines));
  const quoted = (/** @type {string} */ n) => new RegExp(`['"\`“]${n}['"\`”]`);
  const bare = (/** @type {string} */ n) => new RegExp(`\\b${n}\\b`);
  const own = { presets: 'web/blocks/presets.js', labs: 'web/labs/catalog.js' };
  const found = productFiles().flatMap((file) => {
    const text = readFileSync(ROOT + file, 'utf8');
    const lines = [
      ...(file === own.presets ? [] : copiesIn(text, PRESET_NAMES, quoted)),
      ...(file === own.labs ? [] : copiesIn(text, LAB_MODES, bare)),
    ].filter((l) => !generated.has(l));
    return lines.map((l) => `${file}: ${l.trim().slice(0, 160)}`);
  });
  assert.deepEqual(found, []);
});
