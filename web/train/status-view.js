// @ts-check
// train/status-view.js: the panel's controls and read-outs that are words: the step counter and
// loss, the replay's progress, the Train button, the settings' selects, the task's goal, the
// seed line and the error line. Drawn from panelModel() (train/state.js).
import { LR_CHOICES, SPEEDS, TASKS, TASK_NAMES, OPTIMIZERS } from './words.js';

/** @param {HTMLSelectElement} sel @param {string} value @param {string} text */
function addOption(sel, value, text) {
  const o = sel.appendChild(sel.ownerDocument.createElement('option'));
  o.value = value;
  o.textContent = text;
  return o;
}

/** Fills the selects once. @param {(id: string) => any} $ */
export function fillControls($) {
  for (const name of TASK_NAMES) addOption($('train-task'), name, TASKS[name].title);
  for (const lr of LR_CHOICES) addOption($('train-lr'), String(lr), String(lr));
  for (const s of SPEEDS) addOption($('train-speed'), String(s), s === 1 ? '1 step a frame' : `${s} steps a frame`);
  for (const [k, v] of Object.entries(OPTIMIZERS)) addOption($('train-opt'), k, v);
}

/** @param {(id: string) => any} $ @param {ReturnType<typeof import('./state.js').panelModel>} m */
export function drawStatus($, m) {
  $('train-steps').textContent = m.stepText;
  $('train-loss').textContent = m.lossText;
  const rp = $('train-replay');
  rp.hidden = !m.replay;
  if (m.replay) {
    $('train-replay-bar').max = m.replay.of;
    $('train-replay-bar').value = m.replay.at;
    $('train-replay-text').textContent = `step ${m.replay.at} of ${m.replay.of}`;
  }
  const run = $('train-run');
  run.textContent = m.playing ? '❚❚ Pause' : '▶ Train';
  run.setAttribute('aria-pressed', String(m.playing));
  $('train-task').value = m.task;
  $('train-goal').textContent = m.goal;
  const lrSel = $('train-lr');
  if (![...lrSel.options].some((o) => Number(o.value) === m.lr)) addOption(lrSel, String(m.lr), String(m.lr));
  lrSel.value = [...lrSel.options].find((o) => Number(o.value) === m.lr).value;
  $('train-speed').value = String(m.speed);
  $('train-opt').value = m.optimizer;
  $('train-seed').textContent = m.seedText;
  const err = $('train-error');
  err.textContent = m.error;
  err.hidden = !m.error;
}
