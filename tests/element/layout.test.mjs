// The element's layout choice (web/element/layout.js): the attribute wins; without it, compact
// exactly when the box the page gives is shorter than the full layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLayout, LAYOUTS } from '../../web/element/layout.js';

test('an attribute of compact or full is used whatever the box', () => {
  for (const [full, box] of [[747, 300], [526, 747], [747, 747]]) {
    assert.equal(chooseLayout('compact', full, box), 'compact');
    assert.equal(chooseLayout('full', full, box), 'full');
  }
});

test('auto (or no attribute, or a value it does not know) is compact only when the full layout is taller than the box', () => {
  for (const asked of ['auto', null, 'small']) {
    assert.equal(chooseLayout(asked, 747, 747), 'full', 'a box as tall as its content (height left to the content)');
    assert.equal(chooseLayout(asked, 747.6, 747), 'full', 'sub-pixel rounding is no reason');
    assert.equal(chooseLayout(asked, 747, 600), 'compact', 'a height the page set');
    assert.equal(chooseLayout(asked, 500, 600), 'full', 'a box with room');
  }
});

test('the values the attribute takes include the two layouts and auto', () => {
  for (const v of ['auto', 'full', 'compact']) assert.ok(LAYOUTS.includes(v), v);
});
