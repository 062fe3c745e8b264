// @ts-check
// export.js: the pictures and numbers a learner can take away. Pure functions of the view
// { config, r, raw, step } (see explain.js), except paintPNG, which is given the document.
//
//   matrixCSV / matrixJSON   one matrix, exactly the values its panel shows (full float32 precision)
//   headJSON                 the config and every matrix
//   heatmapSVG / viewSVG     one heatmap or the whole view, from layoutView's display list
//   paintPNG                 the same display list painted on a canvas (no image loading, so it
//                            works under a strict CSP and from file://)
//   pytorchScript            "copy as PyTorch": the lesson's code, rebuilding this head

import { fmt, fmtShort } from '../blocks/format.js';
import { isDirect } from '../blocks/config.js';
import { matrixInfo, displayed } from '../blocks/explain.js';
import { scaleKind, maxAbsFinite, cellRgb, css, textOn } from '../blocks/colors.js';

/**
 * @typedef {import('../../types/export').View} View
 * @typedef {import('../../types/export').Theme} Theme
 * @typedef {import('../../types/export').Layout} Layout
 * @typedef {import('../../types/export').DrawOp} DrawOp
 * @typedef {import('../../types/config').MatrixName} MatrixName
 * @typedef {import('../../types/config').Config} Config
 * @typedef {import('../../types/attention').ForwardResult} ForwardResult
 */

/** @type {MatrixName[]} */
export const EXPORTABLE = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];

/** @param {View} view @param {MatrixName} m */
function check(view, m) {
  if (!EXPORTABLE.includes(m) || !view.r[m]) throw new Error(`There is no matrix “${m}” in this head: the matrices are ${EXPORTABLE.filter((k) => view.r[k]).join(', ')}.`);
}

/** A number as text that reads back to the same float32 value: "0.4011107683181763", "-Infinity". */
/** @param {number} v */
const num = (v) => (v === -Infinity ? '-Infinity' : v === Infinity ? 'Infinity' : String(v));

