// train.js: the pure part of "Watch a head learn" (?mode=train). No DOM, no Wasm: the tasks'
// words, the training settings and their URL form, the learning-rate schedule a link replays,
// the loss curve's geometry and the sentences the panel says. web/train/panel.js draws them.
//
// A training run is deterministic for (task, seed, optimizer, learning-rate schedule): the same
// settings replay the same steps to the same weights. So a link records those and the step
// count, never the weights:
//
//   ?mode=train&task=find-the-noun&seed=1&opt=adam&lr=0.01&steps=120&ex=0&step=softmax&follow=4&cell=A.4.1
//
// lr is a schedule when the learner changed it while training: "0.01,50:0.03" means 0.01 from
// step 0 and 0.03 from step 50 on. ex picks the sentence shown (the trainer's example seed);
// step, follow and cell are the explorer's own (web/blocks/config.js).

import { fmt, fmtShort, tokenRef } from '../blocks/format.js';
import { clipMessage, readUrlState } from '../blocks/config.js';
import { count, list } from '../blocks/words.js';
import { weightStory, axisLabel } from '../blocks/explain.js';

export const MODE = 'train';

/** A learning-rate schedule: { at, lr } sorted by at, the first at 0. @typedef {{ at: number, lr: number }[]} Schedule */
/**
 * The training state a URL gives (readTrainUrl).
 * @typedef {{ task: string, seed: number, optimizer: string, schedule: Schedule, steps: number, ex: number, speed: number,
 *   step: import('../../types/config').Step | null, follow: number | null, cell: import('../../types/config').Cell | null, notes: string[],
 *   ignored: import('../../types/config').IgnoredParam[] }} TrainState
 */
/** @typedef {ArrayLike<number>} Nums */

// Per task: what each position predicts, in the words the panel uses for it (`answer`, and
// `predicting` for the bar list's heading), so no sentence says "next word" where the target
// is the token before.
/** @type {Record<string, { title: string, goal: string, answer: string, predicting: (who: string) => string }>} */
export const TASKS = {
  'find-the-noun': {
    title: 'Find the noun',
    goal: 'The last “the” should predict the noun that came last before it (cat, dog, bird or fox), so its row of A should put its weight on that noun, as “the” looks at “cat” in the widget page’s “the cat sat on the”. Some sentences also have an earlier noun, a distractor: attention that leaks onto it costs accuracy.',
    answer: 'noun',
    predicting: (who) => `Next word after ${who}`,
  },
  'previous-token': {
    title: 'Copy the previous token',
    goal: 'Every token should predict the token just before it, so each row of A should put its weight one step left of the diagonal: a previous-token head.',
    answer: 'previous token',
    predicting: (who) => `What ${who} says came before it`,
  },
};
export const TASK_NAMES = Object.keys(TASKS);

export const LR_CHOICES = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10];
export const SPEEDS = [1, 2, 5, 10, 20];
export const OPTIMIZERS = { adam: 'Adam', sgd: 'SGD' };
/** Steps a link may ask the page to replay on load (about a second of Wasm at worst). */
export const MAX_STEPS = 20000;
/** The share of attention on the right key at which the pattern counts as learned (docs/api.md). */
export const TARGET = 0.9;

export const DEFAULTS = Object.freeze({ task: 'find-the-noun', seed: 1, optimizer: 'adam', lr: 0.01, steps: 0, ex: 0, speed: 1 });

const isSeed = (/** @type {string} */ s) => /^\d{1,10}$/.test(s) && Number(s) <= 0xffffffff;
const isLr = (/** @type {number} */ v) => Number.isFinite(v) && v > 0 && v <= 10;

// ------------------------------------------------------------------ learning-rate schedule
// A schedule is a list of { at, lr } sorted by at, the first at 0, no two neighbours equal.

/** The learning rate in force at step `step` (the step about to be taken). @param {Schedule} schedule @param {number} step */
export function lrAt(schedule, step) {
  let lr = schedule[0].lr;
  for (const s of schedule) if (s.at <= step) lr = s.lr;
  return lr;
}

/** The schedule after the learner sets `lr` at step `step` (later changes are forgotten). @param {Schedule} schedule @param {number} step @param {number} lr */
export function setLr(schedule, step, lr) {
  const kept = schedule.filter((s) => s.at < step);
  if (!kept.length || kept[kept.length - 1].lr !== lr) kept.push({ at: step, lr }); // at 0 when nothing is kept
  return kept;
}

