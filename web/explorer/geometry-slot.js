// explorer/geometry-slot.js: the geometry view's place in the explorer. Its button is wired from
// the start; the view itself (geometry-view.js and geometry.js) is loaded with import() the first
// time it is shown, so an explorer that never shows it never downloads it (in dist/ it is the
// part attention-explorer.geometry.js). Until then the section says it is loading.

import { setAttr, setText } from '../blocks/dom.js';
import * as S from './state.js';

/** @typedef {import('./mount.js').Lookup} Lookup @typedef {import('./mount.js').View} View @typedef {import('./state.js').State} State */
/** @typedef {Parameters<import('./geometry-view.js')['wireGeometry']>[1]} WireCtx */

/** @param {Document} doc @param {Lookup} $ */
export function createGeometrySlot(doc, $) {
  /** @type {ReturnType<import('./geometry-view.js')['createGeometryView']> | null} */
  let view = null;
  /** @type {Promise<void> | null} */
  let loading = null;
  /** @type {WireCtx | null} */
  let ctx = null;

  function load() {
    loading = import('./geometry-view.js').then((m) => {
      view = m.createGeometryView(doc, $);
      if (ctx) {
        view.wire(ctx);
        ctx.act(() => ({ values: true })); // a frame to draw it in
      }
    }, (/** @type {Error} */ e) => {
      loading = null; // the next frame that shows the view tries again
      setText($('geo-crowded'), `The geometry view could not load: ${e.message}. Check the connection, then press the button again.`);
    });
  }

  return {
    /** @param {State} state @param {View} v */
    draw(state, v) {
      const on = Boolean(state.geometry);
      $('geometry').hidden = !on;
      setAttr($('geometry-toggle'), 'aria-pressed', String(on));
      if (!on) return;
      if (view) return view.draw(state, v);
      $('geo-body').hidden = true;
      if (!loading) load();
    },
    /** @param {WireCtx} c */
    wire(c) {
      ctx = c;
      c.listen($('geometry-toggle'), 'click', () => c.act(S.toggleGeometry));
      if (view) view.wire(c);
    },
  };
}
