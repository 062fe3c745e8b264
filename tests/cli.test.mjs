// The command line prints what the core computes, in the page's format, and says what to fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../web/cli.js', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

test("with no arguments it prints the lesson's worked example: weights and outputs to 3 decimals", () => {
  const out = execFileSync(process.execPath, [cli], { encoding: 'utf8' });
  assert.match(out, /A: 3 × 3, weights/);
  assert.match(out, /^1 +0\.401 +0\.198 +0\.401$/m);
  assert.match(out, /^2 +0\.198 +0\.401 +0\.401$/m);
  assert.match(out, /^3 +0\.248 +0\.248 +0\.503$/m);
  assert.match(out, /^1 +1\.604 +0\.797$/m);
  assert.match(out, /^3 +1\.759 +1\.000$/m);
});

test('--format json writes every matrix with full precision and masked entries as "-Infinity"', () => {
  const r = run('--preset', 'cat', '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.tokens, ['The', 'cat', 'sat', 'on', 'the']);
  assert.equal(j.A.length, 5);
  for (const row of j.A) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  assert.equal(j.M[0][1], '-Infinity');
  assert.ok(j.A[4][1] > 0.45 && j.A[4][1] < 0.6, `the last "the" gives ${j.A[4][1]} to "cat"`);
});

test('--format csv writes one matrix with token labels', () => {
  const r = run('--preset', 'cat', '--format', 'csv', '--matrix', 'A');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines[0], ',The,cat,sat,on,the');
  assert.equal(lines[1], 'The,1,0,0,0,0');
});

test('bad options and bad configs exit non-zero with the fix', () => {
  let r = run('--bogus');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option "--bogus": see --help/);
  r = run('--format', 'csv');
  assert.match(r.stderr, /add --matrix/);
  r = run('--preset', 'nope');
  assert.match(r.stderr, /no preset "nope": use one of/);
  r = spawnSync(process.execPath, [cli, '--config', '-'], { input: '{"X":[[1]],"Wq":[[1,2]],"Wk":[[1]],"Wv":[[1]]}', encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /the config is not valid: "Wk" has 1 columns but must have 2/);
});

test('--help lists the options', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  for (const opt of ['--preset', '--config', '--format', '--matrix', '--causal', '--scale']) assert.ok(r.stdout.includes(opt));
});
