// induction/panel.js: "Watch an induction head form" (?mode=induction, and mode="induction" on the
// element). Mounts the panel and joins its parts: the engine (web/induction/engine.js, through
// runner.js) trains in a Web Worker and sends an update after every slice of steps; the latest
// update is drawn on the next animation frame by the views (charts-view.js, grid-view.js,
// split-view.js) from the pure state and words (state.js, words.js); events.js turns input into
// state.js's actions. A head opened here is shown by the explorer (mountExplorer's showHead),
// which recomputes it with the same core and explains every cell.

import { mountExplorer, sharedCore } from '../explorer/index.js';
import { readInductionUrl, writeInductionUrl } from './words.js';
import * as S from './state.js';
import { setMarkup } from '../blocks/trusted-types.js';
import { MARKUP } from './markup.js';
import { startRunner } from './runner.js';
import { drawCurve, drawComposition } from './charts-view.js';
import { drawGrid } from './grid-view.js';
import { createSplitView } from './split-view.js';
import { wireEvents } from './events.js';

/** @typedef {import('./types').EngineMessage} EngineMessage @typedef {import('./types').EngineRequest} EngineRequest */
/** @typedef {import('./types').InductionUpdate} Last */

// While training, the opened head is re-sent to the explorer at most this often (its dozen
// heatmaps cost more than the rest of the page): input stays answered within a frame or two.
const EXPLORER_EVERY_MS = 1000;
// While training, the panel redraws at most this often (the worker sends about 25 updates a
// second): the page's thread stays mostly idle, free to answer input.
const PANEL_EVERY_MS = 100;
// What of the explorer stays on: the weights belong to the model, so no presets or editing.
/** @type {import('../../types/element').ControlGroup[]} */
export const EXPLORER_CONTROLS = ['theme', 'steps', 'follow', 'explain', 'export'];

/**
 * The panel's redraws: one animation frame at a time, and timers for a redraw later (at most one
 * of each kind pending).
 * @param {Window & typeof globalThis} win @param {() => void} draw
 */
function createFrames(win, draw) {
  let frame = 0, later = 0, throttled = 0;
  const run = () => {
    frame = 0;
    draw();
  };
  const frames = {
    schedule() {
      if (!frame) frame = win.requestAnimationFrame(run);
    },
    /** A redraw in `ms` (while training, the split and the explorer wait their turn). @param {number} ms */
    later(ms) {
      if (!later) later = win.setTimeout(() => ((later = 0), frames.schedule()), ms);
    },
    /** A redraw in `ms`, for updates that came sooner than PANEL_EVERY_MS after the last redraw. @param {number} ms */
    throttle(ms) {
      if (!throttled) throttled = win.setTimeout(() => ((throttled = 0), frames.schedule()), ms);
    },
    /** Runs the pending redraw now. */
    now() {
      if (frame) win.cancelAnimationFrame(frame);
      run();
    },
    cancel() {
      if (frame) win.cancelAnimationFrame(frame);
      if (later) win.clearTimeout(later);
      if (throttled) win.clearTimeout(throttled);
    },
  };
  return frames;
}

/**
 * The buttons, menus and sentences of the panel, from state.js panelText.
 * @param {import('./types').Lookup} $ @param {S.PanelState} st @param {ReturnType<typeof S.panelText>} text
 */
