// @ts-check
// train/state.js: the state of "Watch a head learn" (?mode=train), the actions that change it
// and the values derived from it. No DOM: tested in Node (tests/train/state.test.mjs) with the
// real core. web/train/panel.js turns events into these actions; the views in web/train/ draw
// what panelModel() derives.
//
// A run is deterministic for (task, seed, optimizer, learning-rate schedule), so every path to
// a step gives the same state: pressing Single step 60 times, pressing Train, or opening a link
// with steps=60 (replayed in chunks). That includes a run that blew up: the losses up to the
// blow-up are kept, and the head shown is the one after the last step whose weights were still
// numbers, found by the same rule on every path (lastShowable).

import {
  TASKS, OPTIMIZERS, SPEEDS, MAX_STEPS, lrAt, setLr, trainedExtra, lossCurve, curveCaption, narrate, focusQuery,
  predict, predictionRow, predictionBars, predictionCaption, readoutInfo, explainReadout, miniGrid, lossLabel, seedLine,
} from './words.js';
import { parseConfig, forwardArgs } from '../blocks/config.js';

/** A screen reader hears the narration at most this often while training runs. */
export const ANNOUNCE_EVERY_MS = 2000;
/**
 * While training plays, the explorer below gets the newest head at most this often. Its dozen
 * heatmaps are the page's expensive part: one refresh changes some 900 number cells and costs
 * about 50 ms of the page's thread (script, layout and paint), so refreshing them on every frame
 * held the page near 20 frames a second and made every click or key wait behind a 50 ms task.
 * The panel's loss curve, small copy of A and sentence still follow every frame (the read-out and
 * the prediction bars, a hundred cells and bars more, follow with the explorer); a pause, a stop,
 * a single step and any action of the learner bring everything to the newest head at once (actions
 * no more often than this), so nothing on screen is stale once training stands still.
 */
export const PLAY_EXPLORER_MS = 250;
/** How far back lastShowable replays one step at a time (a blow-up takes a few steps). */
const BACKTRACK = 8;
/** @param {object} o @param {string} k */
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Is this example config one the explorer can show? Its weights are numbers and the core's
 * forward pass on it does not overflow: the same checks the explorer's showHead makes.
 * @param {any} attn @param {any} config
 */
export function showable(attn, config) {
  try {
    attn.forward(forwardArgs(parseConfig(config)), { outputs: ['O'] });
    return true;
  } catch {
    return false;
  }
}

/**
 * The change of every weight over one step: after − before, per matrix (Float32Array).
 * @param {Record<string, Float32Array>} after @param {Record<string, Float32Array>} before
 */
function difference(after, before) {
  /** @type {Record<string, Float32Array>} */
  const out = {};
  for (const k of Object.keys(after)) out[k] = Float32Array.from(after[k], (v, e) => v - before[k][e]);
  return out;
}

/**
 * One training run in the page: the settings, a trainer (attn.createTrainer) and what the
 * panel shows. Methods are the actions; fields are read by panelModel and the tests.
 */
export class TrainSession {
  /**
   * @param {any} attn the loaded core (web/core/attention.js)
   * @param {{ task: string, seed: number, optimizer: string, schedule: {at: number, lr: number}[],
   *   ex?: number, speed?: number, steps?: number, notes?: string[] }} initial readTrainUrl's state
   */
  constructor(attn, initial) {
    this.attn = attn;
    this.task = initial.task;
    this.seed = initial.seed;
    this.optimizer = initial.optimizer;
    this.schedule = initial.schedule;
    this.ex = initial.ex ?? 0;
    this.speed = initial.speed ?? 1;
    this.playing = false;
    /** @type {number[]} one batch loss per step taken */
    this.losses = [];
    /** @type {string} what went wrong, in the learner's words ('' when nothing) */
    this.error = (initial.notes || []).join(' ');
    /** @type {{ at: number, reason: string } | null} where training stopped on its own */
    this.stopped = null;
    /** @type {Record<string, Float32Array> | null} what the last step changed, weight by weight */
    this.update = null;
    /**
     * The head on show: the example's config, the read-out, the gradients and the update of
     * that step, and what the explorer's cell explanations get (extra).
     * @type {{ step: number, ex: number, config: any, Wout: Float32Array, grads: any, update: any, extra: any } | null}
     */
    this.shown = null;
    /** false in the scratch sessions lastShowable replays (they must not replay again) */
    this.backtrack = true;
    /** @type {{ target: number } | null} a link's steps still to replay */
    this.replay = initial.steps ? { target: Math.min(initial.steps, MAX_STEPS) } : null;
    /** @type {any} */
    this.trainer = null;
    this.#create();
    this.#refreshShown();
  }

