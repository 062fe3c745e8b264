// explorer/events.js: the wiring. Turns the learner's events into actions (web/explorer/state.js)
// and hands their Change to ctx.apply, which schedules the one redraw. Nothing here draws.
//
// ctx = { state, act(action, ...args), apply(change), panels, inspector, exports, api,
//         $, root, doc, win, keysOn, listen(target, type, fn, opts), useUrl, writeUrl(), fromUrl() }

import * as S from './state.js';
import { TOKEN_ROWS } from './state.js';
import { parseNumber } from '../blocks/format.js';
import { STEPS } from '../blocks/config.js';

/** @typedef {import('./mount.js').Ctx & { panels: import('./mount.js').Views['panels'], inspector: import('./mount.js').Views['inspector'], keysOn?: EventTarget, chooseTheme: (t: string) => void }} EventsCtx */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** The element an event happened on (every listener here is on an element of the explorer). @param {Event} ev */
const targetOf = (ev) => /** @type {HTMLElement} */ (ev.target);
/** The nearest element around the event's target that matches `sel`. @param {Event} ev @param {string} sel */
const closest = (ev, sel) => /** @type {HTMLElement | null} */ (targetOf(ev).closest(sel));
/** A config's matrices by name. @param {import('../../types/config').Config} c */
const matricesOf = (c) => /** @type {Record<string, number[][]>} */ (/** @type {unknown} */ (c));

/** @type {Record<string, [number, number]>} */
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * Pointer, keyboard and wheel on the matrices: hover explains, click and focus select, drag and wheel edit.
 * @param {EventsCtx} ctx
 */
function wireMatrices(ctx) {
  const { state, act, panels, $, listen } = ctx;
  const box = $('matrices');
  /** @type {{ id: number, m: string, i: number, j: number, x: number, v0: number, moved: boolean } | null} */
  let drag = null;

  listen(box, 'pointermove', (/** @type {PointerEvent} */ ev) => {
    if (drag && ev.pointerId === drag.id) {
      const dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) act(S.setValue, drag.m, drag.i, drag.j, Math.round((drag.v0 + dx * 0.01) * 100) / 100);
      return;
    }
    if (ev.pointerType === 'touch') return;
    act(S.setHover, panels.cellFromEvent(ev));
  });
  listen(box, 'pointerleave', () => act(S.setHover, null));
  listen(box, 'pointerdown', (/** @type {PointerEvent} */ ev) => {
    box.dataset.pointer = ev.pointerType; // a tapped cell is the cell in hand (mount.js, inspector.place)
    const cell = closest(ev, '.cell.editable');
    if (!cell || ev.pointerType === 'touch' || ev.button !== 0) return;
    const m = cell.dataset.matrix ?? '', i = Number(cell.dataset.row), j = Number(cell.dataset.col);
    drag = { id: ev.pointerId, m, i, j, x: ev.clientX, v0: matricesOf(S.headOf(state))[m][i][j], moved: false };
    cell.setPointerCapture(ev.pointerId);
  });
  const endDrag = () => { drag = null; };
  listen(box, 'pointerup', endDrag);
  listen(box, 'pointercancel', endDrag);
  listen(box, 'change', (ev) => {
    const t = /** @type {HTMLInputElement} */ (ev.target);
    if (t.id === 'causal') act(S.setCausal, t.checked);
    if (t.id === 'scaling') act(S.setScaling, t.checked);
  });
  listen(box, 'click', (/** @type {MouseEvent} */ ev) => {
    if (closest(ev, '#weights-toggle')) return act(S.toggleWeights);
    if (closest(ev, '#leak-toggle')) return act(S.toggleLeak);
    const f = closest(ev, '[data-follow]');
    if (f) return act(S.toggleFollow, Number(f.dataset.follow));
    const c = panels.cellFromEvent(ev);
    if (!c) return;
    const hm = /** @type {import('../blocks/heatmap.js').Heatmap} */ (panels.heatmap(c.m));
    hm.setCursor(c.i, c.j);
    if (hm.mode === 'canvas') hm.focusCursor();
    act(S.select, c);
  });
  listen(box, 'focusin', (ev) => {
    const t = targetOf(ev);
    if (t.dataset.labelOf) panels.heatmap(/** @type {MatrixName} */ (t.dataset.labelOf))?.setCursor(Number(t.dataset.follow), -1);
    else if (t.classList.contains('cell')) {
      // Focus can land on any cell (a screen reader's cursor, a script): the arrow keys
      // move on from the cell that has focus, not from the last one they visited.
      const m = /** @type {MatrixName} */ (t.dataset.matrix);
      panels.heatmap(m)?.setCursor(Number(t.dataset.row), Number(t.dataset.col));
      point(ctx, { m, i: Number(t.dataset.row), j: Number(t.dataset.col) });
    } else if (t.dataset.matrixCanvas) {
      const hm = /** @type {import('../blocks/heatmap.js').Heatmap} */ (panels.heatmap(/** @type {MatrixName} */ (t.dataset.matrixCanvas)));
      hm.setCursor(hm.cursor.i, hm.cursor.j);
      point(ctx, { m: /** @type {MatrixName} */ (hm.m), ...hm.cursor });
    }
  });
  listen(box, 'focusout', (ev) => {
    const t = targetOf(ev);
    if (t.dataset && t.dataset.matrixCanvas) panels.heatmap(/** @type {MatrixName} */ (t.dataset.matrixCanvas))?.hideCursor();
    // the focused cell stood for the pointer (point): it goes with the focus
    const c = state.hover;
    if (c && (t.dataset.matrix === c.m || t.dataset.matrixCanvas === c.m)) act(S.setHover, null);
    ctx.apply({}); // where the explanation floats follows the focus (mount.js)
  });
  listen(box, 'keydown', (/** @type {KeyboardEvent} */ ev) => matrixKey(ctx, ev));
  listen(
    box,
    'wheel',
    (/** @type {WheelEvent} */ ev) => {
      // Only with Alt held: a bare wheel over the selected cell scrolls the page, as a reader expects.
      const c = panels.cellFromEvent(ev);
      if (!ev.altKey || !c || !S.sameCell(c, state.sel) || !S.editable(state).has(c.m)) return;
      ev.preventDefault();
      act(S.nudge, c, (ev.deltaY < 0 ? 1 : -1) * (ev.shiftKey ? 0.01 : 0.1));
    },
    { passive: false },
  );
}

