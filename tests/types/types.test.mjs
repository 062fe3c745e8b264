// The package's declarations (types/*.d.ts) against the modules they describe: every export in
// package.json `exports` has a `types` condition, and its .d.ts declares exactly the values the
// module exports at run time (a new export without a declaration, or a stale declaration, fails).
// tsc itself (make test-types) checks that the declarations are usable: tests/types/consumer.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(ROOT + 'package.json', 'utf8'));

// One program over every declaration file (lib.dom is large: parse it once).
const DTS = [...new Set(Object.values(pkg.exports).filter((t) => typeof t === 'object').map((t) => t.types))];
const program = ts.createProgram(DTS.map((f) => ROOT + f), { strict: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'] });
const checker = program.getTypeChecker();

/** The names of the values (not types) a declaration file exports. */
function declaredValues(dts) {
  const file = program.getSourceFile(ROOT + dts);
  assert.ok(file, `${dts} is missing`);
  const diagnostics = ts.getPreEmitDiagnostics(program, file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, [], `${dts} has type errors`);
  return checker.getExportsOfModule(checker.getSymbolAtLocation(file))
    .filter((s) => ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value))
    .map((s) => s.name).sort();
}

/** The names the one-file build puts on globalThis.AttentionExplorer (run without a DOM). */
function distValues(file) {
  const ctx = { atob, TextDecoder, WebAssembly, DecompressionStream, Blob, Response, console };
  ctx.globalThis = ctx;
  new Script(readFileSync(ROOT + file, 'utf8')).runInNewContext(ctx);
  return Object.keys(ctx.AttentionExplorer).sort();
}

for (const [name, target] of Object.entries(pkg.exports)) {
  if (name === './package.json') continue;
  test(`"attention-explorer${name.slice(1)}" has declarations, and they name exactly what the module exports`, async () => {
    assert.equal(typeof target, 'object', `${name}: no conditions, so no "types" for TypeScript`);
    assert.deepEqual(Object.keys(target), ['types', 'default'], `${name}: "types" must come first (conditions match in order)`);
    const declared = declaredValues(target.types);
    if (target.default.startsWith('./dist/')) {
      assert.deepEqual(declared, [], `${name} exports nothing: it sets globalThis.AttentionExplorer`);
      assert.deepEqual(distValues(target.default), declaredValues('types/element.d.ts'), 'globalThis.AttentionExplorer has the names of attention-explorer/element');
      return;
    }
    const actual = Object.keys(await import(ROOT + target.default)).sort();
    assert.deepEqual(declared, actual, `${target.types} against ${target.default}`);
  });
}

test('package.json "types" and "files" ship the declarations', () => {
  assert.equal(pkg.types, pkg.exports['.'].types);
  assert.ok(pkg.files.includes('types/*.d.ts'));
});

test('every JS file of web/ is type-checked: none opts out with @ts-nocheck or @ts-ignore', async () => {
  const { readdirSync } = await import('node:fs');
  const files = readdirSync(ROOT + 'web', { recursive: true }).filter((f) => /\.m?js$/.test(f) && !f.startsWith('gen'));
  assert.ok(files.length > 50, `web/ has ${files.length} JS files`);
  const optOuts = files.filter((f) => /@ts-(nocheck|ignore)\b/.test(readFileSync(ROOT + 'web/' + f, 'utf8')));
  assert.deepEqual(optOuts, []);
});
