#!/usr/bin/env node
// @ts-check
// cli.js: print every matrix of one attention head from the command line, for course authors
// who want the numbers. The same core, config format and number formatter as the page.
//   node tools/cli.js --help
import { closeSync, openSync, readSync } from 'node:fs';
import { loadAttention } from '../web/core/attention.js';
import { parseConfig, forwardArgs, isDirect, ConfigError, MAX_JSON, clipMessage } from '../web/blocks/config.js';
import { PRESETS } from '../web/blocks/presets.js';
import { fmt, parseNumber } from '../web/blocks/format.js';

const HELP = `Usage: node tools/cli.js [SOURCE] [OPTIONS]

Prints Q, K, V, S, A and O of one attention head (and X, Wq, Wk, Wv when the config has them).

SOURCE (default: --preset worked-example)
  --preset NAME       one of: ${Object.keys(PRESETS).join(', ')}
  --config FILE       a JSON config file (the format in docs/config.md), or - for standard input

OPTIONS
  --format FORMAT     table (default: aligned tables, 3 decimals as on the page),
                      json (every matrix as nested arrays, full float32 precision),
                      csv (one matrix; pick it with --matrix)
  --matrix NAME       only this matrix: X, Wq, Wk, Wv, Q, K, V, S, M, A or O
  --causal, --no-causal   override the config's causal mask
  --scale NUMBER      override the scale (1 turns the 1/sqrt(dk) scaling off)
  --help              this text

Examples
  node tools/cli.js                                  the lesson's worked example
  node tools/cli.js --preset cat --matrix A          the weights of "The cat sat on the"
  node tools/cli.js --config head.json --format json > head-out.json
  node tools/cli.js --preset cat --format csv --matrix O > O.csv`;

const MATRICES = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];

/**
 * @typedef {{ preset: string | null, config: string | null, format: string, matrix: string | null,
 *   causal: boolean | null, scale: number | null, help: boolean }} Options
 * @typedef {import('../types/config').Config} Config
 * @typedef {import('../types/attention').ForwardResult} ForwardResult
 * @typedef {{ rows: string[], cols: string[], data: Float32Array, what: string }} Described
 */

