// The command line prints what the core computes, in the page's format, and says what to fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, openSync, writeSync, closeSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRESETS } from '../../web/blocks/presets.js';
import { MAX_JSON } from '../../web/blocks/config.js';
import { fileURLToPath } from 'node:url';
import { Socket } from 'node:net';

const cli = fileURLToPath(new URL('../../tools/cli.js', import.meta.url));
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
  assert.match(r.stderr, /the config is not valid: "Wk" has 1 column but must have 2/);
});

test('--help lists the options', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  for (const opt of ['--preset', '--config', '--format', '--matrix', '--causal', '--scale']) assert.ok(r.stdout.includes(opt));
});

// Reading stops at the limit (4,000,000 characters), with the message parseConfig gives a text
// past it: before, /dev/zero grew to 16.8 GB in 29 s and an endless stdin was read for ever.
const TOO_LONG = new RegExp(`the config is not valid: The config is more than ${MAX_JSON} characters long; the limit is ${MAX_JSON}\\. It was not read further\\.`);

test('--config /dev/zero stops reading at the limit and says so', () => {
  const r = spawnSync(process.execPath, [cli, '--config', '/dev/zero'], { encoding: 'utf8', timeout: 30000 });
  assert.equal(r.signal, null, 'it stops by itself');
  assert.equal(r.status, 1);
  assert.match(r.stderr, TOO_LONG);
});

test('an endless standard input stops at the limit with the same message', async () => {
  const child = spawn(process.execPath, [cli, '--config', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '', written = 0;
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.on('error', () => {}); // EPIPE once the CLI has stopped reading
  const chunk = Buffer.alloc(1 << 16, ' ');
  const cap = 10 * MAX_JSON; // then end the input, so a reader with no limit fails instead of hanging
  const pump = () => {
    while (child.exitCode === null && written < cap && child.stdin.write(chunk)) written += chunk.length;
    if (child.exitCode !== null) return;
    if (written >= cap) child.stdin.end();
    else child.stdin.once('drain', () => ((written += chunk.length), pump()));
  };
  pump();
  const code = await new Promise((ok) => child.on('exit', ok));
  assert.equal(code, 1);
  assert.match(stderr, TOO_LONG);
  assert.ok(written < 4 * MAX_JSON, `it stopped after ${written} bytes were written`);
});

// A non-blocking standard input (a shell or a tool may hand one over) answers "nothing yet" with
// EAGAIN until data comes: the CLI waits for it instead of failing. Here its stdin is a FIFO. The
// child's libuv makes its stdin blocking as it starts; the open file is shared, so a socket the test
// opens on its own descriptor of it (libuv then sets O_NONBLOCK) makes the CLI's non-blocking again.
// The config comes in two parts with a pause between, and the end later still, so the CLI reads
// past what has arrived at least once.
test('a non-blocking standard input that has nothing yet is waited for, not an error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-cli-'));
  const fifo = join(dir, 'stdin');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK), writer = openSync(fifo, 'w');
  let shared = null;
  try {
    const text = '{"Q":[[1]],"K":[[1]],"V":[[2]]}', half = text.length >> 1;
    writeSync(writer, text.slice(0, half));
    const child = spawn(process.execPath, [cli, '--config', '-', '--matrix', 'O', '--format', 'csv'], { stdio: [reader, 'pipe', 'pipe'] });
    const exited = new Promise((ok) => child.on('exit', ok));
    await new Promise((ok) => child.once('spawn', ok));
    shared = new Socket({ fd: reader, readable: false, writable: false });
    shared.pause();
    let stdout = '', stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const pause = () => new Promise((ok) => setTimeout(ok, 300));
    await pause();
    writeSync(writer, text.slice(half));
    await pause();
    closeSync(writer);
    const code = await exited;
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^1,2\b/m);
  } finally {
    if (shared) shared.destroy(); // (closes reader)
    else closeSync(reader);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file one character past the limit is refused; one at the limit (padded with spaces) is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-cli-'));
  try {
    const good = '{"Q":[[1]],"K":[[1]],"V":[[2]]}';
    writeFileSync(join(dir, 'at.json'), good + ' '.repeat(MAX_JSON - good.length));
    writeFileSync(join(dir, 'past.json'), good + ' '.repeat(MAX_JSON - good.length + 1));
    let r = run('--config', join(dir, 'at.json'), '--matrix', 'O', '--format', 'csv');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n')[1], '1,2');
    r = run('--config', join(dir, 'past.json'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, TOO_LONG);
    r = run('--config', dir);
    assert.match(r.stderr, /cannot read .*: it is a directory/);
    r = run('--config', join(dir, 'missing.json'));
    assert.match(r.stderr, /cannot read .*missing\.json: no such file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--preset looks names up as the preset list\'s own: __proto__, constructor and toString are no presets', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    const r = run('--preset', name);
    assert.equal(r.status, 2, name);
    assert.ok(r.stderr.includes(`no preset "${name}": use one of ${Object.keys(PRESETS).join(', ')}`), name);
  }
});

test('a config nested 10,000 deep gives a short message; 1e999 is too large for float32', () => {
  const deep = '['.repeat(10000) + '0' + ']'.repeat(10000);
  let r = spawnSync(process.execPath, [cli, '--config', '-'], { input: `{"X": [[${deep}]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}`, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^cli: the config is not valid: "X" row 1, column 1 is an array: every entry must be a finite number\.\n$/);
  r = spawnSync(process.execPath, [cli, '--config', '-'], { input: '{"Q": [[1e999]], "K": [[1]], "V": [[1]]}', encoding: 'utf8' });
  assert.match(r.stderr, /"Q" row 1, column 1 is 1e999 or more, too large for float32/);
  r = run('--preset', 'p'.repeat(100000));
  assert.ok(r.stderr.length < 500, `${r.stderr.length} characters`);
});

// Issue 27: options the CLI read silently wrong.
test('--causal with --no-causal is refused, not "last wins"; --scale takes a decimal only (0x10 was read as 16)', () => {
  let r = run('--preset', 'cat', '--causal', '--no-causal');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /give --causal or --no-causal, not both/);
  assert.equal(run('--preset', 'cat', '--causal', '--causal').status, 0, 'the same one twice is fine');
  for (const bad of ['0x10', '', '1e', 'Infinity']) {
    r = run('--preset', 'cat', '--scale', bad);
    assert.notEqual(r.status, 0, bad);
    assert.match(r.stderr, bad === 'Infinity' ? /--scale must be a number greater than 0|--scale is "Infinity"/ : /--scale is ".*": give a decimal number greater than 0, like 0\.5/, bad);
  }
  assert.equal(run('--preset', 'cat', '--scale', '0.5').status, 0);
});
