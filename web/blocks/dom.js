// @ts-check
// blocks/dom.js: the helpers every view uses to make an element (text goes in as textContent,
// never as HTML).

/**
 * el(doc, 'span', 'pname', 'Q') -> <span class="pname">Q</span>
 * @template {keyof HTMLElementTagNameMap} K
 * @param {Document} doc @param {K} tag @param {string | null} [cls] @param {string | null} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(doc, tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/**
 * Sets an element's text only when it differs: rewriting the same text still costs a layout,
 * and a live region may read it out again.
 * @param {Element} e @param {string} text
 */
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

/**
 * Sets an attribute only when it differs (a write restyles whatever a selector on it matches).
 * @param {Element} e @param {string} name @param {string} value
 */
export function setAttr(e, name, value) {
  if (e.getAttribute(name) !== value) e.setAttribute(name, value);
}
