// explain.js: every sentence the page says about the numbers. Pure functions of a "view"
//   { config, r, raw, step }
// where r is attn.forward's result for the config and raw the result with scale 1 (the
// unscaled scores Q·Kᵀ). Values always come from r/raw; the only arithmetic done here is the
// display of the terms that make up a value (products, exp), built from the same float32
// numbers and formatted by the one formatter.

import { fmt, tokenRef } from './format.js';
import { STEPS } from './config.js';
import { weightStory } from './train.js';

const MAX_TERMS = 8;
const sub = (i) => String(i + 1).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[c]);
const p = (v) => (v < 0 ? '(' + fmt(v) + ')' : fmt(v)); // a factor inside a product

/** Shape and axes of each matrix: rows, cols, row/column labels and the caption. */
export function matrixInfo(view, m) {
  const { r, config } = view;
  const tokens = config.tokens;
  const dims = (n, prefix) => Array.from({ length: n }, (_, k) => prefix + (k + 1));
  const features = config.features || dims(r.d || 0, 'f');
  const vd = valueDims(view, dims(r.dv, 'v'));
  const info = {
    X: [r.n, r.d, tokens, features, 'token × feature', 'input: one row per token'],
    Wq: [r.d, r.dk, features, dims(r.dk, 'q'), 'feature × query dim', 'learned query projection'],
    Wk: [r.d, r.dk, features, dims(r.dk, 'k'), 'feature × key dim', 'learned key projection'],
    Wv: [r.d, r.dv, features, vd, 'feature × value dim', 'learned value projection'],
    Q: [r.n, r.dk, tokens, dims(r.dk, 'q'), 'token × query dim', 'queries: what each token is looking for'],
    K: [r.m, r.dk, tokens, dims(r.dk, 'k'), 'token × key dim', 'keys: what each token contains'],
    V: [r.m, r.dv, tokens, vd, 'token × value dim', 'values: what each token passes on'],
    S: [r.n, r.m, tokens, tokens, 'query × key', scoreTitle(view)],
    M: [r.n, r.m, tokens, tokens, 'query × key', r.causal ? 'causal mask: −∞ above the diagonal' : 'mask: off, every token may look everywhere'],
    A: [r.n, r.m, tokens, tokens, 'query × key', 'weights: softmax of each row, rows add up to 1'],
    O: [r.n, r.dv, tokens, vd, 'token × value dim', 'output: weighted average of the value rows'],
  }[m];
  const [rows, cols, rowLabels, colLabels, axes, about] = info;
  return { m, rows, cols, rowLabels, colLabels, axes, about, caption: `${m}: ${rows} × ${cols}, ${axes}` };
}

// When Wv is square and diagonal, value dimension k carries feature k: name it so the output
// can be read ("mostly thing").
function valueDims(view, fallback) {
  const { r, config } = view;
  if (!r.Wv || !config.features || r.d !== r.dv) return fallback;
  for (let i = 0; i < r.d; i++) for (let j = 0; j < r.dv; j++) if (i !== j && r.Wv[i * r.dv + j] !== 0) return fallback;
  return config.features;
}

function scoreTitle(view) {
  if (view.step === 'score') return 'scores Q·Kᵀ, not scaled yet';
  if (view.step === 'scale') return 'scaled scores, not masked yet';
  return view.r.causal ? 'scaled scores, masked entries −∞' : 'scaled scores (no mask)';
}

const stepIndex = (step) => (step ? STEPS.indexOf(step) : STEPS.length);

/** The values a matrix panel shows at the current step (S changes meaning as the steps go). */
export function displayed(view, m) {
  const { r, raw, step } = view;
  if (m !== 'S') return r[m];
  if (step === 'score') return raw.S;
  if (stepIndex(step) < STEPS.indexOf('mask') && step !== 'project') return r.S;
  const out = new Float32Array(r.S.length);
  for (let k = 0; k < out.length; k++) out[k] = r.M[k] === -Infinity ? -Infinity : r.S[k];
  return out;
}

export function cellLabel(view, m, i, j, value) {
  return labeler(view, m)(i, j, value);
}

/** The screen-reader label function of one matrix (its axis names looked up once). */
export function labeler(view, m) {
  const { rowLabels, colLabels } = matrixInfo(view, m);
  return (i, j, value) => `${m} row ${i + 1} ${rowLabels[i]}, column ${j + 1} ${colLabels[j]}: ${fmt(value)}`;
}

// Sum of products, shortened to the largest MAX_TERMS terms (by |product|) when long.
function sumOfProducts(pairs) {
  let shown = pairs.map(([a, b], k) => ({ a, b, k }));
  let note = '';
  if (shown.length > MAX_TERMS) {
    shown = shown
      .slice()
      .sort((x, y) => Math.abs(y.a * y.b) - Math.abs(x.a * x.b))
      .slice(0, MAX_TERMS)
      .sort((x, y) => x.k - y.k);
    note = ` + … (${pairs.length - MAX_TERMS} smaller terms)`;
  }
  return shown.map((t) => p(t.a) + '×' + p(t.b)).join(' + ') + note;
}

