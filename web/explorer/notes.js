// explorer/notes.js: the explorer page's own sentences about the state (not about one cell):
// the preset note (what changed and how to go back), the guided tour's stops and the leak
// check's report. Pure functions of (state, view), tested in Node (tests/explorer/notes.test.mjs);
// numbers go through format.js and grammar through words.js, like every sentence on the page.

import { fmt, tokenRef } from '../blocks/format.js';
import { count, noun, verb, list, range, largest } from '../blocks/words.js';
import { matrixInfo } from '../blocks/explain.js';
import { PRESETS } from '../blocks/presets.js';
import { changesOf, headOf, TOUR_STOPS } from './state.js';
import { isDirect, UNNAMED } from '../blocks/config.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('../../types/config').Config} Config */
/** @typedef {import('../../types/config').ProjectedConfig} ProjectedConfig */
/** A result in the projection form: X and the weights are there. @typedef {import('../../types/attention').ForwardResult & { X: Float32Array, Wq: Float32Array, Wk: Float32Array, Wv: Float32Array, d: number }} ProjectedResult */
/** The leak check's report (leakReport). @typedef {{ text: string, rows: { i: number, same: boolean, diff: number }[] }} LeakReport */
/** A config's matrices by name. @param {Config} c */
const matricesOf = (c) => /** @type {Partial<Record<string, number[][]>>} */ (/** @type {unknown} */ (c));

/** @param {number} i */
const sub = (i) => String(i + 1).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)]);

/**
 * The preset menu's entry for a head that is not an unchanged preset.
 * @param {State} state
 */
export function ownHeadLabel(state) {
  return state.origin ? `${PRESETS[state.origin].title} (changed)` : '(your own head)';
}

/**
 * The reset button's name: it goes back to the preset the head started as, or to the config as
 * it was loaded (a pasted or linked head has no preset to go back to).
 * @param {State} state
 */
export const resetLabel = (state) => (state.origin ? 'Reset to the preset' : 'Reset to the config you loaded');

/**
 * The phrases saying what changed from the preset ("the causal mask off", "2 values of X changed").
 * @param {ReturnType<typeof changesOf>} ch
 */
function changePhrases(ch) {
  const out = [];
  if (ch.causal !== undefined) out.push(`the causal mask ${ch.causal ? 'on' : 'off'}`);
  if (ch.scale !== undefined) out.push(ch.scale === null ? 'scaling on' : ch.scale === 1 ? 'scaling off' : `the scale set to ${fmt(ch.scale)}`);
  if (ch.tokens) out.push(`${count(ch.tokens[1], 'token')} instead of ${ch.tokens[0]}`);
  if (ch.renamed.length) out.push(ch.renamed.length === 1 ? `token ${ch.renamed[0] + 1} renamed` : `${count(ch.renamed.length, 'token')} renamed`);
  const w = ch.widths;
  if (w.d) out.push(`${count(w.d[1], 'feature')} instead of ${w.d[0]}`);
  if (w.dk) out.push(`dk = ${w.dk[1]} instead of ${w.dk[0]}`);
  if (w.dv) out.push(`dv = ${w.dv[1]} instead of ${w.dv[0]}`);
  if (ch.features.length) out.push(ch.features.length === 1 ? `feature ${ch.features[0] + 1} renamed` : `${count(ch.features.length, 'feature')} renamed`);
  const vals = Object.entries(ch.values);
  if (vals.length) {
    const parts = vals.map(([m, k], n) => (n === 0 ? `${count(k, 'value')} of ${m}` : `${k} of ${m}`));
    out.push(`${list(parts)} changed`);
  }
  return out;
}

/**
 * The note under the preset menu: the preset's own note, or what changed and how to go back.
 * @param {State} state @returns {string}
 */
