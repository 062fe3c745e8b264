// train-panel.js: "Watch a head learn" (?mode=train). The one file that wires the training
// panel's events: a trainer (attn.createTrainer, web/attention.js) learns a task in Wasm, and on
// every frame the explorer shows the head's current weights on one example sentence, so every
// heatmap animates as the pattern in A emerges. Everything said and drawn comes from the pure
// module web/train.js; events only change state, and one requestAnimationFrame redraws.

import { mountExplorer, sharedCore } from './explorer.js';
import {
  TASKS, TASK_NAMES, LR_CHOICES, SPEEDS, OPTIMIZERS, MAX_STEPS,
  readTrainUrl, writeTrainUrl, lrAt, setLr, replayPlan, lossCurve, miniGrid, narrate, curveCaption, focusQuery, predict, trainedExtra,
  readoutInfo, readoutLabel, explainReadout, predictionRow, predictionBars, predictionCaption,
} from './train.js';
import { cellRgb, maskedRgb, css, legendGradient, maxAbsFinite } from './colors.js';
import { createHeatmap } from './heatmap.js';
import { fmt, fmtShort } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const CURVE = { width: 360, height: 170 };
// What of the explorer stays on while training: no presets or editing (the weights belong to
// the trainer, and a link replays them from the seed), no "Copy link" (the panel has its own).
export const EXPLORER_CONTROLS = ['theme', 'steps', 'follow', 'explain', 'export'];

// Constant markup (no user text ever goes through innerHTML).
const MARKUP = `
<h2 class="train-title">Watch a head learn</h2>
<p class="note">Wq, Wk and Wv below start random. Gradient descent changes them a little at every step, because
  moving the right information to the right place lowers the loss of predicting the next token. Press Train and
  watch the pattern appear in A; pause at any step and hover any cell.</p>
<div class="train-grid">
  <div class="train-controls">
    <label>Task <select id="train-task"></select></label>
    <p id="train-goal" class="train-goal"></p>
    <div class="train-buttons" role="group" aria-label="Training">
      <button type="button" id="train-run" aria-pressed="false">▶ Train</button>
      <button type="button" id="train-step">Single step</button>
      <button type="button" id="train-reset" title="Back to step 0: the same initial weights and the same training sequences">Reset</button>
      <button type="button" id="train-reroll" title="Different random initial weights (a new seed)">New random weights</button>
    </div>
    <div class="train-settings">
      <label>Learning rate <select id="train-lr"></select></label>
      <label>Speed <select id="train-speed"></select></label>
      <label>Optimizer <select id="train-opt"></select></label>
    </div>
    <div class="train-buttons">
      <button type="button" id="train-example" title="Show the head on another sequence of the task">Another sentence</button>
      <button type="button" id="train-link">Copy link to this step</button>
    </div>
    <p id="train-seed" class="note"></p>
  </div>
  <div class="train-status">
    <p class="train-count"><span id="train-steps">Step 0</span> <span id="train-loss" class="train-loss"></span></p>
    <svg id="train-curve" class="train-curve" role="img" aria-labelledby="train-curve-title train-curve-cap"><title id="train-curve-title">Loss curve</title></svg>
    <p id="train-curve-cap" class="note"></p>
  </div>
  <figure class="train-mini">
    <svg id="train-a" class="train-a" role="img" aria-labelledby="train-a-cap"></svg>
    <figcaption id="train-a-cap" class="note">A for the sentence below: each row is a token’s attention. Outlined: where it should go.</figcaption>
  </figure>
</div>
<p id="train-says" class="train-says" aria-live="polite"></p>
<div class="train-readout">
  <figure class="train-wout">
    <figcaption><span class="pname">Wout</span><span id="train-wout-shape" class="shape"></span><span id="train-wout-about" class="about"></span></figcaption>
    <div id="train-wout" class="scroller"></div>
    <div id="train-wout-legend" class="legend"></div>
    <p id="train-wout-title" class="explain-title"></p>
    <p id="train-wout-explain" class="train-explain note"></p>
  </figure>
  <figure class="train-pred">
    <figcaption id="train-pred-cap" class="note"></figcaption>
    <ol id="train-pred" class="train-probs"></ol>
  </figure>
</div>
<div id="train-error" class="error" role="alert" hidden></div>`;

