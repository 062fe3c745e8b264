// The grammar helpers every generated sentence goes through (web/blocks/words.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { count, noun, verb, list, range, largest, grouped } from '../../web/blocks/words.js';

test('count and noun agree with the number: 0 and n take the plural, 1 the singular', () => {
  assert.equal(count(0, 'token'), '0 tokens');
  assert.equal(count(1, 'token'), '1 token');
  assert.equal(count(2, 'query', 'queries'), '2 queries');
  assert.equal(noun(1, 'key'), 'key');
  assert.equal(noun(5, 'key'), 'keys');
  assert.equal(verb(1, 'is', 'are'), 'is');
  assert.equal(verb(2, 'is', 'are'), 'are');
});

test('list joins 1, 2 and n items with commas and one conjunction', () => {
  assert.equal(list([]), '');
  assert.equal(list(['cat']), 'cat');
  assert.equal(list(['cat', 'sat']), 'cat and sat');
  assert.equal(list(['a', 'b', 'c', 'd']), 'a, b, c and d');
  assert.equal(list(['a', 'b'], 'or'), 'a or b');
});

test('range never says "1 to 1" and names two neighbours with "and"', () => {
  assert.equal(range(1, 1, 'token'), 'token 1');
  assert.equal(range(1, 2, 'token'), 'tokens 1 and 2');
  assert.equal(range(1, 4, 'token'), 'tokens 1 to 4');
  assert.equal(range(2, 2, 'query', 'queries'), 'query 2');
  assert.throws(() => range(3, 2, 'token'), /before the first/);
});

test('largest keeps every index that reads the same as the maximum, and nothing else', () => {
  assert.deepEqual(largest([0.401, 0.198, 0.401]), [0, 2]);
  assert.deepEqual(largest([0.248, 0.248, 0.503]), [2]);
  assert.deepEqual(largest([0.5000001, 0.4999999, 0.1]), [0, 1]); // both read 0.500
  assert.deepEqual(largest([0.5004, 0.5006]), [1]);              // 0.500 against 0.501
  assert.deepEqual(largest([-Infinity, -Infinity]), []);
  assert.deepEqual(largest([NaN, 1, NaN]), [1]);
  assert.deepEqual(largest([3, 9, 9, 1], [0, 3]), [0]);
});

test('grouped writes a whole number with its thousands grouped by commas, as the lesson does', () => {
  assert.equal(grouped(65536), '65,536');
  assert.equal(grouped(999), '999');
  assert.equal(grouped(4096 * 4096), '16,777,216');
});
