import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt, fmtFine, fmtShort, parseNumber, tokenRef } from '../../web/blocks/format.js';

test('fmt prints 3 decimals with a real minus sign, −∞ for masked scores, never −0.000', () => {
  assert.equal(fmt(0.40111207962036133), '0.401');
  assert.equal(fmt(-1.5), '\u22121.500');
  assert.equal(fmt(-Infinity), '\u2212\u221e');
  assert.equal(fmt(-0.0001), '0.000');
  assert.equal(fmt(-0), '0.000');
  assert.equal(fmt(1e6), '1.00e6');
  assert.equal(fmt(-2.5e7), '\u22122.50e7');
  assert.equal(fmt(Infinity), '\u221e');
  assert.equal(fmt(NaN), 'NaN');
});

test('fmt switches to d.dde form from 100000 on, and not before', () => {
  assert.equal(fmt(1e5), '1.00e5');
  assert.equal(fmt(99999.25), '99999.250');
  assert.equal(fmt(-1e5), '\u22121.00e5');
});

test('fmtShort drops trailing zeros for legends', () => {
  assert.equal(fmtShort(2), '2');
  assert.equal(fmtShort(-1.5), '\u22121.5');
  assert.equal(fmtShort(0.691), '0.691');
  assert.equal(fmtShort(10.05), '10.05', 'only the trailing zeros go');
  assert.equal(fmtShort(0.5), '0.5');
});

test('parseNumber accepts what a learner types and rejects the rest', () => {
  assert.equal(parseNumber('\u22120.5'), -0.5);
  assert.equal(parseNumber(' 2,5 '), 2.5);
  assert.equal(parseNumber('.5'), 0.5);
  assert.equal(parseNumber('1e-3'), 0.001);
  assert.equal(parseNumber('12.75'), 12.75);
  assert.equal(parseNumber('.25'), 0.25);
  assert.equal(parseNumber('2e3'), 2000);
  assert.equal(parseNumber('-1.5E+12'), -1.5e12);
  for (const bad of ['', '-', 'abc', '1..2', 'Infinity', 'NaN', '0x10']) assert.ok(Number.isNaN(parseNumber(bad)), bad);
});

test('tokenRef numbers tokens from 1 as the lesson does', () => {
  assert.equal(tokenRef(['The', 'cat'], 1), '\u201ccat\u201d (2)');
});

test('tokenRef: a token that is only a number (sign, digits, "." or ",", spaces around) says "token k"; one with letters does not', () => {
  assert.equal(tokenRef(['1', 'b'], 0), 'token 1', 'its own position');
  assert.equal(tokenRef(['12'], 0), '\u201c12\u201d (token 1)');
  assert.equal(tokenRef(['x', '-3'], 1), '\u201c-3\u201d (token 2)');
  assert.equal(tokenRef(['x', ' \u22120,5 '], 1), '\u201c \u22120,5 \u201d (token 2)');
  for (const word of ['a1', '1a', 'x 3', '3 x', '--3', '3-'])
    assert.equal(tokenRef(['x', word], 1), `\u201c${word}\u201d (2)`, word);
});

test('fmtFine keeps the digits of a non-zero value below 0.001 in short scientific form', () => {
  assert.equal(fmtFine(0), '0.000');
  assert.equal(fmtFine(-0), '0.000');
  assert.equal(fmtFine(0.001), '0.001', 'three decimals show 0.001 itself');
  assert.equal(fmtFine(-0.001), '\u22120.001');
  assert.equal(fmtFine(2.06e-9), '2.06e\u22129');
  assert.equal(fmtFine(-0.000999), '\u22129.99e\u22124');
  assert.equal(fmtFine(1.5), '1.500');
});
