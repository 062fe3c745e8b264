// Issue 24: a function a person can hold in their head. No function in web/ (the served code,
// generated gen/ left out) is over 150 lines, measured with the TypeScript parser by
// tools/fn-lengths.mjs (run it to see the longest: node tools/fn-lengths.mjs 100).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { functionLengths } from '../../tools/fn-lengths.mjs';

const LIMIT = 150;

test(`no function in web/ is over ${LIMIT} lines`, () => {
  const all = functionLengths('web');
  assert.ok(all.some((f) => f.name === 'mountExplorer'), 'the measure finds the functions of web/');
  const over = all.filter((f) => f.lines > LIMIT).map((f) => `${f.name} (${f.file}:${f.line}) is ${f.lines} lines`);
  assert.deepEqual(over, [], `split these into coherent pieces (a view, a controller, a state reducer):\n${over.join('\n')}`);
});

test('the measure counts a function from its first line to its last, nested functions inside their parent', () => {
  const all = functionLengths('web');
  for (const f of all) assert.ok(f.lines >= 1 && f.line >= 1 && f.file.startsWith('web/'), JSON.stringify(f));
  assert.ok(!all.some((f) => f.file.startsWith('web/gen/')), 'generated files are left out');
  for (let k = 1; k < all.length; k++) assert.ok(all[k - 1].lines >= all[k].lines, 'longest first');
});