/**
 * The keyboard's cell is explained exactly as a hovered one: it is the selected cell and, until
 * the pointer moves or the focus leaves, the cell pointed at (a mouse left resting on another
 * cell no longer keeps the explanation, or the floating panel, on that one).
 * @param {EventsCtx} ctx @param {import('../../types/config').Cell} cell
 */
function point({ act }, cell) {
  act(S.select, cell);
  act(S.setHover, cell);
}

/**
 * A key inside a matrix: arrows move the cursor, f follows, + (or =) and _ nudge up and down,
 * Enter edits, and a digit, "." or "-" starts typing the new value (so "-0.5" typed on a cell is
 * −0.5: "-" used to nudge, and the number typed after it lost its sign).
 * @param {EventsCtx} ctx @param {KeyboardEvent} ev
 */
function matrixKey(ctx, ev) {
  const { state, act, panels, inspector } = ctx;
  const t = targetOf(ev);
  const m = /** @type {MatrixName | undefined} */ (t.dataset.matrix || t.dataset.matrixCanvas || t.dataset.labelOf);
  if (!m) return;
  const hm = /** @type {import('../blocks/heatmap.js').Heatmap} */ (panels.heatmap(m));
  const { i, j } = hm.cursor;
  const to = MOVES[ev.key] ? [i + MOVES[ev.key][0], j + MOVES[ev.key][1]] : ev.key === 'Home' ? [i, 0] : ev.key === 'End' ? [i, hm.cols - 1] : null;
  if (to) {
    // ← from the first column reaches the row's header (its token's follow button), → comes back.
    ev.preventDefault();
    ev.stopPropagation();
    hm.setCursor(to[0], to[1]);
    hm.focusCursor();
    if (hm.cursor.j >= 0) point(ctx, { m, ...hm.cursor });
    return;
  }
  if (t.dataset.labelOf) return; // Enter and space press the row's follow button
  const cell = { m, i, j };
  if (ev.key === 'e' || ev.key === 'E') {
    // The cell's label is short; its whole story is the explanation's, read on demand.
    ev.preventDefault();
    point(ctx, cell);
    return ctx.$('explanation').focus();
  }
  if (ev.key === 'f' && TOKEN_ROWS.has(m)) return ev.preventDefault(), act(S.toggleFollow, i);
  if (!S.editable(state).has(m)) return;
  if (ev.key === '+' || ev.key === '=') return ev.preventDefault(), act(S.nudge, cell, 0.1);
  if (ev.key === '_') return ev.preventDefault(), act(S.nudge, cell, -0.1);
  const typed = /^[0-9.-]$/.test(ev.key);
  if (ev.key === 'Enter' || ev.key === 'F2' || typed) {
    ev.preventDefault();
    act(S.select, cell);
    inspector.edit(typed ? ev.key : String(matricesOf(S.headOf(state))[m][i][j]), !typed);
    // The typed digit is the cell's new value at once: setting the field's text fires no
    // input event, so without this "5" then Enter left the old value. ("." and "-" are no
    // number yet: the value stays until the field holds one.)
    if (typed) act(S.setValue, m, i, j, parseNumber(ev.key));
  }
}

