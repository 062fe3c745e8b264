// @ts-check
// blocks/dom.js: the helpers every view uses to make an element (text goes in as textContent,
// never as HTML), and the Copy link button of the panel pages.

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

/**
 * A "Copy link" button's click: writes the address (writeUrl), copies it, and says so on the
 * button for two seconds, or asks the reader to copy the address bar where the clipboard is refused.
 * @param {Window} win @param {HTMLElement} button @param {() => void} writeUrl @param {string} label the button's own text
 */
export async function copyLinkTo(win, button, writeUrl, label) {
  writeUrl();
  try {
    await win.navigator.clipboard.writeText(win.location.href);
    button.textContent = 'Link copied';
  } catch {
    button.textContent = 'Copy the address bar';
  }
  win.setTimeout(() => (button.textContent = label), 2000);
}