/** How to replay `steps` steps: [{ lr, count }] in order. @param {Schedule} schedule @param {number} steps */
export function replayPlan(schedule, steps) {
  /** @type {{ lr: number, count: number }[]} */
  const plan = [];
  schedule.forEach((s, k) => {
    const end = Math.min(steps, k + 1 < schedule.length ? schedule[k + 1].at : steps);
    if (end > s.at) plan.push({ lr: s.lr, count: end - s.at });
  });
  return plan;
}

/** @param {Schedule} schedule */
export function scheduleText(schedule) {
  return schedule.map((s) => (s.at === 0 ? String(s.lr) : `${s.at}:${s.lr}`)).join(',');
}

// "50:0.03": an optional step and a learning rate, read in steps linear in the text's length
// (as format.js DECIMAL; no "e+", which a URL's query would read as "e ")
const SCHEDULE_PART = /^(?:(\d{1,6}):)?((?:\d+(?:\.\d+)?|\.\d+)(?:e-?\d+)?)$/i;

/** Parses "0.01,50:0.03"; null when any part is malformed. @param {string} text @returns {Schedule | null} */
export function parseSchedule(text) {
  /** @type {Schedule} */
  const out = [];
  for (const part of String(text).split(',')) {
    const m = SCHEDULE_PART.exec(part.trim());
    if (!m) return null;
    const at = m[1] ? Number(m[1]) : 0, lr = Number(m[2]);
    if (!isLr(lr) || (out.length === 0) !== (at === 0) || (out.length && at <= out[out.length - 1].at)) return null;
    if (!out.length || out[out.length - 1].lr !== lr) out.push({ at, lr });
  }
  return out.length ? out : null;
}

// ------------------------------------------------------------------ URL state

/**
 * Reads the training state from location.search and .hash (the hash wins):
 * { task, seed, optimizer, schedule, steps, ex, speed, step, follow, cell, notes, ignored } where
 * notes lists, in the learner's words, every training parameter that was not used and why, and
 * ignored the explorer's step, follow or cell that could not be read (config.js readUrlState).
 * @param {string | null | undefined} search @param {string | null} [hash] @returns {TrainState}
 */