/** The value editor in the explanation panel. @param {EventsCtx} ctx */
function wireEditor(ctx) {
  const { state, act, panels, $, listen } = ctx;
  const input = $('edit-value');
  listen(input, 'input', () => {
    const v = parseNumber(input.value);
    input.setAttribute('aria-invalid', String(!Number.isFinite(v)));
    if (Number.isFinite(v) && state.sel) act(S.setValue, state.sel.m, state.sel.i, state.sel.j, v);
  });
  listen(input, 'keydown', (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key === 'Enter' || ev.key === 'Escape') {
      ev.preventDefault();
      // Enter keeps what the field shows, whatever way it got there.
      const v = parseNumber(input.value);
      if (ev.key === 'Enter' && state.sel && Number.isFinite(v) && matricesOf(S.headOf(state))[state.sel.m]?.[state.sel.i]?.[state.sel.j] !== v) act(S.setValue, state.sel.m, state.sel.i, state.sel.j, v);
      const hm = state.sel && panels.heatmap(state.sel.m);
      if (hm) hm.focusCursor();
    }
  });
  // Escape from the explanation (reached with e) goes back to the cell it explains.
  listen($('explanation'), 'keydown', (/** @type {KeyboardEvent} */ ev) => {
    const hm = state.sel && panels.heatmap(state.sel.m);
    if (ev.key !== 'Escape' || !hm) return;
    ev.preventDefault();
    ev.stopPropagation();
    hm.focusCursor();
  });
  listen($('edit-minus'), 'click', () => act(S.nudge, panels.fits(state.sel), -0.1));
  listen($('edit-plus'), 'click', () => act(S.nudge, panels.fits(state.sel), 0.1));
}

/** The step bar and the page-wide keys ([, ], ←, →, space). @param {EventsCtx} ctx */
function wireSteps(ctx) {
  const { state, act, $, listen, root, keysOn } = ctx;
  listen($('step-pills'), 'click', (ev) => {
    const b = closest(ev, '[data-step]');
    if (b) act(S.stop), act(S.setStep, b.dataset.step);
  });
  listen($('all'), 'click', () => (act(S.stop), act(S.setStep, null)));
  listen($('lead-step'), 'click', () => (act(S.stop), act(S.setStep, STEPS[0]))); // the lead's first action
  listen($('back'), 'click', () => act(S.stepBy, -1));
  listen($('fwd'), 'click', () => act(S.stepBy, 1));
  listen($('play'), 'click', () => act(S.togglePlay));
  listen(keysOn || root, 'keydown', (/** @type {KeyboardEvent} */ ev) => {
    const t = /** @type {Partial<Element>} */ (ev.composedPath ? ev.composedPath()[0] : ev.target);
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (t.closest && t.closest('input, textarea, select'))) return;
    // A key acted on is marked handled (preventDefault): the element keeps it from its host page.
    if (ev.key === 'Escape' && state.tour != null) return ev.preventDefault(), act(S.endTour);
    if (S.can(state, 'edit') && state.config && (ev.key === 'm' || ev.key === 'M')) return ev.preventDefault(), act(S.toggleCausal);
    if (S.can(state, 'edit') && state.config && (ev.key === 's' || ev.key === 'S')) return ev.preventDefault(), act(S.toggleScaling);
    if (!S.can(state, 'steps')) return;
    const inPanel = t.closest && t.closest('[data-panel], [role="toolbar"]');
    const stepBy = (/** @type {number} */ d) => { // handled only where it moved (past the last step it stays)
      const was = [state.step, state.playing];
      act(S.stepBy, d);
      if (state.step !== was[0] || state.playing !== was[1]) ev.preventDefault();
    };
    if (ev.key === '[' || (ev.key === 'ArrowLeft' && !inPanel)) return stepBy(-1);
    if (ev.key === ']' || (ev.key === 'ArrowRight' && !inPanel)) return stepBy(1);
    if (ev.key === ' ' && !(t.closest && t.closest('button, summary'))) { // a button's or a summary's own key; from a cell too
      ev.preventDefault();
      act(S.togglePlay);
    }
  });
}