const rowOf = (a, i, cols) => Array.from(a.subarray(i * cols, i * cols + cols));
const colOf = (a, j, rows, cols) => Array.from({ length: rows }, (_, k) => a[k * cols + j]);

/**
 * Explains one cell: { title, text, sources } where sources lists the cells that fed it (or,
 * for an input, the cells it feeds) as { m, row } (a whole row), { m, col } or { m, row, col }.
 * extra (optional), for a head being trained (web/train.js trainedExtra): { trained: { step },
 * residual?: [{ name, data }] (a head inside a model: X as the sum of those parts),
 * gradients: { Wq, Wk, Wv } | null } with the last step's ∂loss/∂W, flat and row-major.
 */
export function explainCell(view, m, i, j, extra = null) {
  const { r, raw, config } = view;
  const t = config.tokens;
  const v = displayed(view, m)[i * matrixInfo(view, m).cols + j];
  const direct = r.X == null;
  const head = `${m}[${i + 1}][${j + 1}] = ${fmt(v)}`;
  const proj = { Q: ['Wq', r.dk, 'query', 'looking for'], K: ['Wk', r.dk, 'key', 'contains'], V: ['Wv', r.dv, 'value', 'passes on'] };
  const S_MASKED = r.M[i * r.m + j] === -Infinity;

  switch (m) {
    case 'X':
      if (extra && extra.residual) return residualCell(view, i, j, extra.residual, head);
      if (extra && extra.trained)
        return {
          title: head,
          text: `Feature “${config.features[j]}” of ${tokenRef(t, i)}: 1 if the token (or its position) is “${config.features[j]}”, else 0. The inputs are fixed; only the weights learn. It feeds row ${i + 1} of Q, K and V.`,
          sources: [{ m: 'Q', row: i }, { m: 'K', row: i }, { m: 'V', row: i }],
        };
      return {
        title: head,
        text: `Feature “${config.features[j]}” of ${tokenRef(t, i)}. An input: select it, then type a number, drag sideways or use the scroll wheel to change it. It feeds row ${i + 1} of Q, K and V.`,
        sources: [{ m: 'Q', row: i }, { m: 'K', row: i }, { m: 'V', row: i }],
      };
    case 'Wq':
    case 'Wk':
    case 'Wv': {
      const out = { Wq: 'Q', Wk: 'K', Wv: 'V' }[m];
      const kind = { Wq: 'query', Wk: 'key', Wv: 'value' }[m];
      return {
        title: head,
        text: extra && extra.trained
          ? `How much feature “${config.features[i]}” adds to ${kind} dimension ${j + 1}. It feeds column ${j + 1} of ${out}.\n${trainedWeight(extra, m, i, j, matrixInfo(view, m).cols)}`
          : `How much feature “${config.features[i]}” adds to ${kind} dimension ${j + 1}. A learned weight (hand-picked here); you can edit it. It feeds column ${j + 1} of ${out}.`,
        sources: [{ m: 'X', col: i }, { m: out, col: j }],
      };
    }
    case 'Q':
    case 'K':
    case 'V': {
      const [W, cols, kind, what] = proj[m];
      if (direct) {
        const feeds = m === 'Q' ? [{ m: 'S', row: i }] : m === 'K' ? [{ m: 'S', col: i }] : [{ m: 'O', col: j }];
        return {
          title: head,
          text: `Dimension ${j + 1} of the ${kind} of ${tokenRef(t, i)}: what it ${what}. Given directly, as in the lesson’s worked example (in a real layer it comes from X·${W}); you can edit it.`,
          sources: feeds,
        };
      }
      const x = rowOf(r.X, i, r.d), w = colOf(r[W], j, r.d, cols);
      return {
        title: head,
        text:
          `Dimension ${j + 1} of the ${kind} of ${tokenRef(t, i)}: what it ${what}.\n` +
          `${m} = X·${W}, so ${m}[${i + 1}][${j + 1}] = Σₖ X[${i + 1}][k]·${W}[k][${j + 1}]\n` +
          `= ${sumOfProducts(x.map((a, k) => [a, w[k]]))}\n= ${fmt(r[m][i * cols + j])}`,
        sources: [{ m: 'X', row: i }, { m: W, col: j }],
      };
    }
    case 'S': {
      const src = [{ m: 'Q', row: i }, { m: 'K', row: j }, { m: 'M', row: i, col: j }];
      if (S_MASKED && view.step !== 'score' && view.step !== 'scale') {
        return {
          title: head,
          text: `${tokenRef(t, j)} comes after ${tokenRef(t, i)}: a token cannot see the future, so the mask sets this score to −∞ and its weight in A to exactly 0. (Before the mask the scaled score was ${fmt(r.S[i * r.m + j])}.)`,
          sources: src,
        };
      }
      const q = rowOf(r.Q, i, r.dk), k = rowOf(r.K, j, r.dk);
      const dot = `q${sub(i)}·k${sub(j)} = ${sumOfProducts(q.map((a, c) => [a, k[c]]))} = ${fmt(raw.S[i * r.m + j])}`;
      const match = `How well the query of ${tokenRef(t, i)} matches the key of ${tokenRef(t, j)}.`;
      if (view.step === 'score')
        return { title: head, text: `${match}\nS = Q·Kᵀ (not scaled yet): ${dot}`, sources: src };
      return {
        title: head,
        text: `${match}\nS[${i + 1}][${j + 1}] = (q${sub(i)}·k${sub(j)}) × scale\n${dot}\n× ${scaleWords(view)} = ${fmt(r.S[i * r.m + j])}`,
        sources: src,
      };
    }
    case 'M':
      if (!r.causal)
        return { title: head, text: 'The mask is off (causal: false): every token may look at every token, as in the lesson’s worked example.', sources: [{ m: 'S', row: i, col: j }] };
      return {
        title: head,
        text: S_MASKED
          ? `${tokenRef(t, j)} comes after ${tokenRef(t, i)}: a token cannot see the future, so this score becomes −∞.`
          : `${tokenRef(t, i)} may look at ${tokenRef(t, j)} (${j + 1} ≤ ${i + 1}), so 0 is added to the score.`,
        sources: [{ m: 'S', row: i, col: j }, { m: 'A', row: i, col: j }],
      };
    case 'A': {
      const src = [{ m: 'S', row: i }, { m: 'M', row: i }];
      if (S_MASKED)
        return { title: head, text: `Exactly 0: the score of ${tokenRef(t, i)} for ${tokenRef(t, j)} was masked to −∞, and exp(−∞) = 0.`, sources: src };
      const s = rowOf(r.S, i, r.m), mk = rowOf(r.M, i, r.m);
      const live = s.map((x, c) => c).filter((c) => mk[c] !== -Infinity);
      let max = -Infinity;
      for (const c of live) max = Math.max(max, s[c] + mk[c]);
      const e = (c) => Math.exp(s[c] + mk[c] - max);
      let terms = live.map((c) => fmt(e(c)));
      if (terms.length > MAX_TERMS) terms = terms.slice(0, MAX_TERMS).concat(`… (${live.length - MAX_TERMS} more)`);
      const sum = live.reduce((acc, c) => acc + e(c), 0);
      const masked = live.length < r.m ? ` (the ${r.m - live.length} masked key${r.m - live.length > 1 ? 's add' : ' adds'} exp(−∞) = 0)` : '';
      return {
        title: head,
        text:
          `The share of its attention ${tokenRef(t, i)} gives to ${tokenRef(t, j)}: the softmax of row ${i + 1} of S.\n` +
          `A[${i + 1}][${j + 1}] = exp(S[${i + 1}][${j + 1}] − max) / Σₖ exp(S[${i + 1}][k] − max), with max = ${fmt(max)}\n` +
          `exp(${fmt(s[j])} − ${p(max)}) = ${fmt(e(j))}\n` +
          `Σ = ${terms.join(' + ')} = ${fmt(sum)}${masked}\n` +
          `A[${i + 1}][${j + 1}] = ${fmt(e(j))} / ${fmt(sum)} = ${fmt(r.A[i * r.m + j])}`,
        sources: src,
      };
    }
    case 'O': {
      const a = rowOf(r.A, i, r.m), vv = colOf(r.V, j, r.m, r.dv);
      const live = a.map((w, k) => k).filter((k) => r.M[i * r.m + k] !== -Infinity);
      const left = r.m - live.length;
      return {
        title: head,
        text:
          `Dimension ${j + 1} of the output of ${tokenRef(t, i)}: the weighted average of column ${j + 1} of V, with row ${i + 1} of A as the weights.\n` +
          `O[${i + 1}][${j + 1}] = Σₖ A[${i + 1}][k]·V[k][${j + 1}]\n` +
          `= ${sumOfProducts(live.map((k) => [a[k], vv[k]]))}` +
          (left ? ` (+ ${left} masked key${left > 1 ? 's' : ''} with weight 0)` : '') +
          `\n= ${fmt(r.O[i * r.dv + j])}`,
        sources: [{ m: 'A', row: i }, { m: 'V', col: j }],
      };
    }
  }
  return { title: head, text: '', sources: [] };
}

