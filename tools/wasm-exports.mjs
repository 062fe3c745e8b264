// wasm-exports.mjs: reads the one table of the Wasm exports, c/wasm_exports.def, and writes what
// the JS side derives from it (make all runs it):
//   web/gen/wasm-exports.js         the id lists (BUFFERS, TRAIN_BUFFERS, ...) and shared numbers
//                                   that web/core/ reads; esbuild keeps only what a page uses
//   web/gen/wasm-exports-types.d.ts the raw exports' types (ForwardExports, TrainExports,
//                                   InductionExports), which web/core/types.d.ts builds on
// The C side reads the same table through c/wasm_exports.h. tests/core/wasm-exports.test.mjs
// imports readTable to compare the table with the built cores and the fuzz targets.
//
//   node tools/wasm-exports.mjs c/wasm_exports.def web/gen

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The export rows' macros, the core part each stands for and the TypeScript interface it fills. */
export const PARTS = Object.freeze({
  AE_FORWARD: { iface: 'ForwardExports', about: "The exports every core has ('forward', 'trainer' and 'full')." },
  AE_TRAIN: { iface: 'TrainExports', about: "The trainers' exports ('trainer' and 'full' cores; c/train.h)." },
  AE_INDUCTION: { iface: 'InductionExports', about: "The induction models' exports (the 'full' core; c/induction.h)." },
});
/** The id rows' macros and the JS list each one fills (a name's index is its id). */
export const ID_LISTS = Object.freeze({
  AE_BUFFER: { list: 'BUFFERS', about: "ae_buffer's ids, in arena order" },
  AE_LAB_BUFFER: { list: 'LAB_BUFFERS', about: "ae_lab_buffer's ids" },
  AE_TILE_BUFFER: { list: 'TILE_BUFFERS', about: "ae_tile_buffer's ids" },
  AE_TRAIN_BUFFER: { list: 'TRAIN_BUFFERS', about: "ae_train_buffer's ids" },
  AE_TRAIN_INFO: { list: 'TRAIN_INFO', about: "ae_train_info's ids" },
  AE_IND_BUFFER: { list: 'IND_BUFFERS', about: "ae_ind_buffer's ids" },
  AE_IND_INFO: { list: 'IND_INFO', about: "ae_ind_info's ids" },
});

/**
 * @typedef {{ part: string, type: string, name: string, params: { type: string, name: string }[], doc: string, line: number }} ExportRow
 * @typedef {{ exports: ExportRow[], ids: Record<string, { id: string, js: string }[]>, constants: { name: string, value: number, doc: string }[] }} Table
 */

/**
 * The table's rows, in order. A row the reader does not know, or one it cannot split, throws an
 * Error that names its line.
 * @param {string} text the contents of c/wasm_exports.def
 * @param {string} [file] its name, for the messages
 * @returns {Table}
 */