// A label is user text: quote it, double its quotes, and defuse spreadsheet formulas (=, +, -, @).
/** @param {string} s */
function csvLabel(s) {
  const t = /^[=+\-@\t\r]/.test(s) ? "'" + s : s;
  return '"' + t.replace(/"/g, '""') + '"';
}

/** @param {View} view @param {MatrixName} m @returns {{ info: ReturnType<typeof matrixInfo>, rows: number[][] }} */
function rowsOf(view, m) {
  const info = matrixInfo(view, m);
  const values = displayed(view, m);
  /** @type {number[][]} */
  const rows = [];
  for (let i = 0; i < info.rows; i++) rows.push(Array.from(values.subarray(i * info.cols, (i + 1) * info.cols)));
  return { info, rows };
}

/** One matrix as CSV: a header row of column labels, then one row per row label. @param {View} view @param {MatrixName} m @returns {string} */
export function matrixCSV(view, m) {
  check(view, m);
  const { info, rows } = rowsOf(view, m);
  const lines = [[csvLabel(m), ...info.colLabels.map(csvLabel)].join(',')];
  rows.forEach((row, i) => lines.push([csvLabel(info.rowLabels[i]), ...row.map(num)].join(',')));
  return lines.join('\r\n') + '\r\n';
}

/** @param {View} view @param {MatrixName} m */
function matrixObject(view, m) {
  const { info, rows } = rowsOf(view, m);
  const masked = rows.some((row) => row.includes(-Infinity));
  /** @type {Record<string, unknown>} the keys in this order in the JSON */
  const out = { matrix: m, shape: [info.rows, info.cols], axes: info.axes, about: info.about, rows: info.rowLabels, cols: info.colLabels };
  if (masked) out.null_means = '-Infinity (masked)';
  out.values = rows.map((row) => row.map((v) => (v === -Infinity ? null : v)));
  return out;
}

/** One matrix as JSON (JSON has no −∞: a masked entry is null, and the object says so). @param {View} view @param {MatrixName} m @returns {string} */
export function matrixJSON(view, m) {
  check(view, m);
  return JSON.stringify(matrixObject(view, m), null, 1) + '\n';
}

/** The config and every matrix of the head. @param {View} view @returns {string} */
export function headJSON(view) {
  const { r, config } = view;
  /** @type {Record<string, unknown>} */
  const matrices = {};
  for (const m of EXPORTABLE) if (r[m]) matrices[m] = matrixObject(view, m);
  return JSON.stringify({ config, scale: r.scale, step: view.step || 'all', matrices }, null, 1) + '\n';
}

// ------------------------------------------------------------------ pictures

const FONT = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const BG = { light: ['#ffffff', '#1b1f24', '#4f5863'], dark: ['#14171c', '#e8eaed', '#aab2bd'] };
const PAD = 12, LABEL_W = 64, HEAD_H = 18, TITLE_H = 22, NUM_W = 50, NUM_H = 22;

/**
 * Lays out one heatmap at (x0, y0): { w, h, ops } where ops are
 * { t: 'rect', x, y, w, h, fill } and { t: 'text', x, y, text, fill, size, anchor, bold }.
 * @param {View} view @param {MatrixName} m @param {Theme} [theme] @param {number} [x0] @param {number} [y0] @returns {Layout}
 */
export function layoutHeatmap(view, m, theme = 'light', x0 = 0, y0 = 0) {
  check(view, m);
  const info = matrixInfo(view, m);
  const values = displayed(view, m);
  const kind = scaleKind(m);
  const maxAbs = kind === 'diverging' ? maxAbsFinite(values) || 1 : 1;
  const numbers = info.rows <= 24 && info.cols <= 16;
  const cw = numbers ? NUM_W : Math.max(2, Math.min(24, Math.floor(512 / info.cols)));
  const ch = numbers ? NUM_H : Math.max(2, Math.min(24, Math.floor(512 / info.rows)));
  const [, fg, muted] = BG[theme];
  /** @type {DrawOp[]} */
  const ops = [];
  const gx = x0 + LABEL_W, gy = y0 + TITLE_H + HEAD_H;
  ops.push({ t: 'text', x: x0, y: y0 + 15, text: info.caption, fill: fg, size: 13, anchor: 'start', bold: true });
  /** @param {number} n @param {number} px */
  const labelsFit = (n, px) => n <= 64 && px >= 9;
  if (labelsFit(info.cols, cw)) info.colLabels.forEach((/** @type {string} */ l, /** @type {number} */ j) => ops.push({ t: 'text', x: gx + (j + 0.5) * cw, y: gy - 5, text: clip(l, cw), fill: muted, size: 10, anchor: 'middle' }));
  if (labelsFit(info.rows, ch)) info.rowLabels.forEach((/** @type {string} */ l, /** @type {number} */ i) => ops.push({ t: 'text', x: gx - 4, y: gy + (i + 0.5) * ch + 3.5, text: clip(l, LABEL_W), fill: muted, size: 10, anchor: 'end' }));
  for (let i = 0; i < info.rows; i++) {
    for (let j = 0; j < info.cols; j++) {
      const v = values[i * info.cols + j];
      const rgb = cellRgb(kind, v, maxAbs, theme);
      ops.push({ t: 'rect', x: gx + j * cw, y: gy + i * ch, w: numbers ? cw - 2 : cw, h: numbers ? ch - 2 : ch, fill: css(rgb) });
      if (numbers) ops.push({ t: 'text', x: gx + j * cw + (cw - 2) / 2, y: gy + i * ch + 14.5, text: m === 'M' ? fmtShort(v) : fmt(v), fill: textOn(rgb), size: 11, anchor: 'middle' });
    }
  }
  return { w: LABEL_W + info.cols * cw, h: TITLE_H + HEAD_H + info.rows * ch, ops };
}

// About 6 px per character at 10 px: keep a label inside its space.
/** @param {string} s @param {number} px */
function clip(s, px) {
  const max = Math.max(1, Math.floor(px / 6.2));
  return s.length > max ? s.slice(0, Math.max(1, max - 1)) + '…' : s;
}

/**
 * The whole view: one row of heatmaps per group, as on the page.
 * @param {View} view @param {{ theme?: Theme, matrices?: readonly MatrixName[] }} [options] @returns {Layout}
 */
export function layoutView(view, { theme = 'light', matrices = EXPORTABLE } = {}) {
  /** @type {MatrixName[][]} */
  const rowsOfPanels = [['X', 'Wq', 'Wk', 'Wv'], ['Q', 'K', 'V'], ['S', 'M'], ['A', 'O']];
  const [, fg] = BG[theme];
  /** @type {DrawOp[]} */
  const ops = [];
  let y = PAD, width = 0;
  const title = `Attention head: ${view.config.tokens.length} tokens${view.step ? ', step ' + view.step : ''}${view.r.causal ? ', causal' : ''}, scale ${fmt(view.r.scale)}`;
  ops.push({ t: 'text', x: PAD, y: y + 14, text: title, fill: fg, size: 14, anchor: 'start', bold: true });
  y += 26;
  for (const group of rowsOfPanels) {
    const list = group.filter((m) => matrices.includes(m) && view.r[m]);
    if (!list.length) continue;
    let x = PAD, h = 0;
    for (const m of list) {
      const hm = layoutHeatmap(view, m, theme, x, y);
      ops.push(...hm.ops);
      x += hm.w + 24;
      h = Math.max(h, hm.h);
    }
    width = Math.max(width, x - 24 + PAD);
    y += h + 18;
  }
  return { w: Math.ceil(width), h: Math.ceil(y), ops };
}

/** @param {string | number} s */
const xml = (s) => String(s).replace(/[<>&"']/g, (c) => (/** @type {Record<string, string>} */ ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' }))[c]);

/** @param {Layout} layout @param {Theme} theme */
function svgOf({ w, h, ops }, theme) {
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w + 2 * PAD}" height="${h + PAD}" viewBox="${-PAD} ${-PAD / 2} ${w + 2 * PAD} ${h + PAD}" font-family="${xml(FONT)}">`];
  out.push(`<rect x="${-PAD}" y="${-PAD / 2}" width="${w + 2 * PAD}" height="${h + PAD}" fill="${BG[theme][0]}"/>`);
  for (const o of ops) {
    if (o.t === 'rect') out.push(`<rect x="${o.x}" y="${o.y}" width="${o.w}" height="${o.h}" rx="${o.w > 8 ? 2 : 0}" fill="${o.fill}"/>`);
    else out.push(`<text x="${o.x}" y="${o.y}" font-size="${o.size}" fill="${o.fill}"${o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : ''}${o.bold ? ' font-weight="bold"' : ''}>${xml(o.text)}</text>`);
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/**
 * One heatmap as an SVG document (every number as text when the matrix is small enough to print them).
 * @param {View} view @param {MatrixName} m @param {{ theme?: Theme }} [options] @returns {string}
 */
export function heatmapSVG(view, m, { theme = 'light' } = {}) {
  return svgOf(layoutHeatmap(view, m, theme), theme);
}

/** The whole view as one SVG document. @param {View} view @param {{ theme?: Theme, matrices?: readonly MatrixName[] }} [opts] @returns {string} */
export function viewSVG(view, opts = {}) {
  return svgOf(layoutView(view, opts), opts.theme || 'light');
}

/**
 * Paints one heatmap (opts.m) or the whole view on a canvas at twice the size; resolves to a PNG Blob.
 * @param {Document} doc @param {View} view
 * @param {{ theme?: Theme, m?: MatrixName | null, matrices?: readonly MatrixName[], scale?: number }} [options]
 * @returns {Promise<Blob>}
 */
export function paintPNG(doc, view, { theme = 'light', m = null, matrices = EXPORTABLE, scale = 2 } = {}) {
  const lay = m ? layoutHeatmap(view, m, theme) : layoutView(view, { theme, matrices });
  const canvas = doc.createElement('canvas');
  const W = lay.w + 2 * PAD, H = lay.h + PAD;
  canvas.width = Math.ceil(W * scale);
  canvas.height = Math.ceil(H * scale);
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.scale(scale, scale);
  ctx.fillStyle = BG[theme][0];
  ctx.fillRect(0, 0, W, H);
  ctx.translate(PAD, PAD / 2);
  for (const o of lay.ops) {
    ctx.fillStyle = o.fill;
    if (o.t === 'rect') ctx.fillRect(o.x, o.y, o.w, o.h);
    else {
      ctx.font = `${o.bold ? 'bold ' : ''}${o.size}px ${FONT}`;
      ctx.textAlign = o.anchor === 'middle' ? 'center' : o.anchor === 'end' ? 'right' : 'left';
      ctx.fillText(o.text, o.x, o.y);
    }
  }
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('the browser could not make a PNG'))), 'image/png'));
}

