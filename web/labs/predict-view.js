// predict-view.js: predict, then reveal. mountPredictLab(root, { attn, doc, state, onState }).
import { fmt } from '../blocks/format.js';
import { PRESETS } from '../blocks/presets.js';
import { displayed, matrixInfo } from '../blocks/explain.js';
import {
  presetView, target, parseGuess, guessRule, scoreGuess, explainTarget, EXERCISES, exerciseAnswer, scoreExercise, fieldLine,
  PRESET_CHOICES, HIDE_CHOICES, MODE, defaultState, writeState,
} from './predict.js';
import { h, select, button, matrixFigure, paragraphs, labShell } from './ui.js';

// What a learner sees to predict each hidden matrix from.
/** @type {Record<PredictState['hide'], import('../../types/config').MatrixName[]>} */
const GIVEN = { A: ['S'], S: ['Q', 'K'], O: ['A', 'V'] };
const HIDE_NAMES = { A: 'A (the weights)', S: 'S (the scaled scores)', O: 'O (the output)' };

/** @typedef {import('./lab-types').PredictState} PredictState @typedef {import('./lab-types').LabShell<PredictState>} Lab @typedef {import('./lab-types').Parsed<{ values: number[] }>} Guess */
/** What the learner typed, kept once Reveal was pressed: the guess, or (an exercise) each field's text. @typedef {{ text: string | string[] }} Revealed */
/** @typedef {() => Revealed | null} GetRevealed @typedef {(text: string | string[]) => void} Reveal */
// The cast of defaultState(): predict.js is not typed yet, and tsc reads its choices as any string.
/** @param {HTMLElement} root @param {import('./lab-types').ViewOptions<PredictState>} [options] */
export function mountPredictLab(root, { attn, doc = root.ownerDocument, state = /** @type {PredictState} */ (defaultState()), onState } = /** @type {import('./lab-types').ViewOptions<PredictState>} */ ({})) {
  /** @type {Revealed | null} */
  let revealed = null; // { text } once the learner pressed Reveal; cleared by any other change
  const lab = labShell(root, {
    doc, kind: MODE, state, writeState, onState,
    title: 'Predict, then reveal',
    lede: 'Hide a matrix, guess a cell or a row from what comes before it, then reveal: the page says how close you were and explains the numbers. Or try the lesson’s three knowledge-check questions.',
    render: (/** @type {PredictState} */ s, /** @type {HTMLElement} */ out) => (s.exercise ? renderExercise(attn, doc, s, out, () => revealed, reveal) : renderPreset(attn, doc, s, out, () => revealed, reveal, lab)),
  });
  const baseSet = lab.set;
  lab.set = (patch) => { revealed = null; baseSet(patch); };
  /** @type {Reveal} */
  function reveal(text) { revealed = { text }; lab.redraw(); }
  lab.controls.append(select(doc, 'Exercise', [['', 'Your own prediction on a preset'], ...Object.entries(EXERCISES).map(([k, e]) => /** @type {[string, string]} */ ([k, 'Lesson: ' + e.title]))], state.exercise, (v) => lab.set({ exercise: /** @type {PredictState['exercise']} */ (v) }), 'exercise'));
  lab.redraw();
  return lab;
}

/** @param {Document} doc @param {string} label @param {string | undefined} value @param {number} count @param {Reveal} onReveal */
function guessBox(doc, label, value, count, onReveal, role = 'guess') {
  const input = h(doc, 'input', { attrs: { type: 'text', 'data-control': role, 'aria-label': label, 'aria-describedby': 'guess-rule', inputmode: 'decimal', autocomplete: 'off', placeholder: count > 1 ? `${count} numbers, e.g. ${Array(count).fill('0.2').join(' ')}` : 'e.g. 0.25' } });
  input.value = value ?? '';
  const go = () => onReveal(input.value);
  input.addEventListener('keydown', (ev) => ev.key === 'Enter' && go());
  return h(doc, 'div', {}, h(doc, 'div', { class: 'bar lab-guess' }, h(doc, 'label', { class: 'lab-field' }, label + ' ', input), button(doc, 'Reveal', go, 'reveal')),
    h(doc, 'p', { class: 'muted small', attrs: { id: 'guess-rule', 'data-role': 'guess-rule' }, text: guessRule(count) }));
}

