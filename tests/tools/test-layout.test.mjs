// make test-quick runs every Node test file outside tests/browser/ and tests/hosts/ (the Makefile's
// NODE_UNIT_TESTS): that holds only while no such file starts a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BROWSER_ONLY = new Set(['browser', 'hosts']);

test('a test file that starts a browser (playwright-core, tests/browser/ helpers) lives in tests/browser/', () => {
  const starters = readdirSync(ROOT + 'tests', { withFileTypes: true })
    .filter((d) => d.isDirectory() && !BROWSER_ONLY.has(d.name))
    .flatMap((d) => readdirSync(ROOT + 'tests/' + d.name).filter((f) => f.endsWith('.mjs')).map((f) => `tests/${d.name}/${f}`))
    .filter((f) => f !== 'tests/tools/test-layout.test.mjs' && /playwright-core|['"][./]*browser\/(helpers|embed-helpers|engines\/)/.test(readFileSync(ROOT + f, 'utf8')));
  assert.deepEqual(starters, [], 'move these to tests/browser/, or make test-quick would start a browser');
});