export function readTable(text, file = 'c/wasm_exports.def') {
  /** @type {Table} */
  const table = { exports: [], ids: Object.fromEntries(Object.keys(ID_LISTS).map((m) => [m, []])), constants: [] };
  let doc = '', inComment = false, comment = '';
  text.split('\n').forEach((raw, k) => {
    const line = raw.trim(), where = `${file}:${k + 1}`;
    if (inComment || line.startsWith('/*')) { // a comment: kept as the doc of the row right under it
      comment += (comment ? ' ' : '') + line.replace(/^\/\*+|\*+\/$/g, '').replace(/^\*\s?/, '').trim();
      inComment = !line.endsWith('*/');
      if (!inComment) { doc = comment.startsWith('---') ? '' : comment.trim(); comment = ''; } // a section's title is no row's doc
      return;
    }
    const row = /^(AE_\w+)\((.*)\)$/.exec(line);
    if (!row) { doc = ''; return; } // a blank line, or the preprocessor lines that define and undefine the macros
    const [, macro, args] = row;
    if (macro in PARTS) {
      const m = /^\s*([^,]+?)\s*,\s*(\w+)\s*,\s*\((.*)\)\s*$/.exec(args);
      if (!m) throw new Error(`${where}: ${macro}(${args}) is not (type, name, (parameters)), e.g. AE_FORWARD(int, ae_prepare, (int n, int m))`);
      const params = m[3].trim() === 'void' ? [] : m[3].split(',').map((p) => {
        const pm = /^\s*(.+?)\s*\b(\w+)\s*$/.exec(p);
        if (!pm) throw new Error(`${where}: the parameter "${p.trim()}" of ${m[2]} has no name: write it as "type name"`);
        return { type: pm[1], name: pm[2] };
      });
      table.exports.push({ part: macro, type: m[1], name: m[2], params, doc, line: k + 1 });
    } else if (macro in ID_LISTS) {
      const m = /^\s*(\w+)\s*,\s*(\w+)\s*$/.exec(args);
      if (!m) throw new Error(`${where}: ${macro}(${args}) is not (C_ID, jsName), e.g. AE_BUFFER(B_WQ, Wq)`);
      table.ids[macro].push({ id: m[1], js: m[2] });
    } else if (macro === 'AE_CONSTANT') {
      const m = /^\s*(\w+)\s*,\s*(-?\d+)\s*$/.exec(args);
      if (!m) throw new Error(`${where}: AE_CONSTANT(${args}) is not (NAME, whole number), e.g. AE_CONSTANT(TRAIN_SLOTS, 8)`);
      table.constants.push({ name: m[1], value: Number(m[2]), doc });
    } else {
      throw new Error(`${where}: ${macro} is not a row of the table: use one of ${[...Object.keys(PARTS), ...Object.keys(ID_LISTS), 'AE_CONSTANT'].join(', ')}`);
    }
    doc = '';
  });
  return table;
}

const HEADER = '// Generated by tools/wasm-exports.mjs from c/wasm_exports.def (make all): edit the table, not this file.\n';

/** a_snake_name -> aSnakeName @param {string} name */
const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/**
 * web/gen/wasm-exports.js: the id lists and the shared numbers.
 * @param {Table} table
 */
export function idsModule(table) {
  const lists = Object.entries(ID_LISTS).map(([macro, { list, about }]) =>
    `/** ${about}: ${list}[id] is its name. */\nexport const ${list} = /** @type {const} */ ([${table.ids[macro].map((r) => `'${r.js}'`).join(', ')}]);\n`);
  const numbers = table.constants.map((c) => `${c.doc ? `/** ${c.doc} */\n` : ''}export const ${c.name} = ${c.value};\n`);
  return HEADER + [...lists, ...numbers].join('');
}

/**
 * web/gen/wasm-exports-types.d.ts: each part's exports as a TypeScript interface. Every C number
 * is a JS number; a pointer is a byte offset into the module's memory.
 * @param {Table} table
 */
export function typesModule(table) {
  const ifaces = Object.entries(PARTS).map(([part, { iface, about }]) => {
    const members = table.exports.filter((e) => e.part === part).map((e) => {
      const params = e.params.map((p) => `${camel(p.name)}: number`).join(', ');
      return `${e.doc ? `  /** ${e.doc} */\n` : ''}  ${e.name}(${params}): ${e.type === 'void' ? 'void' : 'number'};\n`;
    });
    return `/** ${about} */\nexport interface ${iface} {\n${members.join('')}}\n`;
  });
  return HEADER + ifaces.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [def, out] = process.argv.slice(2);
  if (!def || !out) throw new Error('usage: node tools/wasm-exports.mjs c/wasm_exports.def web/gen');
  const table = readTable(readFileSync(def, 'utf8'), def);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'wasm-exports.js'), idsModule(table));
  writeFileSync(join(out, 'wasm-exports-types.d.ts'), typesModule(table));
}
