import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt, fmtShort, parseNumber, tokenRef } from '../web/format.js';

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
