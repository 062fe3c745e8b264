// explorer/controls-view.js: the controls that show the state back: the preset menu and its
// note, the theme button, the causal and scaling toggles, the config box and the export menu.

import { PRESETS } from '../presets.js';
import { el } from './dom.js';

export function createControlsView(doc, $, active) {
  function drawPreset(state) {
    $('preset').value = state.preset || '';
    $('preset-note').textContent = state.preset
      ? PRESETS[state.preset].note
      : 'Your own head: changed from a preset or loaded from a config. “Reset” goes back to where it started.';
  }

  function drawTheme(state, host) {
    host.dataset.theme = state.theme;
    const b = $('theme');
    b.setAttribute('aria-pressed', String(state.theme === 'dark'));
    b.textContent = state.theme === 'dark' ? 'Light theme' : 'Dark theme';
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

  function draw(state, names) {
    $('causal').checked = state.config.causal;
    $('scaling').checked = state.config.scale == null;
    $('scaling').disabled = false;
    drawPreset(state);
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
