// layout.js: the element's layout, full or compact (a slide, a short frame). The layout attribute
// chooses it: "compact" or "full"; without one (or with "auto") the element is compact exactly
// when the page gave its box less height than the full layout needs (a height or max-height on
// the element), and full again once the box has room. The compact rules are in
// web/explorer/style.css (html[data-layout='compact']); the host carries data-layout.

/** The values the layout attribute takes; anything else counts as "auto". */
export const LAYOUTS = /** @type {const} */ (['auto', 'full', 'compact']);

/**
 * The layout to show. `asked` is the attribute; `fullHeight` the height the full layout needs at
 * the element's width, and `boxHeight` the height the page gives the element (the same as
 * fullHeight when the element's height is left to its content), both in CSS pixels.
 * @param {string | null} asked @param {number} fullHeight @param {number} boxHeight
 * @returns {'full' | 'compact'}
 */
export function chooseLayout(asked, fullHeight, boxHeight) {
  if (asked === 'full' || asked === 'compact') return asked;
  return fullHeight > boxHeight + 1 ? 'compact' : 'full'; // (1 px: sub-pixel rounding of the two)
}

/**
 * Keeps `host`'s data-layout chosen while the element lives: on every change of the host's box
 * or of the height of what it shows, and when `update()` is called (its layout attribute changed).
 * `frame` wraps everything the element shows; its height is the height of what is shown.
 * @param {HTMLElement} host @param {HTMLElement} frame
 */
export function watchLayout(host, frame) {
  const win = host.ownerDocument.defaultView;
  const update = () => {
    // The height the full layout needs: measured with it on, at once (nothing is painted between).
    // An inline host, which a page's `all: unset` makes it, has no height of its own to be short.
    host.dataset.layout = 'full';
    const full = frame.offsetHeight;
    const inline = /^(inline|contents)$/.test(win?.getComputedStyle(host).display ?? '');
    host.dataset.layout = chooseLayout(host.getAttribute('layout'), full, inline ? full : host.clientHeight);
  };
  // Chosen on the next frame after a change of the box or of what is shown (a head drawn, a new
  // preset), so a choice never resizes in the same pass what it measured (which a
  // ResizeObserver would report as a loop). (Its first report, once the host is in a page, makes
  // the first choice: an element may not set its own attributes while it is being constructed.)
  let queued = 0;
  const observer = win?.ResizeObserver && new win.ResizeObserver(() => {
    queued ||= win.requestAnimationFrame(() => ((queued = 0), update()));
  });
  observer?.observe(host);
  observer?.observe(frame);
  return { update };
}
