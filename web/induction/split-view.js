// @ts-check
// induction/split-view.js: "Why it works": one query's scores of a layer-2 head split by the
// source of the keys (web/induction/state.js splitTable), as a heatmap with its sentence, and
// the arithmetic of the cell hovered or focused. It keeps its heatmap and the cell picked;
// web/induction/events.js reports the pointer and focus, panel.js decides when to redraw.

import { MODEL, inductionKeys, splitSentence, explainSplit } from './words.js';
import { splitTable, queryOf } from './state.js';
import { maxAbsFinite } from '../blocks/colors.js';
import { createHeatmap } from '../blocks/heatmap.js';
import { fmt } from '../blocks/format.js';

/** @typedef {import('./types').InductionUpdate} Last @typedef {import('../blocks/heatmap.js').Cursor} Cursor */

/**
 * @param {Document} doc @param {import('./types').Lookup} $ the panel's elements by id
 */
export function createSplitView(doc, $) {
  /** @type {import('../blocks/heatmap.js').Heatmap | null} */
  let heatmap = null;
  /** @type {Cursor | null} */
  let cell = null;

  /** The query select: one option per token, renamed in place for another sequence. @param {Last['view']} v @param {number} i */
  function fillQueries(v, i) {
    const sel = $('ind-query'), n = MODEL.n;
    if (sel.dataset.tokens !== v.tokens.join(' ')) {
      if (sel.options.length !== n) {
        sel.textContent = '';
        for (let q = 0; q < n; q++) sel.appendChild(doc.createElement('option')).value = String(q);
      }
      v.tokens.forEach((tok, q) => (sel.options[q].textContent = `${tok} (${q + 1})${v.induct[q] >= 0 ? '' : ', no earlier copy'}`));
      sel.dataset.tokens = v.tokens.join(' ');
    }
    sel.value = String(i);
  }

  return {
    /** Whether the update has a split to show (the opened head is in layer 2). @param {Last} last */
    shows: (last) => !!(last.view.head && last.view.head.split),
    /** The picked cell as text ('' for none), for the panel's "did anything change" key. */
    cellKey: () => (cell ? cell.i + ',' + cell.j : ''),
    /**
     * Picks the cell whose arithmetic is explained; false when it is the one picked already.
     * @param {Cursor | null} c
     */
    pick(c) {
      if (!c || (cell && cell.i === c.i && cell.j === c.j)) return false;
      cell = c;
      return true;
    },
    /** The cell under a pointer event. @param {PointerEvent} ev */
    cellAt: (ev) => (heatmap ? heatmap.cellAt(ev) : null),
    /**
     * Draws the split of query `query` (null: the last token) for the opened head, or hides the section.
     * @param {Last} last @param {number | null} query @param {import('../blocks/colors.js').Theme} theme
     */
    draw(last, query, theme) {
      const box = $('ind-split-box');
      const hv = last.view.head;
      if (!hv || !hv.split) {
        box.hidden = true;
        return;
      }
      box.hidden = false;
      const v = last.view, i = queryOf(query, MODEL.n), H = last.settings.heads;
      fillQueries(v, i);
      const t = splitTable(/** @type {typeof hv & { split: Float32Array[] }} */ (hv), v.tokens, i, H);
      if (!heatmap || heatmap.cols !== t.keys) {
        $('ind-split').textContent = '';
        heatmap = createHeatmap(doc, { m: 'split', rows: t.rows.length, cols: t.keys, rowLabels: t.rows, colLabels: t.colLabels, caption: 'score shares: source × key', mode: 'cells' });
        $('ind-split').appendChild(heatmap.el);
        cell = null;
      } else heatmap.setLabels(t.rows, t.colLabels); // another sequence: the same cells, its tokens
      heatmap.update(t.data, { kind: 'diverging', maxAbs: maxAbsFinite(t.data) || 1, theme, format: fmt, label: (r, c, x) => `${t.rows[r]}, key ${v.tokens[c]} ${c + 1}: ${fmt(x)}` });
      heatmap.setMarks('cur', inductionKeys(v.tokens, i).map((j) => ({ row: t.rows.length - 1, col: j })));
      const said = { tokens: v.tokens, i, sources: t.sources, parts: t.parts, total: t.total };
      $('ind-split-says').textContent = splitSentence({ ...said, head: hv.index, heads: H });
      if (cell && cell.i <= t.parts.length && cell.j <= i) {
        const ex = explainSplit({ ...said, j: cell.j, p: cell.i, scale: t.scale });
        $('ind-split-title').textContent = ex.title;
        $('ind-split-explain').textContent = ex.text;
      } else {
        $('ind-split-title').textContent = '';
        $('ind-split-explain').textContent = 'Hover or focus a cell to see the arithmetic.';
      }
    },
  };
}
