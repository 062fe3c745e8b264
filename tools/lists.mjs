#!/usr/bin/env node
// lists.mjs: writes the copies of the project's lists that cannot import them. The presets live in
// web/blocks/presets.js, the labs in web/labs/catalog.js and the element's modes in
// web/element/modes.js; the published types (types/*.d.ts) and the docs' tables are plain text, so
// this script writes those lines from the modules, between marker lines:
//
//   // lists.mjs: NAME (generated from MODULE by `node tools/lists.mjs`; edit MODULE, not these lines)
//   ...generated lines...
//   // lists.mjs: end
//
// (in Markdown the markers are HTML comments). `node tools/lists.mjs` rewrites every block;
// `node tools/lists.mjs --check` writes nothing and exits 1 naming each block that differs
// (tests/tools/lists.test.mjs runs the same check).

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRESETS } from '../web/blocks/presets.js';
import { CATALOG } from '../web/labs/catalog.js';
import { MODES } from '../web/element/modes.js';
import { LAYOUTS } from '../web/element/layout.js';
import { EXPLORER_MODES } from '../web/element/modes.js';
import { CONTROLS } from '../web/explorer/state.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** 'a' | 'b' | 'c' @param {string[]} names */
const union = (names) => names.map((n) => `'${n}'`).join(' | ');
/** Markdown table cell text: a pipe would end the cell. @param {string} s */
const cell = (s) => s.replace(/\|/g, '\\|');

const labModes = CATALOG.map((l) => l.mode);
const panelModes = [...MODES.keys()].filter((m) => !labModes.includes(m));

/**
 * Every generated block: the file, the block's name, the module it comes from, and its lines.
 * @type {{ file: string, name: string, from: string, lines: string[] }[]}
 */
export const BLOCKS = [
  {
    file: 'types/presets.d.ts', name: 'PresetName', from: 'web/blocks/presets.js',
    lines: [
      '/** The built-in heads, by name (the keys of PRESETS). */',
      `export type PresetName = ${union(Object.keys(PRESETS))};`,
    ],
  },
  {
    file: 'types/element.d.ts', name: 'LabMode', from: 'web/labs/catalog.js and web/element/modes.js',
    lines: [
      '/** The built-in labs, each a value of the `mode` attribute. */',
      `export type LabMode = ${union(labModes)};`,
      '/** The built-in modes that are not labs: a panel with the explorer of its head under it. */',
      `export type PanelMode = ${union(panelModes)};`,
    ],
  },
  {
    file: 'types/element.d.ts', name: 'ExplorerMode', from: 'web/element/modes.js',
    lines: [
      '/** The modes that are the explorer itself: its attributes and API work in each (geometry opens the geometry view). */',
      `export type ExplorerMode = ${union([...EXPLORER_MODES])};`,
    ],
  },
  {
    file: 'types/element.d.ts', name: 'ControlGroup', from: 'web/explorer/state.js',
    lines: [
      '/** The control groups the `controls` attribute names ("classroom mode": "steps follow explain"). */',
      `export type ControlGroup = ${union(CONTROLS)};`,
    ],
  },
  {
    file: 'types/element.d.ts', name: 'LayoutSetting', from: 'web/element/layout.js',
    lines: [
      '/** The values of the `layout` attribute: compact for a slide, full, or auto (compact when the box is short). */',
      `export type LayoutSetting = ${union([...LAYOUTS])};`,
    ],
  },
  {
    file: 'docs/embedding.md', name: 'controls', from: 'web/explorer/state.js',
    lines: [`The control groups of \`controls\`: ${CONTROLS.map((c) => `\`${c}\``).join(', ')} (\`link\`, the page's Copy link, does nothing in the element).`],
  },
  {
    file: 'docs/embedding.md', name: 'presets', from: 'web/blocks/presets.js',
    lines: [
      '| `preset` | the head |',
      '|----------|----------|',
      ...Object.entries(PRESETS).map(([name, p]) => `| \`${name}\` | ${cell(p.title)} |`),
    ],
  },
];

/** The marker lines of a block, in the comment syntax of its file. @param {{ file: string, name: string, from: string }} b */
export function markers(b) {
  const begin = `lists.mjs: ${b.name} (generated from ${b.from} by \`node tools/lists.mjs\`; edit the module, not these lines)`;
  const end = 'lists.mjs: end';
  return b.file.endsWith('.md') ? [`<!-- ${begin} -->`, `<!-- ${end} -->`] : [`// ${begin}`, `// ${end}`];
}

/**
 * The file's text with the block's lines put between its markers, or an Error saying which marker
 * is missing.
 * @param {string} text @param {typeof BLOCKS[number]} b @returns {string}
 */
export function withBlock(text, b) {
  const [begin, end] = markers(b);
  const lines = text.split('\n');
  const i = lines.indexOf(begin);
  const j = lines.indexOf(end, i + 1);
  if (i < 0 || j < 0) throw new Error(`${b.file} has no ${i < 0 ? 'line' : 'end line'} “${i < 0 ? begin : end}” for the ${b.name} block: put the two marker lines where the block goes, then run node tools/lists.mjs`);
  return [...lines.slice(0, i + 1), ...b.lines, ...lines.slice(j)].join('\n');
}

/**
 * The blocks whose file differs from what the modules give: [{ file, name, want, have }]. `want`
 * is the file with every block of it written (a file may hold several), so writing it once is enough.
 */
export function differences() {
  const texts = new Map(BLOCKS.map((b) => [b.file, readFileSync(ROOT + b.file, 'utf8')]));
  const wants = new Map([...texts].map(([file, text]) => [file, BLOCKS.filter((b) => b.file === file).reduce(withBlock, text)]));
  return BLOCKS.flatMap((b) => {
    const have = /** @type {string} */ (texts.get(b.file));
    return withBlock(have, b) === have ? [] : [{ file: b.file, name: b.name, want: /** @type {string} */ (wants.get(b.file)), have }];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = differences();
  for (const d of stale) {
    if (check) console.error(`${d.file}: the ${d.name} block differs from its module; run node tools/lists.mjs`);
    else writeFileSync(ROOT + d.file, d.want), console.log(`wrote the ${d.name} block of ${d.file}`);
  }
  if (check && stale.length) process.exit(1);
}
