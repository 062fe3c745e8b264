// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// index.js: every lab, by its mode name (the ?mode= of the page and the mode="" of the element).
// mountLab(mode, root, { attn, doc, params, onState }) mounts one lab with its state read from
// URL parameters; onState(paramsObject) is called with the lab's new URL state on every change.
import { list } from '../words.js';
import * as sqrtdk from './sqrtdk.js';
import * as stability from './stability.js';
import * as misconceptions from './misconceptions.js';
import * as predict from './predict.js';
import * as multihead from './multihead.js';
import * as cross from './cross.js';
import * as fused from './fused.js';
import { mountSqrtDkLab } from './sqrtdk-view.js';
import { mountStabilityLab } from './stability-view.js';
import { mountMisconceptionsLab } from './misconceptions-view.js';
import { mountPredictLab } from './predict-view.js';
import { mountMultiHeadLab } from './multihead-view.js';
import { mountCrossLab } from './cross-view.js';
import { mountFusedLab } from './fused-view.js';
import { clipMessage } from '../config.js';

/**
 * A lab's pure module (./sqrtdk.js, ...): its mode, and its state to and from URL parameters.
 * Each lab has its own state; the methods take it bivariantly, so one list holds every lab.
 * @typedef {{ MODE: string, defaultState(): object, readState(params: URLSearchParams): object,
 *   writeState(state: object): Record<string, unknown> }} LabState
 */
/** What a mounted lab returns (labShell's API and more). @typedef {{ destroy(): void, redraw(): void }} LabApi */
/**
 * @typedef {{ mode: string, title: string, state: LabState,
 *   mount(root: HTMLElement, options: { attn: import('../../types/attention').Attention, doc: Document, state: object, onState?: (params: Record<string, unknown>) => void }): LabApi }} Lab
 */
/**
 * mountLab's options.
 * @typedef {{ attn: import('../../types/attention').Attention, doc?: Document, params?: URLSearchParams,
 *   onState?: (params: Record<string, unknown>) => void, notes?: string[] }} MountOptions
 */

/** @type {Lab[]} */
export const LABS = [
  { mode: sqrtdk.MODE, title: 'Why divide by √dk?', state: sqrtdk, mount: mountSqrtDkLab },
  { mode: stability.MODE, title: 'Numerical stability', state: stability, mount: mountStabilityLab },
  { mode: misconceptions.MODE, title: 'Misconceptions', state: misconceptions, mount: mountMisconceptionsLab },
  { mode: predict.MODE, title: 'Predict, then reveal', state: predict, mount: mountPredictLab },
  { mode: multihead.MODE, title: 'Several heads', state: multihead, mount: mountMultiHeadLab },
  { mode: cross.MODE, title: 'Cross-attention', state: cross, mount: mountCrossLab },
  { mode: fused.MODE, title: 'Fused form and n²', state: fused, mount: mountFusedLab },
];
export const LAB_MODES = LABS.map((l) => l.mode);

/** @param {string | null} mode @returns {Lab | null} */
export function labOf(mode) {
  return LABS.find((l) => l.mode === mode) || null;
}

/**
 * The query string for a lab's state object ({ mode, dk: 64, ... } -> "?mode=...&dk=64").
 * @param {Record<string, unknown>} stateParams
 */
export function queryOf(stateParams) {
  return '?' + new URLSearchParams(Object.entries(stateParams).map(([k, v]) => [k, String(v)])).toString();
}

/**
 * Every URL parameter the lab could not use as written, in the learner's words (the lab then
 * shows its own value): "dk=1e9 is not a value this lab can use; it shows dk=64."
 * @param {string} mode @param {URLSearchParams} params @returns {string[]}
 */
export function paramNotes(mode, params) {
  const lab = labOf(mode);
  if (!lab) return [];
  const state = lab.state.readState(params);
  const used = lab.state.writeState(state);
  const known = [...new Set([...Object.keys(lab.state.writeState(lab.state.defaultState())), ...Object.keys(state)])].filter((k) => k !== 'mode');
  /** @type {string[]} */
  const notes = [];
  /** @param {string} text @param {unknown} value */
  const same = (text, value) => String(value) === text.replace(/\u2212/g, '-').replace(/\s+/g, '') || (typeof value === 'number' && Number(text) === value && text.trim() !== '');
  for (const [key, text] of params) {
    if (key === 'mode' || key === 'theme') continue;
    const shown = `${clipMessage(key, 30)}=${clipMessage(text, 30)}`;
    const value = Object.hasOwn(used, key) ? used[key] : Object.hasOwn(state, key) ? /** @type {Record<string, unknown>} */ (state)[key] : undefined;
    if (value === undefined) notes.push(`${shown} is not a setting of this lab (its settings are ${known.join(', ')}); it was left out.`);
    else if (value === null || same(text, value)) continue;
    else notes.push(`${shown} is not a value this lab can use; it shows ${key}=${clipMessage(String(value), 60)}.`);
  }
  return notes;
}

/**
 * Mounts lab `mode` in root with its state read from `params`. Parameters it could not use are
 * said above it (paramNotes), with any `notes` the caller adds (the page's unknown lab).
 * @param {string} mode @param {HTMLElement} root @param {MountOptions} [options]
 */
export function mountLab(mode, root, { attn, doc = root.ownerDocument, params = new URLSearchParams(), onState, notes = [] } = /** @type {MountOptions} */ ({})) {
  const lab = labOf(mode);
  if (!lab) throw new Error(`unknown lab "${clipMessage(mode, 40)}": the labs are ${list(LAB_MODES)}`);
  const said = [...notes, ...paramNotes(mode, params)];
  /** @type {HTMLParagraphElement | null} */
  let box = null;
  if (said.length) {
    box = root.appendChild(doc.createElement('p'));
    box.className = 'error lab-notes';
    box.setAttribute('role', 'alert');
    box.textContent = said.join(' ');
  }
  const api = lab.mount(root, { attn, doc, state: lab.state.readState(params), onState });
  if (box) {
    const notesBox = box;
    const destroy = api.destroy;
    api.destroy = () => (notesBox.remove(), destroy.call(api));
  }
  return api;
}