export function readTrainUrl(search, hash) {
  const p = new URLSearchParams(search || '');
  const h = new URLSearchParams((hash || '').replace(/^#/, ''));
  const get = (/** @type {string} */ k) => (h.has(k) ? h.get(k) : p.get(k));
  /** @type {string[]} */
  const notes = [];
  /** @type {TrainState} */
  const s = { task: DEFAULTS.task, seed: DEFAULTS.seed, optimizer: DEFAULTS.optimizer, schedule: [{ at: 0, lr: DEFAULTS.lr }], steps: 0, ex: 0, speed: DEFAULTS.speed, step: null, follow: null, cell: null, notes, ignored: [] };
  const task = get('task');
  if (task != null) {
    if (Object.hasOwn(TASKS, task)) s.task = task;
    else notes.push(`There is no task “${clipMessage(task, 40)}”; the tasks are ${list(TASK_NAMES)}. Showing “${s.task}”.`);
  }
  for (const [key, name] of /** @type {const} */ ([['seed', 'seed'], ['ex', 'ex']])) {
    const v = get(key);
    if (v == null) continue;
    if (isSeed(v)) s[name] = Number(v);
    else notes.push(`${key}=${clipMessage(v, 30)} is not a whole number from 0 to 4294967295; using ${s[name]}.`);
  }
  const opt = get('opt');
  if (opt != null) {
    if (Object.hasOwn(OPTIMIZERS, opt)) s.optimizer = opt;
    else notes.push(`opt=${clipMessage(opt, 30)} is not an optimizer (adam or sgd); using ${s.optimizer}.`);
  }
  const lr = get('lr');
  if (lr != null) {
    const sch = parseSchedule(lr);
    if (sch) s.schedule = sch;
    else notes.push(`lr=${clipMessage(lr, 30)} is not a learning rate (a number above 0 and at most 10, or a schedule like 0.01,50:0.03); using ${DEFAULTS.lr}.`);
  }
  const steps = get('steps');
  if (steps != null) {
    if (/^\d{1,9}$/.test(steps) && Number(steps) <= MAX_STEPS) s.steps = Number(steps);
    else notes.push(`steps=${clipMessage(steps, 30)} is not a whole number from 0 to ${MAX_STEPS}; starting at step 0.`);
  }
  const speed = Number(get('speed'));
  if (SPEEDS.includes(speed)) s.speed = speed;
  // step, follow and cell are the explorer's, read as its page reads them; what it cannot read
  // is said as that page says it (the training page shows `ignored` once its head is known).
  const u = readUrlState(search, hash);
  s.step = u.step;
  s.follow = u.follow;
  s.cell = u.cell;
  s.ignored = u.ignored.filter((x) => x.name !== 'theme'); // (the training page has no theme parameter)
  return s;
}

/**
 * The query string of a training state (the inverse of readTrainUrl), readable in the address bar.
 * @param {{ task: string, seed: number, optimizer: string, schedule: { at: number, lr: number }[], steps: number, ex?: number,
 *   speed?: number, step?: string | null, follow?: number | null, cell?: { m: string, i: number, j: number } | null }} s
 */
export function writeTrainUrl({ task, seed, optimizer, schedule, steps, ex = 0, speed = DEFAULTS.speed, step = null, follow = null, cell = null }) {
  let q = `?mode=${MODE}&task=${task}&seed=${seed}&opt=${optimizer}&lr=${scheduleText(schedule)}&steps=${steps}`;
  if (ex) q += `&ex=${ex}`;
  if (speed !== DEFAULTS.speed) q += `&speed=${speed}`;
  if (step) q += `&step=${step}`;
  if (follow != null) q += `&follow=${follow}`;
  if (cell) q += `&cell=${cell.m}.${cell.i}.${cell.j}`;
  return q;
}

// ------------------------------------------------------------------ the loss curve

/** A round number at least x: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten. */
/** @param {number} x */
export function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  const k = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8].find((k) => k * p >= x * (1 - 1e-9)) ?? 10;
  return Math.round(k * p * 1e9) / 1e9;
}

/**
 * The loss curve as SVG geometry for a plot box of `width` × `height` px (axes included):
 * { plot: { x, y, w, h }, path, xMax, yMax, xTicks: [{ pos, label }], yTicks, last: { x, y } | null }.
 * `losses` holds one batch loss per step (losses[k] measured before step k+1's update). The x
 * axis runs from 0 to a round number of steps at least `minSteps`; when there are more steps than
 * pixels, each pixel column shows the mean of its steps. Non-finite losses end the line.
 * @param {ArrayLike<number>} losses
 * @param {{ width?: number, height?: number, minSteps?: number, initialLoss?: number | null }} [o]
 */
export function lossCurve(losses, { width = 320, height = 160, minSteps = 100, initialLoss = null } = {}) {
  const plot = { x: 44, y: 8, w: Math.max(10, width - 56), h: Math.max(10, height - 42) };
  const n = losses.length;
  let top = initialLoss ?? 0;
  for (let k = 0; k < n; k++) if (Number.isFinite(losses[k])) top = Math.max(top, losses[k]);
  const yMax = niceCeil(top || 1);
  const xMax = niceCeil(Math.max(n, minSteps));
  const X = (/** @type {number} */ step) => plot.x + (step / xMax) * plot.w;
  const Y = (/** @type {number} */ v) => plot.y + plot.h - (Math.min(v, yMax) / yMax) * plot.h;
  const r1 = (/** @type {number} */ v) => Math.round(v * 10) / 10;
  const cols = Math.max(1, Math.floor(plot.w));
  const per = Math.max(1, Math.ceil(n / cols));
  /** @type {[number, number][]} */
  const pts = [];
  for (let k = 0; k < n; k += per) {
    let sum = 0, c = 0;
    for (let q = k; q < Math.min(n, k + per); q++) {
      if (!Number.isFinite(losses[q])) break;
      sum += losses[q];
      c++;
    }
    if (!c) break;
    pts.push([X(k + (c + 1) / 2), Y(sum / c)]); // step k+1 .. k+c, centred
  }
  const path = pts.map(([x, y], k) => (k ? 'L' : 'M') + r1(x) + ' ' + r1(y)).join(' ');
  // As many ticks as give round labels: 150 steps in fives (0, 30, ...), not quarters (37.5).
  const ticks = (/** @type {number} */ max, /** @type {number[]} */ counts, /** @type {number} */ unit) => {
    const count = counts.find((c) => Math.abs(Math.round((max / c) * unit) - (max / c) * unit) < 1e-6) || counts[0];
    return Array.from({ length: count + 1 }, (_, k) => (max * k) / count);
  };
  const label = (/** @type {number} */ v) => fmtShort(v);
  return {
    plot,
    path,
    xMax,
    yMax,
    xTicks: ticks(xMax, [4, 5, 3, 2], 1).map((v) => ({ pos: r1(X(v)), label: label(v) })),
    yTicks: ticks(yMax, [2, 5, 3, 4], 10 / 10 ** Math.floor(Math.log10(yMax))).map((v) => ({ pos: r1(Y(v)), label: label(v) })),
    last: pts.length ? { x: r1(pts[pts.length - 1][0]), y: r1(pts[pts.length - 1][1]) } : null,
  };
}