function drawText($, st, text) {
  const err = $('ind-error');
  err.textContent = text.error;
  err.hidden = !text.error;
  const run = $('ind-run');
  run.textContent = text.run;
  run.setAttribute('aria-pressed', String(st.playing));
  $('ind-says').setAttribute('aria-live', text.live);
  $('ind-control').checked = st.control;
  $('ind-lr').value = String(st.lr);
  $('ind-heads').value = String(st.heads);
  const m = text.model;
  if (!m) return;
  $('ind-status').textContent = m.status;
  $('ind-where').textContent = m.where;
  $('ind-says').textContent = m.says;
  $('ind-curve-cap').textContent = m.curveCaption;
  $('ind-seq-name').textContent = m.seqName;
  $('ind-seq').textContent = m.seq;
  $('ind-ablation').textContent = m.ablation;
  $('ind-copy').textContent = m.copy;
  $('ind-copy').hidden = $('ind-copy-h').hidden = !m.copy;
  $('ind-explorer-label').textContent = m.explorer;
  const cb = $('ind-ablate-circuit');
  cb.hidden = !m.circuit;
  if (m.circuit) {
    cb.textContent = m.circuit.label;
    cb.setAttribute('aria-pressed', String(m.circuit.pressed));
  }
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
  // the markup has every id, and the types of the elements Lookup names
  const $ = /** @type {import('./types').Lookup} */ (/** @type {unknown} */ ((/** @type {string} */ id) => container.querySelector('#' + id)));

  const st = S.createState(initial);
  /** @type {Last | null} the engine's latest update (never edited here) */
  let last = null;
  /** @type {string | null} */
  let shownHead = null;
  /** @type {((v: void) => void)[]} */
  const waiting = [];
  let shownAt = 0, drawnAt = 0, splitAt = 0, splitKey = '';
  let written = ''; // the query last given to onUrl: history.replaceState is slow, and most redraws change nothing in it
  /** @type {((msg: import('./types').BenchResult) => void)[]} */
  const benches = [];
  const split = createSplitView(doc, $);
  const frames = createFrames(win, draw);
  const runner = startRunner(win, receive, { worker });
  const send = (/** @type {EngineRequest | null} */ msg) => msg && runner.post(msg);

  /** @param {EngineMessage} msg */
  function receive(msg) {
    if (msg.type === 'bench') return benches.splice(0).forEach((f) => f(msg));
    last = S.receive(st, msg) || last;
    if (!st.playing) for (const f of waiting.splice(0)) f();
    const wait = PANEL_EVERY_MS - (win.performance.now() - drawnAt);
    if (st.playing && wait > 0) frames.throttle(wait);
    else frames.schedule();
  }

  /**
   * Whether a view last drawn at `at` for `key` waits its turn: while training, the split's table
   * (a hundred cells) and the explorer redraw at most every EXPLORER_EVERY_MS unless what they
   * show changed; a redraw is then asked for when the turn comes.
   * @param {boolean} same @param {number} at @param {number} t
   */
  function waitsTurn(same, at, t) {
    if (!(st.playing && same && t - at < EXPLORER_EVERY_MS)) return false;
    frames.later(EXPLORER_EVERY_MS - (t - at));
    return true;
  }

  /** The split of one query's scores (a layer-2 head) by the source of the keys. @param {Last} last */
  function drawSplit(last) {
    const hv = last.view.head, t = win.performance.now();
    if (hv && split.shows(last)) {
      const key = `${hv.index}:${last.view.tokens.join(' ')}:${st.query}:${split.cellKey()}`;
      if (waitsTurn(splitKey === key, splitAt, t)) return;
      splitKey = key;
      splitAt = t;
    }
    split.draw(last, st.query, explorer.state.theme);
  }

  /** Opens the selected head in the explorer (only when it or its numbers changed). @param {Last} last */
  function showHead(last) {
    const key = S.headKey(last), t = win.performance.now();
    if (key == null || shownHead === key) return;
    if (shownHead && waitsTurn(shownHead.split(':')[0] === key.split(':')[0], shownAt, t)) return;
    shownHead = key;
    shownAt = t;
    const { config, extra } = S.explorerHead(last);
    explorer.showHead(config, extra);
  }

  function draw() {
    drawnAt = win.performance.now();
    const text = S.panelText(st, last, runner.kind);
    drawText($, st, text);
    if (!last || !text.model) return;
    drawCurve($('ind-curve'), $('ind-curve-legend'), last, text.model.drop);
    drawComposition($('ind-kcomp'), $('ind-kcomp-legend'), $('ind-kcomp-cap'), last);
    drawGrid($('ind-grid'), last, { head: st.head, ablate: st.ablate, theme: explorer.state.theme });
    drawSplit(last);
    showHead(last);
    if (!st.playing) writeUrl();
  }

  function writeUrl() {
    if (!last) return;
    const q = writeInductionUrl({ ...last.settings, steps: last.step });
    if (q !== written) onUrl((written = q));
  }

  wireEvents({ st, doc, win, $, last: () => last, send, schedule: frames.schedule, writeUrl, split });
  send(S.initRequest(st, initial.steps));
  frames.schedule();

  return {
    state: st,
    get last() { return last; },
    get runner() { return runner.kind; },
    /** k steps, as the Single step button takes one; resolves when they are drawn. */
    step(k = 1) {
      send({ type: 'step', k });
      return this.whenIdle();
    },
    play() {
      send(S.play(st));
      frames.schedule();
    },
    pause() {
      send(S.pause(st));
      frames.schedule();
    },
    /** @param {{ ex?: number, head?: number | null, ablate?: number[] }} change */
    show: (change) => send(S.show(st, change)),
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
      frames.now();
      explorer.flush();
    },
    destroy() {
      frames.cancel();
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
