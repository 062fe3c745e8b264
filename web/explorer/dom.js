// explorer/dom.js: the one helper every view uses to make an element. Text goes in as
// textContent, never as HTML.

/** el(doc, 'span', 'pname', 'Q') -> <span class="pname">Q</span> */
export function el(doc, tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
