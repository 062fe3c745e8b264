// index.js: every lab, loaded, by its mode name (the ?mode= of the page and the mode="" of the element).
// mountLab(mode, root, { attn, doc, params, onState }) mounts one lab with its state read from
// URL parameters; onState(paramsObject) is called with the lab's new URL state on every change.
import { list, clipMessage } from '../blocks/words.js';
import { paramNotes as notesOf, mountLabRecord } from './mount.js';
import { CATALOG } from './catalog.js';

/** @typedef {import('./mount.js').Lab} Lab @typedef {import('./mount.js').MountOptions} MountOptions */

// The list of labs is catalog.js's (mode, title and modules, each written once): here every lab
// of it is loaded, for the Node tests and tools that want them all at once. A page loads only
// the lab it shows (web/labs/labs-page.js, web/element/mode-labs.js), through the catalog.
/** @type {Lab[]} */
export const LABS = await Promise.all(CATALOG.map((entry) => entry.load()));
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
