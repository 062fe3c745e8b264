// @ts-check
// train/svg.js: one SVG element with attributes and optional text (textContent only).

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Appends <tag attrs>text</tag> to `parent` and returns it.
 * @param {Element} parent @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text]
 */
export function svgEl(parent, tag, attrs, text) {
  const e = parent.appendChild(parent.ownerDocument.createElementNS(SVG, tag));
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  if (text != null) e.textContent = text;
  return e;
}
