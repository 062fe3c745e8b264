// @ts-check
// train-panel.js: "Watch a head learn" (?mode=train), the wiring. A trainer learns a task in
// Wasm and, on every frame, the panel shows the head's current weights on one example sentence
// (the loss curve, the small copy of A, the sentence), so the pattern in A emerges as it trains;
// the explorer below, the read-out and the prediction follow at most every PLAY_EXPLORER_MS. The parts:
//   web/train/words.js              the words and the geometry (pure)
//   web/train/state.js        the state, its actions and what is derived from it (pure, Node-tested)
//   web/train/*-view.js       one region each: status, loss curve, small A, read-out, prediction
//   web/train/handover.js     when the explorer below gets the newest head
//   web/train/markup.js       the constant markup
// This file only turns events into the state's actions and schedules one redraw a frame. A link
// with steps=N is replayed in chunks that yield to the event loop, so the page stays responsive.

import { mountExplorer, sharedCore } from '../explorer/index.js';
import { ignoredText, outsideHead } from '../explorer/state.js';
import { readTrainUrl, writeTrainUrl } from './words.js';
import { TrainSession, panelModel, readoutExplanation, announce } from './state.js';
import { MARKUP } from './markup.js';
import { setMarkup } from '../blocks/trusted-types.js';
import { copyLinkTo } from '../blocks/copy-link.js';
import { drawStatus, fillControls } from './status-view.js';
import { drawCurve } from './curve-view.js';
import { drawMini } from './mini-view.js';
import { createReadoutView } from './readout-view.js';
import { drawPrediction } from './prediction-view.js';
import { createHandover } from './handover.js';

const CURVE = { width: 360, height: 170 };
/** A replay chunk aims at this many milliseconds of training before it yields to the page. */
export const REPLAY_CHUNK_MS = 12;
/** While a link replays, the explorer gets a new head (a full redraw) at most this often. */
export const REPLAY_HEAD_MS = 400;
/** While training plays, the explorer below gets the newest head at most this often (state.js says why). */
export { PLAY_EXPLORER_MS } from './state.js';
// What of the explorer stays on while training: no presets or editing (the weights belong to
// the trainer, and a link replays them from the seed), no "Copy link" (the panel has its own).
/** @type {import('../../types/element').ControlGroup[]} */
export const EXPLORER_CONTROLS = ['theme', 'steps', 'follow', 'explain', 'export'];

/**
 * Mounts the training panel in `container` and drives `explorer` (mountExplorer's api, already
 * mounted with url: false). options: { doc, attn, initial: readTrainUrl's state, onUrl(query) }.
 * Returns { state, trainer, ready, step(k), play(), pause(), flush(), destroy() }: ready settles
 * once a link's steps are replayed; step(k) takes k steps as the Single step button does (the
 * browser tests drive training with it, never with the clock); touched() says the learner acted
 * in the explorer (its emit: a step, a row, a cell), which then gets the newest head at once
 * (at most every PLAY_EXPLORER_MS). watch: the explorer's box; while it is out of sight,
 * training hands the explorer no heads.
 * @param {HTMLElement} container
 * @param {{ doc: Document, attn: import('../../types/attention').Attention, explorer: import('../explorer/mount.js').ExplorerApi,
 *   initial: import('./words.js').TrainState, onUrl?: (q: string) => void, watch?: Element | null }} o
 */