/** @param {string[]} argv @returns {Options} */
function parseArgs(argv) {
  /** @type {Options} */
  const opts = { preset: null, config: null, format: 'table', matrix: null, causal: null, scale: null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value: see --help`);
      return argv[++i];
    };
    if (a === '--help' || a === '-h') opts.help = true;
    else if (a === '--preset') opts.preset = value();
    else if (a === '--config') opts.config = value();
    else if (a === '--format') opts.format = value();
    else if (a === '--matrix') opts.matrix = value();
    else if (a === '--causal' || a === '--no-causal') {
      const causal = a === '--causal';
      if (opts.causal !== null && opts.causal !== causal) throw new Error('give --causal or --no-causal, not both');
      opts.causal = causal;
    } else if (a === '--scale') {
      const text = value();
      opts.scale = parseNumber(text); // decimal only: Number() would read "0x10" as 16 and "" as 0
      if (Number.isNaN(opts.scale)) throw new Error(`--scale is "${text}": give a decimal number greater than 0, like 0.5`);
    }
    else throw new Error(`unknown option "${a}": see --help`);
  }
  if (!['table', 'json', 'csv'].includes(opts.format)) throw new Error(`--format is "${opts.format}": use table, json or csv`);
  if (opts.matrix && !MATRICES.includes(opts.matrix)) throw new Error(`--matrix is "${opts.matrix}": use one of ${MATRICES.join(', ')}`);
  if (opts.format === 'csv' && !opts.matrix) throw new Error('--format csv writes one matrix: add --matrix A (or another name)');
  if (opts.preset && opts.config) throw new Error('give --preset or --config, not both');
  if (opts.preset && !Object.hasOwn(PRESETS, opts.preset)) throw new Error(`no preset "${opts.preset}": use one of ${Object.keys(PRESETS).join(', ')}`);
  if (opts.scale !== null && !(Number.isFinite(opts.scale) && opts.scale > 0)) throw new Error('--scale must be a number greater than 0');
  return opts;
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4)); // for a synchronous wait (Atomics.wait)

/**
 * The text of a file (or of standard input for "-"), read in chunks that stop as soon as it
 * passes MAX_JSON characters, the limit parseConfig enforces: /dev/zero or an endless pipe is
 * refused after 4 MB instead of filling memory.
 * @param {string} path @param {number} [limit] @returns {string}
 */
function readConfigText(path, limit = MAX_JSON) {
  /** @type {number | undefined} */
  let fd;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
    const decoder = new TextDecoder('utf-8');
    const chunk = Buffer.alloc(1 << 16);
    let text = '';
    for (;;) {
      let got;
      try {
        got = readSync(fd, chunk, 0, chunk.length, null);
      } catch (err) {
        const code = /** @type {NodeJS.ErrnoException} */ (err).code;
        if (code === 'EAGAIN') { // a non-blocking stdin with nothing yet: wait 10 ms, not a busy loop
          Atomics.wait(PAUSE, 0, 0, 10);
          continue;
        }
        if (code === 'EOF') break;
        throw err;
      }
      if (got === 0) break;
      text += decoder.decode(chunk.subarray(0, got), { stream: true });
      if (text.length > limit) throw new ConfigError(`The config is more than ${limit} characters long; the limit is ${limit}. It was not read further.`);
    }
    return text + decoder.decode();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const e = /** @type {NodeJS.ErrnoException} */ (err);
    throw new Error(`cannot read ${path === '-' ? 'standard input' : path}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message}`);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
}

/** @param {Options} opts @returns {Config} */
function loadConfig(opts) {
  if (!opts.config) return parseConfig(PRESETS[/** @type {import('../types/presets').PresetName} */ (opts.preset ?? 'worked-example')].config);
  return parseConfig(readConfigText(opts.config));
}

// Each matrix with its shape, row labels and column labels, in the lesson's words.
/** @param {Config} config @param {ForwardResult} r @returns {Record<string, Described>} */
function describeMatrices(config, r) {
  const tokens = config.tokens;
  /** @param {string} p @param {number} k */
  const idx = (p, k) => Array.from({ length: k }, (_, i) => `${p}${i + 1}`);
  const feats = isDirect(config) ? (r.d ? idx('f', r.d) : []) : config.features;
  /** @type {Record<string, Described>} */
  const out = {
    Q: { rows: tokens, cols: idx('q', r.dk), data: r.Q, what: 'queries, query × dk' },
    K: { rows: tokens, cols: idx('k', r.dk), data: r.K, what: 'keys, key × dk' },
    V: { rows: tokens, cols: idx('v', r.dv), data: r.V, what: 'values, key × dv' },
    S: { rows: tokens, cols: tokens, data: r.S, what: `scaled scores Q·Kᵀ × ${r.scale.toPrecision(4)}, query × key` },
    M: { rows: tokens, cols: tokens, data: r.M, what: 'mask added to the scores, query × key' },
    A: { rows: tokens, cols: tokens, data: r.A, what: 'weights, softmax of each row of S + M, query × key' },
    O: { rows: tokens, cols: idx('o', r.dv), data: r.O, what: 'output A·V, query × dv' },
  };
  if (r.d && r.X && r.Wq && r.Wk && r.Wv) {
    Object.assign(out, {
      X: { rows: tokens, cols: feats, data: r.X, what: 'input, token × feature' },
      Wq: { rows: feats, cols: idx('q', r.dk), data: r.Wq, what: 'query projection, d × dk' },
      Wk: { rows: feats, cols: idx('k', r.dk), data: r.Wk, what: 'key projection, d × dk' },
      Wv: { rows: feats, cols: idx('v', r.dv), data: r.Wv, what: 'value projection, d × dv' },
    });
  }
  return out;
}

/** @param {Described} m @returns {number[][]} */
const rowsOf = ({ rows, cols, data }) => rows.map((_, i) => Array.from(data.subarray(i * cols.length, (i + 1) * cols.length)));

/** @param {string} name @param {Described} m @returns {string} */
function table(name, m) {
  const cells = rowsOf(m).map((row) => row.map(fmt));
  const w = Math.max(...m.cols.map((c) => c.length), ...cells.flat().map((c) => c.length));
  const lw = Math.max(...m.rows.map((t) => t.length));
  const lines = [`${name}: ${m.rows.length} × ${m.cols.length}, ${m.what}`];
  lines.push(' '.repeat(lw) + '  ' + m.cols.map((c) => c.padStart(w)).join('  '));
  cells.forEach((row, i) => lines.push(m.rows[i].padEnd(lw) + '  ' + row.map((c) => c.padStart(w)).join('  ')));
  return lines.join('\n');
}

/** @param {string} s */
const csvField = (s) => (/[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s);
/** @param {number} v */
const jsonNumber = (v) => (v === -Infinity ? '-Infinity' : v);

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`cli: ${clipMessage(/** @type {Error} */ (e).message)}`);
    return 2;
  }
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  let config, r;
  try {
    config = loadConfig(opts);
    if (opts.causal !== null) config.causal = opts.causal;
    const attn = await loadAttention();
    // attention.js is not type-checked yet: its result is declared in types/attention.d.ts
    r = /** @type {ForwardResult} */ (attn.forward(forwardArgs(config, opts.scale)));
  } catch (e) {
    console.error(`cli: ${e instanceof ConfigError ? 'the config is not valid: ' : ''}${clipMessage(/** @type {Error} */ (e).message)}`);
    return 1;
  }
  const all = describeMatrices(config, r);
  const names = opts.matrix ? [opts.matrix] : MATRICES.filter((k) => all[k]);
  if (opts.matrix && !all[opts.matrix]) {
    console.error(`cli: this config is in the direct form (Q, K, V): it has no ${opts.matrix}`);
    return 1;
  }
  if (opts.format === 'json') {
    /** @type {Record<string, unknown>} */
    const json = { n: r.n, m: r.m, d: r.d, dk: r.dk, dv: r.dv, scale: r.scale, causal: r.causal, tokens: config.tokens };
    // -Infinity (masked entries of M) is not JSON: it is written as the string "-Infinity".
    for (const k of names) json[k] = rowsOf(all[k]).map((row) => row.map(jsonNumber));
    console.log(JSON.stringify(json));
  } else if (opts.format === 'csv') {
    const m = all[/** @type {string} */ (opts.matrix)];
    console.log(['', ...m.cols].map(csvField).join(','));
    rowsOf(m).forEach((row, i) => console.log([m.rows[i], ...row.map(String)].map(csvField).join(',')));
  } else {
    const head = isDirect(config) ? 'direct form: Q, K and V given' : `d = ${r.d}`;
    console.log(`${config.tokens.length} tokens, ${head}, dk = ${r.dk}, dv = ${r.dv}, scale = ${fmt(r.scale)}, causal mask ${r.causal ? 'on' : 'off'}\n`);
    console.log(names.map((k) => table(k, all[k])).join('\n\n'));
  }
  return 0;
}

process.exitCode = await main();
