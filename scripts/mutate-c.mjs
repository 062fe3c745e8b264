#!/usr/bin/env node
// mutate-c.mjs: mutation testing of the C core. How many small, deliberate bugs in c/*.c do
// the tests catch? `make mutate-c` runs it (tens of minutes on 2 cores, so not in `make test`).
// No C mutation tool is packaged for Debian or npm; this one is kept small on purpose.
//
//   1. It reads every c/*.c, finds each function body, and lists every place where one of these
//      mutations applies (comments, strings and preprocessor lines are never touched):
//        compare  a comparison or logic operator swapped:  < <=   > >=   == !=   && ||
//        arith    an arithmetic operator swapped:          + -   * /   += -=   *= /=
//        bound    an off-by-one loop bound: a for loop's limit `i < n` -> `i < n - 1`,
//                 or its start `i = 0` -> `i = 1`
//        const    a changed constant: an integer k -> k + 1 (1 -> 0), a float x -> 2x (0 -> 1)
//        delete   a deleted statement (`x += y;` -> `{}`; never a declaration or a `return v;`),
//                 or a deleted guard (`if (c)` -> `if (0)`)
//   2. It draws --count mutants (default 160) with a fixed --seed, stratified by function:
//      each function gets a share of the mutants proportional to its candidates (at least one),
//      taken round-robin over the kinds.
//   3. Each mutant runs in its own copy of the tree, made from a pre-built base copy in a
//      temporary directory (the work tree itself is never changed, so an interrupted run leaves
//      nothing mutated): `make test-c` (skipped for c/wasm_exports.c, which no native test links);
//      a mutant that survives it then runs the Node tests (tests/*.test.mjs, not the browser ones,
//      one file at a time, the core's own first, stopping at the first failure) against a
//      WebAssembly build of the mutant.
//   4. It prints killed and survived per file and per kind, every survivor with file:line and its
//      mutation, and writes the same to build/mutate-c/report.txt (and report.json).
//
// A survivor is a behaviour no test pins down: kill it with a test, or, if it cannot change any
// result (an equivalent mutant), add it to tests/mutation/c-equivalents.txt with the reason, after
// reading it. Equivalent mutants and mutants that do not compile ("stillborn") are left out of
// the score, killed / (killed + survived). The equivalents are matched by file, function and the
// source line before and after, so a changed line is read again.
//
// Usage: node scripts/mutate-c.mjs [--count=160] [--seed=14] [--jobs=1] [--list] [--only=3,17]
//   --list   print the sampled mutants and stop      --only  run only these mutant numbers
//   --jobs   mutants run at once (the machine is shared: 1 unless it is idle)

import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEquivalents, squash } from './equivalents.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EQUIVALENTS = 'tests/mutation/c-equivalents.txt';
const KINDS = ['compare', 'arith', 'bound', 'const', 'delete'];

// ---------------------------------------------------------------------------- options

