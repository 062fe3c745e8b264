// docs/labs.md's table is a copy of the catalog's list of labs: a row for each lab, by its title
// and a link to its mode, and for nothing else, so a new lab cannot go undocumented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CATALOG } from '../../web/labs/catalog.js';

const doc = readFileSync(new URL('../../docs/labs.md', import.meta.url), 'utf8');
const rows = doc.split('\n').filter((l) => l.startsWith('| ') && !/^\| (lab|---)/.test(l)).map((l) => l.split(' | ').map((c) => c.replace(/^\| /, '')));

test("docs/labs.md has one row for each lab of the catalog, with its title and a link to its mode, and no other", () => {
  const documented = rows.map(([title, url]) => ({ title, mode: /mode=([\w-]+)/.exec(url)?.[1] }));
  assert.deepEqual(documented.map((r) => r.mode).sort(), CATALOG.map((l) => l.mode).sort(), 'the modes of the table are those of web/labs/catalog.js');
  for (const lab of CATALOG) {
    assert.equal(documented.find((r) => r.mode === lab.mode)?.title, lab.title, `${lab.mode}'s row is titled as the catalog titles it`);
  }
});