/**
 * @param {import('../../types/attention').Attention} attn @param {Document} doc @param {PredictState} s @param {HTMLElement} out
 * @param {GetRevealed} getRevealed @param {Reveal} reveal @param {Lab} lab
 */
function renderPreset(attn, doc, s, out, getRevealed, reveal, lab) {
  const view = presetView(attn, s.preset);
  const info = matrixInfo(view, s.hide);
  const t = target(view, s);
  const opts = h(doc, 'div', { class: 'bar' },
    select(doc, 'Preset', /** @type {PredictState['preset'][]} */ (PRESET_CHOICES).map((p) => [p, PRESETS[p].title]), s.preset, (v) => lab.set({ preset: /** @type {PredictState['preset']} */ (v) }), 'preset'),
    select(doc, 'Hide', /** @type {PredictState['hide'][]} */ (HIDE_CHOICES).map((m) => [m, HIDE_NAMES[m]]), s.hide, (v) => lab.set({ hide: /** @type {PredictState['hide']} */ (v) }), 'hide'),
    select(doc, 'Guess', [['cell', 'one cell'], ['row', 'a whole row']], s.target, (v) => lab.set({ target: /** @type {PredictState['target']} */ (v) }), 'target'),
    select(doc, 'Row', info.rowLabels.map((l, i) => [i, `${i + 1} ${l}`]), t.i, (v) => lab.set({ row: Number(v) }), 'row'),
    s.target === 'cell' ? select(doc, 'Column', info.colLabels.map((l, j) => [j, `${j + 1} ${l}`]), t.j, (v) => lab.set({ col: Number(v) }), 'col') : null);
  out.append(opts);
  const rev = getRevealed();
  const what = t.kind === 'cell' ? `${s.hide}[${t.i + 1}][${t.j + 1}] (row “${info.rowLabels[t.i]}”, column “${info.colLabels[t.j]}”)` : `row ${t.i + 1} of ${s.hide} (“${info.rowLabels[t.i]}”, ${info.cols} numbers)`;
  out.append(h(doc, 'p', { class: 'lab-task', attrs: { 'data-role': 'task' }, text: `Predict ${what} from ${GIVEN[s.hide].join(' and ')}.` + (s.hide === 'S' ? ' Masked scores are −∞ (type -inf).' : '') }));

  const mats = h(doc, 'div', { class: 'lab-row' });
  for (const m of GIVEN[s.hide]) {
    const mi = matrixInfo(view, m);
    mats.append(matrixFigure(doc, { name: m, id: 'given-' + m, rows: mi.rows, cols: mi.cols, rowLabels: mi.rowLabels, colLabels: mi.colLabels, values: displayed(view, m), about: mi.about }).el);
  }
  const hid = matrixFigure(doc, { name: s.hide, id: 'hidden', rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels, values: displayed(view, s.hide), about: rev ? info.about : 'hidden: make your guess, then reveal', hidden: !rev });
  for (let j = 0; j < info.cols; j++) if (t.kind === 'row' || j === t.j) hid.hm.cell(t.i, j)?.classList.add('lab-target');
  mats.append(hid.el);
  out.append(mats, guessBox(doc, t.kind === 'cell' ? 'Your guess' : `Your guess for the ${info.cols} numbers`, /** @type {string | undefined} */ (rev?.text), t.values.length, reveal));
  if (!rev) return;
  const g = parseGuess(/** @type {string} */ (rev.text), t.values.length); // the guess box keeps one text; an exercise keeps one per field
  if (!g.ok) {
    out.append(h(doc, 'p', { class: 'lab-error', attrs: { role: 'alert', 'data-role': 'guess-error' }, text: g.error }));
    return;
  }
  const sc = scoreGuess(t.values, g.values, t.range);
  out.append(h(doc, 'div', { class: 'lab-result', attrs: { 'data-role': 'result', 'aria-live': 'polite' } },
    h(doc, 'p', { class: 'lab-verdict' }, h(doc, 'span', { class: 'lab-points', attrs: { 'data-role': 'points' }, text: `${sc.points} / 100` }), ` — ${sc.verdict}.`),
    h(doc, 'p', { attrs: { 'data-role': 'guess-read' }, text: g.read }),
    h(doc, 'p', { text: `You guessed ${g.values.map(fmt).join(', ')}; the core computed ${t.values.map(fmt).join(', ')}. ${t.values.length > 1 ? 'Mean distance' : 'Distance'}: ${fmt(sc.error)}.` }),
    paragraphs(doc, [explainTarget(view, t)], 'lab-text explanation')));
}