// ------------------------------------------------------------------ copy as PyTorch

// A Python float literal: every entry a float so torch.tensor makes float32, as the core uses.
/** @param {number} v */
const pyNum = (v) => {
  const s = String(v);
  return /[.e]/.test(s) ? s : s + '.';
};
/** @param {number[][]} rows @param {string} name */
const pyMatrix = (rows, name) => '[' + rows.map((row) => '[' + row.map(pyNum).join(', ') + ']').join(',\n' + ' '.repeat(name.length + 17)) + ']';
// JSON's string escapes are valid Python string literals; U+2028/2029 are escaped as well.
/** @param {string} s */
const pyStr = (s) => JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
/** @param {ArrayLike<number>} arr @param {number} rows @param {number} cols */
const r3 = (arr, rows, cols) => {
  const out = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++) {
      const v = arr[i * cols + j];
      row.push(v === -Infinity ? '-inf' : String(Math.round(v * 1000) / 1000 === 0 ? 0.0 : Math.round(v * 1000) / 1000).replace(/^(-?\d+)$/, '$1.0'));
    }
    out.push('[' + row.join(', ') + ']');
  }
  return '[' + out.join(', ') + ']';
};

/**
 * The head as a short PyTorch script in the lesson's style (LM3-T3, "The same computation in
 * PyTorch"): it rebuilds X, Wq, Wk, Wv (or Q, K, V) from the config and prints Q, K, V, S, A, O
 * rounded to 3 decimals; the comments show what the page shows. User text (token names) only
 * appears inside Python string literals.
 * @param {Config} config @param {ForwardResult} r @returns {string}
 */
