// tiles-view.js: FlashAttention, tile by tile, on the page. mountTilesLab(root, { attn, doc, state, onState }).
// Every number comes from the core's walk (tiles.js computeTiles); hovering or focusing one says
// its arithmetic (tiles.js explainTileCell) in the explanation box.
import { fmt } from '../blocks/format.js';
import {
  computeTiles, shownTile, whereSentence, rowSentences, memorySentence, endSentence, explainTileCell, tileMap, summary,
  HEADS, QUERY_TILES, KEY_TILES, RANDOM, RANDOM_N, MODE, defaultState, writeState,
} from './tiles.js';
import { PRESETS } from '../blocks/presets.js';
import { select, button, matrixFigure, paragraphs, labShell, h } from './ui.js';

/** @typedef {import('./tiles.js').TilesState} TilesState @typedef {import('./tiles.js').Tiles} Tiles */
const PLAY_MS = 700;

/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<TilesState>} [options] */
export function mountTilesLab(root, { attn, doc = root.ownerDocument, state = defaultState(), onState } = /** @type {import('./lab-types').ViewOptions<TilesState>} */ ({})) {
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;
  /** @type {Tiles | null} */
  let shown = null;
  const stop = () => {
    if (playing) clearInterval(playing);
    playing = null;
  };
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'FlashAttention, tile by tile',
    lede: 'The core’s fused form never holds the n × n scores. It takes a few queries against a tile of keys at a time and keeps, for each query row, an online softmax: m, the largest score so far; l, the sum of exp(score − m) so far; and the output so far, the average of the values seen. When a tile brings a larger score, α = exp(m_old − m_new) shrinks what the row had. Step through the tiles in the order the core visits them; hover or focus any number for its arithmetic.',
    render: (/** @type {TilesState} */ s, /** @type {HTMLElement} */ out) => {
      shown = computeTiles(attn, s);
      render(doc, shown, out, (/** @type {number} */ pos) => { stop(); lab.set({ step: pos }); });
    },
  });
  const go = (/** @type {number} */ d) => {
    const total = shown ? shown.run : 1;
    const next = Math.max(0, Math.min(total - 1, (shown ? shown.pos : 0) + d));
    lab.set({ step: next });
    return next < total - 1;
  };
  const play = button(doc, '▶ Play', () => {
    if (playing) return stop(), (play.textContent = '▶ Play');
    if (shown && shown.pos >= shown.run - 1) lab.set({ step: 0 });
    play.textContent = '❚❚ Pause';
    playing = setInterval(() => {
      if (!lab.el.isConnected || !go(1)) stop(), (play.textContent = '▶ Play');
    }, PLAY_MS);
  }, 'play');
  /** @type {[string, string][]} */
  const heads = HEADS.map((k) => [k, k === RANDOM ? `${RANDOM_N} random tokens` : PRESETS[/** @type {import('../../types/presets').PresetName} */ (k)].title]);
  lab.controls.append(
    select(doc, 'Head', heads, state.head, (/** @type {string} */ v) => { stop(); lab.set({ head: v, step: 0 }); }, 'head'),
    select(doc, 'Queries per tile', QUERY_TILES.map((v) => [String(v), String(v)]), String(state.q), (/** @type {string} */ v) => { stop(); lab.set({ q: Number(v), step: 0 }); }, 'q'),
    select(doc, 'Keys per tile', KEY_TILES.map((v) => [String(v), String(v)]), String(state.k), (/** @type {string} */ v) => { stop(); lab.set({ k: Number(v), step: 0 }); }, 'k'),
    button(doc, '◀ Back', () => { stop(); go(-1); }, 'back'),
    button(doc, 'Next tile ▶', () => { stop(); go(1); }, 'next'),
    play,
    button(doc, 'First tile', () => { stop(); lab.set({ step: 0 }); }, 'first'),
  );
  lab.redraw();
  return lab;
}

/** @param {Document} doc @param {Tiles} x @param {HTMLElement} out @param {(pos: number) => void} jump */
function render(doc, x, out, jump) {
  const say = h(doc, 'p', { class: 'lab-explain', attrs: { 'aria-live': 'polite', 'data-role': 'explain' }, text: 'Hover or focus a number of the tile for its arithmetic.' });
  const explainFrom = (/** @type {Event} */ ev) => {
    const el = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest?.('[data-what], [data-row]'));
    if (!el) return;
    const fig = /** @type {HTMLElement | null} */ (el.closest('[data-figure]'));
    const what = el.dataset.what || (fig && fig.dataset.figure === 'tile-p' ? 'p' : 'z');
    say.textContent = explainTileCell(x, /** @type {any} */ (what), Number(el.dataset.r ?? el.dataset.row), Number(el.dataset.j ?? el.dataset.col ?? 0));
  };
  const detail = h(doc, 'div', { class: 'lab-tile', on: { pointerover: explainFrom, focusin: explainFrom } });
  detail.append(stateTable(doc, x), tileFigures(doc, x));
  out.append(
    h(doc, 'p', { class: 'lab-stat', attrs: { 'data-role': 'summary' }, text: summary(x) }),
    mapOf(doc, x, jump),
    h(doc, 'p', { class: 'lab-verdict', attrs: { 'data-role': 'where', 'aria-live': 'polite' }, text: whereSentence(x) }),
    detail, say,
    paragraphs(doc, [...rowSentences(x), memorySentence(x), endSentence(x)]),
  );
}