// ------------------------------------------------------------------ the small copy of A

/**
 * Geometry of the panel's small copy of A (n × m weights, row-major) with `right[i]`, the key
 * query i should attend to, outlined: the pattern training should fill in.
 * { width, height, cells: [{ x, y, size, i, j, v, masked }], rowLabels, colLabels: [{ x, y, text }],
 *   targets: [{ x, y, size }] }. Masked cells (j > i, causal) have masked: true.
 * @param {Nums} A @param {number} n @param {number} m @param {string[]} tokens @param {(number | null)[]} right
 */
export function miniGrid(A, n, m, tokens, right, { size = 22, label = 44 } = {}) {
  /** @type {{ x: number, y: number, size: number, i: number, j: number, v: number, masked: boolean }[]} */
  const cells = [];
  /** @type {{ x: number, y: number, size: number }[]} */
  const targets = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) cells.push({ x: label + j * size, y: label + i * size, size, i, j, v: A[i * m + j], masked: j > i });
    const r = right[i];
    if (r != null) targets.push({ x: label + r * size, y: label + i * size, size });
  }
  const cut = (/** @type {string} */ t) => (t.length > 5 ? t.slice(0, 4) + '…' : t);
  return {
    width: label + m * size + 2,
    height: label + n * size + 2,
    cells,
    targets,
    rowLabels: tokens.slice(0, n).map((t, i) => ({ x: label - 4, y: label + i * size + size / 2, text: cut(t) })),
    colLabels: tokens.slice(0, m).map((t, j) => ({ x: label + j * size + size / 2, y: label - 6, text: cut(t) })),
  };
}

// ------------------------------------------------------------------ what the panel says

/**
 * The query whose attention the narration reports, and the key it should attend to, for a
 * sequence with `right[i]` (the key query i should attend to, or null): the last query that has
 * one (the last “the” for find-the-noun, the last token for previous-token).
 * @param {(number | null)[]} right
 */
export function focusQuery(right) {
  for (let i = right.length - 1; i >= 0; i--) {
    const j = right[i];
    if (j != null) return { i, j };
  }
  return null;
}

/** Mean over the queries that have a right key of A[i][right[i]] (A is n × m, row-major). @param {Nums} A @param {number} m @param {(number | null)[]} right */
export function attentionOnRight(A, m, right) {
  let sum = 0, c = 0;
  right.forEach((j, i) => {
    if (j == null) return;
    sum += A[i * m + j];
    c++;
  });
  return c ? sum / c : NaN;
}

/**
 * Row i of softmax(O·Wout): the read-out's probabilities for the next token at position i.
 * The trainer has no export for logits or probabilities, so the page computes them here from
 * float32 values the core gave: O from the core's forward pass over the trainer's example and
 * Wout from trainer.weights(), the same sum and softmax the C training step does (c/train.c),
 * accumulated in float64 (it differs from the C float32 only far below the 3 decimals shown).
 * @param {Nums} O @param {number} dv @param {Nums} Wout @param {number} vocabSize @param {number} i
 */