export function pytorchScript(config, r) {
  const direct = isDirect(config);
  const L = [];
  L.push('# Attention Explorer: this head in PyTorch, step by step as in the lesson.');
  L.push('# Run it (pip install torch) and compare with the page: it prints the same numbers.');
  L.push('import torch');
  L.push('');
  L.push(`tokens = [${config.tokens.map(pyStr).join(', ')}]  # one row per token`);
  if (direct) {
    L.push(`Q = torch.tensor(${pyMatrix(config.Q, 'Q')})   # (n, dk)`);
    L.push(`K = torch.tensor(${pyMatrix(config.K, 'K')})   # (n, dk)`);
    L.push(`V = torch.tensor(${pyMatrix(config.V, 'V')})   # (n, dv)`);
  } else {
    L.push(`X = torch.tensor(${pyMatrix(config.X, 'X')})   # (n, d): one row per token`);
    L.push(`Wq = torch.tensor(${pyMatrix(config.Wq, 'Wq')})  # (d, dk)`);
    L.push(`Wk = torch.tensor(${pyMatrix(config.Wk, 'Wk')})  # (d, dk)`);
    L.push(`Wv = torch.tensor(${pyMatrix(config.Wv, 'Wv')})  # (d, dv)`);
    L.push('');
    L.push('Q, K, V = X @ Wq, X @ Wk, X @ Wv              # 1. project');
  }
  L.push('');
  L.push('r3 = lambda t: [[round(v, 3) for v in row] for row in t.tolist()]');
  L.push('n, dk = Q.shape');
  if (config.scale == null) L.push('S = Q @ K.T / dk ** 0.5                         # 2-3. score and scale, (n, n)');
  else L.push(`S = Q @ K.T * ${pyNum(config.scale)}                          # 2-3. score and scale by ${config.scale === 1 ? '1 (scaling off)' : config.scale}, (n, n)`);
  if (config.causal) {
    L.push('future = torch.ones(n, n, dtype=torch.bool).triu(1)  # True where key j comes after query i');
    L.push("S = S.masked_fill(future, float('-inf'))        # 4. causal mask");
  }
  L.push('A = torch.softmax(S, dim=-1)                    # 5. softmax over the keys: each row sums to 1');
  L.push('O = A @ V                                       # 6. mix, (n, dv)');
  L.push('');
  /** @type {Record<string, number[]>} */
  const shapes = { Q: [r.n, r.dk], K: [r.m, r.dk], V: [r.m, r.dv], A: [r.n, r.m], O: [r.n, r.dv] };
  const Sshown = Float32Array.from(r.S, (v, k) => (r.M[k] === -Infinity ? -Infinity : v));
  /** @type {Record<string, Float32Array>} */
  const vals = { Q: r.Q, K: r.K, V: r.V, S: Sshown, A: r.A, O: r.O };
  for (const m of ['Q', 'K', 'V', 'S', 'A', 'O']) {
    const [rows, cols] = shapes[m] || [r.n, r.m];
    L.push(`print('${m}', r3(${m}))  # ${r3(vals[m], rows, cols)}`);
  }
  L.push('print(A.sum(dim=-1).tolist())                  # rows sum to 1 (up to rounding)');
  L.push('');
  // The fused function came with PyTorch 2.0 and its scale= argument with 2.1: older versions
  // get the same comparison against the long form, written out again (exp over the row sum).
  const causal = config.causal ? ', is_causal=True' : '';
  L.push('sdpa = getattr(torch.nn.functional, \'scaled_dot_product_attention\', None)');
  L.push('if sdpa is not None:                            # PyTorch 2.0 and later: the fused version');
  if (config.scale == null) {
    L.push(`    ref = sdpa(Q, K, V${causal})`);
  } else {
    L.push('    try:');
    L.push(`        ref = sdpa(Q, K, V${causal}, scale=${pyNum(config.scale)})`);
    L.push('    except TypeError:                           # scale= came with 2.1: scale Q instead');
    L.push(`        ref = sdpa(Q * (${pyNum(config.scale)} * dk ** 0.5), K, V${causal})`);
  }
  L.push('else:                                           # before 2.0: the long form, written out again');
  L.push('    E = torch.exp(S - S.max(dim=-1, keepdim=True).values)');
  L.push('    ref = E / E.sum(dim=-1, keepdim=True) @ V');
  L.push('print(torch.allclose(O, ref, atol=1e-6))       # True: matches PyTorch\'s own computation');
  return L.join('\n') + '\n';
}