// A head inside a model reads the residual stream: X is a sum of parts (the embedding, and what
// earlier heads wrote), each given as { name, data [n·d] } in extra.residual.
function residualCell(view, i, j, parts, head) {
  const { r, config } = view;
  const t = config.tokens;
  const terms = parts.map((part) => `${p(part.data[i * r.d + j])} (${part.name})`);
  return {
    title: head,
    text: `Dimension “${config.features[j]}” of the residual stream at ${tokenRef(t, i)}: what this head reads. Every earlier part of the model adds to the stream, so it is ${terms.join(' + ')}. It feeds row ${i + 1} of Q, K and V.`,
    sources: [{ m: 'Q', row: i }, { m: 'K', row: i }, { m: 'V', row: i }],
  };
}

// A trained weight: where it came from and, after a step, its gradient beside the step the
// optimizer took (the words are web/train.js's weightStory, shared with the read-out).
function trainedWeight(extra, m, i, j, cols) {
  const { step } = extra.trained;
  const g = extra.gradients && extra.gradients[m];
  const u = extra.update && extra.update[m];
  return weightStory({ name: `${m}[${i + 1}][${j + 1}]`, step, g: g ? g[i * cols + j] : null, delta: u ? u[i * cols + j] : null, optimizer: extra.optimizer, lr: extra.lr });
}