export function predict(O, dv, Wout, vocabSize, i) {
  const logits = Array.from({ length: vocabSize }, (_, v) => {
    let s = 0;
    for (let k = 0; k < dv; k++) s += O[i * dv + k] * Wout[k * vocabSize + v];
    return s;
  });
  const max = Math.max(...logits); // subtracted so that exp cannot overflow
  const e = logits.map((l) => Math.exp(l - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

// Every loss the panel shows goes through the page's one formatter (fmt), so a loss reads the
// same in the counter, the narration and the curve's caption, and a diverging one as 3.08e36.
const lossText = (/** @type {number} */ loss) => (Number.isNaN(loss) ? 'not a number' : fmt(loss));

/** The counter's loss: "loss 0.081", "" before the first step. @param {number} steps @param {number} loss */
export function lossLabel(steps, loss) {
  return steps ? `loss ${lossText(loss)}` : '';
}

/**
 * The one-line status: “step 120: loss 0.081; “the” (5) puts 0.910 of its attention on “cat” (2)”,
 * from the example shown ({ tokens, A, m, right, target, prob }) where prob is the read-out's
 * probability of the target at the focus query. shownStep: the step whose weights A comes from,
 * when it is older than `step` (training blew up and the last finite weights are shown).
 */
/**
 * @param {{ step: number, shownStep?: number, loss: number, task: string, tokens: string[], A: Float32Array,
 *   m: number, right: (number | null)[], probOfTarget?: number | null, target?: string | null }} o
 */
export function narrate({ step, shownStep = step, loss, task, tokens, A, m, right, probOfTarget = null, target = null }) {
  let head = step === 0 ? 'step 0: not trained yet (random weights)' : `step ${step}: loss ${lossText(loss)}`;
  if (shownStep < step) head += `; the weights after step ${shownStep}, the last that were numbers`;
  const f = focusQuery(right);
  if (!f) return head + '.';
  const w = A[f.i * m + f.j];
  let s = `${head}; ${tokenRef(tokens, f.i)} puts ${fmt(w)} of its attention on ${tokenRef(tokens, f.j)}`;
  if (task === 'previous-token') {
    const mean = attentionOnRight(A, m, right);
    s += `, the token before it (every token: ${fmt(mean)} on its previous token, on average)`;
  }
  if (probOfTarget != null && target != null) s += `, and predicts “${target}” with probability ${fmt(probOfTarget)}`;
  s += '.';
  const learned = task === 'previous-token' ? attentionOnRight(A, m, right) >= TARGET : w >= TARGET;
  if (learned && shownStep > 0) s += ' The pattern has emerged.';
  return s;
}

/** The sentence under the loss curve saying what the curve is. @param {number} steps @param {Nums} losses */
export function curveCaption(steps, losses, task = 'find-the-noun') {
  if (!steps) return 'No steps yet: press Train or Single step. The curve shows the loss of each step’s batch of sequences.';
  const first = losses[0], last = losses[losses.length - 1];
  const end = losses.length > 1 ? `, ${lossText(last)} at step ${losses.length}` : ''; // the steps whose loss is known
  return `The loss of each step’s batch: ${lossText(first)} at step 1${end}. Lower is better: the model is less surprised by the right ${TASKS[task].answer}.`;
}

/** The line under the controls: where the weights and the sentence come from, and the scale. @param {{ seed: number, ex: number, batch: number, dk: number }} o */
export function seedLine({ seed, ex, batch, dk }) {
  return `Initial weights from seed ${seed}; sentence ${ex + 1} of the task; batches of ${count(batch, 'sequence')}. The head has dk = ${dk}, so the scores are divided by √dk = √${dk} = ${fmt(Math.sqrt(dk))}.`;
}

/**
 * The weight explanation's extra: the last step's gradients of Wq, Wk and Wv (flat, row-major)
 * and the step, in the shape web/blocks/explain.js explainCell takes as its optional fifth argument.
 * The panel adds `update` (what that step changed, per matrix) and `optimizer`.
 * @param {number} step @param {import('../../types/attention').TrainerGradients | null} grads
 */
export function trainedExtra(step, grads) {
  return { trained: { step }, gradients: step > 0 && grads ? { Wq: grads.dWq, Wk: grads.dWk, Wv: grads.dWv } : null };
}

// weightStory (what training did to one weight) lives in web/blocks/explain.js, which the explorer page
// loads without this module; it is re-exported here for the training panel.
export { weightStory };

// ------------------------------------------------------------------ the read-out Wout

/** The names of the head's output dimensions: the columns of O, the rows of Wout (v1, v2, ...). */
export const outputDims = (/** @type {number} */ dv) => Array.from({ length: dv }, (_, k) => 'v' + (k + 1));

/**
 * What the panel says about the read-out Wout [dv × vocab] and its heatmap's axes:
 * { rows, cols, rowLabels, colLabels, shape, about, caption }.
 * @param {number} dv @param {string[]} vocab
 */
export function readoutInfo(dv, vocab) {
  return {
    rows: dv,
    cols: vocab.length,
    rowLabels: outputDims(dv),
    colLabels: vocab.slice(),
    shape: `${dv} × ${vocab.length}, output dim × word`,
    about: 'The read-out turns each output row (a row of O) into a score for every word; the softmax of those scores is the prediction. It learns along with Wq, Wk and Wv.',
    caption: `Wout: ${dv} × ${vocab.length}, output dim × word`,
  };
}

/** The screen-reader label of one read-out cell. @param {number} dv @param {string[]} vocab */
export function readoutLabel(dv, vocab) {
  const rows = outputDims(dv);
  return (/** @type {number} */ i, /** @type {number} */ j, /** @type {number} */ v) => `Wout, ${axisLabel('output dim', i, rows[i])}, ${axisLabel('word', j, vocab[j])}: ${fmt(v)}`;
}

/**
 * The explanation of read-out cell (i, j): { title, text }. Wout and dWout are the trainer's flat
 * [dv × vocab] copies (weights(), gradients()); at step 0 there is no gradient yet. update: what
 * the last step changed in Wout (flat), shown beside the gradient; optimizer and lr: that step's.
 * @param {{ Wout: Nums, dWout?: Nums | null, update?: Nums | null, optimizer?: string, lr?: number | null, step: number,
 *   dv: number, vocab: string[], i: number, j: number }} o
 */
export function explainReadout({ Wout, dWout = null, update = null, optimizer, lr = null, step, dv, vocab, i, j }) {
  const V = vocab.length;
  const v = Wout[i * V + j];
  const dim = outputDims(dv)[i];
  const lines = [
    `How much output dimension ${dim} adds to the score of “${vocab[j]}”: a token’s score for “${vocab[j]}” is its row of O times column ${j + 1} of Wout, so this weight multiplies the token’s ${dim} (column ${i + 1} of O). A higher score makes the prediction “${vocab[j]}” more likely.`,
  ];
  lines.push(weightStory({ name: `Wout[${i + 1}][${j + 1}]`, step, g: step && dWout ? dWout[i * V + j] : null, delta: update ? update[i * V + j] : null, optimizer, lr }));
  return { title: `Wout[${i + 1}][${j + 1}] = ${fmt(v)}`, text: lines.join('\n') };
}

/**
 * The query whose next-word prediction the panel shows: the followed token if there is one,
 * else the task's focus query (focusQuery), else the last token.
 * @param {number | null} follow @param {(number | null)[]} right @param {number} n
 */
export function predictionRow(follow, right, n) {
  if (follow != null && follow >= 0 && follow < n) return follow;
  const f = focusQuery(right);
  return f ? f.i : n - 1;
}

/**
 * The bar list of one row's next-word probabilities, in vocabulary order (so bars stay put while
 * training): [{ word, p, text, frac, top, target }] where frac is the bar's length (p itself, on a
 * 0..1 axis), top marks the most likely word and target the word it should predict (if any).
 * @param {Nums} probs @param {string[]} vocab @param {string | null} [target]
 */
export function predictionBars(probs, vocab, target = null) {
  let top = 0;
  for (let k = 1; k < probs.length; k++) if (probs[k] > probs[top]) top = k;
  return vocab.map((word, k) => ({ word, p: probs[k], text: fmt(probs[k]), frac: Math.min(1, Math.max(0, probs[k])), top: k === top, target: word === target }));
}

/** The heading of the bar list: whose prediction it is and what it should be, in the task's words. @param {string[]} tokens @param {number} i @param {string | null | undefined} target */
export function predictionCaption(tokens, i, target, task = 'find-the-noun') {
  const what = TASKS[task].predicting(tokenRef(tokens, i));
  return target == null
    ? `${what}: softmax of its scores (this position has no target in the task).`
    : `${what}: softmax of its scores. The right answer is “${target}”.`;
}