const opts = { count: 160, seed: 14, jobs: 1, list: false, only: null };
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.replace(/^--/, '').split('=');
  if (k === 'list') opts.list = true;
  else if (k === 'only') opts.only = new Set(v.split(',').map(Number));
  else if (k in opts && /^\d+$/.test(v ?? '')) opts[k] = Number(v);
  else {
    console.error(`mutate-c: unknown option ${arg}; see the head of scripts/mutate-c.mjs`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------- reading C

const TYPES = new Set(['void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', 'const', 'static',
  'volatile', 'struct', 'enum', 'union', 'typedef', 'size_t', 'uint32_t', 'uint64_t', 'uintptr_t', 'int32_t', 'int64_t']);
const PUNCT = ['>>=', '<<=', '...', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=',
  '%=', '&=', '|=', '^='];

/** Tokens of C source: { t: text, k: 'id'|'num'|'str'|'op', s: start offset, e: end offset }. */
function tokenize(src) {
  const toks = [];
  let i = 0, lineStart = true;
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') { lineStart = true; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (lineStart && c === '#') { // a preprocessor directive, with its continuation lines
      while (i < src.length && !(src[i] === '\n' && src[i - 1] !== '\\')) i++;
      continue;
    }
    lineStart = false;
    if (src.startsWith('//', i)) { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (src.startsWith('/*', i)) { i = src.indexOf('*/', i + 2) + 2; continue; }
    const s = i;
    if (c === '"' || c === "'") {
      for (i++; src[i] !== c; i++) if (src[i] === '\\') i++;
      toks.push({ t: src.slice(s, ++i), k: 'str', s, e: i });
      continue;
    }
    const num = /^(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)[fFuUlL]*/.exec(src.slice(i, i + 40));
    if (num && /[\d.]/.test(c)) {
      i += num[0].length;
      toks.push({ t: num[0], k: 'num', s, e: i });
      continue;
    }
    const id = /^[A-Za-z_]\w*/.exec(src.slice(i, i + 80));
    if (id) {
      i += id[0].length;
      toks.push({ t: id[0], k: 'id', s, e: i });
      continue;
    }
    const p = PUNCT.find((x) => src.startsWith(x, i)) ?? c;
    i += p.length;
    toks.push({ t: p, k: 'op', s, e: i });
  }
  return toks;
}

function matching(toks, i) { // index of the bracket closing toks[i]
  const open = toks[i].t, close = { '(': ')', '[': ']', '{': '}' }[open];
  for (let depth = 0; i < toks.length; i++) {
    if (toks[i].t === open) depth++;
    else if (toks[i].t === close && --depth === 0) return i;
  }
  throw new Error('unbalanced ' + open);
}

/**
 * The functions of a file and, inside each, its simple statements, ifs and for loops.
 * Returns [{ name, body: [first, last] token indices, stmts, ifs, fors }].
 */
function functionsOf(toks) {
  const fns = [];
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].t !== '{') continue;
    const end = matching(toks, i);
    if (toks[i - 1]?.t === ')') {
      let depth = 0, j = i - 1;
      for (; j >= 0; j--) {
        if (toks[j].t === ')') depth++;
        else if (toks[j].t === '(' && --depth === 0) break;
      }
      const fn = { name: toks[j - 1].t, body: [i, end], stmts: [], ifs: [], fors: [] };
      statement(toks, i, fn);
      fns.push(fn);
    }
    i = end;
  }
  return fns;
}

// Parses the statement at toks[i] into fn's lists; returns the index after it.
function statement(toks, i, fn) {
  const t = toks[i].t;
  if (t === '{') {
    const end = matching(toks, i);
    for (let j = i + 1; j < end;) j = statement(toks, j, fn);
    return end + 1;
  }
  if (t === 'if') {
    const close = matching(toks, i + 1);
    const rec = { cond: [i + 2, close - 1], hasElse: false };
    let j = statement(toks, close + 1, fn);
    if (toks[j]?.t === 'else') { rec.hasElse = true; j = statement(toks, j + 1, fn); }
    fn.ifs.push(rec);
    return j;
  }
  if (t === 'case' || (t === 'default' && toks[i + 1].t === ':')) { // a label: the statement follows it
    let j = i;
    while (toks[j].t !== ':') j++;
    return j + 1;
  }
  if (t === 'for' || t === 'while' || t === 'switch') {
    const close = matching(toks, i + 1);
    if (t === 'for') {
      const semis = [];
      for (let j = i + 2, depth = 0; j < close; j++) {
        if ('([{'.includes(toks[j].t)) depth++;
        else if (')]}'.includes(toks[j].t)) depth--;
        else if (toks[j].t === ';' && depth === 0) semis.push(j);
      }
      fn.fors.push({ init: [i + 2, semis[0] - 1], cond: [semis[0] + 1, semis[1] - 1] });
    }
    return statement(toks, close + 1, fn);
  }
  if (t === 'do') {
    const j = statement(toks, i + 1, fn); // then: while ( ... ) ;
    return matching(toks, j + 1) + 2;
  }
  if (t === ';') return i + 1;
  let j = i;
  for (let depth = 0; !(toks[j].t === ';' && depth === 0); j++) {
    if ('([{'.includes(toks[j].t)) depth++;
    else if (')]}'.includes(toks[j].t)) depth--;
  }
  const decl = TYPES.has(t) || isTypeName(t);
  fn.stmts.push({ range: [i, j], decl, returns: t === 'return' && toks[i + 1].t !== ';', jump: ['break', 'continue', 'goto'].includes(t) });
  return j + 1;
}