/**
 * Following a token, and every control that changes the head.
 * @param {EventsCtx} ctx
 */
function wireHead(ctx) {
  const { act, $, listen } = ctx;
  listen($('tokens'), 'click', (ev) => {
    const b = closest(ev, '[data-follow]');
    if (b) act(S.toggleFollow, Number(b.dataset.follow));
  });
  listen($('tokens'), 'keydown', (/** @type {KeyboardEvent} */ ev) => {
    // A toolbar: the arrow keys, Home and End move between the chips (not between the steps).
    const chips = [.../** @type {NodeListOf<HTMLElement>} */ ($('tokens').querySelectorAll('[data-follow]'))];
    const k = chips.indexOf(targetOf(ev));
    if (k < 0) return;
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: k - 1, ArrowRight: k + 1, ArrowUp: k - 1, ArrowDown: k + 1, Home: 0, End: chips.length - 1 };
    const next = moves[ev.key];
    if (next == null) return;
    ev.preventDefault();
    ev.stopPropagation();
    const to = chips[Math.max(0, Math.min(chips.length - 1, next))];
    for (const b of chips) b.tabIndex = b === to ? 0 : -1;
    to.focus();
  });
  listen($('tokens'), 'change', (ev) => {
    const t = /** @type {HTMLInputElement} */ (ev.target);
    if (t.id === 'follow-number') act(S.setFollow, Math.round(Number(t.value)) - 1);
  });
  listen($('reset'), 'click', () => act(S.reset));
  // The token and feature editors: a field renames, × removes, the button adds (tokens-view.js).
  /** @typedef {import('./state.js').Change | null} Acted */
  /** @type {[string, string, string, (state: S.State, k: number, name: unknown) => Acted, (state: S.State, k: number) => Acted, (state: S.State) => Acted][]} */
  const editors = [
    ['token', 'token', 'remove', S.renameToken, S.removeToken, S.addToken],
    ['feature', 'feature', 'removeFeature', S.renameFeature, S.removeFeature, S.addFeature],
  ];
  for (const [kind, field, remove, rename, drop, add] of editors) {
    listen($(`${kind}-list`), 'input', (ev) => {
      const t = /** @type {HTMLInputElement} */ (ev.target);
      const k = t.dataset[field];
      if (k != null) act(rename, Number(k), t.value);
    });
    listen($(`${kind}-list`), 'click', (ev) => {
      const b = closest(ev, `[data-${remove.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}]`);
      if (b) act(drop, Number(b.dataset[remove]));
    });
    listen($(`add-${kind}`), 'click', () => act(add));
  }
  // 'change', not 'input': typing 12 must not pass through a head of width 1
  for (const w of /** @type {const} */ (['dk', 'dv'])) listen($(`width-${w}`), 'change', (ev) => act(S.setWidth, w, /** @type {HTMLInputElement} */ (ev.target).value));
  listen($('preset'), 'change', (ev) => {
    const name = /** @type {HTMLSelectElement} */ (ev.target).value;
    if (S.hasPreset(name)) act(S.setPreset, name, { fromStart: true });
  });
  const ta = $('config-text');
  listen(ta, 'input', () => { ta.dataset.bad = '1'; });
  listen(/** @type {HTMLDetailsElement} */ (ta.closest('details')), 'toggle', () => ctx.apply({}));
  listen($('apply-config'), 'click', () => {
    try {
      act(S.setConfig, ta.value); // the one place the config box is parsed
      delete ta.dataset.bad;
    } catch (e) {
      ctx.apply({ error: 'The config was not applied: ' + /** @type {Error} */ (e).message });
    }
  });
}

