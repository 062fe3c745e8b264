// index.js: every lab, by its mode name (the ?mode= of the page and the mode="" of the element).
// mountLab(mode, root, { attn, doc, params, onState }) mounts one lab with its state read from
// URL parameters; onState(paramsObject) is called with the lab's new URL state on every change.
import { list, clipMessage } from '../blocks/words.js';
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
import { paramNotes as notesOf, mountLabRecord } from './mount.js';
import { CATALOG } from './catalog.js';

// Each lab's title is written once, in catalog.js (the labs page loads from it lazily).
/** @param {string} mode */
const titleOf = (mode) => /** @type {import('./catalog.js').LabEntry} */ (CATALOG.find((e) => e.mode === mode)).title;

/** @typedef {import('./mount.js').Lab} Lab @typedef {import('./mount.js').MountOptions} MountOptions */

/**
 * One lab: its pure module and its view, which share the state type S. The list holds every lab,
 * so S is forgotten here: mountLabRecord hands the view only the state its own module read.
 * @template S
 * @param {{ MODE: string, defaultState(): S, readState(params: URLSearchParams): S, writeState(state: S): Record<string, unknown> }} state
 * @param {(root: HTMLElement, options: import('./lab-types').ViewOptions<S>) => import('./mount.js').LabApi} mount
 * @returns {Lab}
 */
const labRecord = (state, mount) => ({
  mode: state.MODE, title: titleOf(state.MODE),
  state: /** @type {Lab['state']} */ (state), mount: /** @type {Lab['mount']} */ (/** @type {unknown} */ (mount)),
});

/** @type {Lab[]} */
export const LABS = [
  labRecord(sqrtdk, mountSqrtDkLab),
  labRecord(stability, mountStabilityLab),
  labRecord(misconceptions, mountMisconceptionsLab),
  labRecord(predict, mountPredictLab),
  labRecord(multihead, mountMultiHeadLab),
  labRecord(cross, mountCrossLab),
  labRecord(fused, mountFusedLab),
];
export const LAB_MODES = LABS.map((l) => l.mode);

/** @param {string | null} mode @returns {Lab | null} */
export function labOf(mode) {
  return LABS.find((l) => l.mode === mode) || null;
}

export { queryOf } from './mount.js'; // a lab's state object as its query string

/**
 * Every URL parameter the lab could not use as written, in the learner's words (the lab then
 * shows its own value): "dk=1e9 is not a value this lab can use; it shows dk=64."
 * @param {string} mode @param {URLSearchParams} params @returns {string[]}
 */
export function paramNotes(mode, params) {
  return notesOf(labOf(mode), params);
}

/**
 * Mounts lab `mode` in root with its state read from `params`. Parameters it could not use are
 * said above it (paramNotes), with any `notes` the caller adds (the page's unknown lab).
 * @param {string} mode @param {HTMLElement} root @param {MountOptions} [options]
 */
export function mountLab(mode, root, options = /** @type {MountOptions} */ ({})) {
  const lab = labOf(mode);
  if (!lab) throw new Error(`unknown lab "${clipMessage(mode, 40)}": the labs are ${list(LAB_MODES)}`);
  return mountLabRecord(lab, root, options);
}
