import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divergingRgb, sequentialRgb, cellRgb, maskedRgb, textOn, contrast, maxAbsFinite, scaleKind } from '../web/colors.js';

for (const theme of ['light', 'dark']) {
  test(`${theme}: the diverging scale is centred on 0 and symmetric in lightness`, () => {
    const mid = divergingRgb(0, 2, theme);
    assert.deepEqual(mid, divergingRgb(0, 100, theme));
    const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    // both ends are far from the centre, and positive and negative differ in hue (blue vs orange)
    const pos = divergingRgb(2, 2, theme), neg = divergingRgb(-2, 2, theme);
    assert.ok(Math.abs(lum(pos) - lum(mid)) > 60 && Math.abs(lum(neg) - lum(mid)) > 60);
    assert.ok(pos[2] > pos[0] && neg[0] > neg[2], 'positive is blue, negative is orange');
    // values past the range clamp
    assert.deepEqual(divergingRgb(5, 2, theme), pos);
  });

  test(`${theme}: the sequential scale for A runs monotonically in lightness from 0 to 1`, () => {
    const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    const ls = [0, 0.25, 0.5, 0.75, 1].map((v) => lum(sequentialRgb(v, theme)));
    const dir = Math.sign(ls[4] - ls[0]);
    for (let k = 1; k < ls.length; k++) assert.ok(Math.sign(ls[k] - ls[k - 1]) === dir, String(ls));
  });

  test(`${theme}: −∞ has its own colour, not one of a small score`, () => {
    assert.deepEqual(cellRgb('diverging', -Infinity, 1, theme), maskedRgb(theme));
    assert.notDeepEqual(maskedRgb(theme), divergingRgb(-0.01, 1, theme));
    assert.notDeepEqual(maskedRgb(theme), divergingRgb(0, 1, theme));
  });

  test(`${theme}: cell text meets WCAG AA (4.5:1) on every colour of both scales`, () => {
    for (let v = -1; v <= 1; v += 0.05) {
      for (const rgb of [divergingRgb(v, 1, theme), sequentialRgb((v + 1) / 2, theme), maskedRgb(theme)]) {
        const fg = textOn(rgb) === '#000' ? [0, 0, 0] : [255, 255, 255];
        assert.ok(contrast(rgb, fg) >= 4.5, `${rgb} ${contrast(rgb, fg)}`);
      }
    }
  });
}

test('maxAbsFinite ignores −∞ and scaleKind gives A the sequential scale', () => {
  assert.equal(maxAbsFinite(new Float32Array([1, -3, -Infinity, 2])), 3);
  assert.equal(scaleKind('A'), 'sequential');
  assert.equal(scaleKind('S'), 'diverging');
  assert.equal(scaleKind('M'), 'mask');
});