/** Theme, copy link, the address bar and the exports. @param {EventsCtx} ctx */
function wirePage(ctx) {
  const { state, $, listen, win, api, exports } = ctx;
  listen($('copy-link'), 'click', async () => {
    ctx.writeUrl();
    const b = $('copy-link');
    try {
      await win.navigator.clipboard.writeText(win.location.href);
      b.textContent = 'Link copied';
    } catch {
      b.textContent = 'Copy the address bar';
    }
    win.setTimeout(() => { b.textContent = 'Copy link'; }, 2000);
  });
  listen($('theme'), 'click', () => ctx.chooseTheme(state.theme === 'dark' ? 'light' : 'dark'));
  listen(ctx.prefersDark, 'change', () => api.setTheme(state.themeSetting)); // "auto" follows the system
  listen(ctx.reducedMotion, 'change', () => {
    state.reducedMotion = ctx.reducedMotion.matches;
    ctx.act(S.stop);
  });
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (ctx.root.querySelectorAll('[data-skip]'))) {
    listen(a, 'click', () => {
      // Buttons, not #links, so they work inside a shadow root too: they move the focus.
      if (a.dataset.skip === 'inspector') return $('inspector').focus();
      const first = ctx.panels.names().find((m) => ctx.panels.visible(m));
      const hm = first && ctx.panels.heatmap(first);
      if (hm) hm.focusCursor();
      else $('matrices').focus();
    });
  }
  // Whatever takes the focus (a toggle, a token field, Reset), not only a cell, is scrolled out
  // from under the explanation when it is docked at the bottom of a narrow window (WCAG 2.4.11).
  // After the frame: a focused cell first redraws the panel at its new height. Only while it
  // still has the focus, and only under a docked panel: a late frame must not undo a scroll.
  listen(ctx.root, 'focusin', (/** @type {FocusEvent} */ ev) => {
    const t = /** @type {Element | null} */ (ev.composedPath ? ev.composedPath()[0] : ev.target);
    if (!t || $('inspector').contains(t)) return;
    win.requestAnimationFrame(() => {
      if (t.isConnected && /** @type {Document | ShadowRoot} */ (t.getRootNode()).activeElement === t) ctx.inspector.keepClear(win, t, { dockedOnly: true });
    });
  });
  listen($('tour-start'), 'click', () => ctx.act(S.startTour));
  listen($('tour-back'), 'click', () => ctx.act(S.tourTo, (state.tour ?? 0) - 1));
  listen($('tour-next'), 'click', () => ctx.act(S.tourTo, (state.tour ?? 0) + 1));
  listen($('tour-skip'), 'click', () => ctx.act(S.endTour));
  if (ctx.useUrl) listen(win, 'hashchange', () => ctx.fromUrl());
  if (ctx.useUrl) listen(win, 'pagehide', () => ctx.writeUrl()); // a change written soon is written now

  const shown = () => ctx.panels.names();
  const what = () => exports.what(shown());
  const file = (/** @type {string} */ ext) => exports.fileBase(state.preset, what()) + ext;
  listen($('export-what'), 'change', () => { $('export-csv').disabled = !what(); });
  listen($('export-png'), 'click', async () => exports.download(file('.png'), await api.exportPNG(what())));
  listen($('export-svg'), 'click', () => exports.download(file('.svg'), new Blob([api.exportSVG(what())], { type: 'image/svg+xml' })));
  listen($('export-csv'), 'click', () => {
    const m = what();
    if (m) exports.download(file('.csv'), new Blob([api.exportCSV(m)], { type: 'text/csv' }));
  });
  listen($('export-json'), 'click', () => exports.download(file('.json'), new Blob([api.exportJSON(what())], { type: 'application/json' })));
  listen($('export-torch'), 'click', async () => {
    const text = api.exportPyTorch();
    let copied = false;
    try {
      await win.navigator.clipboard.writeText(text);
      copied = true;
    } catch {}
    exports.showText(text, copied ? 'Copied: paste it into a Python file or notebook cell. It prints the same Q, K, V, S, A and O.' : 'Select the script below and copy it (the browser did not allow copying from here).');
  });
}

/** Connects every control of one explorer to its actions. @param {EventsCtx} ctx */
export function wireEvents(ctx) {
  wireMatrices(ctx);
  wireEditor(ctx);
  wireSteps(ctx);
  wireHead(ctx);
  wirePage(ctx);
  ctx.views.geometry.wire(ctx);
}