export function presetNote(state) {
  if (state.preset) return PRESETS[state.preset].note;
  const phrases = changePhrases(changesOf(/** @type {Config} */ (state.base), headOf(state)));
  if (!state.origin)
    return phrases.length
      ? `Your own head, loaded from a config, with ${list(phrases)}. To go back to it as it was loaded, press “${resetLabel(state)}”.`
      : `Your own head, loaded from a config. Change any input cell, its tokens, features or widths; “${resetLabel(state)}” brings it back.`;
  // A head of the other form (Q, K and V given) or with other feature names has nothing to count.
  if (!phrases.length) return `A head changed from the preset “${PRESETS[state.origin].title}”. To go back, press “Reset to the preset”.`;
  const ch = changesOf(/** @type {Config} */ (state.base), headOf(state));
  const toggles = [];
  if (ch.causal !== undefined) toggles.push(`turn the causal mask ${ch.causal ? 'off' : 'on'} again (key M)`);
  // Every preset scales by 1/√dk (scale null): a changed scale is 1 (key S turns it back) or a number of its own.
  if (ch.scale === 1) toggles.push('turn scaling on again (key S)');
  const onlyToggles = toggles.length === phrases.length;
  const back = onlyToggles ? `To go back, ${list(toggles)}, or press “Reset to the preset”.` : 'To go back, press “Reset to the preset”.';
  return `The preset “${PRESETS[state.origin].title}”, with ${list(phrases)}. ${back}`;
}

/**
 * What the config box says after printed tensors were applied: what they were read as, that the
 * causal mask is off while it is (scaled_dot_product_attention's default, and the JSON form's
 * opposite), and where the names came from while they are still the ones given.
 * @param {State} state @returns {string}
 */
export function pasteNote(state) {
  const p = state.pasted;
  if (!p) return '';
  const c = headOf(state);
  const out = [`Read as printed tensors: ${isDirect(c) ? 'Q, K and V' : 'X, Wq, Wk and Wv'}.`];
  if (!p.causal && !c.causal)
    out.push('The causal mask is off, as in scaled_dot_product_attention without is_causal=True: press M, or add the line is_causal=True, to turn it on.');
  /** @type {[string, string, string, readonly string[], (i: number) => string][]} */
  const kinds = [['tokens', 'token', 'Tokens', c.tokens, UNNAMED.tokens]];
  if (!isDirect(c)) kinds.push(['features', 'feature', 'Features', c.features, UNNAMED.features]);
  const clauses = p.kept.length ? [`the ${list(p.kept)} keep the names they had`] : [];
  for (const [what, one, legend, names, unnamed] of kinds) {
    if (p.kept.includes(/** @type {'tokens' | 'features'} */ (what))) continue;
    if (names.every((t, i) => t === unnamed(i))) {
      const all = names.map((_, i) => unnamed(i));
      const named = all.length === 1 ? `the ${one} is named ${all[0]}` : `the ${what} are named ${all.length === 2 ? list(all) : `${all[0]} to ${all[all.length - 1]}`}`;
      clauses.push(`${named} (rename ${all.length === 1 ? 'it' : 'them'} under “${legend}”)`);
    }
  }
  if (clauses.length) out.push(`A printout has no names, so ${list(clauses)}.`);
  return out.join(' ');
}

/**
 * The widths' note: which matrices dk and dv shape in this head, and what a new column does.
 * A new column is 0, so it adds nothing to any dot product, but a wider dk still changes S
 * through the scale 1/√dk when the scaling is on.
 * @param {Config} c @returns {string}
 */
export function widthNote(c) {
  const start = isDirect(c) ? 'New columns of Q, K and V start at 0' : 'New columns of Wq, Wk and Wv (so of Q, K and V) start at 0';
  const added = c.scale === null
    ? 'a column of 0 adds nothing to Q·Kᵀ, but S still changes, since it is divided by √dk'
    : 'a column of 0 adds nothing to Q·Kᵀ, and with this fixed scale S stays the same';
  return `${start}: ${added}. A smaller width drops the last columns.`;
}

// ------------------------------------------------------------------------------ guided tour

/**
 * The tour's stop k (0-3): the widget page's "Reading the matrices", with this head's numbers.
 * { title, text, cell: the cell it explains, marks: [{ m, row?, col? }] }. Every claim is
 * checked against the numbers (ties are named in full); the tour runs on the cat preset.
 * @param {View} view @param {number} k
 */