function scaleWords(view) {
  const { r, config } = view;
  if (config.scale == null) return `scale ${fmt(r.scale)} (1/√${r.dk})`;
  if (config.scale === 1) return `scale ${fmt(r.scale)} (scaling is off)`;
  return `scale ${fmt(r.scale)}`;
}

/** One sentence per step, in the lesson's words, with this head's numbers. */
export function narration(view, step) {
  const { r, config } = view;
  const direct = r.X == null;
  switch (step) {
    case 'project':
      return direct
        ? '1. Project. Here Q, K and V are given directly, as in the lesson’s worked example: Q is what each token is looking for, K what it contains, V what it passes on. In a real layer they come from X·Wq, X·Wk and X·Wv.'
        : '1. Project. Multiply X by three learned matrices: Q = X·Wq, each token’s query, what it is looking for; K = X·Wk, each token’s key, what it contains; V = X·Wv, each token’s value, what it passes on.';
    case 'score':
      return '2. Score. S = Q·Kᵀ: the dot product of every query with every key. Entry (i, j) says how well token i’s query matches token j’s key.';
    case 'scale':
      if (config.scale === 1)
        return `3. Scale. Scaling is off: the scores are used as they are, so with wide heads the softmax saturates (one weight near 1, the rest near 0). The lesson divides by √d = √${r.dk}.`;
      return `3. Scale. Divide by √d, where d is the length of a query: here d = ${r.dk}, so every score is multiplied by ${fmt(r.scale)}. This keeps the softmax from saturating.`;
    case 'mask':
      return r.causal
        ? '4. Mask. Set every score where j comes after i to −∞, so tokens can’t see the future.'
        : '4. Mask. The mask is off here (as in the lesson’s worked example): every token may look at every token.';
    case 'softmax':
      return '5. Softmax each row, turning scores into weights A that are positive and add up to 1.';
    case 'mix':
      return '6. Mix. O = A·V: each token’s output is the weighted average of the value rows.';
  }
  return 'All six steps at once: project, score, scale, mask, softmax, mix. Press play to go through them one by one.';
}

/** Which matrices each step produces (the panels it highlights). */
export const STEP_MATRICES = {
  project: ['Q', 'K', 'V'],
  score: ['S'],
  scale: ['S'],
  mask: ['M', 'S'],
  softmax: ['A'],
  mix: ['O'],
};

/** “the” (5) gives 0.528 of its attention to “cat” (2). */
export function followSentence(view, i) {
  const { r, config } = view;
  const t = config.tokens;
  const a = rowOf(r.A, i, r.m);
  const best = Math.max(...a);
  const tops = a.map((w, j) => j).filter((j) => a[j] === best);
  const to = tops.map((j) => tokenRef(t, j));
  const list = to.length > 1 ? to.slice(0, -1).join(', ') + ' and ' + to[to.length - 1] : to[0];
  let s = `${tokenRef(t, i)} gives ${fmt(best)} of its attention to ${list}${tops.length > 1 ? ' each' : ''}.`;
  if (r.causal && r.m > 1) s += i + 1 < r.m ? ` It can see tokens 1 to ${i + 1}; the ${r.m - i - 1} after it are masked.` : ` It can see every token, itself included.`;
  let big = 0;
  for (let j = 1; j < r.dv; j++) if (Math.abs(r.O[i * r.dv + j]) > Math.abs(r.O[i * r.dv + big])) big = j;
  const name = matrixInfo(view, 'O').colLabels[big];
  s += ` Its output (row ${i + 1} of O) is mostly “${name}”: ${fmt(r.O[i * r.dv + big])}.`;
  return s;
}
