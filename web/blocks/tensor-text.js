// tensor-text.js: tensors pasted as PyTorch or NumPy print them, read into the config format
// (web/blocks/config.js), so a learner can bring the tensors of the lesson's PyTorch lab:
//
//   Q = tensor([[1., 0.],
//           [0., 1.],
//           [1., 1.]])
//
// What it reads, for each tensor:
//   - torch: tensor([[...]]) as print() and the REPL show it, with the suffixes PyTorch adds
//     after the numbers (requires_grad=True, dtype=torch.float64, grad_fn=<MmBackward0>,
//     device='cuda:0'), "Parameter containing:" before it, and torch.tensor(...) as typed;
//   - NumPy: array([[...]]) (repr, with dtype=float32), np.array(...) as typed, and print()'s
//     form without commas: [[1. 0.]
//                           [0. 1.]];
//   - plain nested lists: [[1.0, 0.0], [0.0, 1.0]].
// Numbers as Python prints them: 1., -0., 1.0000e+00, 1e-05, inf, -inf and nan (the last three
// are refused: the config holds finite numbers). A batch of one ([1, n, d]) is taken as [n, d].
//
// The whole text is either named tensors, one per name, in any order:
//   Q = tensor(...)    K = tensor(...)    V = tensor(...)       (the direct form), or
//   X = ...   Wq = ...   Wk = ...   Wv = ...                     (the projection form),
// (":" in place of "=" works; q, W_q, WQ and the like are the same names; "K = Q" or
// "K = Q.clone()" repeats a tensor; a REPL line ">>> Q" or ">>> print(Q)" names the printout
// under it), or unnamed printouts in order: three are Q, K, V and four are X, Wq, Wk, Wv.
// Two optional lines set what scaled_dot_product_attention's arguments set: is_causal=True
// (the default is False, as in PyTorch) and scale=0.5 (None: 1/√dk). Blank lines, # comments
// and ">>>" prompts are skipped. Anything else is refused with a message saying what was
// expected. Shapes, sizes and limits are then checked by parseConfig, like any config.

import { count } from './words.js';
import { DECIMAL } from './format.js';

// A number in a printout (inf and nan as NumPy prints them), not run into a word or a point, and
// the number after "scale =". Both read in steps linear in the text (format.js DECIMAL).
const ITEM = new RegExp(`[-+]?(?:${DECIMAL}|inf|nan)(?![\\w.])`, 'y');
const SCALE_NUMBER = new RegExp(`[-+]?${DECIMAL}`, 'y');
/** Brackets nested deeper than this are refused before the reader recurses (a 2-D tensor with a
 * few leading dimensions of 1 needs far fewer). */
const MAX_DEPTH = 16;

const DIRECT = ['Q', 'K', 'V'];
const PROJECTED = ['X', 'Wq', 'Wk', 'Wv'];
/** @type {Record<string, string | undefined>} */
const CANONICAL = { q: 'Q', k: 'K', v: 'V', x: 'X', wq: 'Wq', wk: 'Wk', wv: 'Wv' };
const EXAMPLE = 'Q = tensor([[1., 0.], [0., 1.]]), then K = ... and V = ... on their own lines';

export class TensorTextError extends Error {}

/** A list as printed: numbers and lists of them. @typedef {(number | NestedList)[]} NestedList */
/** The tensors read so far by name, with where each was given. @typedef {Map<string, { value: number[][], at: number }>} Named */
/** A config object for parseConfig: the matrices by name, causal and perhaps scale. @typedef {Record<string, number[][] | boolean | number | null>} PastedConfig */
/** Which settings a printout gave itself (fromTensorText's `given`). @typedef {{ causal?: boolean, scale?: boolean }} Given */

/**
 * Does this text look like pasted tensors (rather than a JSON config)? True when it holds a
 * printout (tensor([ or array([), or its first line (past blank lines, comments and a ">>>"
 * prompt) starts a list of lists, or a name followed by "=" or ":".
 * @param {string} text @returns {boolean}
 */
