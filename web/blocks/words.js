// @ts-check
// words.js: the few helpers every sentence built from numbers goes through, so grammar is
// fixed in one place and tested over many inputs (tests/blocks/words.test.mjs): a count with its
// noun, a list, a range, and the largest of some values with ties kept.
//
// Ties are decided on the values as the page shows them (format.js's fmt): two weights that
// both read 0.500 are a tie to the learner, whatever their last float32 bits say.

import { fmt } from './format.js';

/**
 * count(1, 'token') -> "1 token", count(3, 'token') -> "3 tokens", count(2, 'query', 'queries').
 * @param {number} n @param {string} singular @param {string} [pluralForm] @returns {string}
 */
export function count(n, singular, pluralForm = singular + 's') {
  return `${n} ${noun(n, singular, pluralForm)}`;
}

/**
 * The noun alone, agreeing with n: noun(1, 'key') -> "key", noun(0, 'key') -> "keys".
 * @param {number} n @param {string} singular @param {string} [pluralForm] @returns {string}
 */
export function noun(n, singular, pluralForm = singular + 's') {
  return n === 1 ? singular : pluralForm;
}

/** The verb agreeing with n: verb(1, 'is', 'are') -> "is". @param {number} n @param {string} singular @param {string} pluralForm @returns {string} */
export function verb(n, singular, pluralForm) {
  return n === 1 ? singular : pluralForm;
}

/**
 * list(["a"]) -> "a", list(["a", "b"]) -> "a and b", list(["a", "b", "c"]) -> "a, b and c".
 * @param {Iterable<string | number>} items @param {string} [conjunction] @returns {string}
 */
export function list(items, conjunction = 'and') {
  const xs = [...items];
  if (xs.length === 0) return '';
  if (xs.length === 1) return String(xs[0]);
  return `${xs.slice(0, -1).join(', ')} ${conjunction} ${xs[xs.length - 1]}`;
}

/**
 * A run of numbered items, numbered as the learner reads them (from 1):
 * range(1, 4, 'token') -> "tokens 1 to 4", range(3, 3, 'token') -> "token 3",
 * range(2, 3, 'token') -> "tokens 2 and 3". Never "1 to 1".
 * @param {number} first @param {number} last @param {string} singular @param {string} [pluralForm] @returns {string}
 */
export function range(first, last, singular, pluralForm = singular + 's') {
  if (last < first) throw new Error(`range(${first}, ${last}): the last item comes before the first`);
  if (first === last) return `${singular} ${first}`;
  if (last === first + 1) return `${pluralForm} ${first} and ${last}`;
  return `${pluralForm} ${first} to ${last}`;
}

/**
 * The indices holding the largest value, ties kept: every index whose value reads the same
 * as the maximum (fmt) is returned, in order. NaN and -Infinity never win; an empty result
 * means there was no finite value. `among` restricts the search to some indices.
 * @param {ArrayLike<number>} values @param {readonly number[] | null} [among] @returns {number[]}
 */
export function largest(values, among = null) {
  const idx = among ?? Array.from({ length: values.length }, (_, k) => k);
  let best = -Infinity;
  for (const k of idx) if (values[k] > best) best = values[k];
  if (best === -Infinity || Number.isNaN(best)) return [];
  const shown = fmt(best);
  return idx.filter((k) => values[k] === best || fmt(values[k]) === shown);
}

/** The longest message shown to a reader: past it, text is cut with "…" (a 10,000-deep array
 * or a megabyte-long key must not become a megabyte of message). */
export const MAX_MESSAGE = 400;

/**
 * `text` cut to at most `max` characters, ending in "…" when it was cut.
 * @param {unknown} text @param {number} [max] @returns {string}
 */
export function clipMessage(text, max = MAX_MESSAGE) {
  const t = String(text);
  return t.length <= max ? t : t.slice(0, max - 1) + '…';
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB'];
/** A whole number with its thousands grouped, as the lesson writes them: 65536 → "65,536". @param {number} x */
export function grouped(x) {
  return x.toLocaleString('en-US');
}

/**
 * 1,048,576 bytes -> "1.0 MiB", 2048 -> "2.0 KiB", 196,608 -> "192 KiB", 96 -> "96 bytes". One
 * decimal below 10, whole numbers above; a value that would round to 1024 of a unit is said in
 * the next (1023.9 KiB is "1.0 MiB", never "1024 KiB"), and 9.96 KiB is "10 KiB", not "10.0 KiB".
 * @param {number} b
 */
export function bytesText(b) {
  if (b < 1024) return count(b, 'byte');
  let x = b / 1024, k = 0;
  while (k < BYTE_UNITS.length - 1 && Math.round(x) >= 1024) x /= 1024, k++;
  const tenths = x.toFixed(1);
  return `${Number(tenths) < 10 ? tenths : Math.round(x)} ${BYTE_UNITS[k]}`;
}
