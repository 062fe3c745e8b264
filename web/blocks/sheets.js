// @ts-check
// blocks/sheets.js: constructable stylesheets, one per document and CSS text, shared by every
// element and view that adopts it (a strict CSP allows them, where a <style> needs
// 'unsafe-inline'). The element adopts its own and its mode's (web/element/attention-explorer.js),
// the geometry view adds its own when it loads (web/explorer/geometry-view.js).

/** @type {WeakMap<Document, Map<string, CSSStyleSheet>>} */
const SHEETS = new WeakMap();

/** Whether `root` (a document or a shadow root) takes constructable stylesheets. @param {DocumentOrShadowRoot} root */
export const constructable = (root) => 'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;

/**
 * The sheet of `text` in `doc`, made the first time it is asked for.
 * @param {Document} doc @param {string} text @returns {CSSStyleSheet}
 */
export function sheetOf(doc, text) {
  if (!SHEETS.has(doc)) SHEETS.set(doc, new Map());
  const cache = /** @type {Map<string, CSSStyleSheet>} */ (SHEETS.get(doc));
  if (!cache.has(text)) {
    // (a document being styled has a window; its own CSSStyleSheet)
    const sheet = new (/** @type {Window & typeof globalThis} */ (doc.defaultView)).CSSStyleSheet();
    sheet.replaceSync(text);
    cache.set(text, sheet);
  }
  return /** @type {CSSStyleSheet} */ (cache.get(text));
}