export function looksLikeTensorText(text) {
  if (/\b(tensor|Tensor|array)\(\s*\[/.test(text)) return true;
  const first = String(text).split('\n').map((l) => l.replace(/^\s*(>>>|\.\.\.)\s?/, '').trim()).find((l) => l && !l.startsWith('#')) ?? '';
  return /^(\[\s*\[|Parameter containing|(torch\.|np\.|numpy\.)?(tensor|Tensor|array)\(|print\(|[A-Za-z_]\w*\s*(=(?!=)|:)|([qkvxQKVX]|[Ww]_?[qkvQKV])$)/.test(first);
}

/**
 * The config object { Q, K, V, causal[, scale] } or { X, Wq, Wk, Wv, causal[, scale] } for
 * pasted tensors, or null when the text does not look like tensors (looksLikeTensorText).
 * `fail(message)` throws the error to report (default: a TensorTextError). `given` is told
 * which settings the text gave itself (causal: an is_causal= line; scale: a scale= line).
 * @param {string} text @param {(msg: string) => never} [fail] @param {Given} [given] @returns {PastedConfig | null}
 */
export function fromTensorText(text, fail = (/** @type {string} */ msg) => { throw new TensorTextError(msg); }, given = {}) {
  if (!looksLikeTensorText(text)) return null;
  return new Reader(String(text), fail).config(given);
}

// ------------------------------------------------------------------------------- the reader
// Every pattern is sticky (/y): it matches at this.i and nowhere else, without copying the rest
// of the text, so a 256 × 256 printout reads in linear time.

class Reader {
  /** @param {string} text @param {(msg: string) => never} fail */
  constructor(text, fail) {
    this.s = text;
    this.i = 0;
    /** @type {(msg: string) => never} */
    this.fail = fail;
  }

  /** @param {number} [at] */
  line(at = this.i) {
    return this.s.slice(0, at).split('\n').length;
  }
  /** @param {string} msg @param {number} [at] @returns {never} */
  err(msg, at = this.i) {
    const ln = this.line(at);
    const text = this.s.split('\n')[ln - 1].trim();
    return this.fail(`Line ${ln} (${text.length > 40 ? text.slice(0, 40) + '…' : text}): ${msg}`);
  }
  /** @param {RegExp} re */
  at(re) {
    re.lastIndex = this.i;
    return re.exec(this.s);
  }
  // Skips spaces, newlines, # comments, and ">>>" / "..." prompts at the start of a line (but not
  // the "...," of a shortened printout, which list() refuses).
  space() {
    for (;;) {
      const m = this.at(/\s+|#[^\n]*/y);
      if (m) { this.i += m[0].length; continue; }
      if (!this.at(/(>>>|\.\.\.)(?=[ \t]|\n|$)/y)) return;
      const lineStart = this.s.lastIndexOf('\n', this.i) + 1;
      if (!/^[ \t]*$/.test(this.s.slice(lineStart, this.i))) return;
      this.i += 3;
    }
  }
  /** @param {RegExp} re */
  peek(re) {
    this.space();
    return this.at(re);
  }
  /** @param {RegExp} re */
  take(re) {
    const m = this.peek(re);
    if (m) this.i += m[0].length;
    return m;
  }
  /** @param {RegExp} re @param {string} what @returns {RegExpExecArray} */
  expect(re, what) {
    const m = this.take(re);
    if (!m) this.err(`expected ${what}${this.i < this.s.length ? ` where it says “${this.s.slice(this.i, this.i + 12).split('\n')[0]}”` : ' but the text ends'}.`);
    return m;
  }

  // The whole text: items, then the config.
  /** @returns {PastedConfig} */
  /** @param {Given} given */
  config(given) {
    /** @type {Named} */
    const named = new Map();
    /** @type {{ value: number[][], at: number }[]} */
    const unnamed = [];
    /** @type {{ causal?: boolean, scale?: number | null }} */
    const settings = {};
    /** @type {{ key: string, at: number } | null} */
    let pending = null; // a name from a ">>> Q" or ">>> print(Q)" line, for the printout below it
    for (this.space(); this.i < this.s.length; this.space()) {
      const start = this.i;
      const name = this.take(/print\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_][\w.]*)(?=[ \t]*(=(?!=)|:|\n|$))/y);
      if (name) {
        if (name[2] && this.take(/=|:/y)) {
          if (/^(is_)?causal$/.test(name[2])) settings.causal = this.bool(name[2]);
          else if (name[2] === 'scale') settings.scale = this.scale();
          else this.put(named, this.tensorName(name[2], start), this.value(named, start, true), start);
        } else {
          // ">>> Q" then ">>> K" with no printout between: Q's would be lost without a word
          if (pending) this.err(`“${pending.key}” is not followed by its printout: the next line names “${name[1] ?? name[2]}”. Print each tensor right after its name.`, pending.at);
          pending = { key: this.tensorName(name[1] ?? name[2], start), at: start };
        }
        continue;
      }
      const value = this.value(named, start);
      if (pending) {
        this.put(named, pending.key, value, pending.at);
        pending = null;
      } else unnamed.push({ value, at: start });
    }
    if (pending) this.err(`“${pending.key}” is not followed by its printout.`, pending.at);
    if (named.size && unnamed.length) {
      this.err(`this printout has no name, but others do: name every tensor (${EXAMPLE}), or none and give them in order.`, unnamed[0].at);
    }
    /** @type {PastedConfig} */
    const out = {};
    if (unnamed.length) {
      const order = unnamed.length === 3 ? DIRECT : unnamed.length === 4 ? PROJECTED : null;
      if (!order) {
        return this.fail(`Found ${unnamed.length} unnamed printout${unnamed.length === 1 ? '' : 's'}; expected three (Q, K and V, in that order) or four (X, Wq, Wk and Wv), or named ones: ${EXAMPLE}.`);
      }
      order.forEach((k, j) => { out[k] = unnamed[j].value; });
    } else {
      if (!named.size) this.fail(`Found no tensors; expected printed tensors, like ${EXAMPLE}.`);
      for (const [k, v] of named) out[k] = v.value;
    }
    checkProjectionShapes(out, this.fail);
    given.causal = settings.causal !== undefined;
    given.scale = settings.scale !== undefined;
    out.causal = settings.causal ?? false; // scaled_dot_product_attention's default
    if (settings.scale !== undefined) out.scale = settings.scale;
    return out;
  }

  /** @param {string} id @param {number} at @returns {string} */
  tensorName(id, at) {
    const key = CANONICAL[id.replace(/_/g, '').toLowerCase()];
    if (!key) this.err(`“${id}” is not a tensor the explorer takes: name them Q, K and V, or X, Wq, Wk and Wv.`, at);
    return key;
  }
  /** @param {Named} named @param {string} key @param {number[][]} value @param {number} at */
  put(named, key, value, at) {
    const given = named.get(key);
    if (given) this.err(`${key} is given twice (also on line ${this.line(given.at)}).`, at);
    named.set(key, { value, at });
  }
  /** @param {string} id */
  bool(id) {
    const m = this.expect(/(True|False|true|false)\b/y, `True or False after ${id} =`);
    return m[1] === 'True' || m[1] === 'true';
  }
  scale() {
    if (this.take(/None\b/y)) return null;
    return Number(this.expect(SCALE_NUMBER, 'a number or None after scale =')[0]);
  }

  // One tensor: a printout, a list, or another tensor's name ("K = Q", "K = Q.clone()").
  /** @param {Named} named @param {number} at @param {boolean} [afterName] @returns {number[][]} */
  value(named, at, afterName = false) {
    this.take(/Parameter containing:/y);
    const alias = afterName && this.take(/([A-Za-z_]\w*)(\.(clone|detach)\(\))*(?![\w.(])/y);
    if (alias) {
      const key = this.tensorName(alias[1], at);
      const given = named.get(key);
      if (!given) return this.err(`${key} is used before it is given.`, at);
      return given.value.map((row) => row.slice());
    }
    const ctor = this.take(/((torch|np|numpy)\.)?(tensor|Tensor|array)\(/y);
    const listAt = this.i;
    if (!ctor && !this.peek(/\[/y)) {
      this.err(`expected a printed tensor: tensor([[...]]), array([[...]]) or a list [[...]], as in ${EXAMPLE}.`);
    }
    const nested = this.list();
    if (ctor) {
      while (this.take(/,/y)) {
        if (this.peek(/\)/y)) break;
        this.keyword();
      }
      this.expect(/\)/y, `“)” to close ${ctor[0]}`);
    }
    return this.matrix(nested, listAt);
  }

  // requires_grad=True, dtype=torch.float32, grad_fn=<AddBackward0>, device='cuda:0'
  keyword() {
    const k = this.expect(/([A-Za-z_]\w*)\s*=/y, 'a keyword like requires_grad=True or dtype=torch.float32')[1];
    const at = this.i;
    if (k === 'requires_grad') return this.expect(/(True|False)\b/y, 'True or False');
    if (k === 'grad_fn') return this.expect(/<[^>\n]*>/y, 'grad_fn=<...>');
    if (k === 'device') return this.expect(/'[^'\n]*'|"[^"\n]*"|[\w.:]+/y, "a device like 'cpu'");
    if (k === 'dtype') {
      const t = this.expect(/'[^'\n]*'|"[^"\n]*"|[\w.]+/y, 'a dtype like torch.float32')[0];
      if (/bool|complex|str|<U|object|'|"/.test(t)) this.err(`dtype ${t}: the explorer takes real numbers (float or int tensors).`, at);
      // torch.float32, np.int64, float16, torch.bfloat16, uint8 …: a known prefix and a real type
      if (!/^((torch|np|numpy)\.)?(float(16|32|64)?|bfloat16|double|half|u?int(8|16|32|64)?|long|short)$/.test(t)) this.err(`dtype ${t} is not a dtype PyTorch or NumPy prints, like torch.float32 or float64.`, at);
      return t;
    }
    if (k === 'size') this.err('the tensor is empty: the explorer needs at least one row and one column.', at);
    this.err(`“${k}=” is not part of a tensor printout; expected requires_grad=, dtype=, grad_fn= or device=.`, at);
  }

  // [ ... ] with numbers or lists inside, separated by commas or (NumPy's print) spaces.
  /** @returns {NestedList} */
  list(depth = 1) {
    const at = this.i;
    this.expect(/\[/y, '“[”');
    if (depth > MAX_DEPTH) this.err(`the brackets are nested more than ${MAX_DEPTH} deep: a tensor for the explorer is a matrix, [[…], […]], with at most a few leading dimensions of size 1.`, at);
    /** @type {NestedList} */
    const items = [];
    let commas = 0, spaces = 0; // how the items are separated: PyTorch prints commas, NumPy spaces
    for (let open = true; ; open = false) { // open: just after "[", where no comma may come
      if (this.take(/\]/y)) return items;
      if (!open) {
        if (this.take(/,/y)) {
          commas++;
          if (this.take(/\]/y)) return items; // a trailing comma
        } else spaces++;
        if (commas && spaces) this.err('this list separates its items with commas in one place and only spaces in another: PyTorch prints commas, NumPy spaces. Check for a missing comma.');
      }
      if (this.peek(/\.\.\./y)) {
        this.err('the printout is shortened with “...”, so some numbers are missing. Print it in full first: torch.set_printoptions(profile="full") or numpy.set_printoptions(threshold=sys.maxsize).');
      }
      if (this.peek(/\[/y)) items.push(this.list(depth + 1));
      else if (this.peek(/(True|False)\b/y)) this.err('the tensor holds True/False: the explorer takes numbers (a boolean mask is not part of the config).');
      else {
        const m = this.take(ITEM);
        if (!m) {
          if (this.i >= this.s.length) this.err(`the “[” here is never closed.`, at);
          return this.err(`expected a number, “[” or “]” where it says “${this.s.slice(this.i, this.i + 12).split('\n')[0]}”.`);
        }
        items.push(m[0].endsWith('inf') ? (m[0][0] === '-' ? -Infinity : Infinity) : Number(m[0])); // Number('nan') is NaN
        const next = this.s[this.i];
        if (next !== undefined && !/[\s,\]#]/.test(next)) this.err(`“${m[0]}” runs into “${next}”: put a comma or a space between two numbers.`);
      }
    }
  }

  // A nested list as a matrix [rows][cols] of numbers: leading dimensions of size 1 are dropped.
  /** @param {NestedList} nested @param {number} at @returns {number[][]} */
  matrix(nested, at) {
    let a = nested;
    /** @type {number[]} */
    const shape = [];
    for (let x = /** @type {number | NestedList} */ (a); Array.isArray(x); x = x[0]) shape.push(x.length);
    while (shape.length > 2 && shape[0] === 1) { a = /** @type {NestedList} */ (a[0]); shape.shift(); }
    if (shape.length !== 2 || shape.includes(0)) {
      const what = shape.includes(0) ? 'empty' : shape.length === 1 ? `one-dimensional (${count(shape[0], 'number')})` : shape.join(' × ');
      this.err(`the tensor is ${what}; expected a matrix, one row per token (or per feature for a weight), like [[1., 0.], [0., 1.]].`, at);
    }
    const cols = shape[1];
    return a.map((row, i) => {
      if (!Array.isArray(row)) return this.err(`row ${i + 1} is a single number, not a row like row 1.`, at);
      if (row.length !== cols) this.err(`row ${i + 1} has ${count(row.length, 'number')} but row 1 has ${cols}: every row needs the same length.`, at);
      return row.map((v, j) => {
        if (Array.isArray(v)) return this.err(`row ${i + 1}, column ${j + 1} is a list; expected a matrix of numbers.`, at);
        if (!Number.isFinite(v)) this.err(`row ${i + 1}, column ${j + 1} is ${String(v).replace('Infinity', 'inf').replace('NaN', 'nan')}: every entry must be a finite number.`, at);
        return v;
      });
    });
  }
}

// A weight pasted as torch.nn.Linear keeps it, [out][in], is the transpose of what X·W needs.
/** @param {PastedConfig} cfg @param {(msg: string) => never} fail */
function checkProjectionShapes(cfg, fail) {
  const X = /** @type {number[][] | undefined} */ (cfg.X);
  if (!X) return;
  const d = X[0].length;
  for (const k of ['Wq', 'Wk', 'Wv']) {
    const W = /** @type {number[][] | undefined} */ (cfg[k]);
    if (W && W.length !== d && W[0].length === d) {
      fail(`${k} is ${W.length} × ${W[0].length} but X has ${d} columns: ${k} must be [d][${k === 'Wv' ? 'dv' : 'dk'}], one row per column of X (Q = X·Wq). A torch.nn.Linear layer keeps its weight the other way round, [out][in]: paste ${k}.T (layer.weight.T).`);
    }
  }
}
