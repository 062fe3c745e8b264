// explorer/controls-view.js: the controls that show the state back: the preset menu and its
// note (what changed and how to go back), the formula line, the tour button, the theme button,
// the config box and the export menu.

import { formulaLine } from '../blocks/explain.js';
import { el, setText, setAttr } from '../blocks/dom.js';
import { can, tourAvailable } from './state.js';
import { presetNote, ownHeadLabel, resetLabel, pasteNote } from './notes.js';
import { PRESETS } from '../blocks/presets.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('./mount.js').Lookup} Lookup */

/**
 * The preset menu's options, one per entry of PRESETS in its order (value: the name, text: the
 * title), before the "(your own head)" option the markup holds.
 * @param {Document} doc @param {Element} menu @param {Element} ownHead
 */
export function fillPresetMenu(doc, menu, ownHead) {
  for (const [name, preset] of Object.entries(PRESETS)) {
    const option = el(doc, 'option', '', preset.title);
    option.setAttribute('value', name);
    menu.insertBefore(option, ownHead);
  }
}

/** @param {Document} doc @param {Lookup} $ @param {() => Element | null} active */
export function createControlsView(doc, $, active) {
  fillPresetMenu(doc, $('preset'), $('own-head'));
  let noted = ''; // the config revision the preset note was written for
  /** @param {State} state */
  function drawPreset(state) {
    const key = `${state.rev} ${state.preset} ${state.origin}`;
    if (key !== noted) {
      noted = key;
      setText($('own-head'), ownHeadLabel(state));
      $('preset').value = state.preset || '';
      setText($('preset-note'), presetNote(state));
      setText($('reset'), resetLabel(state));
      setText($('config-note'), pasteNote(state));
    }
    $('tour-start').hidden = !can(state, 'steps') || !tourAvailable(state);
    setAttr($('tour-start'), 'aria-pressed', String(state.tour != null));
  }

  /** @param {State} state @param {HTMLElement} host */
  function drawTheme(state, host) {
    host.dataset.theme = state.theme;
    const b = $('theme');
    setAttr(b, 'aria-pressed', String(state.theme === 'dark'));
    setText(b, 'Dark theme');
  }

  /** @param {State} state */
  function drawConfigBox(state) {
    const ta = $('config-text');
    if (/** @type {HTMLDetailsElement} */ (ta.closest('details')).open && active() !== ta && !ta.dataset.bad) ta.value = JSON.stringify(state.config);
  }

  /**
   * The export menu lists the matrices drawn (`names`); CSV needs one chosen.
   * @param {readonly string[]} names
   */
  function drawExports(names) {
    const what = $('export-what');
    if (what.options.length !== names.length + 1 || names.some((m, k) => what.options[k + 1].value !== m)) {
      const keep = what.value;
      while (what.options.length > 1) what.remove(1);
      for (const m of names) {
        const o = what.appendChild(el(doc, 'option', null, 'matrix ' + m));
        o.value = m;
      }
      what.value = names.includes(keep) ? keep : '';
    }
    $('export-csv').disabled = !what.value;
  }

  /** @param {State} state @param {View} view @param {readonly string[]} names */
  function draw(state, view, names) {
    drawPreset(state);
    setText($('formula'), formulaLine(view));
    drawConfigBox(state);
    drawExports(names);
  }

  /**
   * The config box after a link's config failed: its text, kept for fixing, and the box open.
   * @param {string} text
   */
  function showBadConfig(text) {
    const ta = $('config-text');
    ta.value = text;
    ta.dataset.bad = '1';
    /** @type {HTMLDetailsElement} */ (ta.closest('details')).open = true;
  }

  return { draw, drawTheme, showBadConfig };
}