// Type names defined in the project (typedefs of attention.h, train.h and the .c files).
let projectTypes = new Set();
const isTypeName = (t) => projectTypes.has(t);

function binary(toks, i) { // is toks[i] (+ - * /) a binary operator?
  const p = toks[i - 1];
  if (p.t === ')') { // after a cast or a bracketed operand, but not after `if (...)`
    let depth = 0, j = i - 1;
    for (; j >= 0; j--) {
      if (toks[j].t === ')') depth++;
      else if (toks[j].t === '(' && --depth === 0) break;
    }
    return !['if', 'while', 'for', 'switch'].includes(toks[j - 1]?.t);
  }
  return (p.k === 'id' && !TYPES.has(p.t) && !isTypeName(p.t) && p.t !== 'return' && p.t !== 'sizeof') || p.k === 'num' || p.t === ']';
}

function formatNumber(text) { // the const mutation of a literal
  const m = /^(0[xX][0-9a-fA-F]+|[\d.]+(?:[eE][-+]?\d+)?)([fFuUlL]*)$/.exec(text);
  const [, body, suffix] = m;
  if (/^0[xX]/.test(body)) return '0x' + (BigInt(body) + 1n).toString(16) + suffix;
  if (/^\d+$/.test(body) && !/[fF]/.test(suffix)) return (body === '1' ? '0' : String(BigInt(body) + 1n)) + suffix;
  const v = Number(body);
  let s = v === 0 ? '1.0' : String(v * 2);
  if (!/[.e]/.test(s)) s += '.0';
  return s + suffix;
}

