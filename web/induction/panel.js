// induction-panel.js: "Watch an induction head form" (?mode=induction, and mode="induction" on the
// element). The one file that wires this page's events: the engine (web/induction/engine.js)
// trains in a Web Worker and sends an update after every slice of steps; the latest update is
// drawn on the next animation frame. Everything said and every chart's geometry come from the
// pure module web/induction/words.js; a head opened here is shown by the explorer (mountExplorer's
// showHead), which recomputes it with the same core and explains every cell.

import { mountExplorer, sharedCore } from '../explorer/index.js';
import {
  MODEL, LR_CHOICES, HEAD_CHOICES, MAX_STEPS, headsLabel, CRITERIA, readInductionUrl, writeInductionUrl, headName, dropStep, formedAt,
  linePath, binned, narrate, ablationSentence, circuitAblation, splitSentence, sourceNames, explainSplit, residualParts, statusLine,
  headLabel, curveCaption, inductionKeys, sourceLabels,
} from './words.js';
import { niceCeil } from '../train/words.js';
import { cellRgb, maskedRgb, css, maxAbsFinite } from '../blocks/colors.js';
import { createHeatmap } from '../blocks/heatmap.js';
import { setText, setAttr } from '../blocks/dom.js';
import { fmt } from '../blocks/format.js';
import { createEngine } from './engine.js';
import { workerUrl } from './worker-url.js';
import { setMarkup, scriptUrl } from '../blocks/trusted-types.js';

/** @typedef {import('./types').EngineMessage} EngineMessage @typedef {import('./types').EngineRequest} EngineRequest */
/** @typedef {{ x: number, y: number, w: number, h: number }} Box @typedef {import('./types').InductionUpdate} Last */

const SVG = 'http://www.w3.org/2000/svg';
const CURVE = { width: 420, height: 190 };
const SPARK = { width: 150, height: 44 };
// While training, the opened head is re-sent to the explorer at most this often (its dozen
// heatmaps cost more than the rest of the page): input stays answered within a frame or two.
const EXPLORER_EVERY_MS = 1000;
// While training, the panel redraws at most this often (the worker sends about 25 updates a
// second): the page's thread stays mostly idle, free to answer input.
const PANEL_EVERY_MS = 100;
// What of the explorer stays on: the weights belong to the model, so no presets or editing.
/** @type {import('../../types/element').ControlGroup[]} */
export const EXPLORER_CONTROLS = ['theme', 'steps', 'follow', 'explain', 'export'];

// Constant markup (no user text ever goes through innerHTML).
const MARKUP = `
<h2 class="ind-title">Watch an induction head form</h2>
<p class="note">A model with two layers of attention heads learns to predict the next word of sequences like
  <q>BOS K F Q K F Q K F…</q>: some random words, then the same words again. The first time through, the next word cannot
  be known. After that it can, if one head looks at the previous token and a head in layer 2 uses that to find where
  the current word appeared before and copy the word that came next: an <em>induction head</em>. Press Train and watch
  the repeated part’s loss drop when they start working together.</p>
<div class="ind-controls">
  <div class="ind-buttons" role="group" aria-label="Training">
    <button type="button" id="ind-run" aria-pressed="false">▶ Train</button>
    <button type="button" id="ind-step">Single step</button>
    <button type="button" id="ind-reset" title="Back to step 0: the same initial weights and the same training sequences">Reset</button>
    <button type="button" id="ind-reroll" title="Different random initial weights and sequences (a new seed)">New random weights</button>
  </div>
  <div class="ind-buttons">
    <label>Learning rate <select id="ind-lr"></select></label>
    <label>Model <select id="ind-heads" title="Changing it starts a new run from step 0"></select></label>
    <label><input type="checkbox" id="ind-control"> Train a one-layer control alongside</label>
    <button type="button" id="ind-example" title="Show the heads on another sequence">Another sequence</button>
    <button type="button" id="ind-link">Copy link to this step</button>
  </div>
  <p class="ind-count"><span id="ind-status">Step 0</span> <span id="ind-where" class="note"></span></p>
</div>
<p id="ind-says" class="ind-says" aria-live="polite"></p>
<div class="ind-charts">
  <figure class="ind-chart">
    <svg id="ind-curve" role="img" aria-labelledby="ind-curve-title ind-curve-cap"><title id="ind-curve-title">Loss curves</title></svg>
    <ul id="ind-curve-legend" class="ind-legend">
      <li><span class="swatch repeat"></span>repeated part</li>
      <li><span class="swatch first"></span>first part</li>
      <li class="control"><span class="swatch control"></span>one-layer control, repeated part</li>
    </ul>
    <figcaption id="ind-curve-cap" class="note"></figcaption>
  </figure>
  <figure class="ind-chart" id="ind-kcomp-box">
    <svg id="ind-kcomp" role="img" aria-labelledby="ind-kcomp-title ind-kcomp-cap"><title id="ind-kcomp-title">K-composition over training</title></svg>
    <ul id="ind-kcomp-legend" class="ind-legend"></ul>
    <figcaption id="ind-kcomp-cap" class="note"></figcaption>
  </figure>
</div>
<h3 class="ind-h">Every head on <span id="ind-seq-name">the sequence</span></h3>
<p id="ind-seq" class="ind-seq"></p>
<p class="note">Each square is a head’s attention A: a row per query, a column per key (darker = more weight). A previous-token
  head is a line just below the diagonal; an induction head a line k − 1 below it, where k is the length of the repeated part. The small
  chart under each head shows its previous-token score (how much attention goes to the token just before) and its induction score
  (how much goes to the token after the earlier copy) over training. Click a head to open it in the explorer below.</p>
<div id="ind-grid" class="ind-grid"></div>
<p class="ind-circuit"><button type="button" id="ind-ablate-circuit" aria-pressed="false" hidden></button></p>
<p id="ind-ablation" class="ind-ablation" aria-live="polite"></p>
<section id="ind-split-box" class="ind-split" aria-labelledby="ind-split-h" hidden>
  <h3 id="ind-split-h" class="ind-h">Why it works: where a layer-2 key’s score comes from</h3>
  <p class="note">A layer-2 head reads the residual stream, the sum of the embeddings and of what every layer-1 head wrote. Its keys
    K = X·Wk are therefore a sum too, and so is each score q·k. The rows below split one query’s scores by source. Hover a cell.</p>
  <label>Query <select id="ind-query"></select></label>
  <div id="ind-split" class="scroller"></div>
  <p id="ind-split-says" class="note"></p>
  <p id="ind-split-title" class="explain-title"></p>
  <p id="ind-split-explain" class="note"></p>
</section>
<div id="ind-error" class="error" role="alert" hidden></div>`;

