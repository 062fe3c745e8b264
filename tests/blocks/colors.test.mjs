import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divergingRgb, sequentialRgb, cellRgb, maskedRgb, textOn, contrast, maxAbsFinite, scaleKind, css, legendGradient } from '../../web/blocks/colors.js';

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

test('a weight’s colour means the same in both themes: 0 is the page’s own tone, and the larger the weight the bluer and the farther from the page', () => {
  const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const page = { light: 255, dark: 0 }; // the lightness of each theme's page, roughly
  for (const theme of ['light', 'dark']) {
    const away = (v) => Math.abs(lum(sequentialRgb(v, theme)) - page[theme]);
    assert.ok(away(0) < 40, `${theme}: 0 is near the page's tone (${away(0)} away)`);
    for (let v = 0.1; v <= 1; v += 0.1) {
      assert.ok(away(v) > away(v - 0.1), `${theme}: ${v.toFixed(1)} stands out more than ${(v - 0.1).toFixed(1)}`);
      const [r, g, b] = sequentialRgb(v, theme);
      if (v >= 0.25) assert.ok(b > r && b >= g, `${theme}: ${v.toFixed(1)} is blue (${r}, ${g}, ${b})`);
    }
  }
  // The same hue as a positive score on the diverging scale, in each theme.
  for (const theme of ['light', 'dark']) {
    const [r, , b] = divergingRgb(1, 1, theme);
    assert.ok(b > r, `${theme}: a positive score is blue too`);
  }
});

test('maxAbsFinite ignores −∞ and scaleKind gives A the sequential scale', () => {
  assert.equal(maxAbsFinite(new Float32Array([1, -3, -Infinity, 2])), 3);
  assert.equal(scaleKind('A'), 'sequential');
  assert.equal(scaleKind('S'), 'diverging');
  assert.equal(scaleKind('M'), 'mask');
});

// Exact colours and the WCAG formula (written for mutants of colors.js no test noticed).

test('the scales give the palette’s own colours at the stops and blend halfway between them', () => {
  assert.deepEqual(divergingRgb(0, 1), [0xf7, 0xf7, 0xf7], 'light is the default theme');
  assert.deepEqual(divergingRgb(-1, 1), [0xb3, 0x58, 0x06]);
  assert.deepEqual(divergingRgb(2, 2, 'dark'), [0xb7, 0xdc, 0xf0]);
  // 0.25 of a range of 2 is one and a half stops up from the centre: halfway from #f7f7f7 to #d1e5f0
  assert.deepEqual(divergingRgb(0.25, 2), [228, 238, 244]);
  assert.deepEqual(divergingRgb(3, 0), divergingRgb(0, 1), 'a range of 0 draws everything as the centre');
  assert.deepEqual(sequentialRgb(0), [0xf7, 0xfb, 0xff]);
  assert.deepEqual(sequentialRgb(1, 'dark'), [0xc6, 0xdf, 0xf2]);
  assert.deepEqual(maskedRgb(), [0x5c, 0x5c, 0x5c]);
  assert.deepEqual(maskedRgb('dark'), [0x8a, 0x8a, 0x8a]);
});

test('cellRgb picks the scale by kind; only −∞ gets the masked colour', () => {
  assert.deepEqual(cellRgb('diverging', 0.5, 1, 'light'), divergingRgb(0.5, 1, 'light'));
  assert.deepEqual(cellRgb('sequential', 0.3, 1, 'dark'), sequentialRgb(0.3, 'dark'));
  assert.deepEqual(cellRgb('mask', 0, 1, 'light'), [0xf7, 0xf7, 0xf7], 'an open entry of M is the centre colour');
  assert.deepEqual(cellRgb('mask', 0.5, 1, 'light'), [0xf7, 0xf7, 0xf7], 'so is a finite float mask value');
  assert.deepEqual(cellRgb('mask', -Infinity, 1, 'dark'), maskedRgb('dark'));
  assert.deepEqual(cellRgb('sequential', -Infinity, 1, 'light'), maskedRgb('light'));
});

test('contrast is the WCAG ratio: 21 for black on white, 4.48 for #777 on white, both luminance branches', () => {
  assert.equal(contrast([0, 0, 0], [255, 255, 255]), 21);
  assert.ok(Math.abs(contrast([0x77, 0x77, 0x77], [255, 255, 255]) - 4.478) < 1e-3);
  assert.ok(Math.abs(contrast([0, 255, 0], [0, 0, 0]) - 15.304) < 1e-3, 'green weighs 0.7152');
  // a channel of 5/255 is on the linear branch: 0.0196 / 12.92
  assert.ok(Math.abs(contrast([5, 5, 5], [0, 0, 0]) - (0.05 + 5 / 255 / 12.92) / 0.05) < 1e-9);
  assert.equal(textOn([0, 0, 0]), '#fff');
  assert.equal(textOn([255, 255, 255]), '#000');
});

test('css and legendGradient write CSS', () => {
  assert.equal(css([1, 22, 255]), 'rgb(1,22,255)');
  assert.equal(legendGradient('sequential'), 'linear-gradient(to right,#f7fbff,#deebf7,#c6dbef,#9ecae1,#6baed6,#4292c6,#2171b5,#08519c,#08306b)');
  assert.ok(legendGradient('diverging', 'dark').startsWith('linear-gradient(to right,#fdb863,#e08214,'));
});