  #create() {
    if (this.trainer) this.trainer.dispose();
    this.trainer = this.attn.createTrainer({ task: this.task, seed: this.seed, optimizer: this.optimizer, lr: this.schedule[0].lr });
    this.losses = [];
    this.update = null;
    this.stopped = null;
  }

  /** k steps at the scheduled learning rates (a schedule change splits them); throws as step() does. @param {number} k */
  #run(k) {
    const t = this.trainer;
    let left = k;
    while (left > 0) {
      const lr = lrAt(this.schedule, t.steps);
      const next = this.schedule.find((s) => s.at > t.steps);
      const now = Math.min(left, next ? next.at - t.steps : left);
      t.set({ lr }); // stores the rate, nothing else: the same rate again changes nothing
      try {
        for (const l of t.step(now)) this.losses.push(l);
      } catch (e) {
        for (const l of /** @type {any} */ (e).losses || []) this.losses.push(l);
        throw e;
      }
      left -= now;
    }
  }

  /**
   * k steps; the last one alone, with the weights copied before it, so the panel can show what
   * the optimizer did beside the gradient. false when training stopped (then paused).
   * @param {number} k
   */
  #train(k) {
    if (k <= 0) return true;
    try {
      this.#run(k - 1);
      const before = this.trainer.weights();
      this.#run(1);
      this.update = difference(this.trainer.weights(), before);
      return true;
    } catch (e) {
      const msg = /** @type {Error} */ (e).message;
      this.update = null;
      this.stopped = { at: this.trainer.steps, reason: msg.replace(/^training stopped at step \d+: /, '').replace(/ and reset\(\)$/, ' and press Reset') };
      this.playing = false;
      this.replay = null;
      return false;
    }
  }

  /** The head to show for the current example: now, or the last weights that were numbers. */
  #refreshShown() {
    const t = this.trainer, steps = t.steps;
    const config = t.example({ seed: this.ex });
    if (showable(this.attn, config)) {
      const grads = t.gradients(), update = this.update, optimizer = this.optimizer;
      const lr = steps ? lrAt(this.schedule, steps - 1) : null; // the rate step `steps` was taken at
      const extra = { ...trainedExtra(steps, grads), optimizer, lr, update: update && { Wq: update.Wq, Wk: update.Wk, Wv: update.Wv } };
      this.shown = { step: steps, ex: this.ex, config, Wout: t.weights().Wout, grads, update, extra };
      return;
    }
    const prev = this.shown;
    if (!this.backtrack || (prev && prev.ex === this.ex && prev.step === steps - 1)) return; // stepped here one by one
    this.shown = this.#lastShowable(steps - 1) || prev;
  }

  /**
   * Replays this run on a scratch trainer up to step `upTo`: in one go to BACKTRACK steps
   * before it, then one step at a time as the Single step button would, so the head it ends
   * on is the one stepping by hand shows. null when no trainer slot is free.
   * @param {number} upTo
   */
  #lastShowable(upTo) {
    let scratch = null;
    try {
      scratch = new TrainSession(this.attn, { task: this.task, seed: this.seed, optimizer: this.optimizer, schedule: this.schedule, ex: this.ex });
      scratch.backtrack = false;
      const bulk = Math.max(0, upTo - BACKTRACK);
      scratch.#train(bulk); // steps before the blow-up: it cannot stop here
      while (scratch.trainer.steps < upTo && scratch.stepBy(1)) { /* each step refreshes the head */ }
      return scratch.shown;
    } catch {
      return null;
    } finally {
      if (scratch) scratch.dispose();
    }
  }

  // ---------------------------------------------------------------- actions

  /**
   * Up to `k` more steps of the link being replayed; true when the replay is over (done,
   * stopped, or there was none). The panel calls it in chunks that yield to the event loop;
   * refresh: false leaves the head on show as it was (the panel shows a new head a few times a
   * second, not after every chunk); the last chunk always refreshes it.
   * @param {number} k @param {{ refresh?: boolean }} [o]
   */
  replayChunk(k, { refresh = true } = {}) {
    if (!this.replay) return true;
    const left = this.replay.target - this.trainer.steps;
    const ok = this.#train(Math.max(0, Math.min(k, left)));
    if (!ok || this.trainer.steps >= this.replay.target) this.replay = null;
    if (refresh || !this.replay) this.#refreshShown();
    return !this.replay;
  }

  /** k steps as the Single step button takes them (pauses first). false when training stopped. */
  stepBy(k = 1) {
    this.pause();
    this.error = '';
    this.replay = null;
    const ok = this.#train(Math.min(k, MAX_STEPS - this.trainer.steps));
    this.#refreshShown();
    return ok;
  }

  /** One frame of play: `speed` steps. false when it stopped (the limit, or a blow-up). */
  tick() {
    if (!this.playing) return false;
    if (this.trainer.steps + this.speed > MAX_STEPS) {
      this.error = `Stopped at step ${this.trainer.steps}: a link can replay at most ${MAX_STEPS} steps. Press Reset to start again.`;
      this.playing = false;
      return false;
    }
    const ok = this.#train(this.speed);
    this.#refreshShown();
    return ok;
  }

  play() {
    if (this.stopped) return;
    this.replay = null;
    this.error = '';
    this.playing = true;
  }

  pause() {
    this.playing = false;
  }

  /** Back to step 0 with the same seed, keeping the learning rate in force now. */
  restart() {
    const lr = lrAt(this.schedule, this.trainer.steps);
    this.pause();
    this.replay = null;
    this.error = '';
    this.schedule = [{ at: 0, lr }];
    this.#create();
    this.#refreshShown();
  }

  /** New initial weights: a seed drawn from the old one, so re-rolls are reproducible too. */
  reroll() {
    this.seed = (Math.imul(this.seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000000;
    this.restart();
  }

  /** @param {string} name */
  setTask(name) {
    if (!has(TASKS, name)) return;
    this.task = name;
    this.ex = 0;
    this.restart();
  }

  /** A new optimizer starts again: Adam's running averages belong to one run. @param {string} name */
  setOptimizer(name) {
    if (!has(OPTIMIZERS, name)) return;
    this.optimizer = name;
    this.restart();
  }

  /** @param {number} lr */
  setLr(lr) {
    if (!(lr > 0)) return;
    this.replay = null;
    this.schedule = setLr(this.schedule, this.trainer.steps, lr);
  }

  /** @param {number} s */
  setSpeed(s) {
    if (SPEEDS.includes(s)) this.speed = s;
  }

  /** The head on another sentence of the task. */
  nextExample() {
    this.ex = (this.ex + 1) % 1000;
    this.#refreshShown();
  }

  dispose() {
    if (this.trainer) this.trainer.dispose();
    this.trainer = null;
  }

  // ---------------------------------------------------------------- derived

  /** The first batch's loss (null before the first step): fixes the curve's y axis from the start. */
  get initialLoss() {
    return this.losses[0] ?? null;
  }

  /** Where training is, for the link: { task, seed, optimizer, schedule, steps, ex, speed }. */
  get settings() {
    const { task, seed, optimizer, schedule, ex, speed } = this;
    return { task, seed, optimizer, schedule, ex, speed, steps: this.trainer.steps };
  }

  /** The error line: the notes, or where and why training stopped and which head is shown. */
  get errorText() {
    const parts = [];
    if (this.error) parts.push(this.error);
    if (this.stopped) {
      parts.push(`Training stopped at step ${this.stopped.at}: ${this.stopped.reason}.`);
      const s = this.shown;
      if (s && s.step < this.trainer.steps) parts.push(`The matrices below show the weights after step ${s.step}, the last that were still numbers.`);
    }
    return parts.join(' ');
  }
}

/**
 * Everything the panel draws, derived from the session and the explorer's result for the
 * head on show (r: forward()'s result, tokens, follow: the followed row or null).
 * @param {TrainSession} s
 * @param {{ r: any, tokens: string[], follow: number | null }} head
 */
export function panelModel(s, { r, tokens, follow }) {
  const t = s.trainer, steps = t.steps, shown = s.shown;
  const shownStep = shown ? shown.step : steps;
  const model = {
    steps,
    stepText: `Step ${steps}`,
    lossText: lossLabel(steps, t.loss),
    replay: s.replay ? { at: steps, of: s.replay.target } : null,
    playing: s.playing,
    task: s.task,
    goal: TASKS[s.task].goal,
    lr: lrAt(s.schedule, steps),
    speed: s.speed,
    optimizer: s.optimizer,
    seedText: seedLine({ seed: s.seed, ex: s.ex, batch: t.batch, dk: t.dk }),
    error: s.errorText,
    curve: lossCurve(s.losses, { width: 360, height: 170, initialLoss: s.initialLoss }),
    curveCaption: curveCaption(steps, s.losses, s.task),
    head: /** @type {any} */ (null),
  };
  if (!r || r.n !== tokens.length) return model;
  const { right, target } = t.answers({ seed: s.ex });
  const Wout = shown ? shown.Wout : null;
  const f = focusQuery(right);
  const vocab = t.vocab;
  /** @param {number} i */
  const probsAt = (i) => (Wout ? predict(r.O, r.dv, Wout, vocab.length, i) : null);
  const fp = f && target[f.i] != null ? probsAt(f.i) : null;
  const i = predictionRow(follow, right, r.n);
  const probs = probsAt(i);
  model.head = {
    mini: miniGrid(r.A, r.n, r.m, tokens, right),
    // The sentence is about the head on show: its step and that step's loss, or, after a
    // blow-up, the step reached and the last weights that were numbers.
    says: narrate({ step: s.stopped ? steps : shownStep, shownStep, loss: s.stopped || !shownStep ? t.loss : s.losses[shownStep - 1], task: s.task, tokens, A: r.A, m: r.m, right, probOfTarget: fp && f ? fp[vocab.indexOf(target[f.i])] : null, target: f ? target[f.i] : null }),
    readout: Wout ? { Wout, info: readoutInfo(t.dv, vocab) } : null,
    prediction: probs ? { caption: predictionCaption(tokens, i, target[i], s.task), bars: predictionBars(probs, vocab, target[i]) } : null,
  };
  return model;
}

/**
 * The explanation of read-out cell (i, j) of the head on show (web/train/words.js explainReadout),
 * with the step the optimizer took beside the gradient.
 * @param {TrainSession} s @param {number} i @param {number} j
 */
export function readoutExplanation(s, i, j) {
  const t = s.trainer, h = s.shown;
  if (!h) return { title: '', text: '' };
  return explainReadout({
    Wout: h.Wout, dWout: h.step ? h.grads.dWout : null, update: h.update ? h.update.Wout : null,
    optimizer: h.extra.optimizer, lr: h.extra.lr, step: h.step, dv: t.dv, vocab: t.vocab, i, j,
  });
}

/**
 * Whether the live region should say `text` now: always when training is not running (a
 * step, a pause, a change), and at most once every ANNOUNCE_EVERY_MS while it runs or a link
 * replays. Returns the new { text, at } (the same object when nothing is to be said).
 * @param {{ text: string, at: number }} last @param {{ text: string, running: boolean, now: number }} next
 */
export function announce(last, { text, running, now }) {
  if (text === last.text) return last;
  if (running && now - last.at < ANNOUNCE_EVERY_MS) return last;
  return { text, at: now };
}

/**
 * What one frame of training shows (web/train/handover.js): 'hand', the explorer gets the
 * newest head; 'catch-up', the explorer is out of sight, so only the read-out and the prediction
 * catch up with it; 'panel', the panel alone (the explorer got a head less than
 * PLAY_EXPLORER_MS ago, or answers the learner in this frame). Training that stopped on its own
 * always hands the head over.
 * @param {{ playing: boolean, answering: boolean, sinceHanded: number, seen: boolean }} o
 * @returns {'hand' | 'catch-up' | 'panel'}
 */
export function frameShows({ playing, answering, sinceHanded, seen }) {
  if (playing && (answering || sinceHanded < PLAY_EXPLORER_MS)) return 'panel';
  return seen || !playing ? 'hand' : 'catch-up';
}