export function tourStop(view, k) {
  // The tour runs on the cat preset: a head in the projection form.
  const r = /** @type {ProjectedResult} */ (view.r), config = /** @type {ProjectedConfig} */ (view.config);
  const t = config.tokens;
  const i = r.n - 1; // the last token, "the"
  /** @param {Float32Array} a @param {number} at @param {number} cols */
  const row = (a, at, cols) => Array.from(a.subarray(at * cols, at * cols + cols));
  const feats = config.features;
  const xi = row(r.X, i, r.d);
  const f = largest(xi); // its strongest features
  const qi = row(r.Q, i, r.dk);
  const qd = largest(qi)[0]; // the query dimension it uses most
  const kcol = Array.from({ length: r.m }, (_, j) => r.K[j * r.dk + qd]);
  const keys = largest(kcol); // the tokens whose key is largest on that dimension
  const j = keys[0];
  const wkRow = Array.from({ length: r.d }, (_, a) => r.Wk[a * r.dk + qd]);
  const kf = largest(wkRow);
  const s = row(r.S, i, r.m);
  const tops = largest(s); // the last row sees every token, with the causal mask too
  const rivals = tops.filter((c) => c !== j).map((c) => tokenRef(t, c));
  const rank = !tops.includes(j)
    ? `is below the largest score in the row, that of ${list(rivals)}`
    : rivals.length ? `ties for the largest score in the row with ${list(rivals)}` : 'is the largest score in the row';
  const a = r.A[i * r.m + j];
  const o = row(r.O, i, r.dv);
  const big = largest(o);
  const names = matrixInfo(view, 'O').colLabels;
  const vj = row(r.V, j, r.dv);
  /** @type {{ title: string, text: string, cell: import('../../types/config').Cell, marks: (import('../blocks/heatmap.js').Mark & { m: string })[] }[]} */
  const stops = [
    {
      title: 'The query of the last “the”',
      text:
        `Follow the last “the”, ${tokenRef(t, i)}, through the steps. Its embedding (row ${i + 1} of X) is mostly ${list(f.map((c) => `“${feats[c]}”`))}. ` +
        `Wq maps “${feats[f[0]]}” onto query dimension ${qd + 1} (Wq = ${fmt(r.Wq[f[0] * r.dk + qd])} there), so its query says “I’m looking for a thing”: Q[${i + 1}][${qd + 1}] = ${fmt(qi[qd])}.`,
      cell: { m: 'Q', i, j: qd },
      marks: [{ m: 'X', row: i }, { m: 'Wq', row: f[0], col: qd }, { m: 'Q', row: i, col: qd }],
    },
    {
      title: 'The key of “cat”',
      text:
        `Wk maps ${list(kf.map((c) => `“${feats[c]}”`))} onto that same dimension ${qd + 1}, so ${list(keys.map((c) => tokenRef(t, c)))} ${verb(keys.length, 'has', 'have')} the largest key number there: ` +
        `K[${j + 1}][${qd + 1}] = ${fmt(kcol[j])}.`,
      cell: { m: 'K', i: j, j: qd },
      marks: [{ m: 'X', row: j }, { m: 'Wk', col: qd }, { m: 'K', col: qd }],
    },
    {
      title: 'The score and the weight',
      text:
        `Their dot product, q${sub(i)}·k${sub(j)} = ${fmt(view.raw.S[i * r.m + j])}, ${rank}. ` +
        `After scaling (S = ${fmt(s[j])}), masking and softmax, ${tokenRef(t, i)} gives ${fmt(a)} of its attention to ${tokenRef(t, j)}${Math.abs(a - 0.5) <= 0.1 ? ': about half' : ''}.`,
      cell: { m: 'A', i, j },
      marks: [{ m: 'S', row: i }, { m: 'A', row: i, col: j }],
    },
    {
      title: 'The output',
      text:
        `The output row of ${tokenRef(t, i)} is [${o.map(fmt).join(', ')}]. Its largest ${noun(big.length, 'component is', 'components are')} ${list(big.map((c) => `“${names[c]}”`))}, ${fmt(o[big[0]])}: ` +
        `${tokenRef(t, j)}’s value [${vj.map(fmt).join(', ')}] weighted by ${fmt(a)}, plus the small shares of the other tokens. Nobody wrote these rules into a real model: Wq, Wk and Wv are learned.`,
      cell: { m: 'O', i, j: big[0] },
      marks: [{ m: 'V', row: j }, { m: 'O', row: i }],
    },
  ];
  return { ...stops[k], k, of: TOUR_STOPS };
}

// ------------------------------------------------------------------------------ leak check

