#!/usr/bin/env node
// mutate-c.mjs: mutation testing of the C core. How many small, deliberate bugs in c/ do the
// tests catch? `make mutate-c` runs it (tens of minutes on 2 cores, so not in `make test`).
// No C mutation tool is packaged for Debian or npm; this one is kept small on purpose.
//
//   1. It reads every file of c/ (.c and .h), finds each function body, and lists every place
//      where one of these mutations applies (comments and strings are never touched):
//        compare  a comparison or logic operator swapped:  < <=   > >=   == !=   && ||
//        arith    an arithmetic operator swapped:          + -   * /   += -=   *= /=
//        bound    an off-by-one loop bound: a for loop's limit `i < n` -> `i < n - 1`,
//                 or its start `i = 0` -> `i = 1`
//        const    a changed constant: an integer k -> k + 1 (1 -> 0), a float x -> 2x (0 -> 1);
//                 also outside the functions ("file-scope": all there is of a header): the
//                 numbers of #define bodies, enum values and initializers (not array sizes)
//        delete   a deleted statement (`x += y;` -> `{}`; never a declaration or a `return v;`),
//                 or a deleted guard (`if (c)` -> `if (0)`)
//   2. It draws --count mutants (default 160) with a fixed --seed, stratified by file and then
//      by function: each file gets a share of the mutants proportional to its candidates (at
//      least one), and each function of it (and its file scope) a share of the file's, again
//      proportional and at least one where the file's share allows; taken round-robin over the
//      kinds. (Stratifying by function alone, 60 draws over 3,347 candidates missed c/attention.c.)
//   3. Each mutant runs in its own copy of a pre-built base copy of the tree, in a temporary
//      directory (the work tree is never changed, so an interrupted run leaves nothing mutated;
//      timestamps are kept, so make recompiles only the mutated file, and what it feeds):
//        - it is compiled under the sanitizers (one that does not compile is "stillborn");
//        - the native tests that link it (build/test_*, ASan and UBSan; all of them for a
//          header; none for c/wasm_exports.c) run, fastest first;
//        - the six Wasm cores and dist/ are rebuilt and the Node tests that reach the core
//          run (tests/*.test.mjs whose imports reach web/core/attention.js or web/gen/, or that
//          start processes; not the browser tests), those that call the core most directly first.
//      The first failing test kills it; a mutant no test fails survives.
//   4. It prints killed, survived, equivalent and stillborn per file and per kind, every survivor
//      with file:line and its mutation, and writes the same to build/mutate-c/report.txt (and
//      report.json). Each result is appended to build/mutate-c/results.jsonl as it comes.
//
// A survivor is a behaviour no test pins down: kill it with a test, or, if it cannot change any
// result (an equivalent mutant), add it to tests/mutation/c-equivalents.txt with the reason, after
// reading it. Equivalent mutants and stillborn ones are left out of the score, killed / (killed +
// survived). The equivalents are matched by file, function and the source line before and after,
// so a changed line is read again; a listed equivalent is still run, and counts as killed if a
// test kills it.
//
// Usage: node tools/mutate-c.mjs [--count=160] [--seed=14] [--jobs=1] [--list] [--only=3,17] [--resume] [--report]
//   --list    print the sampled mutants and stop      --only  run only these mutant numbers
//   --resume  take the results of earlier runs from results.jsonl (matched by the mutated file's
//             exact text): killed, stillborn, and survived where the mutant is listed as
//             equivalent; run only the rest (those not run yet, the survivors after new tests)
//   --report  print the report of what results.jsonl holds for the sampled mutants; run nothing
//   --jobs    mutants run at once (the machine is shared: 1 unless it is idle)

import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readEquivalents, squash } from './equivalents.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EQUIVALENTS = 'tests/mutation/c-equivalents.txt';
const KINDS = ['compare', 'arith', 'bound', 'const', 'delete'];

// ---------------------------------------------------------------------------- options