export function mountTrainPanel(container, { doc, attn, explorer, initial, onUrl = () => {}, watch = null }) {
  const win = /** @type {Window} */ (doc.defaultView);
  const tpl = doc.createElement('template');
  setMarkup(tpl, MARKUP);
  container.appendChild(tpl.content);
  /** @param {string} id @returns {any} */
  const $ = (id) => container.querySelector('#' + id);
  const s = new TrainSession(attn, initial);
  const readout = createReadoutView({ box: $('train-wout'), shape: $('train-wout-shape'), about: $('train-wout-about'), legend: $('train-wout-legend'), title: $('train-wout-title'), explain: $('train-wout-explain') });
  /** @type {{ hover: {i: number, j: number} | null, focus: {i: number, j: number} | null }} the read-out cell explained */
  const cursor = { hover: null, focus: null };
  let said = { text: '', at: -Infinity }; // what the live region last said, and when
  let frame = 0, gone = false;
  let pointed = false; // the learner hovered or focused a read-out cell: the next draw is a full one
  const handover = createHandover({ win, attn, explorer, session: s, watch });
  const theme = () => explorer.state.theme; // the page's, or the <attention-explorer> element's

  /** Hands the explorer the head on show (when it changed) and schedules a redraw. */
  function show() {
    handover.hand();
    schedule();
  }
  function schedule() {
    if (!frame && !gone) frame = win.requestAnimationFrame(draw);
  }

  function draw() {
    frame = 0;
    if (gone) return;
    const m = panelModel(s, { ...handover.headOnShow(), follow: explorer.state.follow });
    // While training runs ahead of the explorer, the read-out and the prediction wait for it
    // (PLAY_EXPLORER_MS), unless the learner points at the read-out.
    const full = !s.playing || handover.current() || pointed;
    pointed = false;
    drawStatus($, m);
    drawCurve($('train-curve'), m.curve, CURVE);
    $('train-curve-cap').textContent = m.curveCaption;
    if (m.head) {
      drawMini($('train-a'), m.head.mini, theme());
      if (m.head.readout && full) {
        const c = cursor.hover || cursor.focus;
        readout.draw(m.head.readout, s.trainer.vocab, theme(), c, (i, j) => readoutExplanation(s, i, j));
      }
      if (m.head.prediction && full) drawPrediction($('train-pred-cap'), $('train-pred'), m.head.prediction);
      $('train-narration').textContent = m.head.says;
      say(m.head.says);
    }
    if (!s.playing && !s.replay) writeUrl();
  }

  /** The live region (visually hidden): every change when idle, at most one every 2 s while training runs. @param {string} text */
  function say(text) {
    said = announce(said, { text, running: s.playing || Boolean(s.replay), now: win.performance.now() });
    const box = $('train-says');
    if (box.textContent !== said.text) box.textContent = said.text;
  }

  function writeUrl() {
    const e = explorer.state;
    onUrl(writeTrainUrl({ ...s.settings, step: e.step, follow: e.follow, cell: e.sel }));
  }

  // ---------------------------------------------------------------- training over time

  // One frame of training: the panel shows this frame's weights; the explorer too when it last
  // got a head PLAY_EXPLORER_MS ago or more and is in sight, or when training just stopped on its own.
  const loop = createLoop(win, s, () => {
    if (handover.afterTick() === 'hand') show(); // this frame shows this frame's weights
    else schedule(); // the panel alone, or with the read-out and prediction caught up
  });
  function play() {
    s.play();
    loop.start();
    schedule();
  }
  function pause() {
    s.pause();
    loop.stop();
    show(); // the explorer catches up: paused, every number on screen is this step's
  }

  // ---------------------------------------------------------------- events

  /** Runs an action that replaces the head (a step, a reset...): stops the loop, shows the result. */
  /** @param {() => unknown} fn */
  const act = (fn) => () => {
    loop.stop();
    fn();
    show();
  };
  readout.listen((key, c) => {
    const old = cursor[key];
    if (old === c || (old && c && old.i === c.i && old.j === c.j)) return;
    cursor[key] = c;
    pointed = true;
    schedule();
  });
  wireControls($, s, { act, play, pause, show, schedule, writeUrl, win });

  show();
  const ready = replayLink(s, win, show, schedule, () => gone);

  return {
    state: s,
    get trainer() { return s.trainer; },
    /** Settles once a link's steps are replayed (at once when there are none). */
    ready,
    step: (k = 1) => act(() => s.stepBy(k))(),
    play,
    pause,
    writeUrl,
    /** Redraws on the next frame (the explorer's follow changed: the prediction row follows it). */
    redraw: schedule,
    /**
     * The learner acted in the explorer (a step, a row, a cell). While training runs, it answers
     * in the coming frame with the head it shows (a small redraw), and gets the newest head in
     * the frame after, not up to PLAY_EXPLORER_MS later: handing it over now would put a whole
     * refresh before the answer. (This frame callback runs after the coming frame's tick.) Actions
     * bring it no more often than PLAY_EXPLORER_MS: a held arrow key selects a cell on every
     * repeat, and a refresh each would keep the page busy.
     */
    touched() {
      if (!s.playing) return show();
      handover.touched();
    },
    /** Runs the pending redraws now (the tests call it instead of waiting for frames). */
    flush() {
      explorer.flush();
      if (frame) win.cancelAnimationFrame(frame);
      frame = 0;
      draw();
    },
    destroy() {
      gone = true;
      handover.dispose();
      loop.stop();
      if (frame) win.cancelAnimationFrame(frame);
      s.dispose();
    },
  };
}

/**
 * The training loop: one step of the session's speed an animation frame while it plays, then
 * `shown()` shows the frame's weights. start() starts it (when the session plays), stop() stops it.
 * @param {Window} win @param {TrainSession} s @param {() => void} shown
 */
function createLoop(win, s, shown) {
  let loop = 0;
  function tick() {
    loop = 0;
    if (!s.playing) return;
    s.tick();
    shown();
    if (s.playing) loop = win.requestAnimationFrame(tick);
  }
  return {
    start() {
      if (s.playing && !loop) loop = win.requestAnimationFrame(tick);
    },
    stop() {
      if (loop) win.cancelAnimationFrame(loop);
      loop = 0;
    },
  };
}