/** Every candidate mutation of one file: { file, fn, kind, s, e, to, what }. */
function candidates(file, src) {
  const toks = tokenize(src);
  const out = [];
  const add = (fn, kind, s, e, to, what) => out.push({ file, fn: fn.name, kind, s, e, to, what });
  for (const fn of functionsOf(toks)) {
    const [b0, b1] = fn.body;
    for (let i = b0 + 1; i < b1; i++) {
      const tk = toks[i];
      const swap = { '<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '==', '&&': '||', '||': '&&' }[tk.t];
      if (swap) add(fn, 'compare', tk.s, tk.e, swap, `${tk.t} -> ${swap}`);
      const arith = { '+=': '-=', '-=': '+=', '*=': '/=', '/=': '*=' }[tk.t] ??
        ({ '+': '-', '-': '+', '*': '/', '/': '*' }[tk.t] && binary(toks, i) ? { '+': '-', '-': '+', '*': '/', '/': '*' }[tk.t] : null);
      if (arith) add(fn, 'arith', tk.s, tk.e, arith, `${tk.t} -> ${arith}`);
      if (tk.k === 'num') add(fn, 'const', tk.s, tk.e, formatNumber(tk.t), `${tk.t} -> ${formatNumber(tk.t)}`);
    }
    for (const { init, cond } of fn.fors) {
      let op = -1;
      for (let j = cond[0], depth = 0; j <= cond[1]; j++) {
        if (toks[j].t === '(') depth++;
        else if (toks[j].t === ')') depth--;
        else if (depth === 0 && ['<', '<=', '>', '>='].includes(toks[j].t)) op = j;
      }
      if (op > 0) {
        let last = op + 1;
        while (last < cond[1] && !['&&', '||'].includes(toks[last + 1].t)) last++;
        const rhs = src.slice(toks[op + 1].s, toks[last].e);
        const to = /^[\w.>-]+$/.test(rhs) ? `${rhs} - 1` : `(${rhs}) - 1`;
        add(fn, 'bound', toks[op + 1].s, toks[last].e, to, `loop limit ${rhs} -> ${to}`);
      }
      const eq = toks.slice(init[0], init[1] + 1).findIndex((x) => x.t === '=');
      const start = toks[init[0] + eq + 1];
      if (eq >= 0 && start?.t === '0' && init[0] + eq + 1 === init[1]) add(fn, 'bound', start.s, start.e, '1', 'loop start 0 -> 1');
    }
    for (const st of fn.stmts) {
      if (st.decl || st.returns || st.jump) continue;
      const text = src.slice(toks[st.range[0]].s, toks[st.range[1]].e);
      add(fn, 'delete', toks[st.range[0]].s, toks[st.range[1]].e, '{}', `deleted: ${text.replace(/\s+/g, ' ')}`);
    }
    for (const { cond, hasElse } of fn.ifs) {
      if (hasElse) continue;
      const text = src.slice(toks[cond[0]].s, toks[cond[1]].e);
      add(fn, 'delete', toks[cond[0]].s, toks[cond[1]].e, '0', `guard deleted: if (${text.replace(/\s+/g, ' ')}) -> if (0)`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------- sampling

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const hash = (s) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
function shuffled(xs, rand) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** count mutants stratified by function: shares proportional to candidates, at least 1 each. */
function sample(all, count, seed) {
  const groups = new Map();
  for (const c of all) {
    const key = `${c.file} ${c.fn}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  const keys = [...groups.keys()];
  const total = all.length, want = Math.min(count, total);
  const share = new Map(keys.map((k) => [k, (want * groups.get(k).length) / total]));
  const quota = new Map(keys.map((k) => [k, Math.min(groups.get(k).length, Math.max(1, Math.floor(share.get(k))))]));
  const used = () => [...quota.values()].reduce((a, b) => a + b, 0);
  const byRemainder = [...keys].sort((a, b) => (share.get(b) % 1) - (share.get(a) % 1) || (a < b ? -1 : 1));
  while (used() < want) {
    const k = byRemainder.find((x) => quota.get(x) < groups.get(x).length && quota.get(x) < Math.ceil(share.get(x)))
      ?? byRemainder.find((x) => quota.get(x) < groups.get(x).length);
    quota.set(k, quota.get(k) + 1);
  }
  while (used() > want) { // the minimum of one per function overshot: take from the largest
    const k = [...keys].sort((a, b) => quota.get(b) - quota.get(a))[0];
    quota.set(k, quota.get(k) - 1);
  }
  const picked = [];
  for (const k of keys) {
    const rand = mulberry32(seed ^ hash(k));
    const byKind = KINDS.map((kind) => shuffled(groups.get(k).filter((c) => c.kind === kind), rand)).filter((l) => l.length);
    let turn = Math.floor(rand() * byKind.length);
    for (let n = 0; n < quota.get(k); turn++) {
      const list = byKind[turn % byKind.length];
      if (list.length) { picked.push(list.shift()); n++; }
    }
  }
  return picked;
}

// ---------------------------------------------------------------------------- equivalents

function lineOf(src, at) {
  const s = src.lastIndexOf('\n', at - 1) + 1, e = src.indexOf('\n', at);
  return { line: src.slice(0, at).split('\n').length, text: src.slice(s, e < 0 ? undefined : e).trim() };
}

// ---------------------------------------------------------------------------- running

// The Node tests, those that call the core most directly first: a mutant stops at the first file
// that fails, so a killed mutant rarely runs them all.
const FIRST = ['wasm-abi', 'core', 'bad-input', 'train', 'induction', 'fused', 'labs-fused', 'property', 'reentrancy', 'onnx'];
const rank = (f) => { const k = FIRST.indexOf(f.replace(/^tests\/|\.test\.mjs$/g, '')); return k < 0 ? FIRST.length : k; };
const NODE_TESTS = readdirSync(join(ROOT, 'tests')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => 'tests/' + f)
  .sort((a, b) => rank(a) - rank(b));
const children = new Set();

/** Runs a command in its own process group; resolves { code, out, timedOut, seconds }. */
function run(cmd, args, cwd, seconds) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '', timedOut = false;
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL'); } catch {} }, seconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out, timedOut, seconds: (Date.now() - t0) / 1000 });
    });
  });
}
function cleanupAndExit(code) {
  for (const c of children) try { process.kill(-c.pid, 'SIGKILL'); } catch {}
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  process.exit(code);
}
const tempDirs = new Set();
process.on('SIGINT', () => cleanupAndExit(130));
process.on('SIGTERM', () => cleanupAndExit(143));

// What killed a mutant, in a few words, from the make or node --test output.
function killedBy(out) {
  const fail = /^FAIL (\S+)/m.exec(out);
  const bins = [...out.matchAll(/^build\/(test_\w+)$/gm)].map((m) => m[1]);
  const bin = bins[bins.length - 1] ?? '';
  if (fail) return `${bin}: ${fail[1]}`;
  const asan = /ERROR: AddressSanitizer: ([\w-]+)/.exec(out);
  if (asan) return `${bin}: AddressSanitizer ${asan[1]}`;
  if (/runtime error:|UndefinedBehaviorSanitizer/.test(out)) return `${bin}: UBSan`;
  const notOk = /^not ok \d+ - (.*)$/m.exec(out);
  if (notOk) return `node: ${notOk[1]}`;
  if (/Segmentation|SIGSEGV|signal/i.test(out)) return `${bin}: crashed`;
  return bin ? `${bin}: exit status` : 'build failed';
}

async function runMutant(m, base, limits) {
  const dir = `${base}-m${m.id}`;
  tempDirs.add(dir);
  cpSync(base, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  try {
    const src = readFileSync(join(dir, m.file), 'utf8');
    writeFileSync(join(dir, m.file), src.slice(0, m.s) + m.to + src.slice(m.e));
    const compile = await run('make', [limits.objectOf[m.file], 'WERROR='], dir, limits.c);
    if (compile.code !== 0) return { status: compile.timedOut ? 'killed' : 'stillborn', by: compile.timedOut ? 'compile timeout' : 'does not compile', out: compile.out };
    if (limits.objectOf[m.file].startsWith('build/san/')) { // a file no native test links (wasm_exports.c) skips them
      const c = await run('make', ['test-c', 'WERROR='], dir, limits.c);
      if (c.timedOut) return { status: 'killed', by: 'make test-c: timeout' };
      if (c.code !== 0) return { status: 'killed', by: killedBy(c.out) };
    }
    const build = await run('make', ['all', 'dist'], dir, limits.build);
    if (build.code !== 0) return { status: 'killed', by: build.timedOut ? 'wasm build: timeout' : 'wasm build failed' };
    for (const file of NODE_TESTS) { // one file at a time, stopping at the first that fails
      const node = await run('node', ['--test', file], dir, limits.nodeFile[file]);
      if (node.timedOut) return { status: 'killed', by: `${file}: timeout` };
      if (node.code !== 0) return { status: 'killed', by: `${file}: ${killedBy(node.out).replace(/^node: /, '')}` };
    }
    return { status: 'survived' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

// ---------------------------------------------------------------------------- report

function pct(k, s) { return k + s ? ((100 * k) / (k + s)).toFixed(1) + '%' : '-'; }

function report(mutants, header) {
  const lines = [header, ''];
  const row = (name, ms) => {
    const n = (st) => ms.filter((m) => m.status === st).length;
    return `${name.padEnd(24)} ${String(ms.length).padStart(7)} ${String(n('killed')).padStart(7)} ${String(n('survived')).padStart(9)} ${String(n('equivalent')).padStart(11)} ${String(n('stillborn')).padStart(10)} ${pct(n('killed'), n('survived')).padStart(7)}`;
  };
  const head = `${'file'.padEnd(24)} mutants  killed  survived  equivalent  stillborn   score`;
  lines.push(head);
  for (const f of [...new Set(mutants.map((m) => m.file))]) lines.push(row(f, mutants.filter((m) => m.file === f)));
  lines.push(row('total', mutants), '');
  lines.push(head.replace('file', 'kind'));
  for (const k of KINDS) lines.push(row(k, mutants.filter((m) => m.kind === k)));
  lines.push('', 'score = killed / (killed + survived): equivalent and stillborn mutants are left out', '');
  const show = (m) => `  #${m.id} ${m.file}:${m.line}  ${m.fn}  ${m.kind}  ${m.what}\n      - ${m.before}\n      + ${m.after}`;
  const surv = mutants.filter((m) => m.status === 'survived');
  lines.push(`Survivors (${surv.length}): no test notices these. Kill each with a test, or, if it cannot change any result,`,
    `list it in ${EQUIVALENTS} with the reason.`);
  for (const m of surv) lines.push(show(m));
  const eq = mutants.filter((m) => m.status === 'equivalent');
  lines.push('', `Equivalent (${eq.length}), from ${EQUIVALENTS}:`);
  for (const m of eq) lines.push(show(m) + `\n      = ${m.reason}`);
  const sb = mutants.filter((m) => m.status === 'stillborn');
  if (sb.length) lines.push('', `Stillborn (${sb.length}): they do not compile`, ...sb.map((m) => `  #${m.id} ${m.file}:${m.line} ${m.fn} ${m.what}`));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------- main

const files = readdirSync(join(ROOT, 'c')).filter((f) => f.endsWith('.c')).sort().map((f) => 'c/' + f);
const sources = Object.fromEntries(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
projectTypes = new Set(['f32x4', 'i32x4']);
for (const f of [...files, 'c/attention.h', 'c/train.h'].filter((f) => existsSync(join(ROOT, f)))) {
  const text = readFileSync(join(ROOT, f), 'utf8');
  for (const m of text.matchAll(/typedef\s[^;{]*?(\w+)\s*(?:__attribute__\S*\s*)?;|}\s*(\w+)\s*;/g)) projectTypes.add(m[1] ?? m[2]);
}
const all = files.flatMap((f) => candidates(f, sources[f]));
const mutants = sample(all, opts.count, opts.seed)
  .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.s - b.s))
  .map((m, i) => {
    const src = sources[m.file];
    const mutated = src.slice(0, m.s) + m.to + src.slice(m.e);
    const { line, text } = lineOf(src, m.s);
    return { id: i + 1, ...m, line, before: text, after: lineOf(mutated, m.s).text };
  });
const equivalents = readEquivalents(join(ROOT, EQUIVALENTS));
for (const m of mutants) {
  const eq = equivalents.find((e) => e.file === m.file && e.where === m.fn && e.before === squash(m.before) && e.after === squash(m.after));
  if (eq) m.reason = eq.reason;
}
const header = `make mutate-c: ${mutants.length} of ${all.length} candidate mutants of ${files.join(', ')} (seed ${opts.seed}), stratified by function`;
if (opts.list) {
  console.log(header);
  for (const m of mutants) console.log(`#${m.id} ${m.file}:${m.line} ${m.fn} ${m.kind} ${m.what}${m.reason ? '  [equivalent]' : ''}`);
  process.exit(0);
}

const chosen = mutants.filter((m) => !opts.only || opts.only.has(m.id));
console.log(header + (opts.only ? `; running ${chosen.length} of them` : ''));
const base = mkdtempSync(join(tmpdir(), 'ae-mutate-c-'));
tempDirs.add(base);
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
for (const f of tracked) {
  if (!existsSync(join(ROOT, f)) || f === 'node_modules') continue;
  mkdirSync(dirname(join(base, f)), { recursive: true });
  cpSync(join(ROOT, f), join(base, f), { preserveTimestamps: true });
}
symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));

console.log('baseline: building and running make test-c and the Node tests on the unmutated copy ...');
const c0 = await run('make', ['test-c'], base, 1800);
const b0 = await run('make', ['all', 'dist'], base, 1800);
const nodeSeconds = {};
let n0 = { code: 0, out: '', seconds: 0 };
for (const file of NODE_TESTS) {
  const r = await run('node', ['--test', file], base, 1800);
  nodeSeconds[file] = r.seconds;
  n0 = { code: n0.code || r.code, out: n0.out + r.out, seconds: n0.seconds + r.seconds };
}
if (c0.code !== 0 || b0.code !== 0 || n0.code !== 0) {
  console.error('mutate-c: the unmutated tree does not pass its own tests; fix that first.\n' + [c0, b0, n0].map((r) => r.out.slice(-3000)).join('\n'));
  cleanupAndExit(1);
}
const objectOf = {};
for (const f of files) {
  const name = f.replace(/^c\/|\.c$/g, '');
  const san = await run('make', [`build/san/${name}.o`], base, 600);
  objectOf[f] = san.code === 0 ? `build/san/${name}.o` : `build/simd/${name}.o`; // wasm_exports.c builds for Wasm only
}
const runOnly = await run('make', ['test-c'], base, 1800);
// A mutant may loop forever: each phase gets several times its baseline time, plus a recompile.
const limits = { c: Math.max(180, Math.ceil(6 * runOnly.seconds + 120)), build: Math.max(300, Math.ceil(4 * b0.seconds)), objectOf,
  nodeFile: Object.fromEntries(NODE_TESTS.map((f) => [f, Math.max(60, Math.ceil(4 * nodeSeconds[f] + 30))])) };
console.log(`baseline: make test-c ${c0.seconds.toFixed(0)} s to build and run (${runOnly.seconds.toFixed(0)} s to run), Node tests ${n0.seconds.toFixed(0)} s; time limits ${limits.c} s (test-c), ${limits.build} s (Wasm build), 4 times each Node test file's own + 30 s`);

let done = 0;
const t0 = Date.now();
// Run in a seeded shuffled order, each result appended to build/mutate-c/progress.txt as it
// comes: a run stopped early has still sampled every file.
const queue = shuffled(chosen, mulberry32(opts.seed));
mkdirSync(join(ROOT, 'build/mutate-c'), { recursive: true });
writeFileSync(join(ROOT, 'build/mutate-c/progress.txt'), header + '\n');
async function worker() {
  for (let m = queue.shift(); m; m = queue.shift()) {
    if (m.reason) {
      // listed as equivalent: still run, so that a listing that has become wrong shows up
      const r = await runMutant(m, base, limits);
      m.status = r.status === 'survived' ? 'equivalent' : r.status;
      m.by = r.by;
    } else Object.assign(m, await runMutant(m, base, limits));
    done++;
    const eta = (((Date.now() - t0) / done) * (chosen.length - done)) / 60000;
    const line = `${m.status.padEnd(10)} #${m.id} ${m.file}:${m.line} ${m.fn} ${m.kind}: ${m.what}${m.by ? `  (${m.by})` : ''}`;
    console.log(`[${done}/${chosen.length}] ${line}  ~${eta.toFixed(0)} min left`);
    appendFileSync(join(ROOT, 'build/mutate-c/progress.txt'), line + '\n');
  }
}
await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));
rmSync(base, { recursive: true, force: true });
tempDirs.delete(base);

const text = report(chosen, header + `; ${((Date.now() - t0) / 60000).toFixed(0)} min`);
console.log('\n' + text);
mkdirSync(join(ROOT, 'build/mutate-c'), { recursive: true });
writeFileSync(join(ROOT, 'build/mutate-c/report.txt'), text + '\n');
writeFileSync(join(ROOT, 'build/mutate-c/report.json'), JSON.stringify(chosen.map(({ s, e, to, ...m }) => m), null, 1) + '\n');
console.log('\nwritten to build/mutate-c/report.txt and report.json');