const opts = { count: 160, seed: 14, jobs: 1, list: false, only: null, resume: false, report: false };
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.replace(/^--/, '').split('=');
  if (k === 'list' || k === 'resume' || k === 'report') opts[k] = true;
  else if (k === 'only') opts.only = new Set(v.split(',').map(Number));
  else if (k in opts && /^\d+$/.test(v ?? '')) opts[k] = Number(v);
  else {
    console.error(`mutate-c: unknown option ${arg}; see the head of tools/mutate-c.mjs`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------- reading C

const TYPES = new Set(['void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', 'const', 'static',
  'volatile', 'struct', 'enum', 'union', 'typedef', 'size_t', 'uint32_t', 'uint64_t', 'uintptr_t', 'int32_t', 'int64_t']);
const PUNCT = ['>>=', '<<=', '...', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=',
  '%=', '&=', '|=', '^='];

/**
 * Tokens of C source: { t: text, k: 'id'|'num'|'str'|'op', s: start offset, e: end offset }.
 * Preprocessor lines give no tokens; the tokens of #define bodies go to `defines` if given,
 * each with the macro's name.
 */
function tokenize(src, defines = []) {
  const toks = [];
  let i = 0, lineStart = true;
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') { lineStart = true; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (lineStart && c === '#') { // a preprocessor directive, with its continuation lines
      const s0 = i;
      while (i < src.length && !(src[i] === '\n' && src[i - 1] !== '\\')) i++;
      // `#define NAME body` or `#define NAME(args) body`: the numbers of the body are kept apart
      const def = /^#\s*define\s+(\w+)(\([^)]*\))?/.exec(src.slice(s0, i));
      if (def && defines) {
        for (const t of tokenize(src.slice(s0 + def[0].length, i), null)) {
          defines.push({ ...t, s: t.s + s0 + def[0].length, e: t.e + s0 + def[0].length, macro: def[1] });
        }
      }
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
    const num = /^(0[xX][0-9a-fA-F]+|(\d+(?:\.\d*)?|\.\d+)([eE][-+]?\d+)?)[fFuUlL]*/.exec(src.slice(i, i + 40));
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
  const defines = [];
  const toks = tokenize(src, defines);
  const out = [];
  const add = (fn, kind, s, e, to, what) => out.push({ file, fn: fn.name, kind, s, e, to, what });
  const fns = functionsOf(toks);
  // Outside the functions (all there is of a header): the numbers of #define bodies, enum values
  // and initializers, as one stratum "file-scope" per file. Array sizes and __attribute__s are left alone.
  const scope = { name: 'file-scope' };
  for (const t of defines.filter((x) => x.k === 'num')) add(scope, 'const', t.s, t.e, formatNumber(t.t), `${t.t} -> ${formatNumber(t.t)}`);
  for (let i = 0, f = 0, skipTo = -1; i < toks.length; i++) {
    if (f < fns.length && i === fns[f].body[0]) { i = fns[f++].body[1]; continue; }
    if (toks[i].t === '__attribute__' || toks[i].t === '[') skipTo = matching(toks, i + (toks[i].t === '[' ? 0 : 1));
    if (i <= skipTo || toks[i].k !== 'num') continue;
    add(scope, 'const', toks[i].s, toks[i].e, formatNumber(toks[i].t), `${toks[i].t} -> ${formatNumber(toks[i].t)}`);
  }
  for (const fn of fns) {
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

/**
 * Splits `want` draws among groups ({ key, size }) in proportion to their sizes, at most `size`
 * each. With at least one draw per group to give, every group gets one and the rest is shared
 * in proportion to what is left of each (largest remainder); with fewer draws than groups, the
 * groups that get one are drawn at random, weighted by size. Returns Map key -> draws.
 */
function apportion(groups, want, rand) {
  const quota = new Map(groups.map((g) => [g.key, 0]));
  want = Math.min(want, groups.reduce((a, g) => a + g.size, 0));
  if (want < groups.length) {
    const pool = [...groups];
    for (let k = 0; k < want; k++) {
      let r = rand() * pool.reduce((a, g) => a + g.size, 0), i = 0;
      while (r >= pool[i].size && i < pool.length - 1) r -= pool[i++].size;
      quota.set(pool[i].key, 1);
      pool.splice(i, 1);
    }
    return quota;
  }
  for (const g of groups) quota.set(g.key, 1);
  const left = want - groups.length, room = groups.reduce((a, g) => a + g.size - 1, 0);
  const share = new Map(groups.map((g) => [g.key, room ? (left * (g.size - 1)) / room : 0]));
  for (const g of groups) quota.set(g.key, 1 + Math.floor(share.get(g.key)));
  const byRemainder = [...groups].sort((a, b) => (share.get(b.key) % 1) - (share.get(a.key) % 1) || (a.key < b.key ? -1 : 1));
  let used = [...quota.values()].reduce((a, b) => a + b, 0);
  for (let i = 0; used < want; i++) {
    const g = byRemainder[i % byRemainder.length];
    if (quota.get(g.key) < g.size) { quota.set(g.key, quota.get(g.key) + 1); used++; }
  }
  return quota;
}

/**
 * count mutants stratified by file, then by function: each file gets a share proportional to
 * its candidates (at least one each), and within a file each function (and its file scope)
 * gets a share of the file's proportional to its candidates (at least one each where the
 * file's share allows, so a large run reaches every function); taken round-robin over the kinds.
 */
function sample(all, count, seed) {
  const byFile = new Map(), byFn = new Map();
  for (const c of all) {
    const key = `${c.file} ${c.fn}`;
    if (!byFn.has(key)) byFn.set(key, []);
    byFn.get(key).push(c);
    if (!byFile.has(c.file)) byFile.set(c.file, []);
    if (byFn.get(key).length === 1) byFile.get(c.file).push(key);
  }
  const rand = mulberry32(seed);
  const fileQuota = apportion([...byFile.keys()].map((f) => ({ key: f, size: all.filter((c) => c.file === f).length })), count, rand);
  const picked = [];
  for (const [file, keys] of byFile) {
    const quota = apportion(keys.map((k) => ({ key: k, size: byFn.get(k).length })), fileQuota.get(file), rand);
    for (const k of keys) {
      const r = mulberry32(seed ^ hash(k));
      const byKind = KINDS.map((kind) => shuffled(byFn.get(k).filter((c) => c.kind === kind), r)).filter((l) => l.length);
      let turn = Math.floor(r() * byKind.length);
      for (let n = 0; n < quota.get(k); turn++) {
        const list = byKind[turn % byKind.length];
        if (list.length) { picked.push(list.shift()); n++; }
      }
    }
  }
  return picked;
}

// ---------------------------------------------------------------------------- equivalents

function lineOf(src, at) {
  const s = src.lastIndexOf('\n', at - 1) + 1, e = src.indexOf('\n', at);
  return { line: src.slice(0, at).split('\n').length, text: src.slice(s, e < 0 ? undefined : e).trim() };
}

// ---------------------------------------------------------------------------- which tests can see a mutant

/** The native test binaries (build/test_<name> in the Makefile) linking c/<name>.o; all of them for a header. */
function nativeTestsOf(file, dir) {
  const rules = [...readFileSync(join(dir, 'Makefile'), 'utf8').matchAll(/^(build\/test_\w+):((?:.*\\\n)*.*)$/gm)];
  const obj = file.replace(/^c\/(\w+)\.c$/, 'build/san/$1.o');
  return rules.filter(([, , deps]) => file.endsWith('.h') || deps.split(/[\s\\]+/).includes(obj)).map(([, bin]) => bin);
}

/**
 * Does a Node test reach the Wasm core? Yes if its imports (followed through web/ and tests/)
 * reach web/core/attention.js or web/gen/, or it starts processes or imports the packed package
 * (the CLI, dist/). The others (page text, colours, config, types) cannot tell a mutant of c/
 * from the real core, so they are not run. The browser tests are not run either (minutes each).
 */
function reachesCore(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (/(^|\/)web\/(core\/attention\.js|gen\/)/.test(file)) return true;
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  if (/node:child_process|from 'attention-explorer'/.test(text)) return true;
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => join(dirname(file), m[1]));
  return specs.some((f) => reachesCore(f, seen));
}

/**
 * Which names (functions, macros) each function and macro of c/ uses: the static call graph, by
 * name (two static functions of one name are one node, which can only add edges). c/ calls no
 * function through a pointer.
 */
function callGraph() {
  const g = new Map();
  const edge = (from, to) => { if (!g.has(from)) g.set(from, new Set()); g.get(from).add(to); };
  for (const f of files) {
    const defines = [], toks = tokenize(sources[f], defines);
    for (const t of defines) if (t.k === 'id') edge(t.macro, t.t);
    for (const fn of functionsOf(toks)) for (let i = fn.body[0]; i < fn.body[1]; i++) if (toks[i].k === 'id') edge(fn.name, toks[i].t);
  }
  return g;
}
const reachCache = new Map();
function reachable(g, from) { // every function `from` may call, itself included
  if (!reachCache.has(from)) {
    const seen = new Set([from]);
    for (const x of seen) for (const y of g.get(x) ?? []) seen.add(y);
    reachCache.set(from, seen);
  }
  return reachCache.get(from);
}

/**
 * The Node tests that can see a mutant: those that call an export of c/wasm_exports.c from which
 * the mutated function can be reached (the baseline run records which exports each test calls,
 * tools/wasm-trace.mjs), and those that start processes (their calls are not all traced). A
 * mutant outside the functions (a header, a #define, an enum) gets every Node test that reaches
 * the core.
 */
function nodeTestsFor(m, calls, g) {
  const kills = killsOf.get(m.file) ?? new Map(); // the tests that killed most mutants of this file go first
  return NODE_TESTS.filter((t) => m.fn === 'file-scope' || calls[t] === null || [...calls[t]].some((e) => reachable(g, e).has(m.fn)))
    .map((t, i) => [t, i]).sort(([a, i], [b, j]) => (kills.get(b) ?? 0) - (kills.get(a) ?? 0) || i - j).map(([t]) => t);
}
const killsOf = new Map(); // c/ file -> Node test file -> mutants it killed (this run and earlier ones)
function countKill(file, by) {
  const test = /^(tests\/[\w-]+\.test\.mjs):/.exec(by ?? '')?.[1];
  if (!test) return;
  if (!killsOf.has(file)) killsOf.set(file, new Map());
  killsOf.get(file).set(test, (killsOf.get(file).get(test) ?? 0) + 1);
}

// Those that call the core most directly first: a mutant stops at the first file that fails.
const FIRST = ['core/wasm-abi', 'core/core', 'core/bad-input', 'train/learns', 'induction/induction', 'core/fused', 'labs/fused', 'core/property', 'core/reentrancy', 'core/onnx'];
const rank = (f) => { const k = FIRST.indexOf(f.replace(/^tests\/|\.test\.mjs$/g, '')); return k < 0 ? FIRST.length : k; };
const NODE_TESTS = readdirSync(join(ROOT, 'tests'), { recursive: true }).map(String).filter((f) => f.endsWith('.test.mjs') && !/^(browser|hosts)\//.test(f)).sort().map((f) => 'tests/' + f)
  .filter((f) => reachesCore(join(ROOT, f))).sort((a, b) => rank(a) - rank(b));

// ---------------------------------------------------------------------------- running

const children = new Set();
const tempDirs = new Set();

/** Runs a command in its own process group; resolves { code, out, timedOut, seconds }. */
function run(cmd, args, cwd, seconds, env = process.env) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500); // let them die before removing their files
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => cleanupAndExit(130));
process.on('SIGTERM', () => cleanupAndExit(143));

// What killed a mutant, in a few words, from a test binary's or node --test's output.
function killedBy(out) {
  const fail = /^FAIL (\S+)/m.exec(out);
  if (fail) return fail[1];
  const asan = /ERROR: AddressSanitizer: ([\w-]+)/.exec(out);
  if (asan) return `AddressSanitizer ${asan[1]}`;
  if (/runtime error:|UndefinedBehaviorSanitizer/.test(out)) return 'UBSan';
  const notOk = /^not ok \d+ - (.*)$/m.exec(out);
  if (notOk) return notOk[1];
  if (/Segmentation|SIGSEGV|signal/i.test(out)) return 'crashed';
  return 'exit status';
}

/**
 * One mutant in its own copy of the pre-built base (timestamps kept, so make rebuilds only what
 * the mutated file feeds): compile it, run the native tests that link it (fastest first), build
 * the Wasm cores and dist/, run the Node tests that reach the core; stop at the first failure.
 */
async function runMutant(m, base, limits) {
  const dir = `${base}-m${m.id}`;
  tempDirs.add(dir);
  cpSync(base, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  try {
    writeFileSync(join(dir, m.file), m.mutated);
    const bins = limits.binsOf[m.file];
    const compileTarget = m.file.endsWith('.h') ? bins : [m.file.replace(/^c\/(\w+)\.c$/, bins.length ? 'build/san/$1.o' : 'build/simd/$1.o')];
    const compile = await run('make', [...compileTarget, 'WERROR='], dir, limits.build);
    if (compile.code !== 0) return compile.timedOut ? { status: 'killed', by: 'compile timeout' } : { status: 'stillborn', by: 'does not compile' };
    const link = await run('make', [...bins, 'WERROR='], dir, limits.build);
    if (link.code !== 0) return { status: 'killed', by: link.timedOut ? 'link timeout' : `link failed: ${link.out.trim().split('\n').pop()}` };
    for (const bin of bins) {
      const r = await run(bin, [], dir, limits.bin[bin]);
      if (r.timedOut) return { status: 'killed', by: `${bin}: timeout` };
      if (r.code !== 0) return { status: 'killed', by: `${bin}: ${killedBy(r.out)}` };
    }
    const build = await run('make', ['all', 'dist'], dir, limits.build);
    if (build.code !== 0) return { status: 'killed', by: build.timedOut ? 'wasm build: timeout' : 'wasm build failed' };
    for (const file of limits.nodeTestsFor(m)) {
      const r = await run('node', ['--test', file], dir, limits.node[file]);
      if (r.timedOut) return { status: 'killed', by: `${file}: timeout` };
      if (r.code !== 0) return { status: 'killed', by: `${file}: ${killedBy(r.out)}` };
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

const files = readdirSync(join(ROOT, 'c')).filter((f) => /\.[ch]$/.test(f)).sort().map((f) => 'c/' + f);
const sources = Object.fromEntries(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
projectTypes = new Set();
for (const f of files) {
  for (const m of sources[f].matchAll(/typedef\s[^;{]*?(\w+)\s*(?:__attribute__\S*\s*)?;|}\s*(\w+)\s*;/g)) projectTypes.add(m[1] ?? m[2]);
}
const all = files.flatMap((f) => candidates(f, sources[f]));
const mutants = sample(all, opts.count, opts.seed)
  .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.s - b.s))
  .map((m, i) => {
    const src = sources[m.file];
    const mutated = src.slice(0, m.s) + m.to + src.slice(m.e);
    const { line, text } = lineOf(src, m.s);
    const key = createHash('sha1').update(m.file + '\0' + mutated).digest('hex');
    return { id: i + 1, ...m, line, before: text, after: lineOf(mutated, m.s).text, mutated, key };
  });
const equivalents = readEquivalents(join(ROOT, EQUIVALENTS));
for (const m of mutants) {
  const eq = equivalents.find((e) => e.file === m.file && e.where === m.fn && e.before === squash(m.before) && e.after === squash(m.after));
  if (eq) m.reason = eq.reason;
}
const strata = (xs) => new Set(xs.map((c) => `${c.file} ${c.fn}`)).size;
const header = `make mutate-c: ${mutants.length} of ${all.length} candidate mutants of ${files.join(', ')} (seed ${opts.seed}), ` +
  `stratified by file and function: ${new Set(mutants.map((m) => m.file)).size} of the ${new Set(all.map((c) => c.file)).size} files with candidates and ` +
  `${strata(mutants)} of ${strata(all)} functions and file scopes drawn`;
if (opts.list) {
  console.log(header);
  for (const m of mutants) console.log(`#${m.id} ${m.file}:${m.line} ${m.fn} ${m.kind} ${m.what}${m.reason ? '  [equivalent]' : ''}`);
  process.exit(0);
}

// --resume: results of earlier runs, by the mutated file's exact text.
const OUT = join(ROOT, 'build/mutate-c');
mkdirSync(OUT, { recursive: true });
const RESULTS = join(OUT, 'results.jsonl');
const latest = new Map(); // key -> the last result recorded for it
const earlier = opts.resume ? latest : new Map();
if (existsSync(RESULTS)) {
  for (const l of readFileSync(RESULTS, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l);
    countKill(r.file, r.by);
    latest.set(r.key, r);
  }
}

const chosen = mutants.filter((m) => !opts.only || opts.only.has(m.id));
if (opts.report) { // the report of what results.jsonl holds for these mutants, running nothing
  const have = chosen.filter((m) => latest.has(m.key));
  for (const m of have) Object.assign(m, { status: m.reason && latest.get(m.key).status === 'survived' ? 'equivalent' : latest.get(m.key).status, by: latest.get(m.key).by });
  const text = report(have, `${header}; from results.jsonl: ${have.length} of them have a result`);
  console.log(text);
  writeFileSync(join(OUT, 'report.txt'), text + '\n');
  process.exit(0);
}
console.log(header + (opts.only ? `; running ${chosen.length} of them` : ''));
const base = mkdtempSync(join(tmpdir(), 'ae-mutate-c-'));
tempDirs.add(base);
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
for (const f of tracked) {
  if (!existsSync(join(ROOT, f)) || f === 'node_modules') continue;
  mkdirSync(dirname(join(base, f)), { recursive: true });
  cpSync(join(ROOT, f), join(base, f), { preserveTimestamps: true });
}
// The work tree's build output too, if any: make then rebuilds only what is out of date.
for (const d of ['build/san', 'build/simd', 'build/scalar', 'web/gen', 'dist']) {
  if (existsSync(join(ROOT, d))) cpSync(join(ROOT, d), join(base, d), { recursive: true, preserveTimestamps: true });
}
for (const f of readdirSync(join(ROOT, 'build')).filter((f) => /^test_\w+$|\.wasm$/.test(f))) {
  cpSync(join(ROOT, 'build', f), join(base, 'build', f), { preserveTimestamps: true });
}
symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));

console.log(`baseline: building, then running the native tests and ${NODE_TESTS.length} Node test files on the unmutated copy ...`);
const BINS = nativeTestsOf('c/attention.h', base);
const failed = [];
const b0 = await run('make', [...BINS, 'all', 'dist'], base, 3600);
if (b0.code !== 0) failed.push(b0.out);
const binSeconds = {}, nodeSeconds = {};
for (const bin of BINS) {
  const r = await run(bin, [], base, 1800);
  binSeconds[bin] = r.seconds;
  if (r.code !== 0) failed.push(r.out);
}
// The Node baseline (its times, and the exports each test calls) is kept in node-baseline.json
// and, with --resume, reused while nothing it depends on changed (all but the C tests and docs).
const nodeKey = createHash('sha1');
for (const f of tracked.filter((f) => !/^tests\/(c|mutation)\/|\.md$|^scripts\/mutate-c\.mjs$/.test(f)).sort()) {
  if (existsSync(join(ROOT, f))) nodeKey.update(f + '\0').update(readFileSync(join(ROOT, f)));
}
const nodeBaseline = { key: nodeKey.digest('hex'), nodeSeconds, calls: {} };
const NODE_BASELINE = join(OUT, 'node-baseline.json');
const cached = opts.resume && existsSync(NODE_BASELINE) ? JSON.parse(readFileSync(NODE_BASELINE, 'utf8')) : null;
const calls = {}; // test file -> the exports it calls (null: all, it starts processes)
if (cached?.key === nodeBaseline.key) {
  Object.assign(nodeSeconds, cached.nodeSeconds);
  for (const [f, c] of Object.entries(cached.calls)) calls[f] = c && new Set(c);
  console.log('baseline: the Node tests as in node-baseline.json (nothing they depend on changed)');
}
for (const file of NODE_TESTS.filter((f) => !(f in calls))) {
  const trace = join(base, 'build/wasm-trace.txt');
  rmSync(trace, { force: true });
  const hook = pathToFileURL(join(ROOT, 'tools/wasm-trace.mjs')).href;
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`, AE_WASM_TRACE: trace };
  const r = await run('node', ['--test', file], base, 1800, env);
  nodeSeconds[file] = r.seconds;
  if (r.code !== 0) failed.push(r.out);
  const spawns = /node:child_process/.test(readFileSync(join(base, file), 'utf8'));
  calls[file] = spawns ? null : new Set(existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : []);
}
if (failed.length) {
  console.error('mutate-c: the unmutated tree does not pass its own tests; fix that first.\n' + failed.map((o) => o.slice(-3000)).join('\n'));
  cleanupAndExit(1);
}
for (const [f, c] of Object.entries(calls)) nodeBaseline.calls[f] = c && [...c];
writeFileSync(NODE_BASELINE, JSON.stringify(nodeBaseline) + '\n');
const graph = callGraph();
// A mutant may loop forever: each test gets several times its baseline time.
const limits = {
  build: 900,
  bin: Object.fromEntries(BINS.map((b) => [b, Math.ceil(10 * binSeconds[b] + 60)])),
  node: Object.fromEntries(NODE_TESTS.map((f) => [f, Math.ceil(4 * nodeSeconds[f] + 30)])),
  nodeTestsFor: (m) => nodeTestsFor(m, calls, graph),
  binsOf: Object.fromEntries(files.map((f) => [f, nativeTestsOf(f, base).sort((a, b) => binSeconds[a] - binSeconds[b])])),
};
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0).toFixed(0);
console.log(`baseline: native tests ${sum(binSeconds)} s (${BINS.map((b) => `${b.slice(6)} ${binSeconds[b].toFixed(1)}`).join(', ')}), ` +
  `Node tests ${sum(nodeSeconds)} s (${NODE_TESTS.map((f) => f.slice(6, -9)).join(', ')})`);

let done = 0;
const t0 = Date.now();
// Run in a seeded shuffled order, each result appended to build/mutate-c/progress.txt and
// results.jsonl as it comes: a run stopped early has still sampled every file, and --resume
// takes up where it stopped.
const queue = shuffled(chosen, mulberry32(opts.seed));
writeFileSync(join(OUT, 'progress.txt'), header + '\n');
async function worker() {
  for (let m = queue.shift(); m; m = queue.shift()) {
    const t1 = Date.now();
    // reused: a killed or stillborn result, or a survivor that is listed as equivalent
    const old = ['killed', 'stillborn'].includes(earlier.get(m.key)?.status) || (m.reason && earlier.get(m.key)) ? earlier.get(m.key) : null;
    const r = old ? { status: old.status, by: old.by ? `${old.by}, an earlier run` : 'an earlier run' } : await runMutant(m, base, limits);
    m.status = m.reason && r.status === 'survived' ? 'equivalent' : r.status; // a listed equivalent is still run: a wrong listing shows
    m.by = r.by;
    if (!old) countKill(m.file, r.by);
    if (!old) appendFileSync(RESULTS, JSON.stringify({ key: m.key, id: m.id, file: m.file, line: m.line, status: r.status, by: r.by }) + '\n');
    done++;
    const eta = (((Date.now() - t0) / done) * (chosen.length - done)) / 60000;
    const line = `${m.status.padEnd(10)} #${m.id} ${m.file}:${m.line} ${m.fn} ${m.kind}: ${m.what}${m.by ? `  (${m.by})` : ''}`;
    console.log(`[${done}/${chosen.length}] ${line}  ${((Date.now() - t1) / 1000).toFixed(0)} s, ~${eta.toFixed(0)} min left`);
    appendFileSync(join(OUT, 'progress.txt'), line + '\n');
  }
}
await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));
rmSync(base, { recursive: true, force: true });
tempDirs.delete(base);

const text = report(chosen, header + `; ${((Date.now() - t0) / 60000).toFixed(0)} min`);
console.log('\n' + text);
writeFileSync(join(OUT, 'report.txt'), text + '\n');
writeFileSync(join(OUT, 'report.json'), JSON.stringify(chosen.map(({ s, e, to, mutated, ...m }) => m), null, 1) + '\n');
console.log('\nwritten to build/mutate-c/report.txt and report.json');