/**
 * Mounts the training panel in `container` and drives `explorer` (mountExplorer's api, already
 * mounted with url: false). options: { doc, attn, initial: readTrainUrl's state, onUrl(query) }.
 * Returns { state, trainer, step(k), flush(), destroy() }: step(k) takes k steps as the Single
 * step button does (the browser tests drive training with it, never with the clock).
 */
export function mountTrainPanel(container, { doc, attn, explorer, initial, onUrl = () => {} }) {
  const win = doc.defaultView;
  const t = doc.createElement('template');
  t.innerHTML = MARKUP;
  container.appendChild(t.content);
  const $ = (id) => container.querySelector('#' + id);

  const st = {
    task: initial.task,
    seed: initial.seed,
    optimizer: initial.optimizer,
    schedule: initial.schedule,
    ex: initial.ex,
    speed: initial.speed,
    playing: false,
    losses: [],
    error: initial.notes.join(' '),
  };
  let trainer = null;
  let frame = 0, loop = 0;
  let initialLoss = null; // the first batch's loss: fixes the curve's y axis from the start
  // The read-out's heatmap (rebuilt when the task changes its shape) and the cell it explains:
  // the one under the pointer, else the one with keyboard focus, else none.
  let wout = null;
  const ro = { hover: null, focus: null };

  function create() {
    if (trainer) trainer.dispose();
    trainer = attn.createTrainer({ task: st.task, seed: st.seed, optimizer: st.optimizer, lr: st.schedule[0].lr });
    st.losses = [];
    initialLoss = null;
  }

  /** k steps at the scheduled learning rates; false when training stopped (then paused). */
  function train(k) {
    try {
      let left = k;
      while (left > 0) {
        const lr = lrAt(st.schedule, trainer.steps);
        const next = st.schedule.find((s) => s.at > trainer.steps);
        const now = Math.min(left, next ? next.at - trainer.steps : left);
        if (trainer.lr !== lr) trainer.set({ lr });
        for (const l of trainer.step(now)) st.losses.push(l);
        left -= now;
      }
      if (initialLoss == null && st.losses.length) initialLoss = st.losses[0];
      return true;
    } catch (e) {
      st.error = `Training stopped at step ${trainer.steps}: ${e.message.replace(/^training stopped at step \d+: /, '').replace(/ and reset\(\)$/, ' and press Reset')}.`;
      pause();
      return false;
    }
  }

  function show() {
    try {
      explorer.showHead(trainer.example({ seed: st.ex }), trainedExtra(trainer.steps, trainer.gradients()));
    } catch {
      // Diverged weights (NaN or ±Infinity) are no head: keep the last one that was.
      st.error += ' The matrices below show the last weights that were still numbers.';
    }
    schedule();
  }

  function schedule() {
    if (!frame) frame = win.requestAnimationFrame(draw);
  }

  // ---------------------------------------------------------------- drawing

  function svgEl(parent, tag, attrs, text) {
    const e = parent.appendChild(doc.createElementNS(SVG, tag));
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }

  function drawCurve() {
    const svg = $('train-curve');
    const g = lossCurve(st.losses, { ...CURVE, initialLoss });
    svg.setAttribute('viewBox', `0 0 ${CURVE.width} ${CURVE.height}`);
    for (const c of [...svg.children]) if (c.tagName !== 'title') c.remove();
    const { x, y, w, h } = g.plot;
    for (const tk of g.yTicks) {
      svgEl(svg, 'line', { x1: x, x2: x + w, y1: tk.pos, y2: tk.pos, class: 'grid' });
      svgEl(svg, 'text', { x: x - 4, y: tk.pos + 4, 'text-anchor': 'end', class: 'tick' }, tk.label);
    }
    for (const tk of g.xTicks) svgEl(svg, 'text', { x: tk.pos, y: y + h + 14, 'text-anchor': 'middle', class: 'tick' }, tk.label);
    svgEl(svg, 'line', { x1: x, x2: x, y1: y, y2: y + h, class: 'axis' });
    svgEl(svg, 'line', { x1: x, x2: x + w, y1: y + h, y2: y + h, class: 'axis' });
    svgEl(svg, 'text', { x: x + w / 2, y: y + h + 30, 'text-anchor': 'middle', class: 'axis-title' }, 'training step');
    svgEl(svg, 'text', { x: 12, y: y + h / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${y + h / 2})` }, 'loss');
    if (g.path) svgEl(svg, 'path', { d: g.path, class: 'loss-line' });
    if (g.last) svgEl(svg, 'circle', { cx: g.last.x, cy: g.last.y, r: 3, class: 'loss-dot' });
  }

  function drawMini(r, tokens, right) {
    const svg = $('train-a');
    const g = miniGrid(r.A, r.n, r.m, tokens, right);
    const theme = explorer.state.theme; // the page's, or the <attention-explorer> element's
    svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
    svg.setAttribute('width', String(g.width));
    svg.textContent = '';
    for (const c of g.cells) {
      const fill = c.masked ? maskedRgb(theme) : cellRgb('sequential', c.v, 1, theme);
      svgEl(svg, 'rect', { x: c.x, y: c.y, width: c.size - 1, height: c.size - 1, fill: css(fill), class: c.masked ? 'masked' : '' });
    }
    for (const t of g.targets) svgEl(svg, 'rect', { x: t.x - 0.5, y: t.y - 0.5, width: t.size, height: t.size, class: 'target' });
    for (const l of g.rowLabels) svgEl(svg, 'text', { x: l.x, y: l.y + 4, 'text-anchor': 'end', class: 'tick' }, l.text);
    for (const l of g.colLabels) svgEl(svg, 'text', { x: l.x, y: l.y, 'text-anchor': 'start', class: 'tick', transform: `rotate(-55 ${l.x} ${l.y})` }, l.text);
  }

  const theme = () => explorer.state.theme; // the page's theme (or an <attention-explorer> element's)

  /** The read-out Wout as a heatmap (the explorer's renderer and formatter) with its explanation. */
  function drawReadout(Wout) {
    const info = readoutInfo(trainer.dv, trainer.vocab);
    if (!wout || wout.rows !== info.rows || wout.cols !== info.cols || wout.vocab !== trainer.vocab.join('\n')) {
      const box = $('train-wout');
      box.textContent = '';
      wout = createHeatmap(doc, { m: 'Wout', rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels, caption: info.caption, mode: 'cells' });
      wout.vocab = trainer.vocab.join('\n');
      wout.label = readoutLabel(trainer.dv, trainer.vocab);
      box.appendChild(wout.el);
      ro.hover = ro.focus = null;
      $('train-wout-shape').textContent = info.shape;
      $('train-wout-about').textContent = info.about;
    }
    const maxAbs = maxAbsFinite(Wout) || 1;
    wout.update(Wout, { kind: 'diverging', maxAbs, theme: theme(), format: fmt, label: wout.label });
    const legend = $('train-wout-legend');
    legend.textContent = '';
    const span = (cls, text) => Object.assign(legend.appendChild(doc.createElement('span')), { className: cls, textContent: text });
    span('lo', fmtShort(-maxAbs));
    span('bar', '').style.background = legendGradient('diverging', theme());
    span('hi', fmtShort(maxAbs));
    span('mid', 'centre 0');
    const c = ro.hover || ro.focus;
    wout.setMarks('cur', c ? [{ row: c.i, col: c.j }] : []);
    const ex = c
      ? explainReadout({ Wout, dWout: trainer.steps ? trainer.gradients().dWout : null, step: trainer.steps, dv: trainer.dv, vocab: trainer.vocab, i: c.i, j: c.j })
      : { title: '', text: 'Hover or focus a cell of Wout (arrow keys move) to see what it does and, after a step, its gradient.' };
    $('train-wout-title').textContent = ex.title;
    $('train-wout-title').hidden = !ex.title;
    $('train-wout-explain').textContent = ex.text;
  }

  /** One row's next-word probabilities as a bar list (textContent only). */
  function drawPrediction(probs, tokens, i, target) {
    $('train-pred-cap').textContent = predictionCaption(tokens, i, target);
    const list = $('train-pred');
    list.textContent = '';
    for (const b of predictionBars(probs, trainer.vocab, target)) {
      const li = list.appendChild(doc.createElement('li'));
      li.className = (b.target ? 'target ' : '') + (b.top ? 'top' : '');
      li.setAttribute('aria-label', `${b.word}: ${b.text}${b.target ? ', the right answer' : ''}`);
      li.appendChild(doc.createElement('span')).className = 'word';
      li.firstChild.textContent = b.word;
      const track = li.appendChild(doc.createElement('span'));
      track.className = 'track';
      const bar = track.appendChild(doc.createElement('span'));
      bar.className = 'fill';
      bar.style.width = (b.frac * 100).toFixed(1) + '%';
      const v = li.appendChild(doc.createElement('span'));
      v.className = 'p';
      v.textContent = b.text;
    }
  }

  function draw() {
    frame = 0;
    const steps = trainer.steps;
    $('train-steps').textContent = `Step ${steps}`;
    $('train-loss').textContent = steps ? `loss ${Number.isFinite(trainer.loss) ? trainer.loss.toFixed(3) : 'not a number'}` : '';
    drawCurve();
    $('train-curve-cap').textContent = curveCaption(steps, st.losses);
    const run = $('train-run');
    run.textContent = st.playing ? '❚❚ Pause' : '▶ Train';
    run.setAttribute('aria-pressed', String(st.playing));
    $('train-says').setAttribute('aria-live', st.playing ? 'off' : 'polite'); // no stream of speech while it runs
    $('train-task').value = st.task;
    $('train-goal').textContent = TASKS[st.task].goal;
    const lr = lrAt(st.schedule, steps);
    const lrSel = $('train-lr');
    if (![...lrSel.options].some((o) => Number(o.value) === lr)) addOption(lrSel, String(lr), String(lr));
    lrSel.value = [...lrSel.options].find((o) => Number(o.value) === lr).value;
    $('train-speed').value = String(st.speed);
    $('train-opt').value = st.optimizer;
    $('train-seed').textContent = `Initial weights from seed ${st.seed}; sentence ${st.ex + 1} of the task; batches of ${trainer.batch} sequences.`;
    const err = $('train-error');
    err.textContent = st.error;
    err.hidden = !st.error;
    const r = explorer.result;
    if (r && r.n === explorer.state.config.tokens.length) {
      const tokens = explorer.state.config.tokens;
      const { right, target } = trainer.answers({ seed: st.ex });
      const f = focusQuery(right);
      let probOfTarget = null;
      const Wout = trainer.weights().Wout;
      const finite = Wout.every(Number.isFinite);
      if (f && target[f.i] != null && finite) {
        const probs = predict(r.O, r.dv, Wout, trainer.vocab.length, f.i);
        probOfTarget = probs[trainer.vocab.indexOf(target[f.i])];
      }
      drawMini(r, tokens, right);
      if (finite) {
        drawReadout(Wout);
        const i = predictionRow(explorer.state.follow, right, r.n);
        drawPrediction(predict(r.O, r.dv, Wout, trainer.vocab.length, i), tokens, i, target[i]);
      }
      $('train-says').textContent = narrate({ step: steps, loss: trainer.loss, task: st.task, tokens, A: r.A, m: r.m, right, probOfTarget, target: f ? target[f.i] : null });
    }
    if (!st.playing) writeUrl();
  }

  function writeUrl() {
    const s = explorer.state;
    onUrl(writeTrainUrl({ ...st, steps: trainer.steps, step: s.step, follow: s.follow, cell: s.sel }));
  }

  // ---------------------------------------------------------------- actions

  function tick() {
    loop = 0;
    if (!st.playing) return;
    if (trainer.steps + st.speed > MAX_STEPS) {
      st.error = `Stopped at step ${trainer.steps}: a link can replay at most ${MAX_STEPS} steps. Press Reset to start again.`;
      pause();
    } else if (train(st.speed)) {
      show();
      explorer.flush(); // this frame shows this frame's weights
    }
    if (st.playing) loop = win.requestAnimationFrame(tick);
    schedule();
  }

  function play() {
    if (st.playing) return;
    st.error = '';
    st.playing = true;
    loop = win.requestAnimationFrame(tick);
    schedule();
  }
  function pause() {
    st.playing = false;
    if (loop) win.cancelAnimationFrame(loop);
    loop = 0;
    schedule();
  }

  function stepBy(k) {
    pause();
    st.error = '';
    if (trainer.steps + k > MAX_STEPS) k = Math.max(0, MAX_STEPS - trainer.steps);
    train(k);
    show();
  }

  /** Back to step 0 with the same seed (or `restart` with new settings: task, optimizer). */
  function restart() {
    pause();
    st.error = '';
    st.schedule = [{ at: 0, lr: lrAt(st.schedule, trainer.steps) }];
    create();
    show();
  }

  function addOption(sel, value, text) {
    const o = sel.appendChild(doc.createElement('option'));
    o.value = value;
    o.textContent = text;
    return o;
  }

  function wireReadout() {
    const box = $('train-wout');
    const set = (key, c) => {
      const old = ro[key];
      if (old === c || (old && c && old.i === c.i && old.j === c.j)) return;
      ro[key] = c;
      schedule();
    };
    box.addEventListener('pointermove', (ev) => {
      if (ev.pointerType !== 'touch' && wout) set('hover', wout.cellAt(ev));
    });
    box.addEventListener('pointerleave', () => set('hover', null));
    box.addEventListener('click', (ev) => {
      const c = wout && wout.cellAt(ev);
      if (c) wout.setCursor(c.i, c.j), set('focus', c);
    });
    box.addEventListener('focusin', (ev) => {
      const t = ev.target;
      if (!wout || !t.classList.contains('cell')) return;
      const c = { i: +t.dataset.row, j: +t.dataset.col };
      wout.setCursor(c.i, c.j);
      set('focus', c);
    });
    box.addEventListener('keydown', (ev) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -1e9], End: [0, 1e9] };
      if (!wout || !moves[ev.key] || !ev.target.classList.contains('cell')) return;
      ev.preventDefault();
      ev.stopPropagation(); // the explorer's arrow keys step through its own steps
      const { i, j } = wout.cursor;
      wout.setCursor(i + moves[ev.key][0], j + moves[ev.key][1]);
      wout.focusCursor(); // focusin selects it
    });
  }

  function wire() {
    wireReadout();
    for (const name of TASK_NAMES) addOption($('train-task'), name, TASKS[name].title);
    for (const lr of LR_CHOICES) addOption($('train-lr'), String(lr), String(lr));
    for (const s of SPEEDS) addOption($('train-speed'), String(s), s === 1 ? '1 step a frame' : `${s} steps a frame`);
    for (const [k, v] of Object.entries(OPTIMIZERS)) addOption($('train-opt'), k, v);
    const on = (id, type, fn) => $(id).addEventListener(type, fn);
    on('train-run', 'click', () => (st.playing ? pause() : play()));
    on('train-step', 'click', () => stepBy(1));
    on('train-reset', 'click', restart);
    on('train-reroll', 'click', () => {
      // A new seed, drawn from the old one so the sequence of re-rolls is itself reproducible.
      st.seed = (Math.imul(st.seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000000;
      restart();
    });
    on('train-task', 'change', (ev) => {
      if (!Object.hasOwn(TASKS, ev.target.value)) return;
      st.task = ev.target.value;
      st.ex = 0;
      restart();
    });
    on('train-opt', 'change', (ev) => {
      if (!Object.hasOwn(OPTIMIZERS, ev.target.value)) return;
      st.optimizer = ev.target.value;
      restart(); // Adam's running averages belong to one run: a new optimizer starts again
    });
    on('train-lr', 'change', (ev) => {
      const lr = Number(ev.target.value);
      if (!(lr > 0)) return;
      st.schedule = setLr(st.schedule, trainer.steps, lr);
      schedule();
    });
    on('train-speed', 'change', (ev) => {
      const s = Number(ev.target.value);
      if (SPEEDS.includes(s)) st.speed = s;
      schedule();
    });
    on('train-example', 'click', () => {
      st.ex = (st.ex + 1) % 1000;
      show();
    });
    on('train-link', 'click', async () => {
      writeUrl();
      const b = $('train-link');
      try {
        await win.navigator.clipboard.writeText(win.location.href);
        b.textContent = 'Link copied';
      } catch {
        b.textContent = 'Copy the address bar';
      }
      win.setTimeout(() => (b.textContent = 'Copy link to this step'), 2000);
    });
  }

  // Start: the same settings replay the same steps to the same weights.
  wire();
  create();
  if (initial.steps) {
    for (const { lr, count } of replayPlan(st.schedule, initial.steps)) {
      trainer.set({ lr });
      if (!train(count)) break;
    }
  }
  show();

  return {
    state: st,
    get trainer() { return trainer; },
    step: (k = 1) => stepBy(k),
    play,
    pause,
    writeUrl,
    /** Redraws on the next frame (the explorer's follow changed: the prediction row follows it). */
    redraw: schedule,
    /** Runs the pending redraws now (the tests call it instead of waiting for frames). */
    flush() {
      explorer.flush();
      if (frame) win.cancelAnimationFrame(frame);
      draw();
    },
    destroy() {
      pause();
      if (frame) win.cancelAnimationFrame(frame);
      trainer.dispose();
    },
  };
}

/**
 * The page in training mode (web/app.js calls it for ?mode=train): the panel above the explorer,
 * both in step with the URL (history.replaceState), so a link reopens the same step.
 */
export async function startTrainPage(doc) {
  const win = doc.defaultView;
  const initial = readTrainUrl(win.location.search, win.location.hash);
  const box = doc.getElementById('explorer');
  const section = doc.createElement('section');
  section.className = 'train';
  section.setAttribute('aria-label', 'Watch a head learn');
  box.parentNode.insertBefore(section, box);
  doc.title = 'Attention Explorer: watch a head learn';

  let panel = null;
  const explorer = mountExplorer(doc, {
    container: box,
    url: false,
    controls: EXPLORER_CONTROLS,
    initial: { step: initial.step, follow: initial.follow },
    emit: (type) => {
      if (!panel || (type !== 'step' && type !== 'select')) return;
      panel.writeUrl();
      if (type === 'select') panel.redraw();
    },
  });
  globalThis.__explorer = explorer;
  await explorer.ready;
  const attn = await sharedCore();
  panel = mountTrainPanel(section, {
    doc, attn, explorer, initial,
    onUrl: (q) => win.history.replaceState(null, '', win.location.pathname + q),
  });
  if (initial.follow != null) explorer.setFollow(initial.follow);
  if (initial.cell) explorer.select(initial.cell);
  globalThis.__train = panel;
  return panel;
}