/**
 * @param {import('../../types/attention').Attention} attn @param {Document} doc @param {PredictState} s
 * @param {HTMLElement} out @param {GetRevealed} getRevealed @param {Reveal} reveal
 */
function renderExercise(attn, doc, s, out, getRevealed, reveal) {
  const ex = EXERCISES[/** @type {keyof typeof EXERCISES} */ (s.exercise)]; // set: render calls this only then
  const rev = getRevealed();
  out.append(h(doc, 'h3', { text: ex.title }), h(doc, 'p', { class: 'lab-task', attrs: { 'data-role': 'task' }, text: ex.question }));
  const inputs = ex.fields.map((f, k) => {
    const i = h(doc, 'input', { attrs: { type: 'text', inputmode: 'decimal', 'data-control': 'field-' + k, 'aria-describedby': 'guess-rule', autocomplete: 'off' } });
    if (rev) i.value = rev.text[k] ?? '';
    i.addEventListener('keydown', (ev) => ev.key === 'Enter' && go()); // as in the guess box
    return h(doc, 'label', { class: 'lab-field' }, f + ' ', i);
  });
  const go = () => reveal(inputs.map((l) => /** @type {HTMLInputElement} */ (l.querySelector('input')).value));
  out.append(h(doc, 'div', { class: 'lab-fields' }, ...inputs),
    h(doc, 'p', { class: 'muted small', attrs: { id: 'guess-rule', 'data-role': 'guess-rule' }, text: `In each field, ${guessRule(1).replace(/^T/, 't')}` }),
    h(doc, 'div', { class: 'bar' }, button(doc, 'Reveal', go, 'reveal')));
  if (!rev) return;
  const guesses = /** @type {string[]} */ (rev.text).map((x) => /** @type {Guess} */ (parseGuess(x, 1)));
  const answer = exerciseAnswer(attn, s.exercise);
  const values = guesses.map((g) => (g.ok ? g.values[0] : NaN));
  const sc = scoreExercise(answer, values);
  out.append(h(doc, 'div', { class: 'lab-result', attrs: { 'data-role': 'result', 'aria-live': 'polite' } },
    h(doc, 'p', { class: 'lab-verdict' }, h(doc, 'span', { class: 'lab-points', attrs: { 'data-role': 'points' }, text: `${sc.points} / 100` }), ` — ${sc.count} of ${sc.right.length} right.`),
    h(doc, 'ul', {}, ...ex.fields.map((f, k) => h(doc, 'li', { class: sc.right[k] ? 'lab-ok' : 'lab-bad', text: fieldLine(ex, k, guesses[k].ok ? values[k] : null, answer.values[k], sc.right[k], /** @type {string[]} */ (rev.text)[k]) }))),
    h(doc, 'p', { class: 'label', text: 'Explanation (from the lesson)' }),
    h(doc, 'p', { attrs: { 'data-role': 'lesson-answer' }, text: ex.explanation }),
    h(doc, 'p', { class: 'muted small', text: answer.note })));
}
