// The one table of the Wasm exports, c/wasm_exports.def, against everything that must agree with
// it: the cores make builds, the libFuzzer targets, the files generated from it and the docs that
// name its buffers. Each failure names the row or file to edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { readTable, idsModule, typesModule, PARTS } from '../../tools/wasm-exports.mjs';
import { BUFFERS } from '../../web/gen/wasm-exports.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const table = readTable(read('c/wasm_exports.def'));
const row = (e) => `${e.name} (${e.part}, c/wasm_exports.def:${e.line})`;

// The parts of the table each core has (the Makefile: -DAE_FORWARD_ONLY, -DAE_NO_INDUCTION).
const CORE_PARTS = { '': Object.keys(PARTS), 'trainer-': ['AE_FORWARD', 'AE_TRAIN'], 'forward-': ['AE_FORWARD'] };

test('the table names every export once, each with the ae_ prefix', () => {
  assert.ok(table.exports.length > 0, 'c/wasm_exports.def has no export rows');
  const seen = new Set();
  for (const e of table.exports) {
    assert.ok(e.name.startsWith('ae_'), `${row(e)}: an export's name starts with ae_ (the prefix this test and the loader look for)`);
    assert.ok(!seen.has(e.name), `${row(e)} is listed twice`);
    seen.add(e.name);
  }
});

test('every ae_ function c/wasm_exports.c defines has its row in the table (without one it is not exported)', () => {
  const defined = [...read('c/wasm_exports.c').matchAll(/^(?:const\s+)?\w+\s*\*?\s*(ae_\w+)\s*\(/gm)].map((m) => m[1]);
  assert.ok(defined.length > 0, 'no ae_ function found in c/wasm_exports.c: update this test with how they are written');
  const missing = defined.filter((name) => !table.exports.some((e) => e.name === name)).map((name) =>
    `c/wasm_exports.c defines ${name}, which c/wasm_exports.def has no row for, so no core exports it: add its row, e.g. AE_FORWARD(int, ${name}, (int m))`);
  assert.deepEqual(missing, [], missing.join('\n'));
});

test("each core make builds exports exactly its parts' rows of the table, no more, no fewer", () => {
  for (const [core, parts] of Object.entries(CORE_PARTS)) {
    for (const build of ['simd', 'scalar']) {
      const file = `build/attention-${core}${build}.wasm`;
      assert.ok(existsSync(new URL(file, root)), `${file} is missing: run make all`);
      const built = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(new URL(file, root))))
        .map((x) => x.name).filter((name) => name.startsWith('ae_'));
      const listed = table.exports.filter((e) => parts.includes(e.part));
      const problems = [
        ...listed.filter((e) => !built.includes(e.name)).map((e) =>
          `${row(e)} is not exported by ${file}: define ${e.name} in c/wasm_exports.c, in the part of the file its row's part is built in (then make all)`),
        ...built.filter((name) => !listed.some((e) => e.name === name)).map((name) => table.exports.some((e) => e.name === name)
          ? `${file} exports ${name}, which its row puts in a part this core leaves out: move the function into the part of c/wasm_exports.c its row names`
          : `${file} exports ${name}, which c/wasm_exports.def does not list: add its row (or run make all if you removed it)`),
      ];
      assert.deepEqual(problems, [], problems.join('\n'));
    }
  }
});

test('every export of the table is called by a libFuzzer target (tests/c/fuzz_*.c)', () => {
  const fuzz = readdirSync(new URL('tests/c/', root)).filter((f) => /^fuzz_.*\.c$/.test(f));
  assert.ok(fuzz.includes('fuzz_exports.c'), 'tests/c/fuzz_exports.c, the target that builds c/wasm_exports.c, is missing');
  // comments are left out: naming an export in a comment is not calling it
  const code = fuzz.map((f) => read(`tests/c/${f}`).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')).join('\n');
  const uncalled = table.exports.filter((e) => !new RegExp(`\\b${e.name}\\s*\\(`).test(code)).map((e) =>
    `${row(e)} is called by no fuzz target: call it from tests/c/fuzz_exports.c (the target that builds c/wasm_exports.c) and check what it returns`);
  assert.deepEqual(uncalled, [], uncalled.join('\n'));
});

test('web/gen/wasm-exports.js and wasm-exports-types.d.ts are what the table gives now', () => {
  assert.equal(read('web/gen/wasm-exports.js'), idsModule(table), 'web/gen/wasm-exports.js is older than c/wasm_exports.def: run make all');
  assert.equal(read('web/gen/wasm-exports-types.d.ts'), typesModule(table), 'web/gen/wasm-exports-types.d.ts is older than c/wasm_exports.def: run make all');
});

test("docs/api.md and types/attention.d.ts name workspace()'s buffers as the table's AE_BUFFER rows do", () => {
  const doc = /workspace\(\)[^{]*\{ total, buffers: \{ ([^}]*) \} \}/.exec(read('docs/api.md'));
  assert.ok(doc, 'docs/api.md no longer shows workspace() as { total, buffers: { X, ... } }: update this test with it');
  assert.deepEqual(doc[1].split(/,\s*/), [...BUFFERS], 'docs/api.md lists workspace().buffers in another order or with other names than c/wasm_exports.def: edit docs/api.md');
  const types = read('types/attention.d.ts');
  const sig = /workspace\(\): \{ total: number; buffers: Record<([^,>]*), number> \}/.exec(types);
  const results = /export type ResultArray = ([^;]*);/.exec(types);
  assert.ok(sig && results, "types/attention.d.ts no longer declares workspace() as Record<ResultArray | ..., number> and ResultArray as a union: update this test with it");
  const names = (union) => union.split('|').map((s) => s.trim().replace(/^'|'$/g, ''));
  const typed = names(sig[1]).flatMap((n) => (n === 'ResultArray' ? names(results[1]) : [n]));
  assert.deepEqual(typed.sort(), [...BUFFERS].sort(), "types/attention.d.ts's workspace().buffers keys differ from c/wasm_exports.def's AE_BUFFER rows: edit the type");
});

test('readTable refuses a row it does not know and names its line', () => {
  assert.throws(() => readTable('AE_FORWARD(int, ae_ok, (void))\nAE_FORWRD(int, ae_typo, (void))\n', 'x.def'), /x\.def:2: AE_FORWRD is not a row of the table/);
  assert.throws(() => readTable('AE_TRAIN(int, ae_x, (int))\n', 'x.def'), /x\.def:1: the parameter "int" of ae_x has no name/);
  const t = readTable('/* one line of doc */\nAE_INDUCTION(void, ae_x, (int slot_id, unsigned seed))\n');
  assert.deepEqual(t.exports.map(({ part, type, name, params, doc }) => ({ part, type, name, params, doc })),
    [{ part: 'AE_INDUCTION', type: 'void', name: 'ae_x', params: [{ type: 'int', name: 'slot_id' }, { type: 'unsigned', name: 'seed' }], doc: 'one line of doc' }]);
  assert.match(typesModule(t), /\/\*\* one line of doc \*\/\n {2}ae_x\(slotId: number, seed: number\): void;/);
});