/**
 * Replays a link's steps in chunks of about REPLAY_CHUNK_MS of training, yielding to the event
 * loop between them, so the page answers while a long link (steps=20000) replays; after each
 * chunk the head and the progress are shown. Any action of the learner ends the replay there.
 * @param {TrainSession} s @param {Window} win @param {() => void} show @param {() => void} progress
 * @param {() => boolean} gone
 */
async function replayLink(s, win, show, progress, gone) {
  const now = () => win.performance.now();
  let per = 32; // steps a chunk, adapted to this machine's speed
  let shown = -Infinity;
  while (s.replay && !gone()) {
    const t0 = now();
    const due = t0 - shown >= REPLAY_HEAD_MS;
    const done = s.replayChunk(per, { refresh: due });
    if (!due) per = Math.max(1, Math.min(4096, Math.round((per * REPLAY_CHUNK_MS) / Math.max(1, now() - t0))));
    if (due || done) {
      shown = now();
      show(); // a new head: the explorer recomputes and redraws
    } else progress(); // the counter, the progress bar and the curve
    if (done) break;
    await new Promise((ok) => win.setTimeout(ok, 0));
  }
}

/**
 * The panel's buttons and selects, each turned into one action of the session.
 * @param {(id: string) => any} $ @param {TrainSession} s
 * @param {{ act: (fn: () => void) => () => void, play: () => void, pause: () => void, show: () => void, schedule: () => void, writeUrl: () => void, win: Window }} a
 */
function wireControls($, s, { act, play, pause, show, schedule, writeUrl, win }) {
  fillControls($);
  /** @param {string} id @param {string} type @param {(ev: Event) => void} fn */
  const on = (id, type, fn) => $(id).addEventListener(type, fn);
  on('train-run', 'click', () => (s.playing ? pause() : play()));
  on('train-step', 'click', act(() => s.stepBy(1)));
  on('train-reset', 'click', act(() => s.restart()));
  on('train-reroll', 'click', act(() => s.reroll()));
  on('train-task', 'change', act(() => s.setTask($('train-task').value)));
  on('train-opt', 'change', act(() => s.setOptimizer($('train-opt').value)));
  on('train-lr', 'change', () => (s.setLr(Number($('train-lr').value)), schedule()));
  on('train-speed', 'change', () => (s.setSpeed(Number($('train-speed').value)), schedule()));
  on('train-example', 'click', () => (s.nextExample(), show()));
  on('train-link', 'click', () => copyLinkTo(win, $('train-link'), writeUrl, 'Copy link to this step'));
}

/**
 * The page in training mode (web/app.js calls it for ?mode=train): the panel above the explorer,
 * both in step with the URL (history.replaceState), so a link reopens the same step.
 * @param {Document} doc
 */
export async function startTrainPage(doc) {
  const win = /** @type {Window} */ (doc.defaultView);
  const g = /** @type {any} */ (globalThis);
  const initial = readTrainUrl(win.location.search, win.location.hash);
  const box = /** @type {HTMLElement} */ (doc.getElementById('explorer'));
  const section = doc.createElement('section');
  section.className = 'train';
  section.setAttribute('aria-label', 'Watch a head learn');
  /** @type {ParentNode} */ (box.parentNode).insertBefore(section, box);
  doc.title = 'Attention Explorer: watch a head learn';

  /** @type {ReturnType<typeof mountTrainPanel> | null} */
  let panel = null;
  const core = sharedCore({ core: 'trainer' }); // the page trains a head, and needs no induction model
  const explorer = mountExplorer(doc, {
    container: box,
    url: false,
    core,
    controls: EXPLORER_CONTROLS,
    initial: { step: initial.step, follow: initial.follow },
    emit: (/** @type {string} */ type) => {
      if (!panel || (type !== 'step' && type !== 'select')) return;
      panel.touched(); // while training, the explorer catches up with the newest head
      panel.writeUrl();
      if (type === 'select') panel.redraw();
    },
  });
  g.__explorer = explorer;
  await explorer.ready;
  const attn = await core;
  panel = mountTrainPanel(section, {
    doc, attn, explorer, initial, watch: box,
    onUrl: (q) => win.history.replaceState(null, '', win.location.pathname + q),
  });
  // A follow or cell outside the head trained is left out, and the explorer says so with the
  // parameters it could not read, as the explorer's own page does (after them: choosing a cell
  // clears such a note, as the learner's own choice does).
  const outside = explorer.state.config ? outsideHead(explorer.state.config, initial.follow, initial.cell) : [];
  if (initial.follow != null) explorer.setFollow(initial.follow); // (a row outside the head follows nothing)
  if (initial.cell && !outside.some((x) => x.name === 'cell')) explorer.select(initial.cell);
  const ignored = [...initial.ignored, ...outside];
  if (ignored.length) explorer.showError(ignoredText(ignored));
  await panel.ready; // a link's steps, replayed without blocking the page
  g.__train = panel;
  return panel;
}
