// @ts-check
// induction/grid-view.js: every head of the model (and of the one-layer control) as a card: its
// attention pattern, its scores, a sparkline of them over training, and the open and ablate
// buttons (web/induction/events.js answers their clicks). The cards are built once per model.

import { MODEL, headName, headLabel, controlHeadName } from './words.js';
import { cellRgb, maskedRgb } from '../blocks/colors.js';
import { setText, setAttr } from '../blocks/dom.js';
import { fmt } from '../blocks/format.js';
import { spark, sparkSvg } from './charts-view.js';

/** @typedef {import('./types').InductionUpdate} Last @typedef {{ prev: number[], induction: number[] }} Scores */

/**
 * One pixel per attention weight, put in one go and scaled up by CSS (image-rendering: pixelated).
 * @param {HTMLCanvasElement} canvas @param {Float32Array} A @param {number} n @param {import('../blocks/colors.js').Theme} theme
 */
function drawPattern(canvas, A, n, theme) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const img = ctx.createImageData(n, n), px = img.data, masked = maskedRgb(theme);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const rgb = j > i ? masked : cellRgb('sequential', A[i * n + j], 1, theme), at = 4 * (i * n + j);
      px[at] = rgb[0]; px[at + 1] = rgb[1]; px[at + 2] = rgb[2]; px[at + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}

/**
 * One head's card: the open button (its pattern and name), its scores, its sparkline, and an
 * ablate button for the model's heads (the control's heads are shown, not opened).
 * @param {Document} doc @param {string} model @param {number} index @param {number} H heads a layer
 */
function headCard(doc, model, index, H) {
  const card = doc.createElement('div');
  card.className = 'ind-head';
  card.dataset.model = model;
  card.dataset.head = String(index);
  const open = card.appendChild(doc.createElement('button'));
  open.type = 'button';
  open.className = 'ind-open';
  open.dataset.action = 'open';
  const canvas = open.appendChild(doc.createElement('canvas'));
  canvas.width = canvas.height = MODEL.n;
  canvas.setAttribute('aria-hidden', 'true');
  open.appendChild(doc.createElement('span')).className = 'ind-name';
  card.appendChild(doc.createElement('p')).className = 'ind-scores';
  card.appendChild(sparkSvg(doc));
  if (model === 'model') {
    const ab = card.appendChild(doc.createElement('button'));
    ab.type = 'button';
    ab.className = 'ind-ablate';
    ab.dataset.action = 'ablate';
    ab.textContent = `Ablate ${headName(index, H)}`;
  } else {
    open.disabled = true;
  }
  return card;
}

/** One card per head, a row per layer, a box per model. Built once. @param {HTMLElement} grid @param {Last} last */
function buildGrid(grid, last) {
  const doc = /** @type {Document} */ (grid.ownerDocument);
  grid.textContent = '';
  const H = last.settings.heads;
  /** @type {{ key: string, title: string, layers: number }[]} */
  const models = [{ key: 'model', title: 'Two layers', layers: MODEL.layers }];
  if (last.view.controlA) models.push({ key: 'control', title: 'One-layer control', layers: 1 });
  for (const m of models) {
    const box = grid.appendChild(doc.createElement('div'));
    box.className = 'ind-model';
    box.appendChild(doc.createElement('h4')).textContent = m.title;
    for (let l = 0; l < m.layers; l++) {
      const row = box.appendChild(doc.createElement('div'));
      row.className = 'ind-layer';
      for (let h = 0; h < H; h++) row.appendChild(headCard(doc, m.key, l * H + h, H));
    }
  }
  grid.dataset.built = `${models.map((m) => m.key).join(',')}:${H}`;
}

/**
 * Every head's card from the latest update; `head` is the opened head, `ablate` the ablated ones.
 * @param {HTMLElement} grid @param {Last} last @param {{ head: number | null, ablate: number[], theme: import('../blocks/colors.js').Theme }} shown
 */
export function drawGrid(grid, last, { head, ablate, theme }) {
  const H = last.settings.heads;
  const want = `${last.view.controlA ? 'model,control' : 'model'}:${H}`;
  if (grid.dataset.built !== want) buildGrid(grid, last);
  const e = last.evals[last.evals.length - 1];
  const steps = last.evals.map((x) => x.step);
  // A card's parts are there (buildGrid made them); a control card only with the control
  // model, whose A and scores the update and every evaluation then have.
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (grid.querySelectorAll('.ind-head'))) {
    const h = Number(card.dataset.head), ctl = card.dataset.model === 'control';
    const A = ctl ? /** @type {Float32Array[]} */ (last.view.controlA)[h] : last.view.A[h];
    const src = /** @type {Scores} */ (ctl ? e.control : e);
    drawPattern(/** @type {HTMLCanvasElement} */ (card.querySelector('canvas')), A, MODEL.n, theme);
    const open = /** @type {HTMLButtonElement} */ (card.querySelector('.ind-open'));
    const name = ctl ? controlHeadName(h) : headName(h, H);
    setText(/** @type {Element} */ (card.querySelector('.ind-name')), `Head ${name}`);
    const label = ctl ? `Head ${name} of the one-layer control: previous-token ${fmt(src.prev[h])}, induction ${fmt(src.induction[h])}` : headLabel(h, src.prev[h], src.induction[h], H);
    setText(/** @type {Element} */ (card.querySelector('.ind-scores')), `previous-token ${fmt(src.prev[h])} · induction ${fmt(src.induction[h])}`);
    setAttr(open, 'aria-label', ctl ? label : `${label}. Open it in the explorer`);
    setAttr(open, 'aria-pressed', String(!ctl && head === h));
    card.classList.toggle('selected', !ctl && head === h);
    const series = /** @type {Scores[]} */ (ctl ? last.evals.map((x) => x.control) : last.evals);
    spark(/** @type {SVGSVGElement} */ (card.querySelector('.ind-spark')), steps, series.map((x) => x.prev[h]), series.map((x) => x.induction[h]));
    const ab = card.querySelector('.ind-ablate');
    if (ab) {
      const on = ablate.includes(h);
      setAttr(ab, 'aria-pressed', String(on));
      setText(ab, on ? `Restore ${headName(h, H)}` : `Ablate ${headName(h, H)}`);
      card.classList.toggle('ablated', on);
    }
  }
}