// The token rows whose own inputs differ between two configs of the same tokens, and whether a
// weight (shared by every token) differs.
/** @param {Config} base @param {Config} config */
function editedRows(base, config) {
  /** @type {Set<number>} */
  const rows = new Set();
  let weights = false;
  const b = matricesOf(base), c = matricesOf(config);
  for (const m of ['X', 'Q', 'K', 'V']) {
    const bm = b[m], cm = c[m];
    if (bm && cm) bm.forEach((row, i) => (row.length !== cm[i]?.length || row.some((v, j) => v !== cm[i][j])) && rows.add(i));
  }
  for (const m of ['Wq', 'Wk', 'Wv']) {
    const bm = b[m], cm = c[m];
    // a feature added or removed, or dk or dv changed, reshapes the weights every token uses
    if (bm && cm) weights ||= bm.length !== cm.length || bm.some((row, i) => row.length !== cm[i].length || row.some((v, j) => v !== cm[i][j]));
  }
  return { rows: [...rows].sort((a, b) => a - b), weights };
}

/**
 * The leak check's report: O now against O before the learner's edits (view.before, computed
 * from `base` with the current mask and scale). { text, rows: [{ i, same, diff }] }: `same` is
 * true only when every entry of the row is exactly as before.
 * `resetName` is the reset button's name now (resetLabel).
 * @param {View} view @param {Config} base @param {string} [resetName] @returns {LeakReport}
 */
export function leakReport(view, base, resetName = 'Reset to the preset') {
  const { r, config, before } = view;
  const t = config.tokens;
  if (!before) // computeView computes no "before" when the tokens were added or removed
    return { text: `${base.tokens.length !== t.length ? 'Tokens were added or removed' : 'dv (the columns of O) changed'} since the leak check started, so there is no row-by-row “before”. Turn the check off and on again to compare from here.`, rows: [] };
  const rows = Array.from({ length: r.n }, (_, i) => {
    let diff = 0, same = true;
    for (let c = 0; c < r.dv; c++) {
      const x = r.O[i * r.dv + c], y = before[i * r.dv + c];
      if (x !== y) same = false;
      diff = Math.max(diff, Math.abs(x - y));
    }
    return { i, same, diff };
  });
  const { rows: edited, weights } = editedRows(base, config);
  /** @param {LeakReport['rows']} xs */
  const by = (xs) => fmt(Math.max(...xs.map((x) => x.diff)));
  if (weights)
    return { text: `You changed a learned weight, which every token uses, so every row of O may change. To see the mask at work, press “${resetName}”, then, with the check on, change one later token’s row of X.`, rows }; // only the projection form has weights
  if (!edited.length)
    return { text: `Leak check on. Now change a later token: a number in its row of ${matricesOf(config).X ? 'X' : 'Q, K or V'}. Each row of O is then compared with O as it is now.`, rows };
  const first = edited[0];
  const who = list(edited.map((i) => tokenRef(t, i)));
  const earlier = rows.slice(0, first);
  if (!earlier.length) return { text: `You changed ${who}: no row of O comes before it. Change a later token to see what the mask does.`, rows };
  const span = range(1, first, 'row');
  const moved = earlier.filter((x) => !x.same);
  const later = rows.slice(first).filter((x) => !x.same);
  const laterText = later.length ? ` ${later.length === 1 ? 'Row' : 'Rows'} ${list(later.map((x) => x.i + 1))} changed, by up to ${by(later)}.` : '';
  if (!moved.length)
    return {
      text: `You changed ${who}. ${span[0].toUpperCase() + span.slice(1)} of O ${verb(first, 'is', 'are')} unchanged: every entry is exactly as before, a difference of 0${r.causal ? `, because the causal mask gives the later token a weight of exactly 0 in ${first === 1 ? 'that row' : 'those rows'}` : ''}. Nothing leaks backwards.${laterText}`,
      rows,
    };
  return {
    text: `You changed ${who}, and ${moved.length === earlier.length ? (first === 1 ? 'row 1' : `all of ${span}`) : list(moved.map((x) => `row ${x.i + 1}`))} changed too, by up to ${by(moved)}: without the causal mask, earlier tokens look at the later one, so its change leaks backwards.${laterText}`,
    rows,
  };
}