/**
 * Starts the engine in a Web Worker, or on this thread when no worker can be had (a page opened
 * from file://, dist/'s bundle, a policy that forbids it): { kind, post(msg), dispose() }.
 * @param {Window & typeof globalThis} win @param {(msg: EngineMessage) => void} onMessage @param {{ worker?: boolean }} [options]
 */
function startRunner(win, onMessage, { worker = true } = {}) {
  /** @type {ReturnType<typeof createEngine> | null} */
  let local = null;
  /** @type {EngineRequest[]} */
  let queue = [];
  /** @type {Worker | null} */
  let w = null;
  let heard = false;
  const runLocal = async () => {
    const attn = await sharedCore();
    // short slices on the page's thread, so input is answered between them
    local = createEngine(attn, (/** @type {EngineMessage} */ m) => onMessage(m), { sliceMs: 12 });
    for (const m of queue.splice(0)) local.handle(m);
  };
  /** @type {import('./types').Runner} */
  const runner = {
    kind: 'page',
    post(msg) {
      if (w) {
        if (!heard) queue.push(msg);
        w.postMessage(msg);
      } else if (local) local.handle(msg);
      else queue.push(msg);
    },
    dispose() {
      if (w) w.terminate();
      if (local) local.dispose();
      w = local = null;
    },
  };
  const url = worker && typeof win.Worker === 'function' ? workerUrl() : null;
  if (url) {
    try {
      w = new win.Worker(scriptUrl(url), { type: 'module' });
      runner.kind = 'worker';
      w.onmessage = (ev) => {
        heard = true;
        queue = [];
        onMessage(ev.data);
      };
      w.onerror = (ev) => {
        if (heard) return onMessage({ type: 'error', message: ev.message || 'the training worker stopped' });
        ev.preventDefault();
        /** @type {Worker} */ (w).terminate(); // the worker that failed
        w = null;
        runner.kind = 'page';
        runLocal(); // replays what was sent to the worker
      };
    } catch {
      w = null;
    }
  }
  if (!w) runLocal();
  return runner;
}

/**
 * Mounts the panel in `container` and drives `explorer` (mountExplorer's api, mounted with
 * url: false). options: { doc, initial: readInductionUrl's state, onUrl(query), worker }.
 * Returns { state, step(k), play(), pause(), flush(), whenIdle(), destroy() }.
 * @param {HTMLElement} container
 * @param {{ doc: Document, explorer: import('../explorer/mount.js').ExplorerApi, initial: ReturnType<typeof readInductionUrl>,
 *   onUrl?: (query: string) => void, worker?: boolean }} options
 */
