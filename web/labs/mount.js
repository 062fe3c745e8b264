// mount.js: mounting one lab, given its record { mode, title, state, mount } (web/labs/index.js
// holds every lab's; web/labs/catalog.js loads one on demand for the labs page), and the lab's
// URL state: queryOf, and paramNotes for the parameters it could not use.
import { clipMessage } from '../blocks/words.js';

/**
 * A lab's pure module (./sqrtdk.js, ...): its mode, and its state to and from URL parameters.
 * Each lab has its own state; the methods take it bivariantly, so one list holds every lab.
 * @typedef {{ MODE: string, defaultState(): object, readState(params: URLSearchParams): object,
 *   writeState(state: object): Record<string, unknown> }} LabState
 */
/** What a mounted lab returns (labShell's API and more): its state now too. @typedef {{ state: object, destroy(): void, redraw(): void }} LabApi */
/**
 * @typedef {{ mode: string, title: string, state: LabState,
 *   mount(root: HTMLElement, options: { attn: import('../../types/attention').Attention, doc: Document, state: object, onState?: (params: Record<string, unknown>) => void }): LabApi }} Lab
 */
/**
 * mountLabRecord's options (and web/labs/index.js mountLab's).
 * @typedef {{ attn: import('../../types/attention').Attention, doc?: Document, params?: URLSearchParams,
 *   onState?: (params: Record<string, unknown>) => void, notes?: string[] }} MountOptions
 */

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
 * @param {Lab | null} lab @param {URLSearchParams} params @returns {string[]}
 */
export function paramNotes(lab, params) {
  if (!lab) return [];
  const state = lab.state.readState(params);
  const used = lab.state.writeState(state);
  const known = [...new Set([...Object.keys(lab.state.writeState(lab.state.defaultState())), ...Object.keys(state)])].filter((k) => k !== 'mode');
  /** @type {string[]} */
  const notes = [];
  /** @param {string} text @param {unknown} value */
  const same = (text, value) => String(value) === text.replace(/\u2212/g, '-').replace(/\s/g, '') || (Number(text) === value && text.trim() !== '');
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
 * Mounts `lab` ({ mode, title, state, mount }) in root with its state read from `params`.
 * Parameters it could not use are said above it (paramNotes), with any `notes` the caller adds
 * (the page's unknown lab).
 * @param {Lab} lab @param {HTMLElement} root @param {MountOptions} [options]
 */
export function mountLabRecord(lab, root, { attn, doc = root.ownerDocument, params = new URLSearchParams(), onState, notes = [] } = /** @type {MountOptions} */ ({})) {
  const said = [...notes, ...paramNotes(lab, params)];
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