/** The tiles in the core's order: a row of key tiles per query tile, each computed one a button to go there. @param {Document} doc @param {Tiles} x @param {(pos: number) => void} jump */
function mapOf(doc, x, jump) {
  const grid = h(doc, 'div', { class: 'lab-tilemap', attrs: { role: 'group', 'aria-label': 'The tiles, in the order the core visits them: each row a tile of queries, each button a tile of keys' } });
  const words = { done: 'done', current: 'the tile shown', todo: 'still to come', skipped: 'skipped: the causal mask hides it' };
  for (const row of tileMap(x)) {
    const line = h(doc, 'div', { class: 'lab-tilerow' });
    for (const c of row) {
      const label = `Queries ${c.q0 + 1}${c.rows > 1 ? `–${c.q0 + c.rows}` : ''} × keys ${c.k0 + 1}${c.keys > 1 ? `–${c.k0 + c.keys}` : ''}: ${words[/** @type {keyof typeof words} */ (c.kind)]}`;
      line.append(c.kind === 'skipped'
        ? h(doc, 'span', { class: 'lab-tilecell skipped', text: '×', attrs: { title: label, role: 'img', 'aria-label': label } })
        : h(doc, 'button', { class: `lab-tilecell ${c.kind}`, text: c.kind === 'current' ? '●' : c.kind === 'done' ? '✓' : '', attrs: { type: 'button', title: label, 'aria-label': label, 'aria-current': c.kind === 'current' ? 'step' : null, 'data-step': c.pos }, on: { click: () => jump(c.pos) } }));
    }
    grid.append(line);
  }
  return grid;
}

/** The tile's rows: m, α, l and the rescale before and after, and the output so far (its first columns). @param {Document} doc @param {Tiles} x */
function stateTable(doc, x) {
  const t = shownTile(x), dv = x.walk.dv, shownCols = Math.min(dv, 4), b = t.before, a = t.after;
  const num = (/** @type {number} */ v, /** @type {string} */ what, /** @type {number} */ r, j = 0, label = '') =>
    h(doc, 'button', { class: 'lab-num', text: fmt(v), attrs: { type: 'button', 'data-what': what, 'data-r': r, 'data-j': j, 'aria-label': `${label || what} ${fmt(v)}` } });
  const head = ['row', 'm before', 'm after', 'α', 'l before', 'l after', 'rescale', ...Array.from({ length: shownCols }, (_, c) => `out[${c + 1}]`)];
  const body = [];
  for (let r = 0; r < t.rows; r++) {
    const i = t.q0 + r, tr = h(doc, 'tr', {}, h(doc, 'th', { text: `${i + 1} ${x.tokens[i]}`, attrs: { scope: 'row' } }));
    const cells = [
      num(b.max[r], 'm', r, 0, `row ${i + 1} m before`), num(a.max[r], 'm', r, 0, `row ${i + 1} m after`),
      num(t.alpha[r], 'alpha', r, 0, `row ${i + 1} α`),
      num(b.sum[r], 'l', r, 0, `row ${i + 1} l before`), num(a.sum[r], 'l', r, 0, `row ${i + 1} l after`),
      num(t.rescale[r], 'rescale', r, 0, `row ${i + 1} rescale`),
      ...Array.from({ length: shownCols }, (_, c) => num(a.out[r * dv + c], 'out', r, c, `row ${i + 1} output ${c + 1}`)),
    ];
    for (const c of cells) tr.append(h(doc, 'td', {}, c));
    body.push(tr);
  }
  const table = h(doc, 'table', { class: 'lab-table', attrs: { 'data-role': 'rows' } },
    h(doc, 'caption', { text: `Each row of the tile: its running state before and after${dv > shownCols ? ` (the output’s first ${shownCols} of ${dv} values)` : ''}` }),
    h(doc, 'thead', {}, h(doc, 'tr', {}, ...head.map((c) => h(doc, 'th', { text: c, attrs: { scope: 'col' } })))),
    h(doc, 'tbody', {}, ...body));
  return h(doc, 'div', { class: 'lab-scroll-wrap' }, h(doc, 'div', { class: 'lab-scroll' }, table));
}

/** The tile's z (score plus mask) and p = exp(z − m), as heatmaps. @param {Document} doc @param {Tiles} x */
function tileFigures(doc, x) {
  const t = shownTile(x);
  const rowLabels = Array.from({ length: t.rows }, (_, r) => x.tokens[t.q0 + r]), colLabels = Array.from({ length: t.keys }, (_, j) => x.tokens[t.k0 + j]);
  return h(doc, 'div', { class: 'lab-row' },
    matrixFigure(doc, { name: 'z', id: 'tile-z', kind: 'diverging', rows: t.rows, cols: t.keys, rowLabels, colLabels, values: t.z, about: 'this tile’s scores, scaled, plus the mask (−∞: hidden); rows: queries, columns: keys' }).el,
    matrixFigure(doc, { name: 'p', id: 'tile-p', kind: 'sequential', rows: t.rows, cols: t.keys, rowLabels, colLabels, values: t.p, about: 'exp(z − m), with the row’s m after this tile' }).el);
}
