// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// explorer/controls-view.js: the controls that show the state back: the preset menu and its
// note (what changed and how to go back), the formula line, the tour button, the theme button,
// the config box and the export menu.

import { formulaLine } from '../explain.js';
import { el, setText, setAttr } from './dom.js';
import { can, tourAvailable } from './state.js';
import { presetNote, ownHeadLabel } from './notes.js';

export function createControlsView(doc, $, active) {
  let noted = ''; // the config revision the preset note was written for
  function drawPreset(state) {
    const key = `${state.rev} ${state.preset} ${state.origin}`;
    if (key !== noted) {
      noted = key;
      setText($('own-head'), ownHeadLabel(state));
      $('preset').value = state.preset || '';
      setText($('preset-note'), presetNote(state));
    }
    $('tour-start').hidden = !can(state, 'steps') || !tourAvailable(state);
    setAttr($('tour-start'), 'aria-pressed', String(state.tour != null));
  }

  function drawTheme(state, host) {
    host.dataset.theme = state.theme;
    const b = $('theme');
    setAttr(b, 'aria-pressed', String(state.theme === 'dark'));
    setText(b, 'Dark theme');
  }

  function drawConfigBox(state) {
    const ta = $('config-text');
    if (ta.closest('details').open && active() !== ta && !ta.dataset.bad) ta.value = JSON.stringify(state.config);
  }

  /** The export menu lists the matrices drawn (`names`); CSV needs one chosen. */
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

  function draw(state, view, names) {
    drawPreset(state);
    setText($('formula'), formulaLine(view));
    drawConfigBox(state);
    drawExports(names);
  }

  /** The config box after a link's config failed: its text, kept for fixing, and the box open. */
  function showBadConfig(text) {
    const ta = $('config-text');
    ta.value = text;
    ta.dataset.bad = '1';
    ta.closest('details').open = true;
  }

  return { draw, drawTheme, showBadConfig };
}