export function mountInductionPanel(container, { doc, explorer, initial, onUrl = (/** @type {string} */ _query) => {}, worker = true }) {
  const win = /** @type {Window & typeof globalThis} */ (doc.defaultView); // the document is in a window
  const t = doc.createElement('template');
  setMarkup(t, MARKUP);
  container.appendChild(t.content);
  // the markup above has every id, and the types of the elements Lookup names
  const $ = /** @type {import('./types').Lookup} */ (/** @type {unknown} */ ((/** @type {string} */ id) => container.querySelector('#' + id)));

  // The page's own state: what the learner asked for. Everything about the model is in `last`,
  // the engine's latest update (never edited here).
  const st = {
    seed: initial.seed, lr: initial.lr, heads: initial.heads, ex: initial.ex, head: initial.head, ablate: initial.ablate.slice(), control: initial.control,
    playing: false, error: initial.notes.join(' '), query: /** @type {number | null} */ (null),
  };
  /** @type {import('./types').InductionUpdate | null} */
  let last = null;
  /** @type {string | null} */
  let shownHead = null;
  /** @type {((v: void) => void)[]} */
  let waiting = [];
  let frame = 0, shownAt = 0, later = 0;
  let drawnAt = 0, throttled = 0, splitAt = 0, splitKey = '';
  let written = ''; // the query last given to onUrl: history.replaceState is slow, and most redraws change nothing in it
  /** @type {((msg: import('./types').BenchResult) => void)[]} */
  const benches = [];
  /** @type {{ split: import('../blocks/heatmap.js').Heatmap | null, cell: import('../blocks/heatmap.js').Cursor | null }} */
  const hm = { split: null, cell: null };

  const runner = startRunner(win, receive, { worker });

  /** @param {EngineMessage} msg */
  function receive(msg) {
    if (msg.type === 'bench') return benches.splice(0).forEach((f) => f(msg));
    if (msg.type === 'error') {
      st.error = `Training stopped: ${msg.message}.`;
      st.playing = false;
    } else {
      last = msg;
      st.playing = msg.running;
    }
    if (!st.playing) for (const f of waiting.splice(0)) f();
    const wait = PANEL_EVERY_MS - (win.performance.now() - drawnAt);
    if (st.playing && wait > 0) {
      if (!throttled) throttled = win.setTimeout(() => ((throttled = 0), schedule()), wait);
    } else schedule();
  }

  function schedule() {
    if (!frame) frame = win.requestAnimationFrame(draw);
  }

  // ---------------------------------------------------------------- drawing helpers

  /** @param {Element} parent @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
  function svgEl(parent, tag, attrs, text) {
    const e = parent.appendChild(doc.createElementNS(SVG, tag));
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text != null) e.textContent = text;
    return e;
  }
  const theme = () => explorer.state.theme;
  /**
   * Whether `el` shows what `key` names already; if not, it is marked as showing it (the caller
   * draws it now). A chart whose numbers did not change is left alone: the evaluations behind
   * the sparklines and K-composition arrive every few steps, the panel redraws ten times a second.
   * @param {HTMLElement | SVGElement} el @param {string} key
   */
  const drawnFor = (el, key) => el.dataset.drawn === key || ((el.dataset.drawn = key), false);

  /**
   * A chart's layer of lines, emptied: its frame (axes, grid) is drawn by frame() only when key,
   * the chart's scale, changes. Training redraws the lines ten times a second; the frame stays.
   */
  /** @param {SVGSVGElement} svg @param {string} key @param {() => void} frame @returns {SVGGElement} */
  function lines(svg, key, frame) {
    if (svg.dataset.frame !== key) {
      for (const c of [...svg.children]) if (c.tagName !== 'title') c.remove();
      frame();
      svgEl(svg, 'g', {});
      svg.dataset.frame = key;
    }
    const g = /** @type {SVGGElement} */ (svg.lastChild); // the layer made above
    g.textContent = '';
    return g;
  }

  /** @param {Last} last @param {number | null} drop */
  function drawCurve(last, drop) {
    const svg = $('ind-curve');
    const { width, height } = CURVE;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const box = { x: 44, y: 10, w: width - 60, h: height - 46 };
    const L = last.losses, n = L.first.length;
    const top = Math.max(1, ...[L.first[0], L.repeat[0], L.control[0], last.evals[0].lossFirst].filter(Number.isFinite));
    const yMax = niceCeil(top), xMax = niceCeil(Math.max(n, 100));
    const g = lines(svg, `${xMax} ${yMax}`, () => axes(svg, box, xMax, yMax, 'loss (nats)'));
    const cols = Math.floor(box.w);
    for (const [key, cls] of /** @type {['first' | 'control' | 'repeat', string][]} */ ([['first', 'first'], ['control', 'control'], ['repeat', 'repeat']])) {
      if (!L[key].length) continue;
      const b = binned(L[key], cols);
      svgEl(g, 'path', { d: linePath(b.steps, b.values, box, xMax, yMax), class: 'ind-line ' + cls });
    }
    if (drop != null) {
      const x = box.x + (drop / xMax) * box.w;
      svgEl(g, 'line', { x1: x, x2: x, y1: box.y, y2: box.y + box.h, class: 'ind-drop' });
      svgEl(g, 'text', { x: x + 4, y: box.y + 12, class: 'ind-drop-label' }, `drop: step ${drop}`);
    }
    const legend = $('ind-curve-legend');
    /** @type {HTMLElement} */ (legend.querySelector('.control')).hidden = !L.control.length; // an <li> of the markup
  }

  /** A chart's frame in `box`: dashed lines and labels at 0, half and yMax, the x ticks, both axis titles. */
  /** @param {SVGSVGElement} svg @param {Box} box @param {number} xMax @param {number} yMax @param {string} yTitle */
  function axes(svg, box, xMax, yMax, yTitle) {
    for (const v of [0, yMax / 2, yMax]) {
      const y = box.y + box.h - (v / yMax) * box.h;
      svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: y, y2: y, class: 'grid' });
      svgEl(svg, 'text', { x: box.x - 4, y: y + 4, 'text-anchor': 'end', class: 'tick' }, String(v));
    }
    for (const v of [0, xMax / 2, xMax]) svgEl(svg, 'text', { x: box.x + (v / xMax) * box.w, y: box.y + box.h + 14, 'text-anchor': 'middle', class: 'tick' }, String(v));
    svgEl(svg, 'line', { x1: box.x, x2: box.x, y1: box.y, y2: box.y + box.h, class: 'axis' });
    svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h, class: 'axis' });
    svgEl(svg, 'text', { x: box.x + box.w / 2, y: CURVE.height - 4, 'text-anchor': 'middle', class: 'axis-title' }, 'training step');
    svgEl(svg, 'text', { x: 12, y: box.y + box.h / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${box.y + box.h / 2})` }, yTitle);
  }

  /** The K-composition scores over training: one line per (layer-1 head -> layer-2 head). */
  /** @param {Last} last */
  function drawComposition(last) {
    const svg = $('ind-kcomp');
    const { width, height } = CURVE;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    // the evaluations that have it (a two-layer model's always do)
    const ev = /** @type {(import('./words.js').Evaluation & { composition: number[][] })[]} */ (last.evals.filter((e) => e.composition));
    const box = { x: 44, y: 10, w: width - 60, h: height - 46 };
    const xMax = niceCeil(Math.max(last.step, 100));
    let yMax = 0;
    for (const e of ev) for (const row of e.composition) for (const v of row) yMax = Math.max(yMax, v);
    yMax = niceCeil(Math.max(yMax, 0.1));
    if (drawnFor(svg, JSON.stringify([xMax, yMax, ev.map((e) => [e.step, e.composition])]))) return;
    const g = lines(svg, `${xMax} ${yMax}`, () => axes(svg, box, xMax, yMax, 'K-composition'));
    const H = last.settings.heads, steps = ev.map((e) => e.step);
    const latest = ev[ev.length - 1];
    /** @type {[string, string][]} */
    const items = [];
    let k = 0;
    for (let a = 0; a < H; a++) {
      for (let b = 0; b < H; b++, k++) {
        svgEl(g, 'path', { d: linePath(steps, ev.map((e) => e.composition[a][b]), box, xMax, yMax), class: `ind-line kc kc${k}` });
        items.push([`kc kc${k}`, `${headName(a, H)} → ${headName(H + b, H)}: ${latest ? fmt(latest.composition[a][b]) : ''}`]);
      }
    }
    const legend = $('ind-kcomp-legend');
    legend.textContent = '';
    for (const [cls, text] of items) {
      const li = legend.appendChild(doc.createElement('li'));
      li.appendChild(doc.createElement('span')).className = 'swatch ' + cls;
      li.appendChild(doc.createTextNode(text));
    }
    $('ind-kcomp-cap').textContent = 'How much each layer-2 head’s keys read what a layer-1 head writes (K-composition, from the weights: ‖W_QK·W_OVᵀ‖ / (‖W_QK‖·‖W_OV‖); random weights score about 0.2). The induction head’s line rises when it starts using the previous-token head.';
  }

  // One pixel per attention weight, put in one go and scaled up by CSS (image-rendering: pixelated).
  /** @param {HTMLCanvasElement} canvas @param {Float32Array} A @param {number} n */
  function drawPattern(canvas, A, n) {
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const th = theme(), img = ctx.createImageData(n, n), px = img.data, masked = maskedRgb(th);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const rgb = j > i ? masked : cellRgb('sequential', A[i * n + j], 1, th), at = 4 * (i * n + j);
        px[at] = rgb[0]; px[at + 1] = rgb[1]; px[at + 2] = rgb[2]; px[at + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  }

  /** @param {SVGSVGElement} svg @param {number[]} steps @param {number[]} prev @param {number[]} ind */
  function spark(svg, steps, prev, ind) {
    const { width, height } = SPARK;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const box = { x: 1, y: 2, w: width - 2, h: height - 4 };
    const xMax = Math.max(steps[steps.length - 1] || 0, 10);
    if (drawnFor(svg, `${steps}|${prev}|${ind}`)) return;
    const g = lines(svg, 'spark', () => {
      svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h, class: 'axis' });
      svgEl(svg, 'line', { x1: box.x, x2: box.x + box.w, y1: box.y + box.h / 2, y2: box.y + box.h / 2, class: 'grid' });
    });
    svgEl(g, 'path', { d: linePath(steps, prev, box, xMax, 1), class: 'ind-line prev' });
    svgEl(g, 'path', { d: linePath(steps, ind, box, xMax, 1), class: 'ind-line induct' });
  }

  /** One card per head: its pattern, its scores, a sparkline, and the buttons. Built once. @param {Last} last */
  function buildGrid(last) {
    const grid = $('ind-grid');
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
        for (let h = 0; h < H; h++) {
          const index = l * H + h;
          const card = row.appendChild(doc.createElement('div'));
          card.className = 'ind-head';
          card.dataset.model = m.key;
          card.dataset.head = String(index);
          const open = card.appendChild(doc.createElement('button'));
          open.type = 'button';
          open.className = 'ind-open';
          open.dataset.action = 'open';
          const canvas = open.appendChild(doc.createElement('canvas'));
          canvas.width = canvas.height = MODEL.n;
          canvas.setAttribute('aria-hidden', 'true');
          const name = open.appendChild(doc.createElement('span'));
          name.className = 'ind-name';
          const scores = card.appendChild(doc.createElement('p'));
          scores.className = 'ind-scores';
          const sp = card.appendChild(doc.createElementNS(SVG, 'svg'));
          sp.setAttribute('class', 'ind-spark');
          sp.setAttribute('aria-hidden', 'true');
          if (m.key === 'model') {
            const ab = card.appendChild(doc.createElement('button'));
            ab.type = 'button';
            ab.className = 'ind-ablate';
            ab.dataset.action = 'ablate';
            ab.textContent = `Ablate ${headName(index, H)}`;
          } else {
            open.disabled = true; // the control's heads are shown, not opened
          }
        }
      }
    }
    grid.dataset.built = `${models.map((m) => m.key).join(',')}:${H}`;
  }

  /** @param {Last} last */
  function drawGrid(last) {
    const grid = $('ind-grid');
    const H = last.settings.heads;
    const want = `${last.view.controlA ? 'model,control' : 'model'}:${H}`;
    if (grid.dataset.built !== want) buildGrid(last);
    const e = last.evals[last.evals.length - 1];
    const steps = last.evals.map((x) => x.step);
    // A card's parts are there (buildGrid made them); a control card only with the control
    // model, whose A and scores the update and every evaluation then have.
    /** @typedef {{ prev: number[], induction: number[] }} Scores */
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (grid.querySelectorAll('.ind-head'))) {
      const h = Number(card.dataset.head), ctl = card.dataset.model === 'control';
      const A = ctl ? /** @type {Float32Array[]} */ (last.view.controlA)[h] : last.view.A[h];
      const src = /** @type {Scores} */ (ctl ? e.control : e);
      drawPattern(/** @type {HTMLCanvasElement} */ (card.querySelector('canvas')), A, MODEL.n);
      const open = /** @type {HTMLButtonElement} */ (card.querySelector('.ind-open'));
      setText(/** @type {Element} */ (card.querySelector('.ind-name')), `Head ${headName(h, H)}`);
      const label = headLabel(h, src.prev[h], src.induction[h], H);
      setText(/** @type {Element} */ (card.querySelector('.ind-scores')), `previous-token ${fmt(src.prev[h])} · induction ${fmt(src.induction[h])}`);
      setAttr(open, 'aria-label', ctl ? `Control ${label}` : `${label}. Open it in the explorer`);
      setAttr(open, 'aria-pressed', String(!ctl && st.head === h));
      card.classList.toggle('selected', !ctl && st.head === h);
      const series = /** @type {Scores[]} */ (ctl ? last.evals.map((x) => x.control) : last.evals);
      spark(/** @type {SVGSVGElement} */ (card.querySelector('.ind-spark')), steps, series.map((x) => x.prev[h]), series.map((x) => x.induction[h]));
      const ab = card.querySelector('.ind-ablate');
      if (ab) {
        const on = st.ablate.includes(h);
        setAttr(ab, 'aria-pressed', String(on));
        setText(ab, on ? `Restore ${headName(h, H)}` : `Ablate ${headName(h, H)}`);
        card.classList.toggle('ablated', on);
      }
    }
  }

  /** The split of one query's scores (layer-2 head) by the source of the keys. */
  /** @param {Last} last */
  function drawSplit(last) {
    const box = $('ind-split-box');
    const hv = last.view.head;
    if (!hv || !hv.split) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const v = last.view, n = MODEL.n, dh = MODEL.dh, scale = 1 / Math.sqrt(dh);
    // While training, the table (a hundred cells, each with its text and label) is redrawn with
    // the explorer, at most every EXPLORER_EVERY_MS, unless the learner picked a query or a cell.
    const key = `${hv.index}:${v.tokens.join(' ')}:${st.query}:${hm.cell ? hm.cell.i + ',' + hm.cell.j : ''}`;
    const t = win.performance.now();
    if (st.playing && splitKey === key && t - splitAt < EXPLORER_EVERY_MS) {
      if (!later) later = win.setTimeout(() => ((later = 0), schedule()), EXPLORER_EVERY_MS - (t - splitAt));
      return;
    }
    splitKey = key;
    splitAt = t;
    // the query: the one chosen, else the last token of the repeated part
    const sel = $('ind-query');
    if (sel.dataset.tokens !== v.tokens.join(' ')) {
      // another sequence renames the options in place
      if (sel.options.length !== n) {
        sel.textContent = '';
        for (let i = 0; i < n; i++) sel.appendChild(doc.createElement('option')).value = String(i);
      }
      v.tokens.forEach((tok, i) => (sel.options[i].textContent = `${tok} (${i + 1})${v.induct[i] >= 0 ? '' : ', no earlier copy'}`));
      sel.dataset.tokens = v.tokens.join(' ');
    }
    const i = st.query != null && st.query < n ? st.query : n - 1;
    sel.value = String(i);
    const q = hv.Q.subarray(i * dh, (i + 1) * dh);
    // score shares: scale·q_i·k_j^part, from the core's Q and key parts (float64 sums)
    const parts = hv.split.map((K) => Array.from({ length: n }, (_, j) => {
      if (j > i) return NaN;
      let s = 0;
      for (let c = 0; c < dh; c++) s += q[c] * K[j * dh + c];
      return s * scale;
    }));
    const total = hv.S.subarray(i * n, (i + 1) * n);
    const H = last.settings.heads, sources = sourceNames(H);
    const rows = sourceLabels(H), keys = i + 1; // the keys query i may see
    const data = new Float32Array(rows.length * keys);
    parts.forEach((row, p) => { for (let j = 0; j < keys; j++) data[p * keys + j] = row[j]; });
    for (let j = 0; j < keys; j++) data[parts.length * keys + j] = total[j];
    const colLabels = v.tokens.slice(0, keys).map((x, j) => `${x} ${j + 1}`);
    if (!hm.split || hm.split.cols !== keys) {
      $('ind-split').textContent = '';
      hm.split = createHeatmap(doc, { m: 'split', rows: rows.length, cols: keys, rowLabels: rows, colLabels, caption: 'score shares: source × key', mode: 'cells' });
      $('ind-split').appendChild(hm.split.el);
      hm.cell = null;
    } else hm.split.setLabels(rows, colLabels); // another sequence: the same cells, its tokens
    hm.split.update(data, { kind: 'diverging', maxAbs: maxAbsFinite(data) || 1, theme: theme(), format: fmt, label: (r, c, x) => `${rows[r]}, key ${v.tokens[c]} ${c + 1}: ${fmt(x)}` });
    hm.split.setMarks('cur', inductionKeys(v.tokens, i).map((j) => ({ row: rows.length - 1, col: j })));
    $('ind-split-says').textContent = splitSentence({ tokens: v.tokens, i, sources, parts, total, head: hv.index, heads: H });
    const c = hm.cell;
    if (c && c.i <= parts.length && c.j <= i) {
      const ex = explainSplit({ tokens: v.tokens, i, j: c.j, p: c.i, sources, parts, total, scale });
      $('ind-split-title').textContent = ex.title;
      $('ind-split-explain').textContent = ex.text;
    } else {
      $('ind-split-title').textContent = '';
      $('ind-split-explain').textContent = 'Hover or focus a cell to see the arithmetic.';
    }
  }

  /** Opens the selected head in the explorer (only when it or its numbers changed). */
  /** @param {Last} last */
  function showHead(last) {
    const hv = last.view.head;
    if (!hv) return;
    const { n, d, dh } = MODEL;
    const rows = (/** @type {Float32Array} */ flat, /** @type {number} */ r, /** @type {number} */ c) => Array.from({ length: r }, (_, i) => Array.from(flat.subarray(i * c, (i + 1) * c)));
    const key = `${hv.index}:${last.step}:${last.settings.ex}:${last.settings.ablate}:${last.settings.seed}:${last.settings.heads}:${last.evals.length}`;
    if (shownHead === key) return;
    const t = win.performance.now();
    if (st.playing && shownHead && shownHead.split(':')[0] === String(hv.index) && t - shownAt < EXPLORER_EVERY_MS) {
      if (!later) later = win.setTimeout(() => ((later = 0), schedule()), EXPLORER_EVERY_MS - (t - shownAt));
      return;
    }
    shownHead = key;
    shownAt = t;
    explorer.showHead({
      tokens: last.view.tokens,
      features: Array.from({ length: d }, (_, c) => 'r' + (c + 1)),
      X: rows(hv.X, n, d), Wq: rows(hv.Wq, d, dh), Wk: rows(hv.Wk, d, dh), Wv: rows(hv.Wv, d, dh),
      causal: true, scale: null,
    }, {
      trained: { step: last.step },
      gradients: last.step ? hv.gradients : null,
      residual: residualParts(hv.embedding, hv.earlier),
    });
  }

  function draw() {
    frame = 0;
    drawnAt = win.performance.now();
    const err = $('ind-error');
    err.textContent = st.error;
    err.hidden = !st.error;
    const run = $('ind-run');
    run.textContent = st.playing ? '❚❚ Pause' : '▶ Train';
    run.setAttribute('aria-pressed', String(st.playing));
    $('ind-says').setAttribute('aria-live', st.playing ? 'off' : 'polite');
    $('ind-control').checked = st.control;
    $('ind-lr').value = String(st.lr);
    $('ind-heads').value = String(st.heads);
    if (!last) return;
    const drop = dropStep(last.evals);
    $('ind-status').textContent = statusLine(last.step, last.loss);
    const at = formedAt(last.evals);
    $('ind-where').textContent = `Seed ${last.settings.seed}; training in ${runner.kind === 'worker' ? 'a Web Worker' : 'this page (no worker here)'}` +
      (last.running && last.rate ? `, ${Math.round(last.rate)} steps a second` : '') +
      (at != null ? `; the circuit formed (induction > ${CRITERIA.induction}, repeated part < ${CRITERIA.loss} nats) at step ${at}.` : '.');
    $('ind-says').textContent = narrate({ step: last.step, evals: last.evals, words: MODEL.vocab - 1 });
    // the drawing functions take `last` as it is here, not null
    drawCurve(last, drop);
    $('ind-curve-cap').textContent = curveCaption(last.step, drop, last.losses.control.length > 0);
    drawComposition(last);
    const v = last.view;
    $('ind-seq-name').textContent = `sequence ${last.settings.ex + 1} (k = ${v.k})`;
    $('ind-seq').textContent = v.tokens.join(' ');
    drawGrid(last);
    const e = last.evals[last.evals.length - 1];
    $('ind-ablation').textContent = ablationSentence({ ablated: last.settings.ablate, full: e, without: v.without, induction: e.induction, prev: e.prev });
    const circuit = circuitAblation(e.induction, st.ablate), cb = $('ind-ablate-circuit');
    cb.hidden = !circuit;
    if (circuit) {
      cb.textContent = circuit.label;
      cb.setAttribute('aria-pressed', String(circuit.pressed));
    }
    drawSplit(last);
    showHead(last);
    if (!st.playing) writeUrl();
  }

  function writeUrl() {
    if (!last) return;
    const q = writeInductionUrl({ ...last.settings, steps: last.step });
    if (q !== written) onUrl((written = q));
  }

  // ---------------------------------------------------------------- actions

  const send = (/** @type {EngineRequest} */ msg) => runner.post(msg);
  function play() {
    st.error = '';
    st.playing = true;
    send({ type: 'run' });
    schedule();
  }
  function pause() {
    st.playing = false;
    send({ type: 'pause' });
    schedule();
  }
  /** @param {{ ex?: number, head?: number | null, ablate?: number[] }} change */
  function show(change) {
    Object.assign(st, change);
    send({ type: 'show', ex: st.ex, head: st.head, ablate: st.ablate });
  }

  /** @param {HTMLSelectElement} sel @param {string} value @param {string} text */
  function addOption(sel, value, text) {
    const o = sel.appendChild(doc.createElement('option'));
    o.value = value;
    o.textContent = text;
  }

  function wire() {
    for (const lr of LR_CHOICES) addOption($('ind-lr'), String(lr), String(lr));
    for (const h of HEAD_CHOICES) addOption($('ind-heads'), String(h), headsLabel(h));
    const on = (/** @type {string} */ id, /** @type {string} */ type, /** @type {(ev: Event) => void} */ fn) => $(id).addEventListener(type, fn);
    on('ind-run', 'click', () => (st.playing ? pause() : play()));
    on('ind-step', 'click', () => send({ type: 'step', k: 1 }));
    on('ind-reset', 'click', () => send({ type: 'reset' }));
    on('ind-reroll', 'click', () => {
      // a new seed drawn from the old one, so a sequence of re-rolls is itself reproducible
      st.seed = (Math.imul(st.seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000000;
      send({ type: 'reroll', seed: st.seed });
    });
    on('ind-lr', 'change', () => {
      const lr = Number($('ind-lr').value);
      if (!LR_CHOICES.includes(lr)) return;
      st.lr = lr;
      send({ type: 'lr', lr });
    });
    on('ind-heads', 'change', () => {
      const heads = Number($('ind-heads').value);
      if (!HEAD_CHOICES.includes(heads) || heads === st.heads) return;
      // another model: a new run from step 0; head numbers would name other heads
      Object.assign(st, { heads, head: null, ablate: [], query: null });
      send({ type: 'heads', heads });
    });
    on('ind-control', 'change', () => {
      st.control = $('ind-control').checked;
      send({ type: 'control', on: st.control });
    });
    on('ind-example', 'click', () => show({ ex: (st.ex + 1) % 1000 }));
    on('ind-query', 'change', () => {
      st.query = Number($('ind-query').value);
      schedule();
    });
    on('ind-grid', 'click', (ev) => {
      const t = /** @type {Element} */ (ev.target); // a click's target is an element
      const b = /** @type {HTMLButtonElement | null} */ (t.closest && t.closest('button[data-action]'));
      if (!b) return;
      const h = Number(/** @type {HTMLElement} */ (b.closest('.ind-head')).dataset.head); // the buttons are in the cards
      if (b.dataset.action === 'open') show({ head: st.head === h ? null : h });
      else show({ ablate: st.ablate.includes(h) ? st.ablate.filter((x) => x !== h) : [...st.ablate, h] });
    });
    on('ind-ablate-circuit', 'click', () => {
      if (!last) return;
      const circuit = circuitAblation(last.evals[last.evals.length - 1].induction, st.ablate);
      if (!circuit) return;
      const rest = st.ablate.filter((h) => !circuit.heads.includes(h));
      show({ ablate: circuit.pressed ? rest : [...rest, ...circuit.heads] });
    });
    on('ind-link', 'click', async () => {
      writeUrl();
      const b = $('ind-link');
      try {
        await win.navigator.clipboard.writeText(win.location.href);
        b.textContent = 'Link copied';
      } catch {
        b.textContent = 'Copy the address bar';
      }
      win.setTimeout(() => (b.textContent = 'Copy link to this step'), 2000);
    });
    const split = $('ind-split');
    const pick = (/** @type {import('../blocks/heatmap.js').Cursor | null} */ c) => {
      if (!c || (hm.cell && hm.cell.i === c.i && hm.cell.j === c.j)) return;
      hm.cell = c;
      schedule();
    };
    split.addEventListener('pointermove', (ev) => hm.split && pick(hm.split.cellAt(ev)));
    split.addEventListener('focusin', (ev) => {
      const tg = /** @type {HTMLElement} */ (ev.target); // focus goes to elements
      if (tg.classList && tg.classList.contains('cell')) pick({ i: Number(tg.dataset.row), j: Number(tg.dataset.col) });
    });
  }

  wire();
  send({ type: 'init', settings: { seed: st.seed, lr: st.lr, heads: st.heads, ex: st.ex, head: st.head, ablate: st.ablate, control: st.control }, steps: Math.min(initial.steps, MAX_STEPS) });
  schedule();

  return {
    state: st,
    get last() { return last; },
    get runner() { return runner.kind; },
    /** k steps, as the Single step button takes one; resolves when they are drawn. */
    step(k = 1) {
      send({ type: 'step', k });
      return this.whenIdle();
    },
    play,
    pause,
    show,
    writeUrl,
    /** Times k steps of a fresh model where the engine runs (make bench), of `heads` heads a
     * layer (the page's setting unless given): { stepsPerSecond, ms, heads }. */
    /** @param {number} k @param {number} [heads] @returns {Promise<import('./types').BenchResult>} */
    bench(k, heads) {
      return new Promise((ok) => {
        benches.push(ok);
        send(heads ? { type: 'bench', k, heads } : { type: 'bench', k });
      });
    },
    /** Resolves after the next update that is not a running one (the engine is idle). */
    /** @returns {Promise<void>} */
    whenIdle() {
      return new Promise((ok) => waiting.push(ok));
    },
    /** Runs the pending redraw now (the tests call it instead of waiting for frames). */
    flush() {
      if (frame) win.cancelAnimationFrame(frame);
      draw();
      explorer.flush();
    },
    destroy() {
      if (frame) win.cancelAnimationFrame(frame);
      if (later) win.clearTimeout(later);
      if (throttled) win.clearTimeout(throttled);
      runner.dispose();
    },
  };
}

/**
 * The page in induction mode (web/app.js calls it for ?mode=induction): the panel above the
 * explorer, both in step with the URL (history.replaceState), so a link reopens the same step.
 */
export async function startInductionPage(/** @type {Document} */ doc) {
  const win = /** @type {Window} */ (doc.defaultView); // the page's
  const initial = readInductionUrl(win.location.search, win.location.hash);
  const box = /** @type {HTMLElement} */ (doc.getElementById('explorer')); // index.html has it
  const section = doc.createElement('section');
  section.className = 'induction';
  section.setAttribute('aria-label', 'Watch an induction head form');
  box.before(section);
  doc.title = 'Attention Explorer: watch an induction head form';
  // The explorer only shows heads: the forward core, which the page preloads (tools/build-site.mjs);
  // the model trains in the worker, with its own core (or on this thread with the full one).
  const explorer = mountExplorer(doc, { container: box, url: false, controls: EXPLORER_CONTROLS, initial: {}, core: sharedCore({ core: 'forward' }) });
  globalThis.__explorer = explorer;
  await explorer.ready;
  const panel = mountInductionPanel(section, {
    doc, explorer, initial,
    onUrl: (q) => win.history.replaceState(null, '', win.location.pathname + q),
  });
  globalThis.__induction = panel;
  return panel;
}
